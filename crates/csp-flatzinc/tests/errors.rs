//! Unsupported and ill-formed input: one clear message naming the construct and its line, exit status 1.

use std::process::Command;

use csp_flatzinc::{Error, Options, TranslateOptions, parse, run, translate};

/// The error for FlatZinc `src`, as the binary prints it after the file name.
fn error(src: &str) -> String {
    let mut out = Vec::new();
    let err = run(src, &Options::default(), &mut out).unwrap_err();
    assert!(out.is_empty(), "printed before failing: {out:?}");
    err.to_string()
}

#[test]
fn unsupported_constraint_is_named_with_its_line() {
    assert_eq!(
        error(
            "var 1..3: x;\nvar 1..3: y;\nconstraint fzn_bin_packing_load([x, y], [x, y], [1, 1]);\nsolve satisfy;"
        ),
        "line 3: unsupported constraint `fzn_bin_packing_load`"
    );
}

#[test]
fn float_and_unbounded_set_variables_are_unsupported_types() {
    assert_eq!(
        error("var 0.0..1.0: f;\nsolve satisfy;"),
        "line 1: unsupported type: `f` is a float variable"
    );
    assert_eq!(
        error("int: n = 1;\nvar set of int: s;\nsolve satisfy;"),
        "line 2: unsupported type: `s` is a set variable without a finite universe (`var set of int`)"
    );
    assert_eq!(
        error("array [1..2] of var float: fs;\nsolve satisfy;"),
        "line 1: unsupported type: `fs` is a float variable"
    );
}

#[test]
fn float_constraints_are_unsupported() {
    assert_eq!(
        error(
            "float: a = 1.5;\nvar 1..3: x;\nconstraint float_lin_le([a], [x], 2.0);\nsolve satisfy;"
        ),
        "line 3: unsupported constraint `float_lin_le`"
    );
}

#[test]
fn unsupported_search_annotation_is_named() {
    assert_eq!(
        error(
            "var 1..3: x;\nsolve :: float_search([x], 0.1, input_order, indomain_split) satisfy;"
        ),
        "line 2: unsupported annotation `float_search`"
    );
}

#[test]
fn free_search_accepts_any_search_annotation() {
    let src = "var 1..3: x;\nsolve :: restart_geometric(2, 100) satisfy;";
    let options = Options {
        free_search: true,
        ..Options::default()
    };
    let mut out = Vec::new();
    run(src, &options, &mut out).unwrap();
}

#[test]
fn unknown_identifier_is_named() {
    assert_eq!(
        error("var 1..3: x;\nconstraint int_le(x, y);\nsolve satisfy;"),
        "line 2: unknown identifier `y`"
    );
}

#[test]
fn wrong_arity_and_argument_kinds_are_explained() {
    assert_eq!(
        error("var 1..3: x;\nconstraint int_le(x);\nsolve satisfy;"),
        "line 2: `int_le` takes 2 arguments, found 1"
    );
    assert_eq!(
        error("var 1..3: x;\nconstraint int_lin_le(x, [x], 1);\nsolve satisfy;"),
        "line 2: argument 1 of `int_lin_le`: expected an array"
    );
    assert_eq!(
        error("var 1..3: x;\nconstraint int_lin_le([1, 2], [x], 1);\nsolve satisfy;"),
        "line 2: argument 2 of `int_lin_le`: expected 2 values, one per coefficient"
    );
    assert_eq!(
        error("array [1..2] of var 1..3: a;\nconstraint int_le(a[3], 1);\nsolve satisfy;"),
        "line 2: argument 1 of `int_le`: expected an index of `a` in 1..2"
    );
}

#[test]
fn unbounded_variable_without_definition_is_an_error() {
    assert_eq!(
        error("var int: x;\nconstraint int_le(x, 3);\nsolve satisfy;"),
        "line 1: variable `x` has no finite domain (declare bounds, or define it from bounded variables)"
    );
}

#[test]
fn duplicate_declaration_is_an_error() {
    assert_eq!(
        error("var 1..3: x;\nvar 1..3: x;\nsolve satisfy;"),
        "line 2: `x` is declared twice"
    );
}

#[test]
fn syntax_errors_come_through_with_line_and_column() {
    assert_eq!(
        error("var 1..3: x;\nconstraint int_le(x 1);\nsolve satisfy;"),
        "line 2, column 21: expected `)`, found `1`"
    );
}

