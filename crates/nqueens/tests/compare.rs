//! The N-Queens comparison: snapshots of every output format on a small deterministic case, the table's node counts against direct runs, and the `nqueens compare` command line.

use std::process::Command;

use csp_compare::{CompareOptions, Mode, Table};
use csp_core::{Limits, Solver, Strategy};
use nqueens::compare::{build, compare, parse_entries};

/// A temporary folder, removed with its contents when dropped (also when a
/// test fails).
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// n = 4..=6 with generate-and-test (stopped by a 1000-node budget from
/// n = 5 on), forward checking with first-fail, and the bitboard counter.
fn small() -> Table {
    let entries = parse_entries("none, fc+first-fail, dedicated").unwrap();
    let options = CompareOptions {
        limits: Limits {
            nodes: Some(1000),
            ..Limits::default()
        },
        max_repeats: 1,
        ..CompareOptions::default()
    };
    compare(&entries, &[4, 5, 6], &options)
        .unwrap()
        .without_times()
}

#[test]
fn markdown_snapshot() {
    insta::assert_snapshot!(small().to_markdown());
}

#[test]
fn csv_snapshot() {
    insta::assert_snapshot!(small().to_csv());
}

#[test]
fn json_snapshot() {
    insta::assert_snapshot!(small().to_json().unwrap());
}

#[test]
fn svg_snapshot() {
    let svg = small().to_svg();
    roxmltree::Document::parse(&svg).unwrap();
    insta::assert_snapshot!(svg);
}

#[test]
fn the_ladder_table_reports_the_statistics_of_each_run() {
    let ladder = nqueens::compare::default_ladder().unwrap();
    let options = CompareOptions {
        max_repeats: 1,
        ..CompareOptions::default()
    };
    let table = compare(&ladder, &[6, 7], &options).unwrap();
    for row in &table.rows {
        let Some(spec) = ladder
            .iter()
            .find(|e| e.entry(Mode::Count).name == row.strategy)
        else {
            panic!("unknown row {}", row.strategy);
        };
        match spec.method {
            nqueens::compare::Method::Engine(strategy, variant) => {
                let model = build(row.size, variant.as_str()).unwrap();
                let stats = Solver::new(&model, strategy.config())
                    .unwrap()
                    .count()
                    .stats;
                assert_eq!(
                    row.nodes,
                    Some(stats.tried),
                    "{} n={}",
                    row.strategy,
                    row.size
                );
                assert_eq!(row.failures, Some(stats.rejected));
                assert_eq!(row.pruned, Some(stats.pruned));
            }
            nqueens::compare::Method::Dedicated => assert_eq!(row.nodes, None),
        }
        assert_eq!(row.solutions, if row.size == 6 { 4 } else { 40 });
    }
}

#[test]
fn a_model_missing_a_diagonal_is_caught() {
    // The columns-only model with its leaf check removed, as a custom builder.
    let broken = |n: usize, variant: &str| {
        if variant == "broken" {
            let mut m = csp_core::Model::new();
            let q = m.int_var_array("q", n, 0..=(n as i64 - 1))?;
            m.all_different(&q)?;
            let up: Vec<i64> = (0..n as i64).collect();
            m.all_different_offsets(&q, &up)?; // one diagonal only
            Ok(m)
        } else {
            build(n, variant)
        }
    };
    let strategy: Strategy = "fc".parse().unwrap();
    let entries = vec![
        csp_compare::Entry::engine("fc", strategy, "pairwise"),
        csp_compare::Entry::engine("fc, one diagonal", strategy, "broken"),
    ];
    let e = csp_compare::compare(&broken, &entries, &[6], &CompareOptions::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("size 6: 'fc' finds 4 solutions but 'fc, one diagonal' finds"),
        "{e}"
    );
}

fn nqueens(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_command_prints_the_verified_table() {
    let (code, stdout, stderr) = nqueens(&[
        "compare",
        "--n",
        "4..=6",
        "--strategies",
        "none,fc+first-fail,dedicated",
        "--node-limit",
        "1000",
        "--no-times",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    // The header names the model; --no-times runs each entry once and says so.
    let mut table = small();
    for r in &mut table.rows {
        r.runs = 1;
    }
    assert_eq!(
        stdout,
        format!(
            "Model: pairwise, unless an entry says @global or @columns.\n\n{}",
            table.to_markdown()
        )
    );
    assert!(stdout.contains("| - | 1 |"));
}

#[test]
fn the_command_writes_a_chart_file_and_refuses_bad_lists() {
    let dir = std::env::temp_dir().join(format!("nqueens-compare-{}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("chart.svg");
    let (code, _, stderr) = nqueens(&[
        "compare",
        "--n",
        "4,5",
        "--strategies",
        "check,fc",
        "--format",
        "svg",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let svg = std::fs::read_to_string(&file).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 4);
    std::fs::remove_dir_all(&dir).unwrap();

    let (code, _, stderr) = nqueens(&["compare", "--strategies", "fc@diagonal"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("unknown model variant 'diagonal'"),
        "{stderr}"
    );
    let (code, _, stderr) = nqueens(&["compare", "--n", "6..4"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("'6..4' is an empty range"), "{stderr}");
    assert_eq!(
        nqueens(&["compare", "--strategies", "fc@diagonal"]),
        (
            Some(2),
            String::new(),
            "error: invalid value 'fc@diagonal' for '--strategies <LIST>': unknown model variant 'diagonal' (expected pairwise, global or columns) (see --help)\n".into()
        )
    );
    assert_eq!(
        nqueens(&["compare", "--n", "6..4"]),
        (
            Some(2),
            String::new(),
            "error: invalid value '6..4' for '--n <SIZES>': '6..4' is an empty range (see --help)\n".into()
        )
    );
}
