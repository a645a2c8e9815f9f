//! The order-statistics family's one trait, [`OrderStatistic`], and the two
//! statistics it has today: the median and quantiles.

use super::select::QuantileScratch;
use super::select::{finish_picks, median_of_scratch, plan_picks, quantiles_in_place_with};
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
}

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
}
