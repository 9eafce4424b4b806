//! `count --part I/K` and `count --checkpoint FILE`: a count as a list of subproblems, for every method.
//!
//! Each method lists its subproblems in an order that depends only on N (and,
//! for the engine, the model and strategy): the bitboard counter's prefixes of
//! [`split::SHARE_DEPTH`] rows, the symmetry counter's subtrees, csp-core's
//! split at [`split::ENGINE_SHARE_DEPTH`] decisions. Share I of K is every
//! K-th subproblem from the I-th; the runner counts them, with a checkpoint
//! if asked.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use csp_cli::cancel_on_ctrl_c;
use csp_core::{SearchStatus, parallel};
use nqueens::Queens;
use nqueens::share_key::ShareKey;
use nqueens::split::{self, PartialCount, ShareMethod};
use nqueens::symmetry;

use super::args::{self, EngineArgs};
use super::count::{Method, counter_error, counter_size, counter_stats};
use super::runner::{self, Ended, Job, Saving, Unit};
use super::{Done, Failure, Outcome};

/// Save the checkpoint at most this often unless `--checkpoint-interval` says otherwise.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(5);

/// A split count as asked on the command line.
pub struct Request {
    /// Board size.
    pub n: usize,
    /// `--part I/K`, if given.
    pub part: Option<(usize, usize)>,
    /// Worker threads.
    pub threads: usize,
    /// `--checkpoint FILE`.
    pub checkpoint: Option<PathBuf>,
    /// `--checkpoint-interval`.
    pub interval: Duration,
    /// `--share-key`: the key that signs the partial-count line.
    pub key: Option<ShareKey>,
}

/// Counts share I of K (or the whole, as share 1 of 1) by `method`.
pub fn count(method: Method, r: &Request, engine: &EngineArgs) -> Outcome {
    let started = Instant::now();
    let (part, parts) = r.part.unwrap_or((1, 1));
    let mine = |i: usize| part - 1 + i * parts;
    let share_len = |total: usize| total.saturating_sub(part - 1).div_ceil(parts);
    let cancel = cancel_on_ctrl_c();
    let run = |n: u32,
               method: &ShareMethod,
               subproblems: usize,
               width,
               count: &(dyn Fn(usize) -> Result<Unit, Failure> + Sync)| {
        let job = Job {
            name: format!("n={n} part={part}/{parts} {method}"),
            subproblems: share_len(subproblems),
            width,
            n,
            whole: parts == 1,
            threads: r.threads,
            saving: r.checkpoint.clone().map(|path| Saving {
                path,
                interval: r.interval,
                key: r.key.clone(),
            }),
            count,
        };
        runner::run(&job, &cancel)
    };
    let (share_method, n, ended) = match method {
        Method::Bitboard => {
            let n = counter_size(r.n)?;
            let subs = split::subproblems(n, split::SHARE_DEPTH).map_err(counter_error)?;
            let count = |i: usize| {
                subs[mine(i)]
                    .count()
                    .map(|c| Unit::Counted(vec![c]))
                    .map_err(counter_error)
            };
            let method = ShareMethod::Bitboard;
            let ended = run(n, &method, subs.len(), 1, &count)?;
            (method, n, ended)
        }
        Method::Symmetry => {
            let n = counter_size(r.n)?;
            let subs = symmetry::subtrees(n).map_err(counter_error)?;
            let count = |i: usize| {
                subs[mine(i)]
                    .count()
                    .map(|c| Unit::Counted(vec![c.total, c.unique]))
                    .map_err(counter_error)
            };
            let method = ShareMethod::Symmetry;
            let ended = run(n, &method, subs.len(), 2, &count)?;
            (method, n, ended)
        }
        Method::Engine => {
            if engine.strategy.node_limit.is_some() {
                return Err(Failure::Usage(
                    "--node-limit cannot be used with --part or --checkpoint (a share is \
                     counted subproblem by subproblem; use --time-limit)"
                        .into(),
                ));
            }
            let queens = Queens::new(r.n, engine.variant()).map_err(args::engine_error)?;
            let model = queens.model();
            let config = engine.config(Some(cancel.clone()));
            // The split itself is quick and must list every subproblem.
            let mut split_config = config.clone();
            split_config.limits = csp_core::Limits::default();
            let (subs, _) = parallel::split(model, &split_config, split::ENGINE_SHARE_DEPTH)
                .map_err(|e| Failure::Other(e.to_string()))?;
            let deadline = config.limits.time.map(|t| started + t);
            let count = |i: usize| {
                let mut config = config.clone();
                if let Some(deadline) = deadline {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(Unit::Stopped("stopped by time limit".into()));
                    }
                    config.limits.time = Some(left);
                }
                let result = parallel::count_subproblem(model, &config, &subs[mine(i)])
                    .map_err(|e| Failure::Other(e.to_string()))?;
                Ok(match result.status {
                    SearchStatus::Stopped(reason) => Unit::Stopped(args::stopped_by(reason)),
                    _ => Unit::Counted(vec![result.solutions]),
                })
            };
            let method = ShareMethod::Engine {
                model: engine.variant().to_string(),
                strategy: engine.strategy_name(),
            };
            // Queens::new accepted it: at most MAX_GLOBAL_N.
            let n = u32::try_from(r.n).unwrap_or(u32::MAX);
            let ended = run(n, &method, subs.len(), 1, &count)?;
            (method, n, ended)
        }
    };
    let Ended::Complete(sums) = ended else {
        return Ok(Done::Incomplete);
    };
    let total = sums[0];
    let unique = (share_method == ShareMethod::Symmetry).then(|| sums[1]);
    if r.part.is_some() {
        let line = PartialCount {
            n,
            part,
            parts,
            method: share_method.clone(),
            count: total,
            unique,
            program: split::PROGRAM_VERSION.to_string(),
        };
        match &r.key {
            Some(key) => csp_cli::try_outln!("{}", key.sign(&line.to_string()))?,
            None => csp_cli::try_outln!("{line}")?,
        }
    } else if let Some(unique) = unique {
        csp_cli::try_outln!("{total} solutions, {unique} unique up to rotation and reflection")?;
    } else {
        csp_cli::try_outln!("{total}")?;
    }
    if engine.strategy.stats {
        let name = match share_method {
            ShareMethod::Bitboard => "bitboard",
            ShareMethod::Symmetry => "symmetry",
            ShareMethod::Engine { .. } => "engine",
        };
        counter_stats(total, started, name);
    }
    Ok(Done::Complete)
}
