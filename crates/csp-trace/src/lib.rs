//! Search traces: a bounded recorder on the observer hook, and exporters.
//!
//! [`TraceRecorder`] is a [`SearchObserver`] that stores every event of a search
//! as a [`TraceEvent`], up to a cap: past the cap it stores one
//! [`TraceEvent::Truncated`] marker and nothing more, so a large search cannot eat
//! the memory (the search itself runs to its end, unchanged). The finished
//! [`Trace`] renders as JSON Lines ([`Trace::to_json_lines`]), Graphviz DOT
//! ([`Trace::to_dot`]), an indented text tree ([`Trace::to_text`]) or a
//! self-contained SVG picture laid out here, with no Graphviz needed
//! ([`Trace::to_svg`], [`SvgOptions`]), and two traces can be compared ([`diff`]).
//!
//! ```
//! use csp_core::{Config, Model, Pruning, Solver};
//! use csp_trace::TraceRecorder;
//!
//! let mut m = Model::new();
//! let x = m.named_int_var("x", 0..=2)?;
//! let y = m.named_int_var("y", 0..=2)?;
//! m.less_than(x, y)?;
//! let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
//! let mut solver = Solver::with_observer(&m, config, TraceRecorder::new(1000))?;
//! let first = solver.first();
//! let trace = solver.into_observer().finish();
//! assert_eq!(trace.summary().tried, first.stats.tried);
//! assert!(trace.to_text(&m).contains("x = 0"));
//! # Ok::<(), csp_core::CspError>(())
//! ```

#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod diff;
mod dot;
mod explore;
mod json;
mod svg;
mod text;
mod xml;

use serde::{Deserialize, Serialize};

use csp_core::{
    Candidate, Choice, Failure, FailureKind, Node, PruneCause, SearchObserver, Value, VarId,
};

pub use diff::{Divergence, TraceComparison, compare_cut_traces, compare_traces, diff};
pub use explore::{
    Advance, CellState, DEFAULT_LIMIT_EVENTS, ExploreOptions, ExplorePainter, ExploreRun,
    GridState, MAX_GRID_VALUES, PAGE_STOPPED, StopAtCap, explore_html, page_stopped, steps, stops,
};
pub use svg::{FailureNamer, NodeBox, NodePainter, StopAsker, SvgOptions};
pub use xml::escape_xml;

/// One event of a search, as stored in a trace and written to JSON Lines.
///
/// Variables are given by index (`var`), constraints by index (`constraint`);
/// node ids count the values tried in visit order from 1, and 0 is the root.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TraceEvent {
    /// A variable was chosen for branching below node `parent`.
    Select {
        /// The node being expanded (0 = root).
        parent: u64,
        /// Number of decisions so far.
        depth: usize,
        /// The chosen variable.
        var: usize,
        /// What the heuristic compared, best first: `(variable, score)`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        candidates: Vec<(usize, f64)>,
    },
    /// A value is tried: a new node of the state-space tree.
    Try {
        /// The node's id.
        id: u64,
        /// Its parent's id (0 = root).
        parent: u64,
        /// Its depth (1 = a child of the root).
        depth: usize,
        /// The variable.
        var: usize,
        /// The value.
        value: Value,
        /// `var = value` (the default, not written), or a split's `var <= value`
        /// / `var >= value`.
        #[serde(default, skip_serializing_if = "Relation::is_equal")]
        relation: Relation,
    },
    /// Propagation removed a value.
    Prune {
        /// The node whose decision started the propagation (0 = root).
        node: u64,
        /// The variable.
        var: usize,
        /// The value removed.
        value: Value,
        /// The constraint that removed it (`None`: the objective bound).
        constraint: Option<usize>,
        /// The pruning level (`fc`, `mac`, `propagators`).
        pruning: String,
    },
    /// The node passed the pruning level's test.
    Accept {
        /// The node's id.
        id: u64,
    },
    /// The node failed.
    Reject {
        /// The node's id.
        id: u64,
        /// `not_promising`, `check_failed`, `conflict` or `objective_bound`.
        kind: String,
        /// The constraint that failed, if one did.
        constraint: Option<usize>,
        /// The variable whose domain became empty, if one did.
        wiped_out: Option<usize>,
    },
    /// A solution, below node `node`.
    Solution {
        /// The last decision's node (0 if there was none).
        node: u64,
        /// One value per variable.
        values: Vec<Value>,
    },
    /// A variable ran out of values.
    Backtrack {
        /// The depth it was decided at.
        depth: usize,
        /// The variable.
        var: usize,
    },
    /// A backjump ([`csp_core::Backjumping`]): after the variable decided at
    /// level `from` ran out of values, the search went back to level `to`,
    /// skipping the decisions in between.
    Backjump {
        /// The dead end's level.
        from: usize,
        /// The variable without values left.
        var: usize,
        /// The node the dead end is below (0 = root).
        dead_end: u64,
        /// The level returned to (0 = root).
        to: usize,
        /// The node at that level whose value is undone next (0 = root).
        target: u64,
        /// The conflict set: the variables decided at its levels.
        conflict: Vec<usize>,
    },
    /// The recorder reached its cap: later events were not stored.
    Truncated {
        /// The cap (number of events stored before this marker).
        cap: usize,
    },
}

