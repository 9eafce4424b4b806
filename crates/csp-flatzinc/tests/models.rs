//! The model suite: every committed `.fzn` solved through the library and the binary, at several
//! pruning levels, against the independently known answers in `tests/models/expected.txt`; and,
//! where MiniZinc is installed, `minizinc --solver csp` on every `.mzn`.

use std::path::{Path, PathBuf};
use std::process::Command;

use csp_core::Pruning;
use csp_flatzinc::{Options, TranslateOptions, parse, solve, translate};

/// A temporary folder, removed with its contents when dropped (also when a
/// test fails).
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expected {
    Solutions(u64),
    Minimum(i64),
    Maximum(i64),
}

fn models_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models")
}

/// `(model name, expected answer)` for every line of `expected.txt`.
fn expected() -> Vec<(String, Expected)> {
    let text = std::fs::read_to_string(models_dir().join("expected.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [name, kind, value] = fields[..] else {
                panic!("bad line in expected.txt: {line}")
            };
            let answer = match kind {
                "solutions" => Expected::Solutions(value.parse().unwrap()),
                "minimum" => Expected::Minimum(value.parse().unwrap()),
                "maximum" => Expected::Maximum(value.parse().unwrap()),
                _ => panic!("bad kind in expected.txt: {line}"),
            };
            (name.to_string(), answer)
        })
        .collect()
}

fn read_fzn(name: &str) -> String {
    std::fs::read_to_string(models_dir().join(format!("{name}.fzn"))).unwrap()
}

/// What the library finds: the solution count, or the optimum.
fn solve_with(name: &str, options: &Options) -> Expected {
    let ast = parse(&read_fzn(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let translate_options = TranslateOptions {
        free_search: options.free_search,
        ..Default::default()
    };
    let t = translate(&ast, &translate_options).unwrap_or_else(|e| panic!("{name}: {e}"));
    let options = Options {
        all_solutions: true,
        ..options.clone()
    };
    let outcome = solve(&t, &options, &mut |_| {}).unwrap();
    assert!(outcome.status.is_complete(), "{name}: {:?}", outcome.status);
    match t.objective {
        None => Expected::Solutions(outcome.solutions),
        Some((_, csp_core::Goal::Minimize)) => Expected::Minimum(outcome.objective.unwrap()),
        Some((_, csp_core::Goal::Maximize)) => Expected::Maximum(outcome.objective.unwrap()),
    }
}

#[test]
fn every_fzn_has_an_expected_answer_and_the_suite_is_large_enough() {
    let expected = expected();
    let mut listed: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
    listed.sort();
    let mut on_disk: Vec<String> = std::fs::read_dir(models_dir())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".fzn").map(str::to_string)
        })
        .collect();
    on_disk.sort();
    assert_eq!(listed, on_disk);
    let from_minizinc = std::fs::read_dir(models_dir())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("mzn".as_ref()))
        .count();
    assert!(from_minizinc >= 15, "only {from_minizinc} MiniZinc models");
}

#[test]
fn library_finds_the_expected_answers() {
    for (name, answer) in expected() {
        assert_eq!(solve_with(&name, &Options::default()), answer, "{name}");
    }
}

#[test]
fn pruning_levels_and_free_search_agree() {
    // Generate-and-test and plain backtracking are left out where they take seconds.
    let slow_under_check = [
        "all_interval",
        "arithmetic",
        "golomb",
        "jobshop",
        "langford",
        "magic_sequence",
        "nqueens",
        "nurse_rostering",
        "steiner_sets",
        "steiner_nosets",
    ];
    // Set variables as Booleans need propagation: without it the Steiner
    // systems take minutes.
    let slow_under_fc = [
        "jobshop",
        "nurse_rostering",
        "steiner_sets",
        "steiner_nosets",
    ];
    for (name, answer) in expected() {
        let mut levels = vec![Pruning::ArcConsistency];
        if !slow_under_fc.contains(&name.as_str()) {
            levels.push(Pruning::ForwardChecking);
        }
        if !slow_under_check.contains(&name.as_str()) {
            levels.push(Pruning::Check);
        }
        for pruning in levels {
            let options = Options {
                pruning,
                ..Options::default()
            };
            assert_eq!(solve_with(&name, &options), answer, "{name} at {pruning}");
        }
        let free = Options {
            free_search: true,
            var_order: Some(csp_core::VarOrder::DomOverWdeg),
            val_order: Some(csp_core::ValOrder::MiddleOut),
            ..Options::default()
        };
        assert_eq!(solve_with(&name, &free), answer, "{name} with free search");
        // The default search, values guided by the objective where it optimises.
        let default = Options {
            free_search: true,
            ..Options::default()
        };
        assert_eq!(
            solve_with(&name, &default),
            answer,
            "{name} with the default search"
        );
    }
}

