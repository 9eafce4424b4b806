//! `nqueens` under hostile use: output that cannot be written (a closed pipe, a
//! full disk), oversized input, ranges and thread counts that would run away,
//! Ctrl-C on `compare` and `diff`, cut traces, and messages that must not read as
//! a proof or blame an option that was not given. Every test compares the whole
//! message and the exit status (docs/reliability.md, rows 45 onwards).
#![cfg(unix)]

use std::fs::File;
use std::io::Write;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_nqueens");

/// A program's standard output that fails: `/dev/full` or a closed pipe.
#[derive(Clone, Copy, Debug)]
enum Sink {
    Full,
    ClosedPipe,
}

impl Sink {
    fn stdio(self) -> Stdio {
        match self {
            Sink::Full => Stdio::from(File::options().write(true).open("/dev/full").unwrap()),
            // A socket whose other end is closed before the program starts:
            // every write fails with EPIPE, with no race against a reader.
            Sink::ClosedPipe => {
                let (ours, theirs) = UnixStream::pair().unwrap();
                drop(ours);
                Stdio::from(OwnedFd::from(theirs))
            }
        }
    }
}

fn run_with(args: &[&str], stdin: Stdio, stdout: Stdio) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

fn run_input(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // The program may refuse before reading it all.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn refused(args: &[&str], message: &str) {
    let (status, stdout, stderr) = run_input(args, "");
    assert_eq!(stderr, format!("error: {message}\n"), "{args:?}");
    assert_eq!((status, stdout.as_str()), (2, ""), "{args:?}");
}

/// Every subcommand, and the standard-input mode, with output that fails.
fn every_command(dir: &std::path::Path) -> Vec<(Vec<String>, &'static str)> {
    let shares = dir.join("shares.txt");
    std::fs::write(
        &shares,
        concat!(
            "nqueens-partial n=8 part=1/1 count=92 format=2 program=",
            env!("CARGO_PKG_VERSION"),
            "\n"
        ),
    )
    .unwrap();
    let shares = shares.to_str().unwrap().to_string();
    let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    vec![
        (vec![], "8\n"),
        (words("count 8"), ""),
        (words("count 8 --method symmetry"), ""),
        (words("count 8 --method engine"), ""),
        (words("count 8 --method engine --threads 2"), ""),
        (words("count 8 --part 1/2"), ""),
        (words("solve 8"), ""),
        (words("solve 8 --all --format board"), ""),
        (words("solve 2000 --method construct"), ""),
        (words("solve 1500"), ""),
        (words("trace 4"), ""),
        (words("trace 4 --format json"), ""),
        (words("tree 4"), ""),
        (
            words("compare --n 4..=5 --strategies check,fc --no-times"),
            "",
        ),
        (words("diff 4 --a check --b fc"), ""),
        (vec!["merge".into(), shares], ""),
    ]
}

#[test]
fn a_full_disk_is_one_line_and_status_1_for_every_command() {
    let dir = tempdir();
    for (args, input) in every_command(&dir) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let stdin = stdin_with(&dir, input);
        let out = run_with(&args, stdin, Sink::Full.stdio());
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).as_ref()
            ),
            (
                Some(1),
                "error: cannot write the output: No space left on device (os error 28)\n"
            ),
            "{args:?}"
        );
    }
}

#[test]
fn a_closed_pipe_ends_every_command_quietly_with_status_0() {
    let dir = tempdir();
    for (args, input) in every_command(&dir) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let stdin = stdin_with(&dir, input);
        let out = run_with(&args, stdin, Sink::ClosedPipe.stdio());
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).as_ref()
            ),
            (Some(0), ""),
            "{args:?}"
        );
    }
}

