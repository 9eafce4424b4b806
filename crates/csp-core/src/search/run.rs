//! The search loop: choose a variable, try its values, backtrack, stop on a limit.

use std::time::Instant;

use super::{CLOCK_INTERVAL, Frame, Solver};
use crate::branching::{SearchView, ValueContext, split_point};
use crate::observer::{Choice, Failure, Node};
use crate::{
    CancelFlag, SearchObserver, SearchStatus, StopReason, Value, ValueSelector, VariableSelector,
};

impl<'m, O: SearchObserver, V: VariableSelector, L: ValueSelector> Solver<'m, O, V, L> {
    // ------------------------------------------------------------------ engine

    /// Moves to the next solution; `false` when the search ended (complete or
    /// stopped).
    pub(super) fn advance(&mut self) -> bool {
        if self.status != SearchStatus::Paused {
            return false;
        }
        let started = Instant::now();
        self.changes.deadline = self
            .limits
            .time
            .map(|t| started + t.saturating_sub(self.stats.elapsed));
        let found = self.run(started);
        self.flush_pruned();
        self.stats.elapsed += started.elapsed();
        found
    }

    pub(super) fn stop(&mut self, reason: StopReason) -> bool {
        self.status = SearchStatus::Stopped(reason);
        false
    }

    pub(super) fn out_of_time(&self, started: Instant) -> Option<StopReason> {
        if self
            .limits
            .cancel
            .as_ref()
            .is_some_and(CancelFlag::is_cancelled)
        {
            return Some(StopReason::Cancelled);
        }
        match self.limits.time {
            Some(t) if self.stats.elapsed + started.elapsed() >= t => Some(StopReason::TimeLimit),
            _ => None,
        }
    }

    pub(super) fn run(&mut self, started: Instant) -> bool {
        // A limit reached inside propagation (at the root, or in the last
        // decision's) ends the search: the domains are not at a fixpoint.
        if let Some(reason) = self.changes.interrupted {
            return self.stop(reason);
        }
        if self.domains.over_budget() {
            return self.stop(StopReason::MemoryLimit);
        }
        if self.root_failed {
            self.status = SearchStatus::Complete;
            return false;
        }
        if let Some(reason) = self.out_of_time(started) {
            return self.stop(reason);
        }
        loop {
            if self.need_frame {
                self.need_frame = false;
                if self.split_depth == Some(self.frames.len())
                    && self.num_decided < self.decided.len()
                {
                    // A subproblem's root: record its decisions, do not descend.
                    let path = self
                        .frames
                        .iter()
                        .filter_map(|f| f.open)
                        .map(|n| (n.var, n.value));
                    self.frontier.push(path.collect());
                    if let Some(lb) = self.lookback.as_deref_mut() {
                        // Unexplored here: its levels go back chronologically.
                        lb.solved(self.frames.len());
                    }
                    continue;
                }
                if !self.push_frame() {
                    // Every variable is decided: a solution.
                    return self.found_solution();
                }
                if let Some(reason) = self.changes.interrupted {
                    // A limit reached while the value order probed values
                    // (least-constraining-value).
                    return self.stop(reason);
                }
                if self.domains.over_budget() {
                    // The decision's list of values would pass the memory limit.
                    return self.stop(StopReason::MemoryLimit);
                }
                if let Some(lb) = self.lookback.as_deref_mut()
                    && let Some(top) = self.frames.last()
                {
                    lb.open_frame(top.var, self.frames.len());
                }
            }
            let Some(top) = self.frames.last_mut() else {
                self.status = SearchStatus::Complete;
                return false;
            };
            if top.open.take().is_some() {
                let (var, assigns) = (top.var, top.assigns());
                if assigns {
                    self.set_decided(var, false);
                    self.num_decided -= 1;
                }
                self.pop_decision();
                if let Some(lb) = self.lookback.as_deref_mut() {
                    lb.pop_level(var);
                }
                if let Some(reason) = self.changes.interrupted {
                    // A limit cut a recomputation short.
                    return self.stop(reason);
                }
            }
            let Some(&top) = self.frames.last() else {
                self.status = SearchStatus::Complete;
                return false;
            };
            // After a solution, a frame pushed with the projection fixed is
            // done: its other branches give the projection the same values.
            let skipped = match self.projection.as_deref_mut() {
                Some(p) if p.skipping => {
                    p.skipping = top.projected_out;
                    top.projected_out
                }
                _ => false,
            };
            let next = match (top.binary, top.last) {
                // A binary choice whose first branch is explored: its second.
                (true, Some(value)) if !top.refuted && !skipped => {
                    if let Some(reason) = self.node_limits(started) {
                        return self.stop(reason);
                    }
                    if let Some(found) = self.refute(top, value) {
                        return found;
                    }
                    continue;
                }
                // Both halves of a split explored (or skipped): it no longer
                // counts as a decision.
                (true, Some(_)) if top.choice != Choice::Equal => {
                    self.num_decided -= 1;
                    None
                }
                // Both branches explored, or skipped.
                (true, Some(_)) => None,
                _ if skipped => None,
                // A split's first half.
                (true, None) if top.choice != Choice::Equal => {
                    if let Some(reason) = self.node_limits(started) {
                        return self.stop(reason);
                    }
                    if let Some(found) = self.try_split() {
                        return found;
                    }
                    continue;
                }
                // After the pop, `var`'s domain is again what it was when the
                // frame was pushed, so a sweep continues from the value tried last.
                _ => match top.sweep {
                    None => (top.next < top.end).then(|| self.values[top.next]),
                    Some(sweep) => {
                        self.domains
                            .sweep_next(top.var, sweep, top.last, top.next - top.start)
                    }
                },
            };
            let Some(value) = next else {
                self.skip_frame(top);
                if self.frames.is_empty() {
                    self.status = SearchStatus::Complete;
                    return false;
                }
                if self.lookback.is_some() {
                    self.backjump(top.var, top.parent);
                }
                continue;
            };
            if let Some(reason) = self.node_limits(started) {
                return self.stop(reason);
            }
            // Split frames take the arms above: this is `var = value`.
            let node = self.open_node(&top, value, Choice::Equal);
            self.observer.on_try(&node);
            if let Some(frame) = self.frames.last_mut() {
                frame.next += 1;
                frame.last = Some(value);
            }
            self.domains.push_level();
            self.state.push_level();
            if let Some(lb) = self.lookback.as_deref_mut() {
                lb.push_level(node.var, self.frames.len());
            }
            self.set_decided(node.var, true);
            self.num_decided += 1;
            let decided = self.decide(&node);
            if let Some(found) = self.conclude(&node, decided) {
                return found;
            }
        }
    }

