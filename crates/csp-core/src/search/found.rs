//! A solution reached: checked, counted, reported.

use super::Solver;
use crate::{SearchObserver, SearchStatus, StopReason, Value, ValueSelector, VariableSelector};

impl<O: SearchObserver, V: VariableSelector, L: ValueSelector> Solver<'_, O, V, L> {
    /// Every variable is decided: a solution. Checks it (if asked), counts
    /// it, reports it, and marks the frames to skip under a projection.
    pub(super) fn found_solution(&mut self) -> bool {
        if self.check_solutions
            && let Some(c) = self.refusing_constraint()
        {
            self.invalid = Some(c);
            return self.stop(StopReason::InvalidSolution);
        }
        self.stats.solutions += 1;
        if self.objective.is_none() && self.restart_at != u64::MAX {
            // Enumerating: the rest of this run's tree holds every other
            // solution once; another restart would find this one again.
            self.stop_restarting();
        }
        if self.objective.is_none()
            && let Some(p) = self.projection.as_deref_mut()
        {
            // Enumerating (branch and bound does not skip): the frames pushed
            // with the projection fixed hold no other projected solution.
            p.skipping = true;
        }
        if let Some(lb) = self.lookback.as_deref_mut() {
            // A solution has no conflict set: back chronologically from here.
            lb.solved(self.frames.len());
        }
        let last = self.frames.last().and_then(|f| f.open);
        if self.observer.wants_solutions() {
            self.buf.clear();
            let domains = &self.domains;
            self.buf.extend(self.model.vars().map(|v| domains.min(v)));
            self.observer.on_solution(last.as_ref(), &self.buf);
        }
        if self.frames.is_empty() {
            // A model with nothing to decide has exactly this one solution.
            self.status = SearchStatus::Complete;
        } else if self
            .limits
            .solutions
            .is_some_and(|s| self.stats.solutions >= s)
        {
            self.status = SearchStatus::Stopped(StopReason::SolutionLimit);
        }
        true
    }

    /// The first constraint whose `check` refuses the assignment of the
    /// (fixed) domains, if any.
    #[cold]
    fn refusing_constraint(&self) -> Option<crate::ConstraintId> {
        let values: Vec<Value> = self.model.vars().map(|v| self.domains.min(v)).collect();
        let mut scoped = Vec::new();
        self.model.constraints().find_map(|(id, c)| {
            if !self.is_active(id.index()) {
                return None;
            }
            scoped.clear();
            scoped.extend(c.scope().iter().map(|v| values[v.index()]));
            (!c.check(&scoped)).then_some(id)
        })
    }
}
