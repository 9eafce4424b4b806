//! Look-back: conflict sets per level, the levels behind each variable's
//! removals, and backjumps (Gaschnig's BJ, Prosser's CBJ, FC-CBJ, MAC-CBJ).
//!
//! Sets of levels are bit sets of `words` words. For a variable `y`,
//! `expl(y)` is the set of levels whose decisions imply its current domain:
//! `{level(y)}` if `y` is decided, else `reasons(y)`, the levels behind every
//! value removed from it so far. When a constraint removes values, each
//! variable it changed gains the union of `expl` over the constraint's scope
//! (its default explanation); when it fails, that union is the failure's
//! conflict. `reasons` is trailed per level; the per-level conflict sets are
//! cleared when a frame opens.

use super::Solver;
use crate::context::{Changes, PropagationContext};
use crate::observer::{Backjump, Failure, FailureKind, Node};
use crate::{
    Backjumping, Constraint, ConstraintId, Domains, Posted, PropStatus, Pruning, SearchObserver,
    ValueSelector, VarId, VariableSelector,
};

/// The look-back state of a search with backjumping.
#[derive(Clone, Debug)]
pub(super) struct LookBack {
    mode: Backjumping,
    /// Words per set of levels (levels 0 to the number of variables).
    words: usize,
    /// Per variable: its decision level, 0 if undecided.
    level_of: Vec<u32>,
    /// Per variable, `words` words: the levels behind its removed values.
    reasons: Vec<u64>,
    /// Per level, `words` words: the conflict set.
    conf: Vec<u64>,
    /// Per level: some value passed (not a leaf dead end, for Gaschnig).
    internal: Vec<bool>,
    /// Per level: a solution (or a subproblem left unexplored) lies below,
    /// so the level must be left chronologically.
    solved: Vec<bool>,
    /// Per level: the variable decided there.
    var_at: Vec<VarId>,
    /// Undo records of `reasons`: (word index, old word).
    trail: Vec<(u32, u64)>,
    /// Trail length when each open level began.
    marks: Vec<usize>,
    /// A set of levels being built.
    scratch: Vec<u64>,
    /// The conflict set's variables, for the observer.
    conflict_vars: Vec<VarId>,
}

impl LookBack {
    /// The look-back state for `vars` decision variables (`None` for
    /// chronological backtracking, which keeps no state).
    pub(super) fn new(mode: Backjumping, vars: usize) -> Option<Box<Self>> {
        if mode == Backjumping::None {
            return None;
        }
        let words = (vars + 1).div_ceil(64);
        let levels = vars + 2;
        Some(Box::new(LookBack {
            mode,
            words,
            level_of: vec![0; vars],
            reasons: vec![0; vars * words],
            conf: vec![0; levels * words],
            internal: vec![false; levels],
            solved: vec![false; levels],
            var_at: vec![VarId::new(0); levels],
            trail: Vec::new(),
            marks: Vec::new(),
            scratch: vec![0; words],
            conflict_vars: Vec::new(),
        }))
    }

    /// `scratch |= expl(var)` (`var` a variable, not a view).
    #[inline]
    fn add_expl(&mut self, var: usize) {
        match self.level_of.get(var) {
            Some(&l) if l > 0 => self.scratch[l as usize / 64] |= 1 << (l % 64),
            Some(_) => {
                let r = &self.reasons[var * self.words..(var + 1) * self.words];
                for (s, &w) in self.scratch.iter_mut().zip(r) {
                    *s |= w;
                }
            }
            None => {}
        }
    }

    fn clear_scratch(&mut self) {
        self.scratch.fill(0);
    }

    /// `reasons(var) |= scratch`, trailed.
    fn add_reasons(&mut self, var: usize) {
        let Some(row) = self
            .reasons
            .get_mut(var * self.words..(var + 1) * self.words)
        else {
            return;
        };
        for (k, (r, &s)) in row.iter_mut().zip(&self.scratch).enumerate() {
            if *r | s != *r {
                self.trail.push(((var * self.words + k) as u32, *r));
                *r |= s;
            }
        }
    }

    /// `conf(level) |= scratch` without the levels `level` and above.
    fn merge_into(&mut self, level: usize) {
        let words = self.words;
        for (k, &s) in self.scratch.iter().enumerate() {
            let lo = k * 64;
            let keep = if level <= lo {
                0
            } else if level - lo >= 64 {
                u64::MAX
            } else {
                (1u64 << (level - lo)) - 1
            };
            self.conf[level * words + k] |= s & keep;
        }
    }

