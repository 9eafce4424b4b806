//! The depth-first search: `Solver`, its configuration, and its results.

use std::collections::VecDeque;
use std::ops::{ControlFlow, Index};
use std::time::{Duration, Instant};

use crate::branching::{
    AnyValueSelector, AnyVariableSelector, SearchView, ValOrder, ValueContext, ValueSelector,
    VarOrder, VariableSelector,
};
use crate::context::{Changes, PropagationContext};
use crate::limits::{Limits, SearchStatus, StopReason};
use crate::observer::{
    Candidate, Failure, FailureKind, NoObserver, Node, PruneCause, SearchObserver,
};
use crate::{
    CancelFlag, Constraint, ConstraintId, CspError, Domains, Model, PropStatus, Pruning,
    SearchStats, StateLayout, TrailedState, Value, VarId,
};

/// How to search: the pruning level, the branching heuristics, and the limits.
///
/// ```
/// use csp_core::{Config, Pruning, VarOrder, ValOrder};
/// let config = Config::default()
///     .with_pruning(Pruning::ForwardChecking)
///     .with_var_order(VarOrder::FirstFail)
///     .with_val_order(ValOrder::MiddleOut)
///     .with_node_limit(1_000_000);
/// assert_eq!(config.limits.nodes, Some(1_000_000));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// How much to prune after each decision.
    pub pruning: Pruning,
    /// Which variable to decide next.
    pub var_order: VarOrder,
    /// In which order to try its values.
    pub val_order: ValOrder,
    /// When to stop early.
    pub limits: Limits,
}

impl Config {
    /// Sets the pruning level.
    pub fn with_pruning(mut self, pruning: Pruning) -> Self {
        self.pruning = pruning;
        self
    }

    /// Sets the variable order.
    pub fn with_var_order(mut self, order: VarOrder) -> Self {
        self.var_order = order;
        self
    }

    /// Sets the value order.
    pub fn with_val_order(mut self, order: ValOrder) -> Self {
        self.val_order = order;
        self
    }

    /// Sets all limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Stops after `nodes` values tried.
    pub fn with_node_limit(mut self, nodes: u64) -> Self {
        self.limits.nodes = Some(nodes);
        self
    }

    /// Stops after `time` of searching.
    pub fn with_time_limit(mut self, time: Duration) -> Self {
        self.limits.time = Some(time);
        self
    }

    /// Stops when `flag` is set.
    pub fn with_cancel_flag(mut self, flag: CancelFlag) -> Self {
        self.limits.cancel = Some(flag);
        self
    }
}

/// A solution: one value per variable of the model.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    values: Vec<Value>,
}

impl Solution {
    /// The values, indexed by variable index.
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// The value of `var`.
    pub fn value(&self, var: VarId) -> Value {
        self.values[var.index()]
    }

    /// The values of `vars`, in order.
    pub fn values_of(&self, vars: &[VarId]) -> Vec<Value> {
        vars.iter().map(|&v| self.value(v)).collect()
    }

    /// Consumes the solution, giving its values.
    pub fn into_values(self) -> Vec<Value> {
        self.values
    }
}

impl Index<VarId> for Solution {
    type Output = Value;

    fn index(&self, var: VarId) -> &Value {
        &self.values[var.index()]
    }
}

/// The result of [`Solver::first`].
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// The solution, if one was found.
    pub solution: Option<Solution>,
    /// `Paused` when a solution was found; `Complete` when there is none (a
    /// proof); `Stopped` when a limit ended the search first.
    pub status: SearchStatus,
    /// The work done.
    pub stats: SearchStats,
}

/// The result of [`Solver::count`].
#[derive(Clone, Debug)]
pub struct CountResult {
    /// Solutions found. Exact only if `status` is `Complete`.
    pub solutions: u64,
    /// `Complete`, or the limit that stopped the count.
    pub status: SearchStatus,
    /// The work done.
    pub stats: SearchStats,
}

impl CountResult {
    /// Whether `solutions` is the exact count.
    pub fn is_complete(&self) -> bool {
        self.status.is_complete()
    }
}

/// Minimise or maximise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Smallest value of the objective.
    Minimize,
    /// Largest value of the objective.
    Maximize,
}

