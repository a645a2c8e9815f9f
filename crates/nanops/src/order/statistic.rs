//! The order-statistics family's one trait, [`OrderStatistic`], and the two
//! statistics it has today: the median and quantiles.

use super::select::QuantileScratch;
use super::select::{
    finish_picks, median_middles, median_of_middles, median_of_scratch, pair_by_bracket, pick,
    plan_picks, quantiles_in_place_with, Middles, Pick,
};
use crate::element::SelectFloat;
use crate::options::{NanPolicy, QDtype, QuantileMethod};

/// A statistic of a lane's sorted valid values, found by selection.
///
/// A new order statistic implements this trait; the driver
/// (`order::driver::unweighted`) copies each lane's valid values into
/// scratch (or, for a single long lane, brackets the ranks it needs from a
/// sample without a copy) and calls it.
pub(crate) trait OrderStatistic: Sync {
    /// Values per output (one median; one per `q`).
    fn width(&self) -> usize;
    /// Whether results carry a leading axis of [`width`](Self::width) values
    /// (`q`'s axis).
    fn leading_axis(&self) -> bool;
    /// What a NaN in a lane does.
    fn nan_policy(&self) -> NanPolicy;
    /// The statistic of one lane's valid values `vals` (non-empty, NaN-free;
    /// reordered as scratch) into `out` ([`width`](Self::width) values).
    fn of_values<T, R>(&self, vals: &mut [T], scratch: &mut QuantileScratch, out: &mut [R])
    where
        T: SelectFloat,
        R: SelectFloat + From<T>;
    /// The ranks (sorted, distinct, below `n`) of `n` sorted valid values the
    /// statistic needs; it may keep what it worked out in `scratch` for
    /// [`of_ranks`](Self::of_ranks).
    fn ranks(&self, n: usize, scratch: &mut QuantileScratch) -> Vec<usize>;
    /// The statistic from the values at the ranks of the last
    /// [`ranks`](Self::ranks) call (`at_ranks[i]` is the value of rank
    /// `ranks[i]`) into `out`.
    fn of_ranks<T, R>(&self, at_ranks: &[T], scratch: &QuantileScratch, out: &mut [R])
    where
        T: SelectFloat,
        R: SelectFloat + From<T>;
    /// Whether this is the median, which has paths of its own: many short
    /// lanes sorted side by side, small whole arrays from one bracketing pass.
    fn is_median(&self) -> bool {
        false
    }
    /// The statistic of one lane `raw` (NaN included, any order) from
    /// bracketing passes over it (`select::sampled`), without a copy of
    /// its valid values, into `out`; returns the lane's valid count, or
    /// `None` where the caller must copy the lane (no SIMD pass, a lane
    /// too short or mostly NaN, a bracket missed). A NaN in the lane is
    /// skipped here; the caller applies the NaN policy from the count.
    fn of_lane_by_brackets<T, R>(
        &self,
        raw: &[T],
        scratch: &mut QuantileScratch,
        out: &mut [R],
    ) -> Option<usize>
    where
        T: SelectFloat,
        R: SelectFloat + From<T>;
    /// The statistic of `n` (at least one) sorted valid values, the value
    /// of rank `r` being `value(r)`, into `out`.
    fn of_sorted<T, R>(
        &self,
        n: usize,
        value: impl Fn(usize) -> T,
        scratch: &mut QuantileScratch,
        out: &mut [R],
    ) where
        T: SelectFloat,
        R: SelectFloat + From<T>;
}

/// Most quantiles of one call answered by bracketing passes (one pass or
/// two per quantile); with more, the lane's valid values are copied once
/// and selected there.
const MAX_BRACKETED_QUANTILES: usize = 8;

/// Shortest lane whose several quantiles are bracketed: below it a
/// 16-value sample gives wide brackets, and a pass per quantile cost more
/// than one copy and selection (`compare.py --layouts`,
/// `nanquantile([.1, .5, .9])` along axis 0: lanes of 365 slower with a
/// pass per quantile, lanes of 1460 faster; the numbers are in the
/// CHANGELOG).
const MIN_LANE_FOR_SEVERAL: usize = 1024;

/// The median: the middle value, or NumPy's mean of the two middle values
/// (without its overflow).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Median(pub NanPolicy);

