//! What the explorer page shows at each step, defined in Rust: the page's
//! steps ([`steps`]), where its "next" buttons stop ([`stops`]) and the grid
//! after `k` steps ([`GridState::at`]), so tests and scripts can check the
//! page against them.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::{Trace, TraceEvent, TraceSummary};
use csp_core::Value;

/// The page's steps: ranges of event indices. A step is one event, except
/// that `select` events join the step of the event after them and that
/// consecutive `prune` events of one node make one step (the values one
/// decision removed); the `truncated` marker is no step.
///
/// ```
/// use csp_trace::{Trace, TraceEvent, steps};
/// let trace = Trace::from_json_lines(concat!(
///     r#"{"event":"select","parent":0,"depth":0,"var":0}"#, "\n",
///     r#"{"event":"try","id":1,"parent":0,"depth":1,"var":0,"value":0}"#, "\n",
///     r#"{"event":"prune","node":1,"var":1,"value":0,"constraint":0,"pruning":"fc"}"#, "\n",
///     r#"{"event":"prune","node":1,"var":1,"value":1,"constraint":0,"pruning":"fc"}"#, "\n",
///     r#"{"event":"accept","id":1}"#, "\n",
/// ))?;
/// assert_eq!(steps(&trace), vec![0..2, 2..4, 4..5]);
/// # Ok::<(), String>(())
/// ```
pub fn steps(trace: &Trace) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut start = 0;
    let mut last_prune: Option<u64> = None;
    for (i, e) in trace.events.iter().enumerate() {
        match e {
            TraceEvent::Select { .. } => continue,
            TraceEvent::Truncated { .. } => break,
            TraceEvent::Prune { node, .. } => {
                if last_prune == Some(*node) && start == i {
                    // Extend the previous step (no select came in between).
                    if let Some(prev) = out.last_mut() {
                        prev.end = i + 1;
                        start = i + 1;
                        continue;
                    }
                }
                last_prune = Some(*node);
            }
            _ => last_prune = None,
        }
        out.push(start..i + 1);
        start = i + 1;
    }
    out
}

/// How side-by-side traces advance together on the page ("Together by").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Advance {
    /// One step (event) at a time.
    #[default]
    Step,
    /// One node at a time: to just before the next `try`.
    Node,
    /// One decision at a time: to the next `accept` (or `solution`).
    Decision,
}

/// Where a trace stops when advanced `by` one unit at a time: the numbers of
/// steps shown after 0, 1, 2, ... presses of Forward (the page's position
/// `t` shows `stops[min(t, stops.len() - 1)]` steps). Starts at 0, ends with
/// the number of steps.
///
/// ```
/// use csp_trace::{Advance, Trace, stops};
/// let trace = Trace::from_json_lines(concat!(
///     r#"{"event":"try","id":1,"parent":0,"depth":1,"var":0,"value":0}"#, "\n",
///     r#"{"event":"reject","id":1,"kind":"not_promising","constraint":0,"wiped_out":null}"#, "\n",
///     r#"{"event":"try","id":2,"parent":0,"depth":1,"var":0,"value":1}"#, "\n",
///     r#"{"event":"accept","id":2}"#, "\n",
/// ))?;
/// assert_eq!(stops(&trace, Advance::Step), vec![0, 1, 2, 3, 4]);
/// assert_eq!(stops(&trace, Advance::Node), vec![0, 2, 4]);
/// assert_eq!(stops(&trace, Advance::Decision), vec![0, 4]);
/// # Ok::<(), String>(())
/// ```
pub fn stops(trace: &Trace, by: Advance) -> Vec<usize> {
    let all = steps(trace);
    let mut out = vec![0];
    if by == Advance::Step {
        out.extend(1..=all.len());
        return out;
    }
    for (s, range) in all.iter().enumerate() {
        let last = &trace.events[range.end - 1];
        let stop = match (by, last) {
            (Advance::Node, TraceEvent::Try { .. }) if s > 0 => Some(s),
            (Advance::Decision, TraceEvent::Accept { .. } | TraceEvent::Solution { .. }) => {
                Some(s + 1)
            }
            _ => None,
        };
        if let Some(stop) = stop.filter(|&x| x > out[out.len() - 1]) {
            out.push(stop);
        }
    }
    if all.len() > out[out.len() - 1] {
        out.push(all.len());
    }
    out
}

/// What a cell of the grid (a variable's value) shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellState {
    /// Still in the domain, not assigned.
    Empty,
    /// The variable's current value (an accepted decision; the board shows a queen).
    Assigned,
    /// The value being tried (before its outcome, or the dead end just met).
    Tried,
    /// Removed by propagation under the current decisions (crossed out).
    Crossed,
}