    /// Removes `level` from `scratch`.
    fn drop_level(&mut self, level: usize) {
        if let Some(w) = self.scratch.get_mut(level / 64) {
            *w &= !(1 << (level % 64));
        }
    }

    /// The deepest level in `scratch` (0 if none).
    fn deepest(&self) -> usize {
        for (k, &w) in self.scratch.iter().enumerate().rev() {
            if w != 0 {
                return k * 64 + 63 - w.leading_zeros() as usize;
            }
        }
        0
    }

    /// A value was tried at `level` for `var`.
    #[inline]
    pub(super) fn push_level(&mut self, var: VarId, level: usize) {
        self.marks.push(self.trail.len());
        if let Some(l) = self.level_of.get_mut(var.index()) {
            *l = level as u32;
        }
    }

    /// The value tried for `var` is undone.
    #[inline]
    pub(super) fn pop_level(&mut self, var: VarId) {
        let mark = self.marks.pop().unwrap_or(0);
        for (i, old) in self.trail.drain(mark..).rev() {
            self.reasons[i as usize] = old;
        }
        if let Some(l) = self.level_of.get_mut(var.index()) {
            *l = 0;
        }
    }

    /// A nogood removed values from `target`: it gains the levels behind
    /// the variables of the nogood's other literals (`vars`).
    pub(super) fn explain_by(
        lb: &mut LookBack,
        domains: &Domains,
        vars: impl Iterator<Item = u32>,
        target: usize,
    ) {
        lb.clear_scratch();
        for v in vars {
            lb.add_expl(domains.base_of(VarId::new(v as usize)).index());
        }
        lb.add_reasons(target);
    }

    /// Back to the root (a restart): every level undone.
    pub(super) fn reset(&mut self) {
        for (i, old) in self.trail.drain(..).rev() {
            self.reasons[i as usize] = old;
        }
        self.marks.clear();
        self.level_of.fill(0);
    }

    /// A frame for `var` opened at `level`.
    #[inline]
    pub(super) fn open_frame(&mut self, var: VarId, level: usize) {
        let words = self.words;
        self.conf[level * words..(level + 1) * words].fill(0);
        self.internal[level] = false;
        self.solved[level] = false;
        self.var_at[level] = var;
    }

    /// A value passed at `level`.
    #[inline]
    pub(super) fn accepted(&mut self, level: usize) {
        self.internal[level] = true;
    }

    /// A solution, or a subproblem's root left unexplored, at `level`.
    pub(super) fn solved(&mut self, level: usize) {
        self.solved[level] = true;
    }
}

impl<'m, O: SearchObserver, V: VariableSelector, L: ValueSelector> Solver<'m, O, V, L> {
    /// `scratch = ∪ expl(y)` over the scope of constraint `c`.
    fn explain_scope(lb: &mut LookBack, domains: &crate::Domains, scope: &[VarId]) {
        lb.clear_scratch();
        for &y in scope {
            lb.add_expl(domains.base_of(y).index());
        }
    }

    /// `scratch` = the levels that explain why `constraint` failed the
    /// promising check after `var` was decided at `level`. A pairwise
    /// constraint ([`Constraint::pairwise`]) blames one fixed variable that
    /// conflicts with `var`'s value alone: the one whose explanation's
    /// deepest level below `level` is the earliest, as checking the past
    /// variables in order finds it. Otherwise, or if no single variable
    /// conflicts, the whole scope.
    fn explain_check(
        lb: &mut LookBack,
        domains: &Domains,
        constraint: &Posted,
        var: VarId,
        level: usize,
    ) {
        let scope = constraint.scope();
        if let Some(pairs) = constraint.pairwise() {
            let mut best: Option<(usize, VarId)> = None;
            for (i, &xi) in scope.iter().enumerate() {
                if domains.base_of(xi) != var {
                    continue;
                }
                let Some(vi) = domains.value(xi) else {
                    continue;
                };
                for (j, &xj) in scope.iter().enumerate() {
                    let Some(vj) = domains.value(xj) else {
                        continue;
                    };
                    if j == i || !pairs.conflict(i, vi, j, vj) {
                        continue;
                    }
                    let culprit = domains.base_of(xj);
                    lb.clear_scratch();
                    lb.add_expl(culprit.index());
                    lb.drop_level(level);
                    let deepest = lb.deepest();
                    if best.is_none_or(|(d, _)| deepest < d) {
                        best = Some((deepest, culprit));
                    }
                }
            }
            if let Some((_, culprit)) = best {
                lb.clear_scratch();
                lb.add_expl(culprit.index());
                return;
            }
        }
        Self::explain_scope(lb, domains, scope);
    }

