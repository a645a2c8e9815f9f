//! Test data for the blocked moving kernels' bit-for-bit tests.

/// A lane of every kind of value the blocked sums treat apart: unit data,
/// lone outliers, values whose sums overflow, tiny values, `-0.0`, NaN and
/// both infinities (a xorshift sequence of `seed`).
pub(crate) fn mixed_lane(len: usize, seed: u64) -> Vec<f64> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let u = (x >> 11) as f64 / (1u64 << 53) as f64;
            match x % 29 {
                0 => f64::NAN,
                1 => f64::INFINITY,
                2 => f64::NEG_INFINITY,
                3 => 1.7e308,
                4 => -1.6e308,
                5 => 1e8 * u,
                6 => 1e-300 * u,
                7 => -0.0,
                _ => u - 0.5,
            }
        })
        .collect()
}
