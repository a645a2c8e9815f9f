//! A quantile or median split in two steps: which ranks of `n` sorted values it
//! reads ([`RankPlan::ranks`]), and the result from the values found there
//! ([`RankPlan::finish`]). The kernels of this module take both steps on one
//! lane in memory; a distributed engine takes the first on the total count,
//! finds the values of those ranks across many chunks, and takes the second, so
//! its result is the one these kernels give on the whole lane, bit for bit.

use super::kernel::{finish_picks, median_of_middles, plan_picks, QuantileScratch};
use super::rank::Pick;
use crate::element::SelectFloat;
use crate::options::{QDtype, QuantileMethod};

/// The ranks one order statistic of `n` sorted values reads, and how it
/// makes its result of the values at those ranks.
///
/// [`quantiles`](Self::quantiles) plans as
/// [`quantiles_in_place_with`](super::quantiles_in_place_with) (NumPy's index
/// arithmetic in the precision of `q_dtype`), [`median`](Self::median) as
/// [`median_in_place`](super::median_in_place) (the mean of the two middle
/// values without overflow); [`finish`](Self::finish) then gives their results
/// bit for bit.
///
/// ```
/// use nanops::select::{quantiles_in_place, QDtype, QuantileMethod, QuantileScratch, RankPlan};
///
/// let values = [7.0, 1.0, 4.0, 10.0, 2.0];
/// let plan = RankPlan::quantiles(values.len(), &[0.3, 0.9], QuantileMethod::Linear, QDtype::Float64);
/// assert_eq!(plan.ranks(), &[1, 2, 3, 4]);
/// let mut sorted = values;
/// sorted.sort_by(f64::total_cmp);
/// let at_ranks: Vec<f64> = plan.ranks().iter().map(|&r| sorted[r]).collect();
/// let mut out = [0.0; 2];
/// plan.finish(&at_ranks, &mut out);
///
/// let (mut copy, mut expected) = (values, [0.0; 2]);
/// quantiles_in_place(&mut copy, &[0.3, 0.9], QuantileMethod::Linear,
///                    &mut QuantileScratch::new(), &mut expected);
/// assert_eq!(out, expected);
/// ```
#[derive(Clone, Debug)]
pub struct RankPlan {
    n: usize,
    /// One per `q`; empty for the median.
    picks: Vec<Pick>,
    /// Sorted, distinct, below `n`.
    ranks: Vec<usize>,
    median: bool,
}

impl RankPlan {
    /// The plan of the quantiles `qs` (in `[0, 1]`; outside they are clipped
    /// through NumPy's index clipping, a NaN `q` gives NaN) of `n` values by
    /// `method`, with the index arithmetic in the precision of `q_dtype`.
    ///
    /// ```
    /// use nanops::select::{QDtype, QuantileMethod, RankPlan};
    ///
    /// let plan = RankPlan::quantiles(4, &[0.5], QuantileMethod::Lower, QDtype::Float64);
    /// assert_eq!(plan.ranks(), &[1]);
    /// assert!(RankPlan::quantiles(0, &[0.5], QuantileMethod::Linear, QDtype::Float64)
    ///     .ranks()
    ///     .is_empty());
    /// ```
    pub fn quantiles(n: usize, qs: &[f64], method: QuantileMethod, q_dtype: QDtype) -> Self {
        let mut scratch = QuantileScratch::new();
        plan_picks(n, qs, method, q_dtype, &mut scratch);
        Self {
            n,
            picks: scratch.picks,
            ranks: scratch.ranks,
            median: false,
        }
    }

