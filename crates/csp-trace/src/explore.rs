//! An interactive explorer: one self-contained HTML page that replays traces step by step.
//!
//! [`explore_html`] writes a page holding one or more traces (each in the JSON
//! Lines format of [`Trace::to_json_lines`], so the page is also a way to ship
//! a trace) with the code to replay them: a board, the state-space tree so far,
//! the counters, and controls (step forward and back, next dead end, next
//! solution, play with a speed slider, a timeline, the keyboard's ← → and
//! space, the step in the URL fragment). Two traces can run side by side, in
//! step by event, by node or by decision.
//!
//! The page draws any model as a grid of variables × values (the current
//! assignment, the value being tried, the values pruned with why on hover or
//! tap). An [`ExplorePainter`] replaces the grid with a picture of the problem
//! (a chess board for N-Queens, a 9 × 9 grid for Sudoku): a piece of
//! JavaScript, the page's hook, described in `docs/trace-format.md`.
//!
//! The file has no network reference at all: no external script, style, font
//! or image, and no `http:`/`https:` URL, so it opens from disk.
//!
//! What the page shows at step `k` is defined here too, in Rust: [`steps`]
//! cuts a trace into the page's steps and [`GridState::at`] is the state after
//! `k` of them, so tests and scripts can check the page against it.
//!
//! ```
//! use csp_core::{Config, Model, Pruning, Solver};
//! use csp_trace::{CellState, ExploreOptions, ExploreRun, GridState, TraceRecorder, explore_html};
//!
//! let mut m = Model::new();
//! let x = m.named_int_var("x", 0..=2)?;
//! let y = m.named_int_var("y", 0..=2)?;
//! m.less_than(x, y)?;
//! let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
//! let mut solver = Solver::with_observer(&m, config, TraceRecorder::new(1000))?;
//! solver.first();
//! let trace = solver.into_observer().finish();
//! let html = explore_html(&[ExploreRun::new("fc", &m, &trace)], &ExploreOptions::default())?;
//! assert!(html.starts_with("<!DOCTYPE html>"));
//! assert!(!html.contains("http://") && !html.contains("https://"));
//! // Step 1: propagation at the root crossed out x = 2; step 2 tries x = 0.
//! assert_eq!(GridState::at(&trace, 1).cell(0, 2), CellState::Crossed);
//! let state = GridState::at(&trace, 2);
//! assert_eq!(state.cell(0, 0), CellState::Tried);
//! assert_eq!(state.summary.tried, 1);
//! # Ok::<(), csp_core::CspError>(())
//! ```

use serde::Serialize;

use crate::{Trace, TraceEvent};
use csp_core::{CspError, Model, Value};

mod grid;
mod stop;

pub use grid::{Advance, CellState, GridState, steps, stops};
pub use stop::StopAtCap;

/// The default cap on the events recorded per trace for a page: about 1 MB
/// of JSON per trace, so that a page with three strategies stays under 5 MB.
pub const DEFAULT_LIMIT_EVENTS: usize = 12_000;

/// The largest domain the page draws as a grid row (wider domains are an
/// error: the grid would be unreadable and the file large).
pub const MAX_GRID_VALUES: usize = 256;

const TEMPLATE: &str = include_str!("explore/page.html");
const STYLE: &str = include_str!("explore/explore.css");
const SCRIPT: &str = include_str!("explore/explore.js");

/// A board painter: JavaScript that draws the model instead of the generic grid.
///
/// `script` runs once when the page loads and registers the painter with
/// `CspExplore.painter({build, paint})`; `style` is added to the page's CSS.
/// `build(panel, run)` returns the board element for one panel (the page puts
/// `data-testid="board"` on it), `paint(board, view)` draws the state of a
/// step. `run.painter` is the run's [`ExploreRun::painter_data`]; `view` gives
/// the assignment, the value being tried, the values crossed out with why, and
/// the dead end's reason. The page's own grid painter (in
/// `trace/explore/explore.js`) is the reference.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExplorePainter {
    /// JavaScript calling `CspExplore.painter({...})`.
    pub script: String,
    /// CSS for what the painter draws.
    pub style: String,
}

