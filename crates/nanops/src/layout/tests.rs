use super::*;

#[test]
fn c_order_full_reduction_merges_into_one_contiguous_dim() {
    let p = Plan::new(&[4, 5, 6], &[30, 6, 1], &[0, 1, 2]);
    assert_eq!(
        p.reduced,
        vec![Dim {
            len: 120,
            stride: 1
        }]
    );
    assert!(p.kept.is_empty());
    assert_eq!(p.strategy(), Strategy::Lanes);
    assert_eq!((p.out_len(), p.reduce_len()), (1, 120));
}

#[test]
fn axis0_of_c_array_is_rows() {
    let p = Plan::new(&[100, 7], &[7, 1], &[0]);
    assert_eq!(p.strategy(), Strategy::Rows);
    assert_eq!(
        p.reduced,
        vec![Dim {
            len: 100,
            stride: 7
        }]
    );
    assert_eq!(p.out_shape, vec![7]);
}

#[test]
fn fortran_order_last_axis_is_rows_and_first_is_lanes() {
    // F-order (3, 4): strides (1, 3)
    assert_eq!(Plan::new(&[3, 4], &[1, 3], &[1]).strategy(), Strategy::Rows);
    assert_eq!(
        Plan::new(&[3, 4], &[1, 3], &[0]).strategy(),
        Strategy::Lanes
    );
}

#[test]
fn negative_strides_flip_and_move_the_base() {
    // a[::-1] of a length-5 contiguous array: base at +4, stride -1.
    let p = Plan::new(&[5], &[-1], &[0]);
    assert_eq!(p.base, -4);
    assert_eq!(p.reduced, vec![Dim { len: 5, stride: 1 }]);
    // a kept flipped axis flips its output stride too
    let p = Plan::new(&[3, 2], &[-2, 1], &[1]);
    assert_eq!(p.kept[0].out_stride, -1);
    assert_eq!(p.out_base, 2);
    assert_eq!(p.out_offsets(), vec![2, 1, 0]);
}

#[test]
fn length_one_axes_are_dropped_and_empty_reduction_gets_a_unit_dim() {
    let p = Plan::new(&[1, 3, 1], &[3, 1, 1], &[0, 2]);
    assert_eq!(p.reduced, vec![Dim { len: 1, stride: 1 }]);
    assert_eq!(p.out_shape, vec![3]);
    let p = Plan::new(&[2, 3], &[3, 1], &[]);
    assert_eq!(p.reduce_len(), 1);
    assert_eq!(p.out_len(), 6);
}

#[test]
fn strided_views_without_unit_stride_gather() {
    let p = Plan::new(&[4, 5], &[20, 2], &[1]);
    assert_eq!(p.strategy(), Strategy::Gather);
}

#[test]
fn transposed_kept_axes_scatter_to_c_order() {
    // a.T of a C (2, 3) array: shape (3, 2), strides (1, 3); reduce nothing.
    let p = Plan::new(&[3, 2], &[1, 3], &[]);
    // plan order walks memory order; outputs land at their C-order position.
    assert_eq!(p.out_offsets(), vec![0, 2, 4, 1, 3, 5]);
}

#[test]
fn restrict_reduced_moves_the_base() {
    // rows of 4 inside rows of 8: not mergeable
    let p = Plan::new(&[10, 4], &[8, 1], &[0, 1]);
    let sub = p.restrict_reduced(3, 7);
    assert_eq!(sub.base, 24);
    assert_eq!(sub.reduced[0], Dim { len: 4, stride: 8 });
}

#[test]
fn zero_size_dims_are_counted() {
    let p = Plan::new(&[0, 3], &[3, 1], &[0]);
    assert_eq!((p.out_len(), p.reduce_len()), (3, 0));
    let p = Plan::new(&[0, 3], &[3, 1], &[1]);
    assert_eq!(p.out_len(), 0);
}
