//! `nqueens compare`: run several strategies on several board sizes, verify that they agree, and print the table or chart.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::ValueEnum;
use csp_compare::{ChartLabels, CompareError, CompareOptions, Mode, Row};
use csp_core::Limits;
use nqueens::compare::{self, DEFAULT_LADDER, DEFAULT_NODE_LIMIT, EntrySpec};

use super::{Done, Failure, Outcome};

/// Count all solutions or find the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Count every solution (a complete search).
    Count,
    /// Stop at the first solution.
    First,
}

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A Markdown table.
    Md,
    /// CSV with a header line (times in seconds).
    Csv,
    /// JSON.
    Json,
    /// An SVG chart: nodes and time against N, one line per strategy.
    Svg,
}

/// A parsed `--strategies` list (a newtype so that clap keeps it as one value).
#[derive(Clone, Debug)]
pub struct Entries(Vec<EntrySpec>);

/// Parsed `--n` sizes.
#[derive(Clone, Debug)]
pub struct Sizes(Vec<usize>);

fn parse_entries(s: &str) -> Result<Entries, String> {
    compare::parse_entries(s)
        .map(Entries)
        .map_err(|e| e.to_string())
}

fn parse_sizes(s: &str) -> Result<Sizes, compare::SizesError> {
    compare::parse_sizes(s).map(Sizes)
}

