//! Where the searches of two strategies part ways, told in words for `nqueens diff`.
//!
//! ```
//! use csp_core::Strategy;
//! use nqueens::tree::diff::{StrategyRun, explain};
//! use nqueens::{Queens, Variant};
//!
//! let queens = Queens::new(4, Variant::Global)?;
//! let check = StrategyRun::record(&queens, "check".parse().unwrap(), false, 100_000)?;
//! let fc = StrategyRun::record(&queens, "fc".parse().unwrap(), false, 100_000)?;
//! let text = explain(&queens, &check, &fc);
//! assert!(text.contains("a: #2 tries q[1] = 0"), "{text}");
//! assert!(text.contains("b: #2 tries q[1] = 2"), "{text}");
//! assert!(text.contains("a explores 16 nodes, b explores 3"), "{text}");
//! # Ok::<(), nqueens::Error>(())
//! ```

use std::collections::HashMap;
use std::fmt::Write;

use csp_core::{Strategy, Value, VarId};
use csp_trace::{Divergence, Trace, TraceComparison, TraceEvent, TraceNode, compare_cut_traces};

use super::{constraint_names, record};
use crate::{Error, Outcome, Queens};

/// One strategy's recorded search.
#[derive(Clone, Debug)]
pub struct StrategyRun {
    /// The strategy, as written on the command line.
    pub strategy: Strategy,
    /// The recorded events (possibly truncated).
    pub trace: Trace,
    /// The search's result and statistics (never cut by the trace's cap).
    pub outcome: Outcome,
}

impl StrategyRun {
    /// Searches `queens` with `strategy` up to the first solution (every
    /// solution if `all`), recording at most `cap` events.
    pub fn record(
        queens: &Queens,
        strategy: Strategy,
        all: bool,
        cap: usize,
    ) -> Result<Self, Error> {
        let (trace, outcome) = record(queens, strategy.config(), all, cap)?;
        Ok(StrategyRun {
            strategy,
            trace,
            outcome,
        })
    }
}

/// Names of variables, constraints and nodes of one model.
struct Words<'q> {
    queens: &'q Queens,
    constraints: Vec<String>,
}

impl Words<'_> {
    fn var(&self, v: usize) -> String {
        self.queens.model().var_name(VarId::new(v))
    }

    fn constraint(&self, c: Option<usize>) -> String {
        c.and_then(|c| self.constraints.get(c).cloned())
            .unwrap_or_else(|| "the objective bound".to_string())
    }

    fn decision(&self, n: &TraceNode) -> String {
        format!("#{} {} = {}", n.id, self.var(n.var), n.value)
    }

    fn level(level: &str) -> &str {
        match level {
            "fc" => "forward checking",
            "mac" => "arc consistency",
            other => other,
        }
    }

    /// A failure in words: `violates column`, `forward checking with diagonal
    /// leaves q[2] no value`.
    fn failure(&self, kind: &str, constraint: Option<usize>, wiped_out: Option<usize>) -> String {
        let c = self.constraint(constraint);
        match (kind, wiped_out) {
            ("conflict", Some(v)) => format!("propagating {c} leaves {} no value", self.var(v)),
            ("conflict", None) => format!("{c} cannot be satisfied"),
            ("not_promising", _) => format!("it is not promising: it violates {c}"),
            ("check_failed", _) => format!("the complete placement violates {c}"),
            _ => "the objective bound excludes it".to_string(),
        }
    }

    fn event(&self, e: Option<&TraceEvent>, nodes: &HashMap<u64, &TraceNode>) -> String {
        let name = |id: u64| match nodes.get(&id) {
            Some(n) => self.decision(n),
            None => format!("#{id}"),
        };
        match e {
            None => "the search had ended".to_string(),
            Some(TraceEvent::Try { id, var, value, .. }) => {
                format!("#{id} tries {} = {value}", self.var(*var))
            }
            Some(TraceEvent::Accept { id }) => format!("accepts {}", name(*id)),
            Some(TraceEvent::Reject {
                id,
                kind,
                constraint,
                wiped_out,
            }) => format!(
                "rejects {}: {}",
                name(*id),
                self.failure(kind, *constraint, *wiped_out)
            ),
            Some(TraceEvent::Solution { node, .. }) => {
                format!("finds a solution at {}", name(*node))
            }
            Some(other) => format!("{other:?}"),
        }
    }
}

