//! State-space trees of N-Queens as pictures and data: `nqueens tree` and `nqueens diff`.
//!
//! [`record`] searches with any strategy while csp-core's bounded
//! [`TraceRecorder`] keeps the events; [`render`] turns the trace into a
//! self-contained SVG whose nodes are miniature boards ([`painter`]), Graphviz
//! DOT, or JSON Lines (field names in `docs/trace-format.md`); [`diff`] says in
//! words where two strategies part ways.
//!
//! ```
//! use csp_core::{Config, Pruning};
//! use nqueens::tree::{TreeFormat, TreeOptions, record, render};
//! use nqueens::{Queens, Variant};
//!
//! let queens = Queens::new(4, Variant::Global)?;
//! let config = Config::textbook().with_pruning(Pruning::Check);
//! let (trace, outcome) = record(&queens, config, false, 100_000)?;
//! assert_eq!(outcome.stats.tried, 26); // the textbook's 4-queens tree, to the first solution
//! let svg = render(&queens, &trace, "4-queens", &TreeOptions::default());
//! assert_eq!(svg.matches(r#"class="node""#).count(), 26);
//! assert_eq!(svg.matches(r#"class="solution""#).count(), 1);
//! let dot = render(&queens, &trace, "", &TreeOptions { format: TreeFormat::Dot, ..TreeOptions::default() });
//! assert!(dot.starts_with("digraph"));
//! # Ok::<(), nqueens::Error>(())
//! ```

pub mod diff;
pub mod painter;

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

use std::collections::HashMap;

use csp_core::{Config, ConstraintId, Value, VarId};
use csp_trace::{Outcome as NodeOutcome, SvgOptions, Trace, TraceNode, TraceRecorder};

use crate::attack::{Clash, DeadEnd, dead_end, line_name, rejection};
use crate::construct::Line;
use crate::{Error, Outcome, Queens};

/// The output of `nqueens tree`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TreeFormat {
    /// A self-contained SVG picture (the default).
    #[default]
    Svg,
    /// Graphviz DOT (`dot -Tsvg` draws it).
    Dot,
    /// JSON Lines, one event per line.
    Json,
}

impl TreeFormat {
    /// Every format.
    pub const ALL: [TreeFormat; 3] = [TreeFormat::Svg, TreeFormat::Dot, TreeFormat::Json];

    /// The name used on command lines: `svg`, `dot`, `json`.
    pub fn as_str(self) -> &'static str {
        match self {
            TreeFormat::Svg => "svg",
            TreeFormat::Dot => "dot",
            TreeFormat::Json => "json",
        }
    }
}

impl fmt::Display for TreeFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TreeFormat {
    type Err = String;

    /// ```
    /// use nqueens::tree::TreeFormat;
    /// assert_eq!("dot".parse(), Ok(TreeFormat::Dot));
    /// assert!("png".parse::<TreeFormat>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TreeFormat::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| format!("unknown format '{s}' (expected svg, dot or json)"))
    }
}

/// How [`render`] draws the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeOptions {
    /// The output format.
    pub format: TreeFormat,
    /// SVG: draw the nodes as miniature boards (else plain numbered boxes).
    pub boards: bool,
    /// SVG: also list the pruned values under each node in words (the boards
    /// show them as grey crosses either way, and the tooltips say why).
    pub pruned_text: bool,
    /// SVG: draw at most this many nodes.
    pub max_nodes: usize,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            format: TreeFormat::Svg,
            boards: true,
            pruned_text: false,
            max_nodes: 2_000,
        }
    }
}

/// Searches `queens` with `config`, recording at most `cap` events: up to the
/// first solution, or every solution when `all` is set. The search itself is
/// never cut by the cap (only `config`'s limits stop it), so its result and
/// statistics are those of an unrecorded search.
pub fn record(
    queens: &Queens,
    config: Config,
    all: bool,
    cap: usize,
) -> Result<(Trace, Outcome), Error> {
    let mut recorder = TraceRecorder::new(cap);
    let limit = if all { None } else { Some(1) };
    let outcome = queens.solve(config, &mut recorder, limit, |_| ControlFlow::Continue(()))?;
    Ok((recorder.finish(), outcome))
}

