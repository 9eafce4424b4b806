//! `nqueens count N`: the number of solutions, by the bitboard counter, the symmetry counter or the engine.

use std::time::Instant;

use clap::ValueEnum;
use csp_cli::cancel_on_ctrl_c;
use csp_core::parallel::{self, ParallelOptions};
use nqueens::bitboard::{self, CounterError};
use nqueens::share_key::ShareKey;
use nqueens::{Queens, symmetry};

use super::args::{self, EngineArgs};
use super::progress::{self, EngineProgress};
use super::shares;
use super::{Done, Failure, Outcome};

/// How to count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// The csp-core engine with the chosen model and strategy.
    Engine,
    /// Bitmask backtracking with mirror halving (n <= 32).
    Bitboard,
    /// One board per symmetry class; also prints the number of unique solutions (n <= 32).
    Symmetry,
}

impl Method {
    fn as_str(self) -> &'static str {
        match self {
            Method::Engine => "engine",
            Method::Bitboard => "bitboard",
            Method::Symmetry => "symmetry",
        }
    }
}

/// Print the number of solutions.
///
/// The output is the bare number (`nqueens count 8` prints `92`); with
/// `--method symmetry` it is `92 solutions, 12 unique up to rotation and
/// reflection`; with `--part I/K` it is one partial-count line for `merge`.
/// `--checkpoint FILE` saves progress and resumes from it.
#[derive(clap::Args, Debug)]
#[command(after_help = args::ENGINE_DEFAULTS)]
pub struct Args {
    /// Board size N (0 is the empty board, with one solution).
    #[arg(value_parser = args::parse_n, allow_negative_numbers = true)]
    n: usize,
    /// Counter: bitboard (the default when no engine option is given), symmetry,
    /// or engine (the default when --model, --pruning, --var, --val, --node-limit
    /// or --time-limit is given).
    #[arg(long, value_enum)]
    method: Option<Method>,
    /// Threads: the bitboard and symmetry counters use all cores by default; the
    /// engine counts on one thread unless --threads is given. At most 256.
    #[arg(long, value_name = "T", value_parser = csp_cli::parse_threads)]
    threads: Option<usize>,
    /// Count only share I of K (any method; one thread unless --threads is given)
    /// and print a partial-count line; `nqueens merge` sums the K lines.
    #[arg(long, value_name = "I/K", value_parser = args::parse_part)]
    part: Option<(usize, usize)>,
    /// Record finished subproblems in FILE (atomically, at most every
    /// --checkpoint-interval and on Ctrl-C or SIGTERM); rerunning the same
    /// command resumes from it.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<std::path::PathBuf>,
    /// Sign the partial-count line with HMAC-SHA256 under the key in SOURCE:
    /// a file holding the key, or `env:NAME` for the environment variable
    /// NAME (at least 16 bytes); `merge --share-key` checks it. The
    /// checkpoint, if any, is signed and checked with the same key.
    #[arg(long, value_name = "SOURCE", requires = "part")]
    share_key: Option<String>,
    /// Save the checkpoint at most this often: `500ms`, `5s`, `1m` [default: 5s].
    #[arg(long, value_name = "TIME", value_parser = csp_cli::parse_duration, requires = "checkpoint")]
    checkpoint_interval: Option<std::time::Duration>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `nqueens count`.
pub fn run(a: Args) -> Outcome {
    let method = match a.method {
        Some(m) => m,
        None if a.engine.given().is_empty() => Method::Bitboard,
        None => Method::Engine,
    };
    if method != Method::Engine {
        a.engine.refuse_for(method.as_str())?;
    }
    if a.checkpoint.as_deref() == Some(std::path::Path::new("-")) {
        return Err(Failure::Usage(
            "--checkpoint - is refused: a checkpoint must be a file that can be replaced \
             (for a file named -, write ./-)"
                .into(),
        ));
    }
    if a.part.is_some() || a.checkpoint.is_some() {
        let key = match &a.share_key {
            Some(source) => Some(ShareKey::load(source).map_err(Failure::Usage)?),
            None => None,
        };
        let default_threads = match (a.part, method) {
            (None, Method::Bitboard | Method::Symmetry) => rayon::current_num_threads(),
            _ => 1,
        };
        let request = shares::Request {
            n: a.n,
            part: a.part,
            threads: a.threads.unwrap_or(default_threads),
            checkpoint: a.checkpoint,
            interval: a.checkpoint_interval.unwrap_or(shares::DEFAULT_INTERVAL),
            key,
        };
        return shares::count(method, &request, &a.engine);
    }
    let started = Instant::now();
    match method {
        Method::Bitboard => {
            let total = bitboard(a.n, a.threads)?;
            csp_cli::try_outln!("{total}")?;
            if a.engine.strategy.stats {
                counter_stats(total, started, "bitboard");
            }
            Ok(Done::Complete)
        }
        Method::Symmetry => {
            let n = counter_size(a.n)?;
            let bar = progress::spinner(format!("counting {n}-queens by symmetry classes"));
            let result = symmetry::count_parallel(n, a.threads);
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
            let counted = result.map_err(counter_error)?;
            csp_cli::try_outln!(
                "{} solutions, {} unique up to rotation and reflection",
                counted.total,
                counted.unique
            )?;
            if a.engine.strategy.stats {
                counter_stats(counted.total, started, "symmetry");
            }
            Ok(Done::Complete)
        }
        Method::Engine => count_engine(a.n, a.threads, &a.engine),
    }
}

/// Counts with the parallel bitboard counter (`threads = None`: all cores),
/// with a spinner on a terminal.
pub fn bitboard(n: usize, threads: Option<usize>) -> Result<u64, Failure> {
    let n = counter_size(n)?;
    let bar = progress::spinner(format!("counting {n}-queens"));
    let result = bitboard::count_parallel(n, threads);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    result.map_err(counter_error)
}

/// Checks `n` against the counters' mask width.
pub(super) fn counter_size(n: usize) -> Result<u32, Failure> {
    u32::try_from(n)
        .ok()
        .filter(|&n| n <= bitboard::MAX_N)
        .ok_or_else(|| {
            Failure::Usage(format!(
                "n = {n} is too large for the bitboard counters (at most {})",
                bitboard::MAX_N
            ))
        })
}

pub(super) fn counter_error(e: CounterError) -> Failure {
    match e {
        CounterError::ThreadPool(_) => Failure::Other(e.to_string()),
        e => Failure::Usage(e.to_string()),
    }
}

/// The statistics a dedicated counter has: solutions and time.
pub(super) fn counter_stats(solutions: u64, started: Instant, method: &str) {
    csp_cli::errln!("%%%mzn-stat: solutions={solutions}");
    csp_cli::errln!(
        "%%%mzn-stat: solveTime={:.6}",
        started.elapsed().as_secs_f64()
    );
    csp_cli::errln!("%%%mzn-stat: method=\"{method}\"");
    csp_cli::errln!("%%%mzn-stat-end");
}

/// Counts with the engine: one thread with a progress display by default,
/// csp-core's parallel count (subtrees on a rayon pool) with `--threads`.
fn count_engine(n: usize, threads: Option<usize>, engine: &EngineArgs) -> Outcome {
    let begun = std::time::Instant::now();
    let queens = Queens::new(n, engine.variant()).map_err(args::engine_error)?;
    // --time-limit counts the model's construction too (15 ms at n = 10,000).
    let config = csp_cli::time_left(engine.config(Some(cancel_on_ctrl_c())), begun);
    let result = if let Some(t) = threads {
        let options = ParallelOptions {
            depth: None,
            threads: Some(t),
        };
        let started = std::time::Instant::now();
        let mut r = parallel::count_parallel(queens.model(), &config, &options)
            .map_err(|e| Failure::Other(e.to_string()))?;
        // `solveTime` is wall-clock time, as with one thread (the library's
        // `elapsed` adds up the workers' times).
        r.stats.elapsed = started.elapsed();
        r
    } else if let Some(mut p) = EngineProgress::new(n) {
        let r = queens.count_observed(config, &mut p);
        p.finish();
        r.map_err(args::engine_error)?
    } else {
        queens.count(config).map_err(args::engine_error)?
    };
    let done = if result.is_complete() {
        csp_cli::try_outln!("{}", result.solutions)?;
        Done::Complete
    } else {
        let why = match result.status {
            csp_core::SearchStatus::Stopped(r) => args::stopped_by(r),
            s => s.to_string(),
        };
        csp_cli::try_outln!(
            "at least {} (incomplete: {why} after {} nodes)",
            result.solutions,
            result.stats.tried
        )?;
        Done::Incomplete
    };
    if engine.strategy.stats {
        csp_cli::print_stats(&result.stats, result.status, &engine.stat_extras());
    }
    Ok(done)
}
