//! `nanprod`: non-NaN values multiplied in lanes, exact in class.
//!
//! Lanes keep a mantissa and an exponent ([`Product`]'s form). A block of
//! [`Factor::TAME_RUN`] values per lane whose values are all *tame* (within
//! `2^±16`, or NaN) is multiplied plainly into the mantissas, which cannot
//! leave the normal range on the way, then the mantissas are renormalised:
//! the loop of a plain product plus one compare per value. Any other block
//! (zeros, infinities, tiny or huge values) splits every factor into
//! mantissa and exponent ([`Factor::split`]), zeros and infinities apart.

use super::reducer::{Reducer, LANES};
use super::register::statistics;
use crate::element::{Accumulator, Element, Factor};
use crate::states::{Product, State};

/// [`nanprod`](crate::nanprod): non-NaN values multiplied in the accumulator
/// type, exact in class ([`Product`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanProd;

statistics!(NanProd);

/// Lanes of mantissas and exponents, with the zero and infinity flags of
/// all of them (a product's class does not depend on which lane saw what).
struct Lanes<A, const N: usize> {
    part: [A; N],
    exp: [i64; N],
    zero: bool,
    inf: bool,
}

impl<A: Factor, const N: usize> Lanes<A, N> {
    #[inline(always)]
    fn new() -> Self {
        Lanes {
            part: [A::one(); N],
            exp: [0; N],
            zero: false,
            inf: false,
        }
    }

    /// Multiplies `x` into lane `i` plainly (NaN counts as one).
    #[inline(always)]
    fn plain<E: Element<Acc = A>>(&mut self, i: usize, x: E) {
        let nan = x.is_nan_value();
        self.part[i] = self.part[i].mul(if nan { A::one() } else { x.to_acc() });
    }

    /// Multiplies `x` into lane `i` split into mantissa and exponent, a zero
    /// or an infinity counted apart (NaN skipped).
    #[inline(always)]
    fn split<E: Element<Acc = A>>(&mut self, i: usize, x: E) {
        if x.is_nan_value() {
            return;
        }
        let (p, e, zero, inf) = x.to_acc().split();
        let (part, k) = self.part[i].mul(p).renormalize();
        self.part[i] = part;
        self.exp[i] += e + k;
        self.zero |= zero;
        self.inf |= inf;
    }

    /// Brings every mantissa back to `[1, 2)`.
    #[inline(always)]
    fn renormalize(&mut self) {
        if !A::EXACT_CLASS {
            return;
        }
        for i in 0..N {
            let (part, k) = self.part[i].renormalize();
            self.part[i] = part;
            self.exp[i] += k;
        }
    }

    /// The product of lane `i`.
    #[inline(always)]
    fn state(&self, i: usize) -> Product<A> {
        Product::from_parts(self.part[i], self.exp[i], self.zero, self.inf)
    }
}

/// Whether every value of `xs` is tame ([`Factor::tame`]).
#[inline(always)]
fn tame<E: Element>(xs: &[E]) -> bool {
    let mut all = true;
    for &x in xs {
        all &= x.to_acc().tame();
    }
    all
}

impl<E: Element> Reducer<E> for NanProd {
    type Value = E::Acc;
    type State = Product<E::Acc>;
    type Output = E::Sum;
    type Kernel = Self;
    #[inline(always)]
    fn kernel(&self) -> &Self {
        self
    }
    #[inline(always)]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        let mut lanes = Lanes::<E::Acc, LANES>::new();
        let run = E::Acc::TAME_RUN.min(1 << 20);
        for block in xs.chunks(LANES * run) {
            let mut chunks = block.chunks_exact(LANES);
            if !E::Acc::EXACT_CLASS || tame(block) {
                for c in &mut chunks {
                    for i in 0..LANES {
                        lanes.plain(i, c[i]);
                    }
                }
                let rem = chunks.remainder();
                for i in 0..rem.len() {
                    lanes.plain(i, rem[i]);
                }
            } else {
                for c in &mut chunks {
                    for i in 0..LANES {
                        lanes.split(i, c[i]);
                    }
                }
                let rem = chunks.remainder();
                for i in 0..rem.len() {
                    lanes.split(i, rem[i]);
                }
            }
            lanes.renormalize();
        }
        for i in 0..LANES {
            st.merge(&lanes.state(i));
        }
    }
    #[inline(always)]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let w = states.len();
        let mut part = vec![E::Acc::one(); w];
        let mut exp = vec![0i64; w];
        let (mut zero, mut inf) = (vec![false; w], vec![false; w]);
        let run = E::Acc::TAME_RUN.min(1 << 20);
        for block in rows.chunks(run) {
            if !E::Acc::EXACT_CLASS || block.iter().all(|row| tame(&row[..w])) {
                for row in block {
                    let (part, row) = (&mut part[..], &row[..w]);
                    for j in 0..w {
                        let x = row[j];
                        let one = E::Acc::one();
                        part[j] = part[j].mul(if x.is_nan_value() { one } else { x.to_acc() });
                    }
                }
            } else {
                for row in block {
                    for j in 0..w {
                        let x = row[j];
                        if x.is_nan_value() {
                            continue;
                        }
                        let (p, e, z, i) = x.to_acc().split();
                        let (pp, k) = part[j].mul(p).renormalize();
                        part[j] = pp;
                        exp[j] += e + k;
                        zero[j] |= z;
                        inf[j] |= i;
                    }
                }
            }
            if E::Acc::EXACT_CLASS {
                for j in 0..w {
                    let (pp, k) = part[j].renormalize();
                    part[j] = pp;
                    exp[j] += k;
                }
            }
        }
        for j in 0..w {
            states[j].merge(&Product::from_parts(part[j], exp[j], zero[j], inf[j]));
        }
    }
    fn finish(&self, st: &Self::State) -> E::Sum {
        E::sum_from_acc(st.value())
    }
}