/// The clash that rejected the last node of `path` (the decisions from the
/// root down, this one last), by [`rejection`]'s rule: for a value refused by
/// the promising check or the final check, the two queens the rejecting
/// constraint sees attacking each other. `None` for a node that was not
/// rejected by a constraint's check (accepted, or a row emptied by
/// propagation).
pub fn clash(queens: &Queens, path: &[&TraceNode]) -> Option<Clash> {
    let (last, _) = path.split_last()?;
    let NodeOutcome::Rejected {
        kind,
        constraint: Some(c),
        ..
    } = &last.outcome
    else {
        return None;
    };
    if kind != "not_promising" && kind != "check_failed" {
        return None;
    }
    let mut board = vec![None; queens.n()];
    for node in path {
        if let (Some(r), Ok(col)) = (
            queens.row_of(VarId::new(node.var)),
            usize::try_from(node.value),
        ) && let Some(cell) = board.get_mut(r)
        {
            *cell = Some(col);
        }
    }
    let row = queens.row_of(VarId::new(last.var))?;
    let col = usize::try_from(last.value).ok()?;
    rejection(queens, &board, (row, col), *c)
}

/// The dead-end sentence of every rejected node of `trace`, by node id (see
/// [`attack::dead_end`](crate::attack::dead_end): the same words as the
/// trace text and the explorer).
pub fn dead_ends(queens: &Queens, trace: &Trace) -> HashMap<u64, String> {
    dead_ends_until(queens, trace, &|| false).unwrap_or_default()
}

/// [`dead_ends`], asking `stop` every 4,096 events or nodes; `None` once it
/// says yes (Ctrl-C while a large trace is being explained).
pub fn dead_ends_until(
    queens: &Queens,
    trace: &Trace,
    stop: &dyn Fn() -> bool,
) -> Option<HashMap<u64, String>> {
    let nodes = trace.nodes_until(&mut || stop())?;
    dead_ends_of(queens, &nodes, stop)
}

/// [`dead_ends_until`] of a trace's nodes already built (`nodes`, from
/// [`Trace::nodes_until`]), for a caller that draws them too.
pub fn dead_ends_of(
    queens: &Queens,
    nodes: &[TraceNode],
    stop: &dyn Fn() -> bool,
) -> Option<HashMap<u64, String>> {
    if stop() {
        return None;
    }
    let mut index: HashMap<u64, usize> = HashMap::with_capacity(nodes.len());
    for (k, n) in nodes.iter().enumerate() {
        if k % 4096 == 0 && stop() {
            return None;
        }
        index.insert(n.id, k);
    }
    let mut out = HashMap::new();
    for (k, n) in nodes.iter().enumerate() {
        if k % 4096 == 0 && stop() {
            return None;
        }
        let NodeOutcome::Rejected {
            kind,
            constraint,
            wiped_out,
        } = &n.outcome
        else {
            continue;
        };
        let mut board = vec![None; queens.n()];
        let mut at = Some(n);
        while let Some(node) = at {
            if let (Some(r), Ok(col)) = (
                queens.row_of(VarId::new(node.var)),
                usize::try_from(node.value),
            ) && let Some(cell) = board.get_mut(r)
                && cell.is_none()
            {
                *cell = Some(col);
            }
            at = index.get(&node.parent).map(|&i| &nodes[i]);
        }
        let (Some(row), Ok(col)) = (queens.row_of(VarId::new(n.var)), usize::try_from(n.value))
        else {
            continue;
        };
        let end = DeadEnd {
            kind,
            constraint: *constraint,
            wiped_out: *wiped_out,
        };
        out.insert(n.id, dead_end(queens, &board, (row, col), end));
    }
    Some(out)
}