impl CellState {
    /// The page's `data-state` word: `empty`, `assigned`, `tried`, `crossed`.
    pub fn as_str(self) -> &'static str {
        match self {
            CellState::Empty => "empty",
            CellState::Assigned => "assigned",
            CellState::Tried => "tried",
            CellState::Crossed => "crossed",
        }
    }
}

/// A decision on the page's stack: the node and the values pruned after it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Decision {
    id: u64,
    var: usize,
    value: Value,
    /// `var = value`, or a split's bound (not a cell of the grid).
    assigns: bool,
    pruned: Vec<(usize, Value)>,
}

/// The state the page shows after some steps of a trace (see [`steps`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GridState {
    /// The accepted decisions on the current path, root first: `(var, value)`.
    pub assigned: Vec<(usize, Value)>,
    /// The value being tried, or the dead end just met: `(var, value)`.
    pub tried: Option<(usize, Value)>,
    /// Whether `tried` is a dead end (its `reject` is the last step).
    pub rejected: bool,
    /// The values crossed out: removed at the root or after a decision still
    /// on the path (or after `tried`).
    pub crossed: BTreeMap<(usize, Value), u64>,
    /// Counts of the events so far.
    pub summary: TraceSummary,
    /// The node of the last `try` so far (0 before any).
    pub node: u64,
}

impl GridState {
    /// The state after the first `k` steps of `trace` (all of them if `k` is larger).
    pub fn at(trace: &Trace, k: usize) -> GridState {
        let mut s = GridState::default();
        let mut stack: Vec<Decision> = Vec::new();
        let mut root: Vec<(usize, Value)> = Vec::new();
        let mut current: Option<Decision> = None;
        let all = steps(trace);
        let end = match k.min(all.len()) {
            0 => 0,
            k => all[k - 1].end,
        };
        for e in &trace.events[..end] {
            match *e {
                TraceEvent::Try {
                    id,
                    depth,
                    var,
                    value,
                    relation,
                    ..
                } => {
                    s.summary.tried += 1;
                    s.node = id;
                    stack.truncate(depth.saturating_sub(1));
                    s.rejected = false;
                    current = Some(Decision {
                        id,
                        var,
                        value,
                        assigns: relation.is_equal(),
                        pruned: Vec::new(),
                    });
                }
                TraceEvent::Prune {
                    node, var, value, ..
                } => {
                    s.summary.pruned += 1;
                    match current.as_mut().filter(|d| d.id == node) {
                        Some(d) => d.pruned.push((var, value)),
                        None => match stack.iter_mut().rev().find(|d| d.id == node) {
                            Some(d) => d.pruned.push((var, value)),
                            None => root.push((var, value)),
                        },
                    }
                }
                TraceEvent::Accept { id } => {
                    s.summary.accepted += 1;
                    if let Some(d) = current.take_if(|d| d.id == id) {
                        stack.push(d);
                    }
                }
                TraceEvent::Reject { .. } => {
                    s.summary.rejected += 1;
                    s.rejected = true;
                }
                TraceEvent::Solution { .. } => {
                    s.summary.solutions += 1;
                    current = None;
                    s.rejected = false;
                }
                TraceEvent::Backtrack { depth, .. } => {
                    s.summary.backtracks += 1;
                    stack.truncate(depth.saturating_sub(1));
                    current = None;
                    s.rejected = false;
                }
                TraceEvent::Backjump { to, .. } => {
                    s.summary.backjumps += 1;
                    // The skipped levels are undone: the path keeps `to` levels.
                    stack.truncate(to);
                    current = None;
                    s.rejected = false;
                }
                TraceEvent::Select { .. } | TraceEvent::Truncated { .. } => {}
            }
        }
        // A dead end stays on show for its own step only: the next step
        // (a `try` or a `backtrack`) replaces or clears it.
        // A split's bound (`x <= v`) is not a placed value: not on the grid.
        s.assigned = stack
            .iter()
            .filter(|d| d.assigns)
            .map(|d| (d.var, d.value))
            .collect();
        s.tried = current
            .as_ref()
            .filter(|d| d.assigns)
            .map(|d| (d.var, d.value));
        for &(var, value) in &root {
            s.crossed.insert((var, value), 0);
        }
        for d in stack.iter().chain(current.iter()) {
            for &(var, value) in &d.pruned {
                s.crossed.insert((var, value), d.id);
            }
        }
        s
    }

    /// What the cell of `var`'s `value` shows.
    pub fn cell(&self, var: usize, value: Value) -> CellState {
        if self.tried == Some((var, value)) {
            CellState::Tried
        } else if self.assigned.contains(&(var, value)) {
            CellState::Assigned
        } else if self.crossed.contains_key(&(var, value)) {
            CellState::Crossed
        } else {
            CellState::Empty
        }
    }
}
