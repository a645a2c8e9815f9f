//! The integration tests, as one test binary: each file of `tests/` is a
//! module here rather than a crate of its own, so the generic code they
//! instantiate is compiled once, not once per file.

mod common;

mod accuracy;
mod bad_input;
mod dtypes;
mod exactness;
mod golden;
mod group;
mod group_partial;
mod layouts;
mod module_graph;
mod moving;
mod moving_exp;
mod order;
mod partial_states;
mod skew_kurt;
mod states;
