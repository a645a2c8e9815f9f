//! The plan of a computation along one axis whose result has the input's
//! shape (cumulative sums, moving windows): the axis kept in its direction,
//! the other dimensions normalised as a reduction's kept ones.

use super::dim::{Dim, KeptDim};
use super::plan::sort_and_merge;

/// A loop nest along one axis of a view, its output in C order of the same shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AlongPlan {
    /// Offset, in elements, of the first visited element from the view's pointer.
    pub base: isize,
    /// Offset, in the C-order output, of the first visited element's result.
    pub out_base: isize,
    /// The axis: its length, input stride and output stride, in the view's
    /// direction (never flipped: a scan runs from index 0 up).
    pub axis: KeptDim,
    /// The other dimensions: length-1 ones dropped, negative strides flipped,
    /// ordered by decreasing input stride, contiguous neighbours merged.
    pub others: Vec<KeptDim>,
}

/// How the inner loop meets memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AlongStrategy {
    /// One lane along the axis at a time (contiguous when the axis is).
    Lanes,
    /// The innermost other dimension is contiguous in input and output and
    /// the axis is not: walk the axis outside, a row of lanes inside.
    Rows,
}

impl AlongPlan {
    /// Plans a computation along `axis` (in range) of a view of
    /// `shape`/`strides` (elements).
    pub fn new(shape: &[usize], strides: &[isize], axis: usize) -> AlongPlan {
        let mut out_strides = vec![0isize; shape.len()];
        let mut acc = 1isize;
        for (s, &len) in out_strides.iter_mut().zip(shape).rev() {
            *s = acc;
            acc *= len.max(1) as isize;
        }
        let (mut base, mut out_base) = (0isize, 0isize);
        let mut others = Vec::new();
        for (i, (&len, &stride)) in shape.iter().zip(strides).enumerate() {
            if i == axis || len == 1 {
                continue;
            }
            let (mut dim, mut out_stride) = (Dim { len, stride }, out_strides[i]);
            if stride < 0 && len > 0 {
                base += (len as isize - 1) * stride;
                dim.stride = -stride;
                out_base += (len as isize - 1) * out_stride;
                out_stride = -out_stride;
            }
            others.push(KeptDim { dim, out_stride });
        }
        sort_and_merge(
            &mut others,
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
        AlongPlan {
            base,
            out_base,
            axis: KeptDim {
                dim: Dim {
                    len: shape[axis],
                    stride: strides[axis],
                },
                out_stride: out_strides[axis],
            },
            others,
        }
    }

    /// Number of lanes (the product of the other dimensions).
    pub fn lanes(&self) -> usize {
        self.others.iter().map(|d| d.dim.len).product()
    }

    /// The loop strategy; see [`AlongStrategy`].
    pub fn strategy(&self) -> AlongStrategy {
        let inner = self.others.last();
        let rows = inner.is_some_and(|d| d.dim.stride == 1 && d.out_stride == 1);
        if rows && self.axis.dim.stride != 1 {
            AlongStrategy::Rows
        } else {
            AlongStrategy::Lanes
        }
    }

    /// The other dimensions with their input strides, outermost first.
    pub fn in_dims(&self) -> Vec<Dim> {
        self.others.iter().map(|d| d.dim).collect()
    }

    /// The other dimensions with their output strides, outermost first.
    pub fn out_dims(&self) -> Vec<Dim> {
        self.others
            .iter()
            .map(|d| Dim {
                len: d.dim.len,
                stride: d.out_stride,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_0_of_a_c_array_walks_rows() {
        let p = AlongPlan::new(&[4, 5, 6], &[30, 6, 1], 0);
        assert_eq!(p.axis.dim, Dim { len: 4, stride: 30 });
        assert_eq!(p.axis.out_stride, 30);
        // the two other axes merge into one contiguous dimension
        assert_eq!(p.others.len(), 1);
        assert_eq!(p.others[0].dim, Dim { len: 30, stride: 1 });
        assert_eq!(p.strategy(), AlongStrategy::Rows);
        assert_eq!(p.lanes(), 30);
    }

    #[test]
    fn the_last_axis_is_one_lane_per_row() {
        let p = AlongPlan::new(&[4, 5, 6], &[30, 6, 1], 2);
        assert_eq!(p.strategy(), AlongStrategy::Lanes);
        assert_eq!(p.others[0].dim, Dim { len: 20, stride: 6 });
        assert_eq!(p.others[0].out_stride, 6);
    }

    #[test]
    fn a_reversed_axis_keeps_its_direction_and_others_flip() {
        // a[::-1, ::-1] of a (3, 4) C array: pointer at the last element
        let p = AlongPlan::new(&[3, 4], &[-4, -1], 0);
        assert_eq!(p.axis.dim, Dim { len: 3, stride: -4 });
        assert_eq!(p.others[0].dim, Dim { len: 4, stride: 1 });
        assert_eq!(p.others[0].out_stride, -1);
        assert_eq!((p.base, p.out_base), (-3, 3));
    }
}
