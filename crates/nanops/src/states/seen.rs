//! Whether some value with a property was seen.

use super::state::State;

/// Whether any value pushed had the property (`true`): a state over flags,
/// merged by `or`. Once `true` it stays so, which lets a kernel stop
/// reading (`anynan` after its first NaN).
///
/// ```
/// use nanops::states::{Seen, State};
/// let mut s = Seen::default();
/// for x in [1.0, f64::NAN] {
///     s.push(x.is_nan());
/// }
/// s.merge(&Seen(false));
/// assert!(s.finish());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen(pub bool);

impl State<bool> for Seen {
    type Output = bool;
    #[inline(always)]
    fn push(&mut self, flag: bool) {
        self.0 |= flag;
    }
    #[inline(always)]
    fn merge(&mut self, other: &Seen) {
        self.0 |= other.0;
    }
    #[inline(always)]
    fn finish(&self) -> bool {
        self.0
    }
}
