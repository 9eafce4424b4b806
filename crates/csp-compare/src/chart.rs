//! The comparison as a self-contained SVG chart: nodes and time against the size, one line per strategy.
//!
//! [`Table::to_svg`] draws two panels side by side, both with a logarithmic
//! vertical axis: the nodes (values tried) and the median time in seconds,
//! against the size. Each strategy is one polyline with markers, told apart by
//! colour *and* by marker shape and dash pattern, so the chart still reads in
//! greyscale. Sizes are evenly spaced along the horizontal axis, in increasing
//! order, whatever their values (so `8, 16, 32, 200` stay readable).
//!
//! A run stopped by a limit is drawn with an open marker, labelled `limit`
//! (once for consecutive limit runs of one strategy, whose later markers are
//! open too): its numbers are the work done until the limit, a lower bound. Rows without a
//! node count (custom methods such as a dedicated counter) appear in the time
//! panel only, and rows without a time (see [`Table::without_times`]) in the
//! nodes panel only.
//!
//! Every series is a `<g class="series" data-strategy="...">` holding one
//! `<polyline>` and its markers (each with a `<title>` tooltip), so tools and
//! tests can find them. All text is escaped; the picture has a white background
//! so that it reads on dark pages too.
//!
//! ```
//! use csp_compare::{Mode, Row, Table};
//!
//! let row = |strategy: &str, size, nodes, seconds| Row {
//!     strategy: strategy.to_string(), size, solutions: 2, complete: true, stopped_by: None,
//!     nodes: Some(nodes), failures: None, pruned: None, propagations: None,
//!     seconds, runs: 1, stats: None, objective: None,
//! };
//! let table = Table { mode: Mode::Count, single_model: false, rows: vec![
//!     row("check", 4, 26, 2e-6), row("fc", 4, 14, 3e-6),
//!     row("check", 5, 85, 5e-6), row("fc", 5, 35, 6e-6),
//! ] };
//! let svg = table.to_svg();
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("<polyline").count(), 4); // 2 strategies x 2 panels
//! ```

use std::fmt::Write;

use super::{Mode, Row, Table};

mod style;
#[cfg(test)]
mod tests;
mod text;

use style::{COLOURS, SHAPES, dash_attribute, marker_path};
use text::{decade_count, decade_seconds, escape, thousands};

/// The words on a chart: its title and the name of the size axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartLabels {
    /// The title, at the top.
    pub title: String,
    /// What the size is (`n`, `board size n`, `puzzle`), under the horizontal axes.
    pub size: String,
}

impl ChartLabels {
    /// The default words for a table in `mode`: "Strategy comparison: count
    /// all solutions" and `n`.
    pub fn for_mode(mode: Mode) -> Self {
        let what = match mode {
            Mode::Count => "count all solutions",
            Mode::First => "find the first solution",
            Mode::Minimize => "minimise",
            Mode::Maximize => "maximise",
        };
        ChartLabels {
            title: format!("Strategy comparison: {what}"),
            size: "n".to_string(),
        }
    }
}

const WIDTH: f64 = 1000.0;
const PANEL_TOP: f64 = 84.0;
const PANEL_HEIGHT: f64 = 300.0;
const PANEL_WIDTH: f64 = 390.0;
/// The left edges of the two plot areas.
const PANEL_LEFT: [f64; 2] = [88.0, 588.0];
const MARKER: f64 = 4.5;
const LEGEND_COLUMNS: usize = 3;
const LEGEND_ROW: f64 = 22.0;

/// One panel: which number it plots and how its ticks read.
#[derive(Clone, Copy)]
enum Panel {
    Nodes,
    Time,
}

impl Panel {
    fn value(self, row: &Row) -> Option<f64> {
        let v = match self {
            Panel::Nodes => row.nodes? as f64,
            Panel::Time => row.seconds,
        };
        (v > 0.0 && v.is_finite()).then_some(v)
    }

