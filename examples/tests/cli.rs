//! The example programs as a user runs them: answers on quick instances, and
//! one-line errors with exit status 2 on bad input.
//!
//! `cargo test` builds the examples before running integration tests, into
//! `target/<profile>/examples/`, next to this test's own `deps/` directory.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const EXAMPLES: [&str; 13] = [
    "sudoku",
    "map_coloring",
    "graph_coloring",
    "send_more_money",
    "latin_square",
    "magic_square",
    "langford",
    "zebra",
    "custom_constraint",
    "exam_timetable",
    "all_interval",
    "jobshop",
    "tsp",
];

fn binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let path = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: `cargo test -p csp-examples` builds the examples, `--test cli` alone does not \
         (run `cargo build -p csp-examples --examples` first)",
        path.display()
    );
    path
}

fn run(name: &str, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(binary(name))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn stdout_of(name: &str, args: &[&str]) -> String {
    let out = run(name, args, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name} {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a bad invocation and returns its one-line error.
fn usage_error(name: &str, args: &[&str], stdin: Option<&str>) -> String {
    let out = run(name, args, stdin);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{name} {args:?}: {stderr}");
    let line = stderr.trim_end().to_string();
    assert!(line.starts_with("error: "), "{line}");
    line
}

#[test]
fn every_example_rejects_an_unknown_pruning_level_in_one_line() {
    for name in EXAMPLES {
        let mut args = vec!["--pruning", "fast"];
        if name == "graph_coloring" {
            args.push("data/myciel3.col");
        }
        let line = usage_error(name, &args, None);
        assert!(
            line.contains("'fast'") && line.contains("none, check, fc, mac, propagators"),
            "{line}"
        );
        assert_eq!(
            line,
            "error: invalid value 'fast' for '--pruning <LEVEL>': unknown pruning level 'fast' (expected one of: none, check, fc, mac, propagators)",
            "{name}"
        );
    }
}

#[test]
fn every_example_accepts_the_strategy_options_and_prints_statistics() {
    for name in EXAMPLES {
        let mut args = vec![
            "--pruning",
            "fc",
            "--var",
            "first-fail",
            "--val",
            "asc",
            "--stats",
        ];
        match name {
            "graph_coloring" => args.push("data/myciel3.col"),
            "sudoku" => args.extend(["--file", "data/sudoku.txt"]),
            "langford" => args.push("4"),
            "custom_constraint" => args.extend(["--marks", "4"]),
            "map_coloring" => args.push("--count"),
            "all_interval" => args.push("6"),
            "jobshop" => args.push("small"),
            "tsp" => args.push("5"),
            _ => {}
        }
        let out = run(name, &args, None);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(out.status.success(), "{name}: {stderr}");
        assert!(stderr.contains("%%%mzn-stat: nodes="), "{name}: {stderr}");
        assert!(
            stderr.contains("%%%mzn-stat: strategy=\"fc+first-fail\""),
            "{name}: {stderr}"
        );
        assert!(
            stderr.trim_end().ends_with("%%%mzn-stat-end"),
            "{name}: {stderr}"
        );
    }
}

#[test]
fn sudoku_solves_the_shipped_puzzles_uniquely() {
    let out = stdout_of("sudoku", &["--file", "data/sudoku.txt"]);
    assert_eq!(out.matches("\nunique solution").count(), 7, "{out}");
}

#[test]
fn sudoku_explore_writes_a_self_contained_page_of_the_search() {
    let path = std::env::temp_dir().join(format!("csp-sudoku-explore-{}.html", std::process::id()));
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let out = run(
        "sudoku",
        &[
            puzzle,
            "--pruning",
            "fc",
            "--explore",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(!html.contains("http://") && !html.contains("https://"));
    // The page holds the search's trace: the JSON Lines block reads back, and its
    // last step shows the solution's counters.
    let start = html.find("id=\"csp-trace-0\">").unwrap() + "id=\"csp-trace-0\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    let trace = csp_trace::Trace::from_json_lines(&html[start..end]).unwrap();
    let summary = trace.summary();
    assert_eq!(summary.solutions, 1, "{summary:?}");
    assert!(
        summary.tried >= 51,
        "51 open cells, each decided: {summary:?}"
    );
    assert!(summary.pruned > 0);
    // The 9 x 9 painter and its data: the cell variables, row by row.
    assert!(html.contains("CspExplore.painter("));
    assert!(html.contains("\"cells\":["));
}

#[test]
fn sudoku_reads_standard_input() {
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
    let out = run("sudoku", &[], Some(puzzle));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("5 3 4 | 6 7 8 | 9 1 2"), "{text}");
    assert!(text.contains("unique solution"));
}

#[test]
fn sudoku_names_the_bad_cell() {
    let line = usage_error("sudoku", &["53..7....6..19x"], None);
    assert_eq!(
        line,
        "error: puzzle: column 15: unexpected character 'x' (a cell is 1-9, or '.' or '0' for a blank)"
    );
    let line = usage_error("sudoku", &[], Some("# one short puzzle\n123\n"));
    assert_eq!(
        line,
        "error: <stdin>: line 2: the puzzle starting on line 2 has 3 cells, expected 81"
    );
}

#[test]
fn graph_coloring_finds_the_chromatic_number_of_a_shipped_graph() {
    for method in ["bnb", "decreasing"] {
        let out = stdout_of("graph_coloring", &["data/myciel4.col", "--method", method]);
        assert!(out.contains("\nchromatic number 5\n"), "{out}");
    }
}

#[test]
fn graph_coloring_names_the_line_and_column_of_a_bad_file() {
    let line = usage_error("graph_coloring", &["-"], Some("c bad\np edge 3 1\ne 1 4\n"));
    assert_eq!(
        line,
        "error: <stdin>: line 3, column 5: vertex 4 is out of range 1..=3"
    );
    let line = usage_error("graph_coloring", &["no/such/file.col"], None);
    assert!(
        line.starts_with("error: cannot read no/such/file.col: "),
        "{line}"
    );
    #[cfg(unix)]
    assert_eq!(
        line,
        "error: cannot read no/such/file.col: No such file or directory (os error 2)"
    );
    let line = usage_error(
        "graph_coloring",
        &["data/myciel3.col", "--method", "guess"],
        None,
    );
    assert!(line.contains("'guess'"), "{line}");
    assert_eq!(
        line,
        "error: invalid value 'guess' for '--method <METHOD>' [possible values: bnb, decreasing]"
    );
}

#[test]
fn graph_coloring_refuses_a_graph_above_the_vertex_limit() {
    let line = usage_error("graph_coloring", &["-"], Some("p edge 1048577 0\n"));
    assert_eq!(
        line,
        "error: <stdin>: line 1, column 8: 1048577 vertices is more than the limit of 1048576"
    );
    let line = usage_error("graph_coloring", &["-"], Some("c no problem line\n"));
    assert_eq!(
        line,
        "error: <stdin>: no problem line 'p edge VERTICES EDGES'"
    );
}

#[test]
fn sudoku_refuses_a_puzzle_and_a_file_together() {
    let line = usage_error(
        "sudoku",
        &[
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            "--file",
            "data/sudoku.txt",
        ],
        None,
    );
    assert_eq!(line, "error: give a puzzle or --file, not both");
    let line = usage_error("sudoku", &[], Some("# only a comment\n"));
    assert_eq!(line, "error: <stdin>: no puzzle found (expected 81 cells)");
}

#[test]
fn map_coloring_counts_australia() {
    let out = stdout_of("map_coloring", &["--count"]);
    assert!(out.contains("\n18 colourings\n"), "{out}");
    let out = stdout_of("map_coloring", &["--map", "usa", "--colors", "4"]);
    assert!(out.contains("  NV   "), "{out}");
    let line = usage_error("map_coloring", &["--map", "mars"], None);
    assert_eq!(
        line,
        "error: unknown map 'mars' (expected australia or usa)"
    );
}

#[test]
fn puzzles_print_their_known_answers() {
    let cases: [(&str, &[&str], &str); 12] = [
        ("send_more_money", &[], "9567 + 1085 = 10652"),
        ("send_more_money", &[], "\n1 solution\n"),
        ("latin_square", &["4"], "\n576 Latin squares\n"),
        ("magic_square", &["3", "--count"], "\n8 magic squares\n"),
        ("langford", &["7"], "\n52 sequences\n"),
        (
            "zebra",
            &[],
            "The Japanese owns the zebra; the Norwegian drinks water.",
        ),
        ("custom_constraint", &["--marks", "5"], "optimal length 11"),
        ("exam_timetable", &["--count"], "\n144 timetables\n"),
        (
            "exam_timetable",
            &["--slots", "3"],
            "\nno timetable exists\n",
        ),
        ("all_interval", &["8", "--show", "0"], "\n40 solutions\n"),
        ("jobshop", &[], "\nmakespan 55 (optimal)"),
        ("tsp", &["8"], "\nlength 304 (optimal): 0 "),
    ];
    for (name, args, expected) in cases {
        let out = stdout_of(name, args);
        assert!(out.contains(expected), "{name} {args:?}: {out}");
    }
}

#[test]
fn exam_timetable_explains_why_there_is_no_timetable() {
    let out = stdout_of(
        "exam_timetable",
        &["--slots", "2", "--capacity", "4", "--explain"],
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[1..5],
        [
            "no timetable: these 3 rules cannot all hold (minimal: without any one of them, a timetable exists):",
            "  Algebra and Biology share a student",
            "  Algebra and Chemistry share a student",
            "  Biology and Chemistry share a student",
        ],
        "{out}"
    );
    assert!(
        lines[5].starts_with("explained with 9 checks (0 undecided), "),
        "{out}"
    );
    let out = stdout_of("exam_timetable", &["--explain"]);
    assert!(
        out.contains("\na timetable exists, nothing to explain:\n  slot 1: "),
        "{out}"
    );
    let out = stdout_of(
        "exam_timetable",
        &[
            "--random",
            "60",
            "--students",
            "103",
            "--busiest",
            "6",
            "--slots",
            "5",
            "--capacity",
            "15",
            "--explain",
        ],
    );
    assert!(
        out.starts_with("60 exams, 103 students, 299 conflicting pairs, 5 slots of 15;"),
        "{out}"
    );
    assert!(
        out.contains("these 15 rules cannot all hold (minimal"),
        "{out}"
    );
    assert!(out.contains("\n  E001 and E002 share a student\n"), "{out}");
    // A node limit per check too small to decide: nothing claimed.
    let out = stdout_of(
        "exam_timetable",
        &["--slots", "3", "--explain", "--node-limit", "1"],
    );
    assert!(
        out.contains("unknown: the search stopped (node limit)"),
        "{out}"
    );
}

#[test]
fn puzzles_reject_bad_arguments_in_one_line() {
    let line = usage_error("send_more_money", &["SEND + MORE = MON3Y"], None);
    assert_eq!(
        line,
        "error: puzzle: column 18: unexpected '3' (expected letters, '+' or '=')"
    );
    assert!(usage_error("latin_square", &["0"], None).contains("'0'"));
    assert!(usage_error("langford", &["many"], None).contains("'many'"));
    assert!(usage_error("custom_constraint", &["--marks", "40"], None).contains("40"));
    assert!(usage_error("zebra", &["--next-to", "nearby"], None).contains("'nearby'"));
    assert_eq!(
        usage_error("exam_timetable", &["--slots", "0"], None),
        "error: invalid value '0' for '--slots <SLOTS>': 0 is not in 1..=1000"
    );
    assert_eq!(
        usage_error("all_interval", &["1"], None),
        "error: invalid value '1' for '[N]': 1 is not in 2..=1000"
    );
    assert_eq!(
        usage_error("latin_square", &["0"], None),
        "error: invalid value '0' for '[N]': 0 is not in 1..=64"
    );
    assert_eq!(
        usage_error("langford", &["many"], None),
        "error: invalid value 'many' for '[N]': invalid digit found in string"
    );
    assert_eq!(
        usage_error("custom_constraint", &["--marks", "40"], None),
        "error: invalid value '40' for '--marks <MARKS>': 40 is not in 1..=16"
    );
    assert_eq!(
        usage_error("zebra", &["--next-to", "nearby"], None),
        "error: invalid value 'nearby' for '--next-to <NEXT_TO>' [possible values: table, predicate]"
    );
    assert_eq!(
        usage_error("jobshop", &["ft10"], None),
        "error: unknown instance `ft10` (expected ft06 or small)"
    );
    assert_eq!(
        usage_error("tsp", &["1"], None),
        "error: invalid value '1' for '[N]': 1 is not in 2..=200"
    );
    assert_eq!(
        usage_error("send_more_money", &["SEND + MORE ="], None),
        "error: puzzle: column 14: expected a word after '='"
    );
}

#[test]
fn a_count_stopped_by_a_limit_says_at_least_and_exits_0() {
    let out = run("latin_square", &["5", "--node-limit", "10"], None);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.ends_with("\nat least 0 Latin squares (stopped: node limit)\n"),
        "{stdout}"
    );
}
