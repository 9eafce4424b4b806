//! The N-Queens search trace as an indented state-space tree, in the puzzle's own words.
//!
//! [`record`] runs a search with csp-core's [`TraceRecorder`]; [`to_text`]
//! renders its events one node per line, in visit order, indented by depth:
//!
//! ```text
//! #4 under #1: row 1 = col 2, accepted
//!   #5 under #4: row 2 = col 0, rejected: same column as row 0
//! ```
//!
//! - a node is a value tried: its id (visit order, stable), its parent (`root`
//!   for the first row), `row = col`, and `accepted` or `rejected`;
//! - a rejection by the promising test names the conflict the engine reported:
//!   the constraint that rejected the value tells which line (column, one of
//!   the diagonals, or any line between two rows on the pairwise model), and
//!   the earlier queen is the lowest row that constraint sees attacking the
//!   queen tried ([`attack::rejection`](crate::attack::rejection), the rule the
//!   tree's labels and red lines follow too);
//! - under forward checking and arc consistency a rejection names the row left
//!   with no column, and the values pruned after a node follow it on a `↳ pruned`
//!   line;
//! - `backtrack: row 2 has no column left` marks a return to the row above, and
//!   `solution [1, 3, 0, 2]` a complete board;
//! - the last line counts values tried, accepted and rejected (the 4-queens
//!   first-solution search under `check` tries 26: 8 accepted, 18 rejected).
//!
//! ```
//! use csp_core::{Config, Pruning};
//! use nqueens::{Queens, Variant, trace_text};
//!
//! let queens = Queens::new(4, Variant::Pairwise)?;
//! let run = trace_text::record(&queens, Config::textbook().with_pruning(Pruning::Check), false, 10_000)?;
//! let text = trace_text::to_text(&queens, &run);
//! assert!(text.contains("  #2 under #1: row 1 = col 0, rejected: same column as row 0\n"));
//! assert!(text.ends_with("26 values tried: 8 accepted, 18 rejected; 0 pruned, 4 backtracks, 1 solution; stopped at the first solution\n"));
//! # Ok::<(), nqueens::Error>(())
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use csp_core::{Config, SearchStats, SearchStatus, Strategy, Value, VarId};
use csp_trace::{Trace, TraceEvent, TraceRecorder};

use crate::attack::{DeadEnd, dead_end};
use crate::{Error, Queens};

/// A recorded search and how it ended.
#[derive(Clone, Debug)]
pub struct TraceRun {
    /// The events (capped; see [`Trace::is_truncated`]).
    pub trace: Trace,
    /// The statistics of the whole search (also past the cap).
    pub stats: SearchStats,
    /// `Paused` after the first solution, `Complete`, or `Stopped` by a limit.
    pub status: SearchStatus,
    /// The strategy, as written on a command line (`fc+first-fail`).
    pub strategy: String,
    /// Whether every solution was searched for.
    pub all: bool,
}

/// Searches `queens` with `config` for the first solution (or all, if `all`),
/// recording at most `max_events` events.
pub fn record(
    queens: &Queens,
    config: Config,
    all: bool,
    max_events: usize,
) -> Result<TraceRun, Error> {
    let strategy = Strategy::new(config.pruning, config.var_order, config.val_order)
        .with_backjumping(config.backjumping)
        .to_string();
    let mut solver = queens.solver(config, TraceRecorder::new(max_events))?;
    let status = if all {
        solver.count().status
    } else {
        solver.first().status
    };
    let stats = *solver.stats();
    Ok(TraceRun {
        trace: solver.into_observer().finish(),
        stats,
        status,
        strategy,
        all,
    })
}

/// A node whose line is not written yet: its outcome and prunes may follow.
struct Pending {
    depth: usize,
    line: String,
    /// Pruned columns by row.
    pruned: BTreeMap<usize, Vec<usize>>,
}

/// Renders a recorded search as the indented tree described in the module docs.
pub fn to_text(queens: &Queens, run: &TraceRun) -> String {
    let mut r = Renderer::new(queens);
    let _ = writeln!(
        r.out,
        "{}-queens, {}, model {}, strategy {}",
        queens.n(),
        if run.all {
            "all solutions"
        } else {
            "first solution"
        },
        queens.variant(),
        run.strategy
    );
    for event in &run.trace.events {
        r.event(event);
    }
    r.flush();
    let s = &run.stats;
    let _ = writeln!(
        r.out,
        "{} values tried: {} accepted, {} rejected; {} pruned, {} backtrack{}, {} solution{}; {}",
        s.tried,
        s.accepted,
        s.rejected,
        s.pruned,
        s.backtracks,
        plural(s.backtracks),
        s.solutions,
        plural(s.solutions),
        match run.status {
            SearchStatus::Paused => "stopped at the first solution".to_string(),
            SearchStatus::Complete => "search complete".to_string(),
            SearchStatus::Stopped(csp_core::StopReason::Cancelled) => {
                "incomplete: cancelled".to_string()
            }
            SearchStatus::Stopped(reason) => format!("incomplete: stopped by {reason}"),
        }
    );
    r.out
}

struct Renderer<'q> {
    queens: &'q Queens,
    out: String,
    /// The queens placed on the current path, by depth - 1: `(row, col)`.
    path: Vec<(usize, usize)>,
    pending: Option<Pending>,
}