    fn heading(self) -> &'static str {
        match self {
            Panel::Nodes => "Nodes (values tried), log scale",
            Panel::Time => "Time (median wall time), log scale",
        }
    }

    fn axis(self) -> &'static str {
        match self {
            Panel::Nodes => "nodes (values tried)",
            Panel::Time => "seconds",
        }
    }

    /// The label of the tick at `10^e`.
    fn tick(self, e: i32) -> String {
        match self {
            Panel::Nodes => decade_count(e),
            Panel::Time => decade_seconds(e),
        }
    }

    fn describe(self, row: &Row) -> String {
        match self {
            Panel::Nodes => format!("{} nodes", thousands(row.nodes.unwrap_or(0))),
            Panel::Time => super::format_seconds(row.seconds),
        }
    }
}

impl Table {
    /// The comparison as a self-contained SVG chart, with the default words for
    /// its mode ([`ChartLabels::for_mode`]).
    ///
    /// Two panels side by side, both with a logarithmic vertical axis: nodes
    /// (values tried) and median time, against the size (sizes evenly spaced,
    /// in increasing order). One polyline with markers per strategy, told apart
    /// by colour, marker shape and dash pattern (readable in greyscale), and a
    /// legend. A run stopped by a limit has an open marker, labelled `limit`
    /// (once for consecutive limit runs of one strategy).
    /// Rows without a node count (custom methods) appear only in the time
    /// panel; rows without a time ([`Table::without_times`]) only in the nodes
    /// panel. Each series is a `<g class="series" data-strategy="...">` with one
    /// `<polyline>`.
    pub fn to_svg(&self) -> String {
        self.to_svg_with(&ChartLabels::for_mode(self.mode))
    }

    /// The comparison as an SVG chart with the given title and size label.
    pub fn to_svg_with(&self, labels: &ChartLabels) -> String {
        let mut sizes: Vec<usize> = self.rows.iter().map(|r| r.size).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let mut names: Vec<&str> = Vec::new();
        for r in &self.rows {
            if !names.contains(&r.strategy.as_str()) {
                names.push(&r.strategy);
            }
        }
        let legend_rows = (names.len() + 1).div_ceil(LEGEND_COLUMNS);
        let legend_top = PANEL_TOP + PANEL_HEIGHT + 70.0;
        let height = legend_top + legend_rows as f64 * LEGEND_ROW + 12.0;

        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="Helvetica, Arial, sans-serif" font-size="12">"#
        );
        let _ = writeln!(out, "<title>{}</title>", escape(&labels.title));
        let _ = writeln!(
            out,
            r##"<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>"##
        );
        let _ = writeln!(
            out,
            r##"<text x="{}" y="26" text-anchor="middle" font-size="17" font-weight="bold" fill="#000000">{}</text>"##,
            WIDTH / 2.0,
            escape(&labels.title)
        );
        let _ = writeln!(
            out,
            r##"<text x="{}" y="46" text-anchor="middle" fill="#444444">Each line is one strategy; an open marker is a run stopped by a limit (its work so far, a lower bound).</text>"##,
            WIDTH / 2.0
        );
        for (i, panel) in [Panel::Nodes, Panel::Time].into_iter().enumerate() {
            draw_panel(&mut out, self, panel, PANEL_LEFT[i], &sizes, &names, labels);
        }
        let node_less: Vec<bool> = names
            .iter()
            .map(|name| {
                self.rows
                    .iter()
                    .filter(|r| r.strategy == *name)
                    .all(|r| r.nodes.is_none())
            })
            .collect();
        draw_legend(&mut out, &names, &node_less, legend_top);
        out.push_str("</svg>\n");
        out
    }
}

