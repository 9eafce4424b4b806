//! A self-contained SVG drawing of the state-space tree, laid out here (no Graphviz).
//!
//! [`Trace::to_svg`] draws the tree top-down with a tidy layout (see `layout`):
//! each node is a box under the label of its decision (`q1 = 3`), dead ends are
//! crossed out in red, solutions ringed in gold with a star, the values pruned
//! after a decision hang under it in grey, and every mark has a `<title>`
//! tooltip telling why (the failing constraint, the pruning level and constraint
//! that removed each value, the heuristic's candidates for the next variable). A
//! title, a summary line and a legend head the picture.
//!
//! Every drawn node is an element with `class="node"`, every dead-end mark one
//! with `class="failure"`, every solution mark one with `class="solution"`, so
//! tools and tests can count them; the root is `class="root"`.
//!
//! A [`NodePainter`] replaces the plain boxes by a picture of the node (a
//! miniature chess board for N-Queens, say).

mod backjumps;
mod layout;
mod marks;
mod slots;
mod words;

use std::fmt::{self, Write};

use super::{Outcome, Trace, TraceEvent, TraceNode};
use csp_core::{Model, Value};
use layout::{Extent, tidy_until};
use marks::{
    GOLD, GREEN, Num, RED, cross, escape_xml, failure_badge, legend_items, star, text_width, wrap,
};
use slots::{BADGE_R, LABEL_SIZE, NOTE_SIZE, build};
use words::Namer;

/// What a [`NodePainter`] is asked to draw: one node of the tree in a box of
/// `width` × `height`, with its origin at the top-left corner.
#[derive(Clone, Copy, Debug)]
pub struct NodeBox<'t> {
    /// The node; `None` for the root (the empty assignment).
    pub node: Option<&'t TraceNode>,
    /// The decisions from the root down to this node, this one last (empty for
    /// the root): the partial assignment, and the values pruned along the way.
    pub path: &'t [&'t TraceNode],
    /// The box's width.
    pub width: f64,
    /// The box's height.
    pub height: f64,
}

impl NodeBox<'_> {
    /// The partial assignment at this node: `(variable index, value)` in
    /// decision order (a split's bound, `x <= v`, assigns nothing and is
    /// left out).
    pub fn assignment(&self) -> impl Iterator<Item = (usize, Value)> + '_ {
        self.path
            .iter()
            .filter(|n| n.relation.is_equal())
            .map(|n| (n.var, n.value))
    }

    /// Whether this node is a dead end.
    pub fn is_rejected(&self) -> bool {
        matches!(
            self.node.map(|n| &n.outcome),
            Some(Outcome::Rejected { .. })
        )
    }
}

/// Draws a node: returns an SVG fragment for the box (coordinates from `(0, 0)`
/// to `(width, height)`), or `None` for the plain box. The fragment is inserted
/// as it is, so it must be well-formed with its text escaped.
pub type NodePainter<'a> = dyn Fn(&NodeBox<'_>) -> Option<String> + 'a;

/// Says why a dead end failed, in the front end's own words (`same ↘
/// diagonal as row 0` rather than `not promising, violates no-attack c1`);
/// `None` keeps the generic sentence. Shown as it is in the label under the
/// node (`✗ same ↘ diagonal as row 0`), in its tooltip (`dead end: same ↘
/// diagonal as row 0`) and as the JSON trace's `reason`.
pub type FailureNamer<'a> = dyn Fn(&TraceNode) -> Option<String> + 'a;

