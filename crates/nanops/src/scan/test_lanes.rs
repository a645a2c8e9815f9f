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

/// `xs` with every finite value above `limit` in magnitude replaced by
/// `small`: a lane none of whose windows overflows.
pub(crate) fn capped(xs: &[f64], limit: f64, small: f64) -> Vec<f64> {
    xs.iter()
        .map(|&x| {
            if x.abs() > limit && x.is_finite() {
                small
            } else {
                x
            }
        })
        .collect()
}

/// `xs` with every infinity replaced by `0.5`.
pub(crate) fn without_infinities(xs: &[f64]) -> Vec<f64> {
    xs.iter()
        .map(|&x| if x.is_infinite() { 0.5 } else { x })
        .collect()
}

/// `xs` rounded to `f32`.
pub(crate) fn narrowed(xs: &[f64]) -> Vec<f32> {
    xs.iter().map(|&x| x as f32).collect()
}

/// The bits of a kernel's results, every slot written.
pub(crate) fn bits<V: Copy + Into<f64>>(ys: &[std::mem::MaybeUninit<V>]) -> Vec<u64> {
    // SAFETY: every slot was written by the kernel under test (the caller's
    // contract).
    ys.iter()
        .map(|y| unsafe { y.assume_init() }.into().to_bits())
        .collect()
}

/// A window of `window` positions needing `min_count` values.
pub(crate) fn spec(window: usize, min_count: usize) -> crate::scan::window::WindowSpec {
    crate::scan::window::WindowSpec {
        window,
        min_count: Some(min_count),
    }
}

/// The bits of the results `kernel` (a blocked kernel's `(lane, from,
/// out)`) gives for positions `from..` of lane `xs`.
pub(crate) fn result_bits<E, V: Copy + Into<f64>>(
    xs: &[E],
    from: usize,
    kernel: impl Fn(&[E], usize, &mut [std::mem::MaybeUninit<V>]),
) -> Vec<u64> {
    let mut ys = vec![std::mem::MaybeUninit::uninit(); xs.len() - from];
    kernel(xs, from, &mut ys);
    bits(&ys)
}
