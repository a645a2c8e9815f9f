//! The scan family: results of the input's shape, computed along one axis
//! (cumulative sums and products today; moving windows and fills next).
//!
//! A function of this family is a [`Scanner`](scanner::Scanner): a running
//! value and the step that takes the next value into it. The driver
//! ([`scan`]) plans the view along the axis (`layout::AlongPlan`), walks
//! contiguous lanes or rows of lanes, and splits the lanes over threads.

mod cumulative;
mod driver;
mod scanner;

pub(crate) use cumulative::{CumProd, CumSum};
pub(crate) use driver::{scan, scan_flat};
pub(crate) use scanner::Scanner;
