//! Every option a nanops function takes, in one place: which axes, the
//! degrees of freedom, the NaN policy and how quantiles are computed.
//!
//! These types sit below every family (`reduce`, `order`, `scan`) and the
//! public API, so that all of them share one meaning of each option.

mod axes;
mod ddof;
mod nan_policy;
mod q_dtype;
mod quantile_method;
mod quantile_options;

pub use axes::Axes;
pub use ddof::Ddof;
pub use nan_policy::NanPolicy;
pub use q_dtype::QDtype;
pub use quantile_method::{QuantileMethod, UnknownQuantileMethod};
pub use quantile_options::QuantileOptions;
