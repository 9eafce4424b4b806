//! Miniature boards as the nodes of the SVG tree, like the textbook's 4-queens figure.
//!
//! Each node is drawn as the board of its partial placement: the queens placed
//! above it in black, the queen it tries in green (red if rejected, with a red
//! line to the queen that attacks it; gold if it completes a solution), and the
//! squares that pruning has removed so far crossed in grey. A row emptied by
//! forward checking or MAC is tinted red.
//!
//! ```
//! use csp_core::{Config, Pruning};
//! use csp_trace::SvgOptions;
//! use nqueens::tree::{painter, record};
//! use nqueens::{Queens, Variant};
//!
//! let queens = Queens::new(4, Variant::Global)?;
//! let fc = Config::textbook().with_pruning(Pruning::ForwardChecking);
//! let (trace, _) = record(&queens, fc, false, 10_000)?;
//! let paint = painter::board_painter(&queens);
//! let side = painter::board_side(4);
//! let options = SvgOptions::default().with_node_size(side, side).with_painter(&paint);
//! let svg = trace.to_svg(queens.model(), &options);
//! assert!(svg.contains(r#"class="board""#));
//! # Ok::<(), nqueens::Error>(())
//! ```

use std::collections::BTreeSet;
use std::fmt::Write;

use csp_core::VarId;
use csp_trace::{NodeBox, Outcome};

use crate::Queens;

/// The largest board drawn as a picture; larger boards get plain boxes.
pub const MAX_PICTURE_N: usize = 24;

/// The side of a miniature board in pixels: about 60, with squares of 4 to 12
/// pixels.
pub fn board_side(n: usize) -> f64 {
    if n == 0 {
        return 12.0;
    }
    (60.0 / n as f64).floor().clamp(4.0, 12.0) * n as f64
}

