//! What the SVG tree draws for each node: label, tooltip, notes, marks and extent.

use std::collections::HashMap;
use std::fmt::Write;

use super::SvgOptions;
use super::layout::Extent;
use super::marks::{GREY, RED, text_width};
use super::words::{Namer, Note};
use crate::{Outcome, POLL_EVERY, Trace, TraceEvent, TraceNode, TraceSummary};
use csp_core::Value;

pub(super) const LABEL_SIZE: f64 = 12.0;
pub(super) const NOTE_SIZE: f64 = 10.0;
pub(super) const MAX_NOTE_LINES: usize = 6;
pub(super) const STAR_W: f64 = 16.0;
pub(super) const BADGE_R: f64 = 6.5;

/// Everything drawn for one node (index 0 is the root).
pub(super) struct Slot<'t> {
    pub node: Option<&'t TraceNode>,
    pub parent: usize,
    pub depth: usize,
    pub label: String,
    pub title: String,
    pub notes: Vec<Note>,
    pub failure: Option<String>,
    pub solution: Option<String>,
    pub extent: Extent,
}

/// What the drawing needs from the events, gathered in one pass.
struct EventFacts<'t> {
    /// The pruning level of each node's first pruned value.
    levels: HashMap<u64, &'t str>,
    /// The level of the trace's first pruned value (or "propagation").
    default_level: &'t str,
    root_select: Option<&'t [(usize, f64)]>,
    root_solution: bool,
    root_pruned: Vec<(usize, Value, Option<usize>)>,
    solution_values: HashMap<u64, &'t [Value]>,
    summary: TraceSummary,
}

/// Reads the events once, asking `stop` every [`POLL_EVERY`] events.
fn gather<'t>(events: &'t [TraceEvent], stop: &dyn Fn() -> bool) -> Option<EventFacts<'t>> {
    let mut f = EventFacts {
        levels: HashMap::new(),
        default_level: "propagation",
        root_select: None,
        root_solution: false,
        root_pruned: Vec::new(),
        solution_values: HashMap::new(),
        summary: TraceSummary::default(),
    };
    let mut first_level = None;
    for (k, e) in events.iter().enumerate() {
        if k % POLL_EVERY == 0 && stop() {
            return None;
        }
        let s = &mut f.summary;
        match e {
            TraceEvent::Try { .. } => s.tried += 1,
            TraceEvent::Accept { .. } => s.accepted += 1,
            TraceEvent::Reject { .. } => s.rejected += 1,
            TraceEvent::Prune {
                node,
                pruning,
                var,
                value,
                constraint,
                ..
            } => {
                s.pruned += 1;
                f.levels.entry(*node).or_insert(pruning.as_str());
                first_level.get_or_insert(pruning.as_str());
                if *node == 0 {
                    f.root_pruned.push((*var, *value, *constraint));
                }
            }
            TraceEvent::Solution { node, values } => {
                s.solutions += 1;
                f.root_solution |= *node == 0;
                f.solution_values.insert(*node, values.as_slice());
            }
            TraceEvent::Backtrack { .. } => s.backtracks += 1,
            TraceEvent::Backjump { .. } => s.backjumps += 1,
            TraceEvent::Select {
                parent: 0,
                candidates,
                ..
            } if f.root_select.is_none() => f.root_select = Some(candidates.as_slice()),
            TraceEvent::Select { .. } | TraceEvent::Truncated { .. } => {}
        }
    }
    if let Some(level) = first_level {
        f.default_level = level;
    }
    Some(f)
}

