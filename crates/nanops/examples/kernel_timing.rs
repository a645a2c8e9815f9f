//! Times the streaming reductions, medians and quantiles on the benchmark
//! shapes (a quick profiling aid; `benches/compare.py` is the real benchmark).
//!
//! `cargo run --release -p nanops --example kernel_timing [filter] [shape]`
//! (`REPS=n` sets the repeats; each case prints its fastest time; `COLD=1`
//! times calls whose input comes from main memory)
use nanops::{Axes, QuantileMethod::Linear};
use ndarray::{ArrayD, IxDyn};
use std::time::Instant;

/// Milliseconds of the fastest of `reps` calls. With `COLD=1` in the
/// environment, a read of 640 MB (more than the last-level cache) precedes
/// each call, so that its input comes from main memory.
fn best_ms(reps: usize, mut f: impl FnMut()) -> f64 {
    let evict: Vec<f64> = match std::env::var("COLD") {
        Ok(v) if v == "1" => vec![1.0; 80_000_000],
        _ => Vec::new(),
    };
    (0..reps)
        .map(|_| {
            if !evict.is_empty() {
                std::hint::black_box(evict.iter().fold(0.0, |a, &b| a + b));
            }
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

/// Uniform values with 10% NaN.
fn data(n: usize) -> Vec<f64> {
    let mut x = 88172645463325252u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let u = (x >> 11) as f64 / (1u64 << 53) as f64;
            if u < 0.1 {
                f64::NAN
            } else {
                u * 100.0
            }
        })
        .collect()
}

/// A named timed call.
type Case<'a> = (&'static str, Box<dyn Fn() + 'a>);

fn run<E: nanops::QuantileElement>(label: &str, a: &ArrayD<E>, axes: Axes, filter: &str) {
    let reps: usize = std::env::var("REPS").map_or(7, |r| r.parse().unwrap_or(7));
    let single = match &axes {
        Axes::All => None,
        Axes::One(k) => Some(*k),
        _ => Some(-1),
    };
    let cases: Vec<Case<'_>> = vec![
        ("nansum", Box::new(|| drop(nanops::nansum(a, axes.clone())))),
        (
            "nanmean",
            Box::new(|| drop(nanops::nanmean(a, axes.clone()))),
        ),
        (
            "nanvar",
            Box::new(|| drop(nanops::nanvar(a, axes.clone(), 0))),
        ),
        ("nanmin", Box::new(|| drop(nanops::nanmin(a, axes.clone())))),
        ("nanmax", Box::new(|| drop(nanops::nanmax(a, axes.clone())))),
        ("nanargmax", Box::new(|| drop(nanops::nanargmax(a, single)))),
        (
            "nanmedian",
            Box::new(|| drop(nanops::nanmedian(a, axes.clone()))),
        ),
        (
            "nanquantile3",
            Box::new(|| {
                drop(nanops::nanquantile(
                    a,
                    &[0.1, 0.5, 0.9],
                    axes.clone(),
                    Linear,
                ))
            }),
        ),
    ];
    let mut line = format!("{label:<28}");
    for (name, f) in cases {
        if name.contains(filter) {
            let ms = best_ms(reps, f);
            // microsecond calls (1,000 values) get two more digits
            let digits = if ms < 0.1 { 5 } else { 3 };
            line += &format!(" {name}={ms:.digits$}");
        }
    }
    println!("{line}");
}

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let only = std::env::args().nth(2).unwrap_or_default();
    let v = data(10_000_000);
    let v32: Vec<f32> = v.iter().map(|&x| x as f32).collect();
    let shapes: [(&[usize], Axes); 6] = [
        (&[10_000_000], Axes::All),
        (&[1000, 10_000], Axes::One(1)),
        (&[10_000, 1000], Axes::One(0)),
        (&[100_000, 10], Axes::One(1)),
        (&[100, 200, 300], Axes::Many(vec![0, 2])),
        (&[1000], Axes::All),
    ];
    for (shape, axes) in shapes {
        if !format!("{shape:?}").contains(&only) {
            continue;
        }
        let n: usize = shape.iter().product();
        let a = ArrayD::from_shape_vec(IxDyn(shape), v[..n].to_vec()).unwrap();
        run(
            &format!("f64 {shape:?} {axes:?}"),
            &a,
            axes.clone(),
            &filter,
        );
        let a = ArrayD::from_shape_vec(IxDyn(shape), v32[..n].to_vec()).unwrap();
        run(&format!("f32 {shape:?} {axes:?}"), &a, axes, &filter);
    }
}
