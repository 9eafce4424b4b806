//! Cumulative resource: tasks with start times, durations and demands share a
//! capacity; filtering by time-tabling.

use crate::constraint::{Conflict, PropCost, Propagation};
use crate::constraints::global_cardinality::finish;
use crate::{Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Value, VarId};

/// A task for time-tabling: its start variable, smallest duration and demand.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Task {
    pub start: VarId,
    pub duration: i128,
    pub demand: i128,
}

impl Task {
    /// The compulsory part `[latest start, earliest end)`, if it is not empty.
    fn compulsory(&self, d: &Domains) -> Option<(i128, i128)> {
        let lst = i128::from(d.max(self.start));
        let ect = i128::from(d.min(self.start)) + self.duration;
        (self.duration > 0 && self.demand > 0 && lst < ect).then_some((lst, ect))
    }
}

/// The resource profile of the compulsory parts: maximal segments
/// `(from, to, load)` with a positive load, in time order.
pub(crate) fn profile(tasks: &[Task], d: &Domains) -> Vec<(i128, i128, i128)> {
    let mut events: Vec<(i128, i128)> = Vec::new();
    for t in tasks {
        if let Some((a, b)) = t.compulsory(d) {
            events.push((a, t.demand));
            events.push((b, -t.demand));
        }
    }
    events.sort_unstable();
    let mut out = Vec::new();
    let mut load = 0;
    let mut k = 0;
    while k < events.len() {
        let time = events[k].0;
        while k < events.len() && events[k].0 == time {
            load += events[k].1;
            k += 1;
        }
        if load > 0
            && let Some(&(next, _)) = events.get(k)
        {
            out.push((time, next, load));
        }
    }
    out
}

/// The largest load of `profile` over `[from, to)` without the compulsory part
/// `own` (of height `own_load`) of the task placed there.
fn peak(
    profile: &[(i128, i128, i128)],
    from: i128,
    to: i128,
    own: Option<(i128, i128)>,
    own_load: i128,
) -> i128 {
    let first = profile.partition_point(|&(_, end, _)| end <= from);
    let mut best = 0;
    for &(a, b, load) in &profile[first..] {
        if a >= to {
            break;
        }
        // Segments break at every compulsory part's ends: inside or outside.
        let mine = own.is_some_and(|(s, e)| s <= a && b <= e);
        best = best.max(if mine { load - own_load } else { load });
    }
    best
}

/// Time-tabling to a fixpoint: removes every start at which a task's smallest
/// demand would overload `capacity` somewhere on the compulsory parts of the
/// others. Returns whether a domain changed; a conflict when the compulsory
/// parts alone exceed the capacity.
pub(crate) fn time_table(
    tasks: &[Task],
    capacity: i128,
    ctx: &mut PropagationContext<'_>,
) -> Result<bool, Conflict> {
    let mut changed = false;
    loop {
        let prof = profile(tasks, ctx.domains());
        if prof.iter().any(|&(_, _, load)| load > capacity) {
            return Err(Conflict::infeasible());
        }
        let mut again = false;
        for t in tasks {
            if t.duration <= 0 || t.demand <= 0 || ctx.is_fixed(t.start) {
                continue;
            }
            ctx.note_revision();
            let own = t.compulsory(ctx.domains());
            again |= ctx.retain(t.start, |_, s| {
                let s = i128::from(s);
                peak(&prof, s, s + t.duration, own, t.demand) + t.demand <= capacity
            })?;
        }
        if !again {
            return Ok(changed);
        }
        changed = true;
    }
}

/// At every time the tasks running then need at most `capacity` in total:
/// for all `t`, `sum of demands[i] over the i with starts[i] <= t < starts[i] +
/// durations[i]` is at most `capacity`, and `capacity >= 0`.
///
/// Durations and demands must be non-negative (negative values violate the
/// constraint); tasks of duration or demand 0 use nothing. The scope is
/// `starts`, `durations`, `demands`, then `capacity`; give constants as fixed
/// variables.
///
/// Filtering (every level): time-tabling on the compulsory parts
/// `[max start, min start + min duration)` of the tasks, to a fixpoint: a start
/// value goes when the task's smallest demand, added to the others' compulsory
/// load anywhere over its smallest duration, exceeds the largest capacity;
/// the capacity's lower bound rises to the highest compulsory load. `promising`
/// rejects domains whose compulsory parts overload the capacity.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let starts = m.int_var_array("s", 3, 0..=3)?;
/// let two = m.int_var(2..=2)?;
/// let one = m.int_var(1..=1)?;
/// let cap = m.int_var(2..=2)?;
/// // Three tasks of length 2 and demand 1 on a resource of capacity 2 within
/// // [0, 5): at most two overlap at any time.
/// m.cumulative(&starts, &[two, two, two], &[one, one, one], cap)?;
/// let n = Solver::new(&m, Config::textbook())?.count().solutions;
/// assert_eq!(n, 42); // 22 of the 4^3 placements overlap all three somewhere
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cumulative {
    scope: Vec<VarId>,
    n: usize,
}