    /// Pops the frame on top, `top`, whose branches are all explored or skipped.
    #[inline]
    fn skip_frame(&mut self, top: Frame) {
        self.frames.pop();
        self.values.truncate(top.start);
        self.stats.backtracks += 1;
        self.observer.on_backtrack(self.frames.len() + 1, top.var);
    }

    /// The limits checked before each node: nodes, failures, and, when the
    /// clock is due, the time limit, the cancel flag and the heartbeat.
    #[inline]
    fn node_limits(&mut self, started: Instant) -> Option<StopReason> {
        if self.limits.nodes.is_some_and(|n| self.stats.tried >= n) {
            return Some(StopReason::NodeLimit);
        }
        // Checked before trying a value, so that at most `failures` happen.
        if self
            .limits
            .failures
            .is_some_and(|f| self.stats.rejected >= f)
        {
            return Some(StopReason::FailureLimit);
        }
        if self.stats.tried >= self.clock.due {
            return self.read_clock(started);
        }
        None
    }

    /// Reads the clock, about once a millisecond whatever a node costs: the
    /// interval in nodes halves when the last one took more than 2 ms
    /// (down to every node, where one node is expensive) and doubles when
    /// it took less than 0.5 ms (up to [`CLOCK_INTERVAL`]). A limit or a
    /// Ctrl-C is then seen within a few milliseconds plus one node.
    fn read_clock(&mut self, started: Instant) -> Option<StopReason> {
        let now = Instant::now();
        let gap = now.duration_since(self.clock.last);
        let every = &mut self.clock.every;
        if gap > std::time::Duration::from_millis(2) {
            *every = (*every / 2).max(1);
        } else if gap < std::time::Duration::from_micros(500) {
            *every = (*every * 2).min(CLOCK_INTERVAL);
        }
        self.clock.last = now;
        self.clock.due = self.stats.tried + self.clock.every;
        if self.next_progress.is_some() {
            self.report_progress(started);
        }
        // The observer's memory (a trace recorder's events) counts too.
        let observed = self.observer.memory_bytes();
        if observed > 0 && !self.domains.charge(observed) {
            return Some(StopReason::MemoryLimit);
        }
        self.out_of_time(started)
    }