/// Where `a` and `b` part ways, what each does there and why, and how many
/// nodes each explores below that point; then the totals. When a trace is cut
/// (its recorder's cap) before any difference shows, it says "cannot tell past
/// event K" and gives no verdict.
pub fn explain(queens: &Queens, a: &StrategyRun, b: &StrategyRun) -> String {
    let words = Words {
        queens,
        constraints: constraint_names(queens),
    };
    let mut out = String::new();
    let width = a
        .strategy
        .to_string()
        .len()
        .max(b.strategy.to_string().len());
    for (tag, run) in [("a", a), ("b", b)] {
        let s = &run.outcome.stats;
        let _ = writeln!(
            out,
            "{tag} = {:<width$}  {} nodes ({} accepted, {} rejected), {} values pruned, {} solution{}{}",
            run.strategy.to_string(),
            s.tried,
            s.accepted,
            s.rejected,
            s.pruned,
            run.outcome.found,
            if run.outcome.found == 1 { "" } else { "s" },
            if run.trace.is_truncated() {
                " (trace truncated)"
            } else {
                ""
            }
        );
    }
    // A trace ends early when the recorder's cap cut it or a limit stopped
    // its search: either way it is not a finished search.
    let cut = |run: &StrategyRun| run.trace.is_truncated() || run.outcome.stop_reason().is_some();
    let d = match compare_cut_traces(&a.trace, cut(a), &b.trace, cut(b)) {
        TraceComparison::Parted(d) => d,
        TraceComparison::Same => {
            let _ = writeln!(out, "The two searches visit the same tree.");
            return out;
        }
        TraceComparison::CannotTell {
            agreed,
            a_cut,
            b_cut,
        } => {
            let which = match (a_cut, b_cut) {
                (true, true) => "both traces end early",
                (true, false) => "a's trace ends early",
                _ => "b's trace ends early",
            };
            let _ = writeln!(
                out,
                "The traces agree on their first {agreed} node event{}, where {which}: \
                 cannot tell past event {agreed}.",
                if agreed == 1 { "" } else { "s" }
            );
            return out;
        }
    };
    let a_nodes = a.trace.nodes();
    let b_nodes = b.trace.nodes();
    let a_map: HashMap<u64, &TraceNode> = a_nodes.iter().map(|n| (n.id, n)).collect();
    let b_map: HashMap<u64, &TraceNode> = b_nodes.iter().map(|n| (n.id, n)).collect();
    let _ = writeln!(
        out,
        "They part at depth {} after {} common node{}:",
        d.depth,
        d.common_nodes,
        if d.common_nodes == 1 { "" } else { "s" }
    );
    let _ = writeln!(out, "  a: {}", words.event(d.a.as_ref(), &a_map));
    let _ = writeln!(out, "  b: {}", words.event(d.b.as_ref(), &b_map));
    if let Some(why) = why(&words, &d, a, &a_map, b, &b_map) {
        let _ = writeln!(out, "  why: {why}");
    }
    let count = |n: u64, cut: bool, noun: &str| match (cut, noun.is_empty()) {
        (true, true) => format!("at least {n} (its trace ends early)"),
        (true, false) => format!("at least {n} {noun} (its trace ends early)"),
        (false, true) => n.to_string(),
        (false, false) => format!("{n} {noun}"),
    };
    let _ = writeln!(
        out,
        "Below that point (until each search returns above depth {}): a explores {}, b explores {}.",
        d.depth,
        count(d.a_nodes_below, d.a_cut, "nodes"),
        count(d.b_nodes_below, d.b_cut, "")
    );
    let _ = writeln!(
        out,
        "In all: a {} nodes, b {} nodes.",
        a.outcome.stats.tried, b.outcome.stats.tried
    );
    out
}

