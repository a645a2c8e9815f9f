//! Runtime CPU dispatch for the hot loops.
//!
//! The kernels are plain lane-accumulator loops that LLVM vectorises. Compiled
//! for the baseline target (SSE2 on x86-64) they use 128-bit registers;
//! [`dispatch`] runs a closure inside a function compiled for the best
//! instruction set the CPU offers (x86-64-v4 with AVX-512, x86-64-v3 with
//! AVX2 + FMA, or the baseline), detected once at run time by `pulp`.
//!
//! Everything the closure calls on the hot path is `#[inline(always)]`, so
//! it is compiled again inside each instruction-set version. Results do not
//! depend on the version chosen: the lanes fix the order of every floating
//! point operation, and Rust never contracts `a * b + c` into an FMA.
//!
//! Only real floating element types dispatch (`Element::dispatch`):
//! complex, integer and `bool` reductions run as compiled, which keeps
//! build times and code size down. The half-precision types take AVX2 at
//! most ([`dispatch_avx2`]): their kernels widen every value to `f32`, and
//! an AVX-512 copy of each would add to the build what no benchmark asks of
//! them.

/// Runs `f` compiled for the best instruction set of this CPU.
///
/// `f` should be a closure marked `#[inline(always)]` whose callees are too.
#[inline(always)]
pub(crate) fn dispatch<R>(f: impl FnOnce() -> R) -> R {
    pulp::Arch::new().dispatch(f)
}

/// Runs `op` with the best SIMD instruction set of this CPU (`pulp`'s
/// token): for kernels written with explicit vectors, which must fix their
/// own order of operations (logical lanes) to give the same bits on every
/// instruction set.
#[inline(always)]
pub(crate) fn dispatch_with<W: pulp::WithSimd>(op: W) -> W::Output {
    pulp::Arch::new().dispatch(op)
}

/// Runs `f` compiled for x86-64-v3 (AVX2, FMA, F16C) where the CPU has it,
/// else as compiled: [`dispatch`] without the AVX-512 version.
///
/// `f` should be a closure marked `#[inline(always)]` whose callees are too.
#[inline(always)]
pub(crate) fn dispatch_avx2<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V3::try_new() {
        return pulp::Simd::vectorize(simd, f);
    }
    f()
}