    /// Calls the progress hook if it is due.
    #[cold]
    fn report_progress(&mut self, started: Instant) {
        let (Some(hook), Some(due)) = (&self.progress, self.next_progress) else {
            return;
        };
        let now = Instant::now();
        if now < due {
            return;
        }
        self.next_progress = Some(now + hook.every);
        (hook.call)(&crate::Progress {
            nodes: self.stats.tried,
            failures: self.stats.rejected,
            solutions: self.stats.solutions,
            depth: self.frames.len(),
            best: self.progress_best,
            elapsed: self.stats.elapsed + now.duration_since(started),
        });
    }

    /// The next node of the frame on top (`var`, `choice`, `value`),
    /// numbered, counted as tried, and written to the frame as its open node.
    /// The frame's copy is written from the same values, not copied from the
    /// node: a whole copy reads the node back in wide loads that straddle the
    /// narrow stores just made, a store-forwarding stall (`perf annotate` put
    /// 12% of `advance` on it in forward checking at n = 14; the time gained
    /// was about 1%).
    #[inline(always)]
    fn open_node(&mut self, top: &Frame, value: Value, choice: Choice) -> Node {
        let (id, depth) = (self.next_id, self.frames.len());
        self.next_id += 1;
        self.stats.tried += 1;
        let fields = |id, depth| Node {
            id,
            parent: top.parent,
            depth,
            var: top.var,
            value,
            choice,
        };
        if let Some(frame) = self.frames.last_mut() {
            frame.open = Some(fields(id, depth));
        }
        fields(id, depth)
    }

    /// Opens the second branch of the binary choice on top, `var != value`,
    /// and propagates. `Some(result)` when the search must return (a limit was
    /// reached inside the propagation).
    fn refute(&mut self, top: Frame, value: Value) -> Option<bool> {
        let node = self.open_node(&top, value, top.choice);
        if let Some(frame) = self.frames.last_mut() {
            frame.refuted = true;
        }
        self.domains.push_level();
        self.state.push_level();
        let result = self.exclude(&node);
        if let Some(reason) = self.changes.interrupted {
            return Some(self.stop(reason));
        }
        if self.domains.over_budget() {
            return Some(self.stop(StopReason::MemoryLimit));
        }
        self.bound_trail();
        match result {
            Ok(()) => {
                self.stats.accepted += 1;
                self.observer.on_refute(&node, None);
                self.need_frame = true;
            }
            Err(failure) => {
                self.observer.on_refute(&node, Some(&failure));
                return self.count_rejection();
            }
        }
        None
    }

    /// Opens the first half of the split on top (`var <= m`, or `var >= m + 1`
    /// for the upper half first) and propagates. The split counts as a
    /// decision until both halves are explored. `Some(result)` when the search
    /// must return.
    #[inline(never)]
    fn try_split(&mut self) -> Option<bool> {
        let top = *self.frames.last()?;
        // The domain is as when the frame was pushed: not fixed.
        let (lo, hi) = (self.domains.min(top.var), self.domains.max(top.var));
        let m = split_point(lo, hi);
        let value = if top.choice == Choice::LessEqual {
            m
        } else {
            m + 1
        };
        let node = self.open_node(&top, value, top.choice);
        self.observer.on_try(&node);
        if let Some(frame) = self.frames.last_mut() {
            frame.last = Some(value);
        }
        self.domains.push_level();
        self.state.push_level();
        self.num_decided += 1;
        let result = self.decide(&node);
        self.conclude(&node, result)
    }

    /// After a node's first branch (a value, or a split's half) was decided
    /// and propagated: a limit reached inside, the trail's budget, the
    /// statistics and the observer. `Some(result)` when the search must return.
    #[inline(always)]
    fn conclude(&mut self, node: &Node, result: Result<(), Failure>) -> Option<bool> {
        if let Some(reason) = self.changes.interrupted {
            return Some(self.stop(reason));
        }
        if self.domains.over_budget() {
            // A removal was refused for memory: this node proves nothing.
            return Some(self.stop(StopReason::MemoryLimit));
        }
        self.bound_trail();
        match result {
            Ok(()) => {
                self.stats.accepted += 1;
                self.stats.peak_depth = self.stats.peak_depth.max(self.num_decided as u64);
                if let Some(lb) = self.lookback.as_deref_mut() {
                    lb.accepted(self.frames.len());
                }
                self.observer.on_accept(node);
                self.need_frame = true;
            }
            Err(failure) => {
                if self.lookback.is_some() {
                    self.note_failure(&failure);
                }
                self.observer.on_reject(node, &failure);
                return self.count_rejection();
            }
        }
        None
    }

    /// Counts a rejected node; `Some(result)` when the failure limit, or the
    /// end of a restart run, stops the search here.
    #[inline(always)]
    fn count_rejection(&mut self) -> Option<bool> {
        self.stats.rejected += 1;
        if self.stats.rejected >= self.fail_mark
            && let Some(reason) = self.fail_mark_reached()
        {
            return Some(self.stop(reason));
        }
        None
    }

