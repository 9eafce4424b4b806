//! The words of the SVG tree: names, failures, pruned values and their provenance, heuristic choices.

use std::collections::HashMap;
use std::fmt::Write;

use super::FailureNamer;
use super::marks::{GREY, Num};
use crate::{Outcome, TraceNode};
use csp_core::{ConstraintId, Model, Value, VarId};

/// One line of small text hanging under a node.
pub(super) struct Note {
    pub text: String,
    pub title: String,
    /// The text with each value's constraint, for the node's tooltip.
    pub detail: String,
    pub color: &'static str,
}

/// Names for variables, constraints and pruning levels.
pub(super) struct Namer<'m> {
    pub model: &'m Model,
    pub constraint_names: Option<&'m [String]>,
    pub failure_names: Option<&'m FailureNamer<'m>>,
}

impl Namer<'_> {
    pub fn var(&self, v: usize) -> String {
        self.model.var_name(VarId::new(v))
    }

    pub fn constraint(&self, c: Option<usize>) -> String {
        let Some(c) = c else {
            return "the objective bound".to_string();
        };
        if let Some(name) = self.constraint_names.and_then(|names| names.get(c)) {
            return name.clone();
        }
        match self.model.constraint(ConstraintId::new(c)) {
            Some(con) => format!("{} c{c}", con.name()),
            None => format!("c{c}"),
        }
    }

    pub fn level(level: &str) -> &str {
        match level {
            "fc" => "forward checking",
            "mac" => "arc consistency (MAC)",
            "propagators" => "propagators",
            "check" => "the promising check",
            other => other,
        }
    }

    pub fn decision(&self, n: &TraceNode) -> String {
        format!("{} = {}", self.var(n.var), n.value)
    }

    /// Why a dead end failed: a short note and a full sentence.
    pub fn failure(&self, node: &TraceNode, level: &str) -> Option<(String, String)> {
        let Outcome::Rejected {
            kind,
            constraint,
            wiped_out,
        } = &node.outcome
        else {
            return None;
        };
        // A front end's own sentence for the dead end, used as it is.
        if let Some(sentence) = self.failure_names.and_then(|f| f(node)) {
            return Some((format!("✗ {sentence}"), format!("dead end: {sentence}")));
        }
        let c = self.constraint(*constraint);
        Some(match (kind.as_str(), wiped_out) {
            ("conflict", Some(v)) => (
                format!("✗ {} emptied", self.var(*v)),
                format!(
                    "dead end: {} with {c} leaves {} no value",
                    Namer::level(level),
                    self.var(*v)
                ),
            ),
            ("conflict", None) => (
                format!("✗ {c}"),
                format!("dead end: {} finds {c} infeasible", Namer::level(level)),
            ),
            ("not_promising", _) => (
                format!("✗ {c}"),
                format!("dead end: not promising, violates {c}"),
            ),
            ("check_failed", _) => (
                format!("✗ {c}"),
                format!("dead end: the complete assignment violates {c}"),
            ),
            ("objective_bound", _) => (
                "✗ bound".to_string(),
                "dead end: excluded by the objective bound".to_string(),
            ),
            (other, _) => (format!("✗ {c}"), format!("dead end ({other}): {c}")),
        })
    }

    /// The pruned values grouped by variable: `q1 ≠ 0, 1` with the provenance.
    pub fn pruned(
        &self,
        pruned: &[(usize, Value, Option<usize>)],
        level: &str,
        after: &str,
    ) -> Vec<Note> {
        let mut order: Vec<usize> = Vec::new();
        let mut by_var: HashMap<usize, Vec<(Value, Option<usize>)>> = HashMap::new();
        for &(var, value, c) in pruned {
            by_var
                .entry(var)
                .or_insert_with(|| {
                    order.push(var);
                    Vec::new()
                })
                .push((value, c));
        }
        order
            .iter()
            .map(|var| {
                let values = by_var.get(var).map(Vec::as_slice).unwrap_or_default();
                let list: Vec<String> = values.iter().map(|(v, _)| v.to_string()).collect();
                let why: Vec<String> = values
                    .iter()
                    .map(|(v, c)| {
                        format!(
                            "{} ≠ {v}: removed by {} on {} {after}",
                            self.var(*var),
                            Namer::level(level),
                            self.constraint(*c)
                        )
                    })
                    .collect();
                let detail: Vec<String> = values
                    .iter()
                    .map(|(v, c)| format!("{v} ({})", self.constraint(*c)))
                    .collect();
                Note {
                    text: format!("{} ≠ {}", self.var(*var), list.join(", ")),
                    title: why.join("\n"),
                    detail: format!("{} ≠ {}", self.var(*var), detail.join(", ")),
                    color: GREY,
                }
            })
            .collect()
    }

    /// Why the next variable was chosen, from the heuristic's candidates.
    pub fn selection(&self, candidates: &[(usize, f64)], chosen: Option<usize>) -> Option<String> {
        let chosen = chosen.or_else(|| candidates.first().map(|c| c.0))?;
        if candidates.is_empty() {
            return None;
        }
        let score = |s: f64| Num(s).to_string();
        let list: Vec<String> = candidates
            .iter()
            .map(|(v, s)| format!("{} {}", self.var(*v), score(*s)))
            .collect();
        let mut text = format!(
            "next variable: {} — the heuristic's candidates, best (lowest score) first: {}",
            self.var(chosen),
            list.join(", ")
        );
        let best = candidates
            .iter()
            .find(|c| c.0 == chosen)
            .map(|c| c.1)
            .or_else(|| candidates.first().map(|c| c.1));
        if let Some(best) = best {
            let tied: Vec<String> = candidates
                .iter()
                .filter(|c| c.1 == best)
                .map(|c| self.var(c.0))
                .collect();
            if tied.len() > 1 {
                let _ = write!(
                    text,
                    "; tie at {} between {}, broken in favour of {}",
                    score(best),
                    tied.join(", "),
                    self.var(chosen)
                );
            }
        }
        Some(text)
    }
}
