//! `Config`: how to search (pruning level, heuristics, limits).

use std::time::Duration;

mod learning;

use crate::{
    Backjumping, CancelFlag, Limits, ProgressHook, Pruning, Restarts, ValOrder, VarId, VarOrder,
};

/// How to search: the pruning level, the branching heuristics, and the limits.
///
/// ```
/// use csp_core::{Config, Pruning, VarOrder, ValOrder};
/// let config = Config::textbook()
///     .with_pruning(Pruning::ForwardChecking)
///     .with_var_order(VarOrder::FirstFail)
///     .with_val_order(ValOrder::MiddleOut)
///     .with_node_limit(1_000_000);
/// assert_eq!(config.limits.nodes, Some(1_000_000));
/// ```
#[derive(Clone, Debug)]
pub struct Config {
    /// How much to prune after each decision.
    pub pruning: Pruning,
    /// How far to go back after a dead end (see
    /// [`with_backjumping`](Config::with_backjumping)).
    pub backjumping: Backjumping,
    /// Which variable to decide next.
    pub var_order: VarOrder,
    /// In which order to try its values.
    pub val_order: ValOrder,
    /// When to stop early.
    pub limits: Limits,
    /// The variables to branch on, if not all (see
    /// [`with_decision_vars`](Config::with_decision_vars)).
    pub decision_vars: Option<Vec<VarId>>,
    /// The variables solutions are told apart by, if not all (see
    /// [`with_projection`](Config::with_projection)).
    pub projection: Option<Vec<VarId>>,
    /// Binary choices at the propagators level (see
    /// [`with_binary_branching`](Config::with_binary_branching)).
    pub binary_branching: bool,
    /// The memory the undo information may take before the search drops the
    /// oldest of it and recomputes instead (see
    /// [`with_trail_budget`](Config::with_trail_budget)).
    pub trail_budget: Option<usize>,
    /// Ranges wider than this start as intervals without bits (see
    /// [`with_lazy_bits_above`](Config::with_lazy_bits_above)).
    pub lazy_bits_above: u64,
    /// When to start again from the root (see
    /// [`with_restarts`](Config::with_restarts)).
    pub restarts: Restarts,
    /// A heartbeat while searching (see
    /// [`with_progress`](Config::with_progress)).
    pub progress: Option<ProgressHook>,
    /// Re-check every solution with each constraint's `check` (see
    /// [`with_solution_check`](Config::with_solution_check)).
    pub solution_check: bool,
    /// The memory the domains may take, in bytes (see
    /// [`with_memory_limit`](Config::with_memory_limit)).
    pub memory_limit: Option<u64>,
    /// The constraints the search honours, if not all (see
    /// [`with_active_constraints`](Config::with_active_constraints)).
    pub active_constraints: Option<std::sync::Arc<[bool]>>,
    /// Record nogoods at each restart (see
    /// [`with_nogoods`](Config::with_nogoods)).
    pub nogoods: bool,
    /// The most nogoods kept at once (see
    /// [`with_nogood_limit`](Config::with_nogood_limit)).
    pub nogood_limit: usize,
}

/// The default [`Config::memory_limit`]: 4 GiB.
pub const DEFAULT_MEMORY_LIMIT: u64 = 4 << 30;

/// The default [`Config::nogood_limit`]: 100,000 nogoods.
pub const DEFAULT_NOGOOD_LIMIT: usize = 100_000;

/// The default [`Config::trail_budget`]: 64 MiB.
pub const DEFAULT_TRAIL_BUDGET: usize = 64 << 20;

impl Default for Config {
    /// The strongest general-purpose search, for a model of your own:
    /// [`Pruning::Propagators`] (each constraint's strongest filtering, to a
    /// fixpoint), the learning variable order [`DEFAULT_VAR_ORDER`]
    /// (afc/size, Gecode's default), ascending values, binary choices
    /// (`x = v`, then `x != v`), restarts [`DEFAULT_RESTARTS`], no limits.
    /// The textbook strategies are one call away: [`Config::textbook`].
    ///
    /// Nodes, failures and every other counter mean what they mean under
    /// any strategy ([`SearchStats`](crate::SearchStats)): a binary choice's
    /// second branch (`x != v`) is a node too.
    ///
    /// ```
    /// use csp_core::{Config, Pruning, Restarts, Solver, VarOrder};
    /// let config = Config::default();
    /// assert_eq!(config.pruning, Pruning::Propagators);
    /// assert_eq!(config.var_order, VarOrder::AfcSize);
    /// assert!(config.binary_branching);
    /// let (m, _) = csp_core::models::queens(8)?;
    /// assert_eq!(Solver::new(&m, config)?.count().solutions, 92);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    fn default() -> Self {
        Config {
            pruning: Pruning::Propagators,
            var_order: DEFAULT_VAR_ORDER,
            binary_branching: true,
            restarts: DEFAULT_RESTARTS,
            ..Config::textbook()
        }
    }
}

