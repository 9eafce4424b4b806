//! Limits on a search, the cancel flag, and how a search ended.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A flag another thread (or a Ctrl-C handler) sets to stop a running search.
///
/// ```
/// use csp_core::CancelFlag;
/// let flag = CancelFlag::new();
/// let handle = flag.clone();
/// std::thread::spawn(move || handle.cancel()).join().unwrap();
/// assert!(flag.is_cancelled());
/// ```
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    /// A flag that is not set.
    pub fn new() -> Self {
        CancelFlag::default()
    }

    /// Asks every search holding this flag to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether `cancel` was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Limits on one search. `None` means no limit.
///
/// The engine looks at the clock and the cancel flag every few hundred nodes, so
/// both are honoured within milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// At most this many nodes (values tried).
    pub nodes: Option<u64>,
    /// At most this many failures (values rejected): the search stops when it
    /// has this many, before trying another value.
    pub failures: Option<u64>,
    /// Stop after this many solutions.
    pub solutions: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
    /// Stop when this flag is set.
    pub cancel: Option<CancelFlag>,
}

/// Why a search stopped before exploring the whole tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// [`Limits::nodes`] was reached.
    NodeLimit,
    /// [`Limits::failures`] was reached.
    FailureLimit,
    /// [`Limits::solutions`] was reached, or the caller asked for no more.
    SolutionLimit,
    /// [`Limits::time`] ran out.
    TimeLimit,
    /// The [`CancelFlag`] was set.
    Cancelled,
    /// A solution the search reached failed a constraint's `check` (see
    /// [`Config::with_solution_check`](crate::Config::with_solution_check)
    /// and [`Solver::invalid_solution`](crate::Solver::invalid_solution)): a
    /// constraint's `promising` or `propagate` is wrong. The search stops
    /// instead of reporting it, and nothing it counted is claimed complete.
    InvalidSolution,
    /// The domains needed more memory than
    /// [`Config::with_memory_limit`](crate::Config::with_memory_limit)
    /// allows (a variable declared as a wide range got its bits).
    MemoryLimit,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::NodeLimit => "node limit",
            StopReason::FailureLimit => "failure limit",
            StopReason::SolutionLimit => "solution limit",
            StopReason::TimeLimit => "time limit",
            StopReason::Cancelled => "cancelled",
            StopReason::InvalidSolution => "an invalid solution (a constraint's check refused it)",
            StopReason::MemoryLimit => "memory limit",
        })
    }
}

/// Where a search stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchStatus {
    /// Not finished: it may be resumed for more solutions.
    Paused,
    /// The whole tree was explored: counts are exact, "no solution" is a proof.
    Complete,
    /// A limit stopped it: counts are lower bounds.
    Stopped(StopReason),
}

impl SearchStatus {
    /// Whether the search explored the whole tree.
    pub fn is_complete(self) -> bool {
        self == SearchStatus::Complete
    }
}

impl fmt::Display for SearchStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchStatus::Paused => f.write_str("paused"),
            SearchStatus::Complete => f.write_str("complete"),
            SearchStatus::Stopped(r) => write!(f, "stopped ({r})"),
        }
    }
}
