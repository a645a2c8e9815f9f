//! The thirteen quantile methods of NumPy 2.x (`method=` of `np.quantile`).

use core::fmt;
use core::str::FromStr;

/// How a quantile is estimated from a sample: the `method=` argument of `np.quantile`.
///
/// The first nine are the sample quantiles of Hyndman & Fan (1996); the last four are NumPy's
/// older `interpolation=` options. With `n` values sorted as `x[0] <= … <= x[n-1]` and a
/// probability `q`, the continuous methods place a virtual index
///
/// ```text
/// linear:                 v = (n - 1)·q
/// others (α, β):          v = n·q + (α + q·(1 - α - β)) - 1
///   interpolated_inverted_cdf  α = 0,   β = 1
///   hazen                      α = 1/2, β = 1/2
///   weibull                    α = 0,   β = 0
///   median_unbiased            α = 1/3, β = 1/3
///   normal_unbiased            α = 3/8, β = 3/8
/// ```
///
/// and interpolate between `x[floor(v)]` and `x[floor(v) + 1]`. The discontinuous methods
/// pick one order statistic (`inverted_cdf`, `closest_observation`, `lower`, `higher`,
/// `nearest`) or the mean of two (`averaged_inverted_cdf`, `midpoint`). The exact rules,
/// including NumPy's rounding and clipping, are in the crate's `select` module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum QuantileMethod {
    /// H&F 1: the smallest `x[i]` whose empirical CDF `(i + 1)/n` reaches `q`.
    InvertedCdf,
    /// H&F 2: as `InvertedCdf`, but the mean of two neighbours where the CDF equals `q`.
    AveragedInvertedCdf,
    /// H&F 3: the nearest order statistic, ties to the even (1-based) one.
    ClosestObservation,
    /// H&F 4: linear interpolation of the empirical CDF (α = 0, β = 1).
    InterpolatedInvertedCdf,
    /// H&F 5: piecewise linear, knots at the midpoints (α = β = 1/2).
    Hazen,
    /// H&F 6: unbiased CDF estimate at the order statistics (α = β = 0).
    Weibull,
    /// H&F 7, NumPy's default: `v = (n - 1)·q` (α = β = 1).
    #[default]
    Linear,
    /// H&F 8: approximately median-unbiased (α = β = 1/3).
    MedianUnbiased,
    /// H&F 9: approximately unbiased for normal data (α = β = 3/8).
    NormalUnbiased,
    /// `x[floor((n - 1)·q)]`.
    Lower,
    /// `x[ceil((n - 1)·q)]`.
    Higher,
    /// Mean of `Lower` and `Higher`.
    Midpoint,
    /// `x[round((n - 1)·q)]`, ties to even.
    Nearest,
}

impl QuantileMethod {
    /// All thirteen methods, in NumPy's documentation order.
    pub const ALL: [QuantileMethod; 13] = [
        QuantileMethod::InvertedCdf,
        QuantileMethod::AveragedInvertedCdf,
        QuantileMethod::ClosestObservation,
        QuantileMethod::InterpolatedInvertedCdf,
        QuantileMethod::Hazen,
        QuantileMethod::Weibull,
        QuantileMethod::Linear,
        QuantileMethod::MedianUnbiased,
        QuantileMethod::NormalUnbiased,
        QuantileMethod::Lower,
        QuantileMethod::Higher,
        QuantileMethod::Midpoint,
        QuantileMethod::Nearest,
    ];

    /// NumPy's name for the method, as accepted by `method=`.
    ///
    /// ```
    /// use nanops::QuantileMethod;
    /// assert_eq!(QuantileMethod::MedianUnbiased.name(), "median_unbiased");
    /// assert_eq!(QuantileMethod::default().name(), "linear");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            QuantileMethod::InvertedCdf => "inverted_cdf",
            QuantileMethod::AveragedInvertedCdf => "averaged_inverted_cdf",
            QuantileMethod::ClosestObservation => "closest_observation",
            QuantileMethod::InterpolatedInvertedCdf => "interpolated_inverted_cdf",
            QuantileMethod::Hazen => "hazen",
            QuantileMethod::Weibull => "weibull",
            QuantileMethod::Linear => "linear",
            QuantileMethod::MedianUnbiased => "median_unbiased",
            QuantileMethod::NormalUnbiased => "normal_unbiased",
            QuantileMethod::Lower => "lower",
            QuantileMethod::Higher => "higher",
            QuantileMethod::Midpoint => "midpoint",
            QuantileMethod::Nearest => "nearest",
        }
    }

    /// Whether the method accepts weights: `InvertedCdf` (as NumPy) and
    /// `AveragedInvertedCdf` (an extension; NumPy refuses it).
    ///
    /// ```
    /// use nanops::QuantileMethod;
    /// assert!(QuantileMethod::InvertedCdf.supports_weights());
    /// assert!(!QuantileMethod::Linear.supports_weights());
    /// ```
    pub fn supports_weights(&self) -> bool {
        matches!(
            self,
            QuantileMethod::InvertedCdf | QuantileMethod::AveragedInvertedCdf
        )
    }
}

impl fmt::Display for QuantileMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`QuantileMethod`] from a name NumPy does not know; holds the name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownQuantileMethod(pub String);

impl fmt::Display for UnknownQuantileMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a valid method. Use one of: ", self.0)?;
        for (i, method) in QuantileMethod::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(method.name())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownQuantileMethod {}

impl FromStr for QuantileMethod {
    type Err = UnknownQuantileMethod;

    /// Parses NumPy's method names (exact, case-sensitive, as NumPy).
    ///
    /// ```
    /// use nanops::QuantileMethod;
    /// let m: QuantileMethod = "hazen".parse()?;
    /// assert_eq!(m, QuantileMethod::Hazen);
    /// assert!("Hazen".parse::<QuantileMethod>().is_err());
    /// # Ok::<(), nanops::UnknownQuantileMethod>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        QuantileMethod::ALL
            .iter()
            .copied()
            .find(|method| method.name() == s)
            .ok_or_else(|| UnknownQuantileMethod(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for method in QuantileMethod::ALL {
            assert_eq!(method.name().parse::<QuantileMethod>(), Ok(method));
            assert_eq!(method.to_string(), method.name());
        }
        let mut names: Vec<_> = QuantileMethod::ALL.iter().map(|m| m.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 13);
    }

    #[test]
    fn unknown_names_are_rejected() {
        for bad in ["", "Linear", "linear ", "interpolated", "median"] {
            let err = bad.parse::<QuantileMethod>().unwrap_err();
            assert_eq!(err, UnknownQuantileMethod(bad.to_owned()));
            assert!(err.to_string().contains("is not a valid method"));
            assert!(err.to_string().contains("nearest"));
        }
    }

    #[test]
    fn defaults_and_weights() {
        assert_eq!(QuantileMethod::default(), QuantileMethod::Linear);
        let weighted: Vec<_> = QuantileMethod::ALL
            .into_iter()
            .filter(QuantileMethod::supports_weights)
            .collect();
        assert_eq!(
            weighted,
            [
                QuantileMethod::InvertedCdf,
                QuantileMethod::AveragedInvertedCdf
            ]
        );
    }
}