/// One trace to show, with the model it came from.
#[derive(Clone, Debug)]
pub struct ExploreRun<'a> {
    /// The label (a strategy's name, such as `fc`).
    pub name: String,
    /// The model searched (names and domains of the variables).
    pub model: &'a Model,
    /// The recorded search.
    pub trace: &'a Trace,
    /// Names to show for the constraints, by index (default: the model's).
    pub constraint_names: Option<Vec<String>>,
    /// A sentence shown under the run's name (how the search ended, say).
    pub note: Option<String>,
    /// JSON handed to the painter as `run.painter` (default `null`).
    pub painter_data: Option<serde_json::Value>,
    /// Why each dead end failed, by node id, in the front end's words (the
    /// sentence its trace text and tree use); nodes without one get the
    /// page's generic words (`not promising: all-different c0`).
    pub reasons: Option<std::collections::HashMap<u64, String>>,
}

impl<'a> ExploreRun<'a> {
    /// A run named `name` with the model's own constraint names.
    pub fn new(name: impl Into<String>, model: &'a Model, trace: &'a Trace) -> Self {
        ExploreRun {
            name: name.into(),
            model,
            trace,
            constraint_names: None,
            note: None,
            painter_data: None,
            reasons: None,
        }
    }
}

/// Options for [`explore_html`].
#[derive(Clone, Debug, Default)]
pub struct ExploreOptions<'a> {
    /// The page's heading and title (default: "Search explorer").
    pub title: Option<String>,
    /// A line under the heading.
    pub subtitle: Option<String>,
    /// Draws the boards; `None`: the variables × values grid.
    pub painter: Option<&'a ExplorePainter>,
    /// What the grid's rows and columns stand for, for the legend (default
    /// "variables" and "values").
    pub axis_names: Option<(String, String)>,
    /// Stops writing the page when set (Ctrl-C): [`explore_html`] then
    /// returns an error ([`page_stopped`] says why) within about 4,096 events.
    pub cancel: Option<csp_core::CancelFlag>,
    /// Stops writing the page at this instant (a time limit), as `cancel`
    /// does: the clock is read every 4,096 events.
    pub deadline: Option<std::time::Instant>,
}

/// The message of [`explore_html`]'s error when its cancel flag or deadline
/// stopped it (no page is returned).
pub const PAGE_STOPPED: &str = "stopped before the page was written";

/// Whether `error` is [`explore_html`]'s for a page stopped by its cancel
/// flag or deadline.
pub fn page_stopped(error: &CspError) -> bool {
    matches!(error, CspError::InvalidArgument { message, .. } if message == PAGE_STOPPED)
}

#[derive(Serialize)]
struct ModelHeader<'a> {
    vars: Vec<String>,
    constraints: Vec<String>,
    domains: Vec<Vec<Value>>,
    painter: &'a serde_json::Value,
}

#[derive(Serialize)]
struct RunHeader<'a> {
    name: &'a str,
    model: usize,
    /// Dead-end sentences by node id: written apart (see `explore_html`),
    /// so always `None` here, a `null` that the object replaces.
    reasons: Option<()>,
    note: Option<&'a str>,
    truncated: Option<usize>,
    events: usize,
}

#[derive(Serialize)]
struct PageHeader<'a> {
    title: &'a str,
    subtitle: Option<&'a str>,
    rows: &'a str,
    cols: &'a str,
}

