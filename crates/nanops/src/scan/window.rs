//! The moving-window trait of the scan family, [`LaneKernel`], and its
//! options ([`WindowSpec`]).

use crate::element::Element;
use crate::error::{Error, Result};
use std::mem::MaybeUninit;

/// A computation over one whole lane whose output has the lane's length:
/// moving windows (`out[i]` depends on `x[i+1-window..=i]`) and fills
/// (`out[i]` on the values before or after `i`).
///
/// Unlike a [`Scanner`](super::scanner::Scanner), which sees one value at a
/// time, a lane kernel sees the whole lane as one contiguous slice: the value
/// leaving a window is `xs[i - window]`, read again without a branch or a
/// buffer, and kernels whose state is not a small `Copy` value (the
/// monotonic deque of `move_min`) or that run backwards (`bfill`) fit the
/// same driver (`scan::window_driver::run_lanes`), which hands every lane
/// over contiguous, copying strided lanes and tiles of axis-0 lanes into
/// scratch first. A kernel whose state at a position can be rebuilt from
/// the window before it alone (every moving window) also lets the driver
/// cut a long lane into parts on several threads ([`LaneKernel::cut`]).
pub(crate) trait LaneKernel<E: Element>: Sync {
    /// The result type of one position.
    type Output: Copy + Send + Sync + 'static;
    /// Checks the kernel's options against the length of the axis.
    fn validate(&self, len: usize) -> Result<()>;
    /// Writes positions `from..from + out.len()` of the lane `xs` (whose
    /// values before `from` it may read); `scratch` is the calling thread's
    /// reusable buffer of (index, value) pairs. `from` is 0 or a multiple of
    /// [`LaneKernel::cut`]'s alignment.
    fn part(
        &self,
        xs: &[E],
        from: usize,
        out: &mut [MaybeUninit<Self::Output>],
        scratch: &mut Vec<(usize, f64)>,
    );
    /// Where a lane may be cut into parts computed apart (on other threads)
    /// with the same bits as in one piece: `Some((align, warmup))` when any
    /// multiple of `align` is such a cut and a part reads about `warmup`
    /// values before its start; `None` when the lane must run in one piece.
    fn cut(&self) -> Option<(usize, usize)> {
        None
    }
    /// How many lanes this kernel computes side by side when the axis is an
    /// outer one (the rows strategy: each row of a tile read and written in
    /// place by [`LaneKernel::rows`], every lane's state in an array);
    /// `None`: the driver transposes tiles into scratch and runs
    /// [`LaneKernel::part`] on each lane.
    fn rows_tile(&self) -> Option<usize> {
        None
    }
    /// Whether lanes contiguous in the input and the output (the last axis
    /// of a C array) also run side by side: groups of them are transposed
    /// into scratch, computed by [`LaneKernel::rows`] and transposed back
    /// (for kernels whose one lane is a chain of dependent steps, which
    /// side-by-side lanes run in SIMD lanes instead). Needs
    /// [`LaneKernel::rows_tile`].
    fn side_lanes(&self) -> bool {
        false
    }
    /// Computes `width` lanes side by side (at most [`LaneKernel::rows_tile`]),
    /// every position of each: position `i` of lane `c` is read at
    /// `src + i·stride_in + c` and written at `dst + i·stride_out + c`.
    /// Must give the bits [`LaneKernel::part`] gives. The default gathers
    /// each lane and runs `part` on it.
    ///
    /// # Safety
    /// Those positions lie in the view and in the output, and no other
    /// thread writes these outputs.
    #[allow(clippy::too_many_arguments)]
    unsafe fn rows(
        &self,
        src: *const E,
        stride_in: isize,
        dst: *mut Self::Output,
        stride_out: isize,
        len: usize,
        width: usize,
    ) {
        let mut xs = Vec::with_capacity(len);
        let mut ys = vec![MaybeUninit::uninit(); len];
        let mut scratch = Vec::new();
        for c in 0..width {
            xs.clear();
            // SAFETY: as this function's contract.
            unsafe {
                xs.extend((0..len).map(|i| *src.offset(i as isize * stride_in).add(c)));
                self.part(&xs, 0, &mut ys, &mut scratch);
                for (i, y) in ys.iter().enumerate() {
                    dst.offset(i as isize * stride_out)
                        .add(c)
                        .write(y.assume_init());
                }
            }
        }
    }
}

/// A moving window's length and the fewest non-NaN values a position needs
/// (`None`: the whole window, bottleneck's default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WindowSpec {
    /// Values in a full window (`1..=len` of the axis).
    pub window: usize,
    /// Non-NaN values a position needs for a result (otherwise NaN).
    pub min_count: Option<usize>,
}

impl WindowSpec {
    /// The fewest non-NaN values a position needs.
    #[inline(always)]
    pub fn min_count(&self) -> usize {
        self.min_count.unwrap_or(self.window)
    }

    /// Bottleneck's checks: `1 <= window <= len`, `1 <= min_count <= window`.
    pub fn validate(&self, len: usize) -> Result<()> {
        if self.window == 0 || self.window > len {
            return Err(Error::InvalidWindow {
                window: self.window,
                len,
            });
        }
        match self.min_count {
            Some(m) if m == 0 || m > self.window => Err(Error::InvalidMinCount {
                min_count: m,
                window: self.window,
            }),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_and_min_count_are_checked_as_bottleneck_does() {
        let w = |window, min_count| WindowSpec { window, min_count };
        assert!(w(1, None).validate(1).is_ok());
        assert!(w(3, Some(1)).validate(3).is_ok());
        assert_eq!(
            w(0, None).validate(3),
            Err(Error::InvalidWindow { window: 0, len: 3 })
        );
        assert_eq!(
            w(4, None).validate(3),
            Err(Error::InvalidWindow { window: 4, len: 3 })
        );
        assert_eq!(
            w(2, Some(3)).validate(3),
            Err(Error::InvalidMinCount {
                min_count: 3,
                window: 2
            })
        );
        assert!(w(2, Some(0)).validate(3).is_err());
        assert_eq!(w(5, None).min_count(), 5);
        assert_eq!(w(5, Some(2)).min_count(), 2);
    }
}
