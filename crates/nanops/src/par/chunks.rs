//! Tasks that each fill their own chunk of one output buffer.

use super::send_ptr::SendPtr;
use super::tasks::{map_tasks_by, HandOff};

/// `f(t, chunk)` for the chunks of `chunk_len` values of `out` (the last one
/// may be shorter), run as tasks by [`map_tasks_by`] with `hand_off`; the
/// results in chunk order.
///
/// ```text
/// out = [a b c | d e f | g]     chunk_len = 3
/// f(0, [a b c]), f(1, [d e f]), f(2, [g])
/// ```
pub(crate) fn map_chunks_mut<T, R>(
    hand_off: HandOff,
    out: &mut [T],
    chunk_len: usize,
    f: impl Fn(usize, &mut [T]) -> R + Sync,
) -> Vec<R>
where
    T: Send + Sync,
    R: Send + Sync,
{
    let len = out.len();
    let chunk_len = chunk_len.max(1);
    let base = SendPtr(out.as_mut_ptr().cast_const());
    map_tasks_by(hand_off, len.div_ceil(chunk_len), |t| {
        let start = t * chunk_len;
        let n = chunk_len.min(len - start);
        // SAFETY: task `t` is the only one to touch `start..start + n`, a
        // range inside `out`, which outlives every task (`map_tasks` returns
        // only when all are done).
        let chunk = unsafe { std::slice::from_raw_parts_mut(base.get().cast_mut().add(start), n) };
        f(t, chunk)
    })
}

#[cfg(test)]
mod tests {
    use super::map_chunks_mut;
    use crate::par::tasks::HandOff;

    #[test]
    fn every_chunk_is_filled_once_in_order() {
        for (len, chunk) in [(0, 3), (1, 3), (7, 3), (9, 3), (1000, 7), (5, 100)] {
            let mut out = vec![0usize; len];
            let firsts = map_chunks_mut(HandOff::Pool, &mut out, chunk, |t, c| {
                for (i, v) in c.iter_mut().enumerate() {
                    *v = t * chunk + i;
                }
                t * chunk
            });
            assert_eq!(out, (0..len).collect::<Vec<_>>());
            assert_eq!(
                firsts,
                (0..len.div_ceil(chunk))
                    .map(|t| t * chunk)
                    .collect::<Vec<_>>()
            );
        }
    }
}
