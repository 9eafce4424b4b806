//! Nogood recording from restarts ([`Config::with_nogoods`](crate::Config::with_nogoods)):
//! the reduced nld-nogoods of each run's last branch (Lecoutre, Sais,
//! Tabary and Vidal 2007), kept in a bounded store and propagated with two
//! watched literals.
//!
//! A *literal* is `x = v`, `x <= v` or `x >= v` on a variable (never a
//! view). A *nogood* is a set of literals that may not all hold at once in
//! the rest of the search. When a run ends, its branch is read from the
//! root down: each decision that holds on the branch (`x = v`, a split's
//! half) is a *positive* decision, and each value or branch already fully
//! explored below the same positive decisions is a *negative* one. For
//! every negative decision, the positive decisions above it plus the
//! decision it refutes form a nogood (the *reduced* nld-nogood: the
//! negative decisions above are left out, which keeps it valid). The
//! failure that ended the run gives one more: the positive decisions above
//! it plus the failed decision.
//!
//! Propagation (after the constraints reach their fixpoint, at the
//! arc-consistency and propagators levels): each nogood watches two
//! literals that are not entailed. When a watched literal becomes entailed
//! the nogood looks for another one to watch; if there is none, the other
//! watched literal is made false (its value removed, or the bound moved),
//! or, if it is entailed too, the node fails. Watches are not restored on
//! backtracking: a literal that is not entailed stays not entailed when the
//! search goes back. A removal by a nogood is justified by literals that
//! hold at that moment, so whatever the watches, every removal is sound.

use super::Solver;
use super::lookback::LookBack;
use crate::branching::Sweep;
use crate::context::{EV_BOUNDS, EV_FIXED, EV_MAX, EV_MIN, PropagationContext};
use crate::observer::{Choice, Failure, FailureKind, Node};
use crate::{Domains, SearchObserver, SearchStats, Value, ValueSelector, VarId, VariableSelector};

/// The relation of a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rel {
    /// `x = v`.
    Eq,
    /// `x <= v`.
    Le,
    /// `x >= v`.
    Ge,
}

/// `var rel value`, on a variable (not a view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Lit {
    pub(super) var: u32,
    pub(super) rel: Rel,
    pub(super) value: Value,
}

impl Lit {
    fn x(self) -> VarId {
        VarId::new(self.var as usize)
    }

    /// `Some(true)` if the domains entail the literal, `Some(false)` if they
    /// exclude it, `None` if neither.
    #[inline]
    pub(super) fn truth(self, d: &Domains) -> Option<bool> {
        let (x, v) = (self.x(), self.value);
        match self.rel {
            Rel::Eq if !d.contains(x, v) => Some(false),
            Rel::Eq => d.is_fixed(x).then_some(true),
            Rel::Le if d.max(x) <= v => Some(true),
            Rel::Le => (d.min(x) > v).then_some(false),
            Rel::Ge if d.min(x) >= v => Some(true),
            Rel::Ge => (d.max(x) < v).then_some(false),
        }
    }

    #[inline]
    fn holds(self, d: &Domains) -> bool {
        self.truth(d) == Some(true)
    }

    /// Makes the literal false; `false` if that empties the domain (or, for
    /// `x <= Value::MAX` and `x >= Value::MIN`, cannot be done).
    fn falsify(self, ctx: &mut PropagationContext<'_>) -> bool {
        let x = self.x();
        match self.rel {
            Rel::Eq => ctx.remove(x, self.value).is_ok(),
            Rel::Le => self
                .value
                .checked_add(1)
                .is_some_and(|b| ctx.remove_below(x, b).is_ok()),
            Rel::Ge => self
                .value
                .checked_sub(1)
                .is_some_and(|b| ctx.remove_above(x, b).is_ok()),
        }
    }
}

/// An entry of a variable's watch list: a nogood, the position (0 or 1)
/// of its watched literal, and a copy of that literal (read without
/// loading the nogood).
#[derive(Clone, Copy, Debug)]
struct Watched {
    id: u32,
    pos: u8,
    lit: Lit,
}

/// The nogood store: the nogoods, oldest first, and their watches.
#[derive(Clone, Debug)]
pub(super) struct Nogoods {
    /// The most nogoods kept at once.
    limit: usize,
    /// Every nogood by id; a deleted one has no literals. Positions 0 and 1
    /// are the watched literals.
    lits: Vec<Vec<Lit>>,
    /// Nogoods not deleted.
    live: usize,
    /// The id of the oldest nogood that may not be deleted yet.
    oldest: usize,
    /// Per variable: the nogoods watching a literal on it.
    watches: Vec<Vec<Watched>>,
    /// Variables changed since the store last looked, with watches on them.
    pending: Vec<u32>,
    in_pending: Vec<bool>,
    /// The nogoods of the run that just ended, added at the root.
    fresh: Vec<Vec<Lit>>,
}

