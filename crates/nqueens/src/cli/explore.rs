//! `nqueens explore N -o FILE.html`: one self-contained page that replays the searches on a chess board.

use std::io::Write;
use std::path::PathBuf;

use csp_core::{Model, SearchStatus, Solver, StopReason};
use csp_trace::{
    DEFAULT_LIMIT_EVENTS, ExploreOptions, ExplorePainter, ExploreRun, MAX_GRID_VALUES, StopAtCap,
    Trace, explore_html,
};
use nqueens::compare::{self, EntrySpec, Method, ModelVariant};
use nqueens::construct::Line;
use nqueens::{Queens, Variant};
use serde_json::json;

use super::args;
use super::trace::DEFAULT_NODE_LIMIT;
use super::{Done, Failure, Outcome};

const BOARD_SCRIPT: &str = include_str!("explore_board.js");

/// The memory one recorded event takes, about, from the recording to the
/// written page (the event, its JSON line, the page's copy): `--memory-limit`
/// divided by this caps the events.
const BYTES_PER_EVENT: u64 = 512;

/// The time writing the page takes per recorded event, about (measured at
/// 4.4 µs on the development machine under a load of 7, 2 cores): under
/// `--time-limit` the recording stops early enough to leave that much.
const PAGE_TIME_PER_EVENT: std::time::Duration = std::time::Duration::from_micros(5);
const BOARD_STYLE: &str = include_str!("explore_board.css");

/// The strategies shown when `--strategies` is not given.
pub const DEFAULT_STRATEGIES: &str = "check,fc,mac";

/// A parsed `--strategies` list (a newtype so that clap keeps it as one value).
#[derive(Clone, Debug)]
pub struct Entries(Vec<EntrySpec>);

fn parse_entries(s: &str) -> Result<Entries, String> {
    compare::parse_entries(s)
        .map(Entries)
        .map_err(|e| e.to_string())
}

