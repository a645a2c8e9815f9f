//! Which axes a reduction runs over.

use crate::error::{Error, Result};
use ndarray::Axis;

/// The axes to reduce, as NumPy's `axis=` argument: all of them, one, or several.
///
/// Negative axes count from the end. Integer literals, arrays and vectors
/// convert into `Axes`:
///
/// ```
/// use nanops::Axes;
/// assert_eq!(Axes::from(1), Axes::One(1));
/// assert_eq!(Axes::from([0, -1]), Axes::Many(vec![0, -1]));
/// assert_eq!(Axes::from(ndarray::Axis(2)), Axes::One(2));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Axes {
    /// Every axis (NumPy's `axis=None`).
    #[default]
    All,
    /// One axis.
    One(isize),
    /// Several distinct axes (NumPy's tuple); empty reduces nothing.
    Many(Vec<isize>),
}

impl Axes {
    /// Normalises to sorted, distinct axes in `0..ndim`.
    ///
    /// # Errors
    /// [`Error::AxisOutOfBounds`] or [`Error::DuplicateAxis`].
    ///
    /// ```
    /// use nanops::Axes;
    /// assert_eq!(Axes::from([-1, 0]).normalize(3).unwrap(), vec![0, 2]);
    /// assert!(Axes::from(3).normalize(3).is_err());
    /// ```
    pub fn normalize(&self, ndim: usize) -> Result<Vec<usize>> {
        let given: Vec<isize> = match self {
            Axes::All => return Ok((0..ndim).collect()),
            Axes::One(a) => vec![*a],
            Axes::Many(v) => v.clone(),
        };
        let mut out = Vec::with_capacity(given.len());
        for &axis in &given {
            let n = ndim as isize;
            if axis < -n || axis >= n {
                return Err(Error::AxisOutOfBounds { axis, ndim });
            }
            let a = if axis < 0 { axis + n } else { axis } as usize;
            if out.contains(&a) {
                return Err(Error::DuplicateAxis { axis: a });
            }
            out.push(a);
        }
        out.sort_unstable();
        Ok(out)
    }
}

/// An axis as `isize`; values beyond `isize` (a `usize` above `isize::MAX`,
/// which `as` would wrap to a valid negative axis) become `isize::MAX`, so that
/// [`Axes::normalize`] reports them out of bounds.
fn to_axis<T: TryInto<isize>>(a: T) -> isize {
    a.try_into().unwrap_or(isize::MAX)
}

macro_rules! axes_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Axes {
            fn from(a: $t) -> Self {
                Axes::One(to_axis(a))
            }
        }
        impl<const N: usize> From<[$t; N]> for Axes {
            fn from(a: [$t; N]) -> Self {
                Axes::Many(a.iter().map(|&x| to_axis(x)).collect())
            }
        }
        impl From<&[$t]> for Axes {
            fn from(a: &[$t]) -> Self {
                Axes::Many(a.iter().map(|&x| to_axis(x)).collect())
            }
        }
        impl From<Vec<$t>> for Axes {
            fn from(a: Vec<$t>) -> Self {
                Axes::Many(a.iter().map(|&x| to_axis(x)).collect())
            }
        }
    )*};
}
axes_from_int!(i32, i64, isize, usize);

impl From<Axis> for Axes {
    fn from(a: Axis) -> Self {
        Axes::One(to_axis(a.index()))
    }
}

impl<T: Into<Axes>> From<Option<T>> for Axes {
    fn from(a: Option<T>) -> Self {
        a.map_or(Axes::All, Into::into)
    }
}
