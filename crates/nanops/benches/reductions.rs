//! Criterion benchmarks of the Rust kernels over the layouts the planner distinguishes.
//!
//! Run with `cargo bench -p nanops`. Ratios within one run are meaningful;
//! absolute times across runs on a shared 2-core machine are not.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ndarray::{Array1, Array2, Array3, ArrayD};

/// Deterministic values with about 10% NaN.
fn data(n: usize) -> Vec<f64> {
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
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

fn cases() -> Vec<(&'static str, ArrayD<f64>, Vec<usize>)> {
    let n = 10_000_000;
    vec![
        ("flat_10M_all", Array1::from(data(n)).into_dyn(), vec![0]),
        (
            "1000x10000_axis1",
            Array2::from_shape_vec((1000, 10_000), data(n))
                .unwrap()
                .into_dyn(),
            vec![1],
        ),
        (
            "10000x1000_axis0",
            Array2::from_shape_vec((10_000, 1000), data(n))
                .unwrap()
                .into_dyn(),
            vec![0],
        ),
        (
            "100000x10_axis1",
            Array2::from_shape_vec((100_000, 10), data(1_000_000))
                .unwrap()
                .into_dyn(),
            vec![1],
        ),
        (
            "100x200x300_axes02",
            Array3::from_shape_vec((100, 200, 300), data(6_000_000))
                .unwrap()
                .into_dyn(),
            vec![0, 2],
        ),
    ]
}

fn streaming(c: &mut Criterion) {
    let mut g = c.benchmark_group("streaming");
    g.sample_size(10);
    for (name, a, axes) in cases() {
        g.throughput(Throughput::Bytes((a.len() * 8) as u64));
        let ax = || nanops::Axes::from(axes.clone());
        g.bench_with_input(BenchmarkId::new("nansum", name), &a, |b, a| {
            b.iter(|| nanops::nansum(black_box(a), ax()).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("nanmean", name), &a, |b, a| {
            b.iter(|| nanops::nanmean(black_box(a), ax()).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("nanvar", name), &a, |b, a| {
            b.iter(|| nanops::nanvar(black_box(a), ax(), 0.0).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("nanmax", name), &a, |b, a| {
            b.iter(|| nanops::nanmax(black_box(a), ax()).unwrap())
        });
    }
    g.finish();
}

fn small(c: &mut Criterion) {
    let a = Array1::from(data(1000));
    c.bench_function("nanmean_1000", |b| {
        b.iter(|| nanops::nanmean(black_box(&a), 0).unwrap())
    });
}

criterion_group!(benches, streaming, small);
criterion_main!(benches);
