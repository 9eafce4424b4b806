//! Graphviz DOT export of the state-space tree.

use std::fmt::Write;

use super::{Outcome, Trace};
use csp_core::{ConstraintId, Model, VarId};

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

impl Trace {
    /// The state-space tree in Graphviz DOT: a node per decision, edges labelled
    /// `var = value`; accepted nodes are green boxes, dead ends red crossed
    /// octagons labelled with the failing constraint, solutions gold double
    /// octagons; the values pruned after a node hang from it in a dashed grey note.
    pub fn to_dot(&self, model: &Model) -> String {
        let name = |v: usize| model.var_name(VarId::new(v));
        let cname = |c: Option<usize>| match c.and_then(|c| model.constraint(ConstraintId::new(c)))
        {
            Some(con) => format!("{} c{}", con.name(), c.unwrap_or_default()),
            None => "objective".to_string(),
        };
        let mut out = String::new();
        out.push_str("digraph search {\n");
        out.push_str("  graph [rankdir=TB, fontname=\"Helvetica\"];\n");
        out.push_str("  node [fontname=\"Helvetica\", fontsize=10];\n");
        out.push_str("  edge [fontname=\"Helvetica\", fontsize=9];\n");
        out.push_str("  n0 [label=\"root\", shape=circle, style=filled, fillcolor=\"#dddddd\"];\n");
        for n in self.nodes() {
            let (shape, color, note) = match (&n.outcome, n.solution) {
                (_, true) => ("doubleoctagon", "#ffd84d", "solution".to_string()),
                (Outcome::Accepted, false) => ("box", "#b7e4b0", String::new()),
                (
                    Outcome::Rejected {
                        constraint,
                        wiped_out,
                        ..
                    },
                    _,
                ) => {
                    let why = match wiped_out {
                        Some(v) => format!("{} empties {}", cname(*constraint), name(*v)),
                        None => cname(*constraint),
                    };
                    ("Msquare", "#f4a6a6", why)
                }
                (Outcome::Open, _) => ("box", "#ffffff", "not recorded".to_string()),
            };
            let label = if note.is_empty() {
                format!("#{}", n.id)
            } else {
                format!("#{}\\n{}", n.id, escape(&note))
            };
            let _ = writeln!(
                out,
                "  n{} [label=\"{label}\", shape={shape}, style=filled, fillcolor=\"{color}\"];",
                n.id
            );
            let _ = writeln!(
                out,
                "  n{} -> n{} [label=\"{} {} {}\"];",
                n.parent,
                n.id,
                escape(&name(n.var)),
                n.relation.as_str(),
                n.value
            );
            if !n.pruned.is_empty() {
                let mut text = String::new();
                for (var, value, c) in &n.pruned {
                    let _ = write!(
                        text,
                        "{} != {} ({})\\l",
                        escape(&name(*var)),
                        value,
                        escape(&cname(*c))
                    );
                }
                let _ = writeln!(
                    out,
                    "  p{} [label=\"{text}\", shape=note, style=\"dashed,filled\", fillcolor=\"#f2f2f2\", fontcolor=\"#555555\"];",
                    n.id
                );
                let _ = writeln!(
                    out,
                    "  n{} -> p{} [style=dashed, arrowhead=none, color=\"#999999\"];",
                    n.id, n.id
                );
            }
        }
        if self.is_truncated() {
            out.push_str("  truncated [label=\"trace truncated\", shape=plaintext];\n");
        }
        out.push_str("}\n");
        out
    }
}