impl Nogoods {
    /// A store of at most `limit` nogoods over `vars` variables.
    pub(super) fn new(vars: usize, limit: usize) -> Self {
        Nogoods {
            limit,
            lits: Vec::new(),
            live: 0,
            oldest: 0,
            watches: vec![Vec::new(); vars],
            pending: Vec::new(),
            in_pending: vec![false; vars],
            fresh: Vec::new(),
        }
    }

    /// `var`'s domain changed with `events` (bits of
    /// [`Events`](crate::Events)): the nogoods watching it must look. A
    /// removal inside the domain entails no literal: only a fixed
    /// variable or a moved bound can.
    #[inline]
    pub(super) fn touch(&mut self, var: usize, events: u8) {
        if events & (EV_FIXED | EV_BOUNDS | EV_MIN | EV_MAX) != 0
            && let Some(w) = self.watches.get(var)
            && !w.is_empty()
            && !self.in_pending[var]
        {
            self.in_pending[var] = true;
            self.pending.push(var as u32);
        }
    }

    /// Whether a changed variable is waiting.
    #[inline]
    pub(super) fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Forgets the changed variables (after a conflict, or at a limit).
    pub(super) fn clear_pending(&mut self) {
        for v in self.pending.drain(..) {
            self.in_pending[v as usize] = false;
        }
    }

    /// The number of nogoods kept.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.live
    }

    /// Adds a nogood (its literals ordered, watches set); the statistics
    /// count it.
    fn push(&mut self, lits: Vec<Lit>, stats: &mut SearchStats) {
        let id = self.lits.len() as u32;
        for (pos, &lit) in lits.iter().take(2).enumerate() {
            self.watches[lit.var as usize].push(Watched {
                id,
                pos: pos as u8,
                lit,
            });
        }
        self.lits.push(lits);
        self.live += 1;
        stats.nogoods_learnt += 1;
    }

    /// Deletes the oldest nogoods until at most `limit` are left, and
    /// compacts the store when most of it is deleted.
    fn enforce_limit(&mut self, stats: &mut SearchStats) {
        while self.live > self.limit && self.oldest < self.lits.len() {
            let lits = &mut self.lits[self.oldest];
            if !lits.is_empty() {
                *lits = Vec::new();
                self.live -= 1;
                stats.nogoods_deleted += 1;
            }
            self.oldest += 1;
        }
        let dead = self.lits.len() - self.live;
        if dead > self.live + 1024 {
            let lits: Vec<Vec<Lit>> = std::mem::take(&mut self.lits)
                .into_iter()
                .filter(|l| !l.is_empty())
                .collect();
            for w in &mut self.watches {
                w.clear();
            }
            for (id, l) in lits.iter().enumerate() {
                for (pos, &lit) in l.iter().take(2).enumerate() {
                    self.watches[lit.var as usize].push(Watched {
                        id: id as u32,
                        pos: pos as u8,
                        lit,
                    });
                }
            }
            self.lits = lits;
            self.oldest = 0;
        }
    }
}

/// A nogood's failure: no constraint and no variable to blame (look-back
/// then goes back chronologically, which is always sound).
fn nogood_failure() -> Failure {
    Failure {
        kind: FailureKind::Conflict,
        constraint: None,
        var: None,
    }
}

impl<'m, O: SearchObserver, V: VariableSelector, L: ValueSelector> Solver<'m, O, V, L> {
    /// A domain changed by a decision (not through the propagation context).
    #[inline]
    pub(super) fn touch_nogoods(&mut self, var: VarId) {
        if let Some(ng) = self.nogoods.as_deref_mut() {
            ng.touch(var.index(), EV_FIXED);
        }
    }

    /// Whether the nogood store has changed variables to look at.
    #[inline]
    pub(super) fn nogoods_pending(&self) -> bool {
        self.nogoods.as_deref().is_some_and(Nogoods::has_pending)
    }