/// Counts over a trace, for summaries and checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceSummary {
    /// `Try` events.
    pub tried: u64,
    /// `Accept` events.
    pub accepted: u64,
    /// `Reject` events.
    pub rejected: u64,
    /// `Prune` events.
    pub pruned: u64,
    /// `Solution` events.
    pub solutions: u64,
    /// `Backtrack` events.
    pub backtracks: u64,
    /// `Backjump` events.
    pub backjumps: u64,
}

/// A recorded search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// The events, in order (the last is `Truncated` if the cap was reached).
    pub events: Vec<TraceEvent>,
}

impl Trace {
    /// Whether the recorder stopped at its cap.
    pub fn is_truncated(&self) -> bool {
        matches!(self.events.last(), Some(TraceEvent::Truncated { .. }))
    }

    /// Counts of each kind of event.
    pub fn summary(&self) -> TraceSummary {
        self.summary_until(&mut || false).unwrap_or_default()
    }

    /// [`summary`](Trace::summary), asking `stop` every [`POLL_EVERY`]
    /// events: `None` once it says yes (a time limit, Ctrl-C).
    pub fn summary_until(&self, stop: &mut dyn FnMut() -> bool) -> Option<TraceSummary> {
        let mut s = TraceSummary::default();
        for (k, e) in self.events.iter().enumerate() {
            if k % POLL_EVERY == 0 && stop() {
                return None;
            }
            match e {
                TraceEvent::Try { .. } => s.tried += 1,
                TraceEvent::Accept { .. } => s.accepted += 1,
                TraceEvent::Reject { .. } => s.rejected += 1,
                TraceEvent::Prune { .. } => s.pruned += 1,
                TraceEvent::Solution { .. } => s.solutions += 1,
                TraceEvent::Backtrack { .. } => s.backtracks += 1,
                TraceEvent::Backjump { .. } => s.backjumps += 1,
                TraceEvent::Select { .. } | TraceEvent::Truncated { .. } => {}
            }
        }
        Some(s)
    }

    /// The tree of nodes: one entry per `Try`, with its outcome and the values
    /// pruned after it. Used by the renderers; useful for your own.
    pub fn nodes(&self) -> Vec<TraceNode> {
        self.nodes_until(&mut || false).unwrap_or_default()
    }

    /// [`nodes`](Trace::nodes), asking `stop` every [`POLL_EVERY`] events:
    /// `None` once it says yes (a time limit, Ctrl-C while a large trace
    /// is read back). Build the list once and hand it to every renderer
    /// that takes one ([`Trace::try_to_svg_of`], [`Trace::to_dot_of`]).
    pub fn nodes_until(&self, stop: &mut dyn FnMut() -> bool) -> Option<Vec<TraceNode>> {
        let mut nodes: Vec<TraceNode> = Vec::new();
        let mut index = std::collections::HashMap::new();
        let mut root_pruned = Vec::new();
        for (k, e) in self.events.iter().enumerate() {
            if k % POLL_EVERY == 0 && stop() {
                return None;
            }
            match *e {
                TraceEvent::Try {
                    id,
                    parent,
                    depth,
                    var,
                    value,
                    relation,
                } => {
                    index.insert(id, nodes.len());
                    nodes.push(TraceNode {
                        id,
                        parent,
                        depth,
                        var,
                        value,
                        relation,
                        outcome: Outcome::Open,
                        pruned: Vec::new(),
                        solution: false,
                        candidates: Vec::new(),
                    });
                }
                TraceEvent::Accept { id } => {
                    if let Some(&i) = index.get(&id) {
                        nodes[i].outcome = Outcome::Accepted;
                    }
                }
                TraceEvent::Reject {
                    id,
                    ref kind,
                    constraint,
                    wiped_out,
                } => {
                    if let Some(&i) = index.get(&id) {
                        nodes[i].outcome = Outcome::Rejected {
                            kind: kind.clone(),
                            constraint,
                            wiped_out,
                        };
                    }
                }
                TraceEvent::Prune {
                    node,
                    var,
                    value,
                    constraint,
                    ..
                } => match index.get(&node) {
                    Some(&i) => nodes[i].pruned.push((var, value, constraint)),
                    None => root_pruned.push((var, value, constraint)),
                },
                TraceEvent::Solution { node, .. } => {
                    if let Some(&i) = index.get(&node) {
                        nodes[i].solution = true;
                    }
                }
                TraceEvent::Select {
                    parent,
                    ref candidates,
                    ..
                } => {
                    // Attach the candidates to the parent's next child: kept on the
                    // parent node as "why the next variable".
                    if let Some(&i) = index.get(&parent) {
                        nodes[i].candidates = candidates.clone();
                    }
                }
                TraceEvent::Backtrack { .. }
                | TraceEvent::Backjump { .. }
                | TraceEvent::Truncated { .. } => {}
            }
        }
        Some(nodes)
    }
}

