//! Bindings of the order statistics (quantiles).

use pyo3::prelude::*;

/// Adds the order-statistics functions to the module.
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
