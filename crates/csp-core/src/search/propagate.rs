//! Pruning after a decision: the promising check, forward checking, and the
//! propagation queue of arc consistency and the propagators.

use super::Solver;
use crate::context::{Changes, EV_ALL, PropagationContext};
use crate::observer::{Choice, Failure, FailureKind, Node, PruneCause};
use crate::{
    Constraint, ConstraintId, PropStatus, Pruning, SearchObserver, Value, ValueSelector, VarId,
    VariableSelector,
};

impl<'m, O: SearchObserver, V: VariableSelector, L: ValueSelector> Solver<'m, O, V, L> {
    // -------------------------------------------------------------- pruning

    pub(super) fn fail(kind: FailureKind, cid: Option<usize>, var: Option<VarId>) -> Failure {
        Failure {
            kind,
            constraint: cid.map(ConstraintId::new),
            var,
        }
    }

    /// Assigns the node's value and runs the pruning level.
    pub(super) fn decide(&mut self, node: &Node) -> Result<(), Failure> {
        if node.choice != Choice::Equal {
            return self.restrict(node, false);
        }
        let var = node.var;
        if self.domains.assign(var, node.value).is_err() {
            return Err(Self::fail(FailureKind::Conflict, None, Some(var)));
        }
        match self.pruning {
            Pruning::None => {
                if self.num_decided == self.decided.len() {
                    self.check_complete()?;
                    self.check_objective()?;
                }
                Ok(())
            }
            Pruning::Check => {
                self.check_objective()?;
                let constraints = self.model.posted();
                let mut failed = None;
                for (k, w) in self.watches[var.index()].iter().enumerate() {
                    let c = w.cid as usize;
                    self.stats.checks += 1;
                    if !constraints[c].promising(&self.domains) {
                        failed = Some((k, c));
                        break;
                    }
                }
                let Some((k, c)) = failed else {
                    return Ok(());
                };
                // dom/wdeg learns from the promising check too
                // (Boussemart et al. 2004: the constraint that failed).
                self.blame(c);
                // Look-back blames the failing constraint with the earliest
                // decisions, as checking the past variables in order does.
                let c = match self.lookback {
                    Some(_) => self.earliest_failure(var, k, c),
                    None => c,
                };
                Err(Self::fail(FailureKind::NotPromising, Some(c), None))
            }
            // Look-back needs each removal's constraint: its own loop, so
            // that chronological forward checking pays nothing for it.
            Pruning::ForwardChecking if self.lookback.is_some() => {
                self.prune_objective(Some(node))?;
                self.forward_check_explained(node)
            }
            Pruning::ForwardChecking => {
                self.prune_objective(Some(node))?;
                let constraints = self.model.posted();
                // Steps given as data run here, unless each removal must be reported.
                let steps = !self.changes.record;
                for w in &self.watches[var.index()] {
                    let c = w.cid as usize;
                    if self.state.is_entailed(c) {
                        continue;
                    }
                    self.stats.propagations += 1;
                    if steps {
                        let x = VarId::new(w.var as usize);
                        let value = if x == var {
                            Some(node.value)
                        } else {
                            self.domains.value(x)
                        };
                        let done = value.and_then(|v| {
                            self.state.run_step(
                                c,
                                w.pos as usize,
                                v,
                                &mut self.domains,
                                &mut self.changes,
                            )
                        });
                        match done {
                            Some(Ok(())) => continue,
                            Some(Err(wiped)) => {
                                self.blame(c);
                                return Err(Self::fail(
                                    FailureKind::Conflict,
                                    Some(c),
                                    Some(wiped),
                                ));
                            }
                            None => {}
                        }
                    }
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
                    match result {
                        Ok(PropStatus::Entailed) => self.state.set_entailed(c),
                        Ok(_) => {}
                        Err(conflict) => {
                            self.blame(c);
                            return Err(Self::fail(FailureKind::Conflict, Some(c), conflict.var));
                        }
                    }
                }
                Ok(())
            }
            Pruning::ArcConsistency | Pruning::Propagators => {
                self.prune_objective(Some(node))?;
                self.schedule(var, EV_ALL, None);
                self.touch_nogoods(var);
                self.run_queue(Some(node))
            }
        }
    }

    /// The second branch of a binary choice: removes `node.value` from
    /// `node.var` (for a split, the other half) and propagates (propagators
    /// level only).
    #[inline]
    pub(super) fn exclude(&mut self, node: &Node) -> Result<(), Failure> {
        self.restrict(node, true)
    }