impl<'q> Renderer<'q> {
    fn new(queens: &'q Queens) -> Self {
        Renderer {
            queens,
            out: String::new(),
            path: Vec::new(),
            pending: None,
        }
    }

    fn row(&self, var: usize) -> usize {
        self.queens.row_of(VarId::new(var)).unwrap_or(var)
    }

    fn col(value: Value) -> usize {
        usize::try_from(value).unwrap_or(usize::MAX)
    }

    fn board(&self) -> Vec<Option<usize>> {
        let mut board = vec![None; self.queens.n()];
        for &(row, col) in &self.path {
            if let Some(cell) = board.get_mut(row) {
                *cell = Some(col);
            }
        }
        board
    }

    fn flush(&mut self) {
        let Some(p) = self.pending.take() else {
            return;
        };
        self.out.push_str(&p.line);
        self.out.push('\n');
        if !p.pruned.is_empty() {
            let rows: Vec<String> = p
                .pruned
                .iter()
                .map(|(row, cols)| {
                    let cols: Vec<String> = cols.iter().map(usize::to_string).collect();
                    format!("row {row} {{{}}}", cols.join(", "))
                })
                .collect();
            let _ = writeln!(
                self.out,
                "{}  ↳ pruned: {}",
                indent(p.depth),
                rows.join(", ")
            );
        }
    }

    fn append(&mut self, text: &str) {
        if let Some(p) = &mut self.pending {
            p.line.push_str(text);
        }
    }

    fn event(&mut self, event: &TraceEvent) {
        match *event {
            TraceEvent::Try {
                id,
                parent,
                depth,
                var,
                value,
                ..
            } => {
                self.flush();
                self.path.truncate(depth.saturating_sub(1));
                let parent = if parent == 0 {
                    "root".to_string()
                } else {
                    format!("#{parent}")
                };
                let (row, col) = (self.row(var), Self::col(value));
                self.pending = Some(Pending {
                    depth,
                    line: format!(
                        "{}#{id} under {parent}: row {row} = col {col}",
                        indent(depth)
                    ),
                    pruned: BTreeMap::new(),
                });
                self.path.push((row, col));
            }
            TraceEvent::Accept { .. } => self.append(", accepted"),
            TraceEvent::Reject {
                ref kind,
                constraint,
                wiped_out,
                ..
            } => {
                let why = self.rejection(kind, constraint, wiped_out);
                self.append(&format!(", rejected: {why}"));
                // The rejected queen leaves the board.
                self.path.pop();
                self.flush();
            }
            TraceEvent::Prune {
                node, var, value, ..
            } => {
                let (row, col) = (self.row(var), Self::col(value));
                if node == 0 && self.pending.is_none() {
                    let _ = writeln!(self.out, "root ↳ pruned: row {row} {{{col}}}");
                } else if let Some(p) = &mut self.pending {
                    let cols = p.pruned.entry(row).or_default();
                    cols.push(col);
                    cols.sort_unstable();
                }
            }
            TraceEvent::Solution { node, ref values } => {
                let columns: Vec<String> = self
                    .queens
                    .rows()
                    .iter()
                    .map(|v| values.get(v.index()).map_or("?".into(), |c| c.to_string()))
                    .collect();
                let text = format!("solution [{}]", columns.join(", "));
                if node == 0 || self.pending.is_none() {
                    self.flush();
                    let _ = writeln!(self.out, "root: {text}");
                } else {
                    self.append(&format!(", {text}"));
                    self.flush();
                }
            }
            TraceEvent::Backtrack { depth, var } => {
                self.flush();
                let _ = writeln!(
                    self.out,
                    "{}backtrack: row {} has no column left",
                    indent(depth),
                    self.row(var)
                );
            }
            TraceEvent::Backjump {
                from,
                to,
                ref conflict,
                ..
            } => {
                self.flush();
                let rows: Vec<String> = conflict.iter().map(|&v| self.row(v).to_string()).collect();
                let _ = writeln!(
                    self.out,
                    "{}backjump: from level {from} back to level {to} (conflict set: rows {})",
                    indent(from),
                    rows.join(", ")
                );
                self.path.truncate(to);
            }
            TraceEvent::Truncated { cap } => {
                self.flush();
                let _ = writeln!(
                    self.out,
                    "... trace cut after {cap} events; the search went on, the counts below are the whole search's"
                );
            }
            TraceEvent::Select { .. } => {}
        }
    }

    /// Why the pending node was rejected, in the puzzle's words (the one
    /// sentence of [`attack::dead_end`](crate::attack::dead_end)).
    fn rejection(&self, kind: &str, constraint: Option<usize>, wiped_out: Option<usize>) -> String {
        let Some(&(row, col)) = self.path.last() else {
            return kind.replace('_', " ");
        };
        let mut board = self.board();
        if let Some(cell) = board.get_mut(row) {
            *cell = Some(col);
        }
        let end = DeadEnd {
            kind,
            constraint,
            wiped_out,
        };
        dead_end(self.queens, &board, (row, col), end)
    }
}

fn plural(count: u64) -> &'static str {
    if count == 1 { "" } else { "s" }
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth.saturating_sub(1))
}
