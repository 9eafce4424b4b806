//! `nqueens solve N`: print solutions as list, positions or board, from the engine, the O(n) construction or min-conflicts local search.

use std::io::{BufWriter, ErrorKind};
use std::ops::ControlFlow;

use clap::ValueEnum;
use csp_cli::cancel_on_ctrl_c;
use csp_core::{NoObserver, Pruning, ValOrder, VarOrder};
use csp_local::{LocalSearchStatus, MinConflicts};
use nqueens::board::{Format, SolutionWriter};
use nqueens::{Queens, construct};

use super::args::{self, EngineArgs};
use super::{Done, Failure, Outcome};

/// The largest board `--format board` draws (n^2 characters per solution).
pub const MAX_BOARD_N: usize = 1_000;

/// The largest board `--method construct` places: the placement and its
/// validation take about 50 bytes per row.
pub const MAX_CONSTRUCT_N: usize = 10_000_000;

/// The largest board `--method min-conflicts` places (about 300 bytes per row:
/// the model, the search's counts, the solution).
pub const MAX_MIN_CONFLICTS_N: usize = 2_000_000;

/// Up to this size `solve` without strategy options searches as the classic
/// programs do (check, input order, ascending), so the first solution of 8-queens
/// is theirs: `[0, 4, 7, 5, 2, 6, 1, 3]`.
pub const CLASSIC_MAX_N: usize = 12;

/// Up to this size `solve` for one solution without options uses the engine with
/// forward checking, first-fail and middle-out (n = 1000 in about 0.15 s); above
/// it, min-conflicts (the engine's trail grows with n^2: n = 10,000 took a
/// minute and gigabytes). Measured in docs/performance.md.
pub const ENGINE_DEFAULT_MAX_N: usize = 1_000;

/// The defaults of `solve`, shown under `--help` (they depend on N).
pub const SOLVE_DEFAULTS: &str = "Defaults: --method engine --model global. Without --pruning, \
--var and --val, the engine searches as the classic programs do (--pruning check --var input \
--val asc) up to N = 12, and with --pruning fc --var first-fail --val middle above (the classic \
order stalls past N = 27). For one solution of N > 1000 without engine options, --method \
min-conflicts.";

/// Where solutions come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Backtracking search with the csp-core engine (the default).
    Engine,
    /// The explicit O(n) placement for huge boards (one solution, validated).
    Construct,
    /// Min-conflicts local search on the global model (one solution, validated;
    /// seeded, stops after --steps repairs).
    MinConflicts,
}

/// Print solutions, one per line (`list`, `positions`) or as boards.
#[derive(clap::Args, Debug)]
#[command(after_help = SOLVE_DEFAULTS)]
pub struct Args {
    /// Board size N (0 is the empty board: one empty solution).
    #[arg(value_parser = args::parse_n, allow_negative_numbers = true)]
    n: usize,
    /// Print every solution (default: the first one).
    #[arg(long, conflicts_with = "limit")]
    all: bool,
    /// Print the first K solutions.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
    /// Output: list `[1, 3, 0, 2]` (0-based columns by row), positions ` 1 3 0 2`
    /// (printf "%2d" per queen; wider from N = 11), or board (one line per row, Q and .).
    #[arg(long, value_name = "FORMAT", default_value = "list")]
    format: Format,
    /// Where solutions come from: engine (default), construct (O(n), for huge N)
    /// or min-conflicts (local search, for large N).
    #[arg(long, value_enum)]
    method: Option<Method>,
    /// Seed of --method min-conflicts (the same seed gives the same placement).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Repair steps --method min-conflicts may take before giving up (default 10000000).
    #[arg(long, value_name = "N")]
    steps: Option<u64>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `nqueens solve`.
pub fn run(a: Args) -> Outcome {
    if a.format == Format::Board && a.n > MAX_BOARD_N {
        return Err(Failure::Usage(format!(
            "n = {} is too large for --format board (at most {MAX_BOARD_N}); use --format list or positions",
            a.n
        )));
    }
    let single = !a.all && a.limit.is_none_or(|k| k == 1);
    let method = a.method.unwrap_or(
        if single && a.n > ENGINE_DEFAULT_MAX_N && a.engine.given().is_empty() {
            Method::MinConflicts
        } else {
            Method::Engine
        },
    );
    if method != Method::MinConflicts
        && let Some(flag) = [("--seed", a.seed.is_some()), ("--steps", a.steps.is_some())]
            .into_iter()
            .find_map(|(flag, given)| given.then_some(flag))
    {
        return Err(Failure::Usage(match a.method {
            Some(m) => format!(
                "{flag} is an option of --method min-conflicts, not --method {}",
                method_name(m)
            ),
            None => format!(
                "{flag} is an option of --method min-conflicts (without --method, solve uses it \
                 only for one solution of N > {ENGINE_DEFAULT_MAX_N} without engine options)"
            ),
        }));
    }
    match method {
        Method::Engine => solve_engine(&a),
        Method::Construct => solve_construct(&a),
        Method::MinConflicts => solve_min_conflicts(&a),
    }
}

/// The method as written on the command line.
fn method_name(m: Method) -> &'static str {
    match m {
        Method::Engine => "engine",
        Method::Construct => "construct",
        Method::MinConflicts => "min-conflicts",
    }
}

