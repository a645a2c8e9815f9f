//! Times `nanmedian` of one long lane (a quick profiling aid).
use std::time::Instant;

fn main() {
    let n = 10_000_000;
    let mut x = 88172645463325252u64;
    let v: Vec<f64> = (0..n)
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
        .collect();
    // NANOPS_DATA=file of native f64 values replaces the generated data
    let v = match std::env::var("NANOPS_DATA") {
        Ok(path) => std::fs::read(path)
            .expect("readable data file")
            .chunks_exact(8)
            .map(|b| f64::from_ne_bytes(b.try_into().expect("8 bytes")))
            .collect(),
        Err(_) => v,
    };
    let a = ndarray::Array1::from(v);
    for _ in 0..3 {
        let t = Instant::now();
        let m = nanops::nanmedian(&a, 0).unwrap();
        println!(
            "nanmedian {:.1} ms ({})",
            t.elapsed().as_secs_f64() * 1e3,
            m[[]]
        );
    }
}
