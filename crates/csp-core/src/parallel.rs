//! Splitting a search into independent subproblems, and counting them in parallel.
//!
//! A [`Subproblem`] is plain data: the decisions on the path from the root to a
//! node at a chosen depth. Replaying them with [`Solver::assume`] gives a search
//! of exactly that subtree, so subproblems can be counted on a thread pool
//! ([`count_parallel`], rayon's work stealing over many more subproblems than
//! threads) or shipped to other machines ([`count_share`] counts the `part`-th of
//! `parts` deterministic shares; the shares' counts add up to the whole).
//!
//! ```
//! use csp_core::{Config, Model, Pruning};
//! use csp_core::parallel::{count_parallel, count_share, ParallelOptions};
//!
//! let mut m = Model::new();
//! let q = m.int_var_array("q", 8, 0..=7)?;
//! m.all_different(&q)?;
//! m.all_different_offsets(&q, &[0, 1, 2, 3, 4, 5, 6, 7])?;
//! m.all_different_offsets(&q, &[0, -1, -2, -3, -4, -5, -6, -7])?;
//! let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
//! let all = count_parallel(&m, &config, &ParallelOptions::default())?;
//! assert_eq!(all.solutions, 92);
//! let shares: u64 = (0..3)
//!     .map(|part| count_share(&m, &config, 2, part, 3).map(|r| r.solutions))
//!     .sum::<Result<u64, _>>()?;
//! assert_eq!(shares, 92);
//! # Ok::<(), csp_core::CspError>(())
//! ```

use rayon::prelude::*;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::{
    CancelFlag, Config, CountResult, CspError, Limits, Model, SearchStats, SearchStatus, Solver,
    StopReason, Value, VarId,
};

/// The root of an independent part of the search: the decisions that lead to it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Subproblem {
    /// `(variable index, value)` for each decision, from the root down.
    pub decisions: Vec<(usize, Value)>,
}

impl Subproblem {
    fn from_path(path: Vec<(VarId, Value)>) -> Self {
        Subproblem {
            decisions: path.into_iter().map(|(v, x)| (v.index(), x)).collect(),
        }
    }

    fn path(&self) -> Vec<(VarId, Value)> {
        self.decisions
            .iter()
            .map(|&(v, x)| (VarId::new(v), x))
            .collect()
    }
}

/// The subproblems at `depth` decisions (see [`Solver::split`]), with the work
/// the split itself did.
///
/// A limit of `config` that stops the split is an error: the list would miss
/// subproblems.
pub fn split(
    model: &Model,
    config: &Config,
    depth: usize,
) -> Result<(Vec<Subproblem>, SearchStats), CspError> {
    match split_until(model, config, depth)? {
        Ok(split) => Ok(split),
        Err((reason, _)) => Err(CspError::InvalidArgument {
            context: "split".into(),
            message: format!("the {reason} stopped the split before every subproblem was listed"),
        }),
    }
}

/// The subproblems of a split may differ only in auxiliary variables, so
/// their counts would repeat a projected solution: a projection
/// ([`Config::with_projection`]) is refused.
fn refuse_projection(config: &Config) -> Result<(), CspError> {
    match config.projection {
        Some(_) => Err(CspError::InvalidArgument {
            context: "parallel search".into(),
            message: "a projection (Config::with_projection) is not supported: \
                      count projected solutions with one search"
                .into(),
        }),
        None => Ok(()),
    }
}

/// A split, or the limit that stopped it with the work done.
type SplitOutcome = Result<(Vec<Subproblem>, SearchStats), (StopReason, SearchStats)>;

fn split_until(model: &Model, config: &Config, depth: usize) -> Result<SplitOutcome, CspError> {
    refuse_projection(config)?;
    let mut solver = Solver::new(model, config.clone())?;
    let paths = solver.split(depth);
    let mut stats = *solver.stats();
    // Solutions met above `depth` are counted again by their own subproblem.
    stats.solutions = 0;
    if let SearchStatus::Stopped(reason) = solver.status() {
        return Ok(Err((reason, stats)));
    }
    Ok(Ok((
        paths.into_iter().map(Subproblem::from_path).collect(),
        stats,
    )))
}

/// The result of a count that a limit stopped while splitting.
fn stopped_while_splitting(reason: StopReason, stats: SearchStats) -> CountResult {
    CountResult {
        solutions: 0,
        status: SearchStatus::Stopped(reason),
        stats,
    }
}