/// Whether a write error means the reader went away (`| head`): then we stop
/// quietly, as a program killed by SIGPIPE would.
fn reader_gone(e: &std::io::Error) -> bool {
    e.kind() == ErrorKind::BrokenPipe
}

fn solve_engine(a: &Args) -> Outcome {
    let begun = std::time::Instant::now();
    let queens = Queens::new(a.n, a.engine.variant()).map_err(args::engine_error)?;
    let limit = if a.all {
        None
    } else {
        Some(a.limit.unwrap_or(1))
    };
    let mut config = csp_cli::time_left(a.engine.config(Some(cancel_on_ctrl_c())), begun);
    if a.n > CLASSIC_MAX_N && !a.engine.strategy.strategy_given() {
        // The classic order stalls past n = 27; this one finds n = 1000 at once.
        config = config
            .with_pruning(Pruning::ForwardChecking)
            .with_var_order(VarOrder::FirstFail)
            .with_val_order(ValOrder::MiddleOut);
    }
    // A heartbeat on a terminal, cleared before each solution is written.
    let hint = csp_cli::progress::hint_for(&config);
    let config = csp_cli::progress::heartbeat(config, hint);
    let mut out = SolutionWriter::new(BufWriter::new(std::io::stdout().lock()), a.format);
    let mut write_error = None;
    let outcome = queens
        .solve(config.clone(), NoObserver, limit, |columns| {
            csp_cli::progress::clear();
            match out.write(columns) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    write_error = Some(e);
                    ControlFlow::Break(())
                }
            }
        })
        .map_err(args::engine_error)?;
    let flushed = out.finish().map(|_| ());
    match write_error.map_or(flushed, Err) {
        Err(e) if reader_gone(&e) => return Ok(Done::Complete),
        Err(e) => return Err(e.into()),
        Ok(()) => {}
    }
    let done = match outcome.stop_reason() {
        Some(reason) => {
            csp_cli::errln!(
                "incomplete: {} after {} solution{} ({} nodes); more may exist",
                args::stopped_by(reason),
                outcome.found,
                if outcome.found == 1 { "" } else { "s" },
                outcome.stats.tried
            );
            Done::Incomplete
        }
        None => {
            if outcome.found == 0 {
                csp_cli::errln!("no solution: the {}-queens problem has none", a.n);
            }
            Done::Complete
        }
    };
    if a.engine.strategy.stats {
        let used = csp_core::Strategy::new(config.pruning, config.var_order, config.val_order)
            .with_backjumping(config.backjumping);
        let mut extras = a.engine.stat_extras();
        extras.retain(|(name, _)| *name != "strategy");
        extras.push(("strategy", format!("\"{used}\"")));
        csp_cli::print_stats(&outcome.stats, outcome.status, &extras);
    }
    Ok(done)
}

fn solve_construct(a: &Args) -> Outcome {
    a.engine.refuse_for("construct")?;
    if a.all || a.limit.is_some_and(|k| k > 1) {
        return Err(Failure::Usage(format!(
            "{} cannot be used with --method construct (it builds one solution)",
            if a.all { "--all" } else { "--limit" }
        )));
    }
    if a.n > MAX_CONSTRUCT_N {
        return Err(Failure::Usage(format!(
            "n = {} is too large for --method construct (at most {MAX_CONSTRUCT_N})",
            a.n
        )));
    }
    let columns = match construct::construct(a.n) {
        Ok(columns) => columns,
        Err(construct::ConstructError::NoSolution { n }) => {
            csp_cli::errln!("no solution: the {n}-queens problem has none");
            return Ok(Done::Complete);
        }
    };
    construct::validate(&columns).map_err(|e| {
        Failure::Other(format!(
            "internal error: the construction for n = {} is not a solution: {e}",
            a.n
        ))
    })?;
    if a.engine.strategy.stats {
        csp_cli::errln!("%%%mzn-stat: solutions=1");
        csp_cli::errln!("%%%mzn-stat: method=\"construct\"");
        csp_cli::errln!("%%%mzn-stat-end");
    }
    let mut out = SolutionWriter::new(BufWriter::new(std::io::stdout().lock()), a.format);
    match out.write(&columns).and_then(|()| out.finish().map(|_| ())) {
        Err(e) if !reader_gone(&e) => Err(e.into()),
        _ => Ok(Done::Complete),
    }
}

