//! Graphviz DOT export of the state-space tree.

use std::fmt::Write;

use super::{Outcome, POLL_EVERY, Trace, TraceNode};
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
        self.to_dot_of(model, &self.nodes(), &mut || false)
            .unwrap_or_default()
    }

    /// [`to_dot`](Trace::to_dot) of the trace's nodes already built (`nodes`,
    /// from [`Trace::nodes_until`]), asking `stop` every [`POLL_EVERY`]
    /// nodes: `None` once it says yes (a time limit, Ctrl-C).
    ///
    /// ```
    /// # use csp_core::{Config, Model, Pruning, Solver};
    /// # use csp_trace::TraceRecorder;
    /// # let mut m = Model::new();
    /// # let x = m.named_int_var("x", 0..=2)?;
    /// # let y = m.named_int_var("y", 0..=2)?;
    /// # m.less_than(x, y)?;
    /// # let config = Config::textbook().with_pruning(Pruning::Check);
    /// # let mut solver = Solver::with_observer(&m, config, TraceRecorder::new(1000))?;
    /// # solver.count();
    /// let trace = solver.into_observer().finish();
    /// let nodes = trace.nodes();
    /// let dot = trace.to_dot_of(&m, &nodes, &mut || false);
    /// assert_eq!(dot.as_deref(), Some(trace.to_dot(&m).as_str()));
    /// assert_eq!(trace.to_dot_of(&m, &nodes, &mut || true), None);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn to_dot_of(
        &self,
        model: &Model,
        nodes: &[TraceNode],
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<String> {
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
        for (k, n) in nodes.iter().enumerate() {
            if k % POLL_EVERY == 0 && stop() {
                return None;
            }
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
        Some(out)
    }
}
