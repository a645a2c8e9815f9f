//! A raw pointer that may cross threads.

/// A raw pointer that may cross threads (the data behind it is `Sync`).
pub(crate) struct SendPtr<E: ?Sized>(pub *const E);
// Not derived: a derive would ask for `E: Copy`.
impl<E: ?Sized> Clone for SendPtr<E> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<E: ?Sized> Copy for SendPtr<E> {}
// SAFETY: used for reading `E: Sync` data that outlives the parallel section,
// for writing disjoint outputs or result slots from different tasks
// (`by_outputs`, `tasks::map_tasks`), and for the job of `map_tasks`, which
// is only called while it lives (see there).
unsafe impl<E: Sync + ?Sized> Send for SendPtr<E> {}
unsafe impl<E: Sync + ?Sized> Sync for SendPtr<E> {}

impl<E: ?Sized> SendPtr<E> {
    /// The pointer (a method, so closures capture the whole `SendPtr`).
    #[inline(always)]
    pub(crate) fn get(self) -> *const E {
        self.0
    }
}