fn solve_min_conflicts(a: &Args) -> Outcome {
    if let Some(flag) = a.engine.given().into_iter().find(|&f| f != "--time-limit") {
        return Err(Failure::Usage(format!(
            "{flag} cannot be used with --method min-conflicts (it searches the global model \
             by local search; --time-limit, --seed and --steps bound it)"
        )));
    }
    if a.all || a.limit.is_some_and(|k| k > 1) {
        return Err(Failure::Usage(format!(
            "{} cannot be used with --method min-conflicts (it finds one solution)",
            if a.all { "--all" } else { "--limit" }
        )));
    }
    if a.n > MAX_MIN_CONFLICTS_N {
        let which = if a.method.is_some() {
            "--method min-conflicts"
        } else {
            "min-conflicts (the default method for one solution of N > 1000)"
        };
        return Err(Failure::Usage(format!(
            "n = {} is too large for {which} (at most {MAX_MIN_CONFLICTS_N}); \
             use --method construct",
            a.n
        )));
    }
    if a.n == 2 || a.n == 3 {
        // Local search cannot prove this; the puzzle's known answer can.
        csp_cli::errln!("no solution: the {}-queens problem has none", a.n);
        return Ok(Done::Complete);
    }
    let internal = |e: &dyn std::fmt::Display| Failure::Other(format!("internal error: {e}"));
    // Local search reads the declared domains and never builds the n^2-bit
    // domain store that `nqueens::model`'s size limit protects against.
    let (model, _) = nqueens::model::global_model_any_size(a.n).map_err(|e| internal(&e))?;
    let seed = a.seed.unwrap_or(1);
    let mut search = MinConflicts::new()
        .with_seed(seed)
        .with_max_steps(a.steps.unwrap_or(10_000_000))
        .with_cancel_flag(cancel_on_ctrl_c());
    if let Some(limit) = a.engine.strategy.time_limit {
        search = search.with_time_limit(limit);
    }
    let result = search.solve(&model).map_err(|e| internal(&e))?;
    if a.engine.strategy.stats {
        csp_cli::errln!(
            "%%%mzn-stat: solutions={}",
            u8::from(result.solution.is_some())
        );
        csp_cli::errln!("%%%mzn-stat: method=\"min-conflicts\"");
        csp_cli::errln!("%%%mzn-stat: seed={seed}");
        csp_cli::errln!("%%%mzn-stat: steps={}", result.steps);
        csp_cli::errln!("%%%mzn-stat: initialConflicts={}", result.initial_conflicts);
        csp_cli::errln!("%%%mzn-stat: solveTime={:.6}", result.elapsed.as_secs_f64());
        csp_cli::errln!("%%%mzn-stat-end");
    }
    let Some(values) = result.solution else {
        let why = match result.status {
            LocalSearchStatus::StepLimit => "stopped by step limit",
            LocalSearchStatus::TimeLimit => "stopped by time limit",
            _ => "cancelled by Ctrl-C",
        };
        let when = if result.steps == 0 && result.status != LocalSearchStatus::StepLimit {
            "during the greedy start".to_string()
        } else {
            format!(
                "after {} steps with {} conflicts left",
                result.steps, result.conflicts_left
            )
        };
        csp_cli::errln!(
            "incomplete: {why} {when}; no solution found \
             (local search proves nothing: try another --seed or more --steps)"
        );
        return Ok(Done::Incomplete);
    };
    // Checked by the model already; checked again without it.
    let columns: Vec<usize> = values.iter().map(|&v| v as usize).collect();
    construct::validate(&columns).map_err(|e| {
        Failure::Other(format!(
            "internal error: min-conflicts for n = {} returned a non-solution: {e}",
            a.n
        ))
    })?;
    let mut out = SolutionWriter::new(BufWriter::new(std::io::stdout().lock()), a.format);
    match out.write(&columns).and_then(|()| out.finish().map(|_| ())) {
        Err(e) if !reader_gone(&e) => Err(e.into()),
        _ => Ok(Done::Complete),
    }
}