/// [`Config::default`]'s variable order: afc/size ([`VarOrder::AfcSize`]).
/// Measured against dom/wdeg on the shared MiniZinc set and the examples
/// (docs/search.md, "The default search").
pub const DEFAULT_VAR_ORDER: VarOrder = VarOrder::AfcSize;

/// [`Config::default`]'s restarts: none ([`Restarts::Never`]). Measured on
/// the shared MiniZinc set and the examples (docs/search.md, "The default
/// search"); [`Config::with_restarts`] turns them on.
pub const DEFAULT_RESTARTS: Restarts = Restarts::Never;

impl Config {
    /// The textbook search: the classic *promising* check
    /// ([`Pruning::Check`]), variables in input order, values ascending, one
    /// value of one variable at a time, no restarts, no limits. This is
    /// the search of the classic programs and of every textbook figure
    /// (15,720 nodes for all solutions of 8-queens); start from it to see
    /// what each pruning level and heuristic does
    /// (`Config::textbook().with_pruning(Pruning::ForwardChecking)`). For a
    /// model you want solved, [`Config::default`] is much stronger.
    ///
    /// ```
    /// use csp_core::{Config, Solver};
    /// let (m, _) = csp_core::models::pairwise_queens(8)?;
    /// let count = Solver::new(&m, Config::textbook())?.count();
    /// assert_eq!((count.solutions, count.stats.tried), (92, 15_720));
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn textbook() -> Self {
        Config {
            pruning: Pruning::Check,
            backjumping: Backjumping::None,
            var_order: VarOrder::Input,
            val_order: ValOrder::Ascending,
            limits: Limits::default(),
            decision_vars: None,
            projection: None,
            binary_branching: false,
            trail_budget: Some(DEFAULT_TRAIL_BUDGET),
            lazy_bits_above: crate::domains::DEFAULT_LAZY_BITS_ABOVE,
            restarts: Restarts::Never,
            progress: None,
            solution_check: false,
            memory_limit: Some(DEFAULT_MEMORY_LIMIT),
            active_constraints: None,
            nogoods: false,
            nogood_limit: DEFAULT_NOGOOD_LIMIT,
        }
    }

    /// Bounds the memory of the domains to about `bytes` (`None`: no bound;
    /// default [`DEFAULT_MEMORY_LIMIT`], 4 GiB). [`Solver::new`](crate::Solver::new)
    /// refuses a model whose domains already need more
    /// ([`CspError::MemoryLimit`](crate::CspError::MemoryLimit)); during the
    /// search, a range of more than 64 values (kept as bounds, without bits)
    /// gets its bits when a value inside it must go (a span of more than 2^16
    /// values gets a hole in a list instead), and if that would pass the
    /// limit the search stops with
    /// [`StopReason::MemoryLimit`](crate::StopReason::MemoryLimit): never
    /// an abort, and nothing claimed complete. The undo information has a
    /// budget of its own ([`with_trail_budget`](Config::with_trail_budget)).
    ///
    /// ```
    /// use csp_core::{Config, CspError, Model, Pruning, Solver, StopReason, SearchStatus};
    /// // A million variables of 60,000 values each (under the 2^16 values
    /// // above which a variable keeps a list of holes instead): 7.5 GB as bits.
    /// let mut m = Model::new();
    /// let v = m.int_var_array("v", 1_000_000, 0..=59_999)?;
    /// m.all_different(&v)?;
    /// let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
    /// let mut s = Solver::new(&m, config.with_memory_limit(Some(64 << 20)))?;
    /// let r = s.first();
    /// assert_eq!(r.status, SearchStatus::Stopped(StopReason::MemoryLimit));
    /// # Ok::<(), CspError>(())
    /// ```
    pub fn with_memory_limit(mut self, bytes: Option<u64>) -> Self {
        self.memory_limit = bytes;
        self
    }

