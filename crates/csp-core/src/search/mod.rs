//! The depth-first search: `Solver`, its configuration, and its results.
//!
//! - [`config`]: how to search; [`results`]: what a search returns;
//! - `run`: the loop (choose a variable, try its values, backtrack, limits);
//! - `propagate`: the pruning level's work after each decision;
//! - `optimize`: branch and bound; `split`: assumptions and subproblems.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::branching::{
    AnyValueSelector, AnyVariableSelector, Sweep, ValueSelector, VariableSelector,
};
use crate::context::Changes;
use crate::domains::DomainSnapshot;
use crate::limits::{Limits, SearchStatus, StopReason};
use crate::observer::{Candidate, Choice, NoObserver, Node, SearchObserver};
use crate::state::StateSnapshot;
use crate::{
    Constraint, CspError, Domains, Events, Model, Posted, Pruning, SearchStats, StateLayout,
    TrailedState, Value, VarId,
};

mod config;
mod event_watches;
mod fifo;
mod found;
mod lookback;
mod nogoods;
mod optimize;
mod propagate;
mod recompute;
mod restart;
mod results;
mod run;
mod select;
mod split;
#[cfg(test)]
mod tests;

pub use config::{
    Config, DEFAULT_MEMORY_LIMIT, DEFAULT_NOGOOD_LIMIT, DEFAULT_RESTARTS, DEFAULT_TRAIL_BUDGET,
    DEFAULT_VAR_ORDER,
};
use optimize::Objective;
pub use restart::Restarts;
pub use results::{CountResult, Goal, Optimum, Solution, Solutions, SolveResult};

/// An entry of a variable's watch list: a constraint on it and its position in
/// the constraint's scope.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watch {
    pub(crate) cid: u32,
    pub(crate) pos: u32,
    /// The variable at `pos` in the constraint's scope: the watched
    /// variable, or a view of it (a view's watches are its base's).
    pub(crate) var: u32,
    /// The events that wake the constraint (all of them below the
    /// propagators level).
    pub(crate) events: u8,
    /// Whether the constraint's wake set filters this watch
    /// ([`Constraint::wake_set`]).
    pub(crate) masked: bool,
    /// Whether the constraint asked for its changed positions
    /// ([`StateLayout::woken`](crate::StateLayout::woken)).
    pub(crate) report: bool,
}

/// One decision level of the search: a variable and the values left to try.
#[derive(Clone, Copy, Debug)]
struct Frame {
    var: VarId,
    /// Range of this frame's values in `Solver::values` (empty for a sweep).
    start: usize,
    next: usize,
    end: usize,
    /// A sweep of the domain instead of a list, with the value tried last.
    sweep: Option<Sweep>,
    last: Option<Value>,
    /// The node (value) currently assigned, if its level is open.
    open: Option<Node>,
    /// A binary choice: one value, then its refutation.
    binary: bool,
    /// `Equal` for values; a split's first half otherwise (binary only).
    choice: Choice,
    /// A binary choice's second branch (`var != last`) is open or done.
    refuted: bool,
    /// The id of the node this frame branches from.
    parent: u64,
    /// Pushed once every projection variable was fixed
    /// ([`Config::with_projection`]): after a solution, its other branches
    /// are skipped.
    projected_out: bool,
}

impl Frame {
    /// Whether the open branch assigns `var` (marks it decided): a value
    /// tried, not its refutation and not a split's half.
    #[inline]
    fn assigns(&self) -> bool {
        !self.refuted && self.choice == Choice::Equal
    }
}

/// `vars` as the variables they stand for (a view for its base), each once,
/// where it comes first.
fn as_bases(vars: Vec<VarId>, n_vars: usize, base_of: &impl Fn(VarId) -> VarId) -> Vec<VarId> {
    let mut seen = vec![false; n_vars];
    vars.into_iter()
        .map(base_of)
        .filter(|v| !std::mem::replace(&mut seen[v.index()], true))
        .collect()
}

/// The most nodes between two readings of the clock (see `read_clock`).
const CLOCK_INTERVAL: u64 = 256;

