//! A value the optimiser cannot trace back to where it came from.

/// `x` unchanged, passed through an empty `asm!` block, so that LLVM cannot
/// fold a test of the result back onto the value it was computed from.
///
/// For a `f32` widened to `f64` and masked to zero when NaN (a sum's value
/// that comes alone), LLVM tests the `f32` instead of the `f64` it selects
/// (the two have the same NaN-ness), and a select of one width on a compare
/// of another has no branch-free form on x86: it became a branch per value,
/// taken at random where NaN is scattered. Tested on the `f64` that comes
/// out of this block, the select is a compare and a mask.
#[inline(always)]
pub(crate) fn opaque_f64(x: f64) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        let mut x = x;
        // SAFETY: the template is a comment: no instruction runs, the
        // register that goes in is the register that comes out.
        unsafe {
            core::arch::asm!(
                "/* {0} */",
                inout(xmm_reg) x,
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        x
    }
    #[cfg(not(target_arch = "x86_64"))]
    x
}

#[cfg(test)]
mod tests {
    use super::opaque_f64;

    #[test]
    fn the_value_comes_out_as_it_went_in() {
        for x in [0.0, -0.0, 1.5, f64::INFINITY, f64::MIN_POSITIVE / 2.0] {
            assert_eq!(opaque_f64(x).to_bits(), x.to_bits());
        }
        let nan = f64::from_bits(0x7ff8_0000_dead_beef);
        assert_eq!(opaque_f64(nan).to_bits(), nan.to_bits());
    }
}
