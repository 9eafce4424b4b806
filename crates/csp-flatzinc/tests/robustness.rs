//! `fzn-csp` under hostile use: output that cannot be written, endless input,
//! ill-typed or inconsistent models, and results beyond 64 bits. Every test
//! compares the whole message (or output) and the exit status
//! (docs/reliability.md, rows 45 onwards).
#![cfg(unix)]

use std::fs::File;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use csp_flatzinc::{Options, run};

const BIN: &str = env!("CARGO_BIN_EXE_fzn-csp");

/// A temporary file, removed when dropped (also when a test fails).
struct TempFile(PathBuf);

impl std::ops::Deref for TempFile {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Writes `src` to a fresh file named after `name`; its path, removed when
/// dropped.
fn model(name: &str, src: &str) -> TempFile {
    let path = std::env::temp_dir().join(format!("fzn-robust-{}-{name}.fzn", std::process::id()));
    let file = TempFile(path);
    std::fs::write(&file.0, src).unwrap();
    file
}

fn fzn(args: &[&str], stdout: Stdio) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// (status, stdout, stderr) of `fzn-csp args FILE` on `src`, and the file's
/// path (the file itself is removed once `fzn-csp` has finished).
fn solve(args: &[&str], name: &str, src: &str) -> (i32, String, String, String) {
    let path = model(name, src);
    let file = path.to_str().unwrap().to_string();
    let mut all: Vec<&str> = args.to_vec();
    all.push(&file);
    let out = fzn(&all, Stdio::piped());
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        file,
    )
}

const THREE: &str = "var 1..3: x :: output_var;\nsolve satisfy;\n";

/// Standard error that cannot be written (`2> /dev/full`, or a closed pipe)
/// changes nothing but the missing message: the same standard output and
/// the documented status (1 for a bad option, a missing file or a bad model;
/// 0 for a solved one); never a panic (101).
#[test]
fn standard_error_that_fails_keeps_the_output_and_the_status() {
    let good = model("stderr-good", THREE);
    let bad = model(
        "stderr-bad",
        "var 1..3: x;\nconstraint no_such(x);\nsolve satisfy;\n",
    );
    let cases: [(Vec<&str>, i32); 4] = [
        (vec!["--bogus"], 1),
        (vec!["/nonexistent/model.fzn"], 1),
        (vec![bad.to_str().unwrap()], 1),
        (vec!["-a", good.to_str().unwrap()], 0),
    ];
    let run = |args: &[&str], stderr: Stdio| {
        let out = Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let full = || Stdio::from(File::options().write(true).open("/dev/full").unwrap());
    let closed = || {
        let (ours, theirs) = UnixStream::pair().unwrap();
        drop(ours);
        Stdio::from(OwnedFd::from(theirs))
    };
    for (args, status) in &cases {
        let expected = run(args, Stdio::piped());
        assert_eq!(expected.0, Some(*status), "{args:?}");
        assert_eq!(run(args, full()), expected, "{args:?}");
        assert_eq!(run(args, closed()), expected, "{args:?}");
    }
}

#[test]
fn a_full_disk_is_one_line_and_status_1() {
    let file = model("full", THREE);
    let out = fzn(
        &["-a", file.to_str().unwrap()],
        Stdio::from(File::options().write(true).open("/dev/full").unwrap()),
    );
    assert_eq!(
        (out.status.code(), String::from_utf8(out.stderr).unwrap()),
        (
            Some(1),
            format!(
                "fzn-csp: {}: cannot write the output: No space left on device (os error 28)\n",
                file.display()
            )
        )
    );
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    let file = model("pipe", THREE);
    let (ours, theirs) = UnixStream::pair().unwrap();
    drop(ours);
    let out = fzn(
        &["-a", file.to_str().unwrap()],
        Stdio::from(OwnedFd::from(theirs)),
    );
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8(out.stderr).unwrap().as_str()
        ),
        (Some(0), "")
    );
}

#[test]
fn an_endless_file_is_refused_at_64_mb() {
    let out = fzn(&["/dev/zero"], Stdio::piped());
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8(out.stderr).unwrap().as_str()
        ),
        (
            Some(1),
            "fzn-csp: /dev/zero is larger than 64 MB, the input size limit\n"
        )
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn zero_solutions_asked_for_is_refused() {
    let (status, stdout, stderr, _) = solve(&["-n", "0"], "n0", THREE);
    assert_eq!(
        (status, stdout.as_str(), stderr.as_str()),
        (
            1,
            "",
            "fzn-csp: invalid value '0' for '--num-solutions <K>': 0 is not in 1..18446744073709551615\n"
        )
    );
    // The library, given K = 0, searches nothing and claims nothing.
    let options = Options {
        num_solutions: Some(0),
        ..Options::default()
    };
    let mut out = Vec::new();
    run(THREE, &options, &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "=====UNKNOWN=====\n");
}

