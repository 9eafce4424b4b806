//! One sentence for "why was this rejected": over every dead end of the 4-,
//! 5- and 6-queens trees (all solutions, `check` and `fc`, both models), the
//! SVG label, the JSON trace's reason and the text trace say the very same
//! sentence, and the red attack line on the SVG board joins the two rows of
//! the attack it names (or, under forward checking, the sentence names the
//! emptied row and there is no line).

use std::collections::BTreeMap;

use csp_core::{Config, Pruning};
use nqueens::attack::{Line, line_name};
use nqueens::tree::{TreeFormat, TreeOptions, record, render};
use nqueens::{Queens, Variant, trace_text};

/// What an output says about one dead end.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Why {
    /// Two queens (rows, sorted) on one line.
    Clash([usize; 2], &'static str),
    /// A row left with no column.
    Emptied(usize),
}

fn line_of_name(text: &str) -> Option<(&'static str, &str)> {
    [Line::Column, Line::Diagonal, Line::AntiDiagonal]
        .into_iter()
        .map(line_name)
        .find_map(|name| text.strip_prefix(name).map(|rest| (name, rest.trim())))
}

fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = s.find(start)? + start.len();
    let j = s[i..].find(end)? + i;
    Some(&s[i..j])
}

fn attr(s: &str, name: &str) -> Option<f64> {
    between(s, &format!(" {name}=\""), "\"")?.parse().ok()
}

/// Per rejected node of the SVG: (label, red line).
fn from_svg(svg: &str, n: usize) -> BTreeMap<u64, (String, Option<Why>)> {
    let mut out = BTreeMap::new();
    for part in svg.split(r#"<g class="node" id="n"#).skip(1) {
        let Some((id, rest)) = part.split_once('"') else {
            continue;
        };
        if !rest.starts_with(r#" data-outcome="rejected">"#) {
            continue;
        }
        let id: u64 = id.parse().unwrap();
        let label = between(rest, "</title>✗ ", "</text>").unwrap().to_string();
        let side = attr(
            between(rest, r#"<g class="board">"#, "/>").unwrap(),
            "width",
        )
        .unwrap();
        let cell = side / n as f64;
        let line = between(rest, "<line", "/>").map(|l| {
            let at = |k: &str| (attr(l, k).unwrap() / cell - 0.5).round() as usize;
            let (c1, r1, c2, r2) = (at("x1"), at("y1"), at("x2"), at("y2"));
            let kind = if c1 == c2 {
                Line::Column
            } else if (r1 < r2) == (c1 < c2) {
                Line::Diagonal
            } else {
                Line::AntiDiagonal
            };
            let mut rows = [r1, r2];
            rows.sort_unstable();
            Why::Clash(rows, line_name(kind))
        });
        out.insert(id, (label, line));
    }
    out
}

/// Per rejected node of the JSON trace: its reason.
fn from_json(json: &str) -> BTreeMap<u64, String> {
    let mut out = BTreeMap::new();
    for l in json.lines().filter(|l| l.contains(r#""event":"reject""#)) {
        let id = between(l, r#""id":"#, ",").unwrap().parse().unwrap();
        let reason = between(l, r#""reason":""#, "\"").unwrap_or("(none)");
        out.insert(id, reason.to_string());
    }
    out
}

/// Per rejected node of the text trace: the sentence, and what it says.
fn from_text(text: &str) -> BTreeMap<u64, (String, Option<Why>)> {
    let mut out = BTreeMap::new();
    for l in text.lines().map(str::trim_start) {
        let Some((head, why)) = l.split_once(", rejected: ") else {
            continue;
        };
        let id = between(head, "#", " ").unwrap().parse().unwrap();
        let row: usize = between(head, ": row ", " ").unwrap().parse().unwrap();
        let why_text = why;
        let parsed = if let Some(rest) = why.strip_prefix("same ") {
            let (line, rest) = line_of_name(rest).unwrap();
            let other: usize = rest.strip_prefix("as row ").unwrap().parse().unwrap();
            let mut rows = [other, row];
            rows.sort_unstable();
            Some(Why::Clash(rows, line))
        } else if let Some(rest) = why.strip_prefix("rows ") {
            let (a, rest) = rest.split_once(" and ").unwrap();
            let (b, line) = rest.split_once(" share a ").unwrap();
            let mut rows = [a.parse().unwrap(), b.parse().unwrap()];
            rows.sort_unstable();
            Some(Why::Clash(rows, line_of_name(line).unwrap().0))
        } else {
            between(why, "leaves row ", " ")
                .and_then(|r| r.parse().ok())
                .map(Why::Emptied)
        };
        out.insert(id, (why_text.to_string(), parsed));
    }
    out
}

#[test]
fn label_line_json_and_text_give_the_same_reason_for_every_dead_end() {
    for n in [4, 5, 6] {
        for variant in Variant::ALL {
            let queens = Queens::new(n, variant).unwrap();
            for pruning in [Pruning::Check, Pruning::ForwardChecking] {
                let config = Config::textbook().with_pruning(pruning);
                let what = format!("n={n} {variant} {pruning}");
                let (trace, outcome) = record(&queens, config.clone(), true, 1_000_000).unwrap();
                let svg = render(&queens, &trace, "t", &TreeOptions::default());
                let json_options = TreeOptions {
                    format: TreeFormat::Json,
                    ..TreeOptions::default()
                };
                let json = render(&queens, &trace, "", &json_options);
                let run = trace_text::record(&queens, config, true, 1_000_000).unwrap();
                let text = trace_text::to_text(&queens, &run);

                let svg = from_svg(&svg, n);
                let json = from_json(&json);
                let text = from_text(&text);
                assert_eq!(svg.len() as u64, outcome.stats.rejected, "{what}");
                assert_eq!(json.len(), svg.len(), "{what}");
                assert_eq!(text.len(), svg.len(), "{what}");
                for (id, (label, line)) in &svg {
                    let (sentence, parsed) = &text[id];
                    // One sentence everywhere.
                    assert_eq!(label, sentence, "{what} #{id}: label and text");
                    assert_eq!(&json[id], sentence, "{what} #{id}: json and text");
                    let parsed = parsed
                        .clone()
                        .unwrap_or_else(|| panic!("{what} #{id}: no reason in {sentence:?}"));
                    match (&parsed, pruning) {
                        (Why::Clash(..), Pruning::Check) => {
                            assert_eq!(line.as_ref(), Some(&parsed), "{what} #{id}: line");
                        }
                        (Why::Emptied(_), Pruning::ForwardChecking) => {
                            assert_eq!(line, &None, "{what} #{id}: no attack line");
                        }
                        _ => panic!("{what} #{id}: unexpected reason {parsed:?}"),
                    }
                }
            }
        }
    }
}
