//! Cumulative resource: tasks with start times, durations and demands share a
//! capacity; filtering by time-tabling.

use std::cell::RefCell;

use crate::Pruning;
use crate::constraint::{Conflict, Events, PropCost, Propagation};
use crate::constraints::global_cardinality::finish;
use crate::constraints::overload::{Overload, overloaded};
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
    let mut events = Vec::new();
    let mut out = Vec::new();
    profile_into(tasks, d, &mut events, &mut out);
    out
}

/// [`profile`] into `out`, with `events` as scratch (both cleared first).
fn profile_into(
    tasks: &[Task],
    d: &Domains,
    events: &mut Vec<(i128, i128)>,
    out: &mut Vec<(i128, i128, i128)>,
) {
    events.clear();
    out.clear();
    for t in tasks {
        if let Some((a, b)) = t.compulsory(d) {
            events.push((a, t.demand));
            events.push((b, -t.demand));
        }
    }
    if events.is_empty() {
        return;
    }
    events.sort_unstable();
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
}

/// Buffers for [`time_table_filled`], kept from call to call on each thread so that
/// a call allocates nothing once they have grown to the largest resource.
#[derive(Default)]
struct Scratch {
    events: Vec<(i128, i128)>,
    profile: Vec<(i128, i128, i128)>,
    /// The forbidden starts of one task, as disjoint increasing ranges.
    cuts: Vec<(Value, Value)>,
    /// The tasks of [`time_table_filled`].
    tasks: Vec<Task>,
    /// Overload checking's buffers.
    overload: Overload,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The starts of task `t` (within `lo..=hi`) at which it would overload
/// `capacity` on a segment of `profile`, as disjoint increasing ranges merged
/// into `cuts`. A start `s` is forbidden when some segment `[a, b)` that
/// meets `[s, s + duration)`, i.e. `a - duration < s < b`, carries with `t`'s
/// demand more than `capacity`, not counting `t`'s own compulsory part `own`
/// (segments break at every compulsory part's ends: inside it or outside).
fn forbidden_starts(
    profile: &[(i128, i128, i128)],
    t: &Task,
    (lo, hi): (i128, i128),
    own: Option<(i128, i128)>,
    capacity: i128,
    cuts: &mut Vec<(Value, Value)>,
) {
    cuts.clear();
    if t.demand > capacity {
        // Too tall anywhere, even on an empty profile.
        cuts.push((lo as Value, hi as Value));
        return;
    }
    let first = profile.partition_point(|&(_, end, _)| end <= lo);
    for &(a, b, load) in &profile[first..] {
        if a >= hi + t.duration {
            break;
        }
        let mine = own.is_some_and(|(s, e)| s <= a && b <= e);
        let load = if mine { load - t.demand } else { load };
        if load + t.demand <= capacity {
            continue;
        }
        let (from, to) = ((a - t.duration + 1).max(lo), (b - 1).min(hi));
        if from > to {
            continue;
        }
        // Within the start's bounds, so within `Value`.
        let (from, to) = (from as Value, to as Value);
        match cuts.last_mut() {
            Some(last) if from <= last.1.saturating_add(1) => last.1 = last.1.max(to),
            _ => cuts.push((from, to)),
        }
    }
}

/// Removes the ranges `cuts` (disjoint, increasing) from `var`. A domain too
/// large to walk only has its bounds moved, past every range that holds them.
fn remove_cuts(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    cuts: &[(Value, Value)],
) -> Result<bool, Conflict> {
    let mut changed = false;
    if !ctx.domains().too_many_to_walk(var) {
        for &(a, b) in cuts {
            changed |= ctx.remove_range(var, a, b)?;
        }
        return Ok(changed);
    }
    for &(a, b) in cuts {
        let lo = ctx.min(var);
        if a > lo {
            break;
        }
        if b >= lo {
            changed |= ctx.remove_below(var, b.saturating_add(1))?;
            if b == Value::MAX {
                return Ok(changed);
            }
        }
    }
    for &(a, b) in cuts.iter().rev() {
        let hi = ctx.max(var);
        if b < hi {
            break;
        }
        if a <= hi {
            changed |= ctx.remove_above(var, a.saturating_sub(1))?;
            if a == Value::MIN {
                return Ok(changed);
            }
        }
    }
    Ok(changed)
}

/// Time-tabling to a fixpoint on the tasks that `fill` writes (into a
/// buffer kept per thread, so that a call allocates nothing): removes every
/// start at which a task's smallest demand would overload `capacity`
/// somewhere on the compulsory parts of the others. Returns whether a domain
/// changed and the highest load of the compulsory parts at the fixpoint (0
/// when there are none); a conflict when the compulsory parts alone exceed
/// the capacity.
///
/// Each round builds the profile once (sorting the ends of the compulsory
/// parts) and, for each task, walks only the segments its start's bounds
/// reach, removing the forbidden starts as ranges: a task costs the segments
/// near it, not its domain's size times the profile's.
pub(crate) fn time_table_filled(
    fill: impl FnOnce(&Domains, &mut Vec<Task>),
    capacity: i128,
    ctx: &mut PropagationContext<'_>,
) -> Result<(bool, i128), Conflict> {
    time_table_and_demands(fill, None, capacity, ctx)
}

/// [`time_table_filled`], then, with `demands` (the demand variable of each
/// task, in the order `fill` writes the tasks), [`cap_demands`] on the
/// profile of the fixpoint and, at the propagators level, [`overloaded`].
/// Returns whether a domain changed and the highest load.
fn time_table_and_demands(
    fill: impl FnOnce(&Domains, &mut Vec<Task>),
    demands: Option<&[VarId]>,
    capacity: i128,
    ctx: &mut PropagationContext<'_>,
) -> Result<(bool, i128), Conflict> {
    with_scratch(|s| {
        let mut tasks = std::mem::take(&mut s.tasks);
        fill(ctx.domains(), &mut tasks);
        let mut r = time_table_with(&tasks, capacity, ctx, s);
        if let (Ok((changed, _)), Some(demands)) = (&mut r, demands) {
            match cap_demands(&tasks, demands, &s.profile, capacity, ctx) {
                Ok(capped) => *changed |= capped,
                Err(conflict) => r = Err(conflict),
            }
            if r.is_ok()
                && ctx.pruning() == Pruning::Propagators
                && two_open(&tasks, ctx.domains())
                && overloaded(&tasks, ctx.domains(), capacity, &mut s.overload)
            {
                r = Err(Conflict::infeasible());
            }
        }
        s.tasks = tasks;
        r
    })
}

/// Whether at least two tasks that use the resource (positive smallest
/// duration and demand) have an open start. With at most one, time-tabling's
/// fixpoint leaves no overload to find: the fixed tasks are their own
/// compulsory parts, which fit, and the open one keeps a start at which it
/// fits over them, so every window holds a schedule of its tasks.
fn two_open(tasks: &[Task], d: &Domains) -> bool {
    tasks
        .iter()
        .filter(|t| t.duration > 0 && t.demand > 0 && !d.is_fixed(t.start))
        .nth(1)
        .is_some()
}

/// Demand filtering on the profile of time-tabling's fixpoint: a task of
/// positive smallest duration runs over the whole of `[latest start,
/// earliest end)` whatever its start, so its demand cannot exceed the
/// capacity less the others' compulsory load anywhere in that window (less
/// nothing when the window is empty). Lowers each demand's maximum to that
/// bound; returns whether one dropped. (A task whose demand may be 0 is in
/// no compulsory part, so this is what forbids, for instance, a worker's
/// second task at a time it is already busy.)
fn cap_demands(
    tasks: &[Task],
    demands: &[VarId],
    profile: &[(i128, i128, i128)],
    capacity: i128,
    ctx: &mut PropagationContext<'_>,
) -> Result<bool, Conflict> {
    let mut changed = false;
    for (t, &r) in tasks.iter().zip(demands) {
        if t.duration <= 0 || i128::from(ctx.max(r)) <= t.demand {
            continue;
        }
        let d = ctx.domains();
        let (lst, ect) = (
            i128::from(d.max(t.start)),
            i128::from(d.min(t.start)) + t.duration,
        );
        let mut others = 0;
        if lst < ect {
            // Every segment within the window carries the task's own
            // smallest demand when that is positive (its compulsory part is
            // the window); with demand 0 the task is in no segment.
            let first = profile.partition_point(|&(_, end, _)| end <= lst);
            for &(a, _, load) in &profile[first..] {
                if a >= ect {
                    break;
                }
                others = others.max(load - t.demand);
            }
        }
        let most = capacity - others;
        if most < i128::from(ctx.max(r)) {
            // At least the smallest demand, which the profile check let pass.
            let most = Value::try_from(most).unwrap_or(Value::MIN);
            changed |= ctx.remove_above(r, most)?;
        }
    }
    Ok(changed)
}

/// Runs `f` with this thread's [`Scratch`].
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut s) => f(&mut s),
        // A propagator never runs inside another on one thread; should that
        // change, a fresh scratch keeps this correct.
        Err(_) => f(&mut Scratch::default()),
    })
}