/// Why the two searches differ at the divergence, when the traces tell.
fn why(
    words: &Words<'_>,
    d: &Divergence,
    a: &StrategyRun,
    a_map: &HashMap<u64, &TraceNode>,
    b: &StrategyRun,
    b_map: &HashMap<u64, &TraceNode>,
) -> Option<String> {
    match (d.a.as_ref()?, d.b.as_ref()?) {
        (
            TraceEvent::Try {
                id: ia,
                var: va,
                value: xa,
                ..
            },
            TraceEvent::Try {
                id: ib,
                var: vb,
                value: xb,
                ..
            },
        ) => {
            if va != vb {
                let ca = candidates(words, &a.trace, a_map, *ia);
                let cb = candidates(words, &b.trace, b_map, *ib);
                return Some(format!(
                    "they branch on different variables: a on {} ({}), b on {} ({})",
                    words.var(*va),
                    ca,
                    words.var(*vb),
                    cb
                ));
            }
            // The same variable, another value: did one of them prune the other's?
            if let Some(p) = pruned_on_path(words, &b.trace, b_map, *ib, *va, *xa) {
                return Some(format!("b never tries {} = {xa}: {p}", words.var(*va)));
            }
            if let Some(p) = pruned_on_path(words, &a.trace, a_map, *ia, *vb, *xb) {
                return Some(format!("a never tries {} = {xb}: {p}", words.var(*vb)));
            }
            Some("their value orders differ".to_string())
        }
        (TraceEvent::Accept { .. }, TraceEvent::Reject { .. }) => {
            Some("b's pruning sees a dead end that a's does not".to_string())
        }
        (TraceEvent::Reject { .. }, TraceEvent::Accept { .. }) => {
            Some("a's pruning sees a dead end that b's does not".to_string())
        }
        _ => None,
    }
}

/// The heuristic's ranking that chose the variable of node `id`.
fn candidates(
    words: &Words<'_>,
    trace: &Trace,
    nodes: &HashMap<u64, &TraceNode>,
    id: u64,
) -> String {
    let parent = nodes.get(&id).map_or(0, |n| n.parent);
    let list = match nodes.get(&parent) {
        Some(p) => p.candidates.clone(),
        None => trace
            .events
            .iter()
            .find_map(|e| match e {
                TraceEvent::Select {
                    parent: 0,
                    candidates,
                    ..
                } => Some(candidates.clone()),
                _ => None,
            })
            .unwrap_or_default(),
    };
    if list.is_empty() {
        return "no ranking recorded".to_string();
    }
    let ranked: Vec<String> = list
        .iter()
        .map(|(v, s)| format!("{} {s}", words.var(*v)))
        .collect();
    format!("scores, lowest first: {}", ranked.join(", "))
}

/// Whether `(var, value)` was pruned on the path to node `id`, and by what.
fn pruned_on_path(
    words: &Words<'_>,
    trace: &Trace,
    nodes: &HashMap<u64, &TraceNode>,
    id: u64,
    var: usize,
    value: Value,
) -> Option<String> {
    let mut ancestors = vec![0];
    let mut at = nodes.get(&id).map_or(0, |n| n.parent);
    while at != 0 {
        ancestors.push(at);
        at = nodes.get(&at).map_or(0, |n| n.parent);
    }
    trace.events.iter().find_map(|e| match e {
        TraceEvent::Prune {
            node,
            var: v,
            value: x,
            constraint,
            pruning,
        } if *v == var && *x == value && ancestors.contains(node) => {
            let after = match nodes.get(node) {
                Some(n) => format!("after {}", words.decision(n)),
                None => "at the root".to_string(),
            };
            Some(format!(
                "{} on {} removed it {after}",
                Words::level(pruning),
                words.constraint(*constraint)
            ))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn run(queens: &Queens, s: &str) -> StrategyRun {
        StrategyRun::record(queens, s.parse().unwrap(), false, 100_000).unwrap()
    }

    #[test]
    fn forward_checking_parts_from_check_where_it_pruned_the_value() {
        let queens = Queens::new(4, Variant::Global).unwrap();
        let text = explain(&queens, &run(&queens, "check"), &run(&queens, "fc"));
        assert!(
            text.contains(
                "why: b never tries q[1] = 0: forward checking on column removed it after #1 q[0] = 0"
            ),
            "{text}"
        );
        assert!(text.contains("In all: a 26 nodes, b 8 nodes."), "{text}");
    }

    #[test]
    fn heuristics_part_on_the_variable_they_choose() {
        let queens = Queens::new(6, Variant::Global).unwrap();
        let text = explain(&queens, &run(&queens, "fc"), &run(&queens, "fc+first-fail"));
        assert!(
            text.contains("different variables") || text.contains("same tree"),
            "{text}"
        );
    }

    #[test]
    fn the_same_strategy_visits_the_same_tree() {
        let queens = Queens::new(5, Variant::Pairwise).unwrap();
        let text = explain(&queens, &run(&queens, "mac"), &run(&queens, "mac"));
        assert!(text.contains("the same tree"), "{text}");
    }
}
