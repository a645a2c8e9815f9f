//! One dimension of a loop nest.

/// One dimension of the loop nest: its length and its stride in elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dim {
    /// Number of indices.
    pub len: usize,
    /// Distance between consecutive indices, in elements.
    pub stride: isize,
}

/// A kept dimension: its input dimension and its stride in the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeptDim {
    /// Length and input stride.
    pub dim: Dim,
    /// Stride in the C-order output, in elements.
    pub out_stride: isize,
}
