//! `nqueens diff N --a S --b S`: where the searches of two strategies part ways.

use std::io::Write;

use csp_core::Strategy;
use csp_trace::{TraceComparison, compare_cut_traces};
use nqueens::tree::diff::{StrategyRun, explain};
use nqueens::{Queens, Variant};

use super::args;
use super::trace::{DEFAULT_MAX_EVENTS, DEFAULT_NODE_LIMIT};
use super::{Done, Outcome};

/// Compare the searches of two strategies: the first event where they part
/// (node ids, `q[row] = column`, accepted or rejected and why), how many
/// nodes each explores below that point, and the totals.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "A strategy is a pruning level (none, check, fc, mac, propagators; with a look-back suffix check-gbj, check-cbj, fc-cbj, mac-cbj) \
optionally joined with a variable order (first-fail, mrv-degree, dom-wdeg, afc-size, random[:SEED]) \
and a value order (asc, desc, middle, lcv, random-value[:SEED]) by '+', as in `compare`: check, fc, \
mac+first-fail+lcv.\n\nExamples:\n  nqueens diff 4 --a check --b fc\n  \
nqueens diff 8 --a fc --b fc+first-fail --all"
)]
pub struct Args {
    /// Board size N.
    #[arg(value_parser = args::parse_n, allow_negative_numbers = true)]
    n: usize,
    /// The first strategy.
    #[arg(long = "a", value_name = "STRATEGY")]
    a: Strategy,
    /// The second strategy.
    #[arg(long = "b", value_name = "STRATEGY")]
    b: Strategy,
    /// Compare the searches for every solution (default: up to the first one).
    #[arg(long)]
    all: bool,
    /// Model: global (the default) or pairwise.
    #[arg(long = "model", value_name = "VARIANT")]
    model: Option<Variant>,
    /// Stop each search after this many nodes.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_NODE_LIMIT)]
    node_limit: u64,
    /// Keep at most this many events of each search.
    #[arg(long, value_name = "E", default_value_t = DEFAULT_MAX_EVENTS)]
    max_events: usize,
}

/// Runs `nqueens diff`.
pub fn run(a: Args) -> Outcome {
    let variant = a.model.unwrap_or_default();
    let queens = Queens::new(a.n, variant).map_err(args::engine_error)?;
    // Ctrl-C stops the search being recorded; the part recorded is still
    // compared and printed (status 1), as with a node limit.
    let cancel = csp_cli::cancel_on_ctrl_c();
    let record = |strategy: Strategy| {
        let mut config = strategy.config().with_cancel_flag(cancel.clone());
        config.limits.nodes = Some(a.node_limit);
        let (trace, outcome) = nqueens::tree::record(&queens, config, a.all, a.max_events)?;
        Ok::<_, nqueens::Error>(StrategyRun {
            strategy,
            trace,
            outcome,
        })
    };
    let run_a = record(a.a).map_err(args::engine_error)?;
    let run_b = record(a.b).map_err(args::engine_error)?;
    let mut text = format!(
        "{}-queens ({variant} model), {}\n",
        a.n,
        if a.all {
            "all solutions"
        } else {
            "up to the first solution"
        }
    );
    text.push_str(&explain(&queens, &run_a, &run_b));
    let cut = |run: &StrategyRun| run.trace.is_truncated() || run.outcome.stop_reason().is_some();
    let open = match compare_cut_traces(&run_a.trace, cut(&run_a), &run_b.trace, cut(&run_b)) {
        TraceComparison::CannotTell { .. } => true,
        TraceComparison::Parted(d) => d.a_cut || d.b_cut,
        TraceComparison::Same => false,
    };
    let mut stopped = open;
    for (tag, run) in [("a", &run_a), ("b", &run_b)] {
        if run.trace.is_truncated() && open {
            text.push_str(&format!(
                "note: {tag}'s trace holds at most --max-events {} events; raise it to compare further\n",
                a.max_events
            ));
        }
        if let Some(reason) = run.outcome.stop_reason() {
            stopped = true;
            text.push_str(&format!(
                "note: {tag}'s search was {}; counts cover the part searched\n",
                args::stopped_by(reason)
            ));
        }
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush())?;
    Ok(if stopped {
        Done::Incomplete
    } else {
        Done::Complete
    })
}
