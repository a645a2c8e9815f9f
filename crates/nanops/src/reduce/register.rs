//! The one line a new reduction adds to its kernel file: `statistics!(NanFoo);`
//! makes it a statistic of `nanops::report` and gives it partial states.

/// Makes the public reductions `$t…` (each a
/// [`Reducer`](crate::reduce::reducer::Reducer)) statistics
/// ([`Statistic`](crate::statistic::Statistic)) that
/// `nanops::report` computes, and
/// [`PartialStatistic`](crate::reduce::partial::PartialStatistic)s whose
/// partial states `nanops::partial_states` gives.
///
/// `statistics!(NanFoo => Kernel)` makes `NanFoo` a statistic computed by
/// the reducer `Kernel` (made with `Kernel::from(*self)`): statistics that
/// differ only in how a state is finished share one compiled kernel.
macro_rules! statistics {
    ($($t:ty),*) => {
        $crate::reduce::register::statistics!($($t => $t),*);
    };
    ($($t:ty => $kernel:ty),*) => {$(
        impl $crate::statistic::sealed::Sealed for $t {}
        impl<E: $crate::element::Element> $crate::statistic::Statistic<E> for $t {
            type Output = <$kernel as $crate::reduce::reducer::Reducer<E>>::Output;
            fn compute(
                &self,
                view: &ndarray::ArrayViewD<'_, E>,
                axes: &$crate::options::Axes,
            ) -> $crate::error::Result<$crate::statistic::Report<Self::Output>> {
                $crate::reduce::driver::compute(&<$kernel>::from(*self), view, axes)
            }
        }
        impl<E: $crate::element::Element> $crate::reduce::partial::PartialStatistic<E> for $t {
            type State = <$kernel as $crate::reduce::reducer::Reducer<E>>::State;
            type Kernel = $kernel;
            fn kernel(&self) -> $kernel {
                <$kernel>::from(*self)
            }
            fn partial(
                &self,
                view: &ndarray::ArrayViewD<'_, E>,
                axes: &$crate::options::Axes,
            ) -> $crate::error::Result<ndarray::ArrayD<Self::State>> {
                $crate::reduce::partial::partial(&<$kernel>::from(*self), view, axes)
            }
            fn merge_state(&self, st: &mut Self::State, later: &Self::State) {
                $crate::states::State::merge(st, later);
            }
            fn finish_state(&self, st: &Self::State) -> (Self::Output, bool) {
                use $crate::reduce::reducer::Reducer;
                let kernel = <$kernel>::from(*self);
                (Reducer::<E>::finish(&kernel, st), Reducer::<E>::degenerate(&kernel, st))
            }
        }
    )*};
}
pub(crate) use statistics;