    /// The plan of the median of `n` values: the middle rank, or the two
    /// middle ones for even `n` (none for `n == 0`).
    ///
    /// ```
    /// use nanops::select::RankPlan;
    ///
    /// assert_eq!(RankPlan::median(5).ranks(), &[2]);
    /// assert_eq!(RankPlan::median(6).ranks(), &[2, 3]);
    /// let mut out = [0.0f32];
    /// RankPlan::median(6).finish(&[1.0f32, 2.0], &mut out);
    /// assert_eq!(out[0], 1.5);
    /// ```
    pub fn median(n: usize) -> Self {
        let ranks = match n {
            0 => vec![],
            _ if n % 2 == 1 => vec![n / 2],
            _ => vec![n / 2 - 1, n / 2],
        };
        Self {
            n,
            picks: Vec::new(),
            ranks,
            median: true,
        }
    }

    /// The number of values planned for.
    ///
    /// ```
    /// assert_eq!(nanops::select::RankPlan::median(7).len(), 7);
    /// ```
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the plan is for no values (every result NaN).
    ///
    /// ```
    /// assert!(nanops::select::RankPlan::median(0).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The number of results [`finish`](Self::finish) writes (one per `q`;
    /// one for the median).
    ///
    /// ```
    /// use nanops::select::{QDtype, QuantileMethod, RankPlan};
    ///
    /// let plan = RankPlan::quantiles(9, &[0.1, 0.5, 0.9], QuantileMethod::Hazen, QDtype::Float64);
    /// assert_eq!(plan.width(), 3);
    /// ```
    pub fn width(&self) -> usize {
        if self.median {
            1
        } else {
            self.picks.len()
        }
    }

    /// The ranks (0-based positions in the ascending order of the values;
    /// sorted, distinct, below [`len`](Self::len)) whose values
    /// [`finish`](Self::finish) needs.
    ///
    /// ```
    /// use nanops::select::{QDtype, QuantileMethod, RankPlan};
    ///
    /// let plan = RankPlan::quantiles(11, &[0.5, 0.0], QuantileMethod::Nearest, QDtype::Float64);
    /// assert_eq!(plan.ranks(), &[0, 5]);
    /// ```
    pub fn ranks(&self) -> &[usize] {
        &self.ranks
    }