    /// Applies a binary choice's branch (`refuted`: its second branch) and
    /// propagates: `var != value`, or a split's half.
    fn restrict(&mut self, node: &Node, refuted: bool) -> Result<(), Failure> {
        let (var, value) = (node.var, node.value);
        self.prune_objective(Some(node))?;
        // The branch's own removals are the decision, not propagation: they
        // are neither counted in `pruned` nor reported to the observer (as
        // an assignment's are not), but they wake the propagators.
        let pruned = self.changes.pruned;
        let mut ctx = PropagationContext::new(
            &mut self.domains,
            &mut self.state,
            &mut self.changes,
            self.pruning,
            None,
            usize::MAX,
        );
        // `value` lies strictly inside the domain for a split, so `value ± 1`
        // does not overflow.
        let removed = match (node.choice, refuted) {
            (Choice::Equal, _) => ctx.remove(var, value),
            (Choice::LessEqual, false) | (Choice::GreaterEqual, true) => {
                ctx.remove_above(var, value - Value::from(refuted))
            }
            (Choice::LessEqual, true) | (Choice::GreaterEqual, false) => {
                ctx.remove_below(var, value + Value::from(refuted))
            }
        }
        .map(|_| ());
        self.changes.pruned = pruned;
        self.changes.removed.clear();
        self.schedule_changed(None);
        if removed.is_err() {
            self.abandon_queue();
            return Err(Self::fail(FailureKind::Conflict, None, Some(var)));
        }
        self.run_queue(Some(node))
    }

    /// Copies the counters kept by the propagation context into the statistics
    /// (once per `advance`, at the root and after assumptions; not per node).
    pub(super) fn flush_pruned(&mut self) {
        self.stats.pruned = self.changes.pruned;
        self.stats.revisions = self.changes.revisions;
    }

    pub(super) fn report_prunes(
        observer: &mut O,
        changes: &mut Changes,
        node: Option<&Node>,
        cid: Option<usize>,
        pruning: Pruning,
    ) {
        let cause = PruneCause {
            constraint: cid.map(ConstraintId::new),
            pruning,
            decision: node.map(|n| (n.var, n.value)),
        };
        for (var, value) in changes.removed.drain(..) {
            observer.on_prune(node, var, value, &cause);
        }
    }

    /// Checks every constraint on a complete assignment (generate and test).
    pub(super) fn check_complete(&mut self) -> Result<(), Failure> {
        for (c, con) in self.model.posted().iter().enumerate() {
            if !self.is_active(c) {
                continue;
            }
            self.stats.checks += 1;
            self.buf.clear();
            let domains = &self.domains;
            self.buf.extend(con.scope().iter().map(|&v| domains.min(v)));
            if !con.check(&self.buf) {
                self.blame(c);
                return Err(Self::fail(FailureKind::CheckFailed, Some(c), None));
            }
        }
        Ok(())
    }

    /// Queues the constraints watching `var` that `events` wake (except `skip`).
    #[inline]
    pub(super) fn schedule(&mut self, var: VarId, events: u8, skip: Option<usize>) {
        let v = var.index();
        let list = match self.event_watches.get(v, events) {
            Some(list) => list,
            None => &self.watches[v],
        };
        for w in list {
            let c = w.cid as usize;
            if w.events & events != 0 && (!w.masked || self.state.wakes(c, w.pos as usize)) {
                if w.report && !self.state.is_entailed(c) {
                    // Listed even when queued already or running: the
                    // constraint reads every change since its last call.
                    self.state.note_woken(c, w.pos);
                }
                if Some(c) != skip && !self.in_queue[c] && !self.state.is_entailed(c) {
                    self.in_queue[c] = true;
                    self.queue[self.cost[c] as usize].push_back(w.cid);
                }
            }
        }
    }

    /// Queues the constraints that the changes listed since the last call
    /// wake (except `skip`), and empties the list.
    #[inline]
    pub(super) fn schedule_changed(&mut self, skip: Option<usize>) {
        let mut changed = std::mem::take(&mut self.changes.changed);
        for &v in &changed {
            self.changes.in_changed[v.index()] = false;
            let events = std::mem::take(&mut self.changes.events[v.index()]);
            self.schedule(v, events, skip);
            if let Some(ng) = self.nogoods.as_deref_mut() {
                ng.touch(v.index(), events);
            }
        }
        changed.clear();
        self.changes.changed = changed;
    }

    /// The next constraint to run: the oldest of the cheapest queue.
    #[inline]
    fn pop_queue(&mut self) -> Option<u32> {
        let [cheap, linear, expensive] = &mut self.queue;
        cheap
            .pop_front()
            .or_else(|| linear.pop_front())
            .or_else(|| expensive.pop_front())
    }

    /// Empties the propagation queue and the list of changed variables (after
    /// a conflict, or when a limit cuts the propagation short).
    fn abandon_queue(&mut self) {
        for queue in &mut self.queue {
            for q in queue.drain() {
                self.in_queue[q as usize] = false;
            }
        }
        for v in self.changes.changed.drain(..) {
            self.changes.in_changed[v.index()] = false;
            self.changes.events[v.index()] = 0;
        }
        if let Some(ng) = self.nogoods.as_deref_mut() {
            ng.clear_pending();
        }
    }