/// The explorer page for `runs` (at least one): a complete HTML document.
///
/// Each trace is stored as JSON Lines, its `select` events without their
/// `candidates` (the page does not show them).
///
/// Fails if `runs` is empty or a variable's domain has more than
/// [`MAX_GRID_VALUES`] values.
pub fn explore_html(
    runs: &[ExploreRun<'_>],
    options: &ExploreOptions<'_>,
) -> Result<String, CspError> {
    let invalid = |message: String| CspError::InvalidArgument {
        context: "explore page".to_string(),
        message,
    };
    if runs.is_empty() {
        return Err(invalid("no trace to show".to_string()));
    }
    let title = options.title.as_deref().unwrap_or("Search explorer");
    let (rows, cols) = options
        .axis_names
        .as_ref()
        .map_or(("variables", "values"), |(r, c)| (r.as_str(), c.as_str()));
    let page = PageHeader {
        title,
        subtitle: options.subtitle.as_deref(),
        rows,
        cols,
    };
    // Ctrl-C and the deadline, asked every 4,096 events (the clock read then).
    let mut stop = || {
        options
            .cancel
            .as_ref()
            .is_some_and(csp_core::CancelFlag::is_cancelled)
            || options
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
    };
    let stopped = || invalid(PAGE_STOPPED.to_string());
    let (painter_script, painter_style) = options
        .painter
        .map_or(("", ""), |p| (p.script.as_str(), p.style.as_str()));
    // The template around the data is filled first, and the data (the bulk
    // of the page) written straight after its first part: copied once and
    // never searched.
    let fill = |part: &str| {
        part.replace("{{TITLE}}", &escape_html(title))
            .replace("{{STYLE}}", &format!("{STYLE}\n{painter_style}"))
            .replace("{{SCRIPT}}", &guard_script(SCRIPT))
            .replace("{{PAINTER}}", &guard_script(painter_script))
    };
    let (before, after) = TEMPLATE.split_once("{{DATA}}").unwrap_or((TEMPLATE, ""));
    let mut data = fill(before);
    push_script(&mut data, "application/json", "csp-page", &to_json(&page));
    let null = serde_json::Value::Null;
    let mut models: Vec<String> = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        let model = run.model;
        let mut domains = Vec::with_capacity(model.num_vars());
        for v in model.vars() {
            let d = model.domain(v)?;
            if d.len() > MAX_GRID_VALUES as u128 {
                return Err(invalid(format!(
                    "{} has {} values; the page draws at most {MAX_GRID_VALUES}",
                    model.var_name(v),
                    d.len()
                )));
            }
            domains.push(d.values());
        }
        let constraints = match &run.constraint_names {
            Some(names) => names.clone(),
            None => model
                .constraints()
                .map(|(id, c)| format!("{} c{}", c.name(), id.index()))
                .collect(),
        };
        let described = to_json(&ModelHeader {
            vars: model.vars().map(|v| model.var_name(v)).collect(),
            constraints,
            domains,
            painter: run.painter_data.as_ref().unwrap_or(&null),
        });
        // Runs on the same model (and painter data) share one description.
        let index = match models.iter().position(|m| *m == described) {
            Some(index) => index,
            None => {
                push_script(
                    &mut data,
                    "application/json",
                    &format!("csp-model-{}", models.len()),
                    &described,
                );
                models.push(described);
                models.len() - 1
            }
        };
        // The dead-end sentences (a million on large runs) as a JSON object
        // by node id, in increasing order of id, written here asking every
        // 4,096 entries.
        let reasons = match &run.reasons {
            Some(r) => {
                let mut ids: Vec<u64> = Vec::with_capacity(r.len());
                for (k, &id) in r.keys().enumerate() {
                    if k % 4096 == 0 && stop() {
                        return Err(stopped());
                    }
                    ids.push(id);
                }
                ids.sort_unstable();
                let mut object = String::from("{");
                for (k, id) in ids.iter().enumerate() {
                    if k % 4096 == 0 && stop() {
                        return Err(stopped());
                    }
                    if k > 0 {
                        object.push(',');
                    }
                    object.push_str(&format!("\"{id}\":"));
                    object.push_str(&to_json(&r[id].as_str()));
                }
                object.push('}');
                Some(object)
            }
            None => None,
        };
        let header = RunHeader {
            name: &run.name,
            model: index,
            reasons: None,
            note: run.note.as_deref(),
            truncated: run.trace.events.iter().find_map(|e| match e {
                TraceEvent::Truncated { cap } => Some(*cap),
                _ => None,
            }),
            events: run.trace.events.len(),
        };
        let mut header = to_json(&header);
        if let Some(object) = reasons {
            // The name before it is escaped: the first `"reasons":null` is
            // the field.
            if let Some((a, b)) = header.split_once("\"reasons\":null") {
                header = format!("{a}\"reasons\":{object}{b}");
            }
        }
        if !push_script_until(
            &mut data,
            "application/json",
            &format!("csp-run-{i}"),
            &header,
            &mut stop,
        ) {
            return Err(stopped());
        }
        // The heuristic's candidates are left out of `select` events: the page
        // does not show them, and on large models they would dominate the file.
        let mut events = Vec::with_capacity(run.trace.events.len());
        for (k, e) in run.trace.events.iter().enumerate() {
            if k % 4096 == 0 && stop() {
                return Err(stopped());
            }
            events.push(match e {
                TraceEvent::Select {
                    parent, depth, var, ..
                } => TraceEvent::Select {
                    parent: *parent,
                    depth: *depth,
                    var: *var,
                    candidates: Vec::new(),
                },
                e => e.clone(),
            });
        }
        let slim = Trace { events };
        let lines = slim
            .json_lines_until(model, None, &mut stop)
            .ok_or_else(stopped)?;
        // A trace's lines are the bulk of the page: copied a megabyte at a
        // time, asking between two.
        if !push_script_until(
            &mut data,
            "application/x-ndjson",
            &format!("csp-trace-{i}"),
            &lines,
            &mut stop,
        ) {
            return Err(stopped());
        }
        drop(lines);
        if stop() {
            return Err(stopped());
        }
    }
    data.push_str(&fill(after));
    Ok(data)
}

