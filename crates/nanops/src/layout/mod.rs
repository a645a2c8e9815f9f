//! The layout planner: any (shape, strides, axes) → a loop nest with contiguous inner loops.
//!
//! [`Plan::new`] normalises a view once:
//! 1. axes of length 1 are dropped (they change neither values nor order);
//! 2. negative strides are flipped (the base moves to the lowest address; the
//!    output stride of a kept axis flips with it, so results land in place);
//! 3. kept and reduced axes are each ordered by decreasing stride and
//!    neighbours that are contiguous with each other are merged.
//!
//! The [`Strategy`] then follows from the innermost dimensions:
//! - [`Strategy::Lanes`]: the innermost reduced dimension is contiguous — one
//!   kernel call per contiguous run of one output's values;
//! - [`Strategy::Rows`]: the innermost kept dimension is contiguous — walk the
//!   reduced dimensions outside and fold each contiguous row into a row of
//!   states, one per output (reducing axis 0 of a C-order array);
//! - [`Strategy::Gather`]: nothing is contiguous — copy strided runs into a
//!   small scratch buffer and use the lane kernel on it.
//!
//! States are kept in *plan order* (C order over the sorted kept dimensions)
//! and scattered to the output's C order once at the end, through the kept
//! dimensions' output strides.
//!
//! Computations along one axis whose result has the input's shape (scans,
//! moving windows) are planned by [`AlongPlan`]: lanes along the axis, or
//! rows of lanes side by side when the axis is an outer one.

mod along;
mod dim;
mod odometer;
mod plan;
mod walk;

#[cfg(test)]
mod tests;

pub(crate) use along::{AlongPlan, AlongStrategy};
pub(crate) use dim::Dim;
pub(crate) use odometer::{for_each_offset, Odometer};
pub(crate) use plan::{Plan, Strategy};
pub(crate) use walk::{Walker, SHORT_LANE};
