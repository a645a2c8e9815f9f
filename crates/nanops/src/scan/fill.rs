//! `ffill`/`bfill`/`push`: NaN replaced by the nearest earlier (later) valid
//! value, at most `limit` positions away.

use super::window::LaneKernel;
use crate::element::Element;
use crate::error::Result;
use std::mem::MaybeUninit;

/// Fills each NaN with the last non-NaN value before it (`backward`: the
/// first after it) when that value is at most `limit` positions away
/// (`None`: any distance); other values are copied.
pub(crate) struct Fill {
    /// Most positions a value is carried (`None`: unlimited).
    pub limit: Option<usize>,
    /// Whether values are carried backwards (`bfill`).
    pub backward: bool,
}

impl Fill {
    /// One direction of the lane: `order` yields the positions in the order
    /// values are carried.
    #[inline(always)]
    fn carry<E: Element>(
        &self,
        xs: &[E],
        out: &mut [MaybeUninit<E>],
        order: impl Iterator<Item = usize>,
    ) {
        let limit = self.limit.unwrap_or(usize::MAX);
        // the last valid value and the number of positions since it
        let mut last: Option<E> = None;
        let mut gap = 0usize;
        for i in order {
            let x = xs[i];
            let v = if !x.is_nan_value() {
                last = Some(x);
                gap = 0;
                x
            } else {
                gap = gap.saturating_add(1);
                match last {
                    Some(l) if gap <= limit => l,
                    _ => x,
                }
            };
            out[i].write(v);
        }
    }
}

impl<E: Element> LaneKernel<E> for Fill {
    type Output = E;
    fn validate(&self, _len: usize) -> Result<()> {
        Ok(())
    }
    /// A whole lane (`from` is always 0: fills are never cut).
    fn part(&self, xs: &[E], _from: usize, out: &mut [MaybeUninit<E>], _: &mut Vec<(usize, f64)>) {
        if self.backward {
            self.carry(xs, out, (0..xs.len()).rev());
        } else {
            self.carry(xs, out, 0..xs.len());
        }
    }
}
