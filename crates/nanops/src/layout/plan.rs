//! The plan of a reduction: a view's (shape, strides, axes) normalised into a
//! loop nest with contiguous inner loops (see the [module docs](super)).

use super::dim::{Dim, KeptDim};
use super::odometer::for_each_offset;

/// How the inner loop meets memory; see the [module docs](super).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Strategy {
    /// Innermost reduced dimension contiguous.
    Lanes,
    /// Innermost kept dimension contiguous.
    Rows,
    /// Neither: gather strided runs into scratch.
    Gather,
}

/// A normalised loop nest for one reduction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Offset, in elements, of the first visited element from the view's pointer.
    pub base: isize,
    /// Kept dimensions, outermost first.
    pub kept: Vec<KeptDim>,
    /// Offset, in elements, of plan-order output 0 in the C-order output.
    pub out_base: isize,
    /// Reduced dimensions, outermost first; never empty (a reduction over no
    /// axis gets one dimension of length 1).
    pub reduced: Vec<Dim>,
    /// Shape of the output: the kept axes in their original order.
    pub out_shape: Vec<usize>,
}

/// Orders dimensions by decreasing stride and merges contiguous neighbours.
pub(super) fn sort_and_merge<T: Copy>(
    dims: &mut Vec<T>,
    key: impl Fn(&T) -> isize,
    merge: impl Fn(&T, &T) -> Option<T>,
) {
    dims.sort_by_key(|d| std::cmp::Reverse(key(d)));
    let mut merged: Vec<T> = Vec::with_capacity(dims.len());
    for &d in dims.iter() {
        match merged.last().and_then(|outer| merge(outer, &d)) {
            Some(m) => *merged.last_mut().expect("non-empty") = m,
            None => merged.push(d),
        }
    }
    *dims = merged;
}

impl Plan {
    /// Plans the reduction of a view of `shape`/`strides` (elements) over
    /// `axes` (sorted, distinct, in range).
    pub fn new(shape: &[usize], strides: &[isize], axes: &[usize]) -> Plan {
        let out_shape: Vec<usize> = (0..shape.len())
            .filter(|i| !axes.contains(i))
            .map(|i| shape[i])
            .collect();
        // C-order output strides of the kept axes.
        let mut out_strides = vec![0isize; out_shape.len()];
        let mut acc = 1isize;
        for (s, &len) in out_strides.iter_mut().zip(&out_shape).rev() {
            *s = acc;
            acc *= len.max(1) as isize;
        }
        let (mut base, mut out_base) = (0isize, 0isize);
        let (mut kept, mut reduced) = (Vec::new(), Vec::new());
        let mut k = 0;
        for (i, (&len, &stride)) in shape.iter().zip(strides).enumerate() {
            let is_reduced = axes.contains(&i);
            let mut dim = Dim { len, stride };
            let mut out_stride = if is_reduced { 0 } else { out_strides[k] };
            if !is_reduced {
                k += 1;
            }
            if len == 1 {
                continue;
            }
            if stride < 0 && len > 0 {
                base += (len as isize - 1) * stride;
                dim.stride = -stride;
                out_base += (len as isize - 1) * out_stride;
                out_stride = -out_stride;
            }
            if is_reduced {
                reduced.push(dim);
            } else {
                kept.push(KeptDim { dim, out_stride });
            }
        }
        sort_and_merge(
            &mut reduced,
            |d| d.stride,
            |o, i| {
                (o.stride == i.stride * i.len as isize).then_some(Dim {
                    len: o.len * i.len,
                    stride: i.stride,
                })
            },
        );
        sort_and_merge(
            &mut kept,
            |d| d.dim.stride,
            |o, i| {
                let n = i.dim.len as isize;
                (o.dim.stride == i.dim.stride * n && o.out_stride == i.out_stride * n).then_some(
                    KeptDim {
                        dim: Dim {
                            len: o.dim.len * i.dim.len,
                            stride: i.dim.stride,
                        },
                        out_stride: i.out_stride,
                    },
                )
            },
        );
        if reduced.is_empty() {
            reduced.push(Dim { len: 1, stride: 1 });
        }
        Plan {
            base,
            kept,
            out_base,
            reduced,
            out_shape,
        }
    }

    /// Number of output elements.
    pub fn out_len(&self) -> usize {
        self.out_shape.iter().product()
    }

    /// Number of values reduced into each output element.
    pub fn reduce_len(&self) -> usize {
        self.reduced.iter().map(|d| d.len).product()
    }

    /// The loop strategy; see [`Strategy`].
    pub fn strategy(&self) -> Strategy {
        let r = self.reduced.last().expect("never empty");
        if r.stride == 1 {
            Strategy::Lanes
        } else if self.kept.last().is_some_and(|k| k.dim.stride == 1) {
            Strategy::Rows
        } else {
            Strategy::Gather
        }
    }

    /// The same plan restricted to indices `start..end` of the outermost
    /// reduced dimension.
    pub fn restrict_reduced(&self, start: usize, end: usize) -> Plan {
        let mut p = self.clone();
        let d = &mut p.reduced[0];
        p.base += start as isize * d.stride;
        d.len = end - start;
        p
    }

    /// The kept dimensions with their output strides: walked from
    /// `out_base`, they give the C-order output offset of each plan-order output.
    pub fn out_dims(&self) -> Vec<Dim> {
        self.kept
            .iter()
            .map(|k| Dim {
                len: k.dim.len,
                stride: k.out_stride,
            })
            .collect()
    }

    /// Whether plan order is C order of the output (output `j` at offset `j`),
    /// as when the kept axes keep their order in memory.
    pub fn out_in_order(&self) -> bool {
        let mut expected = 1isize;
        for k in self.kept.iter().rev() {
            if k.dim.len > 1 && k.out_stride != expected {
                return false;
            }
            expected *= k.dim.len as isize;
        }
        self.out_base == 0
    }

    /// Output offsets (C order) of the plan-order outputs, in plan order.
    pub fn out_offsets(&self) -> Vec<isize> {
        let mut v = Vec::with_capacity(self.out_len());
        for_each_offset(&self.out_dims(), self.out_base, |o| v.push(o));
        v
    }
}
