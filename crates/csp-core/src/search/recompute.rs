//! Bounded undo information: past the trail budget the oldest levels' records
//! are dropped, and a level without records is rebuilt by recomputation (the
//! root snapshot, then the path's decisions replayed).

use super::Solver;
use crate::{SearchObserver, ValueSelector, VariableSelector};

impl<'m, O: SearchObserver, V: VariableSelector, L: ValueSelector> Solver<'m, O, V, L> {
    /// Keeps the current domains and state as the point recomputation starts
    /// from (after the root propagation, and again after assumptions), and
    /// drops the root level's undo records, which no backtrack needs.
    pub(super) fn take_snapshot(&mut self) {
        if self.trail_budget.is_none() || self.root_failed {
            return;
        }
        self.snapshot = Some(Box::new((self.domains.snapshot(), self.state.snapshot())));
        self.domains.forget_levels(0);
        self.state.forget_levels(0);
    }

    /// After a level was opened: if the undo records pass the budget, drops
    /// those of the oldest levels, keeping the newest that fit in half of it.
    #[inline(always)]
    pub(super) fn bound_trail(&mut self) {
        if let Some(budget) = self.trail_budget
            && self.domains.trail_bytes() + self.state.trail_bytes() > budget
        {
            self.forget_oldest_levels(budget);
        }
    }

    #[inline(never)]
    fn forget_oldest_levels(&mut self, budget: usize) {
        if self.snapshot.is_none() || self.objective.is_some() {
            return;
        }
        let keep = self.domains.levels_within(budget / 2);
        self.domains.forget_levels(keep);
        self.state.forget_levels(keep);
    }

    /// Closes the newest level: by its undo records, or by recomputing the
    /// level below from the snapshot when they were dropped.
    #[inline(always)]
    pub(super) fn pop_decision(&mut self) {
        if !self.pop_records() {
            self.recompute();
        }
    }

    /// Closes the newest level by its undo records; `false` (and nothing
    /// done) if they were dropped.
    #[inline(always)]
    pub(super) fn pop_records(&mut self) -> bool {
        let can = self.domains.can_pop() && self.state.can_pop();
        if can {
            self.domains.pop_level();
            self.state.pop_level();
        }
        can
    }

    /// Goes back to the snapshot: the root after its propagation and any
    /// assumptions (nothing happens without one).
    pub(super) fn restore_root(&mut self) {
        if let Some(snapshot) = &self.snapshot {
            self.domains.restore(&snapshot.0);
            self.state.restore(&snapshot.1);
        }
    }

    /// Rebuilds the state below the top frame: the snapshot, then every lower
    /// frame's open branch replayed with its propagation. Nothing is reported
    /// to the observer and the statistics do not count the replay.
    #[inline(never)]
    fn recompute(&mut self) {
        if self.snapshot.is_none() {
            return;
        }
        self.restore_root();
        let stats = self.stats;
        let (pruned, revisions) = (self.changes.pruned, self.changes.revisions);
        let record = std::mem::replace(&mut self.changes.record, false);
        // The look-back state is kept apart from the trail; the replay must
        // not record removals twice.
        let lookback = self.lookback.take();
        let below = self.frames.len().saturating_sub(1);
        for i in 0..below {
            let frame = self.frames[i];
            let Some(node) = frame.open else {
                continue;
            };
            self.domains.push_level();
            self.state.push_level();
            // The replay found no failure the first time; with the same
            // decisions and propagators it finds none now.
            let _ = if frame.refuted {
                self.exclude(&node)
            } else {
                self.decide(&node)
            };
            if self.changes.interrupted.is_some() {
                break;
            }
        }
        self.lookback = lookback;
        if self.lookback.is_some() && self.pruning == crate::Pruning::ForwardChecking {
            Self::forget_changed(&mut self.changes);
        }
        self.changes.record = record;
        self.changes.pruned = pruned;
        self.changes.revisions = revisions;
        self.stats = stats;
    }
}
