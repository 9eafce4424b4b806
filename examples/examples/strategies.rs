//! Strategy comparisons on other models: Sudoku uniqueness proofs and graph-colouring refutations.
//!
//! The same verified comparison as `nqueens compare` (csp_compare), on
//! models from this package:
//!
//! - `--model sudoku`: count the solutions of each puzzle in
//!   `examples/data/sudoku.txt` (size = the puzzle's number, 1 to 7); counting
//!   to the end proves the solution unique;
//! - `--model coloring`: count the k-colourings of the Mycielski graph
//!   `myciel{k}` (chromatic number k + 1), for k = 2..=5: every run must prove
//!   that there is none. The first two vertices (an edge) get colours 0 and 1.
//!
//! ```text
//! cargo run --release -p csp-examples --example strategies -- --model sudoku
//! cargo run --release -p csp-examples --example strategies -- --model coloring --chart coloring.svg
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use csp_compare::{ChartLabels, CompareOptions, Entry, compare};
use csp_core::{CspError, Limits, Model, Strategy};
use csp_examples::cli;
use csp_examples::graph_coloring::ColoringModel;
use csp_examples::graph_generators::mycielski;
use csp_examples::sudoku::{SudokuModel, parse_puzzles};

const PUZZLES: &str = include_str!("../data/sudoku.txt");

/// Which model to compare strategies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Which {
    /// The puzzles of examples/data/sudoku.txt, counted to prove uniqueness.
    Sudoku,
    /// k-colourings of the Mycielski graphs myciel2..myciel5 (there are none).
    Coloring,
}

/// The table's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A Markdown table.
    Md,
    /// CSV with a header line.
    Csv,
}

/// Compare search strategies on Sudoku or graph colouring, with a self-check.
#[derive(Parser)]
#[command(name = "strategies")]
struct Cli {
    /// The model.
    #[arg(long, value_enum)]
    model: Which,
    /// Comma-separated strategies (`check,fc,mac+dom-wdeg`).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "check,fc,mac,fc+first-fail,mac+first-fail,mac+dom-wdeg,propagators+first-fail"
    )]
    strategies: String,
    /// Stop each run after this many nodes; 0: no limit.
    #[arg(long, value_name = "NODES", default_value_t = 10_000_000)]
    node_limit: u64,
    /// Stop each run after this long (e.g. 10s).
    #[arg(long, value_name = "DURATION", value_parser = csp_cli::parse_duration)]
    time_limit: Option<Duration>,
    /// Output format: md (Markdown) or csv.
    #[arg(long, value_enum, default_value = "md")]
    format: Format,
    /// Write the table to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Also write the SVG chart to FILE.
    #[arg(long, value_name = "FILE")]
    chart: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args: Cli = cli::parse_args();
    let mut entries = Vec::new();
    for item in args
        .strategies
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        match item.parse::<Strategy>() {
            Ok(s) => entries.push(Entry::engine(item, s, "")),
            Err(e) => csp_cli::exit_usage(format!("'{item}': {e}")),
        }
    }
    let puzzles = parse_puzzles(PUZZLES).unwrap_or_else(|e| csp_cli::exit_usage(e));
    let build = |size: usize, _: &str| -> Result<Model, CspError> {
        match args.model {
            Which::Sudoku => {
                let entry =
                    puzzles
                        .get(size.wrapping_sub(1))
                        .ok_or_else(|| CspError::InvalidArgument {
                            context: "sudoku".into(),
                            message: format!("no puzzle number {size}"),
                        })?;
                Ok(SudokuModel::new(&entry.puzzle)?.model)
            }
            Which::Coloring => {
                Ok(ColoringModel::k_coloring(&mycielski(size), size, &[0, 1])?.model)
            }
        }
    };
    let (sizes, labels): (Vec<usize>, _) = match args.model {
        Which::Sudoku => (
            (1..=puzzles.len()).collect(),
            ChartLabels {
                title: "Sudoku: proving each puzzle's solution unique".into(),
                size: "puzzle (examples/data/sudoku.txt)".into(),
            },
        ),
        Which::Coloring => (
            (2..=5).collect(),
            ChartLabels {
                title: "Graph colouring: proving myciel k has no k-colouring".into(),
                size: "k (Mycielski graph myciel k, k colours)".into(),
            },
        ),
    };
    let options = CompareOptions {
        limits: Limits {
            nodes: (args.node_limit > 0).then_some(args.node_limit),
            time: args.time_limit,
            // Ctrl-C stops the runs; the table of what was measured is printed.
            cancel: Some(csp_cli::cancel_on_ctrl_c()),
            ..Limits::default()
        },
        ..CompareOptions::default()
    };
    let table = match compare(&build, &entries, &sizes, &options) {
        Ok(t) => t,
        Err(e) => {
            csp_cli::errln!("error: the comparison failed its self-check: {e}");
            return ExitCode::from(1);
        }
    };
    let write = |path: &PathBuf, text: String| {
        std::fs::write(path, text).unwrap_or_else(|e| {
            csp_cli::errln!("error: cannot write '{}': {e}", path.display());
            std::process::exit(1)
        })
    };
    if let Some(path) = &args.chart {
        write(path, table.to_svg_with(&labels));
    }
    let text = match args.format {
        Format::Md => table.to_markdown(),
        Format::Csv => table.to_csv(),
    };
    match &args.output {
        Some(path) => write(path, text),
        None => csp_cli::out!("{text}"),
    }
    ExitCode::SUCCESS
}
