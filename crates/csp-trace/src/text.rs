//! A plain-text rendering of a trace as an indented state-space tree.

use std::fmt::Write;

use super::{Outcome, Trace, TraceEvent};
use csp_core::{ConstraintId, Model, VarId};

impl Trace {
    /// The trace as an indented tree, one node per line in visit order:
    /// `#id var = value` followed by `ok`, `dead end (...)`, `SOLUTION`, and the
    /// values pruned below it; backtracks shown as `<- back from var`.
    ///
    /// Renderers for a particular puzzle (like N-Queens' boards) build on
    /// [`Trace::nodes`] or the events instead.
    pub fn to_text(&self, model: &Model) -> String {
        let name = |v: usize| model.var_name(VarId::new(v));
        let cname = |c: Option<usize>| match c.and_then(|c| model.constraint(ConstraintId::new(c)))
        {
            Some(con) => format!("{} c{}", con.name(), c.unwrap_or_default()),
            None => "objective bound".to_string(),
        };
        let mut out = String::new();
        let mut pending: Option<(usize, String)> = None;
        let flush = |out: &mut String, pending: &mut Option<(usize, String)>| {
            if let Some((_, line)) = pending.take() {
                out.push_str(&line);
                out.push('\n');
            }
        };
        for e in &self.events {
            match e {
                TraceEvent::Try {
                    id,
                    depth,
                    var,
                    value,
                    relation,
                    ..
                } => {
                    flush(&mut out, &mut pending);
                    let line = format!(
                        "{}#{id} {} {} {value}",
                        "  ".repeat(depth - 1),
                        name(*var),
                        relation.as_str()
                    );
                    pending = Some((*depth, line));
                }
                TraceEvent::Accept { .. } => {
                    if let Some((_, line)) = &mut pending {
                        line.push_str("  ok");
                    }
                }
                TraceEvent::Reject {
                    kind,
                    constraint,
                    wiped_out,
                    ..
                } => {
                    if let Some((_, line)) = &mut pending {
                        let why = match (kind.as_str(), wiped_out) {
                            ("conflict", Some(v)) => {
                                format!("{} empties {}", cname(*constraint), name(*v))
                            }
                            ("not_promising", _) => {
                                format!("not promising: {}", cname(*constraint))
                            }
                            _ => format!("{}: {}", kind.replace('_', " "), cname(*constraint)),
                        };
                        let _ = write!(line, "  dead end ({why})");
                    }
                }
                TraceEvent::Prune {
                    var,
                    value,
                    constraint,
                    node,
                    ..
                } => {
                    let depth = pending.as_ref().map_or(0, |p| p.0);
                    if *node == 0 && pending.is_none() {
                        let _ = writeln!(
                            out,
                            "root: prune {} != {value} ({})",
                            name(*var),
                            cname(*constraint)
                        );
                    } else if let Some((_, line)) = &mut pending {
                        let _ = write!(
                            line,
                            "\n{}   prune {} != {value} ({})",
                            "  ".repeat(depth.saturating_sub(1)),
                            name(*var),
                            cname(*constraint)
                        );
                    }
                }
                TraceEvent::Solution { .. } => {
                    if let Some((_, line)) = &mut pending {
                        line.push_str("  SOLUTION");
                    }
                }
                TraceEvent::Backtrack { depth, var } => {
                    flush(&mut out, &mut pending);
                    let _ = writeln!(
                        out,
                        "{}<- back from {}",
                        "  ".repeat(depth.saturating_sub(1)),
                        name(*var)
                    );
                }
                TraceEvent::Backjump {
                    from, to, conflict, ..
                } => {
                    flush(&mut out, &mut pending);
                    let names: Vec<String> = conflict.iter().map(|&v| name(v)).collect();
                    let _ = writeln!(
                        out,
                        "{}<= jump from level {from} to level {to}, conflict set {{{}}}",
                        "  ".repeat(from.saturating_sub(1)),
                        names.join(", ")
                    );
                }
                TraceEvent::Truncated { cap } => {
                    flush(&mut out, &mut pending);
                    let _ = writeln!(
                        out,
                        "... trace truncated after {cap} events (the search went on)"
                    );
                }
                TraceEvent::Select { .. } => {}
            }
        }
        flush(&mut out, &mut pending);
        let s = self.summary();
        let _ = writeln!(
            out,
            "tried {}, accepted {}, rejected {}, pruned {}, solutions {}{}",
            s.tried,
            s.accepted,
            s.rejected,
            s.pruned,
            s.solutions,
            if self.is_truncated() {
                " (truncated)"
            } else {
                ""
            }
        );
        let _ = self
            .nodes()
            .iter()
            .filter(|n| n.outcome == Outcome::Open)
            .count();
        out
    }
}