    /// Re-checks every solution the search reaches with each constraint's
    /// `check` before reporting it. A solution that fails one means that a
    /// constraint's `promising` or `propagate` let a wrong assignment through
    /// (a constraint of yours that lies): the search stops with
    /// [`StopReason::InvalidSolution`](crate::StopReason::InvalidSolution), so
    /// no count or optimum is claimed complete, and
    /// [`Solver::invalid_solution`](crate::Solver::invalid_solution) names the
    /// constraint. Always on in debug builds (`debug_assertions`); off by
    /// default in release builds, where it costs one `check` per constraint
    /// per solution.
    ///
    /// ```
    /// use csp_core::*;
    /// /// Says "promising" to everything, yet x + y must be 3.
    /// struct Liar([VarId; 2]);
    /// impl Constraint for Liar {
    ///     fn scope(&self) -> &[VarId] { &self.0 }
    ///     fn check(&self, v: &[Value]) -> bool { v[0] + v[1] == 3 }
    ///     fn promising(&self, _: &Domains) -> bool { true }
    ///     fn name(&self) -> &str { "liar" }
    /// }
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=3)?;
    /// let y = m.int_var(0..=3)?;
    /// m.post(Liar([x, y]))?;
    /// let mut s = Solver::new(&m, Config::textbook().with_solution_check(true))?;
    /// let r = s.count();
    /// assert_eq!(r.status, SearchStatus::Stopped(StopReason::InvalidSolution));
    /// assert!(!r.is_complete());
    /// assert_eq!(s.invalid_solution().map(|(_, name)| name), Some("liar".to_string()));
    /// # Ok::<(), CspError>(())
    /// ```
    pub fn with_solution_check(mut self, on: bool) -> Self {
        self.solution_check = on;
        self
    }

    /// Calls `hook` with the search's [`Progress`](crate::Progress) (nodes,
    /// failures, solutions, depth, best objective, elapsed time) at most once
    /// per `every` while a search runs, so that a long search shows it is
    /// alive. The clock is read where the time limit is (every 256 nodes), so
    /// a call may come later than `every`, never earlier. The hook runs on the
    /// searching thread: keep it quick.
    ///
    /// ```
    /// use std::sync::{Arc, atomic::{AtomicU64, Ordering}};
    /// use std::time::Duration;
    /// use csp_core::{Config, Solver};
    /// let (m, _) = csp_core::models::queens(9)?;
    /// let calls = Arc::new(AtomicU64::new(0));
    /// let seen = calls.clone();
    /// let config = Config::textbook().with_progress(Duration::ZERO, move |p| {
    ///     assert!(p.solutions <= 352 && p.depth <= 9);
    ///     seen.fetch_add(1, Ordering::Relaxed);
    /// });
    /// assert_eq!(Solver::new(&m, config)?.count().solutions, 352);
    /// assert!(calls.load(Ordering::Relaxed) > 0);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn with_progress(
        mut self,
        every: Duration,
        hook: impl Fn(&crate::Progress) + Send + Sync + 'static,
    ) -> Self {
        self.progress = Some(ProgressHook::new(every, hook));
        self
    }

    /// Sets the pruning level.
    pub fn with_pruning(mut self, pruning: Pruning) -> Self {
        self.pruning = pruning;
        self
    }

    /// Sets the look-back: chronological backtracking ([`Backjumping::None`],
    /// the default), Gaschnig's backjumping ([`Backjumping::Gbj`], with
    /// [`Pruning::Check`]) or conflict-directed backjumping
    /// ([`Backjumping::Cbj`], with `Check`, `ForwardChecking` or
    /// `ArcConsistency`). [`Solver::new`](crate::Solver::new) refuses any
    /// other combination with
    /// [`CspError::UnsupportedBackjumping`](crate::CspError::UnsupportedBackjumping).
    ///
    /// ```
    /// use csp_core::{Backjumping, Config, CspError, Pruning, Solver};
    /// let (m, _) = csp_core::models::pairwise_queens(8)?;
    /// let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
    /// let fc = Solver::new(&m, config.clone())?.count();
    /// let fc_cbj = Solver::new(&m, config.clone().with_backjumping(Backjumping::Cbj))?.count();
    /// assert_eq!(fc_cbj.solutions, fc.solutions);
    /// assert!(fc_cbj.stats.tried <= fc.stats.tried);
    /// let refused = Solver::new(&m, config.with_backjumping(Backjumping::Gbj));
    /// assert!(matches!(refused, Err(CspError::UnsupportedBackjumping { .. })));
    /// # Ok::<(), CspError>(())
    /// ```
    pub fn with_backjumping(mut self, backjumping: Backjumping) -> Self {
        self.backjumping = backjumping;
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

    /// Branches on `vars` only, as long as one of them is undecided: the
    /// variable heuristic chooses among them (input order takes them in the
    /// order given). The other variables are fixed by propagation on the way
    /// or, if not, decided afterwards in declaration order by the same
    /// heuristics, so every solution is still complete. Under
    /// [`Pruning::Check`] the order of the decisions decides the tree: a model
    /// whose auxiliary variables (differences, sums) are decided only after
    /// all the variables they depend on prunes late.
    ///
    /// [`Solver::new`](crate::Solver::new) refuses an unknown or repeated
    /// variable.
    ///
    /// ```
    /// use csp_core::{Config, Model, Pruning, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var_array("x", 3, 0..=2)?;
    /// let d = m.int_var(0..=2)?;
    /// m.all_different(&x)?;
    /// m.distance(x[0], x[2], d)?; // d = |x0 - x2|
    /// let config = Config::textbook()
    ///     .with_pruning(Pruning::ForwardChecking)
    ///     .with_decision_vars(&[x[2], x[1], x[0]]);
    /// let mut s = Solver::new(&m, config)?;
    /// let first = s.first().solution.unwrap();
    /// // x2 was decided first: it took its smallest value.
    /// assert_eq!((first[x[2]], first[x[1]], first[x[0]], first[d]), (0, 1, 2, 2));
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn with_decision_vars(mut self, vars: &[VarId]) -> Self {
        self.decision_vars = Some(vars.to_vec());
        self
    }

    /// Enumerates the solutions *projected* on `vars`: two solutions that
    /// give `vars` the same values are one, reported once (with the values
    /// the first one found gives the other variables). The other variables
    /// are auxiliary: a model's own variables are `vars`, and the others
    /// only help to state it, so that each of its solutions may extend to
    /// several assignments of them (a Boolean `r` of a half-reified `r -> c`
    /// is free whenever `c` holds).
    ///
    /// The search decides `vars` before any other variable: they are the
    /// decision variables unless [`with_decision_vars`](Config::with_decision_vars)
    /// lists others, and should a variable order (yours, or the decision
    /// list) choose another variable while one of `vars` is not fixed, the
    /// first such one in `vars` is decided instead. Once every one of
    /// `vars` is fixed, the search looks for one extension to the other
    /// variables; when it finds one (a solution) it backtracks to the last
    /// decision taken while one of `vars` was still open, so the other
    /// extensions are never tried. No solution is lost: an extension's
    /// alternatives give `vars` the same values.
    ///
    /// It applies to enumerations ([`Solver::count`](crate::Solver::count),
    /// [`next_solution`](crate::Solver::next_solution), ...); branch and
    /// bound ([`Solver::optimize`](crate::Solver::optimize)) ignores it. The
    /// parallel search refuses it, and [`Solver::new`](crate::Solver::new)
    /// refuses an unknown variable. The statistics count the nodes searched:
    /// the branches skipped after a solution are not nodes.
    ///
    /// ```
    /// use csp_core::{Config, Model, Relation, Solver};
    /// // x < y over 1..=3, and a Boolean r with r -> (x + 1 = y): three
    /// // solutions (x, y), five with r.
    /// let mut m = Model::new();
    /// let x = m.int_var(1..=3)?;
    /// let y = m.int_var(1..=3)?;
    /// let r = m.bool_var();
    /// m.less_than(x, y)?;
    /// m.linear_imp(&[1, -1], &[x, y], Relation::Eq, -1, r)?;
    /// let all = Solver::new(&m, Config::default())?.count();
    /// assert_eq!(all.solutions, 5);
    /// let projected = Config::default().with_projection(&[x, y]);
    /// assert_eq!(Solver::new(&m, projected)?.count().solutions, 3);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn with_projection(mut self, vars: &[VarId]) -> Self {
        self.projection = Some(vars.to_vec());
        self
    }

    /// At the [`Pruning::Propagators`] level, branch with binary choices, as
    /// Gecode and Choco do: first `x = v` (`v` the value order's first value),
    /// then, once that subtree is explored, `x != v` with propagation, after
    /// which the variable order chooses again (perhaps another variable). The
    /// textbook levels ignore it and always try the values of one variable in
    /// turn. Off by default; `fzn-csp` turns it on. Nodes, accepted and
    /// rejected counts include the second branches.
    ///
    /// ```
    /// use csp_core::{Config, Model, Pruning, Solver};
    /// let (m, _) = csp_core::models::queens(8)?;
    /// let config = Config::textbook()
    ///     .with_pruning(Pruning::Propagators)
    ///     .with_binary_branching(true);
    /// assert_eq!(Solver::new(&m, config)?.count().solutions, 92);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn with_binary_branching(mut self, on: bool) -> Self {
        self.binary_branching = on;
        self
    }

    /// Bounds the memory of the undo information (the trail) to about `bytes`
    /// (`None`: unbounded). The trail records every domain word a level
    /// changes, so a deep search over large domains (forward checking on
    /// 10,000 queens: 10,000 levels, each narrowing thousands of domains) can
    /// need gigabytes. Past the budget the search keeps a copy of the domains
    /// after the root propagation, drops the undo records of the oldest
    /// levels, and when it backtracks into one of them recomputes it: back
    /// to the copy, then the decisions of the current path replayed with
    /// their propagation (Gecode's recomputation, from the root). The tree,
    /// the solutions and the counts do not change; the work redone is not
    /// counted in the statistics. Branch and bound keeps every record (its
    /// bound changes between the first visit and a replay). Default:
    /// [`DEFAULT_TRAIL_BUDGET`] (64 MiB).
    ///
    /// ```
    /// use csp_core::{Config, Pruning, Solver};
    /// let (m, _) = csp_core::models::queens(8)?;
    /// // A budget of one byte: every backtrack is recomputed, the count is the same.
    /// let config = Config::textbook()
    ///     .with_pruning(Pruning::ForwardChecking)
    ///     .with_trail_budget(Some(1));
    /// assert_eq!(Solver::new(&m, config)?.count().solutions, 92);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn with_trail_budget(mut self, bytes: Option<usize>) -> Self {
        self.trail_budget = bytes;
        self
    }

    /// A variable declared as a range of more than `width` values (default
    /// [`DEFAULT_LAZY_BITS_ABOVE`](crate::DEFAULT_LAZY_BITS_ABOVE), 64) starts
    /// as an *interval*: its bounds, no bits. Bounds changes then cost O(1)
    /// whatever the width; the variable gets its bits (one per declared
    /// value) the first time a value strictly inside its bounds must leave,
    /// and keeps them (a list of consecutive values counts as a range). A
    /// variable declared by a list with gaps, and one that forward checking's
    /// bulk removal works on, has its bits from the start.
    /// Trees, solutions and statistics do not depend on this setting;
    /// memory and time do. `0` makes every range an interval, `u64::MAX`
    /// none.
    ///
    /// ```
    /// use csp_core::{Config, Model, Relation, Solver};
    /// let mut m = Model::new();
    /// // Sixteen million values and nothing but bounds changes: no bits at all.
    /// let x = m.int_var(0..=(1 << 24) - 1)?;
    /// let y = m.int_var(0..=(1 << 24) - 1)?;
    /// m.linear(&[1, 1], &[x, y], Relation::Le, 10)?;
    /// let mut solver = Solver::new(&m, Config::textbook().with_lazy_bits_above(64))?;
    /// assert_eq!(solver.domains().max(x), (1 << 24) - 1);
    /// assert!(solver.first().solution.is_some());
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn with_lazy_bits_above(mut self, width: u64) -> Self {
        self.lazy_bits_above = width;
        self
    }

    /// Searches the model with only some of its constraints: `active[i]`
    /// says whether the constraint with id `i` counts (`None`: all do, the
    /// default). An inactive constraint is neither propagated, nor checked,
    /// nor seen by the heuristics; the declared domains always hold. This is
    /// how [`explain`](crate::explain) tries subsets of a model without
    /// copying it. [`Solver::new`](crate::Solver::new) refuses a mask whose
    /// length is not the model's number of constraints.
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=9)?;
    /// m.post(x.le(3))?;
    /// m.post(x.ge(5))?;
    /// assert!(Solver::new(&m, Config::default())?.first().solution.is_none());
    /// let without_first = Config::default().with_active_constraints(vec![false, true]);
    /// let s = Solver::new(&m, without_first)?.first().solution.unwrap();
    /// assert_eq!(s[x], 5);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn with_active_constraints(mut self, active: impl Into<std::sync::Arc<[bool]>>) -> Self {
        self.active_constraints = Some(active.into());
        self
    }
}