/// The result of [`Solver::optimize`].
#[derive(Clone, Debug)]
pub struct Optimum {
    /// The best solution found.
    pub best: Option<Solution>,
    /// Its objective value.
    pub objective: Option<Value>,
    /// Every improving solution's objective value, in the order found.
    pub improvements: Vec<Value>,
    /// `Complete`: `best` is optimal (or, if `None`, there is no solution).
    /// `Stopped`: a limit ended the search; `best` is the best found.
    pub status: SearchStatus,
    /// The work done.
    pub stats: SearchStats,
}

/// An entry of a variable's watch list: a constraint on it and its position in
/// the constraint's scope.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watch {
    pub(crate) cid: u32,
    pub(crate) pos: u32,
}

/// One decision level of the search: a variable and the values left to try.
#[derive(Clone, Copy, Debug)]
struct Frame {
    var: VarId,
    /// Range of this frame's values in `Solver::values`.
    start: usize,
    next: usize,
    end: usize,
    /// The node (value) currently assigned, if its level is open.
    open: Option<Node>,
    /// The id of the node this frame branches from.
    parent: u64,
}

#[derive(Clone, Copy, Debug)]
struct Objective {
    var: VarId,
    goal: Goal,
    /// Values must be strictly better than this.
    bound: Option<Value>,
}

const CLOCK_INTERVAL: u64 = 256;

/// The backtracking search over a [`Model`].
///
/// Generic over its observer and heuristics so that the hot loop calls them
/// without dynamic dispatch; the defaults are [`NoObserver`] and the built-in
/// heuristics chosen in the [`Config`].
///
/// The search is resumable: [`next_solution`](Solver::next_solution) returns one
/// solution at a time, and the other methods are built on it.
///
/// ```
/// use csp_core::{Config, Model, Pruning, Solver};
/// // 4-queens, one variable per row, value = column.
/// let n = 4;
/// let mut m = Model::new();
/// let q = m.int_var_array("q", n, 0..=(n as i64 - 1))?;
/// for i in 0..n {
///     for j in i + 1..n {
///         let d = (j - i) as i64;
///         m.not_equal(q[i], q[j])?;
///         m.not_equal_offset(q[i], q[j], d)?;
///         m.not_equal_offset(q[i], q[j], -d)?;
///     }
/// }
/// let mut solver = Solver::new(&m, Config::default().with_pruning(Pruning::Check))?;
/// let first = solver.first();
/// assert_eq!(first.solution.unwrap().values_of(&q), vec![1, 3, 0, 2]);
/// assert_eq!((first.stats.tried, first.stats.accepted, first.stats.rejected), (26, 8, 18));
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub struct Solver<'m, O = NoObserver, V = AnyVariableSelector, L = AnyValueSelector> {
    model: &'m Model,
    pruning: Pruning,
    limits: Limits,
    var_sel: V,
    val_sel: L,
    observer: O,
    domains: Domains,
    /// The constraints' trailed state and entailment flags.
    state: TrailedState,
    watches: Vec<Vec<Watch>>,
    decided: Vec<bool>,
    num_decided: usize,
    frames: Vec<Frame>,
    values: Vec<Value>,
    queue: VecDeque<u32>,
    in_queue: Vec<bool>,
    changes: Changes,
    weights: Vec<u64>,
    stats: SearchStats,
    status: SearchStatus,
    root_failed: bool,
    need_frame: bool,
    next_id: u64,
    objective: Option<Objective>,
    buf: Vec<Value>,
    candidates: Vec<Candidate>,
    /// When splitting: stop descending at this many decisions and record the path.
    split_depth: Option<usize>,
    frontier: Vec<Vec<(VarId, Value)>>,
}

impl<'m> Solver<'m> {
    /// A solver for `model` with the heuristics and limits of `config`.
    ///
    /// Runs the root propagation of the pruning level at once, so
    /// [`domains`](Solver::domains) shows its effect.
    pub fn new(model: &'m Model, config: Config) -> Result<Self, CspError> {
        Solver::with_observer(model, config, NoObserver)
    }
}

