//! Rust errors and panics → NumPy's exception classes.

use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The exception class NumPy raises for the same input, one per variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// `numpy.exceptions.AxisError` (a `ValueError` and `IndexError`).
    Axis,
    /// `ValueError`.
    Value,
    /// `TypeError`.
    Type,
    /// `MemoryError`.
    Memory,
}

/// The class of each error variant (NumPy's, for the same input).
fn class(e: &nanops::Error) -> Class {
    use nanops::Error as E;
    match e {
        E::AxisOutOfBounds { .. } => Class::Axis,
        E::DuplicateAxis { .. } => Class::Value,
        E::EmptyReduction { .. } => Class::Value,
        E::AllNanSlice => Class::Value,
        // NumPy: "'tuple' object cannot be interpreted as an integer"
        E::TooManyAxes { .. } => Class::Type,
        E::InvalidQuantile { .. } => Class::Value,
        E::WeightsShape { .. } => Class::Value,
        E::InvalidWeight => Class::Value,
        E::WeightsUnsupported { .. } => Class::Value,
        E::UnknownMethod { .. } => Class::Value,
        E::InvalidWindow { .. } => Class::Value,
        E::InvalidKth { .. } => Class::Value,
        E::InvalidMinCount { .. } => Class::Value,
        E::AlphaLength { .. } => Class::Value,
        E::OutOfMemory { .. } => Class::Memory,
        E::LabelsShape { .. } => Class::Value,
        E::PairShapes { .. } => Class::Value,
        E::MatrixDims { .. } => Class::Value,
        E::LabelOutOfRange { .. } => Class::Value,
        E::EmptyGroup { .. } => Class::Value,
        // `nanops::Error` is non-exhaustive: a variant added later is a
        // `ValueError` until it gets a line of its own here
        _ => Class::Value,
    }
}

/// Converts a core error into the exception NumPy raises for the same input.
pub fn to_py(py: Python<'_>, e: nanops::Error) -> PyErr {
    let msg = e.to_string();
    match class(&e) {
        Class::Axis => axis_error(py, msg),
        Class::Value => PyValueError::new_err(msg),
        Class::Type => PyTypeError::new_err(msg),
        Class::Memory => PyMemoryError::new_err(msg),
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
///
/// Generic only in the value it hands back: the GIL release and the panic
/// catch are [`run_guarded`], compiled once rather than once per primitive
/// and element type.
pub fn guard<T: Send>(
    py: Python<'_>,
    len: usize,
    f: impl FnOnce() -> nanops::Result<T> + Send,
) -> PyResult<T> {
    let mut f = Some(f);
    let mut out = None;
    run_guarded(py, len, &mut || out = f.take().map(|f| f()))?;
    match out.expect("the job ran to its end") {
        Ok(v) => Ok(v),
        Err(e) => Err(to_py(py, e)),
    }
}

/// Runs `job` as [`guard`] says: the GIL released unless `len` is tiny, a
/// panic caught and turned into a `RuntimeError`.
fn run_guarded(py: Python<'_>, len: usize, job: &mut (dyn FnMut() + Send)) -> PyResult<()> {
    let out = if len < KEEP_GIL_BELOW {
        catch_unwind(AssertUnwindSafe(&mut *job))
    } else {
        py.detach(|| catch_unwind(AssertUnwindSafe(job)))
    };
    out.map_err(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        PyRuntimeError::new_err(format!("internal error in nanops (please report): {msg}"))
    })
}
