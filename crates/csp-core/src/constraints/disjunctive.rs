//! Disjunctive resource: tasks that may not overlap (a machine doing one job at a
//! time).

use smallvec::SmallVec;

use crate::Pruning;
use crate::constraint::{Conflict, Events, PropCost, Propagation};
use crate::constraints::cumulative::{Task, profile, time_table_filled};
use crate::constraints::edge_finding::{edge_find, not_first_not_last};
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
/// it goes after (or before) all of them; and not-first/not-last: a task that
/// cannot come after (before) all of a set of others ends before the latest
/// of their latest starts (starts after the earliest of their earliest ends).
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
        let mut tasks = Vec::with_capacity(self.n);
        self.tasks_into(d, &mut tasks);
        tasks
    }

    /// The tasks with their smallest durations and demand 1, into `out`.
    fn tasks_into(&self, d: &Domains, out: &mut Vec<Task>) {
        out.clear();
        out.extend((0..self.n).map(|i| {
            let (start, _, _, duration) = self.bounds(d, i);
            Task {
                start,
                duration,
                demand: 1,
            }
        }));
    }
}

/// `v` within `Value`'s range.
pub(super) fn clamp(v: i128) -> Value {
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
            let mut again = self.order_pairs(ctx)?;
            again |= time_table_filled(|d, tasks| self.tasks_into(d, tasks), 1, ctx)?.0;
            if ctx.pruning() == Pruning::Propagators {
                again |= self.edge_finding(ctx)?;
                let mut tasks = SmallVec::new();
                self.fixed_tasks(ctx, &mut tasks);
                again |= not_first_not_last(&tasks, ctx)?;
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
    /// Detected precedences, pair by pair in the order `(0, 1), (0, 2), ...,
    /// (1, 2), ...`: if one order of tasks `i` and `j` is impossible on the
    /// current bounds, the other is enforced on the bounds. The bounds are
    /// read once into a table, and read again after each change (a start may
    /// be shared by two tasks), so each pair sees the domains as they are.
    fn order_pairs(&self, ctx: &mut PropagationContext<'_>) -> Result<bool, Conflict> {
        let n = self.n;
        let mut table: SmallVec<[(VarId, i128, i128, i128); 32]> = SmallVec::new();
        let read = |d: &Domains, table: &mut SmallVec<[(VarId, i128, i128, i128); 32]>| {
            table.clear();
            table.extend((0..n).map(|i| self.bounds(d, i)));
        };
        read(ctx.domains(), &mut table);
        let mut changed = false;
        for i in 0..n {
            for j in i + 1..n {
                let (_, est_i, lst_i, d_i) = table[i];
                let (_, est_j, lst_j, d_j) = table[j];
                if d_i <= 0 || d_j <= 0 {
                    continue;
                }
                ctx.note_revision();
                let i_first = est_i + d_i <= lst_j;
                let j_first = est_j + d_j <= lst_i;
                // `first` before `second`: the second starts after the first
                // ends, the first ends before the second's latest start (each
                // call only where it moves a bound).
                let mut order = |(s1, est1, lst1, d1): (VarId, i128, i128, i128),
                                 (s2, est2, lst2, _): (VarId, i128, i128, i128)|
                 -> Result<bool, Conflict> {
                    let mut moved = false;
                    if est1 + d1 > est2 {
                        moved |= ctx.remove_below(s2, clamp(est1 + d1))?;
                    }
                    if lst2 - d1 < lst1 {
                        moved |= ctx.remove_above(s1, clamp(lst2 - d1))?;
                    }
                    Ok(moved)
                };
                let moved = match (i_first, j_first) {
                    (false, false) => return Err(Conflict::infeasible()),
                    (true, false) => order(table[i], table[j])?,
                    (false, true) => order(table[j], table[i])?,
                    (true, true) => false,
                };
                if moved {
                    changed = true;
                    read(ctx.domains(), &mut table);
                }
            }
        }
        Ok(changed)
    }
}

impl Disjunctive {
    /// Edge finding on task intervals, for tasks of fixed positive duration:
    /// for every window `[a, b]` from an earliest start to a latest end, the
    /// tasks `Ω` inside it must fit (`a + p(Ω) <= b`), and a task `i` outside
    /// that cannot fit in the window together with them goes after all of them
    /// (`s_i >= a + p(Ω)`) or, symmetrically, before (`s_i + p_i <= b - p(Ω)`).
    fn edge_finding(&self, ctx: &mut PropagationContext<'_>) -> Result<bool, Conflict> {
        let mut tasks = SmallVec::new();
        self.fixed_tasks(ctx, &mut tasks);
        edge_find(&tasks, ctx)
    }

    /// (start, est, lct, p) of the tasks with a fixed positive duration.
    /// (Filled in place: a `SmallVec` returned by value is copied whole.)
    fn fixed_tasks(
        &self,
        ctx: &PropagationContext<'_>,
        tasks: &mut SmallVec<[(VarId, i128, i128, i128); 32]>,
    ) {
        let n = self.n;
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
    }
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
    use crate::{Config, Model, Pruning, Solver, Value};

    /// The filtering as the documentation states it, on start sets and fixed
    /// positive durations, written plainly: detected precedences pair by pair,
    /// time-tabling to its fixpoint, then edge finding on the windows of the
    /// bounds at the start of its pass, then not-first/not-last over every
    /// set of other tasks on the bounds at the start of that pass; all
    /// repeated until nothing changes.
    /// `None` on a conflict.
    fn reference(mut doms: Vec<Vec<Value>>, p: &[Value]) -> Option<Vec<Vec<Value>>> {
        let n = doms.len();
        let lo = |d: &Vec<Value>| d[0];
        let hi = |d: &Vec<Value>| *d.last().unwrap();
        loop {
            let before = doms.clone();
            for i in 0..n {
                for j in i + 1..n {
                    let i_first = lo(&doms[i]) + p[i] <= hi(&doms[j]);
                    let j_first = lo(&doms[j]) + p[j] <= hi(&doms[i]);
                    let (a, b) = match (i_first, j_first) {
                        (false, false) => return None,
                        (true, false) => (i, j),
                        (false, true) => (j, i),
                        (true, true) => continue,
                    };
                    // `a` before `b`.
                    let (ea, lb) = (lo(&doms[a]) + p[a], hi(&doms[b]) - p[a]);
                    doms[b].retain(|&s| s >= ea);
                    doms[a].retain(|&s| s <= lb);
                    if doms[a].is_empty() || doms[b].is_empty() {
                        return None;
                    }
                }
            }
            loop {
                let parts: Vec<Option<(Value, Value)>> = (0..n)
                    .map(|i| {
                        (hi(&doms[i]) < lo(&doms[i]) + p[i])
                            .then(|| (hi(&doms[i]), lo(&doms[i]) + p[i]))
                    })
                    .collect();
                let load = |t: Value, skip: usize| {
                    (0..n)
                        .filter(|&j| j != skip && parts[j].is_some_and(|(a, b)| a <= t && t < b))
                        .count()
                };
                if (-20..60).any(|t| load(t, usize::MAX) > 1) {
                    return None;
                }
                let mut again = false;
                for i in 0..n {
                    if doms[i].len() == 1 {
                        continue;
                    }
                    let k = doms[i].len();
                    doms[i].retain(|&s| (s..s + p[i]).all(|t| load(t, i) == 0));
                    if doms[i].is_empty() {
                        return None;
                    }
                    again |= doms[i].len() < k;
                }
                if !again {
                    break;
                }
            }
            let snap: Vec<(Value, Value)> = doms.iter().map(|d| (lo(d), hi(d))).collect();
            for wa in 0..n {
                for wb in 0..n {
                    let (a, b) = (snap[wa].0, snap[wb].1 + p[wb]);
                    if a >= b {
                        continue;
                    }
                    let inside = |t: usize| snap[t].0 >= a && snap[t].1 + p[t] <= b;
                    let work: Value = (0..n).filter(|&t| inside(t)).map(|t| p[t]).sum();
                    if work == 0 {
                        continue;
                    }
                    if a + work > b {
                        return None;
                    }
                    for t in (0..n).filter(|&t| !inside(t)) {
                        let (est, lct) = (snap[t].0, snap[t].1 + p[t]);
                        if est.min(a) + work + p[t] > b {
                            doms[t].retain(|&s| s >= a + work);
                        }
                        if lct.max(b) - work - p[t] < a {
                            doms[t].retain(|&s| s <= b - work - p[t]);
                        }
                        if doms[t].is_empty() {
                            return None;
                        }
                    }
                }
            }
            // Not-first/not-last over every set of other tasks.
            let snap: Vec<(Value, Value)> = doms.iter().map(|d| (lo(d), hi(d))).collect();
            for i in 0..n {
                let others: Vec<usize> = (0..n).filter(|&j| j != i).collect();
                for mask in 1u32..1 << others.len() {
                    let set: Vec<usize> = (0..others.len())
                        .filter(|&b| mask >> b & 1 == 1)
                        .map(|b| others[b])
                        .collect();
                    let work: Value = set.iter().map(|&j| p[j]).sum();
                    let est = set.iter().map(|&j| snap[j].0).min().unwrap();
                    let lct = set.iter().map(|&j| snap[j].1 + p[j]).max().unwrap();
                    if est + work > snap[i].1 {
                        // `i` is not last: it ends before one of them starts.
                        let latest = set.iter().map(|&j| snap[j].1).max().unwrap();
                        doms[i].retain(|&s| s + p[i] <= latest);
                    }
                    if lct - work < snap[i].0 + p[i] {
                        // `i` is not first: it starts after one of them ends.
                        let earliest = set.iter().map(|&j| snap[j].0 + p[j]).min().unwrap();
                        doms[i].retain(|&s| s >= earliest);
                    }
                    if doms[i].is_empty() {
                        return None;
                    }
                }
            }
            if doms == before {
                return Some(doms);
            }
        }
    }

    /// Both scheduling constraints count exactly at the ends of `i64`, where
    /// a start plus a duration leaves the range: `disjunctive`, `cumulative`
    /// of capacity 2 with unit demands, and `cumulative` of capacity 1 with
    /// 0/1 demand variables (counted over the starts and the demands).
    #[test]
    fn counts_at_the_i64_edges_match_brute_force() {
        let p: [Value; 3] = [1, 2, 3];
        for (lo, hi) in [(Value::MAX - 6, Value::MAX), (Value::MIN, Value::MIN + 6)] {
            let placements = || {
                (lo..=hi).flat_map(move |a| {
                    (lo..=hi).flat_map(move |b| (lo..=hi).map(move |c| [a, b, c]))
                })
            };
            // At most `cap` in use at every time a task starts, task `k`
            // using 1 if bit `k` of `demands` is set.
            let fits = |s: [Value; 3], demands: usize, cap: usize| {
                s.iter().all(|&t| {
                    let t = i128::from(t);
                    let load: usize = (0..3)
                        .filter(|&k| {
                            i128::from(s[k]) <= t && t < i128::from(s[k]) + i128::from(p[k])
                        })
                        .map(|k| demands >> k & 1)
                        .sum();
                    load <= cap
                })
            };
            // (capacity, whether the demands are 0/1 variables)
            for (cap, open) in [(1, false), (2, false), (1, true)] {
                let masks = if open { 0..8 } else { 7..8 };
                let want = placements()
                    .map(|s| masks.clone().filter(|&d| fits(s, d, cap)).count() as u64)
                    .sum::<u64>();
                assert!(want > 0);
                let what = format!("capacity {cap}, open demands {open}, from {lo}");
                assert_count_at_every_level(want, &what, |m| {
                    let starts = m.int_var_array("s", 3, lo..=hi).unwrap();
                    let durs: Vec<_> = p.iter().map(|&v| m.int_var(v..=v).unwrap()).collect();
                    if cap == 1 && !open {
                        m.disjunctive(&starts, &durs).unwrap();
                    } else {
                        let demands = if open {
                            m.int_var_array("r", 3, 0..=1).unwrap()
                        } else {
                            vec![m.int_var(1..=1).unwrap(); 3]
                        };
                        let c = m.int_var(cap as Value..=cap as Value).unwrap();
                        m.cumulative(&starts, &durs, &demands, c).unwrap();
                    }
                });
            }
        }
    }

    /// Tasks near both ends of `i64` on one machine: the span of the call
    /// exceeds 2^60, so edge finding and not-first/not-last take their
    /// `i128` path, while the three tasks near the top are tight enough for
    /// them to prune. Counted against brute force at every level.
    #[test]
    fn tasks_at_both_ends_of_i64_count_as_brute_force_does() {
        let (top, bottom) = (Value::MAX - 7..=Value::MAX, Value::MIN..=Value::MIN + 3);
        let p: [Value; 5] = [2, 3, 2, 3, 1];
        let doms: [Vec<Value>; 5] = [
            top.clone().collect(),
            top.clone().collect(),
            top.collect(),
            bottom.clone().collect(),
            bottom.collect(),
        ];
        let fits = |s: [Value; 5]| {
            let apart = |i: usize, j: usize| {
                let (a, b) = (i128::from(s[i]), i128::from(s[j]));
                a + i128::from(p[i]) <= b || b + i128::from(p[j]) <= a
            };
            (0..5).all(|i| (i + 1..5).all(|j| apart(i, j)))
        };
        let mut want = 0u64;
        for &a in &doms[0] {
            for &b in &doms[1] {
                for &c in &doms[2] {
                    for &d in &doms[3] {
                        for &e in &doms[4] {
                            want += u64::from(fits([a, b, c, d, e]));
                        }
                    }
                }
            }
        }
        assert!(want > 0);
        assert_count_at_every_level(want, "tasks at both ends", |m| {
            let starts: Vec<_> = doms.iter().map(|d| m.int_var(d.clone()).unwrap()).collect();
            let durs: Vec<_> = p.iter().map(|&v| m.int_var(v..=v).unwrap()).collect();
            m.disjunctive(&starts, &durs).unwrap();
        });
    }

    /// The model `build` posts counts exactly `want` solutions, completely,
    /// at `check`, `fc` and `propagators`.
    fn assert_count_at_every_level(want: u64, what: &str, build: impl Fn(&mut Model)) {
        for pruning in [
            Pruning::Check,
            Pruning::ForwardChecking,
            Pruning::Propagators,
        ] {
            let mut m = Model::new();
            build(&mut m);
            let got = Solver::new(&m, Config::textbook().with_pruning(pruning))
                .unwrap()
                .count();
            assert!(got.is_complete());
            assert_eq!(got.solutions, want, "{what} at {pruning:?}");
        }
    }

    #[test]
    fn propagation_matches_the_documented_rules() {
        let mut rng = crate::rng::SplitMix64::new(0x9e37_79b9_7f4a_7c15_u64);
        let mut next = |k: u64| rng.below(k) as Value;
        let (mut failed, mut pruned) = (0, 0);
        // The last 300 cases have 6 to 8 tasks over wider windows: more
        // windows that hold the same tasks, and prefixes of several tasks.
        for round in 0..900 {
            let wide = round >= 600;
            let n = if wide { 6 + next(3) } else { 2 + next(4) } as usize;
            let p: Vec<Value> = (0..n).map(|_| 1 + next(4)).collect();
            let doms: Vec<Vec<Value>> = (0..n)
                .map(|_| {
                    let lo = if wide { next(16) } else { next(10) };
                    let len = if wide { 1 + next(20) } else { 1 + next(12) };
                    let d: Vec<Value> = (lo..lo + len).filter(|_| next(5) > 0).collect();
                    if d.is_empty() { vec![lo] } else { d }
                })
                .collect();
            let mut m = Model::new();
            let starts: Vec<_> = doms.iter().map(|d| m.int_var(d.clone()).unwrap()).collect();
            let durs: Vec<_> = p.iter().map(|&v| m.int_var(v..=v).unwrap()).collect();
            m.disjunctive(&starts, &durs).unwrap();
            let mut s =
                Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
            match reference(doms.clone(), &p) {
                None => {
                    failed += 1;
                    assert!(s.first().solution.is_none());
                }
                Some(want) => {
                    let got: Vec<Vec<Value>> = starts
                        .iter()
                        .map(|&x| s.domains().values(x).collect())
                        .collect();
                    assert_eq!(got, want, "durations {p:?} from {doms:?}");
                    pruned += usize::from(want != doms);
                }
            }
        }
        assert!(failed > 80 && pruned > 80, "{failed} {pruned}");
    }

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