    /// The nogoods watching the changed variables: moves their watches,
    /// removes the values they forbid, fails if one has every literal
    /// entailed. The removals are listed in `changes` like a constraint's.
    pub(super) fn propagate_nogoods(&mut self, node: Option<&Node>) -> Result<(), Failure> {
        let Some(ng) = self.nogoods.as_deref_mut() else {
            return Ok(());
        };
        let mut failed = false;
        while let Some(x) = ng.pending.pop() {
            let x = x as usize;
            ng.in_pending[x] = false;
            let mut list = std::mem::take(&mut ng.watches[x]);
            let (mut i, mut kept) = (0, 0);
            while i < list.len() {
                let entry = list[i];
                i += 1;
                if !entry.lit.holds(&self.domains) {
                    list[kept] = entry;
                    kept += 1;
                    continue;
                }
                let (id, p) = (entry.id, entry.pos as usize);
                let lits = &mut ng.lits[id as usize];
                // A deleted nogood: its entry goes.
                if lits.is_empty() {
                    continue;
                }
                // The watched literal holds: another one not entailed?
                let domains = &self.domains;
                if let Some(k) = (2..lits.len()).find(|&k| !lits[k].holds(domains)) {
                    lits.swap(p, k);
                    // (to `x`'s own, emptied list if the literal is on `x`:
                    // merged below.)
                    let lit = lits[p];
                    ng.watches[lit.var as usize].push(Watched {
                        id,
                        pos: entry.pos,
                        lit,
                    });
                    continue;
                }
                list[kept] = entry;
                kept += 1;
                let other = match lits.len() {
                    1 => None,
                    _ => Some(lits[1 - p]),
                };
                let Some(other) = other else {
                    self.stats.nogoods_used += 1;
                    failed = true;
                    break;
                };
                match other.truth(&self.domains) {
                    Some(false) => {}
                    Some(true) => {
                        self.stats.nogoods_used += 1;
                        failed = true;
                        break;
                    }
                    None => {
                        self.stats.nogoods_used += 1;
                        let mut ctx = PropagationContext::new(
                            &mut self.domains,
                            &mut self.state,
                            &mut self.changes,
                            self.pruning,
                            None,
                            usize::MAX,
                        );
                        if !other.falsify(&mut ctx) {
                            failed = true;
                            break;
                        }
                        if self.changes.record {
                            Self::report_prunes(
                                &mut self.observer,
                                &mut self.changes,
                                node,
                                None,
                                self.pruning,
                            );
                        }
                        if let Some(lb) = self.lookback.as_deref_mut() {
                            // The removal's levels: those behind the
                            // nogood's other literals.
                            let others = lits.iter().filter(|l| **l != other).map(|l| l.var);
                            LookBack::explain_by(lb, &self.domains, others, other.var as usize);
                        }
                    }
                }
            }
            // The entries not looked at (after a failure) stay.
            list.copy_within(i.., kept);
            kept += list.len() - i;
            list.truncate(kept);
            list.append(&mut ng.watches[x]);
            ng.watches[x] = list;
            if failed {
                break;
            }
        }
        if failed {
            ng.clear_pending();
            return Err(nogood_failure());
        }
        Ok(())
    }

    /// The run ends: records the nogoods of its branch (the frames are
    /// still open; the top one's open branch just failed).
    pub(super) fn record_nogoods(&mut self) {
        let Some(ng) = self.nogoods.as_deref_mut() else {
            return;
        };
        let mut prefix: Vec<Lit> = Vec::new();
        let top = self.frames.len();
        let with = |prefix: &[Lit], lit: Option<Lit>| {
            let mut n = Vec::with_capacity(prefix.len() + 1);
            n.extend_from_slice(prefix);
            n.extend(lit);
            n
        };
        for (i, f) in self.frames.iter().enumerate() {
            let Some(node) = f.open else {
                // Every frame below the top has an open branch; should one
                // not, the branch above it is not a path: stop.
                break;
            };
            let failed = i + 1 == top;
            let var = node.var.index() as u32;
            let lit = |rel, value| Lit { var, rel, value };
            // The frame's (first) decision.
            let decision = match node.choice {
                Choice::Equal => lit(Rel::Eq, node.value),
                Choice::LessEqual => lit(Rel::Le, node.value),
                Choice::GreaterEqual => lit(Rel::Ge, node.value),
            };
            if f.binary && f.refuted {
                // Its first branch was explored: a negative decision. If
                // the refutation failed too, the positive decisions above
                // are a nogood on their own.
                let n = with(&prefix, (!failed).then_some(decision));
                ng.fresh.push(n);
                continue;
            }
            if !f.binary {
                // The values of the frame tried before the open one.
                match f.sweep {
                    None => {
                        for &u in &self.values[f.start..f.next.saturating_sub(1).max(f.start)] {
                            ng.fresh.push(with(&prefix, Some(lit(Rel::Eq, u))));
                        }
                    }
                    // Every value below (above) the open one was tried.
                    Some(Sweep::Up) if f.next - f.start > 1 => {
                        if let Some(b) = node.value.checked_sub(1) {
                            ng.fresh.push(with(&prefix, Some(lit(Rel::Le, b))));
                        }
                    }
                    Some(Sweep::Down) if f.next - f.start > 1 => {
                        if let Some(b) = node.value.checked_add(1) {
                            ng.fresh.push(with(&prefix, Some(lit(Rel::Ge, b))));
                        }
                    }
                    // Middle-out: the values tried are not an interval
                    // (not recorded).
                    _ => {}
                }
            }
            if failed {
                ng.fresh.push(with(&prefix, Some(decision)));
            } else {
                prefix.push(decision);
            }
        }
    }

