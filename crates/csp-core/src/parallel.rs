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
//! let config = Config::default().with_pruning(Pruning::ForwardChecking);
//! let all = count_parallel(&m, &config, &ParallelOptions::default())?;
//! assert_eq!(all.solutions, 92);
//! let shares: u64 = (0..3)
//!     .map(|part| count_share(&m, &config, 2, part, 3).map(|r| r.solutions))
//!     .sum::<Result<u64, _>>()?;
//! assert_eq!(shares, 92);
//! # Ok::<(), csp_core::CspError>(())
//! ```

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{
    Config, CountResult, CspError, Model, SearchStats, SearchStatus, Solver, Value, VarId,
};

/// The root of an independent part of the search: the decisions that lead to it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
pub fn split(
    model: &Model,
    config: &Config,
    depth: usize,
) -> Result<(Vec<Subproblem>, SearchStats), CspError> {
    let mut solver = Solver::new(model, config.clone())?;
    let paths = solver.split(depth);
    let mut stats = *solver.stats();
    // Solutions met above `depth` are counted again by their own subproblem.
    stats.solutions = 0;
    Ok((
        paths.into_iter().map(Subproblem::from_path).collect(),
        stats,
    ))
}

/// Counts the solutions below one subproblem.
pub fn count_subproblem(
    model: &Model,
    config: &Config,
    sub: &Subproblem,
) -> Result<CountResult, CspError> {
    let mut solver = Solver::new(model, config.clone())?;
    solver.assume(&sub.path())?;
    Ok(solver.count())
}

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
fn auto_split(
    model: &Model,
    config: &Config,
    wanted: usize,
) -> Result<(Vec<Subproblem>, SearchStats), CspError> {
    let mut depth = 1;
    loop {
        let (subs, stats) = split(model, config, depth)?;
        let deepest = subs.iter().map(|s| s.decisions.len()).max().unwrap_or(0);
        if subs.len() >= wanted || depth >= model.num_vars() || deepest < depth {
            return Ok((subs, stats));
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
/// Limits in `config` apply to each subproblem; a [`CancelFlag`](crate::CancelFlag)
/// stops them all. The result is `Complete` only if every subproblem was.
pub fn count_parallel(
    model: &Model,
    config: &Config,
    options: &ParallelOptions,
) -> Result<CountResult, CspError> {
    let threads = options
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .max(1);
    let (subs, split_stats) = match options.depth {
        Some(d) => split(model, config, d)?,
        None => auto_split(model, config, 16 * threads)?,
    };
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
            .map(|s| count_subproblem(model, config, s))
            .collect()
    });
    combine(split_stats, results)
}

/// Counts only share `part` (from 0) of `parts`: the subproblems at `depth` whose
/// position in search order is `part` modulo `parts`. The shares' counts add up
/// to the whole count, whatever `parts` is, so a cluster can count a large
/// instance one share per job.
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
    let (subs, split_stats) = split(model, config, depth)?;
    let mine: Vec<Result<CountResult, CspError>> = subs
        .iter()
        .enumerate()
        .filter(|(i, _)| i % parts == part)
        .map(|(_, s)| count_subproblem(model, config, s))
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

    use crate::test_models::queens;

    #[test]
    fn parallel_count_equals_sequential_count_and_nodes() {
        let m = queens(9);
        for pruning in [
            Pruning::Check,
            Pruning::ForwardChecking,
            Pruning::ArcConsistency,
        ] {
            let config = Config::default().with_pruning(pruning);
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
    fn shares_sum_to_the_whole_for_several_part_counts() {
        let m = queens(8);
        let config = Config::default()
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
        let (subs, _) = split(&m, &Config::default(), 10).unwrap();
        assert_eq!(subs.len(), 2);
        assert!(subs.iter().all(|s| s.decisions.len() == 4));
    }

    #[test]
    fn assuming_a_failed_path_finds_nothing() {
        let m = queens(4);
        let mut s = Solver::new(&m, Config::default()).unwrap();
        assert!(!s.assume(&[(VarId::new(0), 0), (VarId::new(1), 1)]).unwrap());
        assert_eq!(s.count().solutions, 0);
    }
}