/// The slots of the root (index 0) and of the `drawn` nodes, in visit order,
/// and the counts of the events; `None` if `stop` said so (asked every
/// [`POLL_EVERY`] events and every 1,024 nodes).
pub(super) fn build<'t>(
    trace: &Trace,
    drawn: &'t [TraceNode],
    namer: &Namer<'_>,
    options: &SvgOptions<'_>,
    stop: &dyn Fn() -> bool,
) -> Option<(Vec<Slot<'t>>, TraceSummary)> {
    let EventFacts {
        levels,
        default_level,
        root_select,
        root_solution,
        root_pruned,
        solution_values,
        summary,
    } = gather(&trace.events, stop)?;
    let level_of = |id: u64| -> &str { levels.get(&id).copied().unwrap_or(default_level) };

    // Slots: the root, then the drawn nodes in visit order.
    let mut slot_of: HashMap<u64, usize> = HashMap::new();
    let mut first_child_var: HashMap<usize, usize> = HashMap::new();
    let mut slots: Vec<Slot<'_>> = Vec::with_capacity(drawn.len() + 1);
    slots.push(Slot {
        node: None,
        parent: 0,
        depth: 0,
        label: String::new(),
        title: String::new(),
        notes: Vec::new(),
        failure: None,
        solution: None,
        extent: Extent {
            left: 0.0,
            right: 0.0,
        },
    });
    for (k, n) in drawn.iter().enumerate() {
        if k % 1024 == 0 && stop() {
            return None;
        }
        let parent = slot_of.get(&n.parent).copied().unwrap_or(0);
        first_child_var.entry(parent).or_insert(n.var);
        slot_of.insert(n.id, slots.len());
        slots.push(Slot {
            node: Some(n),
            parent,
            depth: slots[parent].depth + 1,
            label: namer.decision(n),
            title: String::new(),
            notes: Vec::new(),
            failure: None,
            solution: None,
            extent: Extent {
                left: 0.0,
                right: 0.0,
            },
        });
    }
    for (i, slot) in slots.iter_mut().enumerate() {
        if i % 1024 == 0 && stop() {
            return None;
        }
        let chosen = first_child_var.get(&i).copied();
        let mut title = String::new();
        match slot.node {
            None => {
                title.push_str("root: the empty assignment");
                if !root_pruned.is_empty() {
                    slot.notes = namer.pruned(&root_pruned, level_of(0), "before any decision");
                }
                if let Some(why) = root_select.and_then(|c| namer.selection(c, chosen)) {
                    let _ = write!(title, "\n{why}");
                }
                if root_solution {
                    slot.solution = Some("solution: no decision needed".to_string());
                }
            }
            Some(n) => {
                let _ = write!(
                    title,
                    "#{} {} (depth {}): ",
                    n.id,
                    namer.decision(n),
                    n.depth
                );
                let level = level_of(n.id);
                match namer.failure(n, level) {
                    Some((short, long)) => {
                        title.push_str(&long);
                        if options.show_reasons {
                            slot.notes.push(Note {
                                text: short,
                                title: long.clone(),
                                detail: String::new(),
                                color: RED,
                            });
                        }
                        slot.failure = Some(long);
                    }
                    None if n.outcome == Outcome::Accepted => {
                        title.push_str("accepted (promising)")
                    }
                    None => title.push_str("outcome not recorded (trace truncated)"),
                }
                let after = format!("after {}", namer.decision(n));
                let pruned = namer.pruned(&n.pruned, level, &after);
                if !pruned.is_empty() {
                    let _ = write!(
                        title,
                        "\nvalues pruned {after} by {}, each with its constraint:",
                        Namer::level(level)
                    );
                    for p in &pruned {
                        let _ = write!(title, "\n  {}", p.detail);
                    }
                }
                if options.show_pruned {
                    slot.notes.extend(pruned);
                }
                if n.solution {
                    let values = solution_values.get(&n.id).copied().unwrap_or_default();
                    let assignment: Vec<String> = values
                        .iter()
                        .enumerate()
                        .map(|(v, x)| format!("{} = {x}", namer.var(v)))
                        .collect();
                    let text = format!("solution: {}", assignment.join(", "));
                    let _ = write!(title, "\n{text}");
                    slot.solution = Some(text);
                }
                if let Some(why) = namer.selection(&n.candidates, chosen) {
                    let _ = write!(title, "\n{why}");
                }
            }
        }
        if slot.notes.len() > MAX_NOTE_LINES {
            let rest = slot.notes.split_off(MAX_NOTE_LINES - 1);
            let titles: Vec<String> = rest.iter().map(|n| n.title.clone()).collect();
            slot.notes.push(Note {
                text: format!("+{} more", rest.len()),
                title: titles.join("\n"),
                detail: String::new(),
                color: GREY,
            });
        }
        slot.title = title;
        let half = (options.node_width / 2.0).max(text_width(&slot.label, LABEL_SIZE) / 2.0);
        let notes_w = slot
            .notes
            .iter()
            .map(|n| 4.0 + text_width(&n.text, NOTE_SIZE))
            .fold(0.0, f64::max);
        let star = if slot.solution.is_some() {
            options.node_width / 2.0 + STAR_W
        } else if slot.failure.is_some() && options.node_painter.is_some() {
            options.node_width / 2.0 + BADGE_R
        } else {
            0.0
        };
        slot.extent = Extent {
            left: half,
            right: half.max(notes_w).max(star),
        };
    }
    Some((slots, summary))
}
