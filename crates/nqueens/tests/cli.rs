//! The built `nqueens` binary: every command, and every bad input (one line on standard error, status 2).

use std::io::Write;
use std::process::{Command, Stdio};

/// The version fields every share line ends with.
const VERSION: &str = concat!("format=2 program=", env!("CARGO_PKG_VERSION"));

/// A temporary folder, removed with its contents when dropped (also when a
/// test fails).
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the binary with `args` and `stdin`; returns (status, stdout, stderr).
fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn ok(args: &[&str]) -> String {
    let (status, stdout, stderr) = run(args, "");
    assert_eq!(status, 0, "{args:?}: {stderr}");
    stdout
}

/// Bad input: nothing on standard output, exactly `message` on standard
/// error, status 2.
fn refused(args: &[&str], stdin: &str, message: &str) {
    let (status, stdout, stderr) = run(args, stdin);
    assert_eq!(stderr, format!("error: {message}\n"), "{args:?}");
    assert_eq!((status, stdout.as_str()), (2, ""), "{args:?}");
}

// ----------------------------------------------------------------- commands

#[test]
fn no_command_reads_n_from_standard_input_like_boj_9663() {
    assert_eq!(run(&[], "8\n"), (0, "92\n".into(), String::new()));
    assert_eq!(run(&[], "  12 ").1, "14200\n");
    assert_eq!(run(&[], "0").1, "1\n");
}

#[test]
fn count_prints_the_bare_number() {
    assert_eq!(ok(&["count", "8"]), "92\n");
    assert_eq!(ok(&["count", "0"]), "1\n");
    assert_eq!(ok(&["count", "3"]), "0\n");
    assert_eq!(ok(&["count", "10", "--threads", "1"]), "724\n");
    assert_eq!(ok(&["count", "8", "--method", "engine"]), "92\n");
    assert_eq!(
        ok(&[
            "count",
            "8",
            "--pruning",
            "mac",
            "--var",
            "first-fail",
            "--val",
            "lcv"
        ]),
        "92\n"
    );
    assert_eq!(
        ok(&["count", "9", "--model", "pairwise", "--threads", "2"]),
        "352\n"
    );
}

#[test]
fn count_by_symmetry_prints_total_and_unique() {
    assert_eq!(
        ok(&["count", "8", "--method", "symmetry"]),
        "92 solutions, 12 unique up to rotation and reflection\n"
    );
}

#[test]
fn stats_follow_minizinc_conventions_on_standard_error() {
    let (status, stdout, stderr) = run(&["count", "4", "--pruning", "check", "--stats"], "");
    assert_eq!((status, stdout.as_str()), (0, "2\n"));
    let lines: Vec<&str> = stderr.lines().collect();
    for name in [
        "nodes",
        "failures",
        "solutions",
        "solveTime",
        "peakDepth",
        "propagations",
        "checks",
        "pruned",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("%%%mzn-stat: {name}="))),
            "{name} missing from {stderr}"
        );
    }
    assert!(lines.contains(&"%%%mzn-stat: solutions=2"));
    assert!(lines.contains(&"%%%mzn-stat: method=\"engine\""));
    assert_eq!(lines.last(), Some(&"%%%mzn-stat-end"));
    let (_, _, stderr) = run(&["count", "8", "--stats"], "");
    assert!(
        stderr.contains("%%%mzn-stat: method=\"bitboard\"\n"),
        "{stderr}"
    );
}