/// Counts the solutions below one subproblem.
pub fn count_subproblem(
    model: &Model,
    config: &Config,
    sub: &Subproblem,
) -> Result<CountResult, CspError> {
    refuse_projection(config)?;
    let mut solver = Solver::new(model, config.clone())?;
    solver.assume(&sub.path())?;
    Ok(solver.count())
}

/// Work handed out in one piece by a [`Budget`]: small enough that a count
/// stops close to its limit, large enough that handing it out costs nothing.
const CHUNK: u64 = 1024;

/// What is left of one node, failure or solution limit shared by the
/// subproblems of a count. Subproblems take it in chunks before they use it
/// and give back what they did not use, so the total never exceeds the limit.
#[derive(Debug)]
struct Budget(Option<AtomicU64>);

impl Budget {
    fn new(limit: Option<u64>) -> Self {
        Budget(limit.map(AtomicU64::new))
    }

    /// Up to [`CHUNK`] more (0 when the limit is used up); `None` if unlimited.
    fn take(&self) -> Option<u64> {
        let left = self.0.as_ref()?;
        let mut current = left.load(Ordering::Relaxed);
        loop {
            let grant = current.min(CHUNK);
            match left.compare_exchange_weak(
                current,
                current - grant,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Some(grant),
                Err(now) => current = now,
            }
        }
    }

    /// Counts work done outside the subproblems (the split).
    fn spend(&self, used: u64) {
        if let Some(left) = &self.0 {
            let _ = left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |l| {
                Some(l.saturating_sub(used))
            });
        }
    }

    fn give_back(&self, unused: u64) {
        if let Some(left) = &self.0 {
            left.fetch_add(unused, Ordering::Relaxed);
        }
    }
}

/// The limits of one count over many subproblems, as totals: a deadline for
/// the time limit and shared budgets for the rest. (The cancel flag is shared
/// already: its clones are one flag.)
#[derive(Debug)]
struct SharedLimits {
    deadline: Option<Instant>,
    nodes: Budget,
    failures: Budget,
    solutions: Budget,
}

impl SharedLimits {
    fn new(limits: &Limits, start: Instant) -> Self {
        SharedLimits {
            deadline: limits
                .time
                .map(|t| start.checked_add(t).unwrap_or(start + YEAR)),
            nodes: Budget::new(limits.nodes),
            failures: Budget::new(limits.failures),
            solutions: Budget::new(limits.solutions),
        }
    }

    /// Counts one subproblem within what is left of the limits.
    fn count(
        &self,
        model: &Model,
        config: &Config,
        sub: &Subproblem,
    ) -> Result<CountResult, CspError> {
        let stopped = |reason| CountResult {
            solutions: 0,
            status: SearchStatus::Stopped(reason),
            stats: SearchStats::default(),
        };
        if config
            .limits
            .cancel
            .as_ref()
            .is_some_and(CancelFlag::is_cancelled)
        {
            return Ok(stopped(StopReason::Cancelled));
        }
        let mut limits = config.limits.clone();
        if let Some(deadline) = self.deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(stopped(StopReason::TimeLimit));
            }
            limits.time = Some(left);
        }
        let budgets = [
            (&self.nodes, StopReason::NodeLimit),
            (&self.failures, StopReason::FailureLimit),
            (&self.solutions, StopReason::SolutionLimit),
        ];
        let mut granted: [Option<u64>; 3] = [None; 3];
        for (g, (budget, reason)) in granted.iter_mut().zip(budgets) {
            *g = budget.take();
            if *g == Some(0) {
                self.give_back(&granted, &SearchStats::default());
                return Ok(stopped(reason));
            }
        }
        let apply = |limits: &mut Limits, granted: &[Option<u64>; 3]| {
            [limits.nodes, limits.failures, limits.solutions] = *granted;
        };
        apply(&mut limits, &granted);
        let mut solver = Solver::new(model, config.clone().with_limits(limits.clone()))?;
        solver.assume(&sub.path())?;
        let result = loop {
            let result = solver.count();
            let kind = match result.status {
                SearchStatus::Stopped(StopReason::NodeLimit) => 0,
                SearchStatus::Stopped(StopReason::FailureLimit) => 1,
                SearchStatus::Stopped(StopReason::SolutionLimit) => 2,
                _ => break result,
            };
            match (granted[kind], budgets[kind].0.take()) {
                (Some(had), Some(more)) if more > 0 => granted[kind] = Some(had + more),
                _ => break result,
            }
            apply(&mut limits, &granted);
            solver.raise_limits(limits.clone());
        };
        self.give_back(&granted, &result.stats);
        Ok(result)
    }

    /// Counts the split's own work against the budgets.
    fn spend(&self, split: &SearchStats) {
        self.nodes.spend(split.tried);
        self.failures.spend(split.rejected);
    }

    /// Returns what a subproblem was granted and did not use.
    fn give_back(&self, granted: &[Option<u64>; 3], used: &SearchStats) {
        let budgets = [&self.nodes, &self.failures, &self.solutions];
        let used = [used.tried, used.rejected, used.solutions];
        for ((budget, g), u) in budgets.into_iter().zip(granted).zip(used) {
            if let Some(g) = *g {
                budget.give_back(g.saturating_sub(u));
            }
        }
    }
}

