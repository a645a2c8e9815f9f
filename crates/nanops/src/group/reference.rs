//! Slow, obvious references the group family's tests compare with: each
//! group's valid values collected and sorted, their median and NumPy's
//! linear quantile read off the sort.

/// The valid values of label `g` (`xs[j]` where `labels[j] == g`), sorted.
pub(crate) fn sorted_group(xs: &[f64], labels: &[i64], g: i64) -> Vec<f64> {
    let mut v: Vec<f64> = xs
        .iter()
        .zip(labels)
        .filter(|&(x, &l)| l == g && !x.is_nan())
        .map(|(&x, _)| x)
        .collect();
    v.sort_by(f64::total_cmp);
    v
}

/// The median of sorted values (the mean of the middle two for an even count).
pub(crate) fn median_of_sorted(v: &[f64]) -> f64 {
    let m = v.len();
    if m % 2 == 1 {
        v[m / 2]
    } else {
        (v[m / 2 - 1] + v[m / 2]) / 2.0
    }
}

/// NumPy's linear quantile `q` of sorted values (not empty).
pub(crate) fn linear_of_sorted(v: &[f64], q: f64) -> f64 {
    let h = q * (v.len() - 1) as f64;
    let k = h.floor() as usize;
    let next = v[(k + 1).min(v.len() - 1)];
    v[k] + (h - h.floor()) * (next - v[k])
}
