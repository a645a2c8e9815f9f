//! The thread driver: the one place threads start.
//!
//! Every family splits its work into indexed tasks whose boundaries depend on
//! the shape only, and runs them through [`map_tasks`]: the calling thread
//! and up to `rayon::current_num_threads() − 1` pool workers claim the tasks,
//! results come back in task order, so one thread or many give the same bits.
//! Work below [`MIN_TASK`] values stays on the calling thread. Calls of
//! milliseconds per task ([`HandOff::Pool`], the order statistics) hand
//! every task to the pool instead (see `tasks`).

mod chunks;
mod output;
mod placement;
mod send_ptr;
mod tasks;

pub(crate) use chunks::map_chunks_mut;
pub(crate) use output::uninit_output;
pub(crate) use send_ptr::SendPtr;
pub(crate) use tasks::{map_tasks, threads, HandOff, MIN_TASK};
