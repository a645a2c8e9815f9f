//! SIMD dispatch and the machine-level helpers every family shares.
//!
//! - [`dispatch`](dispatch::dispatch): runs a hot loop compiled for the best
//!   instruction set of this CPU (x86-64-v4, v3 or the baseline), chosen once
//!   at run time by `pulp`;
//! - `prefetch`: software prefetch ahead of the streaming loops;
//! - `opaque`: a value LLVM cannot trace, where its folds cost a branch;
//! - `compress`: the AVX-512 compress kernels of the order statistics, per
//!   float type, where `pulp` has no word for the instruction;
//! - `window`: the AVX-512 sum of a short window of one float type (a
//!   group-by's run over sorted labels), as the reduce family's tree.

pub(crate) mod compress;
pub(crate) mod dispatch;
pub(crate) mod opaque;
pub(crate) mod prefetch;
pub(crate) mod window;