#[test]
fn every_supported_builtin_is_accepted() {
    // A call with the wrong arity must fail on arity, not as unsupported.
    for name in csp_flatzinc::SUPPORTED {
        let src = format!("var 1..3: x;\nconstraint {name}(x, x, x, x, x, x, x);\nsolve satisfy;");
        let ast = parse(&src).unwrap();
        let err = translate(&ast, &TranslateOptions::default()).unwrap_err();
        assert!(!err.to_string().contains("unsupported"), "{name}: {err}");
    }
}

#[test]
fn errors_keep_their_kind() {
    let mut out = Vec::new();
    let err = run("solve satisfy", &Options::default(), &mut out).unwrap_err();
    assert!(matches!(err, Error::Parse(_)));
}

/// A temporary file, removed when dropped (also when a test fails).
struct TempFile(std::path::PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn fzn_csp(args: &[&str], stdin_file: Option<&str>) -> (i32, String, String) {
    let (code, stdout, stderr, _) = fzn_csp_file(args, stdin_file);
    (code, stdout, stderr)
}

/// Like [`fzn_csp`], and also the path of the file written (empty without one;
/// the file is removed once `fzn-csp` has finished).
fn fzn_csp_file(args: &[&str], stdin_file: Option<&str>) -> (i32, String, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fzn-csp"));
    cmd.args(args);
    let mut written = String::new();
    // Removed when the function returns (or panics), after `fzn-csp` ended.
    let mut guard = None;
    if let Some(src) = stdin_file {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "csp-flatzinc-errors-{}-{n}.fzn",
            std::process::id()
        ));
        let file = guard.insert(TempFile(path));
        std::fs::write(&file.0, src).unwrap();
        cmd.arg(&file.0);
        written = file.0.display().to_string();
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        written,
    )
}

#[test]
fn binary_reports_unsupported_builtin_on_one_line_and_exits_1() {
    let (code, stdout, stderr) = fzn_csp(
        &[],
        Some("var 1..3: x;\nconstraint fzn_bin_packing_load([x], [x], [1]);\nsolve satisfy;\n"),
    );
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.ends_with(": line 2: unsupported constraint `fzn_bin_packing_load`\n"),
        "{stderr}"
    );
}

#[test]
fn binary_reports_malformed_file_and_exits_1() {
    let (code, _, stderr) = fzn_csp(&[], Some("var 1..3 x;\nsolve satisfy;\n"));
    assert_eq!(code, 1);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.ends_with(": line 1, column 10: expected `:`, found `x`\n"),
        "{stderr}"
    );
}

#[test]
fn binary_reports_missing_file_and_bad_flags_with_exit_1() {
    let (code, _, stderr) = fzn_csp(&["/nonexistent/model.fzn"], None);
    assert_eq!(code, 1);
    assert!(
        stderr.starts_with("fzn-csp: cannot read /nonexistent/model.fzn"),
        "{stderr}"
    );
    let (code, stdout, stderr) = fzn_csp(&["--pruning", "fast", "x.fzn"], None);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "fzn-csp: invalid value 'fast' for '--pruning <PRUNING>': unknown pruning level 'fast' \
         (expected one of: none, check, fc, mac, propagators)\n"
    );
    let (code, _, stderr) = fzn_csp(&["--bogus", "x.fzn"], None);
    assert_eq!(code, 1);
    assert_eq!(stderr, "fzn-csp: unexpected argument '--bogus' found\n");
    // Help is not an error.
    let (code, stdout, _) = fzn_csp(&["--help"], None);
    assert_eq!(code, 0);
    assert!(stdout.contains("--pruning"), "{stdout}");
}

#[test]
fn binary_prints_the_exact_line_with_the_file_name() {
    let (code, stdout, stderr, path) = fzn_csp_file(
        &[],
        Some("var 1..3: x;\nconstraint fzn_bin_packing_load([x], [x], [1]);\nsolve satisfy;\n"),
    );
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        format!("fzn-csp: {path}: line 2: unsupported constraint `fzn_bin_packing_load`\n")
    );
    let (code, stdout, stderr, path) = fzn_csp_file(&[], Some("var 1..3 x;\nsolve satisfy;\n"));
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        format!("fzn-csp: {path}: line 1, column 10: expected `:`, found `x`\n")
    );
    let (code, stdout, stderr, path) =
        fzn_csp_file(&[], Some("var 0.0..1.0: f;\nsolve satisfy;\n"));
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        format!("fzn-csp: {path}: line 1: unsupported type: `f` is a float variable\n")
    );
    #[cfg(unix)]
    {
        let (code, stdout, stderr) = fzn_csp(&["/nonexistent/model.fzn"], None);
        assert_eq!((code, stdout.as_str()), (1, ""));
        assert_eq!(
            stderr,
            "fzn-csp: cannot read /nonexistent/model.fzn: No such file or directory (os error 2)\n"
        );
    }
}
