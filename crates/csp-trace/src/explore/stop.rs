//! A recorder for pages: it stops the search once its recording is full.

use std::time::{Duration, Instant};

use super::super::{Trace, TraceRecorder};
use csp_core::{
    CancelFlag, Candidate, Config, Failure, Node, PruneCause, SearchObserver, Value, VarId,
};

/// A [`TraceRecorder`] that also stops the search when its cap is reached:
/// a page shows nothing past the cap, so searching on would only cost time.
///
/// It stops the search through the configuration's cancel flag, which
/// [`StopAtCap::new`] installs; a cancel flag the configuration had before
/// (Ctrl-C, say) still stops the search, and [`StopAtCap::cancelled`] tells
/// which of the two happened.
///
/// ```
/// use csp_core::{Config, Pruning, SearchStatus, Solver, StopReason};
/// use csp_trace::StopAtCap;
/// # let m = { let mut m = csp_core::Model::new();
/// #   let q = m.int_var_array("q", 8, 0..=7)?; m.all_different(&q)?; m };
/// let mut config = Config::textbook().with_pruning(Pruning::ForwardChecking);
/// let recorder = StopAtCap::new(100, &mut config);
/// let mut solver = Solver::with_observer(&m, config, recorder)?;
/// let counted = solver.count();
/// assert_eq!(solver.status(), SearchStatus::Stopped(StopReason::Cancelled));
/// assert!(counted.stats.tried < 100);
/// let recorder = solver.into_observer();
/// assert!(!recorder.cancelled());
/// assert!(recorder.finish().is_truncated());
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Debug)]
pub struct StopAtCap {
    recorder: TraceRecorder,
    stop: CancelFlag,
    outer: Option<CancelFlag>,
    /// The page's deadline and its cost per recorded event
    /// ([`StopAtCap::with_page_deadline`]).
    page: Option<(Instant, Duration)>,
    /// Observer calls since the clock was last read.
    calls: u32,
    out_of_time: bool,
}

/// Observer calls between two readings of the clock (about a millisecond of
/// recording at most).
const CLOCK_EVERY: u32 = 1024;

impl StopAtCap {
    /// A recorder of at most `cap` events that stops the search `config` runs.
    pub fn new(cap: usize, config: &mut Config) -> Self {
        let stop = CancelFlag::new();
        let outer = config.limits.cancel.replace(stop.clone());
        StopAtCap {
            recorder: TraceRecorder::new(cap),
            stop,
            outer,
            page: None,
            calls: 0,
            out_of_time: false,
        }
    }

    /// Also stops the search once the page of what was recorded could no
    /// longer be written by `deadline`, writing taking about `per_event`
    /// for each recorded event ([`out_of_time`](Self::out_of_time) then
    /// says so). The clock is read every 1,024 observer calls.
    pub fn with_page_deadline(mut self, deadline: Instant, per_event: Duration) -> Self {
        self.page = Some((deadline, per_event));
        self
    }

    /// Whether the configuration's own cancel flag stopped the search.
    pub fn cancelled(&self) -> bool {
        self.outer.as_ref().is_some_and(CancelFlag::is_cancelled)
    }

    /// Whether the page's deadline stopped the search
    /// ([`with_page_deadline`](Self::with_page_deadline)).
    pub fn out_of_time(&self) -> bool {
        self.out_of_time
    }

    /// The recorded trace.
    pub fn finish(self) -> Trace {
        self.recorder.finish()
    }

    #[inline]
    fn check(&mut self) {
        if self.recorder.is_truncated() || self.cancelled() {
            self.stop.cancel();
        }
        if let Some((deadline, per_event)) = self.page {
            self.calls += 1;
            if self.calls >= CLOCK_EVERY {
                self.calls = 0;
                let events = u32::try_from(self.recorder.events().len()).unwrap_or(u32::MAX);
                let writing = per_event.saturating_mul(events);
                if Instant::now()
                    .checked_add(writing)
                    .is_none_or(|done| done >= deadline)
                {
                    self.out_of_time = true;
                    self.stop.cancel();
                }
            }
        }
    }
}

impl SearchObserver for StopAtCap {
    fn memory_bytes(&self) -> usize {
        self.recorder.memory_bytes()
    }
    fn wants_details(&self) -> bool {
        self.recorder.wants_details()
    }
    fn on_select(&mut self, depth: usize, var: VarId, candidates: &[Candidate]) {
        self.recorder.on_select(depth, var, candidates);
        self.check();
    }
    fn on_try(&mut self, node: &Node) {
        self.recorder.on_try(node);
        self.check();
    }
    fn on_prune(&mut self, node: Option<&Node>, var: VarId, value: Value, cause: &PruneCause) {
        self.recorder.on_prune(node, var, value, cause);
        self.check();
    }
    fn on_accept(&mut self, node: &Node) {
        self.recorder.on_accept(node);
        self.check();
    }
    fn on_reject(&mut self, node: &Node, failure: &Failure) {
        self.recorder.on_reject(node, failure);
        self.check();
    }
    fn on_solution(&mut self, node: Option<&Node>, values: &[Value]) {
        self.recorder.on_solution(node, values);
        self.check();
    }
    fn on_backtrack(&mut self, depth: usize, var: VarId) {
        self.recorder.on_backtrack(depth, var);
        self.check();
    }
    fn on_backjump(&mut self, jump: &csp_core::Backjump<'_>) {
        self.recorder.on_backjump(jump);
        self.check();
    }
}