    /// Runs queued constraints until none is left, then the nogoods
    /// ([`Config::with_nogoods`](crate::Config::with_nogoods)) on the
    /// variables changed, and the constraints again after any removal, to
    /// the common fixpoint.
    pub(super) fn run_queue(&mut self, node: Option<&Node>) -> Result<(), Failure> {
        loop {
            self.run_constraints(node)?;
            if self.changes.interrupted.is_some() || !self.nogoods_pending() {
                return Ok(());
            }
            if let Err(failure) = self.propagate_nogoods(node) {
                self.abandon_queue();
                return Err(failure);
            }
            self.schedule_changed(None);
        }
    }

    /// AC-3 style propagation loop: runs queued constraints until none is left.
    fn run_constraints(&mut self, node: Option<&Node>) -> Result<(), Failure> {
        let constraints = self.model.posted();
        while let Some(cid) = self.pop_queue() {
            if self.changes.poll() {
                // A limit was reached: leave the fixpoint unfinished, the
                // search stops as soon as this returns.
                self.in_queue[cid as usize] = false;
                self.abandon_queue();
                return Ok(());
            }
            let c = cid as usize;
            self.in_queue[c] = false;
            if self.state.is_entailed(c) {
                continue;
            }
            self.stats.propagations += 1;
            let mut ctx = PropagationContext::new(
                &mut self.domains,
                &mut self.state,
                &mut self.changes,
                self.pruning,
                None,
                c,
            );
            let result = match self.dense.get(c) {
                Some(Some(dense)) => dense.propagate(&mut ctx),
                _ => constraints[c].propagate(&mut ctx),
            };
            if self.changes.record {
                Self::report_prunes(
                    &mut self.observer,
                    &mut self.changes,
                    node,
                    Some(c),
                    self.pruning,
                );
            }
            if self.lookback.is_some() && result.is_ok() {
                Self::explain_changes(
                    self.lookback.as_deref_mut(),
                    &self.domains,
                    &constraints[c],
                    &self.changes,
                );
            }
            let status = match result {
                Ok(s) => s,
                Err(conflict) => {
                    self.blame(c);
                    self.abandon_queue();
                    return Err(Self::fail(FailureKind::Conflict, Some(c), conflict.var));
                }
            };
            if status == PropStatus::Entailed {
                self.state.set_entailed(c);
            }
            // Most calls change nothing: no call to schedule then.
            if !self.changes.changed.is_empty() {
                let skip = (status != PropStatus::Changed || self.idempotent[c]).then_some(c);
                self.schedule_changed(skip);
            }
        }
        Ok(())
    }

    /// The pruning level's work before the first decision.
    pub(super) fn propagate_root(&mut self) -> Result<(), Failure> {
        let constraints = self.model.posted();
        let r = match self.pruning {
            Pruning::None => Ok(()),
            Pruning::Check => {
                for (c, con) in constraints.iter().enumerate() {
                    if !self.is_active(c) {
                        continue;
                    }
                    self.stats.checks += 1;
                    if !con.promising(&self.domains) {
                        return Err(Self::fail(FailureKind::NotPromising, Some(c), None));
                    }
                }
                Ok(())
            }
            Pruning::ForwardChecking => {
                for (c, con) in constraints.iter().enumerate() {
                    if !self.is_active(c) {
                        continue;
                    }
                    self.stats.propagations += 1;
                    let mut ctx = PropagationContext::new(
                        &mut self.domains,
                        &mut self.state,
                        &mut self.changes,
                        self.pruning,
                        None,
                        c,
                    );
                    let result = con.propagate(&mut ctx);
                    if self.changes.record {
                        Self::report_prunes(
                            &mut self.observer,
                            &mut self.changes,
                            None,
                            Some(c),
                            self.pruning,
                        );
                    }
                    // Root removals have no reasons: only the list is emptied.
                    if self.lookback.is_some() {
                        Self::forget_changed(&mut self.changes);
                    }
                    match result {
                        Ok(PropStatus::Entailed) => self.state.set_entailed(c),
                        Ok(_) => {}
                        Err(conflict) => {
                            return Err(Self::fail(FailureKind::Conflict, Some(c), conflict.var));
                        }
                    }
                }
                Ok(())
            }
            Pruning::ArcConsistency | Pruning::Propagators => {
                for c in 0..constraints.len() {
                    if !self.is_active(c) {
                        continue;
                    }
                    self.in_queue[c] = true;
                    self.queue[self.cost[c] as usize].push_back(c as u32);
                }
                self.run_queue(None)
            }
        };
        self.flush_pruned();
        r
    }
}