/// Options for [`Trace::to_svg`]. Start from [`SvgOptions::default`].
#[derive(Clone)]
pub struct SvgOptions<'a> {
    /// A heading above the tree (default: "State-space tree").
    pub title: Option<String>,
    /// Width of a node's box, in pixels.
    pub node_width: f64,
    /// Height of a node's box, in pixels.
    pub node_height: f64,
    /// Horizontal space between neighbouring subtrees.
    pub sibling_gap: f64,
    /// Vertical space between levels (below the text hanging from a level).
    pub level_gap: f64,
    /// List the values pruned after each decision under its node.
    pub show_pruned: bool,
    /// Write under each dead end what failed (the tooltip always says it).
    pub show_reasons: bool,
    /// Draw at most this many nodes (in visit order), with a note saying so.
    pub max_nodes: usize,
    /// Names to show for constraints, by constraint index, instead of the
    /// model's generic ones (`all-different c1`); missing entries fall back.
    pub constraint_names: Option<&'a [String]>,
    /// Names each dead end's conflict (see [`FailureNamer`]); `None`: the
    /// failing constraint's name.
    pub failure_names: Option<&'a FailureNamer<'a>>,
    /// Draws the nodes' boxes; `None`: plain boxes with the node ids.
    pub node_painter: Option<&'a NodePainter<'a>>,
    /// More legend entries, for what a painter draws: `(glyph, text)`, the
    /// glyph an SVG fragment in a 28 × 18 box.
    pub extra_legend: Vec<(String, String)>,
    /// Asked every 1,024 nodes while the tree is laid out and drawn (a time
    /// limit, Ctrl-C): once it says yes, [`Trace::try_to_svg`] gives up.
    pub stop: Option<&'a StopAsker<'a>>,
}

/// Whether a long drawing must stop now (see [`SvgOptions::stop`]).
pub type StopAsker<'a> = dyn Fn() -> bool + 'a;

impl Default for SvgOptions<'_> {
    fn default() -> Self {
        SvgOptions {
            title: None,
            node_width: 34.0,
            node_height: 18.0,
            sibling_gap: 10.0,
            level_gap: 22.0,
            show_pruned: true,
            show_reasons: true,
            max_nodes: 2_000,
            constraint_names: None,
            failure_names: None,
            node_painter: None,
            extra_legend: Vec::new(),
            stop: None,
        }
    }
}

impl fmt::Debug for SvgOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SvgOptions")
            .field("title", &self.title)
            .field("node_width", &self.node_width)
            .field("node_height", &self.node_height)
            .field("sibling_gap", &self.sibling_gap)
            .field("level_gap", &self.level_gap)
            .field("show_pruned", &self.show_pruned)
            .field("show_reasons", &self.show_reasons)
            .field("max_nodes", &self.max_nodes)
            .field("constraint_names", &self.constraint_names)
            .field("failure_names", &self.failure_names.map(|_| "fn"))
            .field("node_painter", &self.node_painter.map(|_| "fn"))
            .field("extra_legend", &self.extra_legend)
            .field("stop", &self.stop.map(|_| "fn"))
            .finish()
    }
}

impl<'a> SvgOptions<'a> {
    /// Sets the heading.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the size of the nodes' boxes.
    pub fn with_node_size(mut self, width: f64, height: f64) -> Self {
        self.node_width = width;
        self.node_height = height;
        self
    }

    /// Draws the boxes with `painter`.
    pub fn with_painter(mut self, painter: &'a NodePainter<'a>) -> Self {
        self.node_painter = Some(painter);
        self
    }

    /// Adds a legend entry: a glyph (an SVG fragment in a 28 × 18 box) and its meaning.
    pub fn with_legend(mut self, glyph: impl Into<String>, text: impl Into<String>) -> Self {
        self.extra_legend.push((glyph.into(), text.into()));
        self
    }

    /// Names each dead end's conflict with `namer` (see [`FailureNamer`]).
    pub fn with_failure_names(mut self, namer: &'a FailureNamer<'a>) -> Self {
        self.failure_names = Some(namer);
        self
    }

    /// Shows these names for the constraints (by index).
    pub fn with_constraint_names(mut self, names: &'a [String]) -> Self {
        self.constraint_names = Some(names);
        self
    }
}

const LABEL_H: f64 = 23.0;
const NOTE_H: f64 = 12.0;
const MARGIN: f64 = 16.0;
const LEGEND_WRAP: f64 = 760.0;