/// Compare strategies on several board sizes, with a self-check.
///
/// Every run's solution count (or, in first mode, its solution) is checked
/// against the others: a strategy or model variant that disagrees stops the
/// comparison with an error naming it, never a row in the table.
#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Strategies: a comma-separated list of [NAME=]STRATEGY[@MODEL]. STRATEGY is \
pruning[+var[+val]] by position, each part spelled as --pruning, --var and --val spell it: a \
pruning level (none, check, fc, mac, propagators; with a look-back suffix check-gbj, check-cbj, fc-cbj, mac-cbj), optionally a variable order (input, \
first-fail, mrv-degree, dom-wdeg, afc-size, random[:SEED]), then optionally a value order (asc, desc, \
middle, lcv, random[:SEED]); fc+input+random:7 is random values, fc+random:7 random variables. \
MODEL is pairwise (the default here, unlike the other commands' global: the ladder compares \
the textbook's pairwise strategies), global or columns (columns checked during the search, \
diagonals only on complete boards); NAME is the row label (default: the entry as written). \
The word 'dedicated' is the bitboard counter in count mode and the closed-form placement in \
first mode (no node count).\n\
Default list: {DEFAULT_LADDER}\n\n\
Budgets: every run gets the same --node-limit (default {DEFAULT_NODE_LIMIT}; 0 means no limit) and \
--time-limit. A run that reaches it is kept as a 'limit' row with the work done so far; the exit \
status is still 0. Runs under 0.2 s are repeated and the median time is shown.\n\n\
Examples:\n  nqueens compare\n  nqueens compare --n 8 --strategies check,fc,mac --format csv\n  \
nqueens compare --mode first --n 8,16,32,64 --strategies fc+first-fail,dedicated\n  \
nqueens compare --format svg -o strategies.svg"
))]
pub struct Args {
    /// Board sizes: 8, 4..=12, 4..12 (12 excluded) or a list 4,6,8.
    #[arg(long = "n", value_name = "SIZES", default_value = "4..=12", value_parser = parse_sizes)]
    sizes: Sizes,
    /// The strategies to compare (see below) [default: the ladder below].
    #[arg(long, value_name = "LIST", value_parser = parse_entries)]
    strategies: Option<Entries>,
    /// Count all solutions or find the first.
    #[arg(long, value_enum, default_value = "count")]
    mode: ModeArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    format: Format,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Also write the SVG chart of the same runs to FILE (so a table and its
    /// chart come from one measurement).
    #[arg(long, value_name = "FILE")]
    chart: Option<PathBuf>,
    /// Stop each run after this many nodes (values tried); 0: no limit.
    #[arg(long, value_name = "NODES", default_value_t = DEFAULT_NODE_LIMIT)]
    node_limit: u64,
    /// Stop each run after this long (e.g. 10s, 500ms).
    #[arg(long, value_name = "DURATION", value_parser = csp_cli::parse_duration)]
    time_limit: Option<Duration>,
    /// Leave times out (zeros in csv/json, '-' in md, an empty time panel in
    /// svg), for output that is the same on every machine.
    #[arg(long)]
    no_times: bool,
    /// The chart's title (svg).
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
}

/// Runs `nqueens compare`.
pub fn run(a: Args) -> Outcome {
    if a.output.is_none() && matches!(a.format, Format::Svg) {
        csp_cli::output::refuse_terminal("SVG").map_err(Failure::Usage)?;
    }
    let mode = match a.mode {
        ModeArg::Count => Mode::Count,
        ModeArg::First => Mode::First,
    };
    let entries = match a.strategies {
        Some(e) => e.0,
        None => compare::default_ladder()
            .map_err(|e| Failure::Other(format!("the default ladder does not parse: {e}")))?,
    };
    let cancel = csp_cli::cancel_on_ctrl_c();
    let mut options = CompareOptions {
        mode,
        limits: Limits {
            nodes: (a.node_limit > 0).then_some(a.node_limit),
            time: a.time_limit,
            // Ctrl-C stops the run in progress and the sizes after it; the
            // table of what was measured is still printed (status 1).
            cancel: Some(cancel.clone()),
            ..Limits::default()
        },
        ..CompareOptions::default()
    };
    if a.no_times {
        // No timing to take a median of: one run each, and `runs` says so.
        options.max_repeats = 1;
    }
    // Progress on a terminal only, so that scripts and tests see clean output.
    let terminal = std::io::stderr().is_terminal();
    let start = Instant::now();
    let starting = |size: usize, name: &str| {
        if terminal {
            csp_cli::err!(
                "\r\x1b[Kn = {size}: running {name} ({:.1} s so far)",
                start.elapsed().as_secs_f64()
            );
        }
    };
    let progress = |size: usize, rows: &[Row]| {
        if terminal {
            let stopped = rows.iter().filter(|r| !r.complete).count();
            csp_cli::errln!(
                "\r\x1b[Kn = {size}: {} entries verified, {stopped} stopped by a limit ({:.1} s so far)",
                rows.len(),
                start.elapsed().as_secs_f64()
            );
        }
    };
    let table = compare::compare_reporting(&entries, &a.sizes.0, &options, starting, progress)
        .map_err(|e| {
            match e {
                // A size the model or the counter refuses: bad input.
                CompareError::Model { .. } | CompareError::Custom { .. } => {
                    Failure::Usage(e.to_string())
                }
                e => Failure::Other(format!("the comparison failed its self-check: {e}")),
            }
        })?;
    let table = if a.no_times {
        let mut t = table.without_times();
        for r in &mut t.rows {
            r.runs = 1;
        }
        t
    } else {
        table
    };
    let chart = || {
        let mut labels = ChartLabels::for_mode(mode);
        labels.title = a.title.clone().unwrap_or_else(|| match mode {
            Mode::Count => "N-Queens: strategies compared, counting all solutions".into(),
            // nqueens compare has no optimisation mode (ModeArg: count, first).
            Mode::First | Mode::Minimize | Mode::Maximize => {
                "N-Queens: strategies compared, finding the first solution".into()
            }
        });
        labels.size = "board size n".into();
        table.to_svg_with(&labels)
    };
    let text = match a.format {
        // The header names the model, which differs from the other commands'.
        Format::Md => format!(
            "Model: pairwise, unless an entry says @global or @columns.\n\n{}",
            table.to_markdown()
        ),
        Format::Csv => table.to_csv(),
        Format::Json => {
            table
                .to_json()
                .map_err(|e| Failure::Other(format!("cannot write the table as JSON: {e}")))?
                + "\n"
        }
        Format::Svg => chart(),
    };
    if let Some(path) = &a.chart {
        write_file(path, &chart())?;
    }
    match &a.output {
        Some(path) => write_file(path, &text)?,
        None => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|()| out.flush())?;
        }
    }
    if cancel.is_cancelled() {
        let measured: Vec<usize> = table.rows.iter().map(|r| r.size).collect();
        csp_cli::errln!(
            "incomplete: cancelled by Ctrl-C; the table covers {}, and runs cut short show lower bounds",
            match (measured.first(), measured.last()) {
                (Some(first), Some(last)) if first != last => format!("sizes {first} to {last}"),
                (Some(only), _) => format!("size {only}"),
                _ => "no size".to_string(),
            }
        );
        return Ok(Done::Incomplete);
    }
    Ok(Done::Complete)
}

fn write_file(path: &Path, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text)
        .map_err(|e| Failure::Other(format!("cannot write '{}': {e}", path.display())))
}