/// Axes, ticks, grid and one series per strategy with values in this panel.
fn draw_panel(
    out: &mut String,
    table: &Table,
    panel: Panel,
    left: f64,
    sizes: &[usize],
    names: &[&str],
    labels: &ChartLabels,
) {
    let (top, bottom, right) = (PANEL_TOP, PANEL_TOP + PANEL_HEIGHT, left + PANEL_WIDTH);
    let _ = writeln!(out, r#"<g class="panel" data-panel="{}">"#, panel.axis());
    let _ = writeln!(
        out,
        r##"<text x="{}" y="{}" text-anchor="middle" font-size="14" font-weight="bold" fill="#000000">{}</text>"##,
        left + PANEL_WIDTH / 2.0,
        top - 12.0,
        panel.heading()
    );
    // Horizontal axis: one evenly spaced slot per size.
    let slot = PANEL_WIDTH / sizes.len().max(1) as f64;
    let x_of = |size: usize| {
        let i = sizes.binary_search(&size).unwrap_or(0);
        left + (i as f64 + 0.5) * slot
    };
    let label_every = sizes.len().div_ceil(16).max(1);
    for (i, &size) in sizes.iter().enumerate() {
        let x = x_of(size);
        let _ = writeln!(
            out,
            r##"<line x1="{x:.1}" y1="{bottom}" x2="{x:.1}" y2="{}" stroke="#000000"/>"##,
            bottom + 5.0
        );
        if i % label_every == 0 {
            let _ = writeln!(
                out,
                r##"<text x="{x:.1}" y="{}" text-anchor="middle" fill="#000000">{size}</text>"##,
                bottom + 18.0
            );
        }
    }
    let _ = writeln!(
        out,
        r##"<text x="{}" y="{}" text-anchor="middle" font-size="13" fill="#000000">{}</text>"##,
        left + PANEL_WIDTH / 2.0,
        bottom + 38.0,
        escape(&labels.size)
    );
    // Vertical axis: whole decades covering the values.
    let values: Vec<f64> = table.rows.iter().filter_map(|r| panel.value(r)).collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo_e, hi_e) = if values.is_empty() {
        (0, 1)
    } else {
        // A little room, so that no marker sits on the frame.
        let lo_e = (lo.log10() - 0.05).floor() as i32;
        let hi_e = ((hi.log10() + 0.05).ceil() as i32).max(lo_e + 1);
        (lo_e, hi_e)
    };
    let y_of =
        |v: f64| bottom - (v.log10() - f64::from(lo_e)) / f64::from(hi_e - lo_e) * PANEL_HEIGHT;
    let tick_every = ((hi_e - lo_e) as usize).div_ceil(10).max(1);
    for (k, e) in (lo_e..=hi_e).enumerate() {
        let y = y_of(10f64.powi(e));
        let _ = writeln!(
            out,
            r##"<line x1="{left}" y1="{y:.1}" x2="{right}" y2="{y:.1}" stroke="#dddddd"/>"##
        );
        if k % tick_every == 0 && !values.is_empty() {
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{:.1}" text-anchor="end" fill="#000000">{}</text>"##,
                left - 8.0,
                y + 4.0,
                panel.tick(e)
            );
        }
    }
    let mid = (top + bottom) / 2.0;
    let _ = writeln!(
        out,
        r##"<text x="{x}" y="{mid}" text-anchor="middle" font-size="13" fill="#000000" transform="rotate(-90 {x} {mid})">{}</text>"##,
        panel.axis(),
        x = left - 62.0,
    );
    let _ = writeln!(
        out,
        r##"<rect x="{left}" y="{top}" width="{PANEL_WIDTH}" height="{PANEL_HEIGHT}" fill="none" stroke="#000000"/>"##
    );
    if values.is_empty() {
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{mid}" text-anchor="middle" fill="#666666">no data</text>"##,
            left + PANEL_WIDTH / 2.0
        );
    }
    for (i, name) in names.iter().enumerate() {
        let points: Vec<(f64, f64, &Row)> = table
            .rows
            .iter()
            .filter(|r| r.strategy == *name)
            .filter_map(|r| panel.value(r).map(|v| (x_of(r.size), y_of(v), r)))
            .collect();
        if !points.is_empty() {
            draw_series(out, i, name, panel, &labels.size, &points);
        }
    }
    out.push_str("</g>\n");
}

