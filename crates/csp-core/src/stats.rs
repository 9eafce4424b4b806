//! Search statistics, defined once, with their MiniZinc names.

use std::time::Duration;

/// What a search did. Every counter is defined here, once.
///
/// A *node* is a value tried for a variable: a child generated in the state-space
/// tree. `tried = accepted + rejected` always holds.
///
/// | field | meaning | MiniZinc statistic |
/// |---|---|---|
/// | `tried` | values tried (children generated) | `nodes` |
/// | `accepted` | tried values that passed the pruning level's test (promising nodes) | |
/// | `rejected` | tried values that failed it (non-promising nodes, dead ends) | `failures` |
/// | `backtracks` | times the search returned from a variable whose values were exhausted | |
/// | `checks` | calls of a constraint's `promising` or `check` by the engine | |
/// | `propagations` | calls of a constraint's `propagate` | `propagations` (`checks + propagations`) |
/// | `revisions` | revisions: one variable's domain examined by one constraint in order to remove values from it, whether or not any goes; every built-in constraint counts one per variable it filters per call, and none for a call that only tests fixed values, so the figure compares across models (8-queens under `fc`: 3,414 on the pairwise model, 13,442 on the global one, whose three constraints each revise every undecided row) | |
/// | `pruned` | values removed from domains by propagation (not counting decisions; saturates at 2^64 - 1, which wide domains can pass) | |
/// | `peak_depth` | the most decisions open at once: variables assigned by decisions, plus domain splits whose two halves are not both explored | `peakDepth` |
/// | `backjumps` | dead ends after which the search went back more than one level ([`Backjumping`](crate::Backjumping)) | `backjumps` (printed when not 0) |
/// | `levels_jumped` | decisions skipped by those backjumps, in total (a jump from level 7 to level 3 skips 3) | `levelsJumped` (printed when not 0) |
/// | `nogoods_learnt` | nogoods recorded at restarts ([`Config::with_nogoods`](crate::Config::with_nogoods)) | `nogoodsLearnt` (printed when not 0) |
/// | `nogoods_used` | times a nogood removed a value or failed a node | `nogoodsUsed` (printed when nogoods were learnt) |
/// | `nogoods_deleted` | nogoods dropped to keep the store within its bound ([`Config::with_nogood_limit`](crate::Config::with_nogood_limit)) | `nogoodsDeleted` (printed when nogoods were learnt) |
/// | `restarts` | times the search went back to the root to start a new run ([`Restarts`](crate::Restarts)) | `restarts` |
/// | `solutions` | solutions found | `solutions` |
/// | `elapsed` | wall-clock time spent searching | `solveTime` (seconds) |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Values tried.
    pub tried: u64,
    /// Values that passed the test of the pruning level.
    pub accepted: u64,
    /// Values that failed it.
    pub rejected: u64,
    /// Returns from an exhausted variable.
    pub backtracks: u64,
    /// Promising or complete checks.
    pub checks: u64,
    /// Propagator calls.
    pub propagations: u64,
    /// Revisions: domains examined by a constraint to filter them (see the table).
    pub revisions: u64,
    /// Values removed by propagation.
    pub pruned: u64,
    /// Largest number of simultaneous decisions (variables assigned by
    /// decisions, plus open domain splits).
    pub peak_depth: u64,
    /// Restarts from the root.
    pub restarts: u64,
    /// Backjumps: returns over at least one decision.
    pub backjumps: u64,
    /// Decisions skipped by backjumps.
    pub levels_jumped: u64,
    /// Nogoods recorded at restarts.
    pub nogoods_learnt: u64,
    /// Values removed and nodes failed by nogoods.
    pub nogoods_used: u64,
    /// Nogoods dropped from the bounded store.
    pub nogoods_deleted: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Time spent searching.
    pub elapsed: Duration,
}

impl SearchStats {
    /// The statistics under MiniZinc's names, in the order MiniZinc prints them,
    /// followed by ours (`tried`, `accepted`, `checks`, `revisions`, `pruned`,
    /// `backtracks`; then `backjumps` and `levelsJumped` if there were
    /// backjumps; then `nogoodsLearnt`, `nogoodsUsed` and `nogoodsDeleted`
    /// if nogoods were learnt). Print each as `%%%mzn-stat: name=value`.
    ///
    /// ```
    /// let stats = csp_core::SearchStats { tried: 26, rejected: 18, ..Default::default() };
    /// let lines: Vec<String> = stats
    ///     .mzn_stats()
    ///     .iter()
    ///     .map(|(k, v)| format!("%%%mzn-stat: {k}={v}"))
    ///     .collect();
    /// assert_eq!(lines[0], "%%%mzn-stat: nodes=26");
    /// assert_eq!(lines[1], "%%%mzn-stat: failures=18");
    /// ```
    pub fn mzn_stats(&self) -> Vec<(&'static str, String)> {
        let mut stats = vec![
            ("nodes", self.tried.to_string()),
            ("failures", self.rejected.to_string()),
            ("solutions", self.solutions.to_string()),
            ("solveTime", format!("{:.6}", self.elapsed.as_secs_f64())),
            ("peakDepth", self.peak_depth.to_string()),
            (
                "propagations",
                (self.checks + self.propagations).to_string(),
            ),
            ("restarts", self.restarts.to_string()),
            ("tried", self.tried.to_string()),
            ("accepted", self.accepted.to_string()),
            ("checks", self.checks.to_string()),
            ("propagatorCalls", self.propagations.to_string()),
            ("revisions", self.revisions.to_string()),
            ("pruned", self.pruned.to_string()),
            ("backtracks", self.backtracks.to_string()),
        ];
        if self.backjumps > 0 {
            stats.push(("backjumps", self.backjumps.to_string()));
            stats.push(("levelsJumped", self.levels_jumped.to_string()));
        }
        if self.nogoods_learnt > 0 {
            stats.push(("nogoodsLearnt", self.nogoods_learnt.to_string()));
            stats.push(("nogoodsUsed", self.nogoods_used.to_string()));
            stats.push(("nogoodsDeleted", self.nogoods_deleted.to_string()));
        }
        stats
    }

    /// Adds another search's counters to these (for split and parallel searches);
    /// `peak_depth` takes the larger, `elapsed` the sum.
    pub fn merge(&mut self, other: &SearchStats) {
        self.tried += other.tried;
        self.accepted += other.accepted;
        self.rejected += other.rejected;
        self.backtracks += other.backtracks;
        self.checks += other.checks;
        self.propagations += other.propagations;
        self.revisions += other.revisions;
        self.pruned = self.pruned.saturating_add(other.pruned);
        self.peak_depth = self.peak_depth.max(other.peak_depth);
        self.restarts += other.restarts;
        self.backjumps += other.backjumps;
        self.levels_jumped += other.levels_jumped;
        self.nogoods_learnt += other.nogoods_learnt;
        self.nogoods_used += other.nogoods_used;
        self.nogoods_deleted += other.nogoods_deleted;
        self.solutions += other.solutions;
        self.elapsed += other.elapsed;
    }
}