impl OrderStatistic for Median {
    fn width(&self) -> usize {
        1
    }
    fn leading_axis(&self) -> bool {
        false
    }
    fn nan_policy(&self) -> NanPolicy {
        self.0
    }
    fn of_values<T, R>(&self, vals: &mut [T], _: &mut QuantileScratch, out: &mut [R])
    where
        T: SelectFloat,
        R: SelectFloat + From<T>,
    {
        out[0] = R::from(median_of_scratch(vals));
    }
    fn ranks(&self, n: usize, _: &mut QuantileScratch) -> Vec<usize> {
        if n % 2 == 1 {
            vec![n / 2]
        } else {
            vec![n / 2 - 1, n / 2]
        }
    }
    fn of_ranks<T, R>(&self, at_ranks: &[T], _: &QuantileScratch, out: &mut [R])
    where
        T: SelectFloat,
        R: SelectFloat + From<T>,
    {
        let m = match at_ranks[..] {
            [a, b] => T::mean_of_two(a, b),
            _ => at_ranks[0],
        };
        out[0] = R::from(m);
    }
    fn is_median(&self) -> bool {
        true
    }
    fn of_lane_by_brackets<T, R>(
        &self,
        raw: &[T],
        _: &mut QuantileScratch,
        out: &mut [R],
    ) -> Option<usize>
    where
        T: SelectFloat,
        R: SelectFloat + From<T>,
    {
        let Middles {
            valid,
            lower,
            upper,
        } = median_middles(raw)?;
        out[0] = R::from(median_of_middles(valid, lower, upper));
        Some(valid)
    }
    fn of_sorted<T, R>(
        &self,
        n: usize,
        value: impl Fn(usize) -> T,
        _: &mut QuantileScratch,
        out: &mut [R],
    ) where
        T: SelectFloat,
        R: SelectFloat + From<T>,
    {
        out[0] = R::from(median_of_middles(n, value((n - 1) / 2), value(n / 2)));
    }
}

/// Quantiles `q` (each in `[0, 1]`) by one of NumPy's methods, with NumPy's
/// index arithmetic in the precision of `q_dtype`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quantiles<'q> {
    /// The probabilities.
    pub q: &'q [f64],
    /// The method.
    pub method: QuantileMethod,
    /// The dtype `q` had in NumPy.
    pub q_dtype: QDtype,
    /// What a NaN in a lane does.
    pub nan_policy: NanPolicy,
}

impl OrderStatistic for Quantiles<'_> {
    fn width(&self) -> usize {
        self.q.len()
    }
    fn leading_axis(&self) -> bool {
        true
    }
    fn nan_policy(&self) -> NanPolicy {
        self.nan_policy
    }
    fn of_values<T, R>(&self, vals: &mut [T], scratch: &mut QuantileScratch, out: &mut [R])
    where
        T: SelectFloat,
        R: SelectFloat + From<T>,
    {
        quantiles_in_place_with(vals, self.q, self.method, self.q_dtype, scratch, out);
    }
    fn ranks(&self, n: usize, scratch: &mut QuantileScratch) -> Vec<usize> {
        plan_picks(n, self.q, self.method, self.q_dtype, scratch);
        scratch.ranks.clone()
    }
    fn of_ranks<T, R>(&self, at_ranks: &[T], scratch: &QuantileScratch, out: &mut [R])
    where
        T: SelectFloat,
        R: SelectFloat + From<T>,
    {
        let ranks = &scratch.ranks;
        let value = |r: usize| ranks.binary_search(&r).ok().map(|i| at_ranks[i]);
        finish_picks(&scratch.picks, value, out);
    }
    /// One bracketing pass per quantile (its one or two adjacent ranks),
    /// each centred on `q`; a NaN `q` needs none.
    fn of_lane_by_brackets<T, R>(
        &self,
        raw: &[T],
        scratch: &mut QuantileScratch,
        out: &mut [R],
    ) -> Option<usize>
    where
        T: SelectFloat,
        R: SelectFloat + From<T>,
    {
        let several = self.q.len() > 1 && raw.len() < MIN_LANE_FOR_SEVERAL;
        if self.q.len() > MAX_BRACKETED_QUANTILES || several {
            return None;
        }
        let (method, q_dtype) = (self.method, self.q_dtype);
        let mut found = [(usize::MAX, T::NAN); 2 * MAX_BRACKETED_QUANTILES];
        let mut valid = None;
        for (i, &q) in self.q.iter().enumerate() {
            if q.is_nan() {
                continue;
            }
            let ranks_of = |n: usize| match pick(n, q, method, q_dtype) {
                Pick::Nan => None,
                Pick::Take(rank) => Some((rank, rank)),
                Pick::Lerp { lo, hi, .. } => Some((lo, hi)),
            };
            let pair = pair_by_bracket(raw, q, ranks_of)?;
            let (k, k_up) = ranks_of(pair.valid)?;
            found[2 * i] = (k, pair.lower);
            found[2 * i + 1] = (k_up, pair.upper);
            valid = Some(pair.valid);
        }
        let valid = valid?;
        plan_picks(valid, self.q, method, q_dtype, scratch);
        let value = |r: usize| found.iter().find(|&&(k, _)| k == r).map(|&(_, v)| v);
        finish_picks(&scratch.picks, value, out);
        Some(valid)
    }
    fn of_sorted<T, R>(
        &self,
        n: usize,
        value: impl Fn(usize) -> T,
        scratch: &mut QuantileScratch,
        out: &mut [R],
    ) where
        T: SelectFloat,
        R: SelectFloat + From<T>,
    {
        plan_picks(n, self.q, self.method, self.q_dtype, scratch);
        finish_picks(&scratch.picks, |r| Some(value(r)), out);
    }
}
