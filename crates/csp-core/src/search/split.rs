//! Subproblems: decisions made before the search, and splitting the tree at a depth.

use super::Solver;
use crate::observer::Node;
use crate::{CspError, SearchObserver, Value, ValueSelector, VarId, VariableSelector};
#[cfg(feature = "parallel")]
use crate::{Limits, SearchStatus, StopReason};

impl<'m, O: SearchObserver, V: VariableSelector, L: ValueSelector> Solver<'m, O, V, L> {
    /// Makes `decisions` at the root, before any search, with the pruning level's
    /// propagation after each (as the parallel count's subproblems
    /// replay their path). Returns `false` if they fail: the search then finds
    /// nothing. Call it before searching; decided variables are not branched on.
    pub fn assume(&mut self, decisions: &[(VarId, Value)]) -> Result<bool, CspError> {
        let vars: Vec<VarId> = decisions.iter().map(|d| d.0).collect();
        self.model.check_vars("assume", &vars)?;
        if !self.frames.is_empty() || self.stats.tried > 0 {
            return Err(CspError::InvalidArgument {
                context: "assume".into(),
                message: "decisions must be made before the search starts".into(),
            });
        }
        for &(var, value) in decisions {
            if self.root_failed {
                break;
            }
            // A decision on a view is one on its base.
            let Some((var, value)) = self.on_base(var, value) else {
                self.root_failed = true;
                continue;
            };
            if self.decided[var.index()] || !self.domains.contains(var, value) {
                self.root_failed =
                    !(self.decided[var.index()] && self.domains.value(var) == Some(value));
                continue;
            }
            let node = Node {
                id: 0,
                parent: 0,
                depth: 0,
                var,
                value,
                choice: crate::Choice::Equal,
            };
            self.set_decided(var, true);
            self.num_decided += 1;
            self.root_failed = self.decide(&node).is_err();
        }
        // The assumptions join the root: recomputation starts after them.
        self.take_snapshot();
        self.flush_pruned();
        Ok(!self.root_failed)
    }

    /// Explores the tree down to `depth` decisions and returns the decision paths
    /// of the nodes reached there, in search order: the roots of independent
    /// subproblems whose solutions, together with those found above `depth`,
    /// are exactly the model's. Solutions above `depth` are returned as paths
    /// too (complete ones), so every solution lies under exactly one path.
    /// A projection ([`Config::with_projection`](crate::Config::with_projection))
    /// does not apply to the split: the paths cover every solution, and two
    /// of them may hold the same projected one (the parallel search refuses
    /// a projection).
    pub fn split(&mut self, depth: usize) -> Vec<Vec<(VarId, Value)>> {
        let projection = self.projection.take();
        self.split_depth = Some(depth);
        // Paths are lists of assignments: no refutations on them.
        let binary = std::mem::replace(&mut self.binary, false);
        // A restart would list paths twice.
        let restart_at = self.restart_at;
        self.stop_restarting();
        while let Some(sol) = self.next_solution() {
            let _ = sol;
            let path = self
                .frames
                .iter()
                .filter_map(|f| f.open)
                .map(|n| (n.var, n.value));
            self.frontier.push(path.collect());
        }
        self.split_depth = None;
        self.projection = projection;
        self.binary = binary;
        self.restart_at = restart_at;
        self.update_fail_mark();
        std::mem::take(&mut self.frontier)
    }

    #[cfg(feature = "parallel")]
    /// Replaces the limits of a search that a node, failure or solution limit
    /// stopped, so that it goes on from where it stopped (the shared budgets of
    /// a parallel count hand out more work this way).
    pub(crate) fn raise_limits(&mut self, limits: Limits) {
        self.limits = limits;
        self.update_fail_mark();
        if matches!(
            self.status,
            SearchStatus::Stopped(
                StopReason::NodeLimit | StopReason::FailureLimit | StopReason::SolutionLimit
            )
        ) {
            self.status = SearchStatus::Paused;
        }
    }
}