/// A time limit too far away to matter (`Instant` overflow guard).
const YEAR: Duration = Duration::from_secs(365 * 24 * 3600);

/// How to split and run a parallel count.
#[derive(Clone, Debug, Default)]
pub struct ParallelOptions {
    /// Decisions made before splitting (more depth, more and smaller subproblems).
    /// `None` chooses the smallest depth giving at least 16 subproblems per thread.
    pub depth: Option<usize>,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
}

fn combine(
    split_stats: SearchStats,
    results: Vec<Result<CountResult, CspError>>,
) -> Result<CountResult, CspError> {
    let mut stats = split_stats;
    let mut solutions: u64 = 0;
    let mut status = SearchStatus::Complete;
    for r in results {
        let r = r?;
        solutions = solutions
            .checked_add(r.solutions)
            .ok_or_else(|| CspError::Overflow {
                context: "parallel count".into(),
                detail: "more than 2^64 - 1 solutions".into(),
            })?;
        stats.merge(&r.stats);
        if !r.status.is_complete() {
            status = r.status;
        }
    }
    stats.solutions = solutions;
    Ok(CountResult {
        solutions,
        status,
        stats,
    })
}

/// Picks a split depth giving at least `wanted` subproblems (or the whole tree).
fn auto_split(model: &Model, config: &Config, wanted: usize) -> Result<SplitOutcome, CspError> {
    let mut depth = 1;
    loop {
        let (subs, stats) = match split_until(model, config, depth)? {
            Ok(split) => split,
            stopped => return Ok(stopped),
        };
        let deepest = subs.iter().map(|s| s.decisions.len()).max().unwrap_or(0);
        if subs.len() >= wanted || depth >= model.num_vars() || deepest < depth {
            return Ok(Ok((subs, stats)));
        }
        depth += 1;
    }
}

/// Counts all solutions on a thread pool: splits the tree into many subproblems
/// and lets rayon's work stealing balance them. The count and the node
/// statistics equal a sequential search's (for heuristics that do not learn,
/// such as input order and first-fail); `elapsed` is the sum of the workers'
/// times.
///
/// Limits in `config` apply to the whole count, as with one search: the time
/// limit runs from the call, the split included; the node, failure and
/// solution limits are totals over all subproblems (handed out in chunks of
/// 1,024, so a count may stop up to that much per thread before its limit,
/// never after); a [`CancelFlag`] stops every subproblem. The result is
/// `Complete` only if every subproblem was.
pub fn count_parallel(
    model: &Model,
    config: &Config,
    options: &ParallelOptions,
) -> Result<CountResult, CspError> {
    let shared = SharedLimits::new(&config.limits, Instant::now());
    let threads = options
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .max(1);
    let outcome = match options.depth {
        Some(d) => split_until(model, config, d)?,
        None => auto_split(model, config, 16 * threads)?,
    };
    let (subs, split_stats) = match outcome {
        Ok(split) => split,
        Err((reason, stats)) => return Ok(stopped_while_splitting(reason, stats)),
    };
    shared.spend(&split_stats);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CspError::InvalidArgument {
            context: "parallel count".into(),
            message: format!("cannot start {threads} threads: {e}"),
        })?;
    let results: Vec<Result<CountResult, CspError>> = pool.install(|| {
        // One stealable job per subproblem: subtrees in search order differ in
        // size, and rayon's default halving could leave one thread the heavy end.
        subs.par_iter()
            .with_max_len(1)
            .map(|s| shared.count(model, config, s))
            .collect()
    });
    combine(split_stats, results)
}