#[test]
fn count_stopped_by_a_limit_is_marked_incomplete() {
    let (status, stdout, _) = run(&["count", "12", "--node-limit", "1000"], "");
    assert_eq!(status, 1);
    assert!(stdout.starts_with("at least "), "{stdout}");
    assert!(
        stdout.ends_with("(incomplete: stopped by node limit after 1000 nodes)\n"),
        "{stdout}"
    );
    // The first 12-queens solution takes 3066 nodes: none is found in 1000.
    assert_eq!(
        run(&["count", "12", "--node-limit", "1000"], ""),
        (
            1,
            "at least 0 (incomplete: stopped by node limit after 1000 nodes)\n".into(),
            String::new()
        )
    );
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_an_engine_count_and_reports_a_lower_bound() {
    let child = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(["count", "18", "--method", "engine"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.starts_with("at least "), "{stdout}");
    assert!(
        stdout.contains("(incomplete: cancelled by Ctrl-C after "),
        "{stdout}"
    );
}

#[test]
fn shares_merge_back_to_the_total() {
    let dir = std::env::temp_dir().join(format!("nqueens-cli-{}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for part in 1..=3 {
        let line = ok(&["count", "10", "--part", &format!("{part}/3")]);
        assert!(
            line.starts_with(&format!(
                "nqueens-partial n=10 part={part}/3 method=bitboard count="
            )),
            "{line}"
        );
        let path = dir.join(format!("part{part}.txt"));
        std::fs::write(&path, line).unwrap();
        files.push(path.to_string_lossy().into_owned());
    }
    let args: Vec<&str> = ["merge"]
        .into_iter()
        .chain(files.iter().map(String::as_str))
        .collect();
    assert_eq!(ok(&args), "724\n");
    // Standard input works too, mixed with files.
    let third = std::fs::read_to_string(&files[2]).unwrap();
    assert_eq!(
        run(&["merge", &files[0], &files[1], "-"], &third).1,
        "724\n"
    );
    refused(&["merge", &files[0], &files[1]], "", "share 3/3 is missing");
    refused(
        &["merge", &files[0], &files[0], &files[1], &files[2]],
        "",
        "share 1/3 appears more than once",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_prints_the_first_solution_as_a_list() {
    assert_eq!(ok(&["solve", "8"]), "[0, 4, 7, 5, 2, 6, 1, 3]\n");
    assert_eq!(ok(&["solve", "4", "--all"]), "[1, 3, 0, 2]\n[2, 0, 3, 1]\n");
    assert_eq!(ok(&["solve", "8", "--limit", "2"]).lines().count(), 2);
    assert_eq!(ok(&["solve", "0"]), "[]\n");
}

#[test]
fn solve_positions_prints_the_c_programs_lines() {
    let out = ok(&["solve", "8", "--all", "--format", "positions"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 92);
    assert_eq!(lines[0], " 0 4 7 5 2 6 1 3");
    assert_eq!(lines[91], " 7 3 0 2 5 1 6 4");
}

#[test]
fn solve_without_solution_says_so_and_succeeds() {
    assert_eq!(
        run(&["solve", "3"], ""),
        (
            0,
            String::new(),
            "no solution: the 3-queens problem has none\n".into()
        )
    );
    assert_eq!(
        run(&["solve", "2", "--method", "construct"], ""),
        (
            0,
            String::new(),
            "no solution: the 2-queens problem has none\n".into()
        )
    );
}

#[test]
fn solve_stopped_by_a_limit_is_marked_incomplete() {
    let (status, stdout, stderr) = run(&["solve", "10", "--all", "--node-limit", "500"], "");
    assert_eq!(status, 1);
    let found = stdout.lines().count();
    assert_eq!(
        stderr,
        format!(
            "incomplete: stopped by node limit after {found} solutions (500 nodes); more may exist\n"
        )
    );
}

#[test]
fn solve_construct_places_huge_boards() {
    let out = ok(&["solve", "100000", "--method", "construct"]);
    let columns: Vec<usize> = out
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(", ")
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(columns.len(), 100_000);
    assert_eq!(nqueens::construct::validate(&columns), Ok(()));
    assert_eq!(
        ok(&[
            "solve",
            "8",
            "--method",
            "construct",
            "--format",
            "positions"
        ]),
        " 1 3 5 7 2 0 6 4\n"
    );
}

#[test]
fn trace_prints_the_tree_and_json_lines() {
    let text = ok(&["trace", "4"]);
    assert!(text.starts_with("4-queens, first solution, model global, strategy check\n#1 under root: row 0 = col 0, accepted\n"));
    assert!(text.ends_with("26 values tried: 8 accepted, 18 rejected; 0 pruned, 4 backtracks, 1 solution; stopped at the first solution\n"));
    let json = ok(&["trace", "4", "--format", "json", "--pruning", "fc"]);
    assert!(json.starts_with("{\"event\":\"model\""), "{json}");
    assert!(
        json.contains(
            "{\"event\":\"try\",\"id\":1,\"parent\":0,\"depth\":1,\"var\":0,\"value\":0}"
        )
    );
    assert!(json.lines().any(|l| l.starts_with("{\"event\":\"prune\"")));
}

#[test]
fn trace_stopped_by_a_limit_is_marked_incomplete() {
    let (status, stdout, _) = run(&["trace", "8", "--all", "--node-limit", "30"], "");
    assert_eq!(status, 1);
    assert!(
        stdout.ends_with("incomplete: stopped by node limit\n"),
        "{stdout}"
    );
}

#[test]
fn help_documents_defaults_and_n_zero() {
    let help = ok(&["--help"]);
    assert!(help.contains("N = 0 is the empty board"), "{help}");
    // Every exit status a subcommand can end with is listed.
    for status in [
        "0 done (also when the reader of the output goes away)",
        "compare's self-check",
        "cannot tell past a cut",
        "2 bad input",
    ] {
        assert!(help.replace('\n', " ").contains(status), "{status}: {help}");
    }
    let help = ok(&["count", "--help"]);
    assert!(
        help.contains("Engine defaults: --model global --pruning check"),
        "{help}"
    );
    assert!(ok(&["--version"]).starts_with("nqueens "));
}

// ---------------------------------------------------------------- bad input

#[test]
fn a_negative_or_non_numeric_n_is_refused() {
    let why = "N must be a whole number, 0 or more (see --help)";
    refused(
        &["count", "-3"],
        "",
        &format!("invalid value '-3' for '<N>': {why}"),
    );
    refused(
        &["count", "abc"],
        "",
        &format!("invalid value 'abc' for '<N>': {why}"),
    );
    refused(
        &["solve", "8.5"],
        "",
        &format!("invalid value '8.5' for '<N>': {why}"),
    );
    refused(
        &["trace", "-1"],
        "",
        &format!("invalid value '-1' for '<N>': {why}"),
    );
}

#[test]
fn a_missing_n_is_refused() {
    let m = "the following required arguments were not provided: <N> (see --help)";
    for cmd in ["count", "solve", "trace"] {
        refused(&[cmd], "", m);
    }
}

#[test]
fn bad_standard_input_is_refused() {
    refused(
        &[],
        "abc\n",
        "invalid N 'abc' on standard input: N must be a whole number, 0 or more",
    );
    refused(
        &[],
        "-3",
        "invalid N '-3' on standard input: N must be a whole number, 0 or more",
    );
    refused(
        &[],
        "",
        "expected N on standard input (a whole number such as 8), got nothing",
    );
}

#[test]
fn unknown_strategy_names_are_refused() {
    refused(
        &["count", "8", "--pruning", "fast"],
        "",
        "invalid value 'fast' for '--pruning <LEVEL>': unknown pruning level 'fast' (expected one of: none, check, fc, mac, propagators) (see --help)",
    );
    for (flag, value) in [
        ("--var", "sideways"),
        ("--val", "random:x"),
        ("--model", "clever"),
        ("--format", "grid"),
    ] {
        let (status, stdout, stderr) = run(&["solve", "8", flag, value], "");
        assert_eq!((status, stdout.as_str()), (2, ""), "{flag}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!("error: invalid value '{value}' for '{flag} ")),
            "{stderr}"
        );
    }
    refused(
        &["solve", "8", "--var", "sideways"],
        "",
        "invalid value 'sideways' for '--var <ORDER>': unknown variable order 'sideways' (expected one of: input, first-fail, mrv-degree, dom-wdeg, afc-size, random[:SEED]) (see --help)",
    );
    refused(
        &["count", "8", "--method", "magic"],
        "",
        "invalid value 'magic' for '--method <METHOD>' [possible values: engine, bitboard, symmetry] (see --help)",
    );
}

#[test]
fn conflicting_flags_are_refused() {
    refused(
        &["count", "8", "--method", "bitboard", "--pruning", "fc"],
        "",
        "--pruning cannot be used with --method bitboard (strategy, model and limit options choose how the engine searches; use --method engine)",
    );
    refused(
        &["count", "8", "--method", "symmetry", "--model", "pairwise"],
        "",
        "--model cannot be used with --method symmetry (strategy, model and limit options choose how the engine searches; use --method engine)",
    );
    refused(
        &["solve", "4", "--all", "--limit", "2"],
        "",
        "the argument '--all' cannot be used with '--limit <K>' (see --help)",
    );
    refused(
        &["solve", "100", "--method", "construct", "--all"],
        "",
        "--all cannot be used with --method construct (it builds one solution)",
    );
    refused(
        &[
            "solve",
            "100",
            "--method",
            "construct",
            "--var",
            "first-fail",
        ],
        "",
        "--var cannot be used with --method construct (strategy, model and limit options choose how the engine searches; use --method engine)",
    );
    refused(
        &["count", "8", "--part", "1/2", "--node-limit", "100"],
        "",
        "--node-limit cannot be used with --part or --checkpoint (a share is counted subproblem by subproblem; use --time-limit)",
    );
    refused(
        &["count", "8", "--checkpoint-interval", "1s"],
        "",
        "the following required arguments were not provided: --checkpoint <FILE> (see --help)",
    );
}

#[test]
fn n_too_large_for_the_method_is_refused() {
    refused(
        &["count", "33"],
        "",
        "n = 33 is too large for the bitboard counters (at most 32)",
    );
    refused(
        &["count", "40", "--method", "symmetry"],
        "",
        "n = 40 is too large for the bitboard counters (at most 32)",
    );
    refused(
        &["count", "33", "--part", "1/2"],
        "",
        "n = 33 is too large for the bitboard counters (at most 32)",
    );
    refused(
        &[],
        "33",
        "n = 33 is too large for the bitboard counters (at most 32)",
    );
    refused(
        &["solve", "501", "--model", "pairwise"],
        "",
        "n = 501 is too large for the pairwise model (at most 500): it posts n(n-1)/2 constraints; use the global model or --method construct",
    );
    refused(
        &["count", "10001", "--method", "engine"],
        "",
        "n = 10001 is too large for the global model (at most 10000): the domains take n^2 bits; use --method construct",
    );
    refused(
        &["solve", "10000001", "--method", "construct"],
        "",
        "n = 10000001 is too large for --method construct (at most 10000000)",
    );
    refused(
        &["solve", "1001", "--format", "board"],
        "",
        "n = 1001 is too large for --format board (at most 1000); use --format list or positions",
    );
    refused(
        &["count", "99999999999999999999999"],
        "",
        "invalid value '99999999999999999999999' for '<N>': N = 99999999999999999999999 is too large (see --help)",
    );
}

#[test]
fn bad_counts_of_things_are_refused() {
    let (status, _, stderr) = run(&["count", "8", "--threads", "0"], "");
    assert_eq!((status, stderr.lines().count()), (2, 1), "{stderr}");
    let (status, _, stderr) = run(&["solve", "8", "--limit", "0"], "");
    assert_eq!((status, stderr.lines().count()), (2, 1), "{stderr}");
    refused(
        &["count", "8", "--threads", "0"],
        "",
        "invalid value '0' for '--threads <T>': 0 threads cannot count (a whole number from 1 to 256) (see --help)",
    );
    refused(
        &["solve", "8", "--limit", "0"],
        "",
        "invalid value '0' for '--limit <K>': 0 is not in 1..18446744073709551615 (see --help)",
    );
    refused(
        &["count", "8", "--part", "0/4"],
        "",
        "invalid value '0/4' for '--part <I/K>': '0/4' is not a share: expected I/K with 1 <= I <= K, such as 3/8 (see --help)",
    );
    refused(
        &["frobnicate"],
        "",
        "unrecognized subcommand 'frobnicate' (see --help)",
    );
}

#[test]
fn bad_merge_input_is_refused() {
    refused(
        &["merge"],
        "",
        "the following required arguments were not provided: <FILE>... (see --help)",
    );
    refused(
        &["merge", "-"],
        "hello\n",
        "standard input line 1: not a partial count line (expected `nqueens-partial n=N part=I/K method=M count=C format=2 program=V`): \"hello\"",
    );
    refused(&["merge", "-"], "", "no partial counts to merge");
    refused(
        &["merge", "-"],
        &format!("nqueens-partial n=8 part=1/1 count=+5 {VERSION}\n"),
        &format!(
            "standard input line 1: not a partial count line (count=+5 is not a whole number that fits): \"nqueens-partial n=8 part=1/1 count=+5 {VERSION}\""
        ),
    );
    refused(
        &["merge", "-"],
        &format!("nqueens-partial n=4000000000 part=1/1 count=5 {VERSION}\n"),
        &format!(
            "standard input line 1: not a partial count line (n=4000000000 is more than 32, the largest board of this method): \"nqueens-partial n=4000000000 part=1/1 count=5 {VERSION}\""
        ),
    );
    #[cfg(unix)]
    refused(
        &["merge", "/dev/zero"],
        "",
        "'/dev/zero' is a device, not a regular file: merge reads files of partial-count lines (use - for a pipe)",
    );
    refused(
        &["merge", "-"],
        &format!(
            "nqueens-partial n=8 part=1/2 method=bitboard count=40 {VERSION}\nnqueens-partial n=8 part=2/2 method=symmetry count=52 unique=7 {VERSION}\n"
        ),
        "partial counts from different methods: method=bitboard and method=symmetry",
    );
}

/// An unreadable file is an I/O error: one line, status 1 (not bad input).
#[test]
fn merge_of_an_unreadable_file_exits_1() {
    let (status, stdout, stderr) = run(&["merge", "/nonexistent/part1"], "");
    assert_eq!((status, stdout.as_str()), (1, ""));
    assert!(
        stderr.starts_with("error: cannot read '/nonexistent/part1': "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
    #[cfg(unix)]
    {
        let (status, stdout, stderr) = run(&["merge", "/nonexistent/part1"], "");
        assert_eq!(
            (status, stdout.as_str(), stderr.as_str()),
            (
                1,
                "",
                "error: cannot read '/nonexistent/part1': No such file or directory (os error 2)\n"
            )
        );
        // A folder is not a file of lines: bad input (status 2).
        let dir = std::env::temp_dir();
        let (status, stdout, stderr) = run(&["merge", dir.to_str().unwrap()], "");
        assert_eq!(
            (status, stdout.as_str(), stderr),
            (
                2,
                "",
                format!(
                    "error: '{}' is a directory, not a regular file: merge reads files of partial-count lines (use - for a pipe)\n",
                    dir.display()
                )
            )
        );
    }
}

#[test]
fn merge_refuses_mixed_inputs() {
    refused(
        &["merge", "-"],
        &format!(
            "nqueens-partial n=8 part=1/2 count=40 {VERSION}\nnqueens-partial n=9 part=2/2 count=52 {VERSION}\n"
        ),
        "partial counts for different board sizes: n=8 and n=9",
    );
    refused(
        &["merge", "-", "-"],
        "",
        "standard input (-) given more than once",
    );
}

#[test]
fn a_merged_count_beyond_u64_is_refused() {
    refused(
        &["merge", "-"],
        // n = 30: beyond the known totals, so only the sum can be wrong.
        &format!(
            "nqueens-partial n=30 part=1/2 count=18446744073709551615 {VERSION}\nnqueens-partial n=30 part=2/2 count=1 {VERSION}\n"
        ),
        "the merged count overflows u64",
    );
}

#[test]
fn a_strategy_string_reads_its_parts_by_position_like_the_flags() {
    // fc+input+random:7 is random *values*: the same search as the flags.
    let diff = ok(&["diff", "4", "--a", "check", "--b", "fc+input+random:7"]);
    let trace = ok(&[
        "trace",
        "4",
        "--pruning",
        "fc",
        "--var",
        "input",
        "--val",
        "random:7",
    ]);
    assert!(diff.contains("why: their value orders differ"), "{diff}");
    let b = diff.lines().find(|l| l.starts_with("b = ")).unwrap();
    let last = trace.lines().last().unwrap();
    // "4 nodes (...), 9 values pruned" against "4 values tried: ...; 9 pruned".
    let nodes = b.split_whitespace().nth(3).unwrap();
    let pruned = b
        .split(" values pruned")
        .next()
        .and_then(|h| h.rsplit(' ').next())
        .unwrap();
    assert!(
        last.starts_with(&format!("{nodes} values tried")),
        "{b} / {last}"
    );
    assert!(last.contains(&format!("; {pruned} pruned")), "{b} / {last}");
    // In second place random:7 is the variable order; a value order there
    // is refused in one line naming the accepted spellings.
    let (status, _, stderr) = run(&["diff", "4", "--a", "check", "--b", "fc+lcv"], "");
    assert_eq!(status, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("unknown variable order 'lcv'"), "{stderr}");
    assert!(stderr.contains("pruning[+var[+val]]"), "{stderr}");
}

/// Runs `nqueens ARGS` with standard output on a pseudo-terminal (util-linux
/// `script`); `None` where `script` is missing.
fn on_a_terminal(args: &str) -> Option<(i32, String)> {
    let cmd = format!("{} {args}", env!("CARGO_BIN_EXE_nqueens"));
    let out = Command::new("script")
        .args(["-qefc", &cmd, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let code = out.status.code().unwrap_or(-1);
    Some((code, String::from_utf8_lossy(&out.stdout).into_owned()))
}

#[test]
fn pictures_and_pages_are_not_written_to_a_terminal() {
    for (args, kind) in [
        ("tree 4", "SVG"),
        ("explore 4", "HTML"),
        ("compare --format svg --n 4", "SVG"),
    ] {
        let Some((code, shown)) = on_a_terminal(args) else {
            eprintln!("skipped: util-linux `script` is not installed");
            return;
        };
        assert_eq!(code, 2, "nqueens {args}: {shown}");
        assert!(
            shown.contains(&format!(
                "writing {kind} to a terminal; use -o FILE or redirect"
            )),
            "nqueens {args}: {shown}"
        );
        assert!(
            !shown.contains("<svg") && !shown.contains("<html"),
            "{shown}"
        );
    }
    // Text formats still print, and a pipe still gets the SVG.
    let (code, shown) = on_a_terminal("tree 4 --format dot").unwrap();
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains("digraph"), "{shown}");
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(["tree", "4"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("<svg"));
}
