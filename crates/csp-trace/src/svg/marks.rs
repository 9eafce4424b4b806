//! The marks of the SVG tree: escaping, numbers, crosses, badges, stars and the legend.

use std::fmt::{self, Write};

use super::SvgOptions;

pub(super) const RED: &str = "#c62828";
pub(super) const GREEN: &str = "#2e7d32";
pub(super) const GOLD: &str = "#e6a700";
pub(super) const GREY: &str = "#666666";

pub(crate) use crate::escape_xml;

/// A coordinate, written short.
pub(super) struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = (self.0 * 10.0).round() / 10.0;
        if r.fract() == 0.0 {
            write!(f, "{}", r as i64)
        } else {
            write!(f, "{r:.1}")
        }
    }
}

/// A rough width of `text` in a sans-serif font of `size` pixels.
pub(super) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.56
}

/// A red cross filling the rectangle at `(x, y)` of `w` × `h`.
pub(super) fn cross(x: f64, y: f64, w: f64, h: f64) -> String {
    format!(
        r#"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="{RED}" stroke-width="2.5" stroke-linecap="round"/>"#,
        Num(x),
        Num(y),
        Num(x + w),
        Num(y + h),
        Num(x),
        Num(y + h),
        Num(x + w),
        Num(y)
    )
}

/// A red disc with a white cross, centred at `(cx, cy)`.
pub(super) fn failure_badge(cx: f64, cy: f64, r: f64) -> String {
    let a = r * 0.45;
    format!(
        r##"<circle cx="{}" cy="{}" r="{}" fill="{RED}" stroke="#ffffff" stroke-width="1"/><path d="M{} {}L{} {}M{} {}L{} {}" stroke="#ffffff" stroke-width="1.8" stroke-linecap="round"/>"##,
        Num(cx),
        Num(cy),
        Num(r),
        Num(cx - a),
        Num(cy - a),
        Num(cx + a),
        Num(cy + a),
        Num(cx - a),
        Num(cy + a),
        Num(cx + a),
        Num(cy - a)
    )
}

/// A five-pointed gold star centred at `(cx, cy)` with outer radius `r`.
pub(super) fn star(cx: f64, cy: f64, r: f64) -> String {
    let mut d = String::new();
    for k in 0..10 {
        let radius = if k % 2 == 0 { r } else { r * 0.45 };
        let angle = std::f64::consts::PI * (k as f64) / 5.0 - std::f64::consts::FRAC_PI_2;
        let _ = write!(
            d,
            "{}{} {}",
            if k == 0 { "M" } else { "L" },
            Num(cx + radius * angle.cos()),
            Num(cy + radius * angle.sin())
        );
    }
    format!(r##"<path d="{d}Z" fill="#ffc107" stroke="#b8860b" stroke-width="1"/>"##)
}

/// Positions for the legend's entries in rows at most `width` wide, and the
/// number of rows.
pub(super) fn wrap(items: &[(f64, String)], width: f64) -> (Vec<(f64, f64)>, usize) {
    let (mut x, mut row) = (0.0, 0);
    let mut at = Vec::with_capacity(items.len());
    for (w, _) in items {
        if x > 0.0 && x + w > width {
            x = 0.0;
            row += 1;
        }
        at.push((x, 22.0 * row as f64));
        x += w;
    }
    (at, if items.is_empty() { 0 } else { row + 1 })
}

/// The legend's entries: `(width, svg)`, each drawn from its own origin.
pub(super) fn legend_items(
    options: &SvgOptions<'_>,
    any_open: bool,
    any_pruned: bool,
) -> Vec<(f64, String)> {
    let mut items = Vec::new();
    let mut item = |glyph: String, text: &str| {
        let svg = format!(
            r#"{glyph}<text x="34" y="13" font-size="12">{}</text>"#,
            escape_xml(text)
        );
        items.push((34.0 + text_width(text, 12.0) * 0.92 + 20.0, svg));
    };
    let bx = |fill: &str, stroke: &str, extra: &str| {
        format!(
            r#"<rect class="legend-box" x="2" y="2" width="26" height="14" rx="3" fill="{fill}" stroke="{stroke}" stroke-width="1.5"{extra}/>"#
        )
    };
    item(
        bx("#e8f5e9", GREEN, ""),
        "accepted: x = v (the label above the box)",
    );
    let failure = if options.node_painter.is_some() {
        format!(
            "{}{}",
            bx("#ffffff", RED, ""),
            failure_badge(27.0, 3.0, 5.5)
        )
    } else {
        format!("{}{}", bx("#fdecea", RED, ""), cross(5.0, 5.0, 20.0, 8.0))
    };
    item(
        failure,
        if options.show_reasons {
            "dead end (✗ what failed)"
        } else {
            "dead end"
        },
    );
    item(
        format!(
            r#"<rect x="0" y="0" width="16" height="18" rx="4" fill="none" stroke="{GOLD}" stroke-width="2.5"/>{}"#,
            star(24.0, 9.0, 6.0)
        ),
        "solution",
    );
    if any_pruned {
        item(
            format!(r#"<text x="2" y="13" font-size="10" fill="{GREY}">y ≠ 1</text>"#),
            "values pruned after it",
        );
    }
    if any_open {
        item(
            bx("#ffffff", "#9e9e9e", r#" stroke-dasharray="3 2""#),
            "outcome not recorded",
        );
    }
    for (glyph, text) in &options.extra_legend {
        item(glyph.clone(), text);
    }
    item(String::new(), "(hover a node for why)");
    items
}
