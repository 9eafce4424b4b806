//! `Progress`: a heartbeat from a running search, for a user who wants to see
//! that it is alive.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::Value;

/// What a progress hook sees (see [`Config::with_progress`](crate::Config::with_progress)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Nodes so far (values tried, as [`SearchStats::tried`](crate::SearchStats::tried)).
    pub nodes: u64,
    /// Failures so far (values rejected, as [`SearchStats::rejected`](crate::SearchStats::rejected)).
    pub failures: u64,
    /// Solutions so far (for optimisation: improving solutions).
    pub solutions: u64,
    /// The current depth of the search (open decisions).
    pub depth: usize,
    /// The best objective value so far, when optimising.
    pub best: Option<Value>,
    /// Time spent searching so far.
    pub elapsed: Duration,
}

/// A function called with the search's [`Progress`] at most once per
/// `every` (see [`Config::with_progress`](crate::Config::with_progress)).
#[derive(Clone)]
pub struct ProgressHook {
    pub(crate) every: Duration,
    pub(crate) call: Arc<dyn Fn(&Progress) + Send + Sync>,
}

impl ProgressHook {
    /// A hook calling `call` at most once per `every`.
    pub fn new(every: Duration, call: impl Fn(&Progress) + Send + Sync + 'static) -> Self {
        ProgressHook {
            every,
            call: Arc::new(call),
        }
    }

    /// The interval between two calls, at least.
    pub fn every(&self) -> Duration {
        self.every
    }
}

impl fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProgressHook")
            .field("every", &self.every)
            .finish_non_exhaustive()
    }
}