    /// The results from `at_ranks`, the values at [`ranks`](Self::ranks)
    /// (`at_ranks[i]` the value of rank `ranks()[i]`), into the first
    /// [`width`](Self::width) slots of `out`, in the result type `R` (NumPy's
    /// interpolation dtype, as for
    /// [`quantiles_in_place_with`](super::quantiles_in_place_with)).
    ///
    /// A rank without a value (`at_ranks` shorter than the ranks), an empty
    /// plan or a NaN `q` gives NaN.
    ///
    /// ```
    /// use nanops::select::{QDtype, QuantileMethod, RankPlan};
    ///
    /// let plan = RankPlan::quantiles(3, &[0.25], QuantileMethod::Linear, QDtype::Float64);
    /// assert_eq!(plan.ranks(), &[0, 1]);
    /// let mut out = [0.0f64];
    /// plan.finish(&[1.0f32, 2.0], &mut out);
    /// assert_eq!(out[0], 1.5);
    /// plan.finish(&[1.0f32], &mut out);
    /// assert!(out[0].is_nan());
    /// ```
    pub fn finish<T, R>(&self, at_ranks: &[T], out: &mut [R])
    where
        T: SelectFloat,
        R: SelectFloat + From<T>,
    {
        let value = |r: usize| {
            self.ranks
                .binary_search(&r)
                .ok()
                .and_then(|i| at_ranks.get(i).copied())
        };
        if !self.median {
            finish_picks(&self.picks, value, out);
            return;
        }
        if let Some(slot) = out.first_mut() {
            let middles = (value((self.n.max(1) - 1) / 2), value(self.n / 2));
            *slot = match middles {
                (Some(lower), Some(upper)) if self.n > 0 => {
                    R::from(median_of_middles(self.n, lower, upper))
                }
                _ => R::NAN,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::kernel::{median_in_place, quantiles_in_place_with};
    use super::*;
    use crate::options::QuantileMethod as M;

    const METHODS: [M; 13] = [
        M::InvertedCdf,
        M::AveragedInvertedCdf,
        M::ClosestObservation,
        M::InterpolatedInvertedCdf,
        M::Hazen,
        M::Weibull,
        M::Linear,
        M::MedianUnbiased,
        M::NormalUnbiased,
        M::Lower,
        M::Higher,
        M::Midpoint,
        M::Nearest,
    ];

    /// A small deterministic generator with ties, infinities and both zeros.
    fn lane(seed: u64, n: usize) -> Vec<f64> {
        let mut s = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                match (s >> 33) % 23 {
                    0 => f64::INFINITY,
                    1 => f64::NEG_INFINITY,
                    2 | 3 => 1.0,
                    _ => ((s >> 11) % 1000) as f64 / 7.0 - 50.0,
                }
            })
            .collect()
    }

    /// `finish` over the values at the planned ranks of a full sort equals
    /// the in-place kernels, every method, q dtype and length.
    #[test]
    fn plan_then_finish_is_the_kernel() {
        let qs = [0.0, 0.1, 0.25, 0.5, 0.7, 0.9, 0.999, 1.0, f64::NAN];
        for n in (0..40).chain([101, 1000]) {
            let values = lane(n as u64, n);
            let mut sorted = values.clone();
            sorted.sort_by(f64::total_cmp);
            for method in METHODS {
                for q_dtype in [QDtype::Float64, QDtype::Float32, QDtype::Float16] {
                    let plan = RankPlan::quantiles(n, &qs, method, q_dtype);
                    assert!(plan.ranks().windows(2).all(|w| w[0] < w[1]));
                    assert!(plan.ranks().iter().all(|&r| r < n));
                    let at: Vec<f64> = plan.ranks().iter().map(|&r| sorted[r]).collect();
                    let mut got = vec![0.0f64; qs.len()];
                    plan.finish(&at, &mut got);
                    let mut expected = vec![0.0f64; qs.len()];
                    let mut copy = values.clone();
                    let mut scratch = QuantileScratch::new();
                    quantiles_in_place_with(
                        &mut copy,
                        &qs,
                        method,
                        q_dtype,
                        &mut scratch,
                        &mut expected,
                    );
                    for (g, e) in got.iter().zip(&expected) {
                        assert!(
                            g.to_bits() == e.to_bits() || (g.is_nan() && e.is_nan()) || g == e,
                            "n={n} {method:?} {q_dtype:?}: {got:?} != {expected:?}"
                        );
                    }
                }
            }
            let plan = RankPlan::median(n);
            let at: Vec<f64> = plan.ranks().iter().map(|&r| sorted[r]).collect();
            let mut got = [0.0f64];
            plan.finish(&at, &mut got);
            let mut copy = values.clone();
            let expected = median_in_place(&mut copy);
            assert!(got[0] == expected || (got[0].is_nan() && expected.is_nan()));
        }
    }

    /// float32 values interpolated in float64 (a float64 `q` array), as the kernel.
    #[test]
    fn finish_in_a_wider_result_type() {
        let values: Vec<f32> = lane(7, 57).iter().map(|&v| v as f32).collect();
        let mut sorted = values.clone();
        sorted.sort_by(f32::total_cmp);
        let qs = [0.13, 0.5, 0.77];
        let plan = RankPlan::quantiles(values.len(), &qs, M::Weibull, QDtype::Float64);
        let at: Vec<f32> = plan.ranks().iter().map(|&r| sorted[r]).collect();
        let mut got = [0.0f64; 3];
        plan.finish(&at, &mut got);
        let (mut copy, mut expected) = (values.clone(), [0.0f64; 3]);
        quantiles_in_place_with(
            &mut copy,
            &qs,
            M::Weibull,
            QDtype::Float64,
            &mut QuantileScratch::new(),
            &mut expected,
        );
        assert_eq!(got.map(f64::to_bits), expected.map(f64::to_bits));
    }
}