impl<'m, O: SearchObserver> Solver<'m, O> {
    /// A solver that reports every event to `observer`.
    pub fn with_observer(model: &'m Model, config: Config, observer: O) -> Result<Self, CspError> {
        let var_sel = config.var_order.selector();
        let val_sel = config.val_order.selector();
        Solver::with_selectors(model, config, var_sel, val_sel, observer)
    }
}

impl<'m, O: SearchObserver, V: VariableSelector, L: ValueSelector> Solver<'m, O, V, L> {
    /// A solver with your own heuristics (the orders in `config` are ignored).
    pub fn with_selectors(
        model: &'m Model,
        config: Config,
        var_sel: V,
        val_sel: L,
        observer: O,
    ) -> Result<Self, CspError> {
        let n = model.num_vars();
        let m = model.num_constraints();
        let mut watches: Vec<Vec<Watch>> = vec![Vec::new(); n];
        for (cid, c) in model.posted().iter().enumerate() {
            let scope = c.scope();
            model.check_vars(c.name(), scope)?;
            for (pos, v) in scope.iter().enumerate() {
                let list = &mut watches[v.index()];
                if list.last().is_none_or(|w| w.cid != cid as u32) {
                    list.push(Watch {
                        cid: cid as u32,
                        pos: pos as u32,
                    });
                }
            }
        }
        let layouts: Vec<StateLayout> = model
            .posted()
            .iter()
            .map(|c| c.state_layout(config.pruning))
            .collect();
        let domains = Domains::new(model.declared());
        let mut changes = Changes::new(n);
        changes.track_changed = config.pruning >= Pruning::ArcConsistency;
        changes.record = observer.wants_details();
        let mut solver = Solver {
            model,
            pruning: config.pruning,
            limits: config.limits,
            var_sel,
            val_sel,
            observer,
            state: TrailedState::new(layouts.iter(), &domains),
            domains,
            watches,
            decided: vec![false; n],
            num_decided: 0,
            frames: Vec::new(),
            values: Vec::new(),
            queue: VecDeque::new(),
            in_queue: vec![false; m],
            changes,
            weights: vec![1; m],
            stats: SearchStats::default(),
            status: SearchStatus::Paused,
            root_failed: false,
            need_frame: true,
            next_id: 1,
            objective: None,
            buf: Vec::new(),
            candidates: Vec::new(),
            split_depth: None,
            frontier: Vec::new(),
        };
        solver.domains.push_level();
        solver.state.push_level();
        let started = Instant::now();
        solver.root_failed = solver.propagate_root().is_err();
        solver.stats.elapsed += started.elapsed();
        Ok(solver)
    }

    /// The model being searched.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// The current domains (after root propagation, or at the current node).
    pub fn domains(&self) -> &Domains {
        &self.domains
    }

    /// The statistics so far.
    pub fn stats(&self) -> &SearchStats {
        &self.stats
    }

    /// Where the search stands.
    pub fn status(&self) -> SearchStatus {
        self.status
    }

    /// The pruning level.
    pub fn pruning(&self) -> Pruning {
        self.pruning
    }

    /// The observer.
    pub fn observer(&self) -> &O {
        &self.observer
    }

    /// The observer, mutably.
    pub fn observer_mut(&mut self) -> &mut O {
        &mut self.observer
    }

    /// Ends the search, giving back the observer.
    pub fn into_observer(self) -> O {
        self.observer
    }

    // ------------------------------------------------------------------ results

    /// Searches for the first (next) solution.
    pub fn first(&mut self) -> SolveResult {
        let solution = self.next_solution();
        SolveResult {
            solution,
            status: self.status,
            stats: self.stats,
        }
    }

    /// Counts all remaining solutions without storing them. The count includes
    /// solutions already returned by earlier calls.
    pub fn count(&mut self) -> CountResult {
        while self.advance() {}
        CountResult {
            solutions: self.stats.solutions,
            status: self.status,
            stats: self.stats,
        }
    }

    /// Calls `f` with the values of each solution (indexed by variable) until it
    /// returns `ControlFlow::Break` or the search ends. Returns the final status
    /// (`Stopped(SolutionLimit)` if `f` stopped it).
    pub fn for_each_solution(
        &mut self,
        mut f: impl FnMut(&[Value]) -> ControlFlow<()>,
    ) -> SearchStatus {
        let mut buf = Vec::new();
        while self.advance() {
            buf.clear();
            buf.extend(self.model.vars().map(|v| self.domains.min(v)));
            if f(&buf).is_break() {
                if self.status == SearchStatus::Paused {
                    self.status = SearchStatus::Stopped(StopReason::SolutionLimit);
                }
                break;
            }
        }
        self.status
    }

