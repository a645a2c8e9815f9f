//! Times order statistics and extrema along axis 0 of a gappy float32 cube
//! (a profiling aid: `perf record` this binary).
//!
//! ```text
//! cargo run --release -p nanops --example layout_timing -- 1460 181 360 median
//! ```
//! Arguments: the shape (any number of lengths), then one of `median`,
//! `quantile3`, `max`, `mean`; axis 0 is reduced.
use nanops::QuantileMethod;
use ndarray::{ArrayD, Axis, IxDyn};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (func, dims) = args.split_last().expect("shape and function");
    let shape: Vec<usize> = dims.iter().map(|d| d.parse().expect("a length")).collect();
    let n: usize = shape.iter().product();
    let mut x = 88172645463325252u64;
    let inner: usize = shape[1..].iter().product();
    let v: Vec<f32> = (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let u = (x >> 11) as f64 / (1u64 << 53) as f64;
            // every 10th column all NaN (a mask), 10% NaN elsewhere
            if u < 0.1 || (i % inner) % 10 == 3 {
                f32::NAN
            } else {
                (u * 100.0) as f32
            }
        })
        .collect();
    let a = ArrayD::from_shape_vec(IxDyn(&shape), v).expect("shape");
    let flat = a.as_slice().expect("contiguous");
    for _ in 0..5 {
        // the floor: one thread streaming through the same bytes
        let t = Instant::now();
        let mut acc = [0f32; 16];
        for c in flat.chunks_exact(16) {
            for i in 0..16 {
                acc[i] += c[i];
            }
        }
        let floor = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        let check: f64 = match func.as_str() {
            "median" => nanops::nanmedian_axis(&a, Axis(0))
                .unwrap()
                .iter()
                .next()
                .copied()
                .unwrap_or(0.0) as f64,
            "quantile3" => {
                nanops::nanquantile_axis(&a, &[0.1, 0.5, 0.9], Axis(0), QuantileMethod::Linear)
                    .unwrap()
                    .iter()
                    .next()
                    .copied()
                    .unwrap_or(0.0) as f64
            }
            "max" => nanops::nanmax_axis(&a, Axis(0))
                .unwrap()
                .iter()
                .next()
                .copied()
                .unwrap_or(0.0) as f64,
            "mean" => nanops::nanmean_axis(&a, Axis(0))
                .unwrap()
                .iter()
                .next()
                .copied()
                .unwrap_or(0.0) as f64,
            other => panic!("unknown function {other}"),
        };
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let floor_check = acc.iter().sum::<f32>();
        println!(
            "{func} {ms:.2} ms, floor {floor:.2} ms: {:.2}x ({check}, {floor_check})",
            ms / floor
        );
    }
}