/// How many events or nodes a renderer's pass reads between two questions
/// to its `stop` (the `_until` methods): asking costs a clock read or an
/// atomic load, and 4,096 events take well under a millisecond to read.
pub const POLL_EVERY: usize = 4096;

/// How a traced node ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// No outcome recorded (the trace was truncated).
    Open,
    /// Passed.
    Accepted,
    /// Failed.
    Rejected {
        /// The failure kind (see [`TraceEvent::Reject`]).
        kind: String,
        /// The failing constraint.
        constraint: Option<usize>,
        /// The emptied variable.
        wiped_out: Option<usize>,
    },
}

/// What a traced node decides: `var = value`, or (binary branching with a
/// splitting value order) `var <= value` or `var >= value`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Relation {
    /// `var = value`.
    #[default]
    #[serde(rename = "=")]
    Equal,
    /// `var <= value`.
    #[serde(rename = "<=")]
    LessEqual,
    /// `var >= value`.
    #[serde(rename = ">=")]
    GreaterEqual,
}

impl Relation {
    /// Whether it is `=` (not written in JSON lines).
    pub fn is_equal(&self) -> bool {
        *self == Relation::Equal
    }

    /// The symbol: `=`, `<=` or `>=`.
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Equal => "=",
            Relation::LessEqual => "<=",
            Relation::GreaterEqual => ">=",
        }
    }
}

impl From<Choice> for Relation {
    fn from(choice: Choice) -> Self {
        match choice {
            Choice::Equal => Relation::Equal,
            Choice::LessEqual => Relation::LessEqual,
            Choice::GreaterEqual => Relation::GreaterEqual,
        }
    }
}

/// A node of a traced state-space tree (see [`Trace::nodes`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TraceNode {
    /// Id in visit order.
    pub id: u64,
    /// Parent id (0 = root).
    pub parent: u64,
    /// Depth (1 = child of the root).
    pub depth: usize,
    /// Variable index.
    pub var: usize,
    /// Value tried.
    pub value: Value,
    /// `var = value`, or a split's bound.
    pub relation: Relation,
    /// Accepted, rejected, or open.
    pub outcome: Outcome,
    /// Values removed by the propagation after this node: `(var, value, constraint)`.
    pub pruned: Vec<(usize, Value, Option<usize>)>,
    /// Whether a solution was reported at this node.
    pub solution: bool,
    /// The heuristic's candidates for the variable chosen below this node.
    pub candidates: Vec<(usize, f64)>,
}

/// A [`SearchObserver`] that records up to `cap` events.
#[derive(Clone, Debug)]
pub struct TraceRecorder {
    events: Vec<TraceEvent>,
    cap: usize,
    details: bool,
    parent_of_depth: Vec<u64>,
}

impl TraceRecorder {
    /// A recorder that keeps at most `cap` events (then a `Truncated` marker).
    pub fn new(cap: usize) -> Self {
        TraceRecorder {
            events: Vec::new(),
            cap,
            details: true,
            parent_of_depth: vec![0],
        }
    }

    /// Whether to record pruned values and heuristic candidates (default: yes).
    /// Without them the trace is smaller and the search faster.
    pub fn with_details(mut self, details: bool) -> Self {
        self.details = details;
        self
    }

    /// Whether the cap was reached.
    pub fn is_truncated(&self) -> bool {
        matches!(self.events.last(), Some(TraceEvent::Truncated { .. }))
    }

    /// The events so far.
    pub fn events(&self) -> &[TraceEvent] {
        &self.events
    }