    /// The solutions, lazily.
    pub fn solutions(&mut self) -> Solutions<'_, 'm, O, V, L> {
        Solutions { solver: self }
    }

    /// The next solution, or `None` when the search is complete or stopped (see
    /// [`status`](Solver::status)).
    pub fn next_solution(&mut self) -> Option<Solution> {
        self.advance().then(|| Solution {
            values: self.model.vars().map(|v| self.domains.min(v)).collect(),
        })
    }

    /// Makes `decisions` at the root, before any search, with the pruning level's
    /// propagation after each (as [`Subproblem`](crate::parallel::Subproblem)s
    /// replay their path). Returns `false` if they fail: the search then finds
    /// nothing. Call it before searching; decided variables are not branched on.
    pub fn assume(&mut self, decisions: &[(VarId, Value)]) -> Result<bool, CspError> {
        let vars: Vec<VarId> = decisions.iter().map(|d| d.0).collect();
        self.model.check_vars("assume", &vars)?;
        if !self.frames.is_empty() || self.stats.tried > 0 {
            return Err(CspError::InvalidArgument {
                context: "assume".into(),
                message: "decisions must be made before the search starts".into(),
            });
        }
        for &(var, value) in decisions {
            if self.root_failed {
                break;
            }
            if self.decided[var.index()] || !self.domains.contains(var, value) {
                self.root_failed =
                    !(self.decided[var.index()] && self.domains.value(var) == Some(value));
                continue;
            }
            let node = Node {
                id: 0,
                parent: 0,
                depth: 0,
                var,
                value,
            };
            self.decided[var.index()] = true;
            self.num_decided += 1;
            self.root_failed = self.decide(&node).is_err();
        }
        self.flush_pruned();
        Ok(!self.root_failed)
    }

    /// Explores the tree down to `depth` decisions and returns the decision paths
    /// of the nodes reached there, in search order: the roots of independent
    /// subproblems whose solutions, together with those found above `depth`,
    /// are exactly the model's. Solutions above `depth` are returned as paths
    /// too (complete ones), so every solution lies under exactly one path.
    pub fn split(&mut self, depth: usize) -> Vec<Vec<(VarId, Value)>> {
        self.split_depth = Some(depth);
        while let Some(sol) = self.next_solution() {
            let _ = sol;
            let path = self
                .frames
                .iter()
                .filter_map(|f| f.open)
                .map(|n| (n.var, n.value));
            self.frontier.push(path.collect());
        }
        self.split_depth = None;
        std::mem::take(&mut self.frontier)
    }

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

    // ------------------------------------------------------------------ engine

    /// Moves to the next solution; `false` when the search ended (complete or
    /// stopped).
    fn advance(&mut self) -> bool {
        if self.status != SearchStatus::Paused {
            return false;
        }
        let started = Instant::now();
        let found = self.run(started);
        self.flush_pruned();
        self.stats.elapsed += started.elapsed();
        found
    }

    /// Replaces the limits of a search that a node, failure or solution limit
    /// stopped, so that it goes on from where it stopped (the shared budgets of
    /// a parallel count hand out more work this way).
    pub(crate) fn raise_limits(&mut self, limits: Limits) {
        self.limits = limits;
        if matches!(
            self.status,
            SearchStatus::Stopped(
                StopReason::NodeLimit | StopReason::FailureLimit | StopReason::SolutionLimit
            )
        ) {
            self.status = SearchStatus::Paused;
        }
    }

    fn stop(&mut self, reason: StopReason) -> bool {
        self.status = SearchStatus::Stopped(reason);
        false
    }