/// Write an interactive page that replays the searches step by step: the
/// board (queens, the queen being tried, its attacker, the squares crossed
/// out by propagation and why), the state-space tree so far, the counters,
/// and two strategies side by side. One HTML file, no network needed.
#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Strategies: a comma-separated list of [NAME=]STRATEGY[@MODEL] as in `compare` (default \
{DEFAULT_STRATEGIES}): a pruning level (none, check, fc, mac, propagators; with a look-back suffix check-gbj, check-cbj, fc-cbj, mac-cbj) with optional \
+variable order and +value order; MODEL is pairwise (default), global or columns.\n\n\
In the page: Forward / Back (or the arrow keys) step through the search, space plays and pauses, \
'Next dead end' and 'Next solution' jump, B picks a second strategy to run side by side, and the \
URL fragment (#step=K) opens a link at that step.\n\n\
Examples:\n  nqueens explore 6 -o q6.html\n  \
nqueens explore 8 --strategies check,fc+first-fail --all -o q8.html"
))]
pub struct Args {
    /// Board size N.
    #[arg(value_parser = args::parse_n, allow_negative_numbers = true)]
    n: usize,
    /// The strategies to record (see below).
    #[arg(long, value_name = "LIST", value_parser = parse_entries)]
    strategies: Option<Entries>,
    /// Record the search for every solution (default: up to the first one).
    #[arg(long)]
    all: bool,
    /// Keep at most this many events of each search (the page says where the
    /// recording stopped).
    #[arg(long, value_name = "K", default_value_t = DEFAULT_LIMIT_EVENTS)]
    limit_events: usize,
    /// Stop each search after this many nodes (0: no limit).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_NODE_LIMIT)]
    node_limit: u64,
    /// The time for everything, the page included: `500ms`, `2s`, `1m`. The
    /// recording stops early enough to leave the page about 5 µs an event;
    /// a page that still cannot be written in time is not written (one
    /// line on standard error, status 1).
    #[arg(long, value_name = "TIME", value_parser = csp_cli::parse_duration)]
    time_limit: Option<std::time::Duration>,
    /// The memory the recordings and the page may take, about (`512M`, `2G`):
    /// it caps the events recorded (about 512 bytes each, the page included).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = csp_cli::parse_size)]
    memory_limit: u64,
    /// Write the page to FILE (default: standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

/// One recorded search, with the model it ran on.
struct Recorded {
    name: String,
    built: Built,
    constraint_names: Option<Vec<String>>,
    painter_data: serde_json::Value,
    trace: Trace,
    note: Option<String>,
}

/// Runs `nqueens explore`.
pub fn run(a: Args) -> Outcome {
    if a.output.is_none() {
        csp_cli::output::refuse_terminal("HTML").map_err(Failure::Usage)?;
    }
    let entries = match a.strategies {
        Some(e) => e.0,
        None => {
            compare::parse_entries(DEFAULT_STRATEGIES).map_err(|e| Failure::Other(e.to_string()))?
        }
    };
    if a.n > MAX_GRID_VALUES {
        return Err(Failure::Usage(format!(
            "N = {} is too large for the explorer (at most {MAX_GRID_VALUES} columns)",
            a.n
        )));
    }
    let begun = std::time::Instant::now();
    let deadline = a.time_limit.and_then(|t| begun.checked_add(t));
    let cancel = csp_cli::cancel_on_ctrl_c();
    // Ctrl-C, or the time limit passed: no page (asked while it is built).
    let stop = || cancel.is_cancelled() || deadline.is_some_and(|d| std::time::Instant::now() >= d);
    // Why no page (or only part of one) is written.
    let no_page = |what: &str| {
        if cancel.is_cancelled() {
            csp_cli::errln!("cancelled by Ctrl-C: {what}");
        } else {
            csp_cli::errln!(
                "stopped by the time limit while the page was written: {what} \
                 (raise --time-limit or lower --limit-events)"
            );
        }
        Ok(Done::Incomplete)
    };
    // The same question while the dead ends are worded, but a yes ends the
    // program there and then: the half-built lists of nodes and sentences
    // (millions of small allocations) are not freed, which would take
    // longer than the stop itself.
    let end_on_stop = || {
        if stop() {
            let _ = no_page("no page written");
            std::process::exit(1);
        }
        false
    };
    // Each recording's share of the memory limit, in events.
    let by_memory = usize::try_from(a.memory_limit / BYTES_PER_EVENT / entries.len().max(1) as u64)
        .unwrap_or(usize::MAX);
    let cap = a.limit_events.min(by_memory);
    let mut recorded = Vec::with_capacity(entries.len());
    // The events recorded so far, whose page must still be written.
    let mut reserved: u32 = 0;
    for entry in &entries {
        let Method::Engine(strategy, variant) = entry.method else {
            return Err(Failure::Usage(format!(
                "'{}' is the dedicated method, which has no search to explore; list engine strategies",
                entry.name
            )));
        };
        let (built, constraint_names, painter_data) = build(a.n, variant)?;
        let model = built.model();
        let mut config = strategy.config().with_cancel_flag(cancel.clone());
        config.limits.nodes = (a.node_limit > 0).then_some(a.node_limit);
        // Under a time limit, the page of what the searches recorded must
        // be written by the deadline: each recording stops in time to leave
        // that (the events recorded before it included), and the search
        // itself at nine tenths of what remains.
        let page_deadline = deadline.map(|d| {
            d.checked_sub(PAGE_TIME_PER_EVENT.saturating_mul(reserved))
                .unwrap_or(begun)
        });
        config.limits.time = page_deadline.map(|d| {
            let left = d.saturating_duration_since(std::time::Instant::now());
            (left - left / 10).saturating_add(begun.elapsed())
        });
        let mut config = csp_cli::time_left(config, begun);
        // The search stops when the recording is full: the page shows no more.
        let mut recorder = StopAtCap::new(cap, &mut config);
        if let Some(d) = page_deadline {
            recorder = recorder.with_page_deadline(d, PAGE_TIME_PER_EVENT);
        }
        let mut solver = Solver::with_observer(model, config, recorder)
            .map_err(|e| Failure::Other(e.to_string()))?;
        let tried = if a.all {
            solver.count().stats.tried
        } else {
            solver.first().stats.tried
        };
        let status = solver.status();
        let recorder = solver.into_observer();
        let note = match status {
            SearchStatus::Stopped(StopReason::Cancelled) if recorder.out_of_time() => {
                Some(format!(
                    "The search was stopped by the time limit after {tried} nodes \
                 (the rest of the time is kept for writing this page)."
                ))
            }
            // Stopped by the full recording: the page says where it stopped.
            SearchStatus::Stopped(StopReason::Cancelled) if !recorder.cancelled() => None,
            SearchStatus::Stopped(reason) if reason != StopReason::SolutionLimit => Some(format!(
                "The search was {} after {tried} nodes.",
                args::stopped_by(reason)
            )),
            _ => None,
        };
        let trace = recorder.finish();
        reserved = reserved.saturating_add(u32::try_from(trace.events.len()).unwrap_or(u32::MAX));
        recorded.push(Recorded {
            name: entry.name.clone(),
            built,
            constraint_names,
            painter_data,
            trace,
            note,
        });
        if cancel.is_cancelled() {
            // Ctrl-C: no page, and no time spent writing one (nor freeing
            // the recordings: the process ends).
            csp_cli::errln!("cancelled by Ctrl-C: no page written");
            std::mem::forget(recorded);
            return Ok(Done::Incomplete);
        }
    }
    // The process ends with this command: the recordings (millions of
    // events) and the page are not freed, which would delay the exit by a
    // tenth of a second or more after a time limit or a Ctrl-C.
    let recorded: &[Recorded] = Vec::leak(recorded);
    let runs: Vec<ExploreRun<'_>> = recorded
        .iter()
        .map(|r| {
            let mut run = ExploreRun::new(r.name.clone(), r.built.model(), &r.trace);
            run.constraint_names = r.constraint_names.clone();
            run.note = r.note.clone();
            run.painter_data = Some(r.painter_data.clone());
            // The same sentence for each dead end as `trace` and `tree`.
            if let Built::Queens(queens) = &r.built {
                run.reasons = nqueens::tree::dead_ends_until(queens, &r.trace, &end_on_stop);
            }
            run
        })
        .collect();
    let runs: &[ExploreRun<'_>] = Vec::leak(runs);
    let painter = ExplorePainter {
        script: BOARD_SCRIPT.to_string(),
        style: BOARD_STYLE.to_string(),
    };
    let options = ExploreOptions {
        title: Some(format!("{}-queens: the search, step by step", a.n)),
        subtitle: Some(format!(
            "{} · {}",
            entries
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            if a.all {
                "every solution"
            } else {
                "up to the first solution"
            }
        )),
        painter: Some(&painter),
        axis_names: Some(("rows".to_string(), "columns".to_string())),
        cancel: Some(cancel.clone()),
        deadline,
    };
    // The dead ends' sentences were cut short: no page.
    if stop() {
        return no_page("no page written");
    }
    let html = match explore_html(runs, &options) {
        Ok(html) => String::leak(html),
        Err(e) if csp_trace::page_stopped(&e) => return no_page("no page written"),
        Err(e) => return Err(Failure::Other(e.to_string())),
    };
    // Written a megabyte at a time, asking between two: a page cut short
    // is removed (or, on standard output, ends where it was cut).
    let mut written = Ok(());
    match &a.output {
        Some(path) => {
            let mut file = std::fs::File::create(path)
                .map_err(|e| Failure::Other(format!("cannot write {}: {e}", path.display())))?;
            for chunk in html.as_bytes().chunks(1 << 20) {
                if stop() {
                    written = Err(());
                    break;
                }
                file.write_all(chunk)
                    .map_err(|e| Failure::Other(format!("cannot write {}: {e}", path.display())))?;
            }
            if written.is_err() {
                drop(file);
                let _ = std::fs::remove_file(path);
            }
        }
        None => {
            let mut out = std::io::stdout().lock();
            for chunk in html.as_bytes().chunks(1 << 20) {
                if stop() {
                    written = Err(());
                    break;
                }
                match out.write_all(chunk) {
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
                    Err(e) => return Err(e.into()),
                    Ok(()) => {}
                }
            }
            match out.flush() {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                Err(e) => return Err(e.into()),
                Ok(()) => {}
            }
        }
    }
    if written.is_err() {
        return no_page(match a.output {
            Some(_) => "no page written",
            None => "the page on standard output is cut short",
        });
    }
    for r in recorded {
        if r.trace.is_truncated() {
            let raise = if cap < a.limit_events {
                "--memory-limit"
            } else {
                "--limit-events"
            };
            csp_cli::errln!(
                "note: {}'s recording stopped at {cap} events; raise {raise} to see more",
                r.name
            );
        }
    }
    Ok(if cancel.is_cancelled() {
        Done::Incomplete
    } else {
        Done::Complete
    })
}

/// A model of N-Queens: one of the library's, or the columns-only one of `compare`.
enum Built {
    Queens(Queens),
    Columns(Model),
}

impl Built {
    fn model(&self) -> &Model {
        match self {
            Built::Queens(q) => q.model(),
            Built::Columns(m) => m,
        }
    }
}

/// The model of `variant`, its constraints' names and the painter's data: the
/// variable of each row, and the line each constraint guards
/// (`{"kind": "column", "rows": [0, 2]}`; `rows` for a constraint on two rows).
fn build(
    n: usize,
    variant: ModelVariant,
) -> Result<(Built, Option<Vec<String>>, serde_json::Value), Failure> {
    let queens_variant = match variant {
        ModelVariant::Pairwise => Variant::Pairwise,
        ModelVariant::Global => Variant::Global,
        ModelVariant::Columns => {
            // Columns are checked during the search, the diagonals at the leaves.
            let (model, rows) = compare::columns_then_leaves(n).map_err(args::engine_error)?;
            let lines: Vec<serde_json::Value> = model
                .constraints()
                .map(|(_, c)| {
                    if c.name() == "all-different" {
                        json!({ "kind": "column", "rows": null })
                    } else {
                        serde_json::Value::Null
                    }
                })
                .collect();
            let data = painter_data(n, &rows, lines);
            return Ok((Built::Columns(model), None, data));
        }
    };
    let queens = Queens::new(n, queens_variant).map_err(args::engine_error)?;
    let names = nqueens::tree::constraint_names(&queens);
    let lines: Vec<serde_json::Value> = queens
        .model()
        .constraints()
        .map(|(id, c)| {
            let kind = match queens.constraint_line(id.index()) {
                Some(Line::Column) => "column",
                Some(Line::Diagonal) => "diagonal",
                Some(Line::AntiDiagonal) => "anti-diagonal",
                // The pairwise model: one constraint guards every line between two rows.
                None => "any",
            };
            let rows: Vec<usize> = c.scope().iter().filter_map(|&v| queens.row_of(v)).collect();
            json!({ "kind": kind, "rows": if rows.len() == 2 { Some(rows) } else { None } })
        })
        .collect();
    let data = painter_data(n, queens.rows(), lines);
    Ok((Built::Queens(queens), Some(names), data))
}

fn painter_data(
    n: usize,
    rows: &[csp_core::VarId],
    lines: Vec<serde_json::Value>,
) -> serde_json::Value {
    json!({
        "n": n,
        "rows": rows.iter().map(|v| v.index()).collect::<Vec<_>>(),
        "lines": lines,
    })
}