    /// The finished trace.
    pub fn finish(self) -> Trace {
        Trace {
            events: self.events,
        }
    }

    #[inline]
    fn push(&mut self, event: impl FnOnce() -> TraceEvent) {
        if self.events.len() < self.cap {
            self.events.push(event());
        } else if !self.is_truncated() {
            self.events.push(TraceEvent::Truncated { cap: self.cap });
        }
    }
}

fn kind_name(kind: FailureKind) -> &'static str {
    match kind {
        FailureKind::NotPromising => "not_promising",
        FailureKind::CheckFailed => "check_failed",
        FailureKind::Conflict => "conflict",
        FailureKind::ObjectiveBound => "objective_bound",
    }
}

impl SearchObserver for TraceRecorder {
    fn memory_bytes(&self) -> usize {
        // The events, and about as much again for the candidates, pruned
        // values and solutions some carry (charged to the memory limit).
        self.events.capacity() * std::mem::size_of::<TraceEvent>() * 2
    }
    fn wants_details(&self) -> bool {
        self.details
    }

    fn on_select(&mut self, depth: usize, var: VarId, candidates: &[Candidate]) {
        let parent = self.parent_of_depth.get(depth).copied().unwrap_or(0);
        self.push(|| TraceEvent::Select {
            parent,
            depth,
            var: var.index(),
            candidates: candidates
                .iter()
                .map(|c| (c.var.index(), c.score))
                .collect(),
        });
    }

    fn on_try(&mut self, node: &Node) {
        self.push(|| TraceEvent::Try {
            id: node.id,
            parent: node.parent,
            depth: node.depth,
            var: node.var.index(),
            value: node.value,
            relation: Relation::from(node.choice),
        });
    }

    fn on_prune(&mut self, node: Option<&Node>, var: VarId, value: Value, cause: &PruneCause) {
        self.push(|| TraceEvent::Prune {
            node: node.map_or(0, |n| n.id),
            var: var.index(),
            value,
            constraint: cause.constraint.map(|c| c.index()),
            pruning: cause.pruning.as_str().to_string(),
        });
    }

    fn on_accept(&mut self, node: &Node) {
        self.parent_of_depth.truncate(node.depth);
        self.parent_of_depth.push(node.id);
        self.push(|| TraceEvent::Accept { id: node.id });
    }

    fn on_reject(&mut self, node: &Node, failure: &Failure) {
        self.push(|| TraceEvent::Reject {
            id: node.id,
            kind: kind_name(failure.kind).to_string(),
            constraint: failure.constraint.map(|c| c.index()),
            wiped_out: failure.var.map(VarId::index),
        });
    }

    fn on_solution(&mut self, node: Option<&Node>, values: &[Value]) {
        self.push(|| TraceEvent::Solution {
            node: node.map_or(0, |n| n.id),
            values: values.to_vec(),
        });
    }

    fn on_backtrack(&mut self, depth: usize, var: VarId) {
        self.push(|| TraceEvent::Backtrack {
            depth,
            var: var.index(),
        });
    }

