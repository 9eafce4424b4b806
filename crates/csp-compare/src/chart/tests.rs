//! Tests of the comparison chart, on tables built by hand with fixed numbers.

use super::*;

fn row(strategy: &str, size: usize, nodes: Option<u64>, seconds: f64, complete: bool) -> Row {
    Row {
        strategy: strategy.to_string(),
        size,
        solutions: 2,
        complete,
        stopped_by: (!complete).then(|| "node limit".to_string()),
        nodes,
        failures: None,
        pruned: None,
        propagations: None,
        seconds,
        runs: 1,
        stats: None,
        objective: None,
    }
}

/// Three engine strategies (one stopped by a limit at n = 6) and a custom
/// counter without node counts, n = 4..=6.
fn sample() -> Table {
    let mut rows = Vec::new();
    for (k, n) in [4usize, 5, 6].into_iter().enumerate() {
        let k = k as u32;
        rows.push(row(
            "none",
            n,
            Some(if n == 6 { 1_000 } else { 20 * 10u64.pow(k + 1) }),
            3e-6 * 10f64.powi(k as i32 + 1),
            n != 6,
        ));
        rows.push(row(
            "check",
            n,
            Some(26 * 3u64.pow(k)),
            2e-6 * 3f64.powi(k as i32),
            true,
        ));
        rows.push(row(
            "fc <fast> & \"good\"",
            n,
            Some(14 * 2u64.pow(k)),
            4e-6 * 2f64.powi(k as i32),
            true,
        ));
        rows.push(row("bitboard", n, None, 1e-7 * 2f64.powi(k as i32), true));
    }
    Table {
        mode: Mode::Count,
        rows,
        single_model: false,
    }
}

fn series<'a>(doc: &'a roxmltree::Document<'a>, panel: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.attribute("data-panel") == Some(panel))
        .flat_map(|p| {
            p.descendants()
                .filter(|n| n.attribute("class") == Some("series"))
        })
        .collect()
}

#[test]
fn the_chart_is_well_formed_xml() {
    let svg = sample().to_svg();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
}

#[test]
fn one_polyline_per_strategy_and_custom_methods_only_in_the_time_panel() {
    let svg = sample().to_svg();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let nodes = series(&doc, "nodes (values tried)");
    let time = series(&doc, "seconds");
    let names = |s: &[roxmltree::Node<'_, '_>]| -> Vec<String> {
        s.iter()
            .map(|n| n.attribute("data-strategy").unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&nodes), ["none", "check", "fc <fast> & \"good\""]);
    assert_eq!(
        names(&time),
        ["none", "check", "fc <fast> & \"good\"", "bitboard"]
    );
    for s in nodes.iter().chain(&time) {
        let polylines: Vec<_> = s
            .children()
            .filter(|c| c.has_tag_name("polyline"))
            .collect();
        assert_eq!(polylines.len(), 1);
        // One point and one marker per size.
        let points = polylines[0].attribute("points").unwrap().split(' ').count();
        assert_eq!(points, 3);
        assert_eq!(s.children().filter(|c| c.has_tag_name("path")).count(), 3);
    }
}

#[test]
fn runs_stopped_by_a_limit_have_open_labelled_markers() {
    let svg = sample().to_svg();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let none = &series(&doc, "nodes (values tried)")[0];
    let fills: Vec<&str> = none
        .children()
        .filter(|c| c.has_tag_name("path"))
        .map(|c| c.attribute("fill").unwrap())
        .collect();
    assert_eq!(fills[2], "#ffffff");
    assert!(fills[..2].iter().all(|&f| f != "#ffffff"));
    let labels: Vec<&str> = none
        .children()
        .filter(|c| c.has_tag_name("text"))
        .filter_map(|c| c.text())
        .collect();
    assert_eq!(labels, ["limit"]);
}

#[test]
fn consecutive_limit_runs_are_labelled_once() {
    let rows = [true, false, false, true, false]
        .into_iter()
        .enumerate()
        .map(|(k, complete)| row("none", 4 + k, Some(100 << k), 1e-3, complete))
        .collect();
    let svg = Table {
        mode: Mode::First,
        rows,
        single_model: false,
    }
    .to_svg();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let none = &series(&doc, "nodes (values tried)")[0];
    let open = none
        .children()
        .filter(|c| c.attribute("fill") == Some("#ffffff"))
        .count();
    let labels = none.children().filter(|c| c.has_tag_name("text")).count();
    assert_eq!((open, labels), (3, 2));
}

#[test]
fn series_differ_in_colour_shape_and_dash() {
    let svg = sample().to_svg();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let time = series(&doc, "seconds");
    let style = |s: &roxmltree::Node<'_, '_>| {
        let line = s.children().find(|c| c.has_tag_name("polyline")).unwrap();
        (
            line.attribute("stroke").unwrap().to_string(),
            line.attribute("stroke-dasharray").unwrap_or("").to_string(),
        )
    };
    let styles: Vec<_> = time.iter().map(style).collect();
    for (i, a) in styles.iter().enumerate() {
        for b in &styles[i + 1..] {
            assert_ne!(a.0, b.0);
            assert_ne!(a.1, b.1);
        }
    }
}

#[test]
fn a_table_without_times_has_an_empty_time_panel() {
    let svg = sample().without_times().to_svg();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(series(&doc, "seconds").is_empty());
    assert_eq!(series(&doc, "nodes (values tried)").len(), 3);
    assert!(svg.contains(">no data</text>"));
}

#[test]
fn decades_read_as_counts_and_durations() {
    let counts: Vec<String> = (0..=10).map(decade_count).collect();
    assert_eq!(
        counts,
        [
            "1", "10", "100", "1k", "10k", "100k", "1M", "10M", "100M", "1G", "10G"
        ]
    );
    let times: Vec<String> = (-7..=1).map(decade_seconds).collect();
    assert_eq!(
        times,
        [
            "100 ns", "1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms", "1 s", "10 s"
        ]
    );
    assert_eq!(thousands(15_720), "15,720");
    assert_eq!(thousands(999), "999");
}

#[test]
fn chart_snapshot() {
    let labels = ChartLabels {
        title: "4..6 queens <hand-made numbers>".to_string(),
        size: "board size n".to_string(),
    };
    insta::assert_snapshot!(sample().to_svg_with(&labels));
}