impl Trace {
    /// The state-space tree as a self-contained SVG document, laid out here.
    ///
    /// Nodes are boxes under their decision's label (`x = 1`): green when
    /// accepted, crossed out in red when a dead end (with the failing constraint
    /// in the tooltip and, if [`SvgOptions::show_reasons`], under the box),
    /// ringed in gold with a star when a solution, dashed when the trace was
    /// truncated before their outcome. Every drawn node is an element with
    /// `class="node"` (the root: `class="root"`), every dead-end mark one with
    /// `class="failure"`, every solution mark one with `class="solution"`, so
    /// tools and tests can count them. [`SvgOptions`] holds the choices.
    ///
    /// ```
    /// use csp_core::{Config, Model, Pruning, Solver};
    /// use csp_trace::{SvgOptions, TraceRecorder};
    ///
    /// let mut m = Model::new();
    /// let x = m.named_int_var("x", 0..=2)?;
    /// let y = m.named_int_var("y", 0..=2)?;
    /// m.less_than(x, y)?;
    /// let config = Config::textbook().with_pruning(Pruning::Check);
    /// let mut solver = Solver::with_observer(&m, config, TraceRecorder::new(1000))?;
    /// let count = solver.count();
    /// let svg = solver.into_observer().finish().to_svg(&m, &SvgOptions::default());
    /// assert!(svg.starts_with("<svg"));
    /// assert_eq!(svg.matches(r#"class="node""#).count() as u64, count.stats.tried);
    /// assert_eq!(svg.matches(r#"class="solution""#).count(), 3);
    /// assert!(svg.contains("x = 0"));
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn to_svg(&self, model: &Model, options: &SvgOptions<'_>) -> String {
        self.try_to_svg(model, options).unwrap_or_default()
    }

    /// [`to_svg`](Trace::to_svg), or `None` if [`SvgOptions::stop`] said to
    /// stop while the trace was read or the tree laid out or drawn.
    pub fn try_to_svg(&self, model: &Model, options: &SvgOptions<'_>) -> Option<String> {
        let all = self.nodes_until(&mut || options.stop.is_some_and(|s| s()))?;
        self.try_to_svg_of(model, &all, options)
    }

