//! Restart annotations, `--restart`, and the default search of models
//! without annotations.

use std::process::Command;

use csp_core::{Restarts, ValOrder, VarOrder};
use csp_flatzinc::{
    DEFAULT_RESTARTS, DEFAULT_VAR_ORDER, Options, SearchPlan, TranslateOptions, parse, run, solve,
    translate,
};

/// 8 queens, unannotated or with `annotation` on the solve item.
fn queens(annotation: &str) -> String {
    let mut src = String::from("array [1..8] of var 1..8: q :: output_array([1..8]);\n");
    for i in 1..=8 {
        for j in i + 1..=8 {
            let d = j - i;
            src.push_str(&format!("constraint int_ne(q[{i}], q[{j}]);\n"));
            src.push_str(&format!(
                "constraint int_lin_ne([1, -1], [q[{i}], q[{j}]], {d});\n"
            ));
            src.push_str(&format!(
                "constraint int_lin_ne([1, -1], [q[{i}], q[{j}]], -{d});\n"
            ));
        }
    }
    src.push_str(&format!("solve {annotation} satisfy;\n"));
    src
}

fn plan(src: &str, options: &Options) -> SearchPlan {
    let t = translate(
        &parse(src).unwrap(),
        &TranslateOptions {
            free_search: options.free_search,
            ..Default::default()
        },
    )
    .unwrap();
    SearchPlan::new(&t, options)
}

fn stat(out: &str, name: &str) -> u64 {
    let prefix = format!("%%%mzn-stat: {name}=");
    out.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {name} in {out}"))
        .parse()
        .unwrap()
}