#[test]
fn restarts_find_the_expected_answers() {
    // Restarts after every failure or two: counts stay exact (no solution
    // twice), optima the same. With the annotations and with free search.
    for (name, answer) in expected() {
        for free_search in [false, true] {
            let options = Options {
                free_search,
                restarts: Some(csp_core::Restarts::Luby { scale: 1 }),
                ..Options::default()
            };
            assert_eq!(
                solve_with(&name, &options),
                answer,
                "{name} with restarts (free search {free_search})"
            );
        }
    }
}

/// Runs the binary; returns (exit code, stdout, stderr).
fn fzn_csp(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The answer in MiniZinc's output: separators counted, or the objective statistic.
fn answer_in(output: &str, expected: Expected) -> Expected {
    let objective = || {
        output
            .lines()
            .find_map(|l| l.strip_prefix("%%%mzn-stat: objective="))
            .unwrap_or_else(|| panic!("no objective in:\n{output}"))
            .parse()
            .unwrap()
    };
    match expected {
        Expected::Solutions(_) => {
            Expected::Solutions(output.lines().filter(|l| *l == "----------").count() as u64)
        }
        Expected::Minimum(_) => Expected::Minimum(objective()),
        Expected::Maximum(_) => Expected::Maximum(objective()),
    }
}

#[test]
fn binary_prints_the_expected_answers_in_minizinc_format() {
    for (name, answer) in expected() {
        let path = models_dir().join(format!("{name}.fzn"));
        let path = path.to_str().unwrap();
        let (code, stdout, stderr) = fzn_csp(&["-a", "-s", path]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert_eq!(answer_in(&stdout, answer), answer, "{name}");
        let status = if answer == Expected::Solutions(0) {
            "=====UNSATISFIABLE====="
        } else {
            "=========="
        };
        assert!(
            stdout.lines().any(|l| l == status),
            "{name}: no {status} in\n{stdout}"
        );
        assert!(stdout.ends_with("%%%mzn-stat-end\n"), "{name}");
    }
}

#[test]
fn minizinc_end_to_end_when_installed() {
    let Ok(version) = Command::new("minizinc").arg("--version").output() else {
        println!("note: minizinc is not on PATH; skipping the end-to-end test");
        return;
    };
    assert!(version.status.success());
    let dir = std::env::temp_dir().join(format!("csp-flatzinc-e2e-{}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    let dir_str = dir.to_str().unwrap();
    let (code, _, stderr) = fzn_csp(&["--install", "--solver-dir", dir_str]);
    assert_eq!(code, 0, "{stderr}");
    for (name, answer) in expected() {
        let model = models_dir().join(format!("{name}.mzn"));
        if !model.exists() {
            continue; // hand-written FlatZinc
        }
        let out = Command::new("minizinc")
            .env("MZN_SOLVER_PATH", &dir)
            .current_dir(models_dir())
            .args(["--solver", "csp", "-a", "-s"])
            .arg(&model)
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(answer_in(&stdout, answer), answer, "{name}:\n{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fzn-csp --compare` on models compiled from MiniZinc: the table is printed,
/// every run that completes agrees with the known answer, and the strongest
/// strategy always completes.
#[test]
fn compare_tables_agree_with_the_known_answers() {
    let chosen = [
        "all_interval",
        "assignment",
        "exam_capacity",
        "golomb",
        "jobshop",
        "knapsack01",
        "nurse_rostering",
        "pigeonhole",
        "send_more_money",
    ];
    let answers = expected();
    for name in chosen {
        let answer = answers.iter().find(|(n, _)| n == name).unwrap().1;
        let path = models_dir().join(format!("{name}.fzn"));
        let path = path.to_str().unwrap();
        let strategies = "check,fc,propagators+dom-wdeg";
        let (code, json, stderr) = fzn_csp(&[
            "--compare",
            strategies,
            "-a",
            "-t",
            "3000",
            "--format",
            "json",
            path,
        ]);
        assert_eq!(code, 0, "{name}: {stderr}");
        let table: serde_json::Value = serde_json::from_str(&json).unwrap();
        let rows = table["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 3, "{name}");
        for row in rows {
            if !row["complete"].as_bool().unwrap() {
                continue;
            }
            let got = match answer {
                Expected::Solutions(_) => Expected::Solutions(row["solutions"].as_u64().unwrap()),
                Expected::Minimum(_) => Expected::Minimum(row["objective"].as_i64().unwrap()),
                Expected::Maximum(_) => Expected::Maximum(row["objective"].as_i64().unwrap()),
            };
            assert_eq!(got, answer, "{name}, {}", row["strategy"]);
        }
        assert!(rows[2]["complete"].as_bool().unwrap(), "{name}: {json}");
        // The default format: the Markdown table, without a size column.
        let (code, md, stderr) = fzn_csp(&["--compare", strategies, "-a", "-t", "3000", path]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(md.starts_with("| strategy |"), "{name}: {md}");
        assert_eq!(md.lines().count(), 5, "{name}: {md}");
    }
    // Misuse: an unknown strategy, and --format without --compare.
    let path = models_dir().join("golomb.fzn");
    let (code, _, stderr) = fzn_csp(&["--compare", "fc,sideways", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let (code, _, stderr) = fzn_csp(&["--format", "csv", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
}
