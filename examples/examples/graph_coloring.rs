//! Graph colouring: reads a DIMACS `.col` file and finds its chromatic number by
//! branch and bound or by trying fewer and fewer colours, then prints a colouring.
//!
//! ```text
//! cargo run --release --example graph_coloring -- examples/data/queen6_6.col --stats
//! cargo run --release --example graph_coloring -- examples/data/myciel4.col --method decreasing
//! ```

use clap::Parser;
use csp_core::{Config, Pruning, VarOrder};
use csp_examples::cli;
use csp_examples::dimacs;
use csp_examples::graph::Graph;
use csp_examples::graph_coloring::{self, Method};

/// Find the chromatic number of a graph in DIMACS format.
#[derive(Parser)]
#[command(name = "graph_coloring")]
struct Cli {
    /// The DIMACS `.col` file (`-` for standard input).
    file: String,
    /// How to search: bnb (minimise the colours in one search) or decreasing
    /// (one k-colouring search per k).
    #[arg(long, value_enum, default_value_t = Method::BranchAndBound)]
    method: Method,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let begun = std::time::Instant::now();
    let args: Cli = cli::parse_args();
    let (text, source) =
        cli::read_input(Some(&args.file)).unwrap_or_else(|e| csp_cli::exit_usage(e));
    let graph = dimacs::parse(&text).unwrap_or_else(|e| csp_cli::exit_usage(e.in_source(&source)));
    let defaults = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_var_order(VarOrder::MrvDegree);
    // --time-limit counts the reading of the graph too.
    let config = csp_cli::time_left(cli::config_from(&args.strategy, defaults), begun);
    csp_cli::outln!(
        "{source}: {} vertices, {} edges; strategy {}",
        graph.num_vertices(),
        graph.num_edges(),
        cli::strategy_name(&config)
    );
    let report = graph_coloring::chromatic_number(&graph, args.method, config.clone())
        .unwrap_or_else(|e| csp_cli::exit_usage(e));
    csp_cli::outln!(
        "clique of {} vertices: at least {} colours",
        report.clique.len(),
        report.clique.len()
    );
    csp_cli::outln!("DSATUR: {} colours", report.heuristic);
    for a in &report.attempts {
        let outcome = match (a.found, a.status.is_complete()) {
            (true, _) => "found".to_string(),
            (false, true) => "impossible".to_string(),
            (false, false) => match a.status {
                csp_core::SearchStatus::Stopped(r) => {
                    format!("unknown (stopped: {})", cli::reason_words(r))
                }
                s => format!("unknown ({s})"),
            },
        };
        csp_cli::outln!("  {} colours: {outcome} ({} nodes)", a.k, a.nodes);
    }
    match (report.chromatic_number(), report.status) {
        (None, csp_core::SearchStatus::Stopped(r)) => csp_cli::outln!(
            "{report} (unknown beyond that: stopped: {})",
            cli::reason_words(r)
        ),
        _ => csp_cli::outln!("{report}"),
    }
    let colors: Vec<String> = report
        .coloring
        .iter()
        .map(|c| (c + 1).to_string())
        .collect();
    csp_cli::outln!("colouring (vertex 1 first): {}", colors.join(" "));
    debug_assert!(graph.is_proper_coloring(&report.coloring));
    cli::report_stats(
        &args.strategy,
        &config,
        &report.stats,
        report.status,
        &[
            ("objective", report.upper.to_string()),
            (
                "colorsUsed",
                Graph::colors_used(&report.coloring).to_string(),
            ),
        ],
    );
}
