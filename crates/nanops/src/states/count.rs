//! Count of valid (non-NaN) values.

/// Number of valid values seen.
///
/// ```
/// use nanops::states::Count;
/// let mut c = Count::default();
/// c.push_valid(true);
/// c.push_valid(false);
/// c.merge(&Count(3));
/// assert_eq!(c.0, 4);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count(pub u64);

impl Count {
    /// Counts one value if it is valid.
    #[inline(always)]
    pub fn push_valid(&mut self, valid: bool) {
        self.0 += valid as u64;
    }
    /// Adds another partial count.
    #[inline(always)]
    pub fn merge(&mut self, other: &Count) {
        self.0 += other.0;
    }
}
