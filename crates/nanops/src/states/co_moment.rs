//! Co-moments of pairs of values: the mergeable state of a covariance or a
//! correlation (`move_cov`, `move_corr`, the covariance and correlation
//! matrices), taken one pair at a time (Welford) or a block at a time (two
//! passes), merged by Chan's formula.

use pulp::Simd;

/// The logical lanes of [`CoState::of_block`].
pub(crate) const LANES: usize = 8;

/// The sum of the [`LANES`] logical lanes held in the first registers of
/// `acc`, added in lane order.
#[inline(always)]
fn lane_sum<V: Simd>(_simd: V, acc: &[V::f64s; LANES]) -> f64 {
    let regs = LANES / (std::mem::size_of::<V::f64s>() / 8);
    let mut lanes = [0.0f64; LANES];
    V::as_mut_simd_f64s(&mut lanes).0[..regs].copy_from_slice(&acc[..regs]);
    lanes[1..].iter().fold(lanes[0], |s, &v| s + v)
}

/// Welford's state of some pairs: count, means, and the sums of squared
/// and crossed deviations (`m2a`, `m2b`: for correlations only).
///
/// The values are taken shifted (`shift_a`, `shift_b`: the first pair of
/// the state, or of the block it was made from): a mean kept near the
/// values' magnitude would carry a rounding of that magnitude into every
/// deviation (relative error `ε·|mean|/spread`: `1e-6` for values near
/// `1e8` spread by `0.01`); the shifted values are exact (`x − shift` by
/// Sterbenz's lemma where they are close) and their means are of the
/// spread's magnitude.
#[derive(Clone, Copy, Default)]
pub(crate) struct CoState {
    /// Pairs taken.
    n: usize,
    /// The shift of the first values (0 before any pair).
    shift_a: f64,
    /// The shift of the second values (0 before any pair).
    shift_b: f64,
    /// Mean of the first values, less `shift_a`.
    mean_a: f64,
    /// Mean of the second values, less `shift_b`.
    mean_b: f64,
    /// Σ (a − mean_a)².
    m2a: f64,
    /// Σ (b − mean_b)².
    m2b: f64,
    /// Σ (a − mean_a)(b − mean_b).
    cab: f64,
}

impl CoState {
    /// Takes the pair `(x, y)` unless one is NaN (`recip[k] = 1/k`).
    #[inline(always)]
    pub(crate) fn take<const CORR: bool>(&mut self, x: f64, y: f64, recip: &[f64]) {
        if x.is_nan() || y.is_nan() {
            return;
        }
        if self.n == 0 {
            (self.shift_a, self.shift_b) = (x, y);
        }
        // an infinite shift makes the state's means NaN: see `finish_pair`
        let (x, y) = (x - self.shift_a, y - self.shift_b);
        self.n += 1;
        let r = recip[self.n];
        let dx = x - self.mean_a;
        self.mean_a += dx * r;
        let dy = y - self.mean_b;
        self.mean_b += dy * r;
        let ey = y - self.mean_b;
        self.cab += dx * ey;
        if CORR {
            self.m2a += dx * (x - self.mean_a);
            self.m2b += dy * ey;
        }
    }

    /// The state of the pairs of two blocks `xs`, `ys` of one length, a
    /// multiple of [`LANES`] (NaN: not a pair; pad with NaN), by two passes
    /// over the values less the block's first pair: the means, then the
    /// co-moments of the deviations from them.
    ///
    /// Value `k` goes to lane `k % LANES` whatever the SIMD width of `V`,
    /// and no product is fused into an add, so every instruction set gives
    /// the same bits.
    #[inline(always)]
    pub(crate) fn of_block<V: Simd, const CORR: bool>(simd: V, xs: &[f64], ys: &[f64]) -> CoState {
        debug_assert!(xs.len() == ys.len() && xs.len().is_multiple_of(LANES));
        let Some(k) = (0..xs.len()).find(|&k| !(xs[k].is_nan() | ys[k].is_nan())) else {
            return CoState::default();
        };
        // a shift from the pairs themselves (not a value of one series whose
        // partner is NaN): `x − shift` is exact or within the pairs' range
        let (shift_a, shift_b) = (xs[k], ys[k]);
        let regs = LANES / (std::mem::size_of::<V::f64s>() / 8);
        let (xv, yv) = (V::as_simd_f64s(xs).0, V::as_simd_f64s(ys).0);
        let (zero, one) = (simd.splat_f64s(0.0), simd.splat_f64s(1.0));
        let (sa, sb) = (simd.splat_f64s(shift_a), simd.splat_f64s(shift_b));
        let pair =
            |x: V::f64s, y: V::f64s| simd.and_m64s(simd.equal_f64s(x, x), simd.equal_f64s(y, y));
        let (mut n, mut da, mut db) = ([zero; LANES], [zero; LANES], [zero; LANES]);
        for (x, y) in xv.chunks_exact(regs).zip(yv.chunks_exact(regs)) {
            for r in 0..regs {
                let ok = pair(x[r], y[r]);
                n[r] = simd.add_f64s(n[r], simd.select_f64s(ok, one, zero));
                da[r] = simd.add_f64s(da[r], simd.select_f64s(ok, simd.sub_f64s(x[r], sa), zero));
                db[r] = simd.add_f64s(db[r], simd.select_f64s(ok, simd.sub_f64s(y[r], sb), zero));
            }
        }
        let count = lane_sum(simd, &n);
        let (mean_a, mean_b) = (lane_sum(simd, &da) / count, lane_sum(simd, &db) / count);
        let (ma, mb) = (simd.splat_f64s(mean_a), simd.splat_f64s(mean_b));
        let (mut cab, mut m2a, mut m2b) = ([zero; LANES], [zero; LANES], [zero; LANES]);
        for (x, y) in xv.chunks_exact(regs).zip(yv.chunks_exact(regs)) {
            for r in 0..regs {
                let ok = pair(x[r], y[r]);
                let ea = simd.select_f64s(ok, simd.sub_f64s(simd.sub_f64s(x[r], sa), ma), zero);
                let eb = simd.select_f64s(ok, simd.sub_f64s(simd.sub_f64s(y[r], sb), mb), zero);
                cab[r] = simd.add_f64s(cab[r], simd.mul_f64s(ea, eb));
                if CORR {
                    m2a[r] = simd.add_f64s(m2a[r], simd.mul_f64s(ea, ea));
                    m2b[r] = simd.add_f64s(m2b[r], simd.mul_f64s(eb, eb));
                }
            }
        }
        CoState {
            n: count as usize,
            shift_a,
            shift_b,
            mean_a,
            mean_b,
            m2a: lane_sum(simd, &m2a),
            m2b: lane_sum(simd, &m2b),
            cab: lane_sum(simd, &cab),
        }
    }