/// When the search reads the clock next (see `read_clock`).
#[derive(Clone, Copy, Debug)]
struct Clock {
    /// The node count at which to read it.
    due: u64,
    /// Nodes between two readings: 1 to [`CLOCK_INTERVAL`], adapted to the
    /// cost of a node.
    every: u64,
    last: Instant,
}

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
/// let mut solver = Solver::new(&m, Config::textbook().with_pruning(Pruning::Check))?;
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
    /// At the propagators level, the watches grouped by event
    /// (`event_watches.rs`); empty below it.
    event_watches: event_watches::EventWatches,
    decided: Vec<bool>,
    /// Open decisions: variables assigned by a decision, and splits not yet
    /// fully explored (only the propagators level splits, so at the other
    /// levels it counts assigned variables).
    num_decided: usize,
    frames: Vec<Frame>,
    values: Vec<Value>,
    /// The propagation queue, one FIFO per [`PropCost`](crate::PropCost).
    queue: [fifo::Fifo; 3],
    in_queue: Vec<bool>,
    /// Per constraint: its queue, and whether its own changes wake it.
    cost: Vec<u8>,
    idempotent: Vec<bool>,
    /// At the propagators level, per constraint, its two-term sum form
    /// (reified or not) if it has one (empty below that level): the
    /// commonest propagators run from a dense array, without touching the
    /// posted constraint.
    dense: Vec<Option<crate::constraints::Dense>>,
    changes: Changes,
    weights: Vec<u64>,
    /// Aged failure counts per constraint ([`AfcSize`](crate::branching::AfcSize)),
    /// kept only if the variable selector reads them.
    afc: crate::branching::Afc,
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
    /// The variables to branch on first, if not all ([`Config::with_decision_vars`]).
    decision_vars: Option<Vec<VarId>>,
    /// The projection ([`Config::with_projection`]), if any.
    projection: Option<Box<Projection>>,
    /// Binary choices ([`Config::with_binary_branching`], propagators level).
    binary: bool,
    /// The undo information's budget ([`Config::with_trail_budget`]).
    trail_budget: Option<usize>,
    /// The domains and state to recompute from (after the root propagation
    /// and any assumptions), kept while a budget is set.
    snapshot: Option<Box<(DomainSnapshot, StateSnapshot)>>,
    /// The restart policy ([`Config::with_restarts`]).
    restart_policy: Restarts,
    /// The failure count at which the current run ends (`u64::MAX`: never).
    restart_at: u64,
    /// The failure count at which the search must look up: the smaller of
    /// the failure limit and `restart_at` (one comparison per failure).
    fail_mark: u64,
    /// The heartbeat ([`Config::with_progress`]), when it is next due, and the
    /// best objective value so far (for its report).
    progress: Option<crate::ProgressHook>,
    next_progress: Option<Instant>,
    progress_best: Option<crate::Value>,
    /// Re-check each solution ([`Config::with_solution_check`], always in
    /// debug builds), and the constraint that refused one.
    check_solutions: bool,
    invalid: Option<crate::ConstraintId>,
    clock: Clock,
    /// The built-in variable order kept incrementally (`select.rs`).
    incremental: Option<Box<select::Incremental>>,
    /// The constraints searched, if not all ([`Config::with_active_constraints`]).
    active: Option<std::sync::Arc<[bool]>>,
    /// Conflict sets and removal reasons ([`Config::with_backjumping`]);
    /// `None` for chronological backtracking.
    lookback: Option<Box<lookback::LookBack>>,
    /// The nogoods recorded at restarts ([`Config::with_nogoods`]).
    nogoods: Option<Box<nogoods::Nogoods>>,
}

