//! Walking a [`Plan`] over the memory of one view: contiguous runs of one
//! output's values, or rows of many outputs side by side.

use super::dim::Dim;
use super::odometer::{for_each_offset, Odometer};
use super::plan::Plan;
use crate::element::Element;
use crate::simd::prefetch::prefetch;

/// Values gathered per kernel call by [`Strategy::Gather`](super::Strategy::Gather).
const GATHER: usize = 1024;
/// Lanes at most this long, one per output, are reduced across outputs
/// ([`Walker::short_lanes`]): lane set-up and folding would cost more than
/// the values. Lanes of 17 to 32 (a sensor table's 20 channels) went lane
/// by lane through the contiguous kernel at a third of numbagg's speed.
pub(crate) const SHORT_LANE: usize = 32;
/// Rows ahead that [`Walker::for_each_row_of`] prefetches (measured on
/// `nanmedian` along axis 0 of a 10000 × 1000 array: 8 rows gained over
/// none; 4 to 32 were alike).
const PREFETCH_ROWS: usize = 8;
/// Copies `len` values at `stride` starting at `ptr` into `dst` (cleared first).
///
/// # Safety
/// Every `ptr + i·stride`, `i < len`, must be a valid element.
#[inline(always)]
pub(crate) unsafe fn gather<E: Copy>(ptr: *const E, len: usize, stride: isize, dst: &mut Vec<E>) {
    dst.clear();
    // SAFETY: every offset is a valid element (caller).
    dst.extend((0..len).map(|i| unsafe { *ptr.offset(i as isize * stride) }));
}

/// Runs a plan over the memory of one array view.
pub(crate) struct Walker<'a, E> {
    ptr: *const E,
    plan: &'a Plan,
}

// SAFETY: the walker only reads through `ptr`, which points into a view of
// `E: Sync` values that outlives it.
unsafe impl<E: Sync> Send for Walker<'_, E> {}
unsafe impl<E: Sync> Sync for Walker<'_, E> {}

impl<'a, E: Element> Walker<'a, E> {
    /// A walker over `plan` for the view whose first element is at `ptr`.
    ///
    /// # Safety
    /// `plan` must have been made from that view's shape and strides (possibly
    /// restricted), and the view must outlive the walker.
    pub unsafe fn new(ptr: *const E, plan: &'a Plan) -> Self {
        Walker { ptr, plan }
    }

    /// The plan this walker runs.
    #[inline(always)]
    pub fn plan(&self) -> &'a Plan {
        self.plan
    }

    /// The `len` values from `offset` (elements from the view's pointer), a
    /// contiguous run the plan produced.
    #[inline(always)]
    pub fn slice(&self, offset: isize, len: usize) -> &[E] {
        // SAFETY: offsets come from the plan, inside the view (see `new`).
        unsafe { std::slice::from_raw_parts(self.ptr.offset(offset), len) }
    }

    /// Calls `f(j, run)` for every contiguous run of the values of plan-order
    /// output `start + j`, `j < count`, in order of `j`. Strided values are
    /// gathered into a scratch buffer first.
    #[inline(always)]
    pub fn for_each_run(&self, start: usize, count: usize, mut f: impl FnMut(usize, &[E])) {
        if self.plan.reduce_len() == 0 {
            return;
        }
        let (inner, outer) = self.plan.reduced.split_last().expect("never empty");
        let kept: Vec<Dim> = self.plan.kept.iter().map(|k| k.dim).collect();
        let mut odo = Odometer::new(&kept, self.plan.base, start);
        if inner.stride == 1 {
            for j in 0..count {
                for_each_offset(
                    outer,
                    odo.offset,
                    #[inline(always)]
                    |o| f(j, self.slice(o, inner.len)),
                );
                odo.advance();
            }
            return;
        }
        let mut scratch = Vec::with_capacity(GATHER.min(inner.len));
        for j in 0..count {
            for_each_offset(
                outer,
                odo.offset,
                #[inline(always)]
                |o| {
                    let mut done = 0;
                    while done < inner.len {
                        let n = GATHER.min(inner.len - done);
                        // SAFETY: indices `done..done + n` of the lane are inside the view.
                        unsafe {
                            let p = self.ptr.offset(o + done as isize * inner.stride);
                            gather(p, n, inner.stride, &mut scratch);
                        }
                        f(j, &scratch);
                        done += n;
                    }
                },
            );
            odo.advance();
        }
    }

    /// Whether plan-order outputs `start..start + width` sit side by side in
    /// memory (the innermost kept dimension is contiguous and does not wrap
    /// among them): then one reduced index holds a contiguous row of their
    /// values ([`Walker::for_each_row_of`]).
    pub fn side_by_side(&self, start: usize, width: usize) -> bool {
        let Some(inner) = self.plan.kept.last() else {
            return false;
        };
        inner.dim.stride == 1 && inner.dim.len - start % inner.dim.len >= width
    }

    /// How many plan-order outputs from `start` on sit side by side in
    /// memory ([`Walker::side_by_side`] holds for any width up to it); 0 when
    /// the innermost kept dimension is not contiguous.
    pub fn side_by_side_len(&self, start: usize) -> usize {
        match self.plan.kept.last() {
            Some(inner) if inner.dim.stride == 1 => inner.dim.len - start % inner.dim.len,
            _ => 0,
        }
    }

    /// Calls `f` with the `width` values of the outputs `start..start + width`
    /// (side by side: see [`Walker::side_by_side`]) at each reduced index, in
    /// some fixed order of the indices. Reading many lanes at once this way
    /// touches each cache line and page once, where lane-by-lane gathers of
    /// a strided reduction (axis 0 of a C array) touch them once per lane.
    #[inline(always)]
    pub fn for_each_row_of(&self, start: usize, width: usize, mut f: impl FnMut(&[E])) {
        debug_assert!(self.side_by_side(start, width));
        let kept: Vec<Dim> = self.plan.kept.iter().map(|k| k.dim).collect();
        let base = Odometer::new(&kept, self.plan.base, start).offset;
        if let [d] = self.plan.reduced[..] {
            // Each row is a cache miss on its own page, which the hardware
            // prefetcher does not follow: ask for rows ahead, every cache
            // line of their `width` values.
            let pf = PREFETCH_ROWS;
            let row_bytes = width * std::mem::size_of::<E>();
            for i in 0..d.len {
                if i + pf < d.len {
                    let ahead = self
                        .ptr
                        .wrapping_offset(base + (i + pf) as isize * d.stride)
                        .cast::<u8>();
                    for line in (0..row_bytes).step_by(64) {
                        prefetch(ahead.wrapping_add(line));
                    }
                }
                f(self.slice(base + i as isize * d.stride, width));
            }
            return;
        }
        for_each_offset(
            &self.plan.reduced,
            base,
            #[inline(always)]
            |o| f(self.slice(o, width)),
        );
    }

    /// The length of the plan's one reduced dimension when it is a short
    /// contiguous lane (reduced across outputs by [`Walker::short_lanes`] or,
    /// for reducers with [`Reducer::SHORT`], [`Walker::short_lanes_into`]).
    pub fn short_lane(&self) -> Option<usize> {
        match self.plan.reduced[..] {
            [lane] if lane.stride == 1 && lane.len <= SHORT_LANE && lane.len > 0 => Some(lane.len),
            _ => None,
        }
    }
}
