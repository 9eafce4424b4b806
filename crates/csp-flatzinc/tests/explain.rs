//! `fzn-csp --explain` on a model compiled by `minizinc -c -g`
//! (`tests/models/explain_exams.mzn`, checked in with its FlatZinc so that
//! no MiniZinc is needed): the exact output, and that it is a minimal
//! conflict.

use std::path::{Path, PathBuf};
use std::process::Command;

use csp_flatzinc::{Options, explain, explain_label, parse};

/// A temporary folder, removed with its contents when dropped (also when a
/// test fails).
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn model(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/models")
        .join(format!("{name}.fzn"))
}

fn fzn_csp(args: &[&str], name: &str) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .args(args)
        .arg(model(name))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const EXAMS_CONFLICT: &str = "exam 1 fits its room\n\
                              exam 2 fits its room\n\
                              one exam per room and slot\n\
                              exam 1 in the morning\n\
                              int_eq(X_INTRODUCED_5_,1)\n\
                              =====UNSATISFIABLE=====\n";

#[test]
fn explain_names_the_conflicting_constraints_of_the_exam_model() {
    let (code, out, err) = fzn_csp(&["--explain"], "explain_exams");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, EXAMS_CONFLICT);
    // The same at every pruning level (each finds the same minimal set).
    for pruning in ["check", "fc", "mac"] {
        let (_, out, err) = fzn_csp(&["--explain", "--pruning", pruning], "explain_exams");
        assert_eq!(out, EXAMS_CONFLICT, "{pruning}: {err}");
    }
}

/// The labels of the FlatZinc items of `src` that carry one of `names`.
fn items_named(src: &str, names: &[&str]) -> Vec<usize> {
    let ast = parse(src).unwrap();
    (0..ast.constraints.len())
        .filter(|&i| names.contains(&explain_label(&ast.constraints[i]).as_str()))
        .collect()
}

/// `src` with the constraint items `dropped` (by index) left out.
fn without(src: &str, dropped: &[usize]) -> String {
    let mut k = 0;
    src.lines()
        .filter(|line| {
            if !line.starts_with("constraint ") {
                return true;
            }
            k += 1;
            !dropped.contains(&(k - 1))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn the_exam_conflict_is_minimal_removing_any_name_makes_it_satisfiable() {
    let src = std::fs::read_to_string(model("explain_exams")).unwrap();
    let names: Vec<&str> = EXAMS_CONFLICT
        .lines()
        .filter(|l| !l.starts_with("====="))
        .collect();
    let all_items: Vec<usize> = (0..parse(&src).unwrap().constraints.len()).collect();
    // Keep only the blamed items (and the unnamed definitions they use):
    // still unsatisfiable, by a plain run.
    let defining: Vec<usize> = {
        let ast = parse(&src).unwrap();
        all_items
            .iter()
            .copied()
            .filter(|&i| {
                ast.constraints[i]
                    .annotations
                    .iter()
                    .any(|a| a.name == "defines_var")
            })
            .collect()
    };
    let kept = items_named(&src, &names);
    let dropped: Vec<usize> = all_items
        .iter()
        .copied()
        .filter(|i| !kept.contains(i) && !defining.contains(i))
        .collect();
    let mut out = Vec::new();
    csp_flatzinc::run(&without(&src, &dropped), &Options::default(), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "=====UNSATISFIABLE=====\n");
    // Removing any one name (all its items) from the whole model: a solution.
    for name in &names {
        let gone = items_named(&src, &[name]);
        let mut out = Vec::new();
        csp_flatzinc::run(&without(&src, &gone), &Options::default(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("----------\n"), "without {name}: {text}");
    }
}

#[test]
fn explain_on_a_satisfiable_model_prints_its_solutions() {
    let (code, plain, _) = fzn_csp(&[], "send_more_money");
    let (code2, explained, _) = fzn_csp(&["--explain"], "send_more_money");
    assert_eq!((code, code2), (0, 0));
    assert_eq!(explained, plain);
    assert!(explained.ends_with("----------\n"));
}

#[test]
fn explain_holds_the_time_limit_and_gives_statistics() {
    let (code, out, _) = fzn_csp(&["--explain", "-t", "0"], "explain_exams");
    assert_eq!((code, out.as_str()), (0, "=====UNKNOWN=====\n"));
    let (_, out, _) = fzn_csp(&["--explain", "-s"], "explain_exams");
    let (conflict, stats) = out.split_at(EXAMS_CONFLICT.len());
    assert_eq!(conflict, EXAMS_CONFLICT);
    let keys: Vec<&str> = stats
        .lines()
        .filter_map(|l| l.strip_prefix("%%%mzn-stat: "))
        .map(|l| l.split('=').next().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "explainChecks",
            "explainUndecided",
            "nodes",
            "failures",
            "solveTime"
        ]
    );
    assert!(stats.contains("explainUndecided=0\n"));
}

#[test]
fn explain_refuses_compare_and_reports_bad_files_in_one_line() {
    let (code, _, err) = fzn_csp(&["--explain", "--compare", "fc"], "explain_exams");
    assert_ne!(code, 0);
    assert!(err.contains("--compare"), "{err}");
    let dir = std::env::temp_dir().join(format!("csp-explain-{}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.fzn");
    std::fs::write(
        &bad,
        "var 1..3: x;\nconstraint int_le(x, ;\nsolve satisfy;\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .arg("--explain")
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("line 2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_library_explains_hand_written_flatzinc_with_paths() {
    let src = "var 1..9: x :: output_var;\n\
               constraint int_le(x,3) :: mzn_path(\"m.mzn|3|12|3|18\");\n\
               constraint int_ne(x,2) :: mzn_constraint_name(\"not two\");\n\
               constraint int_le(5,x) :: mzn_constraint_name(\"big\") :: domain_change_constraint;\n\
               solve satisfy;";
    let mut out = Vec::new();
    explain(src, &Options::default(), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "int_le(x,3) :: mzn_path(\"m.mzn|3|12|3|18\")\nbig\n=====UNSATISFIABLE=====\n"
    );
}
