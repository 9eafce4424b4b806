//! `nqueens tree N`: the state-space tree as an SVG picture (miniature boards), DOT or JSON Lines.

use std::io::Write;
use std::path::PathBuf;

use nqueens::Queens;
use nqueens::tree::{self, TreeFormat, TreeOptions};

use super::args::{self, EngineArgs};
use super::trace::{DEFAULT_MAX_EVENTS, DEFAULT_NODE_LIMIT};
use super::{Done, Failure, Outcome};

/// Draw the state-space tree of the search: a node per value tried, dead ends
/// crossed out with the constraint that failed, solutions starred, pruned
/// squares crossed on each miniature board; hover a node for why.
#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "{}\n\nExamples:\n  nqueens tree 4 -o queens4-check.svg\n  \
nqueens tree 4 --pruning fc --all -o fc-all.svg\n  nqueens tree 5 --pruning mac --var first-fail \
--format dot | dot -Tpng > tree.png\n  nqueens tree 6 --format json > trace.jsonl",
    args::ENGINE_DEFAULTS
))]
pub struct Args {
    /// Board size N.
    #[arg(value_parser = args::parse_n, allow_negative_numbers = true)]
    n: usize,
    /// Draw the search for every solution (default: up to the first one).
    #[arg(long)]
    all: bool,
    /// Output: svg (a picture, laid out here), dot (Graphviz) or json (JSON Lines).
    #[arg(long, value_name = "FORMAT", default_value = "svg")]
    format: TreeFormat,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Keep at most this many events (the search still runs to its end).
    #[arg(long, value_name = "E", default_value_t = DEFAULT_MAX_EVENTS)]
    max_events: usize,
    /// SVG: draw at most this many nodes, in visit order.
    #[arg(long, value_name = "K", default_value_t = 2_000)]
    max_nodes: usize,
    /// SVG: plain numbered boxes instead of miniature boards.
    #[arg(long)]
    plain: bool,
    /// SVG: also list the pruned values in words under each node.
    #[arg(long)]
    pruned_text: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `nqueens tree`.
pub fn run(a: Args) -> Outcome {
    let begun = std::time::Instant::now();
    if a.output.is_none() && a.format == TreeFormat::Svg {
        csp_cli::output::refuse_terminal("SVG").map_err(Failure::Usage)?;
    }
    let queens = Queens::new(a.n, a.engine.variant()).map_err(args::engine_error)?;
    let cancel = csp_cli::cancel_on_ctrl_c();
    let mut config = csp_cli::time_left(a.engine.config(Some(cancel.clone())), begun);
    config.limits.nodes = Some(a.engine.strategy.node_limit.unwrap_or(DEFAULT_NODE_LIMIT));
    // The time limit covers the drawing too: the search gets nine tenths
    // of it, and the drawing stops (no picture) if it runs past the rest.
    let deadline = config
        .limits
        .time
        .and_then(|t| std::time::Instant::now().checked_add(t));
    config.limits.time = config.limits.time.map(|t| t - t / 10);
    let (trace, outcome) =
        tree::record(&queens, config, a.all, a.max_events).map_err(args::engine_error)?;
    // The process ends with this command: the trace (up to millions of
    // events) is not freed, which would delay the exit after a limit.
    let trace: &csp_trace::Trace = Box::leak(Box::new(trace));
    if cancel.is_cancelled() {
        // Ctrl-C: no picture, and no time spent laying one out.
        csp_cli::errln!("cancelled by Ctrl-C: no picture written");
        return Ok(Done::Incomplete);
    }
    let title = format!(
        "{}-queens, {} ({} model), {}",
        a.n,
        a.engine.strategy_name(),
        a.engine.variant(),
        if a.all {
            "all solutions"
        } else {
            "up to the first solution"
        }
    );
    let options = TreeOptions {
        format: a.format,
        boards: !a.plain,
        pruned_text: a.pruned_text,
        max_nodes: a.max_nodes,
    };
    // Asked every few thousand events or nodes while the picture is drawn.
    // Once the limit or Ctrl-C comes, the program ends there: what the
    // drawing built so far (hundreds of thousands of strings for a large
    // tree) is not freed, which would take longer than the stop itself.
    let stop = || {
        if cancel.is_cancelled() || deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            no_picture(cancel.is_cancelled());
        }
        false
    };
    // Nor is the list of its nodes, read back once for the whole drawing.
    let drawn = trace.nodes_until(&mut || stop()).and_then(|nodes| {
        let nodes: &[csp_trace::TraceNode] = Vec::leak(nodes);
        tree::render_nodes_until(&queens, trace, nodes, &title, &options, &stop)
    });
    // `stop` never says yes (it ends the program instead).
    let Some(text) = drawn else {
        no_picture(cancel.is_cancelled())
    };
    if cancel.is_cancelled() {
        no_picture(true);
    }
    match &a.output {
        Some(path) => std::fs::write(path, text.as_bytes())
            .map_err(|e| Failure::Other(format!("cannot write {}: {e}", path.display())))?,
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                    return Ok(Done::Complete);
                }
                Err(e) => return Err(e.into()),
                Ok(()) => {}
            }
        }
    }
    if trace.is_truncated() {
        csp_cli::errln!(
            "note: the trace stopped at {} events (the search went on: {} nodes); raise --max-events to see more",
            a.max_events,
            outcome.stats.tried
        );
    }
    if a.engine.strategy.stats {
        csp_cli::print_stats(&outcome.stats, outcome.status, &a.engine.stat_extras());
    }
    Ok(match outcome.stop_reason() {
        Some(reason) => {
            csp_cli::errln!(
                "incomplete: {} after {} nodes",
                args::stopped_by(reason),
                outcome.stats.tried
            );
            Done::Incomplete
        }
        None => Done::Complete,
    })
}

/// Says why no picture is written and ends the program (status 1, as for
/// any stopped run) without freeing what was built.
fn no_picture(cancelled: bool) -> ! {
    if cancelled {
        csp_cli::errln!("cancelled by Ctrl-C: no picture written");
    } else {
        csp_cli::errln!(
            "stopped by the time limit while the picture was drawn: no picture written \
             (raise --time-limit or lower --max-nodes)"
        );
    }
    std::process::exit(1)
}
