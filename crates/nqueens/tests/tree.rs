//! `nqueens tree` and `nqueens diff`: snapshots of the DOT and JSON Lines of the
//! textbook 4-queens trees, the SVG checked as XML against the search
//! statistics, a capped trace of 12-queens, and the words of a diff.
//!
//! Each snapshot was reviewed by hand against the text traces in
//! `trace_snapshots.rs`: node ids in visit order, parents, the failing
//! constraint of every dead end, the pruned values under forward checking.

use std::process::Command;

use csp_core::{Config, Pruning};
use nqueens::tree::{TreeFormat, TreeOptions, record, render};
use nqueens::{Queens, Variant};

fn rendered(pruning: Pruning, format: TreeFormat) -> String {
    let queens = Queens::new(4, Variant::Global).unwrap();
    let config = Config::textbook().with_pruning(pruning);
    let (trace, _) = record(&queens, config, false, 100_000).unwrap();
    let options = TreeOptions {
        format,
        ..TreeOptions::default()
    };
    render(&queens, &trace, "", &options)
}

fn nqueens(args: &[&str]) -> (String, String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code(),
    )
}

#[test]
fn queens4_check_dot() {
    let dot = rendered(Pruning::Check, TreeFormat::Dot);
    assert_eq!(dot.matches(" -> n").count(), 26);
    insta::assert_snapshot!(dot);
}

#[test]
fn queens4_fc_dot() {
    let dot = rendered(Pruning::ForwardChecking, TreeFormat::Dot);
    assert_eq!(dot.matches(" -> n").count(), 8);
    insta::assert_snapshot!(dot);
}

#[test]
fn queens4_check_json() {
    let json = rendered(Pruning::Check, TreeFormat::Json);
    assert_eq!(json.matches(r#""event":"try""#).count(), 26);
    insta::assert_snapshot!(json);
}

#[test]
fn queens4_fc_json() {
    let json = rendered(Pruning::ForwardChecking, TreeFormat::Json);
    assert_eq!(json.matches(r#""event":"prune""#).count(), 21);
    insta::assert_snapshot!(json);
}

#[test]
fn svg_from_the_command_is_xml_whose_marks_equal_the_statistics() {
    let queens = Queens::new(4, Variant::Global).unwrap();
    for (strategy, all) in [
        ("check", false),
        ("fc", false),
        ("mac", false),
        ("check", true),
        ("fc", true),
    ] {
        let mut args = vec!["tree", "4", "--pruning", strategy];
        if all {
            args.push("--all");
        }
        let (svg, err, code) = nqueens(&args);
        assert_eq!(code, Some(0), "{err}");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let count = |class: &str| {
            doc.descendants()
                .filter(|n| n.attribute("class") == Some(class))
                .count() as u64
        };
        let config = Config::textbook().with_pruning(strategy.parse().unwrap());
        let (_, outcome) = record(&queens, config, all, 100_000).unwrap();
        assert_eq!(count("node"), outcome.stats.tried, "{strategy}");
        assert_eq!(count("failure"), outcome.stats.rejected, "{strategy}");
        assert_eq!(count("solution"), outcome.found, "{strategy}");
        assert_eq!(
            count("board"),
            outcome.stats.tried + 1,
            "a board per node and the root"
        );
    }
}

#[test]
fn output_file_holds_the_tree() {
    let dir = std::env::temp_dir().join(format!("nqueens-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.dot");
    let p = path.to_str().unwrap();
    let (out, err, code) = nqueens(&["tree", "4", "--format", "dot", "-o", p]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.is_empty());
    let dot = std::fs::read_to_string(&path).unwrap();
    assert_eq!(dot, rendered(Pruning::Check, TreeFormat::Dot));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_capped_trace_of_twelve_queens_stops_at_the_cap_and_leaves_the_search_unchanged() {
    let queens = Queens::new(12, Variant::Global).unwrap();
    let fc = Config::textbook().with_pruning(Pruning::ForwardChecking);
    let plain = queens.count(fc).unwrap();
    assert_eq!(plain.solutions, 14_200);
    let (json, err, code) = nqueens(&[
        "tree",
        "12",
        "--all",
        "--pruning",
        "fc",
        "--format",
        "json",
        "--max-events",
        "300",
        "--node-limit",
        "100000000",
        "--stats",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = json.lines().collect();
    assert_eq!(
        lines.len(),
        1 + 300 + 1,
        "the model line, 300 events, the marker"
    );
    assert_eq!(
        lines.last().copied(),
        Some(r#"{"event":"truncated","cap":300}"#)
    );
    assert!(
        err.contains("note: the trace stopped at 300 events"),
        "{err}"
    );
    assert!(
        err.contains(&format!("%%%mzn-stat: nodes={}\n", plain.stats.tried)),
        "{err}"
    );
    assert!(err.contains("%%%mzn-stat: solutions=14200\n"), "{err}");
}

#[test]
fn diff_of_check_and_fc_in_words() {
    let (text, err, code) = nqueens(&["diff", "4", "--a", "check", "--b", "fc"]);
    assert_eq!(code, Some(0), "{err}");
    insta::assert_snapshot!(text);
}

#[test]
fn diff_refuses_an_unknown_strategy() {
    let (_, err, code) = nqueens(&["diff", "4", "--a", "check", "--b", "fc+sideways"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("sideways"), "{err}");
}