#[test]
fn a_restart_annotation_restarts_and_counts_every_solution_once() {
    let src = queens(":: restart_luby(1) :: int_search(q, dom_w_deg, indomain_min, complete)");
    let options = Options {
        statistics: true,
        ..Options::default()
    };
    let mut out = Vec::new();
    run(&src, &options, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(stat(&out, "restarts") > 0, "{out}");
    let all = Options {
        all_solutions: true,
        ..Options::default()
    };
    let t = translate(&parse(&src).unwrap(), &TranslateOptions::default()).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let outcome = solve(&t, &all, &mut |v| assert!(seen.insert(v.to_vec()))).unwrap();
    assert_eq!((outcome.solutions, seen.len()), (92, 92));
    assert!(outcome.status.is_complete());
}

#[test]
fn the_default_search_applies_to_unannotated_models_only() {
    let free = plan(&queens(""), &Options::default());
    assert_eq!(
        free,
        SearchPlan {
            var_order: DEFAULT_VAR_ORDER,
            val_order: ValOrder::Ascending,
            restarts: DEFAULT_RESTARTS,
            declared_first: true,
            objective_guided: false,
            elements_in_first: true,
        }
    );
    // An annotated model keeps today's fallback for the variables its
    // annotations leave out.
    let annotated = queens(":: int_search(q, input_order, indomain_min, complete)");
    let kept = plan(&annotated, &Options::default());
    assert_eq!(
        (kept.var_order, kept.restarts, kept.declared_first),
        (VarOrder::FirstFail, Restarts::Never, false)
    );
    // -f: the annotations are ignored, the default search applies.
    let f = Options {
        free_search: true,
        ..Options::default()
    };
    assert_eq!(plan(&annotated, &f), free);
    // A restart annotation alone makes the model annotated, and wins over --restart.
    let luby = queens(":: restart_luby(7)");
    let options = Options {
        restarts: Some(Restarts::Never),
        ..Options::default()
    };
    let p = plan(&luby, &options);
    assert_eq!(p.restarts, Restarts::Luby { scale: 7 });
    assert_eq!(p.var_order, VarOrder::FirstFail);
    // --restart and --var apply where no annotation says otherwise.
    let options = Options {
        restarts: Some(Restarts::Linear { scale: 3 }),
        var_order: Some(VarOrder::Random(0)),
        seed: 9,
        ..Options::default()
    };
    let p = plan(&annotated, &options);
    assert_eq!(p.restarts, Restarts::Linear { scale: 3 });
    assert_eq!(p.var_order, VarOrder::Random(9));
}

#[test]
fn objective_guided_values_in_unannotated_optimisation_models_only() {
    let model = |annotation: &str| {
        format!(
            "var 0..1: a;\nvar 0..1: b;\nvar 0..3: obj :: is_defined_var;\n\
             constraint int_lin_eq([1,2,-1],[a,b,obj],0) :: defines_var(obj);\n\
             solve {annotation} maximize obj;"
        )
    };
    let guided = |src: &str, options: &Options| plan(src, options).objective_guided;
    let plain = model("");
    let annotated = model(":: int_search([a, b], input_order, indomain_min, complete)");
    assert!(guided(&plain, &Options::default()));
    assert!(!guided(&annotated, &Options::default()));
    let free = Options {
        free_search: true,
        ..Options::default()
    };
    assert!(guided(&annotated, &free));
    // --val replaces the guide.
    let asc = Options {
        val_order: Some(ValOrder::Ascending),
        ..Options::default()
    };
    assert!(!guided(&plain, &asc));
    // A satisfaction model has nothing to guide by.
    assert!(!plan(&queens(""), &Options::default()).objective_guided);
}

#[test]
fn declared_variables_exclude_introduced_and_defined_ones() {
    let src = "var 1..3: x :: output_var;\n\
               var 1..3: y;\n\
               var 2..6: s :: is_defined_var;\n\
               var bool: b :: var_is_introduced;\n\
               var 1..3: a = y;\n\
               constraint int_lin_eq([1, 1, -1], [x, y, s], 0) :: defines_var(s);\n\
               constraint int_le_reif(x, y, b);\n\
               solve satisfy;";
    let t = translate(&parse(src).unwrap(), &TranslateOptions::default()).unwrap();
    let names: Vec<String> = t
        .decision_vars
        .iter()
        .map(|&v| t.model.var_name(v))
        .collect();
    assert_eq!(names, ["x", "y"]);
}

/// The elements of set variables, as `nosets.mzn` makes them, are the
/// printed and introduced Booleans that no constraint defines (with
/// `is_defined_var` or without, as MiniZinc writes either); an
/// optional variable's `occurs` (defined by a constraint), a declared
/// Boolean and an unprinted one are not. The default search tries 1 first
/// on them; `--val asc` keeps 0 first.
#[test]
fn set_elements_are_found_and_tried_in_the_set_first() {
    let src = "var bool: e1 ::var_is_introduced :: is_defined_var:: output_var;\n\
               var bool: e2 ::var_is_introduced :: output_var;\n\
               var bool: occurs ::var_is_introduced :: is_defined_var:: output_var;\n\
               var 0..5: deopt ::var_is_introduced :: output_var;\n\
               var bool: d :: output_var;\n\
               var bool: hidden ::var_is_introduced :: is_defined_var;\n\
               constraint int_ne_reif(deopt, 0, occurs) :: defines_var(occurs);\n\
               constraint bool_clause([e1, e2, hidden], [d]);\n\
               solve satisfy;";
    let t = translate(&parse(src).unwrap(), &TranslateOptions::default()).unwrap();
    let names = |vars: &[csp_core::VarId]| -> Vec<String> {
        vars.iter().map(|&v| t.model.var_name(v)).collect()
    };
    assert_eq!(names(&t.set_elements), ["e1", "e2"]);
    assert_eq!(names(&t.decision_vars), ["d"]);
    let first = |options: &Options| {
        let mut values = Vec::new();
        let outcome = solve(&t, options, &mut |v| {
            if values.is_empty() {
                values = v.to_vec();
            }
        })
        .unwrap();
        assert_eq!(outcome.solutions, 1);
        let value = |name: &str| {
            let k = (0..t.model.num_vars())
                .find(|&k| t.model.var_name(csp_core::VarId::new(k)) == name)
                .unwrap();
            values[k]
        };
        (value("d"), value("e1"), value("e2"))
    };
    // d first (declared, 0 first); the elements 1 first.
    assert_eq!(first(&Options::default()), (0, 1, 1));
    assert!(SearchPlan::new(&t, &Options::default()).elements_in_first);
    let ascending = Options {
        val_order: Some(ValOrder::Ascending),
        ..Default::default()
    };
    assert!(!SearchPlan::new(&t, &ascending).elements_in_first);
    assert_eq!(first(&ascending), (0, 0, 0));
}

/// A temporary folder, removed with its contents when dropped (also when a
/// test fails).
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fzn_csp(args: &[&str], src: &str) -> (i32, String, String) {
    // One folder per call (the tests run in parallel threads of one process),
    // removed once `fzn-csp` has finished.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("fzn-csp-restarts-{}-{k}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!(
        "{}.fzn",
        args.join("_").replace(['-', '.', '/'], "")
    ));
    std::fs::write(&path, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .args(args)
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn restart_options_on_the_command_line() {
    let src = queens("");
    for kind in ["constant", "linear", "luby", "geometric"] {
        let (code, out, err) = fzn_csp(
            &[
                "-s",
                "--var",
                "dom-wdeg",
                "--restart",
                kind,
                "--restart-scale",
                "1",
                "--restart-factor",
                "1.2",
            ],
            &src,
        );
        assert_eq!(code, 0, "{kind}: {err}");
        assert!(out.contains("----------"), "{kind}: {out}");
        assert!(stat(&out, "restarts") > 0, "{kind}: {out}");
    }
    let (code, out, _) = fzn_csp(&["-s", "--restart", "none"], &src);
    assert_eq!(code, 0);
    assert_eq!(stat(&out, "restarts"), 0);
    for bad in [
        &["--restart", "often"][..],
        &["--restart-scale", "0"],
        &["--restart-factor", "0.5"],
        &["--restart-factor", "inf"],
        &["--var", "best"],
    ] {
        let (code, out, err) = fzn_csp(bad, &src);
        assert_eq!(code, 1, "{bad:?}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
        assert!(err.starts_with("fzn-csp: "), "{err}");
    }
}

#[test]
fn nogoods_on_the_command_line_keep_every_solution_and_are_counted() {
    let src = queens("");
    for pruning in ["mac", "propagators"] {
        let (code, out, err) = fzn_csp(
            &[
                "-a",
                "-s",
                "--pruning",
                pruning,
                "--var",
                "dom-wdeg",
                "--restart",
                "luby",
                "--restart-scale",
                "1",
                "--nogoods",
            ],
            &src,
        );
        assert_eq!(code, 0, "{pruning}: {err}");
        assert_eq!(out.matches("----------").count(), 92, "{pruning}");
        assert!(stat(&out, "restarts") > 0, "{pruning}: {out}");
        assert!(stat(&out, "nogoodsLearnt") > 0, "{pruning}: {out}");
        stat(&out, "nogoodsUsed");
        stat(&out, "nogoodsDeleted");
    }
    // Without restarts, or below mac: one line, status 1.
    for args in [
        &["--nogoods"][..],
        &["--nogoods", "--restart", "luby", "--pruning", "fc"][..],
    ] {
        let (code, out, err) = fzn_csp(args, &src);
        assert_eq!(code, 1, "{args:?}: {out}");
        assert!(err.contains("nogood recording needs"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn backjump_on_the_command_line() {
    let src = queens("");
    let (code, out, err) = fzn_csp(&["-a", "--pruning", "mac", "--backjump", "cbj"], &src);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("----------").count(), 92);
    // The propagators level (the default) refuses it in one line.
    let (code, _, err) = fzn_csp(&["--backjump", "cbj"], &src);
    assert_eq!(code, 1);
    assert!(
        err.contains("backjumping cbj does not work with pruning propagators"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let (code, _, err) = fzn_csp(&["--backjump", "sideways"], &src);
    assert_eq!(code, 1, "{err}");
}