    /// Takes the pairs of `o` (disjoint from this state's), by Chan's
    /// formula; the result keeps this state's shifts (`o`'s if this one is
    /// empty).
    #[inline(always)]
    pub(crate) fn merge<const CORR: bool>(&mut self, o: &CoState) {
        if o.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *o;
            return;
        }
        let n = self.n + o.n;
        let f = self.n as f64 * o.n as f64 / n as f64;
        let (da, db) = mean_gaps(self, o);
        let (cab, m2a, m2b) = combined::<CORR>(self, o, da, db, f);
        let r = o.n as f64 / n as f64;
        self.mean_a += da * r;
        self.mean_b += db * r;
        (self.n, self.cab, self.m2a, self.m2b) = (n, cab, m2a, m2b);
    }

    /// The covariance (`ddof = 1`) or correlation of the pairs taken: NaN
    /// below `min` pairs or where a mean is not finite (an infinity was
    /// taken).
    #[inline(always)]
    pub(crate) fn value<const CORR: bool>(&self, min: usize) -> f64 {
        if self.n < min || !(self.mean_a.is_finite() & self.mean_b.is_finite()) {
            return f64::NAN;
        }
        statistic::<CORR>(self.n, self.cab, self.m2a, self.m2b)
    }
}

/// The differences of the means of `h` and `t`: of the shifted means, and
/// of the shifts (exact where the shifts are close; an empty state's shift
/// is 0).
#[inline(always)]
fn mean_gaps(t: &CoState, h: &CoState) -> (f64, f64) {
    (
        (h.mean_a - t.mean_a) + (h.shift_a - t.shift_a),
        (h.mean_b - t.mean_b) + (h.shift_b - t.shift_b),
    )
}

/// The co-moments of `t` and `h` together (Chan's formula), with
/// `f = n_t·n_h/(n_t + n_h)`: `(cab, m2a, m2b)`.
#[inline(always)]
fn combined<const CORR: bool>(
    t: &CoState,
    h: &CoState,
    da: f64,
    db: f64,
    f: f64,
) -> (f64, f64, f64) {
    let cab = t.cab + h.cab + da * db * f;
    if CORR {
        (
            cab,
            t.m2a + h.m2a + da * da * f,
            t.m2b + h.m2b + db * db * f,
        )
    } else {
        (cab, 0.0, 0.0)
    }
}

/// The covariance (`ddof = 1`) or correlation of `n` pairs from their
/// co-moments.
#[inline(always)]
fn statistic<const CORR: bool>(n: usize, cab: f64, m2a: f64, m2b: f64) -> f64 {
    if !CORR {
        return cab / (n - 1) as f64;
    }
    // one root of the product (rounded once, as numbagg's), two roots where
    // the product overflows or underflows
    let p = m2a * m2b;
    let d = if p.is_normal() {
        p.sqrt()
    } else {
        m2a.sqrt() * m2b.sqrt()
    };
    if d > 0.0 {
        cab / d
    } else {
        f64::NAN
    }
}

/// The statistic of the pairs of `t` and `h` together (the window of a
/// moving kernel: a block's tail and the next block's head), NaN below
/// `min` pairs or where a mean is not finite (an infinity was taken: the
/// values after it, or the first value itself when it is the shift, make
/// the mean `±inf − ±inf` or `inf · r`); `recip[k] = 1/k`.
#[inline(always)]
pub(crate) fn finish_pair<const CORR: bool>(
    t: &CoState,
    h: &CoState,
    min: usize,
    recip: &[f64],
) -> f64 {
    let n = t.n + h.n;
    let finite =
        t.mean_a.is_finite() & h.mean_a.is_finite() & t.mean_b.is_finite() & h.mean_b.is_finite();
    if n < min || !finite {
        return f64::NAN;
    }
    let f = (t.n * h.n) as f64 * recip[n];
    let (da, db) = mean_gaps(t, h);
    let (cab, m2a, m2b) = combined::<CORR>(t, h, da, db, f);
    statistic::<CORR>(n, cab, m2a, m2b)
}
