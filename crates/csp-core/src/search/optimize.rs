//! Branch and bound: the objective, its bound, and how each level enforces it.

use super::Solver;
use crate::context::PropagationContext;
use crate::observer::{Failure, FailureKind, Node};
use crate::{
    CspError, Goal, Optimum, Pruning, SearchObserver, SearchStatus, Solution, Value, ValueSelector,
    VarId, VariableSelector,
};

#[derive(Clone, Copy, Debug)]
pub(super) struct Objective {
    pub(super) var: VarId,
    pub(super) goal: Goal,
    /// Values must be strictly better than this.
    pub(super) bound: Option<Value>,
}

impl<'m, O: SearchObserver, V: VariableSelector, L: ValueSelector> Solver<'m, O, V, L> {
    /// Branch and bound: finds a solution with the smallest (or largest) value of
    /// `objective`, each new solution being required to improve on the last.
    pub fn optimize(&mut self, objective: VarId, goal: Goal) -> Result<Optimum, CspError> {
        self.optimize_with(objective, goal, |_| {})
    }

    /// [`optimize`](Solver::optimize), calling `on_improvement` with each improving
    /// solution as it is found (a MiniZinc front end prints them as they come).
    pub fn optimize_with(
        &mut self,
        objective: VarId,
        goal: Goal,
        mut on_improvement: impl FnMut(&Solution),
    ) -> Result<Optimum, CspError> {
        self.model.check_vars("optimize", &[objective])?;
        self.objective = Some(Objective {
            var: objective,
            goal,
            bound: None,
        });
        let mut best = None;
        let mut improvements = Vec::new();
        while let Some(sol) = self.next_solution() {
            let v = sol.value(objective);
            improvements.push(v);
            on_improvement(&sol);
            best = Some(sol);
            let next = match goal {
                Goal::Minimize => v.checked_sub(1),
                Goal::Maximize => v.checked_add(1),
            };
            let Some(next) = next else {
                // Nothing can improve on the extreme value.
                self.status = SearchStatus::Complete;
                break;
            };
            if let Some(o) = &mut self.objective {
                o.bound = Some(next);
            }
        }
        Ok(Optimum {
            objective: best.as_ref().map(|s: &Solution| s.value(objective)),
            best,
            improvements,
            status: self.status,
            stats: self.stats,
        })
    }

    /// [`optimize`](Solver::optimize) with [`Goal::Minimize`].
    pub fn minimize(&mut self, objective: VarId) -> Result<Optimum, CspError> {
        self.optimize(objective, Goal::Minimize)
    }

    /// [`optimize`](Solver::optimize) with [`Goal::Maximize`].
    pub fn maximize(&mut self, objective: VarId) -> Result<Optimum, CspError> {
        self.optimize(objective, Goal::Maximize)
    }

    /// Under `None` and `Check`: rejects a fixed objective that does not improve.
    pub(super) fn check_objective(&self) -> Result<(), Failure> {
        if let Some(Objective {
            var,
            goal,
            bound: Some(b),
        }) = self.objective
            && let Some(v) = self.domains.value(var)
        {
            let ok = match goal {
                Goal::Minimize => v <= b,
                Goal::Maximize => v >= b,
            };
            if !ok {
                return Err(Self::fail(FailureKind::ObjectiveBound, None, Some(var)));
            }
        }
        Ok(())
    }

    /// From forward checking up: removes the objective values that do not improve.
    #[inline(always)]
    pub(super) fn prune_objective(&mut self, node: Option<&Node>) -> Result<(), Failure> {
        // Inlined test, out-of-line work: every node of every search comes here.
        if matches!(self.objective, Some(Objective { bound: Some(_), .. })) {
            self.prune_objective_bound(node)
        } else {
            Ok(())
        }
    }

    #[inline(never)]
    fn prune_objective_bound(&mut self, node: Option<&Node>) -> Result<(), Failure> {
        let Some(Objective {
            var,
            goal,
            bound: Some(b),
        }) = self.objective
        else {
            return Ok(());
        };
        let mut ctx = PropagationContext::new(
            &mut self.domains,
            &mut self.state,
            &mut self.changes,
            self.pruning,
            None,
            usize::MAX,
        );
        let r = match goal {
            Goal::Minimize => ctx.remove_above(var, b),
            Goal::Maximize => ctx.remove_below(var, b),
        };
        if self.changes.record {
            Self::report_prunes(
                &mut self.observer,
                &mut self.changes,
                node,
                None,
                self.pruning,
            );
        }
        match r {
            Ok(true) if self.pruning >= Pruning::ArcConsistency => {
                self.schedule_changed(None);
                Ok(())
            }
            Ok(_) => Ok(()),
            Err(_) => Err(Self::fail(FailureKind::ObjectiveBound, None, Some(var))),
        }
    }
}
