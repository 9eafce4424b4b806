//! Our `mznlib` at work, when MiniZinc is installed: the globals reach FlatZinc
//! as csp natives (not decomposed), and a float model is refused in one line.

use std::path::PathBuf;
use std::process::Command;

/// A temporary file, removed when dropped (also when a test fails).
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn minizinc_available() -> bool {
    let found = Command::new("minizinc").arg("--version").output().is_ok();
    if !found {
        println!("note: minizinc is not on PATH; skipping");
    }
    found
}

fn share() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("share")
}

fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/models")
}

/// Flattens a model of `tests/models` with our library; the FlatZinc text.
fn flatten(model: &str) -> String {
    let out = std::env::temp_dir().join(format!("csp-natives-{}-{model}.fzn", std::process::id()));
    let _cleanup = TempFile(out.clone());
    let status = Command::new("minizinc")
        .env("MZN_SOLVER_PATH", share())
        .args([
            "--solver",
            "org.csp.csp",
            "--compile",
            "--no-output-ozn",
            "--fzn",
        ])
        .arg(&out)
        .arg(models_dir().join(format!("{model}.mzn")))
        .status()
        .unwrap();
    assert!(status.success(), "{model}");
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    text
}

fn constraints(fzn: &str) -> Vec<&str> {
    fzn.lines()
        .filter_map(|l| l.strip_prefix("constraint "))
        .filter_map(|l| l.split('(').next())
        .collect()
}

#[test]
fn globals_reach_flatzinc_as_natives() {
    if !minizinc_available() {
        return;
    }
    for (model, natives) in [
        (
            "routing",
            &["csp_circuit_offset", "csp_inverse_offsets"][..],
        ),
        ("scheduling", &["fzn_cumulative", "fzn_disjunctive"][..]),
        ("tables", &["fzn_table_int", "csp_table_int_negative"][..]),
        (
            "count_forms",
            &[
                "fzn_count_eq",
                "fzn_count_leq",
                "fzn_count_geq",
                "fzn_count_lt",
                "fzn_count_gt",
                "fzn_count_neq",
                "fzn_global_cardinality",
            ][..],
        ),
        (
            "count_reif",
            &[
                "fzn_count_eq_reif",
                "fzn_count_leq_imp",
                "fzn_count_geq_imp",
                "fzn_count_gt_reif",
                "fzn_count_neq_imp",
            ][..],
        ),
        (
            "sequences",
            &[
                "fzn_regular",
                "fzn_lex_lesseq_int",
                "fzn_global_cardinality",
                "fzn_count_eq",
            ][..],
        ),
    ] {
        let fzn = flatten(model);
        let used = constraints(&fzn);
        for native in natives {
            assert!(used.contains(native), "{model}: no {native} in\n{fzn}");
        }
        // Every constraint is one fzn-csp supports.
        for c in used {
            assert!(csp_flatzinc::SUPPORTED.contains(&c), "{model}: {c}");
        }
    }
    // The circuit keeps its index set's first index (0 here).
    assert!(flatten("routing").contains("csp_circuit_offset(0,"));
    // A set variable stays one: fzn-csp reads `var set of` itself.
    let sets = flatten("set_vars");
    assert!(sets.contains("var set of 1..5: s") && sets.contains("set_card("));
}

#[test]
fn a_float_model_is_refused_in_one_line() {
    if !minizinc_available() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("csp-natives-float-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("float.mzn");
    std::fs::write(
        &model,
        "var 0.0..1.0: f;\nconstraint f >= 0.5;\nsolve satisfy;\n",
    )
    .unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_fzn-csp"));
    let mut dirs = vec![bin.parent().unwrap().to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    let out = Command::new("minizinc")
        .env("MZN_SOLVER_PATH", share())
        .env("PATH", std::env::join_paths(dirs).unwrap())
        .args(["--solver", "csp"])
        .arg(&model)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("fzn-csp:"))
        .collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].ends_with("unsupported type: `f` is a float variable"),
        "{stderr}"
    );
}

/// Every solution of `model` (`minizinc -a` with the solver installed in
/// `dir`), sorted, or the error.
fn all_solutions(dir: &std::path::Path, model: &std::path::Path) -> Result<Vec<String>, String> {
    let out = Command::new("minizinc")
        .env("MZN_SOLVER_PATH", dir)
        .args(["--solver", "csp", "-a"])
        .arg(model)
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = String::from_utf8(out.stdout).unwrap();
    let mut solutions: Vec<String> = text.split("----------\n").map(str::to_string).collect();
    assert_eq!(solutions.pop().as_deref(), Some("==========\n"), "{text}");
    solutions.sort();
    Ok(solutions)
}

/// Native set variables against MiniZinc's own decomposition (`nosets.mzn`,
/// which our library included before): the same solutions, one by one, for
/// models that use the set operations, orders, globals over sets and
/// set-valued arrays indexed by a variable.
#[test]
fn native_sets_find_the_solutions_of_the_nosets_decomposition() {
    if !minizinc_available() {
        return;
    }
    let base = std::env::temp_dir().join(format!("csp-natives-sets-{}", std::process::id()));
    let (native, nosets) = (base.join("native"), base.join("nosets"));
    for dir in [&native, &nosets] {
        let status = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
            .args(["--install", "--solver-dir"])
            .arg(dir)
            .output()
            .unwrap();
        assert!(status.status.success());
    }
    let redefinitions = nosets.join("csp-mznlib/redefinitions.mzn");
    std::fs::write(&redefinitions, "include \"nosets.mzn\";\n").unwrap();
    let models = [
        "array[1..3] of var set of 1..4: s;\nvar 1..3: i;\nvar 0..4: k;\n\
         constraint card(array_union(s)) = 3;\nconstraint s[i] subset array_union(s);\n\
         constraint k in s[i] \\/ k = 0;\nconstraint s[1] < s[2];\nconstraint s[2] != s[3];\n\
         constraint all_disjoint([s[1], s[2]]);\n\
         constraint (1 in s[3]) -> (card(s[2]) >= 1);\n\
         constraint max(s[1] union {0}) <= 3;",
        "array[1..3] of var set of 1..3: p;\nconstraint partition_set(p, 1..3);\n\
         var set of 1..3: x;\nconstraint x = p[2] union {3} \\/ x = {};\n\
         var bool: b = (x subset p[1]);\nconstraint b \\/ (2 in x);",
        "array[1..3] of var set of {1, 3, 7}: s;\n\
         var set of 1..7: d = s[3] symdiff s[1];\nconstraint card(d) <= 1;\n\
         constraint (s[1] = s[2]) xor (3 in s[3]);\n\
         constraint s[2] <= s[3];\nconstraint card(s[1] diff s[2]) = 1;",
    ];
    for (n, body) in models.iter().enumerate() {
        let model = base.join(format!("sets{n}.mzn"));
        let src = format!("include \"globals.mzn\";\n{body}\nsolve satisfy;\n");
        std::fs::write(&model, &src).unwrap();
        let ours = all_solutions(&native, &model).unwrap_or_else(|e| panic!("{src}\n{e}"));
        let theirs = all_solutions(&nosets, &model).unwrap_or_else(|e| panic!("{src}\n{e}"));
        assert!(ours.len() > 1, "{src}");
        assert_eq!(ours, theirs, "{src}");
    }
    let _ = std::fs::remove_dir_all(&base);
}
