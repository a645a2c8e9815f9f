//! The public functions, and the extension trait [`NanOps`] on ndarray arrays.

mod arg;
mod bracket;
mod cumulative;
mod ext;
mod order;
mod short_median;
mod streaming;

pub use arg::{nanargmax, nanargmin};
pub use cumulative::{nancumprod, nancumsum};
pub use ext::NanOps;
pub use order::{
    median, median_report, nanmedian, nanquantile, quantile, quantile_report, QuantileElement,
    QuantileOptions,
};
pub use streaming::{
    nancount, nanmax, nanmax_report, nanmean, nanmean_report, nanmin, nanmin_report, nanprod,
    nanstd, nanstd_report, nansum, nanvar, nanvar_report, Ddof, Report,
};