    /// After constraint `c` ran without failing: every variable it changed
    /// (listed in `changes.changed`) gains `expl` of the scope.
    #[inline(never)]
    pub(super) fn explain_changes(
        lookback: Option<&mut LookBack>,
        domains: &Domains,
        constraint: &Posted,
        changes: &Changes,
    ) {
        Self::explain_changes_by(lookback, constraint.scope(), domains, changes);
    }

    /// As [`explain_changes`](Self::explain_changes), with `causes` in place
    /// of the constraint's scope.
    fn explain_changes_by(
        lookback: Option<&mut LookBack>,
        causes: &[VarId],
        domains: &Domains,
        changes: &Changes,
    ) {
        let Some(lb) = lookback else {
            return;
        };
        if changes.changed.is_empty() {
            return;
        }
        Self::explain_scope(lb, domains, causes);
        for &v in &changes.changed {
            lb.add_reasons(v.index());
        }
    }

    /// Empties the list of changed variables (forward checking keeps no
    /// queue: with look-back the list only feeds `explain_changes`).
    pub(super) fn forget_changed(changes: &mut Changes) {
        for v in changes.changed.drain(..) {
            changes.in_changed[v.index()] = false;
            changes.events[v.index()] = 0;
        }
    }

    /// Forward checking after `node` with look-back: each constraint on the
    /// decided variable filters its neighbours through `propagate` (not the
    /// bulk steps, which do not list the variables they change), and the
    /// variables it changed gain the levels behind its scope.
    #[inline(never)]
    pub(super) fn forward_check_explained(&mut self, node: &Node) -> Result<(), Failure> {
        let constraints = self.model.posted();
        let var = node.var;
        Self::forget_changed(&mut self.changes);
        for w in &self.watches[var.index()] {
            let c = w.cid as usize;
            if self.state.is_entailed(c) {
                continue;
            }
            self.stats.propagations += 1;
            let mut ctx = PropagationContext::new(
                &mut self.domains,
                &mut self.state,
                &mut self.changes,
                Pruning::ForwardChecking,
                Some((VarId::new(w.var as usize), w.pos as usize)),
                c,
            );
            let result = constraints[c].propagate(&mut ctx);
            if self.changes.record {
                Self::report_prunes(
                    &mut self.observer,
                    &mut self.changes,
                    Some(node),
                    Some(c),
                    self.pruning,
                );
            }
            if result.is_ok() {
                // A pairwise constraint removed values for conflicting with
                // the decision alone.
                let causes = match constraints[c].pairwise() {
                    Some(_) => std::slice::from_ref(&var),
                    None => constraints[c].scope(),
                };
                Self::explain_changes_by(
                    self.lookback.as_deref_mut(),
                    causes,
                    &self.domains,
                    &self.changes,
                );
            }
            Self::forget_changed(&mut self.changes);
            match result {
                Ok(PropStatus::Entailed) => self.state.set_entailed(c),
                Ok(_) => {}
                Err(conflict) => {
                    self.blame(c);
                    return Err(Failure {
                        kind: FailureKind::Conflict,
                        constraint: Some(ConstraintId::new(c)),
                        var: conflict.var,
                    });
                }
            }
        }
        Ok(())
    }

    /// At the promising check, `var`'s watch `k` (constraint `c`) failed:
    /// the failing constraint whose other decided variables are the
    /// earliest (the lowest deepest level), as backtracking finds it by
    /// checking the past variables in order. Checks the later watches only
    /// where they could conflict earlier.
    #[inline(never)]
    pub(super) fn earliest_failure(&mut self, var: VarId, k: usize, c: usize) -> usize {
        let Some(lb) = self.lookback.as_deref_mut() else {
            return c;
        };
        let constraints = self.model.posted();
        let level = lb.level_of[var.index()] as usize;
        let deepest_below = |lb: &mut LookBack, c: usize| {
            Self::explain_check(lb, &self.domains, &constraints[c], var, level);
            lb.drop_level(level);
            lb.deepest()
        };
        let mut best = (deepest_below(lb, c), c);
        for w in &self.watches[var.index()][k + 1..] {
            let c2 = w.cid as usize;
            let d = deepest_below(lb, c2);
            if d < best.0 {
                self.stats.checks += 1;
                if !constraints[c2].promising(&self.domains) {
                    best = (d, c2);
                }
            }
        }
        best.1
    }