#[test]
fn index_sets_must_match_the_array() {
    let (status, stdout, stderr, file) = solve(
        &[],
        "index",
        "array [1..3] of var 1..3: xs :: output_array([1..1000000000]);\nsolve satisfy;\n",
    );
    assert_eq!(
        (status, stdout.as_str(), stderr),
        (
            1,
            "",
            format!(
                "fzn-csp: {file}: line 1: annotation `output_array` of `xs`: expected index sets with \
                 3 elements in all, as many as the array has (they give 1000000000)\n"
            )
        )
    );
    // Two dimensions whose product is the length are fine.
    let (status, stdout, _, _) = solve(
        &[],
        "index2",
        "array [1..4] of var 1..1: g :: output_array([1..2, 1..2]);\nsolve satisfy;\n",
    );
    assert_eq!(
        (status, stdout.as_str()),
        // Every variable is fixed before any search: the one solution, and
        // the search is complete.
        (
            0,
            "g = array2d(1..2, 1..2, [1, 1, 1, 1]);\n----------\n==========\n"
        )
    );
}

#[test]
fn a_boolean_where_an_integer_belongs_is_refused() {
    let (status, stdout, stderr, file) = solve(
        &[],
        "intle",
        "var 1..3: x :: output_var;\nconstraint int_le(x, true);\nsolve satisfy;\n",
    );
    assert_eq!(
        (status, stdout.as_str(), stderr),
        (
            1,
            "",
            format!(
                "fzn-csp: {file}: line 2: argument 2 of `int_le`: expected an integer (a constant or a var int)\n"
            )
        )
    );
    let (status, _, stderr, file) = solve(
        &[],
        "boolle",
        "var bool: b :: output_var;\nconstraint bool_le(b, 1);\nsolve satisfy;\n",
    );
    assert_eq!(
        (status, stderr),
        (
            1,
            format!(
                "fzn-csp: {file}: line 2: argument 2 of `bool_le`: expected a Boolean (true, false or a var bool)\n"
            )
        )
    );
    let (status, _, stderr, file) = solve(
        &[],
        "reif",
        "var 1..3: x;\nvar 1..3: y;\nconstraint int_eq_reif(x, y, 1);\nsolve satisfy;\n",
    );
    assert_eq!(
        (status, stderr),
        (
            1,
            format!(
                "fzn-csp: {file}: line 3: argument 3 of `int_eq_reif`: expected a Boolean (true, false or a var bool)\n"
            )
        )
    );
}

#[test]
fn a_sum_beyond_64_bits_is_not_reported_unsatisfiable() {
    // x + y = z has no 64-bit z: the answer is unknown, not UNSATISFIABLE.
    let (status, stdout, stderr, _) = solve(
        &[],
        "plus",
        "var 9223372036854775807..9223372036854775807: x :: output_var;\nvar 1..10: y :: output_var;\n\
         var int: z :: output_var;\nconstraint int_plus(x, y, z);\nsolve satisfy;\n",
    );
    assert_eq!(
        (status, stdout.as_str(), stderr.as_str()),
        (
            0,
            "% fzn-csp: the values of `z` can exceed 64-bit integers and were cut to fit; the search \
             proves nothing past that\n=====UNKNOWN=====\n",
            ""
        )
    );
    // Where some sums fit, the solutions found are printed, but not the
    // `==========` that would claim they are all of them.
    let (status, stdout, _, _) = solve(
        &["-a"],
        "plus2",
        "var 9223372036854775806..9223372036854775807: x :: output_var;\nvar 1..2: y :: output_var;\n\
         var int: z :: output_var;\nconstraint int_plus(x, y, z);\nsolve satisfy;\n",
    );
    assert_eq!(
        (status, stdout.as_str()),
        (
            0,
            "x = 9223372036854775806;\ny = 1;\nz = 9223372036854775807;\n----------\n\
             % fzn-csp: the values of `z` can exceed 64-bit integers and were cut to fit; the search \
             proves nothing past that\n"
        )
    );
}

#[test]
fn ctrl_c_stops_the_search_and_keeps_the_solutions_printed() {
    // All permutations of 12 values: far too many to list before Ctrl-C.
    let mut src = String::from("array [1..12] of var 1..12: q :: output_array([1..12]);\n");
    for i in 1..=12 {
        for j in i + 1..=12 {
            src.push_str(&format!("constraint int_ne(q[{i}], q[{j}]);\n"));
        }
    }
    src.push_str("solve satisfy;\n");
    let file = model("ctrlc", &src);
    let child = Command::new(BIN)
        .args(["-a", "--pruning", "check", file.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(800));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8(out.stderr).unwrap().as_str()
        ),
        (Some(0), "")
    );
    // Whole solutions only, and no `==========`: the search was not finished.
    assert!(
        stdout.starts_with("q = array1d(1..12, [1, 2, 3, "),
        "{stdout:.200}"
    );
    assert!(stdout.ends_with("]);\n----------\n"), "{stdout:.200}");
    assert!(!stdout.contains("=========="));
}

