//! Branch and bound: the objective, its bound, and how each level enforces it.

use super::Solver;
use crate::context::PropagationContext;
use crate::observer::{Failure, FailureKind, Node};
use crate::{
    CspError, Goal, LinExpr, Optimum, Pruning, SearchObserver, SearchStatus, Solution, Value,
    ValueSelector, VarId, VariableSelector,
};

/// An objective expression: its terms `(a_i, x_i)` and its constant.
pub(super) type ObjectiveSum = (Vec<(Value, VarId)>, Value);

#[derive(Clone, Debug)]
pub(super) struct Objective {
    /// The variable, or the first variable of an expression (named in
    /// failures).
    pub(super) var: VarId,
    /// `sum a_i * x_i + c` when the objective is not one variable.
    pub(super) expr: Option<Box<ObjectiveSum>>,
    pub(super) goal: Goal,
    /// Values must be at least this good (`<=` it when minimising).
    pub(super) bound: Option<Value>,
}

impl<'m, O: SearchObserver, V: VariableSelector, L: ValueSelector> Solver<'m, O, V, L> {
    /// Branch and bound: finds a solution with the smallest (or largest) value of
    /// `objective` (a variable or a [`LinExpr`], e.g. `2 * x + y`), each new
    /// solution being required to improve on the last.
    pub fn optimize(
        &mut self,
        objective: impl Into<LinExpr>,
        goal: Goal,
    ) -> Result<Optimum, CspError> {
        self.optimize_with(objective, goal, |_| {})
    }

