//! Brute-force references for the tests: a full sort, then NumPy's formulas transcribed
//! literally (float64 index arithmetic, i.e. a float64 or Python-float `q`).

use crate::element::{ascending, SelectFloat};
use crate::options::QuantileMethod;

pub(crate) fn sorted<T: SelectFloat>(values: &[T]) -> Vec<T> {
    let mut sorted = values.to_vec();
    sorted.sort_by(ascending);
    sorted
}

/// What NumPy's `get_virtual_index` returns: an integer index array or a float one.
enum VirtualIndex {
    Integer(i64),
    Float(f64),
}

/// `np.quantile(values, q, method=method)` for one `q` as in `_quantile` (unweighted), with
/// the lerp in `R`; `integer_q` is an integer `q` (only changes `linear`).
pub(crate) fn quantile<T, R>(values: &[T], q: f64, method: QuantileMethod, integer_q: bool) -> R
where
    T: SelectFloat,
    R: SelectFloat + From<T>,
{
    use QuantileMethod as M;
    let x = sorted(values);
    let n = x.len();
    if n == 0 {
        return R::NAN;
    }
    let nf = n as f64;
    let hf = |alpha: f64, beta: f64| nf * q + (alpha + q * (1.0 - alpha - beta)) - 1.0;
    // _discrete_interpolation_to_boundaries
    let boundaries = |index: f64, keep_previous: &dyn Fn(f64, f64) -> bool| {
        let previous = index.floor();
        let gamma = index - previous;
        let chosen = if keep_previous(gamma, index) {
            previous
        } else {
            previous + 1.0
        };
        VirtualIndex::Integer((chosen as i64).max(0))
    };
    let v = match method {
        M::InvertedCdf => boundaries(nf * q - 1.0, &|g, _| g == 0.0),
        M::AveragedInvertedCdf => VirtualIndex::Float(nf * q - 1.0),
        M::ClosestObservation => boundaries(nf * q - 1.0 - 0.5, &|g, i| {
            g == 0.0 && i.floor().rem_euclid(2.0) == 1.0
        }),
        M::InterpolatedInvertedCdf => VirtualIndex::Float(hf(0.0, 1.0)),
        M::Hazen => VirtualIndex::Float(hf(0.5, 0.5)),
        M::Weibull => VirtualIndex::Float(hf(0.0, 0.0)),
        M::Linear if integer_q => VirtualIndex::Integer(((n - 1) as f64 * q) as i64),
        M::Linear => VirtualIndex::Float((nf - 1.0) * q),
        M::MedianUnbiased => VirtualIndex::Float(hf(1.0 / 3.0, 1.0 / 3.0)),
        M::NormalUnbiased => VirtualIndex::Float(hf(3.0 / 8.0, 3.0 / 8.0)),
        M::Lower => VirtualIndex::Integer(((nf - 1.0) * q).floor() as i64),
        M::Higher => VirtualIndex::Integer(((nf - 1.0) * q).ceil() as i64),
        M::Nearest => VirtualIndex::Integer(((nf - 1.0) * q).round_ties_even() as i64),
        M::Midpoint => {
            VirtualIndex::Float(0.5 * (((nf - 1.0) * q).floor() + ((nf - 1.0) * q).ceil()))
        }
    };
    match v {
        VirtualIndex::Integer(i) => R::from(x[i as usize]),
        VirtualIndex::Float(v) => {
            // _get_indexes
            let (mut previous, mut next) = (v.floor(), v.floor() + 1.0);
            if v >= nf - 1.0 {
                previous = -1.0;
                next = -1.0;
            }
            if v < 0.0 {
                previous = 0.0;
                next = 0.0;
            }
            // _get_gamma with fix_gamma
            let gamma = v - previous;
            let gamma = match method {
                M::AveragedInvertedCdf if gamma == 0.0 => 0.5,
                M::AveragedInvertedCdf => 1.0,
                M::Midpoint if v % 1.0 == 0.0 => 0.0,
                M::Midpoint => 0.5,
                _ => gamma,
            };
            let at = |i: f64| if i < 0.0 { x[n - 1] } else { x[i as usize] };
            let (a, b) = (at(previous), at(next));
            // _lerp
            let diff_b_a = b - a;
            let mut result = R::from(a) + R::from(diff_b_a) * R::from_f64_nearest(gamma);
            if gamma >= 0.5 {
                result = R::from(b) - R::from(diff_b_a) * R::from_f64_nearest(1.0 - gamma);
            }
            result
        }
    }
}

/// NumPy's weighted `inverted_cdf` transcribed: stable argsort, cumsum in float64 (zero
/// weights included), normalise, `cdf[cdf == 0] = -1` when `cdf[0] == 0`, searchsorted
/// left, clip at `n - 1`.
pub(crate) fn weighted_inverted_cdf<T: SelectFloat>(values: &[T], weights: &[f64], q: f64) -> T {
    let n = values.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| ascending(&values[i], &values[j]));
    let mut cdf: Vec<f64> = order
        .iter()
        .scan(0.0, |sum, &i| {
            *sum += weights[i];
            Some(*sum)
        })
        .collect();
    let total = cdf[n - 1];
    cdf.iter_mut().for_each(|c| *c /= total);
    if cdf[0] == 0.0 {
        cdf.iter_mut()
            .filter(|c| **c == 0.0)
            .for_each(|c| *c = -1.0);
    }
    let index = cdf.iter().position(|&c| c >= q).unwrap_or(n).min(n - 1);
    values[order[index]]
}

/// The sample with every value repeated by its (integer) weight.
pub(crate) fn repeat_by_weight<T: SelectFloat>(values: &[T], weights: &[f64]) -> Vec<T> {
    values
        .iter()
        .zip(weights)
        .flat_map(|(&v, &w)| std::iter::repeat_n(v, w as usize))
        .collect()
}

/// `np.median` for a lane without overflow: the middle value or `mean_of_two`.
pub(crate) fn median<T: SelectFloat>(values: &[T]) -> T {
    let x = sorted(values);
    let n = x.len();
    match n {
        0 => T::NAN,
        _ if n % 2 == 1 => x[n / 2],
        _ => T::mean_of_two(x[n / 2 - 1], x[n / 2]),
    }
}
