//! `nqueens trace N`: the search trace as an indented state-space tree, or as JSON Lines.

use std::io::Write;

use clap::ValueEnum;
use nqueens::{Queens, trace_text};

use super::args::{self, EngineArgs};
use super::{Done, Outcome};

/// The node limit of a trace when `--node-limit` is not given, so that a trace
/// always ends (8-queens with `check` tries 15,720 values for all solutions).
pub const DEFAULT_NODE_LIMIT: u64 = 100_000;

/// Events kept by default; past them the trace says it was cut.
pub const DEFAULT_MAX_EVENTS: usize = 1_000_000;

/// How to print a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TraceFormat {
    /// An indented state-space tree, one node per line.
    Text,
    /// csp-core's JSON Lines: a `model` line, then one event per line.
    Json,
}

/// Print the search trace: each value tried (`row 2 = col 1`), accepted or
/// rejected (with the constraint and the lowest attacking row), values pruned,
/// backtracks and solutions.
#[derive(clap::Args, Debug)]
#[command(after_help = args::ENGINE_DEFAULTS)]
pub struct Args {
    /// Board size N.
    #[arg(value_parser = args::parse_n, allow_negative_numbers = true)]
    n: usize,
    /// Trace the search for every solution (default: up to the first one).
    #[arg(long)]
    all: bool,
    /// Output: text (a tree) or json (JSON Lines).
    #[arg(long, value_enum, default_value = "text")]
    format: TraceFormat,
    /// Keep at most this many events (the search still runs to its end).
    #[arg(long, value_name = "E", default_value_t = DEFAULT_MAX_EVENTS)]
    max_events: usize,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `nqueens trace`.
pub fn run(a: Args) -> Outcome {
    let begun = std::time::Instant::now();
    let queens = Queens::new(a.n, a.engine.variant()).map_err(args::engine_error)?;
    let mut config = csp_cli::time_left(a.engine.config(Some(csp_cli::cancel_on_ctrl_c())), begun);
    config.limits.nodes = Some(a.engine.strategy.node_limit.unwrap_or(DEFAULT_NODE_LIMIT));
    let run =
        trace_text::record(&queens, config, a.all, a.max_events).map_err(args::engine_error)?;
    let text = match a.format {
        TraceFormat::Text => trace_text::to_text(&queens, &run),
        TraceFormat::Json => run.trace.to_json_lines(queens.model()),
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(Done::Complete),
        Err(e) => return Err(e.into()),
        Ok(()) => {}
    }
    if a.engine.strategy.stats {
        csp_cli::print_stats(&run.stats, run.status, &a.engine.stat_extras());
    }
    Ok(match run.status {
        csp_core::SearchStatus::Stopped(reason) => {
            if a.format == TraceFormat::Json {
                csp_cli::errln!("incomplete: {}", args::stopped_by(reason));
            }
            Done::Incomplete
        }
        _ => Done::Complete,
    })
}