    /// [`optimize`](Solver::optimize), calling `on_improvement` with each improving
    /// solution as it is found (a MiniZinc front end prints them as they come).
    pub fn optimize_with(
        &mut self,
        objective: impl Into<LinExpr>,
        goal: Goal,
        mut on_improvement: impl FnMut(&Solution),
    ) -> Result<Optimum, CspError> {
        let mut objective = self.objective_of(&objective.into())?;
        objective.goal = goal;
        let value_of = |sol: &Solution| match &objective.expr {
            None => sol.value(objective.var),
            Some(e) => e.1 + e.0.iter().map(|&(a, x)| a * sol.value(x)).sum::<Value>(),
        };
        self.objective = Some(objective.clone());
        let mut best = None;
        let mut improvements = Vec::new();
        while let Some(sol) = self.next_solution() {
            let v = value_of(&sol);
            improvements.push(v);
            on_improvement(&sol);
            best = Some(sol);
            self.progress_best = Some(v);
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
            objective: best.as_ref().map(value_of),
            best,
            improvements,
            status: self.status,
            stats: self.stats,
        })
    }

    /// [`optimize`](Solver::optimize) with [`Goal::Minimize`]: `objective` is
    /// a variable or an expression (`solver.minimize(x + 2 * y)`).
    pub fn minimize(&mut self, objective: impl Into<LinExpr>) -> Result<Optimum, CspError> {
        self.optimize(objective, Goal::Minimize)
    }

    /// [`optimize`](Solver::optimize) with [`Goal::Maximize`].
    pub fn maximize(&mut self, objective: impl Into<LinExpr>) -> Result<Optimum, CspError> {
        self.optimize(objective, Goal::Maximize)
    }

    /// The objective for `e`: one variable (coefficient 1, no constant), or
    /// an expression whose every value over the declared domains fits in an
    /// `i64` (so that evaluating it never overflows).
    fn objective_of(&self, e: &LinExpr) -> Result<Objective, CspError> {
        let (terms, constant) = e.checked("optimize")?;
        let vars: Vec<VarId> = terms.iter().map(|&(_, x)| x).collect();
        self.model.check_vars("optimize", &vars)?;
        let Some(&(_, first)) = terms.first() else {
            return Err(CspError::InvalidArgument {
                context: "optimize".into(),
                message: "the objective has no variable".into(),
            });
        };
        if let ([(1, x)], 0) = (terms.as_slice(), constant) {
            return Ok(Objective {
                var: *x,
                expr: None,
                goal: Goal::Minimize,
                bound: None,
            });
        }
        let (mut lo, mut hi) = (i128::from(constant), i128::from(constant));
        for &(a, x) in &terms {
            let (min, max) = (self.domains.min(x), self.domains.max(x));
            let (p, q) = (
                i128::from(a) * i128::from(min),
                i128::from(a) * i128::from(max),
            );
            lo += p.min(q);
            hi += p.max(q);
        }
        if lo < i128::from(Value::MIN) || hi > i128::from(Value::MAX) {
            return Err(CspError::Overflow {
                context: "optimize".into(),
                detail: "the objective's values over the domains do not fit in an i64".into(),
            });
        }
        Ok(Objective {
            var: first,
            expr: Some(Box::new((terms, constant))),
            goal: Goal::Minimize,
            bound: None,
        })
    }

    /// Under `None` and `Check`: rejects a fixed objective that does not improve.
    pub(super) fn check_objective(&self) -> Result<(), Failure> {
        let Some(Objective {
            var,
            expr,
            goal,
            bound: Some(b),
        }) = &self.objective
        else {
            return Ok(());
        };
        let value = match expr {
            None => self.domains.value(*var),
            Some(e) => e.0.iter().try_fold(e.1, |sum, &(a, x)| {
                self.domains.value(x).map(|v| sum + a * v)
            }),
        };
        if let Some(v) = value {
            let ok = match goal {
                Goal::Minimize => v <= *b,
                Goal::Maximize => v >= *b,
            };
            if !ok {
                return Err(Self::fail(FailureKind::ObjectiveBound, None, Some(*var)));
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
            expr,
            goal,
            bound: Some(b),
        }) = &self.objective
        else {
            return Ok(());
        };
        let (var, goal, b) = (*var, *goal, *b);
        let mut ctx = PropagationContext::new(
            &mut self.domains,
            &mut self.state,
            &mut self.changes,
            self.pruning,
            None,
            usize::MAX,
        );
        let r = match (expr, goal) {
            (None, Goal::Minimize) => ctx.remove_above(var, b),
            (None, Goal::Maximize) => ctx.remove_below(var, b),
            (Some(e), _) => bound_sum(&mut ctx, &e.0, e.1, goal, b),
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

/// Narrows the bounds of the terms of `sum a_i * x_i + c` so that the sum can
/// still reach `b` (at most `b` when minimising, at least when maximising):
/// one pass of bounds reasoning, in `i128` (the solver checked that every
/// value of the sum fits in an `i64`). `Err` when no value can.
fn bound_sum(
    ctx: &mut PropagationContext<'_>,
    terms: &[(Value, VarId)],
    c: Value,
    goal: Goal,
    b: Value,
) -> Result<bool, crate::Conflict> {
    // Minimising: sum a_i x_i <= b - c. Maximising: sum (-a_i) x_i <= c - b.
    let sign: i128 = if goal == Goal::Minimize { 1 } else { -1 };
    let limit = sign * (i128::from(b) - i128::from(c));
    let low = |ctx: &PropagationContext<'_>, a: i128, x: VarId| {
        (a * i128::from(ctx.domains().min(x))).min(a * i128::from(ctx.domains().max(x)))
    };
    let min_sum: i128 = terms
        .iter()
        .map(|&(a, x)| low(ctx, sign * i128::from(a), x))
        .sum();
    if min_sum > limit {
        return Err(crate::Conflict::infeasible());
    }
    let mut changed = false;
    for &(a, x) in terms {
        let a = sign * i128::from(a);
        // a * x <= slack, the other terms at their smallest.
        let slack = limit - (min_sum - low(ctx, a, x));
        let clamp = |v: i128| v.clamp(i128::from(Value::MIN), i128::from(Value::MAX)) as Value;
        changed |= if a > 0 {
            ctx.remove_above(x, clamp(slack.div_euclid(a)))?
        } else {
            // x >= slack / a, rounded up.
            ctx.remove_below(x, clamp(-slack.div_euclid(-a)))?
        };
    }
    Ok(changed)
}
