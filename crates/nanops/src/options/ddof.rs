//! Delta degrees of freedom of variances and moments.

/// Delta degrees of freedom of a variance: the divisor is `count − ddof`.
///
/// NumPy accepts any real `ddof` (and the alias `correction`); `Ddof(0.0)` is
/// the population variance, `Ddof(1.0)` the unbiased sample variance.
///
/// ```
/// use nanops::Ddof;
/// assert_eq!(Ddof::default(), Ddof(0.0));
/// assert_eq!(Ddof::from(1), Ddof(1.0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ddof(pub f64);

impl From<f64> for Ddof {
    fn from(x: f64) -> Self {
        Ddof(x)
    }
}

impl From<i32> for Ddof {
    fn from(x: i32) -> Self {
        Ddof(x as f64)
    }
}