#[test]
fn a_huge_token_is_quoted_to_80_characters() {
    let long = "y".repeat(500);
    let (status, _, stderr, file) = solve(
        &[],
        "token",
        &format!("var 1..3: x;\nconstraint {long}(x);\nsolve satisfy;\n"),
    );
    assert_eq!(
        (status, stderr),
        (
            1,
            format!(
                "fzn-csp: {file}: line 2: unsupported constraint `{}... (500 characters)`\n",
                "y".repeat(80)
            )
        )
    );
    let (status, _, stderr, file) = solve(&[], "token2", &format!("var 1..3 {long};\n"));
    assert_eq!(
        (status, stderr),
        (
            1,
            format!(
                "fzn-csp: {file}: line 1, column 10: expected `:`, found `{}... (500 characters)`\n",
                "y".repeat(80)
            )
        )
    );
}

/// Lists of different lengths are refused whatever the length of the first:
/// `fzn_cumulative([], [1, 2], [1], b)` and `fzn_diffn([x], [], ...)` were
/// accepted (empty or single-rectangle shortcut taken before the check).
#[test]
fn mismatched_lists_are_refused_even_when_the_first_is_short() {
    for (name, constraint, message) in [
        (
            "cumulative0",
            "fzn_cumulative([], [1, 2], [1], 3)",
            "line 2: cumulative: durations has length 2, expected 0",
        ),
        (
            "cumulative1",
            "fzn_cumulative([x], [1, 2], [1], 3)",
            "line 2: cumulative: durations has length 2, expected 1",
        ),
        (
            "diffn1",
            "fzn_diffn([x], [], [1], [1])",
            "line 2: diffn: y has length 0, expected 1",
        ),
        (
            "disjunctive0",
            "fzn_disjunctive([], [1])",
            "line 2: disjunctive: durations has length 1, expected 0",
        ),
    ] {
        let src = format!("var 1..3: x :: output_var;\nconstraint {constraint};\nsolve satisfy;\n");
        let (status, stdout, stderr, file) = solve(&[], name, &src);
        assert_eq!(
            (status, stdout.as_str(), stderr),
            (1, "", format!("fzn-csp: {file}: {message}\n")),
            "{constraint}"
        );
    }
}

/// `solve minimize 5;`: every solution is optimal, so the first one ends a
/// complete search (it printed the solution without `==========`).
#[test]
fn a_constant_objective_ends_complete() {
    for goal in ["minimize 5", "maximize true"] {
        let src = format!("var 1..3: x :: output_var;\nsolve {goal};\n");
        let (status, stdout, stderr, _) = solve(&[], "constant-objective", &src);
        assert_eq!(
            (status, stdout.as_str(), stderr.as_str()),
            (0, "x = 1;\n----------\n==========\n", ""),
            "{goal}"
        );
    }
}

#[test]
fn a_tiny_file_declaring_billions_of_variables_is_one_line() {
    for len in ["20000000", "4000000000"] {
        let src = format!("array [1..{len}] of var 1..3: x;\nsolve satisfy;\n");
        let (status, stdout, stderr, _) = solve(&["-t", "2000"], &format!("huge{len}"), &src);
        assert_eq!(status, 1, "{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("array `x` of {len} variables"))
                && stderr.contains("more than the memory limit"),
            "{stderr}"
        );
    }
}

#[test]
fn a_search_past_its_memory_limit_stops_without_a_claim() {
    // 3,000 variables of 60,000 values (under the 2^16 values above which a
    // variable keeps a list of holes instead), all different, under forward
    // checking: every variable gets its bits (22.5 MB) past a 16 MB limit.
    let src = "array [1..3000] of var 0..59999: x :: output_array([1..3000]);\n\
               constraint fzn_all_different_int(x);\nsolve satisfy;\n";
    let (status, stdout, stderr, _) = solve(
        &["--pruning", "fc", "--memory-limit", "16M"],
        "wide_alldiff",
        src,
    );
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(stdout.trim_end(), "=====UNKNOWN=====", "{stdout}");
}