impl Cumulative {
    /// Tasks `i` with `starts[i]`, `durations[i]`, `demands[i]` on a resource of
    /// `capacity`. Fails if the three lists differ in length.
    pub fn new(
        starts: &[VarId],
        durations: &[VarId],
        demands: &[VarId],
        capacity: VarId,
    ) -> Result<Self, CspError> {
        for (what, list) in [("durations", durations), ("demands", demands)] {
            if list.len() != starts.len() {
                return Err(CspError::LengthMismatch {
                    context: "cumulative".into(),
                    what: what.into(),
                    expected: starts.len(),
                    got: list.len(),
                });
            }
        }
        let mut scope = starts.to_vec();
        scope.extend_from_slice(durations);
        scope.extend_from_slice(demands);
        scope.push(capacity);
        Ok(Cumulative {
            scope,
            n: starts.len(),
        })
    }

    fn capacity(&self) -> VarId {
        self.scope[3 * self.n]
    }

    fn tasks(&self, d: &Domains) -> Vec<Task> {
        (0..self.n)
            .map(|i| Task {
                start: self.scope[i],
                duration: i128::from(d.min(self.scope[self.n + i])),
                demand: i128::from(d.min(self.scope[2 * self.n + i])),
            })
            .collect()
    }
}

impl Constraint for Cumulative {
    fn cost(&self) -> PropCost {
        PropCost::Expensive
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        let n = self.n;
        let capacity = i128::from(v[3 * n]);
        if v[n..3 * n].iter().any(|&x| x < 0) || (n > 0 && capacity < 0) {
            return false;
        }
        // The load only rises at a start: check there.
        (0..n).all(|j| {
            let t = i128::from(v[j]);
            let load: i128 = (0..n)
                .filter(|&i| {
                    let s = i128::from(v[i]);
                    s <= t && t < s + i128::from(v[n + i])
                })
                .map(|i| i128::from(v[2 * n + i]))
                .sum();
            load <= capacity
        })
    }

    fn name(&self) -> &str {
        "cumulative"
    }

    fn promising(&self, d: &Domains) -> bool {
        let n = self.n;
        if self.scope[n..3 * n].iter().any(|&x| d.max(x) < 0) {
            return false;
        }
        let capacity = i128::from(d.max(self.capacity()));
        if n > 0 && capacity < 0 {
            return false;
        }
        profile(&self.tasks(d), d)
            .iter()
            .all(|&(_, _, load)| load <= capacity)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let n = self.n;
        let mut changed = false;
        for &x in &self.scope[n..3 * n] {
            changed |= ctx.remove_below(x, 0)?;
        }
        if n > 0 {
            changed |= ctx.remove_below(self.capacity(), 0)?;
        }
        let tasks = self.tasks(ctx.domains());
        let capacity = i128::from(ctx.max(self.capacity()));
        changed |= time_table(&tasks, capacity, ctx)?;
        let top = profile(&tasks, ctx.domains())
            .iter()
            .map(|&(_, _, load)| load)
            .max()
            .unwrap_or(0);
        let top = Value::try_from(top).unwrap_or(Value::MAX);
        changed |= ctx.remove_below(self.capacity(), top)?;
        finish(self, ctx, changed)
    }
}

impl Model {
    /// Tasks with `starts`, `durations` and `demands` never use more than
    /// `capacity` at once (see [`Cumulative`]).
    ///
    /// Fails if the lists differ in length or on a variable of another model.
    pub fn cumulative(
        &mut self,
        starts: &[VarId],
        durations: &[VarId],
        demands: &[VarId],
        capacity: VarId,
    ) -> Result<ConstraintId, CspError> {
        self.post(Cumulative::new(starts, durations, demands, capacity)?)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Solver};

    #[test]
    fn time_tabling_pushes_a_task_past_a_compulsory_part() {
        let mut m = Model::new();
        let a = m.int_var(0..=1).unwrap();
        let b = m.int_var(0..=9).unwrap();
        let three = m.int_var(3..=3).unwrap();
        let one = m.int_var(1..=1).unwrap();
        m.cumulative(&[a, b], &[three, three], &[one, one], one)
            .unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        // a runs during [1, 3) whatever its start: b cannot start in -2..3.
        assert_eq!(s.domains().min(b), 3);
        assert_eq!(
            s.domains().values(b).collect::<Vec<_>>(),
            vec![3, 4, 5, 6, 7, 8, 9]
        );
    }

    #[test]
    fn mismatched_lengths_are_refused() {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 2, 0..=2).unwrap();
        assert!(m.cumulative(&xs, &xs[..1], &xs, xs[0]).is_err());
    }
}