    /// At the root after a restart: adds the nogoods of the run that ended,
    /// applies those that are unit at the root, deletes the oldest beyond
    /// the bound, and propagates. `false` if the root fails (no solution is
    /// left).
    pub(super) fn add_fresh_nogoods(&mut self) -> bool {
        let Some(ng) = self.nogoods.as_deref_mut() else {
            return true;
        };
        let fresh = std::mem::take(&mut ng.fresh);
        let pruned = self.changes.pruned;
        let mut ok = true;
        for mut lits in fresh {
            // Excluded literals first (the nogood holds), then the open
            // ones, the entailed last: the first two are watched.
            let domains = &self.domains;
            lits.sort_by_key(|l| match l.truth(domains) {
                Some(false) => 0,
                None => 1,
                Some(true) => 2,
            });
            let first = lits.first().map(|l| l.truth(&self.domains));
            let second = lits.get(1).map(|l| l.truth(&self.domains));
            match (first, second) {
                // Empty, or every literal entailed at the root.
                (None, _) | (Some(Some(true)), _) => ok = false,
                // Unit at the root: its open literal goes.
                (Some(None), None | Some(Some(true))) => {
                    self.stats.nogoods_used += 1;
                    let mut ctx = PropagationContext::new(
                        &mut self.domains,
                        &mut self.state,
                        &mut self.changes,
                        self.pruning,
                        None,
                        usize::MAX,
                    );
                    ok &= lits[0].falsify(&mut ctx);
                }
                _ => {}
            }
            ng.push(lits, &mut self.stats);
            if !ok {
                break;
            }
        }
        ng.enforce_limit(&mut self.stats);
        if !ok {
            return false;
        }
        if self.changes.record {
            Self::report_prunes(
                &mut self.observer,
                &mut self.changes,
                None,
                None,
                self.pruning,
            );
        }
        if self.prune_objective(None).is_err() {
            return false;
        }
        self.schedule_changed(None);
        if self.run_queue(None).is_err() {
            return false;
        }
        if self.changes.pruned != pruned && self.snapshot.is_some() {
            // The root is stronger: recomputations start from it.
            self.take_snapshot();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Pruning, Restarts, VarOrder};

    fn lit(var: u32, rel: Rel, value: Value) -> Lit {
        Lit { var, rel, value }
    }

    #[test]
    fn literals_read_the_domains() {
        let mut m = crate::Model::new();
        let x = m.int_var(0..=5).unwrap();
        let s = Solver::new(&m, Config::textbook()).unwrap();
        let d = s.domains();
        let v = x.index() as u32;
        assert_eq!(lit(v, Rel::Eq, 3).truth(d), None);
        assert_eq!(lit(v, Rel::Eq, 9).truth(d), Some(false));
        assert_eq!(lit(v, Rel::Le, 5).truth(d), Some(true));
        assert_eq!(lit(v, Rel::Le, -1).truth(d), Some(false));
        assert_eq!(lit(v, Rel::Le, 2).truth(d), None);
        assert_eq!(lit(v, Rel::Ge, 0).truth(d), Some(true));
        assert_eq!(lit(v, Rel::Ge, 6).truth(d), Some(false));
        assert_eq!(lit(v, Rel::Ge, 4).truth(d), None);
    }

    #[test]
    fn the_store_deletes_the_oldest_beyond_its_bound() {
        let mut ng = Nogoods::new(3, 2);
        let mut stats = SearchStats::default();
        for k in 0..5 {
            ng.push(vec![lit(0, Rel::Eq, k), lit(1, Rel::Eq, k)], &mut stats);
            ng.enforce_limit(&mut stats);
        }
        assert_eq!(ng.len(), 2);
        assert_eq!((stats.nogoods_learnt, stats.nogoods_deleted), (5, 3));
        // The two newest are kept.
        let kept: Vec<Value> = ng
            .lits
            .iter()
            .filter(|l| !l.is_empty())
            .map(|l| l[0].value)
            .collect();
        assert_eq!(kept, [3, 4]);
    }

    #[test]
    fn compaction_keeps_the_live_nogoods_watched() {
        let mut ng = Nogoods::new(2, 10);
        let mut stats = SearchStats::default();
        for k in 0..3000 {
            ng.push(vec![lit(0, Rel::Eq, k), lit(1, Rel::Le, k)], &mut stats);
            ng.enforce_limit(&mut stats);
        }
        assert_eq!(ng.len(), 10);
        assert!(ng.lits.len() < 2000, "compacted: {}", ng.lits.len());
        let live: Vec<u32> = (0..ng.lits.len() as u32)
            .filter(|&id| !ng.lits[id as usize].is_empty())
            .collect();
        for w in 0..2 {
            let mut ids: Vec<u32> = ng.watches[w]
                .iter()
                .map(|e| e.id)
                .filter(|&id| !ng.lits[id as usize].is_empty())
                .collect();
            ids.sort_unstable();
            assert_eq!(ids, live);
        }
    }

    /// Whether every literal of `n` holds in the complete assignment `values`.
    fn all_hold(n: &[Lit], values: &[Value]) -> bool {
        n.iter().all(|l| {
            let x = values[l.var as usize];
            match l.rel {
                Rel::Eq => x == l.value,
                Rel::Le => x <= l.value,
                Rel::Ge => x >= l.value,
            }
        })
    }

    #[test]
    fn no_nogood_excludes_a_solution() {
        // 8-queens, binary branching and d-way, tiny runs: many nogoods,
        // and each must be violated by every one of the 92 solutions.
        let (m, _) = crate::models::queens(8).unwrap();
        let all: Vec<Vec<Value>> = Solver::new(&m, Config::default())
            .unwrap()
            .solutions()
            .map(|s| s.values)
            .collect();
        assert_eq!(all.len(), 92);
        for binary in [true, false] {
            let config = Config::textbook()
                .with_pruning(Pruning::Propagators)
                .with_binary_branching(binary)
                .with_var_order(VarOrder::DomOverWdeg)
                .with_restarts(Restarts::Constant { scale: 2 })
                .with_nogoods(true);
            let mut s = Solver::new(&m, config).unwrap();
            let count = s.count();
            assert_eq!(count.solutions, 92);
            assert!(count.stats.nogoods_learnt > 0, "binary {binary}");
            let ng = s.nogoods.as_deref().unwrap();
            for n in ng.lits.iter().filter(|n| !n.is_empty()) {
                for sol in &all {
                    assert!(!all_hold(n, sol), "{n:?} excludes {sol:?}");
                }
            }
        }
    }

    #[test]
    fn nogoods_agree_whatever_the_trail_budget() {
        // Undo records kept, dropped at every level (recomputed from the
        // root snapshot, which root prunings by nogoods renew), and no
        // snapshot: the same answers.
        let (m, _) = crate::models::queens(8).unwrap();
        let mut pigeons = crate::Model::new();
        let p = pigeons.int_var_array("p", 7, 1..=6).unwrap();
        for i in 0..7 {
            for j in i + 1..7 {
                pigeons.not_equal(p[i], p[j]).unwrap();
            }
        }
        for budget in [None, Some(1), Some(crate::DEFAULT_TRAIL_BUDGET)] {
            for pruning in [Pruning::ArcConsistency, Pruning::Propagators] {
                let config = Config::textbook()
                    .with_pruning(pruning)
                    .with_binary_branching(true)
                    .with_var_order(VarOrder::DomOverWdeg)
                    .with_restarts(Restarts::Luby { scale: 1 })
                    .with_nogoods(true)
                    .with_trail_budget(budget);
                let count = Solver::new(&m, config.clone()).unwrap().count();
                assert_eq!(count.solutions, 92, "{budget:?} {pruning}");
                assert!(count.stats.nogoods_used > 0, "{budget:?} {pruning}");
                let none = Solver::new(&pigeons, config).unwrap().first();
                assert!(none.solution.is_none(), "{budget:?} {pruning}");
                assert_eq!(none.status, crate::SearchStatus::Complete);
                assert!(none.stats.nogoods_learnt > 0, "{budget:?} {pruning}");
            }
        }
    }
}
