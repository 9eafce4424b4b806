//! `Config`'s settings for restarts and nogoods: what the search learns from
//! its failures.

use super::Config;
use crate::Restarts;

impl Config {
    /// Restarts the search from the root after each run's budget of failures
    /// (the sequences of [`Restarts`]); [`Restarts::Never`] by default.
    /// Restarts pay off with a heuristic that learns or varies:
    /// [`VarOrder::DomOverWdeg`](crate::VarOrder::DomOverWdeg) keeps its
    /// constraint weights across runs, so each run starts with the variables
    /// of the constraints that failed most, and
    /// [`VarOrder::Random`](crate::VarOrder::Random) draws a new order. With a
    /// fixed order such as first-fail each run repeats the last one's
    /// beginning.
    ///
    /// - [`first`](crate::Solver::first) finds a solution if there is one
    ///   and proves there is none otherwise (unless the policy is
    ///   [`Restarts::Constant`]);
    /// - branch and bound ([`optimize`](crate::Solver::optimize)) keeps its
    ///   bound across runs, so it never finds a solution twice, and proves the
    ///   optimum;
    /// - counting and enumerating: restarts stop at the first solution of a
    ///   satisfaction search, and the run that found it goes on depth-first,
    ///   so every solution is found exactly once (the runs before it found
    ///   none, and this run started from the root);
    /// - the limits count every run: `nodes`, `failures` and time are totals;
    /// - deterministic: the same model and config give the same runs.
    ///
    /// [`SearchStats::restarts`](crate::SearchStats::restarts) counts the
    /// restarts. [`Solver::new`](crate::Solver::new) refuses a scale or base
    /// of 0 and a factor below 1.
    ///
    /// ```
    /// use csp_core::{Config, Pruning, Restarts, Solver, VarOrder};
    /// let (m, _) = csp_core::models::queens(30)?;
    /// let config = Config::textbook()
    ///     .with_pruning(Pruning::Propagators)
    ///     .with_binary_branching(true)
    ///     .with_var_order(VarOrder::DomOverWdeg)
    ///     .with_restarts(Restarts::Luby { scale: 4 });
    /// let mut s = Solver::new(&m, config)?;
    /// let found = s.first();
    /// assert!(found.solution.is_some());
    /// // Every run but the last ended after its budget of failures.
    /// assert!(found.stats.rejected >= 4 * found.stats.restarts);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn with_restarts(mut self, restarts: Restarts) -> Self {
        self.restarts = restarts;
        self
    }

    /// Records nogoods at each restart (default off): when a run ends, the
    /// reduced nld-nogoods of its last branch (Lecoutre, Sais, Tabary and
    /// Vidal 2007, "Recording and minimizing nogoods from restarts") join a
    /// store that the later runs propagate, so that no run explores again a
    /// subtree an earlier run finished.
    ///
    /// What is recorded: the branch from the root to the failure that ended
    /// the run is a sequence of *positive* decisions (`x = v`, or a
    /// split's half `x <= v` / `x >= v`, that hold on the branch) and
    /// *negative* ones (a binary choice's refutation `x != v` or a split's
    /// other half, once its first branch is explored; the values a d-way
    /// frame tried before its current one). Each negative decision gives a
    /// nogood: the positive decisions above it plus the decision it
    /// refutes (the negative decisions above are left out: the *reduced*
    /// form). The failed decision that ended the run gives one more. A
    /// d-way frame that sweeps its domain upwards (downwards) gives one
    /// nogood `x <= v - 1` (`x >= v + 1`) for the values below (above) the
    /// current one; a middle-out sweep's earlier values are not recorded.
    ///
    /// How they are used: after the constraints reach their fixpoint, each
    /// nogood whose literals all hold but one removes that one's value (or
    /// moves the bound), and one whose literals all hold fails the node;
    /// two watched literals per nogood find them, and the constraints run
    /// again after a removal. A nogood unit at the root prunes the root.
    /// At most [`nogood_limit`](Config::nogood_limit) nogoods are kept (see
    /// [`with_nogood_limit`](Config::with_nogood_limit)); beyond it the
    /// oldest are deleted. [`SearchStats`](crate::SearchStats) counts
    /// `nogoods_learnt`, `nogoods_used` (values removed and nodes failed)
    /// and `nogoods_deleted`.
    ///
    /// Why the solutions do not change: a nogood names a subtree that an
    /// earlier run explored completely without finding a solution, under
    /// the decisions above it (with look-back too: a backjump skips only
    /// subtrees its conflict set proves empty). In a satisfaction search
    /// the runs before the first solution found none, and after it the
    /// search no longer restarts ([`with_restarts`](Config::with_restarts)),
    /// so counting and enumerating find every solution exactly once. In
    /// branch and bound a run may find solutions: a nogood then names a
    /// subtree with no solution better than the best found, and the bound
    /// only gets tighter, so it stays valid for the rest of the search.
    ///
    /// [`Solver::new`](crate::Solver::new) refuses nogoods without restarts
    /// (nothing would ever be recorded) and below
    /// [`Pruning::ArcConsistency`](crate::Pruning::ArcConsistency) (they are
    /// propagated with the constraints' queue) with
    /// [`CspError::UnsupportedNogoods`](crate::CspError::UnsupportedNogoods).
    ///
    /// ```
    /// use csp_core::{Config, CspError, Pruning, Restarts, Solver, VarOrder};
    /// let (m, _) = csp_core::models::queens(8)?;
    /// let config = Config::textbook()
    ///     .with_pruning(Pruning::Propagators)
    ///     .with_binary_branching(true)
    ///     .with_var_order(VarOrder::DomOverWdeg)
    ///     .with_restarts(Restarts::Luby { scale: 1 });
    /// let with = Solver::new(&m, config.clone().with_nogoods(true))?.count();
    /// assert_eq!(with.solutions, 92);
    /// assert!(with.stats.nogoods_learnt > 0 && with.stats.nogoods_used > 0);
    /// let refused = Solver::new(&m, Config::default().with_nogoods(true));
    /// assert!(matches!(refused, Err(CspError::UnsupportedNogoods { .. })));
    /// # Ok::<(), CspError>(())
    /// ```
    pub fn with_nogoods(mut self, on: bool) -> Self {
        self.nogoods = on;
        self
    }

    /// The most nogoods [`with_nogoods`](Config::with_nogoods) keeps at once
    /// (default [`DEFAULT_NOGOOD_LIMIT`](crate::DEFAULT_NOGOOD_LIMIT), at
    /// least 1): when a restart brings more, the oldest are deleted first (counted in
    /// [`SearchStats::nogoods_deleted`](crate::SearchStats::nogoods_deleted)).
    /// Deleting a nogood loses pruning, never a solution.
    ///
    /// ```
    /// use csp_core::{Config, Model, Restarts, SearchStatus, Solver};
    /// // Seven pigeons, six holes: no solution, and a proof over many runs.
    /// let mut m = Model::new();
    /// let p = m.int_var_array("p", 7, 1..=6)?;
    /// for i in 0..7 {
    ///     for j in i + 1..7 {
    ///         m.not_equal(p[i], p[j])?;
    ///     }
    /// }
    /// let config = Config::default()
    ///     .with_restarts(Restarts::Luby { scale: 1 })
    ///     .with_nogoods(true)
    ///     .with_nogood_limit(2);
    /// let r = Solver::new(&m, config)?.first();
    /// assert!(r.solution.is_none() && r.status == SearchStatus::Complete);
    /// assert!(r.stats.nogoods_deleted > 0);
    /// assert!(r.stats.nogoods_learnt - r.stats.nogoods_deleted <= 2);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn with_nogood_limit(mut self, limit: usize) -> Self {
        self.nogood_limit = limit;
        self
    }
}