fn time_table_with(
    tasks: &[Task],
    capacity: i128,
    ctx: &mut PropagationContext<'_>,
    s: &mut Scratch,
) -> Result<(bool, i128), Conflict> {
    let mut changed = false;
    loop {
        profile_into(tasks, ctx.domains(), &mut s.events, &mut s.profile);
        let top = s
            .profile
            .iter()
            .map(|&(_, _, load)| load)
            .max()
            .unwrap_or(0);
        if top > capacity {
            return Err(Conflict::infeasible());
        }
        let mut again = false;
        for t in tasks {
            if t.duration <= 0 || t.demand <= 0 || ctx.is_fixed(t.start) {
                continue;
            }
            ctx.note_revision();
            if s.profile.is_empty() && t.demand <= capacity {
                continue;
            }
            let d = ctx.domains();
            let bounds = (i128::from(d.min(t.start)), i128::from(d.max(t.start)));
            let own = t.compulsory(d);
            forbidden_starts(&s.profile, t, bounds, own, capacity, &mut s.cuts);
            if !s.cuts.is_empty() {
                again |= remove_cuts(ctx, t.start, &s.cuts)?;
            }
        }
        if !again {
            return Ok((changed, top));
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
/// the capacity's lower bound rises to the highest compulsory load; and
/// (demand filtering) the demand of a task of positive smallest duration
/// drops to at most the largest capacity less the other tasks' highest
/// compulsory load within `[max start, min start + min duration)`, where the
/// task runs whatever its start: with demands `0..=1` on a capacity of 1, a
/// task cannot be given the resource at a time another already holds it.
/// Under [`Pruning::Propagators`] it also fails on an overload (Vilím's
/// overload checking): a set of tasks whose energy (smallest duration times
/// smallest demand, summed) exceeds the largest capacity times the span from
/// their earliest start to their latest end (latest start plus smallest
/// duration). The
/// forbidden starts are found as ranges, one per segment of the load profile
/// near the task, and removed as ranges; a start domain too large to walk only
/// has its bounds moved, past every forbidden range that holds them. At the
/// `propagators` level it wakes on bound changes only and reaches its own
/// fixpoint in one call. `promising` rejects domains whose compulsory parts
/// overload the capacity.
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
///
/// // Demand filtering: a worker (capacity 1) busy over [2, 5) on `a` cannot
/// // also do `b`, which runs over [3, 4) whatever its start.
/// let mut m = Model::new();
/// let (a, b) = (m.int_var(2..=2)?, m.int_var(2..=3)?);
/// let (three, two) = (m.int_var(3..=3)?, m.int_var(2..=2)?);
/// let (on_a, on_b) = (m.int_var(1..=1)?, m.int_var(0..=1)?);
/// let one = m.int_var(1..=1)?;
/// m.cumulative(&[a, b], &[three, two], &[on_a, on_b], one)?;
/// let s = Solver::new(&m, Config::default())?;
/// assert_eq!(s.domains().max(on_b), 0);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cumulative {
    scope: Vec<VarId>,
    n: usize,
    /// No demand variable is also a start, a duration or the capacity.
    demands_apart: bool,
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
        let mut others: Vec<VarId> = starts.iter().chain(durations).copied().collect();
        others.push(capacity);
        others.sort_unstable();
        let demands_apart = demands.iter().all(|r| others.binary_search(r).is_err());
        Ok(Cumulative {
            scope,
            n: starts.len(),
            demands_apart,
        })
    }

    fn capacity(&self) -> VarId {
        self.scope[3 * self.n]
    }

    fn tasks(&self, d: &Domains) -> Vec<Task> {
        let mut tasks = Vec::with_capacity(self.n);
        self.tasks_into(d, &mut tasks);
        tasks
    }

    /// The tasks with their smallest durations and demands, into `out`.
    fn tasks_into(&self, d: &Domains, out: &mut Vec<Task>) {
        out.clear();
        out.extend((0..self.n).map(|i| Task {
            start: self.scope[i],
            duration: i128::from(d.min(self.scope[self.n + i])),
            demand: i128::from(d.min(self.scope[2 * self.n + i])),
        }));
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

    fn events(&self, _: usize) -> Events {
        // The compulsory parts and the forbidden ranges depend on the starts'
        // bounds, the durations' and demands' minima and the capacity's
        // maximum only.
        Events::BOUNDS
    }

    fn idempotent(&self) -> bool {
        // Time-tabling runs to its fixpoint; the demands' new maxima and
        // the capacity's new minimum change nothing that it reads (when a
        // demand is also another argument, `propagate` repeats itself).
        true
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let n = self.n;
        let mut changed = false;
        for &x in &self.scope[n..3 * n] {
            // Usually constants: look before calling.
            if ctx.min(x) < 0 {
                changed |= ctx.remove_below(x, 0)?;
            }
        }
        if n > 0 {
            changed |= ctx.remove_below(self.capacity(), 0)?;
        }
        let demands = &self.scope[2 * n..3 * n];
        let mut top;
        loop {
            let capacity = i128::from(ctx.max(self.capacity()));
            let (filtered, highest) = time_table_and_demands(
                |d, tasks| self.tasks_into(d, tasks),
                Some(demands),
                capacity,
                ctx,
            )?;
            changed |= filtered;
            top = highest;
            // A lower demand maximum changes nothing time-tabling reads,
            // unless a demand variable is also a start, a duration or the
            // capacity.
            if !filtered || self.demands_apart {
                break;
            }
        }
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
    use crate::{Config, Model, Pruning, Solver, Value};

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

    /// Time-tabling as its documentation states it, value by value: a start
    /// `s` of an unfixed task goes when, at some time of `[s, s + duration)`,
    /// the compulsory parts of the other tasks and its demand exceed the
    /// capacity; repeated to a fixpoint. `None` when the compulsory parts
    /// overload the capacity or a domain empties.
    fn reference(
        mut doms: Vec<Vec<Value>>,
        dur: &[Value],
        dem: &[Value],
        cap: Value,
    ) -> Option<Vec<Vec<Value>>> {
        let n = doms.len();
        loop {
            let parts: Vec<Option<(Value, Value)>> = (0..n)
                .map(|i| {
                    let (lo, hi) = (doms[i][0], *doms[i].last().unwrap());
                    (dur[i] > 0 && dem[i] > 0 && hi < lo + dur[i]).then_some((hi, lo + dur[i]))
                })
                .collect();
            let load = |t: Value, skip: usize| -> Value {
                (0..n)
                    .filter(|&j| j != skip && parts[j].is_some_and(|(a, b)| a <= t && t < b))
                    .map(|j| dem[j])
                    .sum()
            };
            if (-20..40).any(|t| load(t, usize::MAX) > cap) {
                return None;
            }
            let mut again = false;
            for i in 0..n {
                if dur[i] <= 0 || dem[i] <= 0 || doms[i].len() == 1 {
                    continue;
                }
                let before = doms[i].len();
                doms[i].retain(|&s| (s..s + dur[i]).all(|t| load(t, i) + dem[i] <= cap));
                if doms[i].is_empty() {
                    return None;
                }
                again |= doms[i].len() < before;
            }
            if !again {
                return Some(doms);
            }
        }
    }

    /// `n` random start domains: from `-3..=4` on, up to `width` values
    /// long, each value kept with probability 3/4 (never empty).
    fn random_starts(next: &mut impl FnMut(u64) -> Value, n: usize, width: u64) -> Vec<Vec<Value>> {
        (0..n)
            .map(|_| {
                let lo = next(8) - 3;
                let mut d: Vec<Value> =
                    (lo..lo + 1 + next(width)).filter(|_| next(4) > 0).collect();
                if d.is_empty() {
                    d.push(lo);
                }
                d
            })
            .collect()
    }

    #[test]
    fn time_tabling_removes_what_the_value_by_value_definition_removes() {
        let mut rng = crate::rng::SplitMix64::new(0x2545_f491_4f6c_dd1d_u64);
        let mut next = |k: u64| rng.below(k) as Value;
        let (mut infeasible, mut pruned) = (0, 0);
        for _ in 0..1000 {
            let n = 2 + next(4) as usize;
            let cap = 1 + next(5);
            let dur: Vec<Value> = (0..n).map(|_| next(5)).collect();
            let dem: Vec<Value> = (0..n).map(|_| next(4)).collect();
            let doms = random_starts(&mut next, n, 10);
            let mut m = Model::new();
            let starts: Vec<_> = doms.iter().map(|d| m.int_var(d.clone()).unwrap()).collect();
            let fixed = |m: &mut Model, v: Value| m.int_var(v..=v).unwrap();
            let durs: Vec<_> = dur.iter().map(|&v| fixed(&mut m, v)).collect();
            let dems: Vec<_> = dem.iter().map(|&v| fixed(&mut m, v)).collect();
            let c = fixed(&mut m, cap);
            m.cumulative(&starts, &durs, &dems, c).unwrap();
            let mut s =
                Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
            match reference(doms.clone(), &dur, &dem, cap) {
                None => {
                    infeasible += 1;
                    assert!(s.first().solution.is_none());
                }
                Some(want) => {
                    let got: Vec<Vec<Value>> = starts
                        .iter()
                        .map(|&x| s.domains().values(x).collect())
                        .collect();
                    assert_eq!(
                        got, want,
                        "durations {dur:?} demands {dem:?} capacity {cap}"
                    );
                    pruned += usize::from(want != doms);
                }
            }
        }
        // The cases exercise both outcomes.
        assert!(infeasible > 50 && pruned > 50, "{infeasible} {pruned}");
    }

    /// Time-tabling on the smallest demands as [`reference`] states it, then
    /// demand filtering as the documentation states it, time by time: the
    /// demand of a task of positive duration is at most the capacity less
    /// the others' compulsory load at any time of `[max start, min start +
    /// duration)`. Returns the starts and the demands' largest values, or
    /// `None` on a conflict.
    fn reference_with_demands(
        doms: Vec<Vec<Value>>,
        dur: &[Value],
        dem: &[(Value, Value)],
        cap: Value,
    ) -> Option<(Vec<Vec<Value>>, Vec<Value>)> {
        let n = doms.len();
        let smallest: Vec<Value> = dem.iter().map(|&(lo, _)| lo).collect();
        let doms = reference(doms, dur, &smallest, cap)?;
        let part = |j: usize| {
            let (lo, hi) = (doms[j][0], *doms[j].last().unwrap());
            (dur[j] > 0 && smallest[j] > 0 && hi < lo + dur[j]).then_some((hi, lo + dur[j]))
        };
        let mut most = Vec::with_capacity(n);
        for i in 0..n {
            let (lo, hi) = (doms[i][0], *doms[i].last().unwrap());
            let mut top = dem[i].1;
            if dur[i] > 0 {
                for t in hi..lo + dur[i] {
                    let others: Value = (0..n)
                        .filter(|&j| j != i && part(j).is_some_and(|(a, b)| a <= t && t < b))
                        .map(|j| smallest[j])
                        .sum();
                    top = top.min(cap - others);
                }
                top = top.min(cap);
            }
            if top < dem[i].0 {
                return None;
            }
            most.push(top);
        }
        Some((doms, most))
    }

    #[test]
    fn demands_drop_as_the_time_by_time_definition_says() {
        let mut rng = crate::rng::SplitMix64::new(0x6a09_e667_f3bc_c908_u64);
        let mut next = |k: u64| rng.below(k) as Value;
        let (mut infeasible, mut capped) = (0, 0);
        for _ in 0..1000 {
            let n = 2 + next(4) as usize;
            let cap = 1 + next(4);
            let dur: Vec<Value> = (0..n).map(|_| next(5)).collect();
            let dem: Vec<(Value, Value)> = (0..n)
                .map(|_| {
                    let lo = next(3);
                    (lo, lo + next(3))
                })
                .collect();
            let doms = random_starts(&mut next, n, 6);
            let mut m = Model::new();
            let starts: Vec<_> = doms.iter().map(|d| m.int_var(d.clone()).unwrap()).collect();
            let durs: Vec<_> = dur.iter().map(|&v| m.int_var(v..=v).unwrap()).collect();
            let dems: Vec<_> = dem
                .iter()
                .map(|&(a, b)| m.int_var(a..=b).unwrap())
                .collect();
            let c = m.int_var(cap..=cap).unwrap();
            m.cumulative(&starts, &durs, &dems, c).unwrap();
            let mut s =
                Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
            match reference_with_demands(doms.clone(), &dur, &dem, cap) {
                None => {
                    infeasible += 1;
                    assert!(s.first().solution.is_none());
                }
                Some((want, most)) => {
                    let got: Vec<Vec<Value>> = starts
                        .iter()
                        .map(|&x| s.domains().values(x).collect())
                        .collect();
                    let got_most: Vec<Value> = dems.iter().map(|&r| s.domains().max(r)).collect();
                    let case = format!("durations {dur:?} demands {dem:?} capacity {cap}");
                    assert_eq!(got, want, "{case}");
                    assert_eq!(got_most, most, "{case}");
                    capped += usize::from(most.iter().zip(&dem).any(|(&m, &(_, hi))| m < hi));
                }
            }
        }
        // The cases exercise both outcomes.
        assert!(infeasible > 50 && capped > 50, "{infeasible} {capped}");
    }

    /// Three unit-demand tasks of length 2 within `[0, 5)` on a capacity of
    /// 1: no compulsory part, so time-tabling alone lets them be, but their
    /// energy 6 exceeds 5. The propagators level fails at the root (no value
    /// tried); forward checking, which has no overload checking, tries.
    #[test]
    fn an_overload_fails_at_the_root_under_propagators_only() {
        let mut m = Model::new();
        let starts = m.int_var_array("s", 3, 0..=3).unwrap();
        let (two, one) = (m.int_var(2..=2).unwrap(), m.int_var(1..=1).unwrap());
        m.cumulative(&starts, &[two; 3], &[one; 3], one).unwrap();
        let run = |pruning| {
            let r = Solver::new(&m, Config::textbook().with_pruning(pruning))
                .unwrap()
                .count();
            assert!(r.is_complete());
            (r.solutions, r.stats.tried)
        };
        assert_eq!(run(Pruning::Propagators), (0, 0));
        let (solutions, tried) = run(Pruning::ForwardChecking);
        assert_eq!(solutions, 0);
        assert!(tried > 0);
    }

    #[test]
    fn a_wide_start_moves_its_bounds_past_forbidden_ranges_only() {
        let mut m = Model::new();
        let wide = m.int_var(0..=1_000_000_000_000).unwrap();
        let (a, b, c) = (
            m.int_var(0..=0).unwrap(),
            m.int_var(4..=4).unwrap(),
            m.int_var(100..=100).unwrap(),
        );
        let (three, four, one) = (
            m.int_var(3..=3).unwrap(),
            m.int_var(4..=4).unwrap(),
            m.int_var(1..=1).unwrap(),
        );
        // a runs in [0, 4), b in [4, 8), c in [100, 104): a task of length 3
        // cannot start before 8 nor in 98..=103, which stays a range of
        // values inside the bounds.
        m.cumulative(&[wide, a, b, c], &[three, four, four, four], &[one; 4], one)
            .unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        assert_eq!(s.domains().min(wide), 8);
        assert_eq!(s.domains().max(wide), 1_000_000_000_000);
        assert!(s.domains().contains(wide, 100));
    }

    #[test]
    fn mismatched_lengths_are_refused() {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 2, 0..=2).unwrap();
        assert!(m.cumulative(&xs, &xs[..1], &xs, xs[0]).is_err());
    }
}
