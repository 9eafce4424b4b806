//! The backjumps of a trace drawn over its tree: a dashed red arc from each
//! dead end up to the node the search undoes next, labelled with the
//! conflict set.

use std::fmt::Write;

use super::marks::{Num, escape_xml};
use super::slots;
use super::words::Namer;
use super::{LABEL_H, MARGIN, SvgOptions};
use crate::{POLL_EVERY, Trace, TraceEvent};

impl Trace {
    /// Each backjump as a dashed red arc from the dead end (the node below
    /// which a variable ran out of values) up to the node whose value the
    /// search undoes next, labelled with the conflict set; drawn when both
    /// nodes are (the root stands for level 0). Nothing without backjumps.
    /// `None` if `stop` said so (asked every [`POLL_EVERY`] events).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn draw_backjumps(
        &self,
        out: &mut String,
        slots: &[slots::Slot<'_>],
        xs: &[f64],
        level_y: &[f64],
        namer: &Namer<'_>,
        options: &SvgOptions<'_>,
        stop: &dyn Fn() -> bool,
    ) -> Option<()> {
        // Each drawn node's slot, by node id: built at the first backjump.
        let mut at: Option<std::collections::HashMap<u64, usize>> = None;
        let centre = |i: usize| {
            (
                MARGIN + xs[i] + options.node_width / 2.0,
                level_y[slots[i].depth] + LABEL_H + options.node_height / 2.0,
            )
        };
        let mut arcs = String::new();
        for (k, e) in self.events.iter().enumerate() {
            if k % POLL_EVERY == 0 && stop() {
                return None;
            }
            let TraceEvent::Backjump {
                from,
                to,
                dead_end,
                target,
                conflict,
                ..
            } = e
            else {
                continue;
            };
            let at = match &mut at {
                Some(at) => at,
                None => {
                    let mut index = std::collections::HashMap::new();
                    for (i, s) in slots.iter().enumerate() {
                        if i % POLL_EVERY == 0 && stop() {
                            return None;
                        }
                        index.insert(s.node.map_or(0, |n| n.id), i);
                    }
                    at.insert(index)
                }
            };
            let (Some(&a), Some(&b)) = (at.get(dead_end), at.get(target)) else {
                continue;
            };
            let ((ax, ay), (bx, by)) = (centre(a), centre(b));
            let bulge = ax.max(bx) + 18.0 + 10.0 * from.saturating_sub(*to) as f64;
            let names: Vec<String> = conflict.iter().map(|&v| namer.var(v)).collect();
            let label = format!("{{{}}}", names.join(", "));
            let title = format!("backjump from level {from} to level {to}: conflict set {label}");
            let _ = writeln!(
                arcs,
                r##"<g class="backjump"><title>{}</title><path d="M{} {}C{} {} {} {} {} {}" stroke-dasharray="5 3" marker-end="url(#jump-head)"/><text x="{}" y="{}" font-size="10" fill="#c62828" stroke="none">{}</text></g>"##,
                escape_xml(&title),
                Num(ax),
                Num(ay),
                Num(bulge),
                Num(ay),
                Num(bulge),
                Num(by),
                Num(bx),
                Num(by),
                Num(bulge + 3.0),
                Num((ay + by) / 2.0),
                escape_xml(&label)
            );
        }
        if arcs.is_empty() {
            return Some(());
        }
        out.push_str(r##"<defs><marker id="jump-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#c62828"/></marker></defs>"##);
        out.push('\n');
        out.push_str(r##"<g class="backjumps" fill="none" stroke="#c62828" stroke-width="1.3">"##);
        out.push('\n');
        out.push_str(&arcs);
        out.push_str("</g>\n");
        Some(())
    }
}
