//! Counting through a loop nest: the offset of every index of some dimensions.

use super::dim::Dim;

/// Mixed-radix counter over `dims` (outermost first) that tracks the offset.
pub(crate) struct Odometer<'a> {
    dims: &'a [Dim],
    idx: Vec<usize>,
    /// Offset of the current index.
    pub offset: isize,
}

impl<'a> Odometer<'a> {
    /// Positioned at flat (C-order) index `start` of `dims`.
    pub fn new(dims: &'a [Dim], base: isize, start: usize) -> Self {
        let mut idx = vec![0; dims.len()];
        let mut rest = start;
        let mut offset = base;
        for (k, d) in dims.iter().enumerate().rev() {
            if d.len == 0 {
                break;
            }
            idx[k] = rest % d.len;
            rest /= d.len;
            offset += idx[k] as isize * d.stride;
        }
        Odometer { dims, idx, offset }
    }

    /// Indices left before the innermost dimension wraps (counting the current one).
    pub fn run_left(&self) -> usize {
        match (self.dims.last(), self.idx.last()) {
            (Some(d), Some(&i)) => d.len - i,
            _ => 1,
        }
    }

    /// Moves to the next index (wrapping past the end).
    #[inline]
    pub fn advance(&mut self) {
        for k in (0..self.dims.len()).rev() {
            let d = self.dims[k];
            self.idx[k] += 1;
            self.offset += d.stride;
            if self.idx[k] < d.len {
                return;
            }
            self.offset -= d.stride * d.len as isize;
            self.idx[k] = 0;
        }
    }
}

/// Calls `f` with the offset of every index of `dims` (outermost first,
/// C order), starting from `base`.
#[inline(always)]
pub(crate) fn for_each_offset(dims: &[Dim], base: isize, mut f: impl FnMut(isize)) {
    match dims {
        [] => f(base),
        // `for` loops, not `for_each`: an adaptor's out-of-line `fold` would
        // take `f` (the kernel) out of the `simd::dispatch` versions.
        [d] => {
            for i in 0..d.len {
                f(base + i as isize * d.stride);
            }
        }
        [o, d] => {
            for i in 0..o.len {
                let b = base + i as isize * o.stride;
                for j in 0..d.len {
                    f(b + j as isize * d.stride);
                }
            }
        }
        _ => {
            let n: usize = dims.iter().map(|d| d.len).product();
            let mut odo = Odometer::new(dims, base, 0);
            for _ in 0..n {
                f(odo.offset);
                odo.advance();
            }
        }
    }
}