/// The line each constraint of the model guards, in the project's words
/// (`column`, `↘ diagonal`, `↙ diagonal`); a constraint between two rows
/// that guards every line is `no attack 0,2` (the pairwise model's);
/// indexed by constraint.
///
/// Found by asking each constraint's own `check` which kind of attack it
/// forbids, so the names cannot drift from the model.
pub fn constraint_names(queens: &Queens) -> Vec<String> {
    let model = queens.model();
    model
        .constraints()
        .map(|(id, c)| {
            let rows: Vec<usize> = c.scope().iter().filter_map(|&v| queens.row_of(v)).collect();
            // Columns that put every queen of the scope on one line of a kind.
            let violates = |line: Line| {
                let values: Vec<Value> = rows
                    .iter()
                    .map(|&r| match line {
                        Line::Column => 0,
                        Line::Diagonal => r as Value,
                        Line::AntiDiagonal => -(r as Value),
                    })
                    .collect();
                rows.len() == c.scope().len() && rows.len() >= 2 && !c.check(&values)
            };
            let lines: Vec<Line> = [Line::Column, Line::Diagonal, Line::AntiDiagonal]
                .into_iter()
                .filter(|&l| violates(l))
                .collect();
            match (lines.as_slice(), rows.as_slice()) {
                ([line], [i, j]) => format!("{} {i},{j}", line_name(*line)),
                ([line], _) => line_name(*line).to_string(),
                ([_, _, _], [i, j]) => format!("no attack {i},{j}"),
                _ => generic_name(queens, id),
            }
        })
        .collect()
}

fn generic_name(queens: &Queens, id: ConstraintId) -> String {
    match queens.model().constraint(id) {
        Some(c) => format!("{} c{}", c.name(), id.index()),
        None => format!("c{}", id.index()),
    }
}

/// The trace in `options.format`: SVG (titled `title`), DOT or JSON Lines.
pub fn render(queens: &Queens, trace: &Trace, title: &str, options: &TreeOptions) -> String {
    render_until(queens, trace, title, options, &|| false).unwrap_or_default()
}

/// [`render`], asking `stop` every few thousand nodes or events while the
/// trace is read back, the dead ends are worded and the picture or text
/// is laid out and written (a time limit, Ctrl-C): `None` once it says yes.
pub fn render_until(
    queens: &Queens,
    trace: &Trace,
    title: &str,
    options: &TreeOptions,
    stop: &dyn Fn() -> bool,
) -> Option<String> {
    let nodes = trace.nodes_until(&mut || stop())?;
    render_nodes_until(queens, trace, &nodes, title, options, stop)
}

