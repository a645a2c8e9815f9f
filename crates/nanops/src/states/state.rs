//! The one contract every partial state keeps.

/// A mergeable partial state of a statistic over values of type `T`.
///
/// `push` adds one value, `merge` adds another partial state over disjoint
/// values, `finish` gives the statistic. Pushing all values into one state,
/// and merging the states of any partition of the same values, give the same
/// result up to rounding: that is what lets SIMD lanes, threads, chunks of a
/// larger-than-memory array and a distributed engine cooperate through the
/// same code. States whose statistic can forget a value also implement
/// [`Invertible`] (moving windows).
///
/// `T` is the state's own domain: the accumulator type for sums (`f64` for
/// `f32` data), the element type for extrema. What a NaN means is the
/// state's documented rule: extrema and counts skip it; sums and moments take
/// the values their kernel already kept.
///
/// ```
/// use nanops::states::{Moments, State, Sum};
/// let mut a = Sum::<f64>::default();
/// a.push_slice(&[1e16, 1.0]);
/// let mut b = Sum::default();
/// b.push(-1e16);
/// a.merge(&b);
/// assert_eq!(a.finish(), 1.0);
///
/// let mut m = Moments::<f64>::default();
/// m.push_slice(&[1.0, 2.0, 3.0]);
/// assert_eq!(m.finish(), (3, 2.0, 2.0)); // count, mean, Σ(x − mean)²
/// ```
pub trait State<T>: Clone + Default + Send + Sync {
    /// What a finished state gives.
    type Output;
    /// Adds one value.
    fn push(&mut self, x: T);
    /// Adds every value of `xs` (states with a faster loop override it).
    #[inline]
    fn push_slice(&mut self, xs: &[T])
    where
        T: Copy,
    {
        for &x in xs {
            self.push(x);
        }
    }
    /// Adds a partial state over other values (those after this state's,
    /// where order matters: positions of `nanargmin`).
    fn merge(&mut self, other: &Self);
    /// The statistic of the values seen.
    fn finish(&self) -> Self::Output;
}

/// A [`State`] that can also forget a value it holds, for moving windows.
///
/// Removing a value pushed earlier gives (up to rounding) the state of the
/// other values.
///
/// ```
/// use nanops::states::{Invertible, Mean, State};
/// let mut m = Mean::<f64>::default();
/// m.push_slice(&[1.0, 2.0, 6.0]);
/// m.remove(6.0);
/// assert_eq!(m.finish(), 1.5);
/// ```
pub trait Invertible<T>: State<T> {
    /// Forgets one value pushed earlier.
    fn remove(&mut self, x: T);
}