fn to_json<T: Serialize>(value: &T) -> String {
    // Plain structs of strings and numbers always serialise.
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_string())
}

/// Data blocks: `<` only occurs inside JSON strings, where `\u003c` means the
/// same, so no `</script>` can end the block early.
fn push_script(out: &mut String, kind: &str, id: &str, json: &str) {
    push_script_until(out, kind, id, json, &mut || false);
}

/// [`push_script`] a megabyte at a time, asking `stop` after each; `false`
/// if it said so (the block is then left unfinished).
fn push_script_until(
    out: &mut String,
    kind: &str,
    id: &str,
    json: &str,
    stop: &mut dyn FnMut() -> bool,
) -> bool {
    out.push_str(&format!("<script type=\"{kind}\" id=\"{id}\">\n"));
    out.reserve(json.len());
    let mut rest = json;
    while !rest.is_empty() {
        let mut cut = rest.len().min(1 << 20);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (chunk, tail) = rest.split_at(cut);
        for (k, piece) in chunk.split('<').enumerate() {
            if k > 0 {
                out.push_str("\\u003c");
            }
            out.push_str(piece);
        }
        rest = tail;
        if !rest.is_empty() && stop() {
            return false;
        }
    }
    out.push_str("</script>\n");
    true
}

fn guard_script(js: &str) -> String {
    js.replace("</script", "<\\/script")
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{Config, Pruning, Solver};

    fn queens(n: usize) -> Model {
        csp_core::models::queens(n).unwrap().0
    }

    fn record(n: usize, pruning: Pruning, cap: usize) -> (Model, Trace) {
        let m = queens(n);
        let mut s = Solver::with_observer(
            &m,
            Config::textbook().with_pruning(pruning),
            super::super::TraceRecorder::new(cap),
        )
        .unwrap();
        s.first();
        let t = s.into_observer().finish();
        (m, t)
    }

    #[test]
    fn steps_cover_every_event_but_the_marker_and_merge_one_nodes_prunes() {
        for pruning in [
            Pruning::Check,
            Pruning::ForwardChecking,
            Pruning::ArcConsistency,
        ] {
            let (_, t) = record(6, pruning, usize::MAX);
            let st = steps(&t);
            assert_eq!(st[0].start, 0);
            assert_eq!(st.last().unwrap().end, t.events.len());
            for w in st.windows(2) {
                assert_eq!(w[0].end, w[1].start);
                // A step of prunes is never followed by prunes of the same node.
                if let (TraceEvent::Prune { node: a, .. }, TraceEvent::Prune { node: b, .. }) =
                    (&t.events[w[0].end - 1], &t.events[w[1].start])
                {
                    assert_ne!(a, b, "{pruning}");
                }
            }
        }
        let (_, cut) = record(8, Pruning::ForwardChecking, 40);
        assert!(cut.is_truncated());
        assert_eq!(steps(&cut).last().unwrap().end, 40);
    }

    #[test]
    fn the_state_follows_the_search_to_its_solution() {
        let (m, t) = record(6, Pruning::ForwardChecking, usize::MAX);
        let st = steps(&t);
        let last = GridState::at(&t, st.len());
        assert_eq!(last.summary, t.summary());
        assert_eq!(last.assigned.len(), 6);
        assert!(last.tried.is_none() && !last.rejected);
        let values: Vec<Value> = (0..6)
            .map(|v| last.assigned.iter().find(|a| a.0 == v).unwrap().1)
            .collect();
        assert!(m.is_solution(&values));
        // Past the end: the same state.
        assert_eq!(GridState::at(&t, st.len() + 5), last);
        assert_eq!(GridState::at(&t, 0), GridState::default());
        for k in 1..=st.len() {
            let s = GridState::at(&t, k);
            let event = &t.events[st[k - 1].end - 1];
            match event {
                TraceEvent::Try { var, value, .. } => {
                    assert_eq!(s.tried, Some((*var, *value)));
                    assert_eq!(s.cell(*var, *value), CellState::Tried);
                }
                TraceEvent::Reject { .. } => assert!(s.rejected && s.tried.is_some()),
                TraceEvent::Accept { .. } => assert!(s.tried.is_none()),
                TraceEvent::Backtrack { .. } => assert!(s.tried.is_none() && !s.rejected),
                _ => {}
            }
            // No value is both crossed out and assigned.
            for &(var, value) in &s.assigned {
                assert_eq!(s.cell(var, value), CellState::Assigned);
                assert!(!s.crossed.contains_key(&(var, value)), "step {k}");
            }
        }
    }

    #[test]
    fn stops_start_at_zero_grow_and_end_at_the_last_step() {
        let (_, t) = record(6, Pruning::Check, usize::MAX);
        let n = steps(&t).len();
        for by in [Advance::Step, Advance::Node, Advance::Decision] {
            let s = stops(&t, by);
            assert_eq!(s[0], 0);
            assert_eq!(*s.last().unwrap(), n);
            assert!(s.windows(2).all(|w| w[0] < w[1]), "{by:?}");
        }
        // By node: one stop per value tried, and the root's.
        assert_eq!(stops(&t, Advance::Node).len() as u64, t.summary().tried + 1);
        let by_decision = stops(&t, Advance::Decision);
        for &k in &by_decision[1..by_decision.len() - 1] {
            assert!(matches!(
                t.events[steps(&t)[k - 1].end - 1],
                TraceEvent::Accept { .. } | TraceEvent::Solution { .. }
            ));
        }
    }

    #[test]
    fn the_page_is_self_contained_and_escapes_names() {
        let mut m = Model::new();
        let x = m.named_int_var("</script><b>x", 0..=1).unwrap();
        let y = m.named_int_var("y", 0..=1).unwrap();
        m.not_equal(x, y).unwrap();
        let mut s = Solver::with_observer(
            &m,
            Config::textbook(),
            super::super::TraceRecorder::new(100),
        )
        .unwrap();
        s.first();
        let t = s.into_observer().finish();
        let options = ExploreOptions {
            title: Some("a <title> & more".to_string()),
            ..ExploreOptions::default()
        };
        let html = explore_html(&[ExploreRun::new("check", &m, &t)], &options).unwrap();
        assert!(!html.contains("http://") && !html.contains("https://"));
        assert!(!html.contains("</script><b>"));
        assert!(html.contains("a &lt;title&gt; &amp; more"));
        assert_eq!(
            html.matches("<script").count(),
            html.matches("</script>").count()
        );
        assert!(html.contains(r#"id="csp-trace-0""#) && html.contains(r#"id="csp-run-0""#));
        assert!(html.contains(r#"id="csp-model-0""#) && !html.contains(r#"id="csp-model-1""#));
    }

    #[test]
    fn dead_end_sentences_are_an_object_by_node_id() {
        // Ids in increasing order, sentences escaped, the other fields kept,
        // even with a run name that spells the field.
        let (m, t) = record(4, Pruning::Check, 100);
        let mut run = ExploreRun::new(r#""reasons":null"#, &m, &t);
        run.reasons = Some(
            [(10, "x".to_string()), (3, "a<b \"c\"".to_string())]
                .into_iter()
                .collect(),
        );
        run.note = Some("a note".to_string());
        let html = explore_html(&[run], &ExploreOptions::default()).unwrap();
        let start = html.find(r#"id="csp-run-0">"#).unwrap();
        let block = &html[start..];
        let header = &block[block.find('\n').unwrap() + 1..block.find("</script>").unwrap()];
        let value: serde_json::Value = serde_json::from_str(header).unwrap();
        assert_eq!(value["name"], r#""reasons":null"#);
        assert_eq!(value["reasons"]["3"], "a<b \"c\"");
        assert_eq!(value["reasons"]["10"], "x");
        assert_eq!(value["note"], "a note");
        assert!(header.contains(r#"{"3":"a\u003cb"#), "{header}");
        assert!(header.find(r#""3""#) < header.find(r#""10""#));
    }

    #[test]
    fn bad_pages_are_refused() {
        let (m, t) = record(4, Pruning::Check, 100);
        assert!(explore_html(&[], &ExploreOptions::default()).is_err());
        let mut wide = Model::new();
        wide.named_int_var("w", 0..=10_000).unwrap();
        let err = explore_html(
            &[ExploreRun::new("a", &wide, &t)],
            &ExploreOptions::default(),
        );
        assert!(err.unwrap_err().to_string().contains("at most 256"));
        assert!(explore_html(&[ExploreRun::new("a", &m, &t)], &ExploreOptions::default()).is_ok());
    }
}