/// [`render_until`] of the trace's nodes already built (`nodes`, from
/// [`Trace::nodes_until`]): one list serves the dead ends and the picture,
/// and the caller decides when it is freed (a program that ends after
/// drawing need not free it).
pub fn render_nodes_until(
    queens: &Queens,
    trace: &Trace,
    nodes: &[TraceNode],
    title: &str,
    options: &TreeOptions,
    stop: &dyn Fn() -> bool,
) -> Option<String> {
    let model = queens.model();
    // One rule for "why was this rejected" (see `clash`): the same words in
    // the JSON trace, the SVG labels and tooltips, and the boards' red lines
    // (DOT names the failing constraint).
    match options.format {
        TreeFormat::Dot => trace.to_dot_of(model, nodes, &mut || stop()),
        TreeFormat::Json => {
            let sentences = dead_ends_of(queens, nodes, stop)?;
            let reason = |n: &TraceNode| sentences.get(&n.id).cloned();
            trace.json_lines_until(model, Some(&reason), &mut || stop())
        }
        TreeFormat::Svg => {
            let sentences = dead_ends_of(queens, nodes, stop)?;
            let reason = |n: &TraceNode| sentences.get(&n.id).cloned();
            let names = constraint_names(queens);
            let paint = painter::board_painter(queens);
            let mut svg = SvgOptions::default()
                .with_constraint_names(&names)
                .with_failure_names(&reason);
            svg.stop = Some(stop);
            svg.show_pruned = options.pruned_text || !options.boards;
            svg.max_nodes = options.max_nodes;
            if !title.is_empty() {
                svg = svg.with_title(title);
            }
            if options.boards {
                let side = painter::board_side(queens.n());
                svg = svg.with_node_size(side, side).with_painter(&paint);
                let pruned = trace.summary_until(&mut || stop())?.pruned > 0;
                for (glyph, text) in painter::legend(pruned) {
                    svg = svg.with_legend(glyph, text);
                }
            }
            trace.try_to_svg_of(model, nodes, &svg)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use csp_core::Pruning;

    #[test]
    fn constraints_are_named_after_the_line_they_guard() {
        let global = Queens::new(5, Variant::Global).unwrap();
        let (col, diag, anti) = (
            line_name(Line::Column),
            line_name(Line::Diagonal),
            line_name(Line::AntiDiagonal),
        );
        assert_eq!(constraint_names(&global), [col, anti, diag]);
        let pairwise = Queens::new(4, Variant::Pairwise).unwrap();
        let names = constraint_names(&pairwise);
        assert_eq!(names.len(), 6);
        assert_eq!(&names[..2], ["no attack 0,1", "no attack 0,2"]);
        assert_eq!(names[5], "no attack 2,3");
    }

    #[test]
    fn every_format_stops_when_asked_and_builds_the_nodes_once() {
        let queens = Queens::new(6, Variant::Global).unwrap();
        let fc = Config::textbook().with_pruning(Pruning::ForwardChecking);
        let (trace, _) = record(&queens, fc, true, 100_000).unwrap();
        let nodes = trace.nodes();
        for format in TreeFormat::ALL {
            let options = TreeOptions {
                format,
                ..TreeOptions::default()
            };
            // A stop asked before the work starts (a flag set beforehand).
            assert_eq!(render_until(&queens, &trace, "t", &options, &|| true), None);
            // Never told to stop: the same text from the nodes built once.
            let asked = std::cell::Cell::new(0);
            let count = || {
                asked.set(asked.get() + 1);
                false
            };
            assert_eq!(
                render_nodes_until(&queens, &trace, &nodes, "t", &options, &count),
                Some(render(&queens, &trace, "t", &options)),
                "{format:?}"
            );
            // A yes to any one question, the last included, stops it.
            for k in 1..=asked.get() {
                let seen = std::cell::Cell::new(0);
                let at_k = || {
                    seen.set(seen.get() + 1);
                    seen.get() == k
                };
                assert_eq!(
                    render_nodes_until(&queens, &trace, &nodes, "t", &options, &at_k),
                    None,
                    "{format:?}, question {k}"
                );
            }
        }
    }

    #[test]
    fn rendering_is_deterministic() {
        let queens = Queens::new(5, Variant::Global).unwrap();
        let fc = Config::textbook().with_pruning(Pruning::ForwardChecking);
        let (trace, _) = record(&queens, fc, true, 100_000).unwrap();
        let first = render(&queens, &trace, "t", &TreeOptions::default());
        for _ in 0..5 {
            assert_eq!(render(&queens, &trace, "t", &TreeOptions::default()), first);
        }
    }

    #[test]
    fn recording_leaves_the_search_unchanged() {
        let queens = Queens::new(6, Variant::Global).unwrap();
        for pruning in Pruning::ALL {
            let config = Config::textbook().with_pruning(pruning);
            let plain = queens.count(config.clone()).unwrap();
            let (trace, outcome) = record(&queens, config, true, 5).unwrap();
            assert!(trace.is_truncated());
            assert_eq!(outcome.found, plain.solutions);
            assert_eq!(outcome.stats.tried, plain.stats.tried);
        }
    }

    #[test]
    fn svg_boards_count_the_same_marks_as_the_search() {
        let queens = Queens::new(5, Variant::Pairwise).unwrap();
        for pruning in [
            Pruning::Check,
            Pruning::ForwardChecking,
            Pruning::ArcConsistency,
        ] {
            let config = Config::textbook().with_pruning(pruning);
            let (trace, outcome) = record(&queens, config, true, 1_000_000).unwrap();
            let svg = render(&queens, &trace, "t", &TreeOptions::default());
            assert_eq!(
                svg.matches(r#"class="node""#).count() as u64,
                outcome.stats.tried
            );
            assert_eq!(
                svg.matches(r#"class="failure""#).count() as u64,
                outcome.stats.rejected
            );
            assert_eq!(svg.matches(r#"class="solution""#).count() as u64, 10);
        }
    }
}