/// A [`NodePainter`](csp_trace::NodePainter) drawing each node as a
/// miniature board of `queens` (plain boxes above [`MAX_PICTURE_N`]).
pub fn board_painter(queens: &Queens) -> impl Fn(&NodeBox<'_>) -> Option<String> + '_ {
    move |b: &NodeBox<'_>| (queens.n() <= MAX_PICTURE_N).then(|| paint(queens, b))
}

/// Legend entries for what the boards show: `(glyph, text)` for
/// [`SvgOptions::with_legend`](csp_trace::SvgOptions::with_legend);
/// the marks of pruning only if `pruned`.
pub fn legend(pruned: bool) -> Vec<(String, String)> {
    let disc = |x: f64, fill: &str| {
        format!(
            r##"<circle cx="{x}" cy="9" r="4.5" fill="{fill}" stroke="#ffffff" stroke-width="0.8"/>"##
        )
    };
    let mut entries = vec![
        (disc(14.0, "#212121"), "queen placed above".to_string()),
        (
            format!("{}{}{}", disc(5.0, "#2e7d32"), disc(15.0, "#c62828"), disc(25.0, "#ffb300")),
            "queen tried: accepted, rejected, solution".to_string(),
        ),
        (
            r##"<line x1="4" y1="15" x2="24" y2="3" stroke="#c62828" stroke-width="2" stroke-linecap="round"/>"##
                .to_string(),
            "attacked by".to_string(),
        ),
    ];
    if pruned {
        entries.push((
            r##"<path d="M10 5L18 13M10 13L18 5" stroke="#6d6d6d" stroke-width="1.5"/>"##
                .to_string(),
            "square pruned".to_string(),
        ));
        entries.push((
            r##"<rect x="2" y="5" width="24" height="8" fill="#e53935" fill-opacity="0.35"/>"##
                .to_string(),
            "row left empty".to_string(),
        ));
    }
    entries
}

const LIGHT: &str = "#f6f1e7";
const DARK: &str = "#d9c9a8";

fn paint(queens: &Queens, b: &NodeBox<'_>) -> String {
    let n = queens.n();
    let mut out = String::from(r#"<g class="board">"#);
    if n == 0 {
        out.push_str("</g>");
        return out;
    }
    let cell = b.width.min(b.height) / n as f64;
    let row_of = |var: usize| queens.row_of(VarId::new(var));
    let centre = |r: usize, c: usize| (cell * (c as f64 + 0.5), cell * (r as f64 + 0.5));

    let _ = write!(
        out,
        r#"<rect width="{}" height="{}" fill="{LIGHT}"/>"#,
        cell * n as f64,
        cell * n as f64
    );
    for r in 0..n {
        for c in (0..n).filter(|c| (r + c) % 2 == 1) {
            let _ = write!(
                out,
                r#"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="{DARK}"/>"#,
                cell * c as f64,
                cell * r as f64
            );
        }
    }

    // The placement above this node, and the squares pruned so far.
    let mut board: Vec<Option<usize>> = vec![None; n];
    let mut pruned: BTreeSet<(usize, usize)> = BTreeSet::new();
    let (last, above) = match b.path.split_last() {
        Some((last, above)) => (Some(*last), above),
        None => (None, &[][..]),
    };
    for node in above {
        if let (Some(r), Ok(c)) = (row_of(node.var), usize::try_from(node.value)) {
            board[r] = Some(c);
        }
    }
    for node in b.path {
        for &(var, value, _) in &node.pruned {
            if let (Some(r), Ok(c)) = (row_of(var), usize::try_from(value)) {
                pruned.insert((r, c));
            }
        }
    }

    // A row left without a value by propagation.
    let emptied = last.and_then(|l| match l.outcome {
        Outcome::Rejected {
            wiped_out: Some(v), ..
        } => row_of(v),
        _ => None,
    });
    if let Some(r) = emptied {
        let _ = write!(
            out,
            r##"<rect x="0" y="{}" width="{}" height="{cell}" fill="#e53935" fill-opacity="0.35"/>"##,
            cell * r as f64,
            cell * n as f64
        );
    }
    let arm = cell * 0.22;
    let mut crosses = String::new();
    for &(r, c) in &pruned {
        if board[r] == Some(c) {
            continue;
        }
        let (x, y) = centre(r, c);
        let _ = write!(
            crosses,
            "M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}",
            x - arm,
            y - arm,
            x + arm,
            y + arm,
            x - arm,
            y + arm,
            x + arm,
            y - arm
        );
    }
    if !crosses.is_empty() {
        let _ = write!(
            out,
            r##"<path d="{crosses}" stroke="#6d6d6d" stroke-width="{:.1}"/>"##,
            (cell / 8.0).max(0.8)
        );
    }
    let radius = cell * 0.36;
    for (r, c) in board.iter().enumerate() {
        if let Some(c) = *c {
            let (x, y) = centre(r, c);
            let _ = write!(
                out,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="{radius:.1}" fill="#212121"/>"##
            );
        }
    }
    let tried =
        last.and_then(|node| Some((node, row_of(node.var)?, usize::try_from(node.value).ok()?)));
    if let Some((node, r, c)) = tried {
        let (x, y) = centre(r, c);
        let rejected = matches!(node.outcome, Outcome::Rejected { .. });
        // The clash that rejected the square (see `tree::clash`: the same
        // rule as the label and the trace; none under forward checking, whose
        // dead ends are rows left empty).
        let clash = crate::tree::clash(queens, b.path).filter(|_| rejected);
        let ends = clash.and_then(|k| {
            let [a, z] = k.rows;
            let at = |row: usize| match (row == r, board.get(row).copied().flatten()) {
                (true, _) => Some(centre(r, c)),
                (false, col) => Some(centre(row, col?)),
            };
            Some((at(a)?, at(z)?))
        });
        if let Some(((ax, ay), (x, y))) = ends {
            let _ = write!(
                out,
                r##"<line x1="{ax:.1}" y1="{ay:.1}" x2="{x:.1}" y2="{y:.1}" stroke="#c62828" stroke-width="{:.1}" stroke-linecap="round"/>"##,
                (cell / 6.0).max(1.0)
            );
        }
        let fill = match (&node.outcome, node.solution) {
            (_, true) => "#ffb300",
            (Outcome::Rejected { .. }, _) => "#c62828",
            (Outcome::Accepted, _) => "#2e7d32",
            (Outcome::Open, _) => "#9e9e9e",
        };
        let _ = write!(
            out,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="{radius:.1}" fill="{fill}" stroke="#ffffff" stroke-width="0.8"/>"##
        );
    }
    out.push_str("</g>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::tree::record;
    use csp_core::{Config, Pruning};

    #[test]
    fn boards_show_the_placement_the_tried_queen_and_pruned_squares() {
        let queens = Queens::new(4, Variant::Global).unwrap();
        let fc = Config::textbook().with_pruning(Pruning::ForwardChecking);
        let (trace, _) = record(&queens, fc, false, 10_000).unwrap();
        let nodes = trace.nodes();
        let paint = board_painter(&queens);
        // #2: q[1] = 2 below q[0] = 0, a dead end that empties q[2].
        let path = [&nodes[0], &nodes[1]];
        let side = board_side(4);
        let svg = paint(&NodeBox {
            node: Some(&nodes[1]),
            path: &path,
            width: side,
            height: side,
        })
        .unwrap();
        assert_eq!(svg.matches("<circle").count(), 2, "{svg}");
        assert!(svg.contains("#c62828"), "the rejected queen is red");
        assert!(svg.contains("fill-opacity"), "the emptied row is tinted");
        assert!(svg.contains("<path d=\"M"), "pruned squares are crossed");
        assert!(svg.starts_with(r#"<g class="board">"#) && svg.ends_with("</g>"));
    }

    #[test]
    fn board_side_stays_near_sixty_pixels() {
        assert_eq!(board_side(4), 48.0);
        assert_eq!(board_side(8), 56.0);
        assert_eq!(board_side(30), 120.0);
    }
}
