//! Tests of the SVG rendering: well-formed XML, marks matching the statistics,
//! no overlapping boxes.

use std::collections::HashMap;

use super::layout::{Extent, tidy};
use super::*;
use crate::TraceRecorder;
use csp_core::{Config, Pruning, Solver};
use proptest::prelude::*;

use csp_core::Model;

fn queens(n: usize) -> Model {
    csp_core::models::queens(n).unwrap().0
}

const LEVELS: [Pruning; 3] = [
    Pruning::Check,
    Pruning::ForwardChecking,
    Pruning::ArcConsistency,
];

fn class_count(doc: &roxmltree::Document<'_>, class: &str) -> u64 {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .count() as u64
}

/// The boxes of the drawn nodes: the first `rect` of each node group.
fn boxes(doc: &roxmltree::Document<'_>) -> Vec<(f64, f64, f64, f64)> {
    let num =
        |n: roxmltree::Node<'_, '_>, a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
    doc.descendants()
        .filter(|n| matches!(n.attribute("class"), Some("node" | "root")))
        .map(|g| {
            let r = g.descendants().find(|r| r.has_tag_name("rect")).unwrap();
            (num(r, "x"), num(r, "y"), num(r, "width"), num(r, "height"))
        })
        .collect()
}

#[test]
fn svg_is_well_formed_and_its_marks_equal_the_search_statistics() {
    let m = queens(4);
    for pruning in LEVELS {
        for all in [false, true] {
            let cfg = Config::textbook().with_pruning(pruning);
            let mut s = Solver::with_observer(&m, cfg, TraceRecorder::new(100_000)).unwrap();
            let (stats, solutions) = if all {
                let r = s.count();
                (r.stats, r.solutions)
            } else {
                let r = s.first();
                (r.stats, u64::from(r.solution.is_some()))
            };
            let trace = s.into_observer().finish();
            let svg = trace.to_svg(&m, &SvgOptions::default());
            let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
            let sum = trace.summary();
            assert_eq!(class_count(&doc, "node"), sum.tried, "{pruning}");
            assert_eq!(class_count(&doc, "node"), stats.tried, "{pruning}");
            assert_eq!(class_count(&doc, "failure"), stats.rejected, "{pruning}");
            assert_eq!(class_count(&doc, "failure"), sum.rejected, "{pruning}");
            assert_eq!(class_count(&doc, "solution"), solutions, "{pruning}");
            assert_eq!(class_count(&doc, "solution"), sum.solutions, "{pruning}");
            assert_eq!(class_count(&doc, "root"), 1);
            // The plain string counts (what a quick script would do) agree.
            assert_eq!(svg.matches(r#"class="node""#).count() as u64, stats.tried);
        }
    }
}

#[test]
fn no_two_node_boxes_overlap() {
    let m = queens(5);
    for pruning in LEVELS {
        let cfg = Config::textbook().with_pruning(pruning);
        let mut s = Solver::with_observer(&m, cfg, TraceRecorder::new(100_000)).unwrap();
        s.count();
        let svg = s
            .into_observer()
            .finish()
            .to_svg(&m, &SvgOptions::default());
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let b = boxes(&doc);
        assert!(b.len() > 10);
        for i in 0..b.len() {
            for j in i + 1..b.len() {
                let (x1, y1, w1, h1) = b[i];
                let (x2, y2, w2, h2) = b[j];
                let apart = x1 + w1 <= x2 || x2 + w2 <= x1 || y1 + h1 <= y2 || y2 + h2 <= y1;
                assert!(
                    apart,
                    "{pruning}: boxes {i} and {j} overlap: {:?} {:?}",
                    b[i], b[j]
                );
            }
        }
    }
}

#[test]
fn children_are_centred_under_their_parent() {
    let m = queens(4);
    let mut s = Solver::with_observer(&m, Config::textbook(), TraceRecorder::new(10_000)).unwrap();
    s.count();
    let trace = s.into_observer().finish();
    let svg = trace.to_svg(&m, &SvgOptions::default());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let centre: HashMap<u64, f64> = doc
        .descendants()
        .filter(|n| matches!(n.attribute("class"), Some("node" | "root")))
        .map(|g| {
            let id: u64 = g.attribute("id").unwrap()[1..].parse().unwrap();
            let r = g.descendants().find(|r| r.has_tag_name("rect")).unwrap();
            let x: f64 = r.attribute("x").unwrap().parse().unwrap();
            let w: f64 = r.attribute("width").unwrap().parse().unwrap();
            (id, x + w / 2.0)
        })
        .collect();
    let nodes = trace.nodes();
    for parent in std::iter::once(0).chain(nodes.iter().map(|n| n.id)) {
        let kids: Vec<f64> = nodes
            .iter()
            .filter(|n| n.parent == parent)
            .map(|n| centre[&n.id])
            .collect();
        if let (Some(first), Some(last)) = (kids.first(), kids.last()) {
            assert!((centre[&parent] - (first + last) / 2.0).abs() < 0.11);
        }
    }
}

#[test]
fn pruned_values_and_candidates_carry_their_provenance() {
    let m = queens(4);
    let cfg = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_var_order(csp_core::VarOrder::FirstFail);
    let mut s = Solver::with_observer(&m, cfg, TraceRecorder::new(10_000)).unwrap();
    s.first();
    let svg = s
        .into_observer()
        .finish()
        .to_svg(&m, &SvgOptions::default());
    assert!(svg.contains("q[1] ≠ 0, 1"), "{svg}");
    assert!(svg.contains("removed by forward checking on all-different c0 after q[0] = 0"));
    assert!(svg.contains("the heuristic&apos;s candidates, best (lowest score) first"));
    assert!(svg.contains("tie at 2 between"), "{svg}");
    assert!(
        svg.contains("leaves q"),
        "a wipe-out names the emptied variable"
    );
}

#[test]
fn painter_draws_the_boxes_and_sees_the_path() {
    let m = queens(4);
    let mut s = Solver::with_observer(&m, Config::textbook(), TraceRecorder::new(10_000)).unwrap();
    s.first();
    let trace = s.into_observer().finish();
    let painter = |b: &NodeBox<'_>| {
        let placed: Vec<String> = b.assignment().map(|(v, x)| format!("{v}:{x}")).collect();
        Some(format!(
            r#"<text class="painted" data-rejected="{}">{}</text>"#,
            b.is_rejected(),
            placed.join(" ")
        ))
    };
    let names = vec!["columns".to_string()];
    let opts = SvgOptions::default()
        .with_painter(&painter)
        .with_constraint_names(&names)
        .with_title("4 < queens & co");
    let svg = trace.to_svg(&m, &opts);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(class_count(&doc, "painted"), trace.summary().tried + 1);
    assert!(svg.contains(">0:1 1:3 2:0 3:2<"));
    assert!(svg.contains("4 &lt; queens &amp; co"));
    assert!(svg.contains("columns") || svg.contains("all-different c1"));
}

#[test]
fn a_truncated_trace_says_so_and_large_trees_are_capped() {
    let m = queens(12);
    let cfg = Config::textbook().with_pruning(Pruning::ForwardChecking);
    let plain = Solver::new(&m, cfg.clone()).unwrap().count();
    let mut s = Solver::with_observer(&m, cfg, TraceRecorder::new(300)).unwrap();
    let traced = s.count();
    assert_eq!(traced.solutions, plain.solutions);
    let trace = s.into_observer().finish();
    let svg = trace.to_svg(&m, &SvgOptions::default());
    roxmltree::Document::parse(&svg).unwrap();
    assert!(svg.contains("TRUNCATED"));
    assert!(svg.contains("cap of 300 events"));
    let opts = SvgOptions {
        max_nodes: 10,
        ..SvgOptions::default()
    };
    let capped = trace.to_svg(&m, &opts);
    assert_eq!(capped.matches(r#"class="node""#).count(), 10);
    assert!(capped.contains("Showing the first 10 of"));
}

#[test]
fn text_is_escaped() {
    assert_eq!(
        escape_xml(r#"a<b & "c" 'd'>"#),
        "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
    );
    let mut m = Model::new();
    m.named_int_var("x<&>\"", 0..=1).unwrap();
    let mut s = Solver::with_observer(&m, Config::textbook(), TraceRecorder::new(100)).unwrap();
    s.count();
    let svg = s
        .into_observer()
        .finish()
        .to_svg(&m, &SvgOptions::default());
    roxmltree::Document::parse(&svg).unwrap();
}

fn tree() -> impl Strategy<Value = (Vec<usize>, Vec<Extent>)> {
    (1usize..60).prop_flat_map(|n| {
        let parents: Vec<BoxedStrategy<usize>> = (0..n)
            .map(|i| {
                if i == 0 {
                    Just(0).boxed()
                } else {
                    (0..i).boxed()
                }
            })
            .collect();
        let extents = proptest::collection::vec((1.0f64..30.0, 1.0f64..30.0), n);
        (parents, extents).prop_map(|(p, e)| {
            let e = e
                .into_iter()
                .map(|(left, right)| Extent { left, right })
                .collect();
            (p, e)
        })
    })
}

proptest! {
    #[test]
    fn tidy_layout_never_overlaps_boxes_on_a_level((parent, ext) in tree()) {
        let x = tidy(&parent, &ext, 2.0);
        let mut depth = vec![0usize; parent.len()];
        for i in 1..parent.len() {
            depth[i] = depth[parent[i]] + 1;
        }
        for i in 0..x.len() {
            prop_assert!(x[i] - ext[i].left >= -1e-9);
            for j in i + 1..x.len() {
                if depth[i] == depth[j] {
                    let (a, b) = if x[i] <= x[j] { (i, j) } else { (j, i) };
                    prop_assert!(x[a] + ext[a].right + 2.0 <= x[b] - ext[b].left + 1e-9);
                }
            }
        }
    }
}
