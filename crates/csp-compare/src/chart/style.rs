//! Series styles: colours, dash patterns and marker shapes that tell the lines apart in greyscale too.

use std::fmt::Write;

/// Okabe–Ito colours (safe for colour-blind readers) with brown for yellow,
/// then wine and olive from Paul Tol's palette: ten series before a repeat.
pub(super) const COLOURS: [&str; 10] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B",
    "#882255", "#999933",
];
/// Dash patterns; 7 against 10 colours and shapes, so combinations repeat late.
const DASHES: [&str; 7] = ["", "7 3", "2 3", "9 3 2 3", "14 4", "4 2 1 2 1 2", "1 4"];
/// Marker shapes, in the order series get them (see [`marker_path`]).
pub(super) const SHAPES: usize = 10;

pub(super) fn dash_attribute(i: usize) -> String {
    match DASHES[i % DASHES.len()] {
        "" => String::new(),
        d => format!(r#" stroke-dasharray="{d}""#),
    }
}

/// A closed path for marker `shape` centred on `(x, y)` with radius `r`:
/// circle, square, triangle up, diamond, triangle down, plus, star, cross,
/// triangle left, triangle right.
pub(super) fn marker_path(shape: usize, x: f64, y: f64, r: f64) -> String {
    let polygon = |points: &[(f64, f64)]| {
        let mut d = String::new();
        for (k, (px, py)) in points.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1},{:.1} ",
                if k == 0 { "M" } else { "L" },
                x + px * r,
                y + py * r
            );
        }
        d.push('Z');
        d
    };
    // A plus sign with arms a third as thick as long, as a polygon.
    let plus: [(f64, f64); 12] = [
        (-0.33, -1.0),
        (0.33, -1.0),
        (0.33, -0.33),
        (1.0, -0.33),
        (1.0, 0.33),
        (0.33, 0.33),
        (0.33, 1.0),
        (-0.33, 1.0),
        (-0.33, 0.33),
        (-1.0, 0.33),
        (-1.0, -0.33),
        (-0.33, -0.33),
    ];
    match shape % SHAPES {
        0 => format!(
            "M{:.1},{y:.1} a{r},{r} 0 1,0 {},0 a{r},{r} 0 1,0 -{},0 Z",
            x - r,
            2.0 * r,
            2.0 * r
        ),
        1 => polygon(&[(-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)]),
        2 => polygon(&[(0.0, -1.15), (1.05, 0.75), (-1.05, 0.75)]),
        3 => polygon(&[(0.0, -1.2), (1.2, 0.0), (0.0, 1.2), (-1.2, 0.0)]),
        4 => polygon(&[(0.0, 1.15), (1.05, -0.75), (-1.05, -0.75)]),
        5 => polygon(&plus.map(|(a, b)| (a * 1.15, b * 1.15))),
        6 => {
            let star: Vec<(f64, f64)> = (0..10)
                .map(|k| {
                    let angle = std::f64::consts::PI * (k as f64 / 5.0 - 0.5);
                    let radius = if k % 2 == 0 { 1.3 } else { 0.55 };
                    (radius * angle.cos(), radius * angle.sin())
                })
                .collect();
            polygon(&star)
        }
        7 => {
            let s = std::f64::consts::FRAC_1_SQRT_2 * 1.2;
            polygon(&plus.map(|(a, b)| ((a - b) * s, (a + b) * s)))
        }
        8 => polygon(&[(-1.15, 0.0), (0.75, -1.05), (0.75, 1.05)]),
        _ => polygon(&[(1.15, 0.0), (-0.75, -1.05), (-0.75, 1.05)]),
    }
}