/// Standard error that cannot be written (`2> /dev/full`, or a closed pipe)
/// changes nothing but the missing messages: the same standard output and
/// the documented status (2 for a usage error, 1 for an I/O error or a
/// stopped run, 0 for a finished one); never a panic (101).
#[test]
fn standard_error_that_fails_keeps_the_output_and_the_status() {
    let cases: [(&[&str], i32); 5] = [
        (&["count", "-3"], 2),
        (&["merge", "/nonexistent/part1"], 1),
        (&["count", "8", "--method", "engine", "--stats"], 0),
        (&["solve", "1", "--method", "construct", "--stats"], 0),
        (&["trace", "4", "--node-limit", "3", "--format", "json"], 1),
    ];
    let run = |args: &[&str], stdout: Stdio, stderr: Stdio| {
        let out = Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    for sink in [Sink::Full, Sink::ClosedPipe] {
        for (args, status) in cases {
            let expected = run(args, Stdio::piped(), Stdio::piped());
            assert_eq!(expected.0, Some(status), "{args:?}");
            let got = run(args, Stdio::piped(), sink.stdio());
            assert_eq!(got, expected, "{sink:?} {args:?}");
        }
        // Both fail: the full disk cannot be reported, and the status is 1.
        let got = run(&["count", "8"], Sink::Full.stdio(), sink.stdio());
        assert_eq!(got, (Some(1), String::new()), "{sink:?}");
    }
}

/// A temporary folder, removed with its contents when dropped (also when a
/// test fails).
struct TempDir(std::path::PathBuf);

impl std::ops::Deref for TempDir {
    type Target = std::path::Path;

    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tempdir() -> TempDir {
    // One folder per call: the tests run in parallel threads of one process.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("nqueens-robustness-{}-{k}", std::process::id()));
    let dir = TempDir(dir);
    std::fs::create_dir_all(&dir.0).unwrap();
    dir
}

fn stdin_with(dir: &std::path::Path, text: &str) -> Stdio {
    // One file per call: the tests run in parallel threads of one process.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir.join(format!("stdin-{k}.txt"));
    std::fs::write(&path, text).unwrap();
    Stdio::from(File::open(path).unwrap())
}

// ----------------------------------------------------------------- input caps

#[test]
fn endless_standard_input_is_refused_at_64_mb() {
    let out = run_with(
        &[],
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
            "error: cannot read N: standard input is larger than 64 MB, the input size limit\n"
        )
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn an_over_long_line_is_quoted_to_80_characters() {
    let line = "x".repeat(100_000);
    let (status, stdout, stderr) = run_input(&[], &line);
    assert_eq!(
        stderr,
        format!(
            "error: invalid N '{}... (100000 characters)' on standard input: N must be a whole number, 0 or more\n",
            "x".repeat(80)
        )
    );
    assert_eq!((status, stdout.as_str()), (2, ""));
    // clap echoes the argument: that quote is shortened too.
    let digits = "9".repeat(1000);
    refused(
        &["count", &digits],
        &format!(
            "invalid value '{}... (1000 characters)' for '<N>': N = {}... (1000 characters) is too large (see --help)",
            "9".repeat(80),
            "9".repeat(80)
        ),
    );
}

#[test]
fn a_huge_range_of_sizes_is_refused_before_expansion() {
    let started = Instant::now();
    refused(
        &["compare", "--n", "0..=18446744073709551615"],
        "invalid value '0..=18446744073709551615' for '--n <SIZES>': '0..=18446744073709551615' \
         makes 18446744073709551616 sizes; at most 1000 can be compared at once (see --help)",
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    refused(
        &["compare", "--n", "1..=600,601..=1001"],
        "invalid value '1..=600,601..=1001' for '--n <SIZES>': '601..=1001' makes 1001 sizes; \
         at most 1000 can be compared at once (see --help)",
    );
}

#[test]
fn thread_counts_are_capped() {
    let started = Instant::now();
    refused(
        &["count", "8", "--threads", "100000"],
        "invalid value '100000' for '--threads <T>': 100000 threads is too many (at most 256) (see --help)",
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    refused(
        &["count", "8", "--threads", "x"],
        "invalid value 'x' for '--threads <T>': 'x' is not a number of threads (a whole number from 1 to 256) (see --help)",
    );
}

// ----------------------------------------------------------------- messages

#[test]
fn an_exponent_in_a_time_limit_is_not_called_a_unit() {
    refused(
        &["count", "8", "--time-limit", "1e9s"],
        "invalid value '1e9s' for '--time-limit <TIME>': '1e9s' is not a duration: write a plain \
         number and a unit, such as 500ms, 2s, 1.5s or 3m (see --help)",
    );
    refused(
        &["count", "8", "--time-limit", "99999999999999999999999h"],
        "invalid value '99999999999999999999999h' for '--time-limit <TIME>': \
         '99999999999999999999999h' is too long a duration (see --help)",
    );
}

#[test]
fn an_oversized_seed_is_called_a_seed() {
    refused(
        &["solve", "4", "--var", "random:99999999999999999999"],
        "invalid value 'random:99999999999999999999' for '--var <ORDER>': unknown seed \
         '99999999999999999999' (expected one of: a whole number from 0 to 18446744073709551615) (see --help)",
    );
    refused(
        &[
            "diff",
            "4",
            "--a",
            "fc+random-value:99999999999999999999",
            "--b",
            "fc",
        ],
        "invalid value 'fc+random-value:99999999999999999999' for '--a <STRATEGY>': unknown seed \
         '99999999999999999999' (expected one of: a whole number from 0 to 18446744073709551615) (see --help)",
    );
}

#[test]
fn messages_name_the_option_given_not_a_method_that_was_not() {
    refused(
        &["solve", "20", "--seed", "3"],
        "--seed is an option of --method min-conflicts (without --method, solve uses it only for \
         one solution of N > 1000 without engine options)",
    );
    refused(
        &["solve", "20", "--steps", "3", "--method", "engine"],
        "--steps is an option of --method min-conflicts, not --method engine",
    );
    refused(
        &["solve", "20000000"],
        "n = 20000000 is too large for min-conflicts (the default method for one solution of \
         N > 1000) (at most 2000000); use --method construct",
    );
}

#[test]
fn solve_help_states_the_defaults_it_uses() {
    let out = run_with(&["solve", "--help"], Stdio::null(), Stdio::piped());
    let help = String::from_utf8(out.stdout).unwrap();
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "Without --pruning, --var and --val, the engine searches as the classic programs do \
             (--pruning check --var input --val asc) up to N = 12, and with --pruning fc --var \
             first-fail --val middle above"
        ),
        "{help}"
    );
    assert!(
        !flat.contains("Engine defaults: --model global --pruning check"),
        "{help}"
    );
    // And it does: 13-queens without options is found by fc+first-fail+middle.
    let (status, stdout, stderr) = run_input(&["solve", "13", "--stats"], "");
    assert_eq!(status, 0);
    assert_eq!(stdout.lines().count(), 1);
    assert!(
        stderr.contains("%%%mzn-stat: strategy=\"fc+first-fail+middle\"\n"),
        "{stderr}"
    );
}

// ----------------------------------------------------------------- cut traces

#[test]
fn diff_of_cut_traces_gives_no_verdict_past_the_cut() {
    let (status, stdout, stderr) = run_input(
        &[
            "diff",
            "4",
            "--a",
            "check",
            "--b",
            "fc",
            "--max-events",
            "5",
        ],
        "",
    );
    assert_eq!(
        stdout,
        "4-queens (global model), up to the first solution\n\
         a = check  26 nodes (8 accepted, 18 rejected), 0 values pruned, 1 solution (trace truncated)\n\
         b = fc     8 nodes (6 accepted, 2 rejected), 21 values pruned, 1 solution (trace truncated)\n\
         The traces agree on their first 1 node event, where both traces end early: cannot tell past event 1.\n\
         note: a's trace holds at most --max-events 5 events; raise it to compare further\n\
         note: b's trace holds at most --max-events 5 events; raise it to compare further\n"
    );
    assert_eq!((status, stderr.as_str()), (1, ""));
}

#[test]
fn diff_below_a_cut_counts_at_least() {
    let (status, stdout, _) = run_input(
        &[
            "diff",
            "4",
            "--a",
            "check",
            "--b",
            "fc",
            "--max-events",
            "12",
        ],
        "",
    );
    assert!(
        stdout.contains(
            "They part at depth 2 after 1 common node:\n  a: #2 tries q[1] = 0\n  b: #2 tries q[1] = 2\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "a explores at least 4 nodes (its trace ends early), b explores at least 1 (its trace ends early).\n"
        ),
        "{stdout}"
    );
    assert_eq!(status, 1);
    // With the whole traces the verdict is the known one, status 0.
    let (status, stdout, _) = run_input(&["diff", "4", "--a", "check", "--b", "fc"], "");
    assert!(
        stdout.contains("a explores 16 nodes, b explores 3.\n"),
        "{stdout}"
    );
    assert_eq!(status, 0);
}

#[test]
fn a_search_stopped_by_a_node_limit_is_not_an_ended_search() {
    // b stops after 1 node: before, diff said "b: the search had ended".
    let (status, stdout, _) = run_input(
        &[
            "diff",
            "4",
            "--a",
            "check",
            "--b",
            "fc",
            "--node-limit",
            "1",
        ],
        "",
    );
    assert!(
        stdout.contains(
            "The traces agree on their first 2 node events, where both traces end early: cannot tell past event 2.\n"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("the search had ended"), "{stdout}");
    assert_eq!(status, 1);
}

#[test]
fn a_cancelled_trace_says_cancelled() {
    use csp_core::{CancelFlag, Config};
    use nqueens::{Queens, Variant, trace_text};
    let queens = Queens::new(4, Variant::Global).unwrap();
    let flag = CancelFlag::new();
    flag.cancel();
    let run = trace_text::record(
        &queens,
        Config::textbook().with_cancel_flag(flag),
        false,
        100,
    )
    .unwrap();
    let text = trace_text::to_text(&queens, &run);
    assert_eq!(
        text.lines().last(),
        Some(
            "0 values tried: 0 accepted, 0 rejected; 0 pruned, 0 backtracks, 0 solutions; incomplete: cancelled"
        )
    );
    assert!(!text.contains("stopped by cancelled"));
}

// ----------------------------------------------------------------- Ctrl-C

/// Starts `nqueens args`, sends SIGINT (Ctrl-C) after `after`, and returns
/// its output.
fn interrupted(args: &[&str], after: Duration) -> (Option<i32>, String, String) {
    let child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let started = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "Ctrl-C acted on after {:?}",
        started.elapsed()
    );
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn ctrl_c_on_compare_prints_the_sizes_measured() {
    let (status, stdout, stderr) = interrupted(
        &[
            "compare",
            "--n",
            "4..=40",
            "--strategies",
            "check",
            "--node-limit",
            "0",
            "--no-times",
        ],
        Duration::from_millis(1500),
    );
    assert_eq!(status, Some(1), "{stderr}");
    assert!(stdout.contains("\n| n | strategy |"), "{stdout}");
    assert!(stdout.contains("| 4 | check | 2 |"), "{stdout}");
    let line = stderr.lines().last().unwrap_or("");
    assert!(
        line.starts_with("incomplete: cancelled by Ctrl-C; the table covers sizes 4 to ")
            && line.ends_with(", and runs cut short show lower bounds"),
        "{stderr}"
    );
}

#[test]
fn ctrl_c_on_diff_prints_the_part_compared() {
    let (status, stdout, stderr) = interrupted(
        &[
            "diff",
            "40",
            "--a",
            "check",
            "--b",
            "fc",
            "--node-limit",
            "100000000000",
            "--max-events",
            "1000",
        ],
        Duration::from_millis(1500),
    );
    assert_eq!(status, Some(1), "{stderr}");
    assert!(
        stdout.starts_with("40-queens (global model), up to the first solution\n"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("note: a's search was cancelled by Ctrl-C; counts cover the part searched\n"),
        "{stdout}"
    );
}

#[test]
fn ctrl_c_on_explore_and_tree_writes_no_file() {
    let dir = std::env::temp_dir().join(format!("nq-ctrlc-{}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("e.html");
    let (status, _, stderr) = interrupted(
        &[
            "explore",
            "30",
            "--all",
            "--limit-events",
            "100000000",
            "--node-limit",
            "0",
            "-o",
            page.to_str().unwrap(),
        ],
        Duration::from_millis(1000),
    );
    assert_eq!(status, Some(1), "{stderr}");
    assert_eq!(stderr.trim_end(), "cancelled by Ctrl-C: no page written");
    assert!(!page.exists());
    let picture = dir.join("t.svg");
    let (status, _, stderr) = interrupted(
        &[
            "tree",
            "30",
            "--all",
            "--node-limit",
            "100000000000",
            "-o",
            picture.to_str().unwrap(),
        ],
        Duration::from_millis(1000),
    );
    assert_eq!(status, Some(1), "{stderr}");
    assert_eq!(stderr.trim_end(), "cancelled by Ctrl-C: no picture written");
    assert!(!picture.exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_explorer_records_no_more_than_its_memory_limit_allows() {
    // 1M / 512 bytes per event / 3 strategies = 682 events each.
    let out = Command::new(BIN)
        .args([
            "explore",
            "8",
            "--all",
            "--memory-limit",
            "1M",
            "--limit-events",
            "100000000",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("note: check's recording stopped at 682 events; raise --memory-limit"),
        "{stderr}"
    );
    let bad = Command::new(BIN)
        .args(["explore", "8", "--memory-limit", "12"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// The time limit covers the drawing and the page (issue 29): with no time
/// left once the search is over, `tree` and `explore` write nothing, say so
/// on one line and end with status 1. Deterministic: a limit of 0 ms has
/// passed before the drawing starts.
#[test]
fn a_time_limit_that_leaves_no_time_to_draw_writes_no_file() {
    let dir = std::env::temp_dir().join(format!("nq-drawlimit-{}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("e.html");
    let out = Command::new(BIN)
        .args(["explore", "6", "--time-limit", "0ms", "-o"])
        .arg(&page)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "stopped by the time limit while the page was written: no page written \
         (raise --time-limit or lower --limit-events)"
    );
    assert!(!page.exists());
    let picture = dir.join("t.svg");
    let out = Command::new(BIN)
        .args(["tree", "6", "--time-limit", "0ms", "-o"])
        .arg(&picture)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "stopped by the time limit while the picture was drawn: no picture written \
         (raise --time-limit or lower --max-nodes)"
    );
    assert!(!picture.exists());
    // With time to spare, both are written.
    for (args, file) in [(["explore", "6"], &page), (["tree", "6"], &picture)] {
        let out = Command::new(BIN)
            .args(args)
            .args(["--time-limit", "10m", "-o"])
            .arg(file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(file.exists());
    }
    let _ = std::fs::remove_dir_all(dir);
}