    fn out_of_time(&self, started: Instant) -> Option<StopReason> {
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

    fn run(&mut self, started: Instant) -> bool {
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
                    continue;
                }
                if !self.push_frame() {
                    // Every variable is decided: a solution.
                    return self.found_solution();
                }
            }
            let Some(top) = self.frames.last_mut() else {
                self.status = SearchStatus::Complete;
                return false;
            };
            if top.open.take().is_some() {
                let var = top.var;
                self.domains.pop_level();
                self.state.pop_level();
                self.decided[var.index()] = false;
                self.num_decided -= 1;
            }
            let top = *top;
            if top.next == top.end {
                self.frames.pop();
                self.values.truncate(top.start);
                self.stats.backtracks += 1;
                self.observer.on_backtrack(self.frames.len() + 1, top.var);
                if self.frames.is_empty() {
                    self.status = SearchStatus::Complete;
                    return false;
                }
                continue;
            }
            if self.limits.nodes.is_some_and(|n| self.stats.tried >= n) {
                return self.stop(StopReason::NodeLimit);
            }
            // Checked before trying a value, so that at most `failures` happen.
            if self
                .limits
                .failures
                .is_some_and(|f| self.stats.rejected >= f)
            {
                return self.stop(StopReason::FailureLimit);
            }
            if self.stats.tried % CLOCK_INTERVAL == 0
                && let Some(reason) = self.out_of_time(started)
            {
                return self.stop(reason);
            }
            let value = self.values[top.next];
            let node = Node {
                id: self.next_id,
                parent: top.parent,
                depth: self.frames.len(),
                var: top.var,
                value,
            };
            self.next_id += 1;
            self.stats.tried += 1;
            self.observer.on_try(&node);
            if let Some(frame) = self.frames.last_mut() {
                frame.next += 1;
                frame.open = Some(node);
            }
            self.domains.push_level();
            self.state.push_level();
            self.decided[node.var.index()] = true;
            self.num_decided += 1;
            match self.decide(&node) {
                Ok(()) => {
                    self.stats.accepted += 1;
                    self.stats.peak_depth = self.stats.peak_depth.max(self.num_decided as u64);
                    self.observer.on_accept(&node);
                    self.need_frame = true;
                }
                Err(failure) => {
                    self.stats.rejected += 1;
                    self.observer.on_reject(&node, &failure);
                    if self
                        .limits
                        .failures
                        .is_some_and(|f| self.stats.rejected >= f)
                    {
                        return self.stop(StopReason::FailureLimit);
                    }
                }
            }
        }
    }

    fn found_solution(&mut self) -> bool {
        self.stats.solutions += 1;
        let last = self.frames.last().and_then(|f| f.open);
        if self.observer.wants_solutions() {
            self.buf.clear();
            let domains = &self.domains;
            self.buf.extend(self.model.vars().map(|v| domains.min(v)));
            self.observer.on_solution(last.as_ref(), &self.buf);
        }
        if self.frames.is_empty() {
            // A model with nothing to decide has exactly this one solution.
            self.status = SearchStatus::Complete;
        } else if self
            .limits
            .solutions
            .is_some_and(|s| self.stats.solutions >= s)
        {
            self.status = SearchStatus::Stopped(StopReason::SolutionLimit);
        }
        true
    }

    /// Chooses a variable and lists its values. `false` if all are decided.
    fn push_frame(&mut self) -> bool {
        let view = SearchView {
            domains: &self.domains,
            state: &self.state,
            decided: &self.decided,
            watches: &self.watches,
            constraints: self.model.posted(),
            weights: &self.weights,
        };
        let Some(var) = self.var_sel.select(&view) else {
            return false;
        };
        if self.observer.wants_details() {
            let mut cands = std::mem::take(&mut self.candidates);
            self.var_sel.candidates(&view, 8, &mut cands);
            self.observer.on_select(self.frames.len(), var, &cands);
            self.candidates = cands;
        } else {
            self.observer.on_select(self.frames.len(), var, &[]);
        }
        let start = self.values.len();
        let mut out = std::mem::take(&mut self.values);
        let mut scratch = std::mem::take(&mut self.buf);
        scratch.clear();
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
        }
        out.extend_from_slice(&scratch);
        self.buf = scratch;
        self.values = out;
        let parent = self.frames.last().and_then(|f| f.open).map_or(0, |n| n.id);
        self.frames.push(Frame {
            var,
            start,
            next: start,
            end: self.values.len(),
            open: None,
            parent,
        });
        true
    }

    // -------------------------------------------------------------- pruning

    fn fail(kind: FailureKind, cid: Option<usize>, var: Option<VarId>) -> Failure {
        Failure {
            kind,
            constraint: cid.map(ConstraintId::new),
            var,
        }
    }

    /// Assigns the node's value and runs the pruning level.
    fn decide(&mut self, node: &Node) -> Result<(), Failure> {
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
                for w in &self.watches[var.index()] {
                    let c = w.cid as usize;
                    self.stats.checks += 1;
                    if !constraints[c].promising(&self.domains) {
                        return Err(Self::fail(FailureKind::NotPromising, Some(c), None));
                    }
                }
                Ok(())
            }
            Pruning::ForwardChecking => {
                self.prune_objective(Some(node))?;
                let constraints = self.model.posted();
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
                        Some((var, w.pos as usize)),
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
                            self.weights[c] += 1;
                            return Err(Self::fail(FailureKind::Conflict, Some(c), conflict.var));
                        }
                    }
                }
                Ok(())
            }
            Pruning::ArcConsistency | Pruning::Propagators => {
                self.prune_objective(Some(node))?;
                self.schedule(var, None);
                self.run_queue(Some(node))
            }
        }
    }

    /// Copies the counters kept by the propagation context into the statistics
    /// (once per `advance`, at the root and after assumptions; not per node).
    fn flush_pruned(&mut self) {
        self.stats.pruned = self.changes.pruned;
        self.stats.revisions = self.changes.revisions;
    }

    fn report_prunes(
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
    fn check_complete(&mut self) -> Result<(), Failure> {
        for (c, con) in self.model.posted().iter().enumerate() {
            self.stats.checks += 1;
            self.buf.clear();
            let domains = &self.domains;
            self.buf.extend(con.scope().iter().map(|&v| domains.min(v)));
            if !con.check(&self.buf) {
                return Err(Self::fail(FailureKind::CheckFailed, Some(c), None));
            }
        }
        Ok(())
    }

    /// Under `None` and `Check`: rejects a fixed objective that does not improve.
    fn check_objective(&self) -> Result<(), Failure> {
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
    fn prune_objective(&mut self, node: Option<&Node>) -> Result<(), Failure> {
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
                self.changes.changed.clear();
                self.changes.in_changed[var.index()] = false;
                self.schedule(var, None);
                Ok(())
            }
            Ok(_) => Ok(()),
            Err(_) => Err(Self::fail(FailureKind::ObjectiveBound, None, Some(var))),
        }
    }

    /// Queues the constraints watching `var` (except `skip`).
    #[inline]
    fn schedule(&mut self, var: VarId, skip: Option<usize>) {
        for w in &self.watches[var.index()] {
            let c = w.cid as usize;
            if Some(c) != skip && !self.in_queue[c] && !self.state.is_entailed(c) {
                self.in_queue[c] = true;
                self.queue.push_back(w.cid);
            }
        }
    }

    /// AC-3 style propagation loop: runs queued constraints until none is left.
    fn run_queue(&mut self, node: Option<&Node>) -> Result<(), Failure> {
        let constraints = self.model.posted();
        while let Some(cid) = self.queue.pop_front() {
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
            let result = constraints[c].propagate(&mut ctx);
            if self.changes.record {
                Self::report_prunes(
                    &mut self.observer,
                    &mut self.changes,
                    node,
                    Some(c),
                    self.pruning,
                );
            }
            let status = match result {
                Ok(s) => s,
                Err(conflict) => {
                    self.weights[c] += 1;
                    for q in self.queue.drain(..) {
                        self.in_queue[q as usize] = false;
                    }
                    for v in self.changes.changed.drain(..) {
                        self.changes.in_changed[v.index()] = false;
                    }
                    return Err(Self::fail(FailureKind::Conflict, Some(c), conflict.var));
                }
            };
            if status == PropStatus::Entailed {
                self.state.set_entailed(c);
            }
            let skip = (status != PropStatus::Changed).then_some(c);
            let mut changed = std::mem::take(&mut self.changes.changed);
            for &v in &changed {
                self.changes.in_changed[v.index()] = false;
                self.schedule(v, skip);
            }
            changed.clear();
            self.changes.changed = changed;
        }
        Ok(())
    }

    /// The pruning level's work before the first decision.
    fn propagate_root(&mut self) -> Result<(), Failure> {
        let constraints = self.model.posted();
        let r = match self.pruning {
            Pruning::None => Ok(()),
            Pruning::Check => {
                for (c, con) in constraints.iter().enumerate() {
                    self.stats.checks += 1;
                    if !con.promising(&self.domains) {
                        return Err(Self::fail(FailureKind::NotPromising, Some(c), None));
                    }
                }
                Ok(())
            }
            Pruning::ForwardChecking => {
                for (c, con) in constraints.iter().enumerate() {
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
                    self.in_queue[c] = true;
                    self.queue.push_back(c as u32);
                }
                self.run_queue(None)
            }
        };
        self.flush_pruned();
        r
    }
}