/// Counts only share `part` (from 0) of `parts`: the subproblems at `depth` whose
/// position in search order is `part` modulo `parts`. The shares' counts add up
/// to the whole count, whatever `parts` is, so a cluster can count a large
/// instance one share per job. Limits apply to the share as a whole, as in
/// [`count_parallel`].
pub fn count_share(
    model: &Model,
    config: &Config,
    depth: usize,
    part: usize,
    parts: usize,
) -> Result<CountResult, CspError> {
    if parts == 0 || part >= parts {
        return Err(CspError::InvalidArgument {
            context: "count share".into(),
            message: format!("part {part} of {parts}: need 0 <= part < parts"),
        });
    }
    let shared = SharedLimits::new(&config.limits, Instant::now());
    let (subs, split_stats) = match split_until(model, config, depth)? {
        Ok(split) => split,
        Err((reason, stats)) => return Ok(stopped_while_splitting(reason, stats)),
    };
    if part == 0 {
        shared.spend(&split_stats);
    }
    let mine: Vec<Result<CountResult, CspError>> = subs
        .iter()
        .enumerate()
        .filter(|(i, _)| i % parts == part)
        .map(|(_, s)| shared.count(model, config, s))
        .collect();
    // Only share 0 carries the split's own work, so that stats add up too.
    let base = if part == 0 {
        split_stats
    } else {
        SearchStats::default()
    };
    combine(base, mine)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Pruning, VarOrder};

    use crate::Model;

    fn queens(n: usize) -> Model {
        crate::models::queens(n).unwrap().0
    }

    #[test]
    fn parallel_count_equals_sequential_count_and_nodes() {
        let m = queens(9);
        for pruning in [
            Pruning::Check,
            Pruning::ForwardChecking,
            Pruning::ArcConsistency,
        ] {
            let config = Config::textbook().with_pruning(pruning);
            let seq = Solver::new(&m, config.clone()).unwrap().count();
            for depth in [1, 2, 3, 9] {
                let opts = ParallelOptions {
                    depth: Some(depth),
                    threads: Some(2),
                };
                let par = count_parallel(&m, &config, &opts).unwrap();
                assert_eq!(par.solutions, 352);
                assert!(par.is_complete());
                assert_eq!(par.stats.tried, seq.stats.tried, "{pruning} depth {depth}");
                assert_eq!(par.stats.accepted, seq.stats.accepted);
            }
        }
    }

    #[test]
    fn split_choices_count_the_same_in_parallel() {
        // Subproblem paths are assignments (the split makes d-way frames);
        // below them the workers halve domains with binary choices.
        let m = queens(8);
        for val in [crate::ValOrder::Split, crate::ValOrder::ReverseSplit] {
            let config = Config::textbook()
                .with_pruning(Pruning::Propagators)
                .with_binary_branching(true)
                .with_val_order(val);
            let seq = Solver::new(&m, config.clone()).unwrap().count();
            assert_eq!(seq.solutions, 92);
            for depth in [1, 3] {
                let opts = ParallelOptions {
                    depth: Some(depth),
                    threads: Some(2),
                };
                let par = count_parallel(&m, &config, &opts).unwrap();
                assert_eq!((par.solutions, par.status), (92, SearchStatus::Complete));
            }
        }
    }

    #[test]
    fn node_failure_and_solution_limits_are_totals_over_all_subproblems() {
        let m = queens(10);
        let fc = Config::textbook().with_pruning(Pruning::ForwardChecking);
        let whole = Solver::new(&m, fc.clone()).unwrap().count();
        assert_eq!(whole.solutions, 724);
        let cases = [
            (
                Limits {
                    nodes: Some(5_000),
                    ..Limits::default()
                },
                StopReason::NodeLimit,
            ),
            (
                Limits {
                    failures: Some(3_000),
                    ..Limits::default()
                },
                StopReason::FailureLimit,
            ),
            (
                Limits {
                    solutions: Some(100),
                    ..Limits::default()
                },
                StopReason::SolutionLimit,
            ),
        ];
        for (limits, reason) in cases {
            let config = fc.clone().with_limits(limits.clone());
            for threads in [1, 2] {
                let opts = ParallelOptions {
                    depth: Some(2),
                    threads: Some(threads),
                };
                let r = count_parallel(&m, &config, &opts).unwrap();
                assert_eq!(
                    r.status,
                    SearchStatus::Stopped(reason),
                    "{reason} {threads}"
                );
                // Never beyond the limit; short of it by at most a chunk per
                // thread still held when the others ran out.
                let (used, limit) = match reason {
                    StopReason::NodeLimit => (r.stats.tried, limits.nodes),
                    StopReason::FailureLimit => (r.stats.rejected, limits.failures),
                    _ => (r.solutions, limits.solutions),
                };
                let limit = limit.unwrap();
                assert!(used <= limit, "{reason}: {used} > {limit}");
                let slack = (threads as u64 - 1) * CHUNK;
                assert!(
                    used + slack >= limit,
                    "{reason}: {used} with {threads} threads"
                );
                if threads == 1 {
                    assert_eq!(used, limit, "{reason}");
                }
            }
            let share = count_share(&m, &config, 2, 0, 1).unwrap();
            assert_eq!(share.status, SearchStatus::Stopped(reason));
        }
        // Limits that are not reached change nothing.
        let roomy = fc.with_limits(Limits {
            nodes: Some(whole.stats.tried + 2 * CHUNK),
            solutions: Some(724 + 2 * CHUNK),
            ..Limits::default()
        });
        let r = count_parallel(&m, &roomy, &ParallelOptions::default()).unwrap();
        assert_eq!((r.solutions, r.stats.tried), (724, whole.stats.tried));
    }

    #[test]
    fn the_time_limit_runs_from_the_call_not_per_subproblem() {
        // 30-queens has far too many solutions to count: before the limits were
        // shared, each of the subproblems had its own 100 ms (minutes in all).
        let m = queens(30);
        let config = Config::textbook()
            .with_pruning(Pruning::ForwardChecking)
            .with_time_limit(Duration::from_millis(100));
        let started = Instant::now();
        let r = count_parallel(
            &m,
            &config,
            &ParallelOptions {
                depth: Some(2),
                threads: Some(2),
            },
        )
        .unwrap();
        assert_eq!(r.status, SearchStatus::Stopped(StopReason::TimeLimit));
        // Not a speed test: only far from the minutes that per-subproblem
        // limits took. (The overshoot is measured by `benches/limits.rs`.)
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_cancelled_flag_stops_a_parallel_count_before_it_starts() {
        let m = queens(30);
        let flag = CancelFlag::new();
        flag.cancel();
        let config = Config::textbook()
            .with_pruning(Pruning::ForwardChecking)
            .with_cancel_flag(flag);
        let r = count_parallel(&m, &config, &ParallelOptions::default()).unwrap();
        assert_eq!(r.status, SearchStatus::Stopped(StopReason::Cancelled));
    }

    #[test]
    fn a_split_stopped_by_a_limit_is_an_error_not_a_short_list() {
        let m = queens(8);
        let config = Config::textbook().with_node_limit(10);
        assert_eq!(
            split(&m, &config, 4).unwrap_err().to_string(),
            "split: the node limit stopped the split before every subproblem was listed"
        );
        let r = count_share(&m, &config, 4, 0, 2).unwrap();
        assert_eq!(r.status, SearchStatus::Stopped(StopReason::NodeLimit));
    }

    #[test]
    fn shares_sum_to_the_whole_for_several_part_counts() {
        let m = queens(8);
        let config = Config::textbook()
            .with_pruning(Pruning::ForwardChecking)
            .with_var_order(VarOrder::FirstFail);
        for parts in [1, 2, 3, 7, 64] {
            let total: u64 = (0..parts)
                .map(|p| count_share(&m, &config, 3, p, parts).unwrap().solutions)
                .sum();
            assert_eq!(total, 92, "{parts} parts");
        }
        assert!(count_share(&m, &config, 3, 3, 3).is_err());
        assert_eq!(
            count_share(&m, &config, 3, 3, 3).unwrap_err().to_string(),
            "count share: part 3 of 3: need 0 <= part < parts"
        );
        assert_eq!(
            count_share(&m, &config, 3, 0, 0).unwrap_err().to_string(),
            "count share: part 0 of 0: need 0 <= part < parts"
        );
    }

    #[test]
    fn split_deeper_than_the_tree_returns_solutions_as_paths() {
        let m = queens(4);
        let (subs, _) = split(&m, &Config::textbook(), 10).unwrap();
        assert_eq!(subs.len(), 2);
        assert!(subs.iter().all(|s| s.decisions.len() == 4));
    }

    #[test]
    fn assuming_a_failed_path_finds_nothing() {
        let m = queens(4);
        let mut s = Solver::new(&m, Config::textbook()).unwrap();
        assert!(!s.assume(&[(VarId::new(0), 0), (VarId::new(1), 1)]).unwrap());
        assert_eq!(s.count().solutions, 0);
    }
}