#[test]
fn variables_of_a_million_values_cost_their_holes_not_their_span() {
    // A thousand variables of a million values, all different, under forward
    // checking: with a bit per value this took 125 MB; kept as bounds and
    // holes, it solves under a 16 MB limit.
    let src = "array [1..1000] of var 0..999999: x :: output_array([1..1000]);\n\
               constraint fzn_all_different_int(x);\nsolve satisfy;\n";
    let (status, stdout, stderr, _) = solve(
        &["--pruning", "fc", "--memory-limit", "16M"],
        "wide_alldiff_solved",
        src,
    );
    assert_eq!(status, 0, "{stderr}");
    let values: Vec<i64> = stdout
        .split_once('[')
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list.split(", ").map(|v| v.parse().unwrap()).collect())
        .unwrap_or_default();
    let distinct: std::collections::BTreeSet<i64> = values.iter().copied().collect();
    assert_eq!((values.len(), distinct.len()), (1000, 1000), "{stdout}");
    assert!(
        values.iter().all(|v| (0..1_000_000).contains(v)),
        "{stdout}"
    );
    assert!(stdout.ends_with("----------\n"), "{stdout}");
}

#[test]
fn an_array_past_the_given_memory_limit_is_one_line() {
    // 100,000 variables need about 25.6 MB: refused under `--memory-limit 16M`
    // (the limit given, not the 4 GiB default), accepted without it.
    let src = "array [1..100000] of var 1..3: x;\nsolve satisfy;\n";
    let (status, stdout, stderr, _) = solve(&["--memory-limit", "16M"], "limited_array", src);
    assert_eq!(status, 1, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("array `x` of 100000 variables")
            && stderr.contains("more than the memory limit of 16777216 bytes"),
        "{stderr}"
    );
    let (status, stdout, stderr, _) = solve(&[], "unlimited_array", src);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(stdout, "----------\n", "{stdout}");
}

/// A translation past its deadline, or after Ctrl-C, stops between two
/// items (or two variables of an array) and answers as a search stopped
/// before its first solution. Deterministic: the deadline has passed and
/// the flag is set before the translation starts.
#[test]
fn a_translation_stops_at_its_deadline_and_on_ctrl_c() {
    use csp_core::{CancelFlag, SearchStatus, StopReason};
    use csp_flatzinc::{TranslateError, TranslateOptions, parse, translate};
    use std::time::{Duration, Instant};

    let src = "array [1..100000] of var 1..3: x :: output_array([1..100000]);\nsolve satisfy;\n";
    let ast = parse(src).unwrap();
    let past = TranslateOptions {
        deadline: Some(Instant::now()),
        ..Default::default()
    };
    let err = translate(&ast, &past).unwrap_err();
    assert!(
        matches!(
            err,
            TranslateError::Stopped {
                reason: StopReason::TimeLimit,
                line: 1
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "line 1: the translation stopped: time limit"
    );
    let flag = CancelFlag::new();
    flag.cancel();
    let cancelled = TranslateOptions {
        cancel: Some(flag.clone()),
        ..Default::default()
    };
    assert!(matches!(
        translate(&ast, &cancelled),
        Err(TranslateError::Stopped {
            reason: StopReason::Cancelled,
            ..
        })
    ));
    // `run` with `-t 0`: the translation is cut, the answer is UNKNOWN.
    let mut out = Vec::new();
    let options = Options {
        time_limit: Some(Duration::ZERO),
        ..Default::default()
    };
    let outcome = run(src, &options, &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "=====UNKNOWN=====\n");
    assert_eq!(outcome.status, SearchStatus::Stopped(StopReason::TimeLimit));
    // Without limits the same model translates.
    assert!(translate(&ast, &TranslateOptions::default()).is_ok());
}

#[test]
fn leaving_the_memory_to_the_exit_changes_no_output() {
    // fzn-csp's setting: the same lines and outcome as a run that frees,
    // for every solution, an optimum, and a translation stopped at once.
    let sat = "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\nconstraint int_ne(x, y);\nsolve satisfy;\n";
    let opt = "var 1..9: x :: output_var;\nconstraint int_le(x, 7);\nsolve maximize x;\n";
    let cancelled = csp_core::CancelFlag::new();
    cancelled.cancel();
    let cases = [
        (
            sat,
            Options {
                all_solutions: true,
                ..Options::default()
            },
        ),
        (
            opt,
            Options {
                statistics: false,
                ..Options::default()
            },
        ),
        (
            sat,
            Options {
                cancel: Some(cancelled),
                ..Options::default()
            },
        ),
    ];
    for (src, options) in cases {
        let mut freed = Vec::new();
        let a = run(src, &options, &mut freed).unwrap();
        let leaving = Options {
            leave_memory_to_exit: true,
            ..options.clone()
        };
        let mut left = Vec::new();
        let b = run(src, &leaving, &mut left).unwrap();
        assert_eq!(
            String::from_utf8(left).unwrap(),
            String::from_utf8(freed).unwrap()
        );
        assert_eq!(
            (a.solutions, a.status, a.objective),
            (b.solutions, b.status, b.objective)
        );
    }
}
