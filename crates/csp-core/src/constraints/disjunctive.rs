//! Disjunctive resource: tasks that may not overlap (a machine doing one job at a
//! time).

use crate::Pruning;
use crate::constraint::{Conflict, Events, PropCost, Propagation};
use crate::constraints::cumulative::{Task, profile, time_table};
use crate::constraints::global_cardinality::finish;
use crate::{Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Value, VarId};

/// No two tasks overlap: for every pair `i != j` with positive durations,
/// `starts[i] + durations[i] <= starts[j]` or `starts[j] + durations[j] <=
/// starts[i]`. Durations must be non-negative; a task of duration 0 may go
/// anywhere (MiniZinc's `disjunctive`). The scope is `starts` then `durations`;
/// give constant durations as fixed variables.
///
/// Filtering (every level), to a fixpoint: for each pair, when one order is
/// impossible on the current bounds the other is enforced on the bounds (detected
/// precedences), and time-tabling on the compulsory parts removes the starts that
/// would overlap them (see [`Cumulative`](crate::constraints::Cumulative)).
/// Under [`Pruning::Propagators`] edge finding on task intervals adds, for tasks
/// of fixed duration: a task that cannot share a window with the tasks inside
/// it goes after (or before) all of them.
/// `promising` rejects domains where some pair can be ordered neither way.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let starts = m.int_var_array("s", 2, 0..=3)?;
/// let two = m.int_var(2..=2)?;
/// m.disjunctive(&starts, &[two, two])?;
/// // Starts at least 2 apart: (0, 2), (0, 3), (1, 3) and the reverse orders.
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 6);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disjunctive {
    scope: Vec<VarId>,
    n: usize,
}

impl Disjunctive {
    /// Tasks `i` with `starts[i]` and `durations[i]` on one machine. Fails if the
    /// lists differ in length.
    pub fn new(starts: &[VarId], durations: &[VarId]) -> Result<Self, CspError> {
        if durations.len() != starts.len() {
            return Err(CspError::LengthMismatch {
                context: "disjunctive".into(),
                what: "durations".into(),
                expected: starts.len(),
                got: durations.len(),
            });
        }
        let mut scope = starts.to_vec();
        scope.extend_from_slice(durations);
        Ok(Disjunctive {
            scope,
            n: starts.len(),
        })
    }

    /// Start variable, earliest start, latest start and smallest duration.
    fn bounds(&self, d: &Domains, i: usize) -> (VarId, i128, i128, i128) {
        let s = self.scope[i];
        (
            s,
            i128::from(d.min(s)),
            i128::from(d.max(s)),
            i128::from(d.min(self.scope[self.n + i])),
        )
    }

    fn tasks(&self, d: &Domains) -> Vec<Task> {
        (0..self.n)
            .map(|i| {
                let (start, _, _, duration) = self.bounds(d, i);
                Task {
                    start,
                    duration,
                    demand: 1,
                }
            })
            .collect()
    }
}

fn clamp(v: i128) -> Value {
    v.clamp(i128::from(Value::MIN), i128::from(Value::MAX)) as Value
}

impl Constraint for Disjunctive {
    fn cost(&self) -> PropCost {
        PropCost::Expensive
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        let n = self.n;
        let (s, d) = v.split_at(n);
        if d.iter().any(|&x| x < 0) {
            return false;
        }
        (0..n).all(|i| {
            (i + 1..n).all(|j| {
                let (si, sj) = (i128::from(s[i]), i128::from(s[j]));
                let (di, dj) = (i128::from(d[i]), i128::from(d[j]));
                di == 0 || dj == 0 || si + di <= sj || sj + dj <= si
            })
        })
    }

    fn name(&self) -> &str {
        "disjunctive"
    }

    fn promising(&self, d: &Domains) -> bool {
        let n = self.n;
        if self.scope[n..].iter().any(|&x| d.max(x) < 0) {
            return false;
        }
        for i in 0..n {
            let (_, est_i, lst_i, d_i) = self.bounds(d, i);
            if d_i <= 0 {
                continue;
            }
            for j in i + 1..n {
                let (_, est_j, lst_j, d_j) = self.bounds(d, j);
                if d_j > 0 && est_i + d_i > lst_j && est_j + d_j > lst_i {
                    return false;
                }
            }
        }
        profile(&self.tasks(d), d)
            .iter()
            .all(|&(_, _, load)| load <= 1)
    }

    fn events(&self, _: usize) -> Events {
        // Detected precedences, time-tabling and edge finding read the
        // starts' bounds and the durations' minima only.
        Events::BOUNDS
    }

    fn idempotent(&self) -> bool {
        // The three filters run together to their common fixpoint.
        true
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let n = self.n;
        let mut changed = false;
        for &x in &self.scope[n..] {
            // Usually constants: look before calling.
            if ctx.min(x) < 0 {
                changed |= ctx.remove_below(x, 0)?;
            }
        }
        loop {
            let mut again = false;
            for i in 0..n {
                for j in i + 1..n {
                    again |= self.order_pair(ctx, i, j)?;
                }
            }
            let tasks = self.tasks(ctx.domains());
            again |= time_table(&tasks, 1, ctx)?.0;
            if ctx.pruning() == Pruning::Propagators {
                again |= self.edge_finding(ctx)?;
            }
            if !again {
                break;
            }
            changed = true;
        }
        finish(self, ctx, changed)
    }
}

