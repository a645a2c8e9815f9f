//! Count of valid (non-NaN) values.

use super::state::{Invertible, State};

/// Number of valid values seen: a state over validity flags (`true` for a
/// value that is not NaN).
///
/// ```
/// use nanops::states::{Count, State};
/// let mut c = Count::default();
/// for x in [1.0, f64::NAN] {
///     c.push(!x.is_nan());
/// }
/// c.merge(&Count(3));
/// assert_eq!(c.finish(), 4);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count(pub u64);

impl Count {
    /// Counts one value if it is valid (the same as [`State::push`]).
    #[inline(always)]
    pub fn push_valid(&mut self, valid: bool) {
        self.0 += valid as u64;
    }
}

impl State<bool> for Count {
    type Output = u64;
    #[inline(always)]
    fn push(&mut self, valid: bool) {
        self.push_valid(valid);
    }
    #[inline(always)]
    fn merge(&mut self, other: &Count) {
        self.0 += other.0;
    }
    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0
    }
}

impl Invertible<bool> for Count {
    #[inline(always)]
    fn remove(&mut self, valid: bool) {
        self.0 -= valid as u64;
    }
}
