//! `nanops._nanops`: the compiled module behind the Python package `nanops`.
//!
//! Thin by design: the dtype table (`array`) turns a NumPy array into the
//! typed view of one of nanops' element types; `compute` runs a statistic of
//! the core on it with the GIL released and turns the result into NumPy's
//! objects; `errors` maps each core error to NumPy's exception class and
//! keeps Rust panics from reaching Python. `primitives` is the table of
//! functions (each `#[pyfunction]` and its registration come from one row);
//! `partial` gives a chunk's partial states in one pass, whole or per
//! label (chunked and distributed engines); `quantile` parses quantile requests; `ranks`
//! splits a quantile in two steps for chunked engines and `chunked` selects
//! the values at those ranks from the chunks; `fast` checks and
//! runs the common call in one step. NumPy's argument semantics live in the Python package;
//! the contract is `python/nanops/_nanops.pyi`.

mod array;
mod chunked;
mod compute;
mod errors;
mod fast;
mod partial;
mod primitives;
mod quantile;
mod ranks;

use pyo3::prelude::*;

/// The compiled module.
#[pymodule]
fn _nanops(m: &Bound<'_, PyModule>) -> PyResult<()> {
    primitives::register(m)
}
