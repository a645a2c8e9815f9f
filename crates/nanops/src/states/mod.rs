//! Mergeable partial states: the one idea behind SIMD lanes, threads, chunks
//! and moving windows.
//!
//! Every streaming statistic is a [`State`]: `push` (one value), `merge`
//! (another partial state over disjoint data) and `finish` (the result), and
//! [`Invertible::remove`] where the statistic can forget a value. Pushing all
//! values into one state and merging states of any partition of the same
//! values give the same result, up to rounding — so lanes of a SIMD kernel,
//! rayon tasks, chunks of a larger-than-memory array, moving windows and
//! nodes of a distributed engine all cooperate through the same code.
//!
//! ```
//! use nanops::states::{Moments, State};
//! let mut a = Moments::<f64>::default();
//! let mut b = Moments::<f64>::default();
//! for x in [1.0, 2.0] { a.push(x) }
//! for x in [3.0, 4.0, 5.0] { b.push(x) }
//! a.merge(&b);
//! assert_eq!(a.count(), 5);
//! assert_eq!(a.mean(), 3.0);
//! assert_eq!(a.variance(0.0), Some(2.0));
//! ```

mod co_moment;
mod count;
mod extremum;
mod mean;
mod moments;
mod product;
mod recentered;
mod seen;
mod state;
mod sum;

// each file's public states (and crate-visible helpers), whatever it adds
pub(crate) use co_moment::{finish_pair, CoState};
pub use count::*;
pub use extremum::*;
pub use mean::*;
pub use moments::*;
pub use product::*;
pub use recentered::*;
pub use seen::*;
pub use state::*;
pub use sum::*;