/// One strategy's line and markers; runs stopped by a limit get open markers.
fn draw_series(
    out: &mut String,
    i: usize,
    name: &str,
    panel: Panel,
    size_label: &str,
    points: &[(f64, f64, &Row)],
) {
    let colour = COLOURS[i % COLOURS.len()];
    let _ = writeln!(
        out,
        r#"<g class="series" data-strategy="{}">"#,
        escape(name)
    );
    let coords: Vec<String> = points
        .iter()
        .map(|(x, y, _)| format!("{x:.1},{y:.1}"))
        .collect();
    let _ = writeln!(
        out,
        r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{}/>"#,
        coords.join(" "),
        dash_attribute(i)
    );
    let mut after_limit = false;
    for &(x, y, row) in points {
        let stopped = !row.complete;
        let fill = if stopped { "#ffffff" } else { colour };
        let note = match (&row.stopped_by, stopped) {
            (Some(why), true) if why == "cancelled" => " (cancelled)".to_string(),
            (Some(why), true) => format!(" (stopped by {why})"),
            (None, true) => " (stopped by a limit)".to_string(),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            r#"<path d="{}" fill="{fill}" stroke="{colour}" stroke-width="1.5"><title>{}, {} = {}: {}{}</title></path>"#,
            marker_path(i % SHAPES, x, y, MARKER),
            escape(name),
            escape(size_label),
            row.size,
            panel.describe(row),
            escape(&note)
        );
        // Label the first of consecutive limit runs (the rest have open
        // markers and tooltips): a row of labels would hide the lines. Odd
        // series put it below the marker, so that two series stopped by the
        // same budget do not print on top of each other.
        if stopped && !after_limit {
            let dy = if i % 2 == 0 { -8.0 } else { 16.0 };
            let _ = writeln!(
                out,
                r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle" font-size="10" fill="{colour}">limit</text>"#,
                y + dy
            );
        }
        after_limit = stopped;
    }
    out.push_str("</g>\n");
}

/// The legend: a line sample with its marker per strategy, then the limit key.
/// Strategies without node counts say so.
fn draw_legend(out: &mut String, names: &[&str], node_less: &[bool], top: f64) {
    let column = 300.0;
    let at = |k: usize| {
        let x = PANEL_LEFT[0] - 40.0 + (k % LEGEND_COLUMNS) as f64 * column;
        let y = top + (k / LEGEND_COLUMNS) as f64 * LEGEND_ROW;
        (x, y)
    };
    out.push_str("<g class=\"legend\">\n");
    for (i, name) in names.iter().enumerate() {
        let (x, y) = at(i);
        let colour = COLOURS[i % COLOURS.len()];
        let _ = writeln!(
            out,
            r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{colour}" stroke-width="2"{}/>"#,
            x + 36.0,
            dash_attribute(i)
        );
        let _ = writeln!(
            out,
            r#"<path d="{}" fill="{colour}" stroke="{colour}" stroke-width="1.5"/>"#,
            marker_path(i % SHAPES, x + 18.0, y, MARKER)
        );
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" fill="#000000">{}{}</text>"##,
            x + 44.0,
            y + 4.0,
            escape(name),
            if node_less[i] {
                " (time only: no node count)"
            } else {
                ""
            }
        );
    }
    let (x, y) = at(names.len());
    let _ = writeln!(
        out,
        r##"<path d="{}" fill="#ffffff" stroke="#000000" stroke-width="1.5"/>"##,
        marker_path(0, x + 18.0, y, MARKER)
    );
    let _ = writeln!(
        out,
        r##"<text x="{}" y="{}" fill="#000000">open marker: stopped by a limit</text>"##,
        x + 44.0,
        y + 4.0
    );
    out.push_str("</g>\n");
}