    fn on_backjump(&mut self, jump: &csp_core::Backjump<'_>) {
        // The jump leaves the levels above `to`: later accepts there start afresh.
        self.parent_of_depth.truncate(jump.to + 1);
        self.push(|| TraceEvent::Backjump {
            from: jump.from,
            var: jump.var.index(),
            dead_end: jump.dead_end,
            to: jump.to,
            target: jump.target,
            conflict: jump.conflict.iter().map(|v| v.index()).collect(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{Config, Pruning, Solver};

    use csp_core::Model;

    fn queens(n: usize) -> Model {
        csp_core::models::queens(n).unwrap().0
    }

    #[test]
    fn backjumps_are_recorded_and_drawn_as_labelled_arcs() {
        let (m, _) = csp_core::models::pairwise_queens(6).unwrap();
        let cfg = Config::textbook().with_backjumping(csp_core::Backjumping::Cbj);
        let mut s = Solver::with_observer(&m, cfg, TraceRecorder::new(usize::MAX)).unwrap();
        let count = s.count();
        assert_eq!(count.solutions, 4);
        let trace = s.into_observer().finish();
        let jumps: Vec<&TraceEvent> = trace
            .events
            .iter()
            .filter(|e| matches!(e, TraceEvent::Backjump { .. }))
            .collect();
        assert_eq!(jumps.len() as u64, count.stats.backjumps);
        assert!(!jumps.is_empty());
        for e in &jumps {
            let TraceEvent::Backjump {
                from, to, conflict, ..
            } = e
            else {
                unreachable!()
            };
            // A jump skips a level; the conflict set is below where it lands.
            assert!(to + 1 < *from && conflict.len() <= *to, "{e:?}");
        }
        let svg = trace.to_svg(&m, &crate::SvgOptions::default());
        let arcs = svg.matches(r#"class="backjump""#).count();
        assert!(arcs > 0 && arcs <= jumps.len(), "{arcs}");
        assert!(svg.contains("backjump from level"), "{svg}");
        assert!(trace.to_text(&m).contains("jump from level"));
        // The JSON Lines trace reads back with the jumps.
        let text = trace.to_json_lines(&m);
        assert!(text.contains(r#""event":"backjump""#), "{text}");
        // Without look-back nothing of it appears.
        let mut s =
            Solver::with_observer(&m, Config::textbook(), TraceRecorder::new(usize::MAX)).unwrap();
        s.count();
        let svg = s
            .into_observer()
            .finish()
            .to_svg(&m, &crate::SvgOptions::default());
        assert!(!svg.contains("backjump"));
    }

    #[test]
    fn split_nodes_are_traced_as_bounds_and_read_back() {
        let mut m = Model::new();
        let x = m.named_int_var("x", 0..=3).unwrap();
        let cfg = Config::textbook()
            .with_pruning(Pruning::Propagators)
            .with_binary_branching(true)
            .with_val_order(csp_core::ValOrder::Split);
        let mut s = Solver::with_observer(&m, cfg, TraceRecorder::new(usize::MAX)).unwrap();
        assert_eq!(s.first().solution.unwrap().value(x), 0);
        let trace = s.into_observer().finish();
        let tries: Vec<(Value, Relation)> = trace
            .nodes()
            .iter()
            .map(|n| (n.value, n.relation))
            .collect();
        assert_eq!(tries, [(1, Relation::LessEqual), (0, Relation::LessEqual)]);
        let text = trace.to_json_lines(&m);
        assert!(text.contains(r#""relation":"<=""#), "{text}");
        // The halves are decisions: no removal is reported as a prune.
        assert_eq!(
            trace.to_text(&m),
            "#1 x <= 1  ok\n  #2 x <= 0  ok  SOLUTION\n\
             tried 2, accepted 2, rejected 0, pruned 0, solutions 1\n"
        );
        assert_eq!(Trace::from_json_lines(&text).unwrap(), trace);
        // `=` is the default and is not written.
        let mut s = Solver::with_observer(&m, Config::textbook(), TraceRecorder::new(9)).unwrap();
        let _ = s.first();
        let text = s.into_observer().finish().to_json_lines(&m);
        assert!(!text.contains("relation"), "{text}");
    }

    #[test]
    fn trace_counts_equal_search_statistics() {
        let m = queens(6);
        for pruning in Pruning::ALL {
            let cfg = Config::textbook().with_pruning(pruning);
            let mut s = Solver::with_observer(&m, cfg, TraceRecorder::new(usize::MAX)).unwrap();
            let r = s.count();
            let t = s.into_observer().finish();
            let sum = t.summary();
            assert!(!t.is_truncated());
            assert_eq!(sum.tried, r.stats.tried);
            assert_eq!(sum.accepted, r.stats.accepted);
            assert_eq!(sum.rejected, r.stats.rejected);
            assert_eq!(sum.solutions, r.solutions);
            assert_eq!(sum.backtracks, r.stats.backtracks);
            assert_eq!(sum.pruned, r.stats.pruned, "{pruning}");
        }
    }

    #[test]
    fn capped_trace_stops_at_the_cap_and_leaves_the_search_unchanged() {
        let m = queens(12);
        let cfg = || Config::textbook().with_pruning(Pruning::ForwardChecking);
        let plain = Solver::new(&m, cfg()).unwrap().count();
        let mut s = Solver::with_observer(&m, cfg(), TraceRecorder::new(500)).unwrap();
        let traced = s.count();
        let t = s.into_observer().finish();
        assert_eq!(t.events.len(), 501);
        assert!(t.is_truncated());
        assert_eq!(traced.solutions, 14_200);
        assert_eq!(traced.solutions, plain.solutions);
        assert_eq!(traced.stats.tried, plain.stats.tried);
    }

    #[test]
    fn json_lines_round_trip() {
        let m = queens(4);
        let mut s =
            Solver::with_observer(&m, Config::textbook(), TraceRecorder::new(10_000)).unwrap();
        s.first();
        let t = s.into_observer().finish();
        let text = t.to_json_lines(&m);
        let back = Trace::from_json_lines(&text).unwrap();
        assert_eq!(back, t);
    }
}