impl Disjunctive {
    /// Detected precedence between tasks `i` and `j`: if one order is impossible,
    /// enforce the other on the bounds.
    fn order_pair(
        &self,
        ctx: &mut PropagationContext<'_>,
        i: usize,
        j: usize,
    ) -> Result<bool, Conflict> {
        let (si, est_i, lst_i, d_i) = self.bounds(ctx.domains(), i);
        let (sj, est_j, lst_j, d_j) = self.bounds(ctx.domains(), j);
        if d_i <= 0 || d_j <= 0 {
            return Ok(false);
        }
        ctx.note_revision();
        let i_first = est_i + d_i <= lst_j;
        let j_first = est_j + d_j <= lst_i;
        match (i_first, j_first) {
            (false, false) => Err(Conflict::infeasible()),
            (true, false) => {
                let a = ctx.remove_below(sj, clamp(est_i + d_i))?;
                let b = ctx.remove_above(si, clamp(lst_j - d_i))?;
                Ok(a || b)
            }
            (false, true) => {
                let a = ctx.remove_below(si, clamp(est_j + d_j))?;
                let b = ctx.remove_above(sj, clamp(lst_i - d_j))?;
                Ok(a || b)
            }
            (true, true) => Ok(false),
        }
    }
}

impl Disjunctive {
    /// Edge finding on task intervals, for tasks of fixed positive duration:
    /// for every window `[a, b]` from an earliest start to a latest end, the
    /// tasks `Ω` inside it must fit (`a + p(Ω) <= b`), and a task `i` outside
    /// that cannot fit in the window together with them goes after all of them
    /// (`s_i >= a + p(Ω)`) or, symmetrically, before (`s_i + p_i <= b - p(Ω)`).
    fn edge_finding(&self, ctx: &mut PropagationContext<'_>) -> Result<bool, Conflict> {
        let n = self.n;
        // (start, est, lct, p) of the tasks with a fixed positive duration.
        let mut tasks: Vec<(VarId, i128, i128, i128)> = Vec::with_capacity(n);
        for i in 0..n {
            let Some(p) = ctx.value(self.scope[n + i]) else {
                continue;
            };
            if p > 0 {
                let s = self.scope[i];
                let p = i128::from(p);
                tasks.push((s, i128::from(ctx.min(s)), i128::from(ctx.max(s)) + p, p));
            }
        }
        edge_find(&tasks, ctx)
    }
}

/// Edge finding on task intervals over `tasks` given as (start, earliest
/// start, latest completion, fixed positive duration), all on one machine
/// (see [`Disjunctive`]; [`Diffn`](crate::constraints::Diffn) uses it on the
/// rectangles that surely share a row or a column).
pub(crate) fn edge_find(
    tasks: &[(VarId, i128, i128, i128)],
    ctx: &mut PropagationContext<'_>,
) -> Result<bool, Conflict> {
    let mut changed = false;
    for &(_, a, _, _) in tasks {
        for &(_, _, b, _) in tasks {
            if a >= b {
                continue;
            }
            let inside = |t: &(VarId, i128, i128, i128)| t.1 >= a && t.2 <= b;
            let work: i128 = tasks.iter().filter(|t| inside(t)).map(|t| t.3).sum();
            if work == 0 {
                continue;
            }
            ctx.note_revision();
            if a + work > b {
                return Err(Conflict::infeasible());
            }
            for t in tasks.iter().filter(|t| !inside(t)) {
                let (s, est, lct, p) = *t;
                if est.min(a) + work + p > b {
                    changed |= ctx.remove_below(s, clamp(a + work))?;
                }
                if lct.max(b) - work - p < a {
                    changed |= ctx.remove_above(s, clamp(b - work - p))?;
                }
            }
        }
    }
    Ok(changed)
}

impl Model {
    /// Tasks with `starts` and `durations` never overlap (see [`Disjunctive`]).
    ///
    /// Fails if the lists differ in length or on a variable of another model.
    pub fn disjunctive(
        &mut self,
        starts: &[VarId],
        durations: &[VarId],
    ) -> Result<ConstraintId, CspError> {
        self.post(Disjunctive::new(starts, durations)?)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Solver};

    #[test]
    fn a_detected_precedence_moves_both_tasks() {
        let mut m = Model::new();
        let a = m.int_var(0..=2).unwrap();
        let b = m.int_var(1..=6).unwrap();
        let three = m.int_var(3..=3).unwrap();
        m.disjunctive(&[a, b], &[three, three]).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        // b cannot precede a (1 + 3 > 2): a first, so b >= 3 and a <= 3.
        assert_eq!((s.domains().min(b), s.domains().max(a)), (3, 2));
    }
}