/// The variables solutions are told apart by ([`Config::with_projection`]).
#[derive(Debug)]
struct Projection {
    /// The projection variables as bases, each once, in the order given.
    vars: Vec<VarId>,
    /// Whether each variable (by index) is one of them.
    member: Vec<bool>,
    /// A solution was just found: the frames pushed with every projection
    /// variable fixed are skipped on the way back.
    skipping: bool,
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
        // The limits count the solver's setup too (watch lists for a large
        // model take tens of milliseconds).
        let started = Instant::now();
        let n = model.num_vars();
        let m = model.num_constraints();
        config.restarts.check()?;
        if let Some(active) = &config.active_constraints
            && active.len() != m
        {
            return Err(CspError::LengthMismatch {
                context: "active constraints".into(),
                what: "the mask".into(),
                expected: m,
                got: active.len(),
            });
        }
        let active = config.active_constraints.clone();
        let is_active = |c: usize| active.as_ref().is_none_or(|a| a[c]);
        config.backjumping.check(config.pruning)?;
        if config.nogoods {
            if config.restarts == Restarts::Never {
                return Err(CspError::UnsupportedNogoods {
                    reason: "needs restarts: nogoods are recorded when a run ends \
                             (Config::with_restarts, --restart)"
                        .into(),
                });
            }
            if config.pruning < Pruning::ArcConsistency {
                return Err(CspError::UnsupportedNogoods {
                    reason: format!(
                        "needs pruning ac or propagators (nogoods are propagated with \
                         the constraints' queue), not {}",
                        config.pruning
                    ),
                });
            }
            if config.nogood_limit == 0 {
                return Err(CspError::InvalidArgument {
                    context: "nogoods".into(),
                    message: "the store's limit must be at least 1".into(),
                });
            }
        }
        if config.pruning < Pruning::Propagators {
            model.check_narrow(config.pruning)?;
        }
        // Views follow the variables (ids `n_vars..n`), decided with their base.
        let views = model.views_last()?;
        let n_vars = n - views.len();
        let bases: Vec<VarId> = views.iter().map(|w| w.base()).collect();
        let base_of = |v: VarId| match v.index().checked_sub(n_vars) {
            Some(k) => bases[k],
            None => v,
        };
        if let Some(vars) = &config.decision_vars {
            model.check_vars("decision variables", vars)?;
            let mut seen = vec![false; n];
            for v in vars {
                if std::mem::replace(&mut seen[v.index()], true) {
                    return Err(CspError::InvalidArgument {
                        context: "decision variables".into(),
                        message: format!("{v} is listed twice"),
                    });
                }
            }
        }
        if let Some(vars) = &config.projection {
            model.check_vars("projection", vars)?;
        }
        // The kernel's scheduling (events, costs, idempotence) serves the
        // propagators level; arc consistency keeps the textbook's one FIFO
        // queue, woken by every change.
        let kernel = config.pruning == Pruning::Propagators;
        let layouts: Vec<StateLayout> = model
            .posted()
            .iter()
            .map(|c| c.state_layout(config.pruning))
            .collect();
        let mut watches: Vec<Vec<Watch>> = vec![Vec::new(); n];
        let mut cost = Vec::with_capacity(m);
        let mut idempotent = Vec::with_capacity(m);
        for (cid, c) in model.posted().iter().enumerate() {
            let scope = c.scope();
            model.check_vars(c.name(), scope)?;
            let masked = kernel && c.wake_set().is_some();
            let report = kernel && layouts[cid].wants_woken();
            // A view and its base (or two views of one base) in one scope:
            // a removal through one position takes values from the other, so
            // a call may not reach its own fixpoint whatever the constraint
            // says of itself.
            let mut aliased = false;
            // An inactive constraint has no watch: nothing wakes it.
            for (pos, &v) in scope.iter().enumerate().filter(|_| is_active(cid)) {
                let mut events = if kernel {
                    c.events(pos).bits()
                } else {
                    Events::ANY.bits()
                };
                // A watch on a view is a watch on its base, woken by the
                // base's events that are the view's (a negative scale swaps
                // the bounds).
                if let Some(k) = v.index().checked_sub(n_vars) {
                    events = views[k].base_events(events);
                }
                let list = &mut watches[base_of(v).index()];
                aliased |= list
                    .last()
                    .is_some_and(|w| w.cid == cid as u32 && w.var != v.index() as u32);
                match list.last_mut() {
                    // A variable twice in a scope: one watch, woken by either.
                    Some(w) if w.cid == cid as u32 && w.var == v.index() as u32 => {
                        w.events |= events;
                        w.masked = false;
                    }
                    _ => list.push(Watch {
                        cid: cid as u32,
                        pos: pos as u32,
                        var: v.index() as u32,
                        events,
                        masked,
                        report,
                    }),
                }
            }
            cost.push(if kernel { c.cost() as u8 } else { 1 });
            idempotent.push(kernel && c.idempotent() && !aliased);
        }
        let dense = if kernel {
            model
                .posted()
                .iter()
                .map(crate::model::Posted::dense)
                .collect()
        } else {
            Vec::new()
        };
        let mut domains = Domains::with_views(model.declared(), views, config.lazy_bits_above);
        if let Some(limit) = config.memory_limit {
            // The tables' rows and supports are charged beside the domains.
            let tables: usize = model
                .posted()
                .iter()
                .map(|c| match c {
                    Posted::Table(t) => t.bytes(),
                    _ => 0,
                })
                .sum();
            let needed = (domains.bytes() as u64).saturating_add(tables as u64);
            if needed > limit {
                return Err(CspError::MemoryLimit {
                    what: if tables > 0 {
                        "the domains and tables".into()
                    } else {
                        "the domains".into()
                    },
                    needed,
                    limit,
                });
            }
            domains.set_budget(
                usize::try_from(limit)
                    .unwrap_or(usize::MAX)
                    .saturating_sub(tables),
            );
        }
        let mut state = TrailedState::new(layouts.iter(), &mut domains);
        for (cid, c) in model.posted().iter().enumerate() {
            let invalid = |message| CspError::InvalidArgument {
                context: c.name().into(),
                message,
            };
            if let Some(step) = c.forward_step() {
                state.add_step(cid, step, c.scope()).map_err(invalid)?;
            }
            if kernel && let Some(set) = c.wake_set() {
                state
                    .add_wake_set(cid, set, c.scope().len())
                    .map_err(invalid)?;
            }
        }
        let mut changes = Changes::new(n);
        changes.track_changed = config.pruning >= Pruning::ArcConsistency;
        let lookback = lookback::LookBack::new(config.backjumping, n_vars);
        // Look-back under forward checking needs each changed variable.
        changes.track_changed |= lookback.is_some();
        changes.record = observer.wants_details();
        let afc = crate::branching::Afc::new(m, var_sel.reads_afc());
        let mut solver = Solver {
            model,
            pruning: config.pruning,
            limits: config.limits,
            var_sel,
            val_sel,
            observer,
            state,
            domains,
            event_watches: if kernel {
                event_watches::EventWatches::new(&watches)
            } else {
                Default::default()
            },
            watches,
            // Views are never decided: only the variables have a flag.
            decided: vec![false; n_vars],
            num_decided: 0,
            frames: Vec::new(),
            values: Vec::new(),
            queue: Default::default(),
            in_queue: vec![false; m],
            cost,
            idempotent,
            dense,
            changes,
            weights: vec![1; m],
            afc,
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
            // The projection is decided first unless decision variables are
            // listed.
            decision_vars: config
                .decision_vars
                .or_else(|| config.projection.clone())
                .map(|vars| as_bases(vars, n_vars, &base_of)),
            projection: config.projection.map(|vars| {
                let vars = as_bases(vars, n_vars, &base_of);
                let mut member = vec![false; n_vars];
                for v in &vars {
                    member[v.index()] = true;
                }
                Box::new(Projection {
                    vars,
                    member,
                    skipping: false,
                })
            }),
            binary: config.binary_branching && config.pruning == Pruning::Propagators,
            trail_budget: config.trail_budget,
            snapshot: None,
            restart_policy: config.restarts,
            restart_at: config.restarts.budget(0),
            fail_mark: u64::MAX,
            next_progress: config.progress.as_ref().map(|h| started + h.every),
            progress: config.progress,
            progress_best: None,
            check_solutions: config.solution_check || cfg!(debug_assertions),
            invalid: None,
            clock: Clock {
                due: 0,
                every: 1,
                last: started,
            },
            incremental: None,
            active,
            lookback,
            nogoods: config
                .nogoods
                .then(|| Box::new(nogoods::Nogoods::new(n_vars, config.nogood_limit))),
        };
        solver.update_fail_mark();
        solver.domains.push_level();
        solver.state.push_level();
        // The limits hold during the root propagation too.
        solver.changes.deadline = solver.limits.time.map(|t| started + t);
        solver.changes.cancel = solver.limits.cancel.clone();
        solver.root_failed = solver.propagate_root().is_err();
        solver.take_snapshot();
        solver.start_incremental();
        solver.stats.elapsed += started.elapsed();
        Ok(solver)
    }

    /// Keeps the variable order incrementally if it is a built-in one
    /// (`select.rs`): the domains and the state log their changes from now on.
    fn start_incremental(&mut self) {
        let order = self.var_sel.builtin_order();
        let inc = order.and_then(|order| {
            select::Incremental::new(order, self.decided.len(), self.decision_vars.as_deref())
        });
        if let Some(inc) = inc {
            self.domains.changed.start(self.decided.len());
            self.state
                .entailment_changed
                .start(self.model.num_constraints());
            self.incremental = Some(Box::new(inc));
        }
    }

    /// Marks `var` (a variable, not a view) decided or not.
    #[inline]
    fn set_decided(&mut self, var: VarId, decided: bool) {
        self.decided[var.index()] = decided;
        if let Some(inc) = &mut self.incremental {
            inc.touch(var.index());
        }
    }

    /// Constraint `c` failed: its weight (dom/wdeg) and aged failure count
    /// (afc/size) grow.
    #[inline]
    fn blame(&mut self, c: usize) {
        self.weights[c] += 1;
        self.afc.bump(c);
        if let Some(inc) = &mut self.incremental {
            inc.touch_constraint(c);
        }
    }

    /// `var = value` as a decision on a variable: a view's base takes the
    /// preimage (`None` if there is none).
    fn on_base(&self, var: VarId, value: Value) -> Option<(VarId, Value)> {
        match self.domains.view_of(var) {
            Some(w) => w.preimage(value).map(|x| (w.base(), x)),
            None => Some((var, value)),
        }
    }

    /// Whether the search honours constraint `c` ([`Config::with_active_constraints`]).
    #[inline]
    pub(crate) fn is_active(&self, c: usize) -> bool {
        self.active.as_ref().is_none_or(|a| a[c])
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

    /// The constraint (its id and name) whose `check` refused a solution the
    /// search reached, if one did (the search then stopped with
    /// [`StopReason::InvalidSolution`](crate::StopReason::InvalidSolution);
    /// see [`Config::with_solution_check`]).
    pub fn invalid_solution(&self) -> Option<(crate::ConstraintId, String)> {
        let id = self.invalid?;
        let name = self
            .model
            .constraint(id)
            .map_or_else(String::new, |c| c.name().to_string());
        Some((id, name))
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
}
