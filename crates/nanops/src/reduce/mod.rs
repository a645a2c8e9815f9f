//! The reduce family: one-pass reductions (sum, prod, count, mean, var, std,
//! min, max, argmin, argmax).
//!
//! A function of this family is a public statistic type (`NanSum`, …)
//! implementing [`Reducer`](reducer::Reducer): a
//! [`State`](crate::states::State) and the kernels that fill it from
//! contiguous slices (one output's values) or rows (one value of many
//! outputs). The driver ([`reduce`]) plans the view, picks the loop nest,
//! splits the work over threads and chunks at shape-fixed boundaries, merges
//! the partial states in order and finishes them into the result.

// Index loops on purpose (see `reducer::first_valid`): adaptors may not
// inline into the instruction-set versions of the hot loops.
#![allow(clippy::needless_range_loop)]

mod arg;
mod co_matrix;
mod count;
mod driver;
mod extremum;
mod mean;
mod moments;
pub(crate) mod nan_flags;
mod partial;
mod prod;
mod reducer;
mod register;
mod sum;
mod walk;

pub(crate) use arg::{arg_slice, ArgReducer};
pub(crate) use co_matrix::{co_matrix, co_matrix_scratch_bytes, matrix};
pub(crate) use driver::reduce;
pub(crate) use partial::Partial;
pub use partial::PartialStatistic;
pub(crate) use reducer::Reducer;
pub(crate) use sum::square;
// The public statistics (`NanSum`, …, `NanVar`): each kernel file's `pub`
// types, whatever it adds.
pub use count::*;
pub use extremum::*;
pub use mean::*;
pub use moments::*;
pub use nan_flags::*;
pub use prod::*;
pub use sum::*;
