//! The example programs under hostile use: output that cannot be written (a
//! closed pipe, a full disk), endless input, stopped runs that must not read as
//! a proof, and the time limit during the pre-search work of `graph_coloring`
//! (docs/reliability.md, rows 45 onwards).
//!
//! `cargo test -p csp-examples` builds the example programs first (see `cli.rs`).
#![cfg(unix)]

use std::fs::File;
use std::io::Write;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let path = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: run `cargo test -p csp-examples` (it builds the examples)",
        path.display()
    );
    path
}

fn run_with(name: &str, args: &[&str], stdin: Stdio, stdout: Stdio) -> Output {
    Command::new(binary(name))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

fn run_input(name: &str, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(binary(name))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let _ = pipe.write_all(input.as_bytes());
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn dev_full() -> Stdio {
    Stdio::from(File::options().write(true).open("/dev/full").unwrap())
}

/// A socket whose other end is closed before the program starts: every
/// write fails with EPIPE, with no race against a reader.
fn closed_pipe() -> Stdio {
    let (ours, theirs) = UnixStream::pair().unwrap();
    drop(ours);
    Stdio::from(OwnedFd::from(theirs))
}

/// Every example program, on a quick instance.
const RUNS: [(&str, &[&str]); 14] = [
    ("sudoku", &["--file", "data/sudoku.txt"]),
    ("map_coloring", &["--count"]),
    ("graph_coloring", &["data/myciel3.col"]),
    ("send_more_money", &[]),
    ("latin_square", &["4"]),
    ("magic_square", &["3", "--count"]),
    ("langford", &["7"]),
    ("zebra", &[]),
    ("custom_constraint", &["--marks", "5"]),
    ("exam_timetable", &["--count"]),
    ("all_interval", &["8"]),
    ("jobshop", &["small"]),
    ("tsp", &["6"]),
    (
        "strategies",
        &[
            "--model",
            "coloring",
            "--strategies",
            "fc",
            "--node-limit",
            "100",
        ],
    ),
];

#[test]
fn a_full_disk_is_one_line_and_status_1_for_every_example() {
    for (name, args) in RUNS {
        let out = run_with(name, args, Stdio::null(), dev_full());
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).as_ref()
            ),
            (
                Some(1),
                "error: cannot write the output: No space left on device (os error 28)\n"
            ),
            "{name} {args:?}"
        );
    }
}

#[test]
fn a_closed_pipe_ends_every_example_quietly_with_status_0() {
    for (name, args) in RUNS {
        let out = run_with(name, args, Stdio::null(), closed_pipe());
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).as_ref()
            ),
            (Some(0), ""),
            "{name} {args:?}"
        );
    }
}

/// Standard error that cannot be written (`2> /dev/full`, or a closed pipe)
/// changes nothing but the missing messages: the same standard output and
/// the documented status (2 for bad input, 1 for a file that cannot be
/// written, 0 otherwise, with `--stats` or a note on standard error); never a
/// panic (101).
#[test]
fn standard_error_that_fails_keeps_the_output_and_the_status() {
    let page = std::env::temp_dir().join(format!("examples-stderr-{}.html", std::process::id()));
    let page = page.to_str().unwrap();
    let cases: [(&str, &[&str], i32); 6] = [
        ("magic_square", &["0"], 2),
        ("sudoku", &["--file", "/nonexistent/puzzles.txt"], 2),
        (
            "sudoku",
            &[
                "--file",
                "data/sudoku.txt",
                "--explore",
                "/nonexistent/p.html",
            ],
            1,
        ),
        (
            "sudoku",
            &["--file", "data/sudoku.txt", "--explore", page],
            0,
        ),
        ("magic_square", &["3", "--stats"], 0),
        ("graph_coloring", &["data/myciel3.col", "--stats"], 0),
    ];
    let run = |name: &str, args: &[&str], stderr: Stdio| {
        let out = Command::new(binary(name))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    for (name, args, status) in cases {
        let expected = run(name, args, Stdio::piped());
        assert_eq!(expected.0, Some(status), "{name} {args:?}");
        assert_eq!(run(name, args, dev_full()), expected, "{name} {args:?}");
        assert_eq!(run(name, args, closed_pipe()), expected, "{name} {args:?}");
    }
    let _ = std::fs::remove_file(page);
}

#[test]
fn endless_input_is_refused_at_64_mb() {
    for (name, args) in [("sudoku", &[][..]), ("graph_coloring", &["-"][..])] {
        let out = run_with(
            name,
            args,
            Stdio::from(File::open("/dev/zero").unwrap()),
            Stdio::piped(),
        );
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).as_ref()
            ),
            (
                Some(2),
                "error: <stdin> is larger than 64 MB, the input size limit\n"
            ),
            "{name}"
        );
        assert!(out.stdout.is_empty(), "{name}");
    }
    let out = run_with(
        "sudoku",
        &["--file", "/dev/zero"],
        Stdio::null(),
        Stdio::piped(),
    );
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).as_ref()
        ),
        (
            Some(2),
            "error: /dev/zero is larger than 64 MB, the input size limit\n"
        )
    );
}