    /// Chooses a variable and lists its values. `false` if all are decided.
    pub(super) fn push_frame(&mut self) -> bool {
        // The incremental selection learns what changed since it last chose.
        let mut everything = false;
        if let Some(inc) = self.incremental.as_deref_mut() {
            let vars = self.domains.changed.drain(|v| inc.touch(v));
            let constraints = self
                .state
                .entailment_changed
                .drain(|c| inc.touch_constraint(c));
            everything = vars.is_err() || constraints.is_err();
        }
        let view = SearchView {
            domains: &self.domains,
            state: &self.state,
            decided: &self.decided,
            decision: self.decision_vars.as_deref(),
            watches: &self.watches,
            constraints: self.model.posted(),
            weights: &self.weights,
            afc: self.afc.counts(),
            skip_fixed: self.pruning == crate::Pruning::Propagators,
        };
        let chosen = match self.incremental.as_deref_mut() {
            Some(inc) => {
                let var = inc.select(&view, everything, self.afc.rescales());
                #[cfg(debug_assertions)]
                if inc.checked() {
                    debug_assert_eq!(var, self.var_sel.select(&view), "incremental selection");
                }
                var
            }
            None => self.var_sel.select(&view),
        };
        let Some(var) = chosen else {
            return false;
        };
        // A view chosen (by a heuristic that lists it) is branched on as its base.
        let mut var = match var.index() < self.decided.len() {
            true => var,
            false => self.domains.base_of(var),
        };
        let mut projected_out = false;
        if let Some(p) = self.projection.as_deref() {
            // Deeper than a frame pushed with the projection fixed, it still is.
            projected_out = self.frames.last().is_some_and(|f| f.projected_out);
            if !projected_out && !p.member[var.index()] {
                let open =
                    |&v: &crate::VarId| !self.decided[v.index()] && !self.domains.is_fixed(v);
                match p.vars.iter().copied().find(open) {
                    // The projection first, whatever the order chose.
                    Some(first) => var = first,
                    None => projected_out = true,
                }
            }
        }
        if self.observer.wants_details() {
            let mut cands = std::mem::take(&mut self.candidates);
            self.var_sel.candidates(&view, 8, &mut cands);
            self.observer.on_select(self.frames.len(), var, &cands);
            self.candidates = cands;
        } else {
            self.observer.on_select(self.frames.len(), var, &[]);
        }
        let start = self.values.len();
        let parent = self.frames.last().and_then(|f| f.open).map_or(0, |n| n.id);
        let mut choice = Choice::Equal;
        if self.binary
            && let Some(split) = self.val_sel.split(var)
            // A fixed variable (which only a custom selector returns) has
            // nothing to halve: one `=` node.
            && !self.domains.is_fixed(var)
        {
            choice = split;
        }
        let sweep = self.val_sel.sweep(var);
        if sweep.is_some() || choice != Choice::Equal {
            self.frames.push(Frame {
                var,
                start,
                next: start,
                end: start,
                sweep,
                last: None,
                open: None,
                binary: self.binary,
                choice,
                refuted: false,
                parent,
                projected_out,
            });
            return true;
        }
        // The values listed for each open decision, and the order's scratch
        // (the list, a score each), are charged to the memory limit: a
        // domain of 10^9 values is not listed.
        let width = self.domains.len(var);
        let listed = self.values.len().saturating_add(width).saturating_mul(8);
        let mut out = std::mem::take(&mut self.values);
        let mut scratch = std::mem::take(&mut self.buf);
        scratch.clear();
        // Past the budget the search stops (`run` sees it): the frame is
        // pushed empty, its values not listed.
        if self
            .domains
            .charge(listed.saturating_add(width.saturating_mul(24)))
        {
            let mut ctx = ValueContext {
                domains: &mut self.domains,
                state: &mut self.state,
                changes: &mut self.changes,
                constraints: self.model.posted(),
                watches: &self.watches,
                stats: &mut self.stats,
            };
            self.val_sel.order(var, &mut ctx, &mut scratch);
            out.extend_from_slice(&scratch);
        }
        self.buf = scratch;
        self.values = out;
        self.frames.push(Frame {
            var,
            start,
            next: start,
            end: self.values.len(),
            sweep: None,
            last: None,
            open: None,
            binary: self.binary,
            choice: Choice::Equal,
            refuted: false,
            parent,
            projected_out,
        });
        true
    }
}
