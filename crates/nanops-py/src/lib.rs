//! `nanops._nanops`: the compiled module behind the Python package `nanops`.
//!
//! Thin by design: each function takes a NumPy array whose dtype is one of
//! nanops' element types, picks the matching Rust type (`dispatch`), releases
//! the GIL while the core computes (`guard`), and maps errors to NumPy's
//! exception classes (`errors`); `fast` checks and runs the common call in
//! one step. NumPy's argument semantics live in the Python
//! package; the contract is `python/nanops/_nanops.pyi`.

mod dispatch;
mod errors;
mod fast;
mod order;
mod streaming;

use pyo3::prelude::*;

/// The compiled module.
#[pymodule]
fn _nanops(m: &Bound<'_, PyModule>) -> PyResult<()> {
    streaming::register(m)?;
    fast::register(m)?;
    order::register(m)?;
    Ok(())
}
