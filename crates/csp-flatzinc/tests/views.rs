//! Views in FlatZinc: `tests/models/views.fzn` defines four variables as
//! `a·x + c` of others (`int_lin_eq` with two terms, `int_plus`,
//! `int_times`, `bool2int`, each with `defines_var`). They become views (a
//! copy, as `bool2int` is, becomes the variable itself under a second name),
//! the defining constraints are not posted, and the answer is the one of the
//! same model without the annotations (every variable and constraint kept).

use std::path::Path;

use csp_core::{Pruning, Value};
use csp_flatzinc::{Options, TranslateOptions, Translation, parse, solve, translate};

fn model(strip: bool) -> Translation {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models/views.fzn");
    let mut src = std::fs::read_to_string(path).unwrap();
    if strip {
        // Without `defines_var`, nothing is a definition: no view.
        src = src
            .lines()
            .map(|l| {
                l.split(":: defines_var")
                    .next()
                    .unwrap()
                    .trim_end_matches(';')
                    .to_string()
                    + ";"
            })
            .collect::<Vec<_>>()
            .join("\n");
    }
    translate(&parse(&src).unwrap(), &TranslateOptions::default()).unwrap()
}

/// Every solution, as the output variables' values in declaration order.
fn solutions(t: &Translation, pruning: Pruning) -> Vec<Vec<Value>> {
    let mut out = Vec::new();
    let options = Options {
        all_solutions: true,
        pruning,
        ..Options::default()
    };
    let outcome = solve(t, &options, &mut |values| {
        out.push(
            t.outputs
                .iter()
                .flat_map(|o| o.values.iter().map(|&s| scalar(s, values)))
                .collect(),
        );
    })
    .unwrap();
    assert!(outcome.status.is_complete());
    out.sort();
    out
}

fn scalar(s: csp_flatzinc::Scalar, values: &[Value]) -> Value {
    match s {
        csp_flatzinc::Scalar::IntVar(v) | csp_flatzinc::Scalar::BoolVar(v) => values[v.index()],
        csp_flatzinc::Scalar::Int(c) => c,
        csp_flatzinc::Scalar::Bool(b) => Value::from(b),
    }
}

#[test]
fn defined_variables_become_views_and_the_answer_is_unchanged() {
    let with_views = model(false);
    let without = model(true);
    let m = &with_views.model;
    // y, z and w are views (and no constant was needed after them); i is b.
    let views: Vec<String> = m
        .vars()
        .filter(|&v| m.view_of(v).is_some())
        .map(|v| m.var_name(v))
        .collect();
    assert_eq!(views, ["y", "z", "w"]);
    let output = |name: &str| {
        let o = with_views.outputs.iter().find(|o| o.name == name).unwrap();
        match o.values[..] {
            [csp_flatzinc::Scalar::IntVar(v) | csp_flatzinc::Scalar::BoolVar(v)] => v,
            _ => panic!("{name} is not a variable"),
        }
    };
    assert_eq!(output("i"), output("b"));
    assert_eq!(without.model.num_views(), 0);
    // The four defining constraints are gone.
    assert_eq!(
        m.num_constraints() + 4,
        without.model.num_constraints(),
        "views: {} constraints, without: {}",
        m.num_constraints(),
        without.model.num_constraints()
    );
    // z = y + 4 = 2x + 1 is a view of x.
    let z = m.vars().find(|&v| m.var_name(v) == "z").unwrap();
    let x = m.vars().find(|&v| m.var_name(v) == "x").unwrap();
    assert_eq!(m.view_of(z), Some((x, 2, 1)));
    // y's and w's domains cut x to 0..=3.
    assert_eq!(m.domain(x).unwrap().values(), [0, 1, 2, 3]);
    for pruning in [
        Pruning::Check,
        Pruning::ForwardChecking,
        Pruning::Propagators,
    ] {
        let got = solutions(&with_views, pruning);
        assert_eq!(got.len(), 4, "{pruning}");
        assert_eq!(got, solutions(&without, pruning), "{pruning}");
    }
}

/// Found in review: an array naming an alias of a view was declared before
/// the alias (the alias waits for the views), and the translation failed
/// with "unknown identifier". Deferral is now transitive.
#[test]
fn an_array_naming_an_alias_of_a_view_waits_for_it() {
    let src = "var 0..5: x :: output_var;\n\
               var 1..6: y :: is_defined_var;\n\
               var 1..6: a :: output_var = y;\n\
               var 1..6: c = a;\n\
               array [1..2] of var int: arr :: output_array([1..2]) = [a, c];\n\
               constraint int_plus(x, 1, y) :: defines_var(y);\n\
               solve satisfy;\n";
    let t = translate(&parse(src).unwrap(), &TranslateOptions::default()).unwrap();
    assert_eq!(t.model.num_views(), 1, "y is a view of x");
    let options = Options {
        all_solutions: true,
        ..Options::default()
    };
    let mut out = Vec::new();
    csp_flatzinc::run(src, &options, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("----------").count(), 6, "{text}");
    assert!(
        text.contains("x = 5;\na = 6;\narr = array1d(1..2, [6, 6]);"),
        "{text}"
    );
}