#[test]
fn a_stopped_search_that_found_nothing_says_unknown() {
    let out = run_with(
        "magic_square",
        &["4", "--node-limit", "1"],
        Stdio::null(),
        Stdio::piped(),
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "order 4, magic constant 34; strategy propagators+first-fail\n\
         unknown: no magic square found before the search stopped (node limit)\n"
    );
    assert_eq!(out.status.code(), Some(0));
    let out = run_with(
        "zebra",
        &["--node-limit", "0"],
        Stdio::null(),
        Stdio::piped(),
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains(
            "unknown: no solution found before the search stopped (node limit)\n\
             at least 0 solutions (stopped: node limit)\n"
        ),
        "{stdout}"
    );
    // The optimisation examples and the timetable (they printed "no schedule
    // (stopped (node limit))", "no tour (...)", or nothing at all).
    for (name, noun) in [
        ("jobshop", "schedule"),
        ("tsp", "tour"),
        ("exam_timetable", "timetable"),
    ] {
        let out = run_with(name, &["--node-limit", "0"], Stdio::null(), Stdio::piped());
        let stdout = String::from_utf8(out.stdout).unwrap();
        let last = stdout.lines().last().unwrap_or_default();
        assert_eq!(
            (out.status.code(), last),
            (
                Some(0),
                format!("unknown: no {noun} found before the search stopped (node limit)").as_str()
            ),
            "{name}"
        );
    }
    // A complete search that finds nothing is a proof, and says so.
    let out = run_with("map_coloring", &["-k", "2"], Stdio::null(), Stdio::piped());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.ends_with("no colouring exists\n"), "{stdout}");
}

/// The complete graph on `n` vertices in DIMACS format.
fn complete_graph(n: usize) -> String {
    let mut s = format!("p edge {n} {}\n", n * (n - 1) / 2);
    for u in 1..=n {
        for v in u + 1..=n {
            s.push_str(&format!("e {u} {v}\n"));
        }
    }
    s
}

#[test]
fn graph_colouring_bounds_honour_the_time_limit() {
    let started = Instant::now();
    let out = run_input(
        "graph_coloring",
        &["-", "--time-limit", "1s"],
        &complete_graph(200),
    );
    let took = started.elapsed();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // The clique search stops at the limit; the first clique it finds is the
    // whole graph, so the bounds meet and the answer is still proven.
    assert!(
        stdout.contains("clique of 200 vertices: at least 200 colours\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\nchromatic number 200\n"), "{stdout}");
    // Before, the greedy clique alone took about 20 s.
    assert!(took < Duration::from_secs(4), "took {took:?}");
}

#[test]
fn bounds_cut_by_the_time_limit_are_bounds_not_an_answer() {
    // A zero limit stops the clique search and DSATUR at their first step:
    // a one-vertex clique, a first-fit colouring, and no search.
    let out = run_with(
        "graph_coloring",
        &["data/myciel4.col", "--time-limit", "0"],
        Stdio::null(),
        Stdio::piped(),
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "data/myciel4.col: 23 vertices, 71 edges; strategy fc+mrv-degree\n\
         clique of 1 vertices: at least 1 colours\n\
         DSATUR: 5 colours\n\
         chromatic number between 1 and 5 (unknown beyond that: stopped: time limit)\n\
         colouring (vertex 1 first): 1 2 1 2 3 1 2 1 2 3 4 1 2 1 2 3 1 2 1 2 3 4 5\n"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_huge_token_is_quoted_to_80_characters() {
    let out = run_input(
        "graph_coloring",
        &["-"],
        &format!("{} 1 2\n", "z".repeat(500)),
    );
    assert_eq!(
        (out.status.code(), String::from_utf8(out.stderr).unwrap()),
        (
            Some(2),
            format!(
                "error: <stdin>: line 1, column 1: unknown line type '{}... (500 characters)' \
                 (expected c, p, e or n)\n",
                "z".repeat(80)
            )
        )
    );
}

/// `sudoku --explore` under a time limit that leaves no time for the page
/// (issue 29): no page, one line, status 1. Deterministic: 0 ms has passed
/// before the page is built.
#[test]
fn sudoku_explore_writes_no_page_past_its_time_limit() {
    let page = std::env::temp_dir().join(format!("examples-late-{}.html", std::process::id()));
    let out = Command::new(binary("sudoku"))
        .args([
            "--file",
            "data/sudoku.txt",
            "--time-limit",
            "0ms",
            "--explore",
        ])
        .arg(&page)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "stopped by the time limit while the page was written: no page written"
    );
    assert!(!page.exists());
}