/// Iterator over the solutions of a [`Solver`], from [`Solver::solutions`].
pub struct Solutions<'s, 'm, O, V, L> {
    solver: &'s mut Solver<'m, O, V, L>,
}

impl<O: SearchObserver, V: VariableSelector, L: ValueSelector> Iterator
    for Solutions<'_, '_, O, V, L>
{
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        self.solver.next_solution()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_models::queens;

    /// Wants every removal, which turns off the forward-checking fast path of
    /// all-different (decided variables skipped) in favour of the per-value one.
    struct Detailed;

    impl SearchObserver for Detailed {
        fn wants_details(&self) -> bool {
            true
        }
    }

    #[test]
    fn forward_checking_skipping_decided_variables_prunes_exactly_the_same() {
        for n in 1..=9 {
            let m = queens(n);
            for var in [VarOrder::Input, VarOrder::FirstFail] {
                let config = Config::default()
                    .with_pruning(Pruning::ForwardChecking)
                    .with_var_order(var);
                let mut solver = Solver::new(&m, config.clone()).unwrap();
                let fast = solver.count();
                let slow = Solver::with_observer(&m, config, Detailed).unwrap().count();
                let untimed = |mut stats: SearchStats| {
                    stats.elapsed = Duration::ZERO;
                    stats
                };
                assert_eq!(untimed(fast.stats), untimed(slow.stats), "n = {n}, {var}");
            }
        }
    }

    #[test]
    fn assume_after_the_search_started_is_an_error() {
        let m = queens(4);
        let mut s = Solver::new(&m, Config::default()).unwrap();
        assert!(s.first().solution.is_some());
        let e = s.assume(&[(VarId::new(0), 1)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "assume: decisions must be made before the search starts"
        );
    }

    #[test]
    fn a_variable_of_another_model_is_an_error_not_a_panic() {
        let m = queens(4);
        let mut s = Solver::new(&m, Config::default()).unwrap();
        let e = s.assume(&[(VarId::new(7), 0)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "assume: unknown variable #7 (the model has 4 variables)"
        );
        let e = s.minimize(VarId::new(4)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "optimize: unknown variable #4 (the model has 4 variables)"
        );
        let e = s.maximize(VarId::new(9)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "optimize: unknown variable #9 (the model has 4 variables)"
        );
        // The failed calls left the search untouched.
        assert_eq!(s.count().solutions, 2);
    }

    #[test]
    fn zero_limits_stop_before_the_first_node() {
        let m = queens(4);
        let r = Solver::new(&m, Config::default().with_node_limit(0))
            .unwrap()
            .first();
        assert_eq!(
            (r.solution.is_none(), r.status, r.stats.tried),
            (true, SearchStatus::Stopped(StopReason::NodeLimit), 0)
        );
        let r = Solver::new(&m, Config::default().with_time_limit(Duration::ZERO))
            .unwrap()
            .count();
        assert_eq!(
            (r.solutions, r.status, r.stats.tried),
            (0, SearchStatus::Stopped(StopReason::TimeLimit), 0)
        );
        let flag = CancelFlag::new();
        flag.cancel();
        let r = Solver::new(&m, Config::default().with_cancel_flag(flag))
            .unwrap()
            .count();
        assert_eq!(
            (r.solutions, r.status, r.stats.tried),
            (0, SearchStatus::Stopped(StopReason::Cancelled), 0)
        );
    }
}
