//! Snapshots of what `fzn-csp` prints, as MiniZinc's solns2out reads it.

use std::path::Path;
use std::process::Command;

fn fzn_csp(args: &[&str], model: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/models")
        .join(format!("{model}.fzn"));
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .args(args)
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn first_solution_of_a_satisfaction_problem() {
    insta::assert_snapshot!(fzn_csp(&[], "send_more_money"));
}

#[test]
fn all_solutions_end_with_the_complete_marker() {
    insta::assert_snapshot!(fzn_csp(&["-a"], "car_config"));
}

#[test]
fn a_limited_number_of_solutions_has_no_complete_marker() {
    insta::assert_snapshot!(fzn_csp(&["-n", "2"], "nqueens"));
}

#[test]
fn optimisation_prints_the_optimum_or_every_improvement() {
    insta::assert_snapshot!("knapsack_best", fzn_csp(&[], "knapsack01"));
    insta::assert_snapshot!("knapsack_improving", fzn_csp(&["-a"], "knapsack01"));
}

#[test]
fn booleans_and_two_dimensional_arrays() {
    insta::assert_snapshot!(fzn_csp(&[], "sudoku"));
    insta::assert_snapshot!(fzn_csp(&[], "knights_knaves"));
}

#[test]
fn unsatisfiable_and_unknown() {
    insta::assert_snapshot!("unsat", fzn_csp(&[], "pigeonhole"));
    // Generate and test cannot finish a Sudoku in a millisecond.
    insta::assert_snapshot!(
        "unknown",
        fzn_csp(&["--pruning", "none", "-t", "1"], "sudoku")
    );
}

#[test]
fn indomain_split_halves_the_domain() {
    // x in 0..1023 alone: halving reaches one end in exactly log2(1024) = 10
    // choices, where `indomain_min` would take one node.
    for (model, x) in [("split_search", 0), ("reverse_split_search", 1023)] {
        let out = fzn_csp(&["-s"], model);
        assert!(out.starts_with(&format!("x = {x};\n")), "{out}");
        assert!(out.contains("%%%mzn-stat: nodes=10\n"), "{out}");
        assert!(out.contains("%%%mzn-stat: peakDepth=10\n"), "{out}");
    }
}

/// `--all-different value` (value elimination alone, as Gecode's default):
/// the same solutions as the default Régin filter, reached through more
/// nodes on a model where the matching prunes (an all-different and an
/// inverse); a misspelt kind is refused with a message naming it.
#[test]
fn all_different_value_filters_less_and_answers_the_same() {
    let nodes = |out: &str| -> u64 {
        out.lines()
            .find_map(|l| l.strip_prefix("%%%mzn-stat: nodes="))
            .unwrap()
            .parse()
            .unwrap()
    };
    let solutions = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| !l.starts_with('%'))
            .map(str::to_string)
            .collect()
    };
    let domain = fzn_csp(&["-a", "-s"], "nqueens");
    let value = fzn_csp(&["-a", "-s", "--all-different", "value"], "nqueens");
    assert_eq!(solutions(&domain), solutions(&value));
    assert!(solutions(&domain).len() > 2);
    assert!(
        nodes(&value) > nodes(&domain),
        "{} vs {}",
        nodes(&value),
        nodes(&domain)
    );
    // `inverse` too: its matching filters go with Régin's. f[1], f[2] in
    // 1..2 leave f[3], f[4] only 3 and 4, which value propagation sees only
    // by failing on f[4] = 1 and 2 (the search takes f[4] first).
    let fzn = "\
predicate csp_inverse_offsets(array [int] of var int: f,int: f_offset,array [int] of var int: invf,int: invf_offset);
var 1..2: f1;
var 1..2: f2;
var 1..4: f3;
var 1..4: f4;
array [1..4] of var int: f :: output_array([1..4]) = [f1,f2,f3,f4];
array [1..4] of var 1..4: g :: output_array([1..4]);
constraint csp_inverse_offsets(f,1,g,1);
solve :: int_search([f4,f3,f2,f1],input_order,indomain_min,complete) satisfy;
";
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_inverse_hall.fzn");
    std::fs::write(&file, fzn).unwrap();
    let run = |args: &[&str]| -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
            .args(args)
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let domain = run(&["-a", "-s"]);
    let value = run(&["-a", "-s", "--all-different", "value"]);
    assert_eq!(solutions(&domain), solutions(&value));
    assert_eq!(
        solutions(&domain)
            .iter()
            .filter(|l| l.starts_with("f ="))
            .count(),
        4
    );
    assert!(nodes(&value) > nodes(&domain), "{value}\n{domain}");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models/nqueens.fzn");
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .args(["--all-different", "bounds"])
        .arg(path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bounds"));
}
