//! Rust errors and panics → NumPy's exception classes.

use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Converts a core error into the exception NumPy raises for the same input.
pub fn to_py(py: Python<'_>, e: nanops::Error) -> PyErr {
    match e {
        nanops::Error::AxisOutOfBounds { .. } => axis_error(py, e.to_string()),
        nanops::Error::OutOfMemory { .. } => PyMemoryError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// `numpy.exceptions.AxisError(msg)` (a `ValueError` and `IndexError` subclass).
fn axis_error(py: Python<'_>, msg: String) -> PyErr {
    let cls = py
        .import("numpy.exceptions")
        .and_then(|m| m.getattr("AxisError"));
    match cls {
        Ok(cls) => match cls.call1((msg.clone(),)) {
            Ok(inst) => PyErr::from_value(inst),
            Err(e) => e,
        },
        Err(_) => PyValueError::new_err(msg),
    }
}

/// Inputs below this many elements keep the GIL: releasing and retaking it
/// costs more than reducing them (about a microsecond's work).
pub const KEEP_GIL_BELOW: usize = 1 << 15;

/// Runs `f` over an input of `len` elements, with the GIL released unless the
/// input is tiny; a panic becomes a `RuntimeError`, never an abort or a
/// `PanicException` reaching the caller.
pub fn guard<T: Send>(
    py: Python<'_>,
    len: usize,
    f: impl FnOnce() -> nanops::Result<T> + Send,
) -> PyResult<T> {
    let out = if len < KEEP_GIL_BELOW {
        catch_unwind(AssertUnwindSafe(f))
    } else {
        py.detach(|| catch_unwind(AssertUnwindSafe(f)))
    };
    match out {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(to_py(py, e)),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(PyRuntimeError::new_err(format!(
                "internal error in nanops (please report): {msg}"
            )))
        }
    }
}