    /// A value failed at the current level: its conflict joins the level's set.
    #[inline(never)]
    pub(super) fn note_failure(&mut self, failure: &Failure) {
        let level = self.frames.len();
        let Some(lb) = self.lookback.as_deref_mut() else {
            return;
        };
        let constraints = self.model.posted();
        match (failure.kind, failure.constraint, failure.var) {
            (FailureKind::NotPromising, Some(c), _) => {
                let var = lb.var_at[level];
                Self::explain_check(lb, &self.domains, &constraints[c.index()], var, level);
            }
            // Forward checking emptied `v`'s domain through a pairwise
            // constraint: the decisions behind its removals, this one's
            // among them.
            (FailureKind::Conflict, Some(c), Some(v))
                if self.pruning == Pruning::ForwardChecking
                    && constraints[c.index()].pairwise().is_some() =>
            {
                lb.clear_scratch();
                lb.add_expl(self.domains.base_of(v).index());
                lb.add_expl(lb.var_at[level].index());
            }
            (FailureKind::Conflict, Some(c), _) => {
                let scope = constraints[c.index()].scope();
                Self::explain_scope(lb, &self.domains, scope);
            }
            // The value was not in the domain: the removals' levels.
            (FailureKind::Conflict, None, Some(v)) => {
                lb.clear_scratch();
                let v = self.domains.base_of(v).index();
                if let Some(r) = lb.reasons.get(v * lb.words..(v + 1) * lb.words) {
                    lb.scratch.copy_from_slice(r);
                }
            }
            // An objective bound or anything unexplained: every level
            // (chronological backtracking, always sound).
            _ => lb.scratch.fill(u64::MAX),
        }
        lb.merge_into(level);
    }

    /// The frame of `var` (at level `frames.len() + 1`, below node
    /// `parent`) ran out of values and was popped: goes back to the level
    /// its conflict set says, popping the frames in between, and reports
    /// the jump.
    #[inline(never)]
    pub(super) fn backjump(&mut self, var: VarId, parent: u64) {
        let from = self.frames.len() + 1;
        let Some(lb) = self.lookback.as_deref_mut() else {
            return;
        };
        let below = from - 1;
        if lb.solved[from] {
            lb.solved[below] = true;
            return;
        }
        // The dead end's set: the values' conflicts, and the levels that
        // removed values before any was tried.
        let words = lb.words;
        lb.scratch
            .copy_from_slice(&lb.conf[from * words..(from + 1) * words]);
        lb.add_expl(var.index());
        let leaf = !lb.internal[from];
        let to = match lb.mode {
            Backjumping::Cbj => {
                let to = lb.deepest();
                if to > 0 {
                    lb.merge_into(to);
                }
                to
            }
            Backjumping::Gbj if leaf => lb.deepest(),
            _ => below,
        };
        if to >= below {
            return;
        }
        lb.conflict_vars.clear();
        for l in 1..=to {
            if lb.scratch[l / 64] >> (l % 64) & 1 == 1 {
                lb.conflict_vars.push(lb.var_at[l]);
            }
        }
        let conflict = std::mem::take(&mut lb.conflict_vars);
        self.stats.backjumps += 1;
        self.stats.levels_jumped += (below - to) as u64;
        let target = match to {
            0 => 0,
            l => self.frames[l - 1].open.map_or(0, |n| n.id),
        };
        self.observer.on_backjump(&Backjump {
            from,
            var,
            dead_end: parent,
            to,
            target,
            conflict: &conflict,
        });
        if let Some(lb) = self.lookback.as_deref_mut() {
            lb.conflict_vars = conflict;
        }
        // Undo the skipped levels, deepest first, each while its frame is
        // on top (a recomputation replays the frames below it).
        while self.frames.len() > to {
            let level = self.frames.len();
            let Some(frame) = self.frames.last_mut() else {
                break;
            };
            let f = *frame;
            if let Some(node) = frame.open.take() {
                if f.assigns() {
                    self.set_decided(node.var, false);
                    self.num_decided -= 1;
                }
                self.pop_decision();
                if let Some(lb) = self.lookback.as_deref_mut() {
                    lb.pop_level(node.var);
                }
            }
            self.frames.pop();
            self.values.truncate(f.start);
            if let Some(lb) = self.lookback.as_deref_mut()
                && lb.solved[level]
            {
                lb.solved[to] = true;
            }
        }
    }
}