    /// [`try_to_svg`](Trace::try_to_svg) with the trace's nodes already
    /// built (`all`, from [`Trace::nodes_until`]): a caller that needs them
    /// too (to word the dead ends, say) builds them once. Every pass over
    /// the events or the nodes asks [`SvgOptions::stop`] every few thousand
    /// items.
    pub fn try_to_svg_of(
        &self,
        model: &Model,
        all: &[TraceNode],
        options: &SvgOptions<'_>,
    ) -> Option<String> {
        let stop = || options.stop.is_some_and(|s| s());
        let namer = Namer {
            model,
            constraint_names: options.constraint_names,
            failure_names: options.failure_names,
        };
        if stop() {
            return None;
        }
        let drawn = &all[..all.len().min(options.max_nodes)];
        let (slots, summary) = build(self, drawn, &namer, options, &stop)?;

        let parents: Vec<usize> = slots.iter().map(|s| s.parent).collect();
        let extents: Vec<Extent> = slots.iter().map(|s| s.extent).collect();
        let xs = tidy_until(&parents, &extents, options.sibling_gap, &stop)?;
        let max_depth = slots.iter().map(|s| s.depth).max().unwrap_or(0);
        let mut notes_at = vec![0usize; max_depth + 1];
        for s in &slots {
            notes_at[s.depth] = notes_at[s.depth].max(s.notes.len());
        }
        let tree_w = slots
            .iter()
            .zip(&xs)
            .map(|(s, x)| x + s.extent.right)
            .fold(0.0, f64::max);

        // The heading: title, summary, notes, legend.
        let mut head = Vec::new();
        let title = options
            .title
            .clone()
            .unwrap_or_else(|| "State-space tree".to_string());
        let mut line = format!(
            "tried {} · accepted {} · rejected {} · solutions {} · pruned values {}",
            summary.tried, summary.accepted, summary.rejected, summary.solutions, summary.pruned
        );
        if summary.backjumps > 0 {
            let _ = write!(line, " · backjumps {}", summary.backjumps);
        }
        if self.is_truncated() {
            line.push_str(" · TRUNCATED");
        }
        head.push(line);
        if let Some(TraceEvent::Truncated { cap }) = self.events.last() {
            head.push(format!(
                "The trace stopped at its cap of {cap} events: the search went on, unrecorded; \
                 counts above cover the recorded part only."
            ));
        }
        if drawn.len() < all.len() {
            head.push(format!(
                "Showing the first {} of {} recorded nodes, in visit order.",
                drawn.len(),
                all.len()
            ));
        }
        let any_open = drawn.iter().any(|n| n.outcome == Outcome::Open);
        let any_pruned = options.show_pruned && drawn.iter().any(|n| !n.pruned.is_empty());
        let legend = legend_items(options, any_open, any_pruned);
        let head_w = head
            .iter()
            .map(|l| text_width(l, 12.0))
            .chain(std::iter::once(text_width(&title, 17.0)))
            .fold(0.0, f64::max);
        let legend_w = legend.iter().map(|(w, _)| *w).fold(0.0, f64::max);
        let inner_w = tree_w.max(head_w).max(legend_w).max(LEGEND_WRAP);
        let (legend_at, legend_rows) = wrap(&legend, inner_w);
        let width = (inner_w + 2.0 * MARGIN).ceil();
        let head_h = 48.0 + 18.0 * head.len() as f64 + 22.0 * legend_rows as f64 + 14.0;

        let level_h: Vec<f64> = notes_at
            .iter()
            .map(|&k| LABEL_H + options.node_height + 4.0 + k as f64 * NOTE_H + options.level_gap)
            .collect();
        let mut level_y = vec![head_h; max_depth + 1];
        for d in 1..=max_depth {
            level_y[d] = level_y[d - 1] + level_h[d - 1];
        }
        let height = (level_y[max_depth] + level_h[max_depth] - options.level_gap + MARGIN).ceil();

        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="Helvetica, Arial, sans-serif">"#,
            w = Num(width),
            h = Num(height)
        );
        let _ = writeln!(out, "<title>{}</title>", escape_xml(&title));
        let _ = writeln!(
            out,
            r##"<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>"##,
            Num(width),
            Num(height)
        );
        let _ = writeln!(
            out,
            r#"<text x="{MARGIN}" y="28" font-size="17" font-weight="bold">{}</text>"#,
            escape_xml(&title)
        );
        for (k, l) in head.iter().enumerate() {
            let _ = writeln!(
                out,
                r#"<text class="summary" x="{MARGIN}" y="{}" font-size="12">{}</text>"#,
                Num(48.0 + 18.0 * k as f64),
                escape_xml(l)
            );
        }
        let legend_y = 48.0 + 18.0 * head.len() as f64;
        let _ = writeln!(
            out,
            r#"<g class="legend" transform="translate({MARGIN},{})">"#,
            Num(legend_y)
        );
        for ((_, svg), (lx, ly)) in legend.iter().zip(&legend_at) {
            let _ = writeln!(
                out,
                r#"<g transform="translate({},{})">{svg}</g>"#,
                Num(*lx),
                Num(*ly)
            );
        }
        out.push_str("</g>\n");

        // Edges under the boxes: a stem through the notes, then to the child's label.
        let x0 = MARGIN;
        out.push_str(r##"<g class="edges" fill="none" stroke="#9e9e9e" stroke-width="1.2">"##);
        out.push('\n');
        for (i, s) in slots.iter().enumerate().skip(1) {
            let p = &slots[s.parent];
            let px = x0 + xs[s.parent];
            let stem_top = level_y[p.depth] + LABEL_H + options.node_height;
            let stem_bottom = stem_top + 4.0 + notes_at[p.depth] as f64 * NOTE_H;
            let _ = writeln!(
                out,
                r#"<path d="M{} {}V{}L{} {}"/>"#,
                Num(px),
                Num(stem_top),
                Num(stem_bottom),
                Num(x0 + xs[i]),
                Num(level_y[s.depth] + 2.0)
            );
        }
        out.push_str("</g>\n");
        self.draw_backjumps(&mut out, &slots, &xs, &level_y, &namer, options, &stop)?;

        let painter = options.node_painter;
        let mut path: Vec<&TraceNode> = Vec::new();
        for (i, s) in slots.iter().enumerate() {
            if i % 1024 == 0 && stop() {
                return None;
            }
            let cx = x0 + xs[i];
            let top = level_y[s.depth];
            let bx = cx - options.node_width / 2.0;
            let by = top + LABEL_H;
            let (w, h) = (options.node_width, options.node_height);
            path.clear();
            let mut a = i;
            while a != 0 {
                if let Some(n) = slots[a].node {
                    path.push(n);
                }
                a = slots[a].parent;
            }
            path.reverse();
            let (class, outcome) = match s.node.map(|n| &n.outcome) {
                None => ("root", "root"),
                Some(Outcome::Accepted) => ("node", "accepted"),
                Some(Outcome::Rejected { .. }) => ("node", "rejected"),
                Some(Outcome::Open) => ("node", "open"),
            };
            let id = s.node.map_or(0, |n| n.id);
            let _ = writeln!(
                out,
                r#"<g class="{class}" id="n{id}" data-outcome="{outcome}"><title>{}</title>"#,
                escape_xml(&s.title)
            );
            if !s.label.is_empty() {
                let _ = writeln!(
                    out,
                    r#"<text x="{}" y="{}" font-size="{LABEL_SIZE}" text-anchor="middle" font-weight="bold">{}</text>"#,
                    Num(cx),
                    Num(top + 13.0),
                    escape_xml(&s.label)
                );
            }
            let (fill, stroke, dash) = match outcome {
                "root" => ("#eeeeee", "#757575", ""),
                "accepted" if s.solution.is_some() => ("#fff3c4", GOLD, ""),
                "accepted" => ("#e8f5e9", GREEN, ""),
                "rejected" => ("#fdecea", RED, ""),
                _ => ("#ffffff", "#9e9e9e", r#" stroke-dasharray="3 2""#),
            };
            let node_box = NodeBox {
                node: s.node,
                path: &path,
                width: w,
                height: h,
            };
            match painter.and_then(|p| p(&node_box)) {
                Some(fragment) => {
                    let _ = writeln!(
                        out,
                        r#"<g transform="translate({},{})">{fragment}</g>"#,
                        Num(bx),
                        Num(by)
                    );
                    let _ = writeln!(
                        out,
                        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{stroke}" stroke-width="1.5"{dash}/>"#,
                        Num(bx),
                        Num(by),
                        Num(w),
                        Num(h)
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        r#"<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="1.5"{dash}/>"#,
                        Num(bx),
                        Num(by),
                        Num(w),
                        Num(h)
                    );
                    let text = if id == 0 {
                        "root".to_string()
                    } else {
                        format!("#{id}")
                    };
                    let _ = writeln!(
                        out,
                        r##"<text x="{}" y="{}" font-size="10" text-anchor="middle" fill="#333333">{text}</text>"##,
                        Num(cx),
                        Num(by + h / 2.0 + 3.5)
                    );
                }
            }
            for (k, note) in s.notes.iter().enumerate() {
                let _ = writeln!(
                    out,
                    r#"<text x="{}" y="{}" font-size="{NOTE_SIZE}" fill="{}"><title>{}</title>{}</text>"#,
                    Num(cx + 4.0),
                    Num(by + h + 4.0 + NOTE_H * (k as f64 + 1.0) - 2.5),
                    note.color,
                    escape_xml(&note.title),
                    escape_xml(&note.text)
                );
            }
            out.push_str("</g>\n");
            if let Some(why) = &s.failure {
                // A cross over a plain box; a badge on a painted one, which
                // must stay visible.
                let mark = if painter.is_some() {
                    failure_badge(bx + w, by, BADGE_R)
                } else {
                    cross(bx + 3.0, by + 3.0, w - 6.0, h - 6.0)
                };
                let _ = writeln!(
                    out,
                    r#"<g class="failure"><title>{}</title>{mark}</g>"#,
                    escape_xml(why)
                );
            }
            if let Some(text) = &s.solution {
                let _ = writeln!(
                    out,
                    r#"<g class="solution"><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" rx="5" fill="none" stroke="{GOLD}" stroke-width="2.5"/>{}</g>"#,
                    escape_xml(text),
                    Num(bx - 3.5),
                    Num(by - 3.5),
                    Num(w + 7.0),
                    Num(h + 7.0),
                    star(bx + w + 11.0, by + h / 2.0, 8.0)
                );
            }
        }
        out.push_str("</svg>\n");
        Some(out)
    }
}

#[cfg(test)]
mod tests;
