//! `int_eq_reif` and `int_ne_reif` items comparing one variable with
//! constants, posted as one `EqualityChannel` per variable where the first
//! of them is
//! (`TranslateOptions::channel_equalities`, which `run` asks for at the
//! propagators level).

use csp_core::rng::SplitMix64;
use csp_core::{Config, Constraint, Posted, Pruning, Solver, Value, VarOrder};
use csp_flatzinc::{Options, TranslateOptions, parse, run, translate};

fn translated(src: &str, channels: bool) -> csp_flatzinc::Translation {
    let options = TranslateOptions {
        channel_equalities: channels,
        ..Default::default()
    };
    translate(&parse(src).unwrap(), &options).unwrap()
}

const SMALL: &str = "\
var 1..4: x :: output_var;
var 1..4: y :: output_var;
var bool: a :: output_var;
var bool: b :: output_var;
var bool: c :: output_var;
var bool: d :: output_var;
constraint int_le(x, y);
constraint int_eq_reif(x, 2, a);
constraint int_ne_reif(3, x, b);
constraint int_eq_reif(y, 4, c);
constraint int_eq_reif(x, 7, d);
constraint bool_clause([a, b], []);
solve satisfy;
";

#[test]
fn the_comparisons_of_one_variable_become_one_channel_named_by_its_first_item() {
    let t = translated(SMALL, true);
    let kinds: Vec<&str> = t.model.posted().iter().map(|c| c.name()).collect();
    // x's three comparisons as one channel where the first is; y's single
    // comparison as itself.
    assert_eq!(
        kinds,
        ["linear", "equality-channel", "linear-reif", "bool-or"],
        "{kinds:?}"
    );
    let Posted::EqualityChannel(channel) = &t.model.posted()[1] else {
        panic!("not a channel");
    };
    let literals: Vec<(Value, bool)> = channel.literals().map(|(c, _, e)| (c, e)).collect();
    assert_eq!(literals, [(2, true), (3, false), (7, true)]);
    assert_eq!(t.posted_by, [Some(0), Some(1), Some(3), Some(5)]);
    // Without the option, one comparison per item.
    let t = translated(SMALL, false);
    assert_eq!(t.model.posted().len(), 6);
}

/// Random models: a few variables, comparisons with constants inside and
/// outside their domains (`=` and `!=`, some Booleans shared), and clauses
/// and sums over the Booleans. With and without channels, the same
/// solutions in the same order, and at the propagators level the same tree.
#[test]
fn channels_solve_as_the_separate_comparisons() {
    let mut rng = SplitMix64::new(11);
    for case in 0..120 {
        let mut src = String::new();
        let vars = 1 + rng.below(3) as usize;
        let bools = 2 + rng.below(5) as usize;
        for v in 0..vars {
            let lo = rng.below(3) as i64 - 1;
            src.push_str(&format!(
                "var {lo}..{}: x{v} :: output_var;\n",
                lo + 1 + rng.below(4) as i64
            ));
        }
        for b in 0..bools {
            src.push_str(&format!("var bool: b{b} :: output_var;\n"));
        }
        for b in 0..bools {
            let v = rng.below(vars as u64);
            let c = rng.below(7) as i64 - 2;
            let op = if rng.below(3) == 0 { "ne" } else { "eq" };
            // Now and then a second comparison for the same Boolean.
            let target = if b > 0 && rng.below(8) == 0 { b - 1 } else { b };
            src.push_str(&format!(
                "constraint int_{op}_reif(x{v}, {c}, b{target});\n"
            ));
        }
        let list = |n: u64, rng: &mut SplitMix64| -> String {
            (0..n)
                .map(|_| format!("b{}", rng.below(bools as u64)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let pos = list(1 + rng.below(2), &mut rng);
        let neg = list(rng.below(2), &mut rng);
        src.push_str(&format!("constraint bool_clause([{pos}], [{neg}]);\n"));
        src.push_str("solve satisfy;\n");
        let (grouped, separate) = (translated(&src, true), translated(&src, false));
        for pruning in Pruning::ALL {
            let config = Config::textbook().with_pruning(pruning);
            let mut a = Solver::new(&grouped.model, config.clone()).unwrap();
            let mut b = Solver::new(&separate.model, config).unwrap();
            let got: Vec<Vec<Value>> = a.solutions().map(|s| s.values().to_vec()).collect();
            let want: Vec<Vec<Value>> = b.solutions().map(|s| s.values().to_vec()).collect();
            assert_eq!(got, want, "case {case}, {pruning:?}:\n{src}");
            if pruning == Pruning::Propagators {
                assert_eq!(a.stats().tried, b.stats().tried, "case {case}:\n{src}");
            }
        }
    }
}

/// `run` at the propagators level and at `mac` (no channels) print the
/// same solutions.
#[test]
fn run_prints_the_same_solutions_with_and_without_channels() {
    let all = |pruning| {
        // A search that learns nothing from failures: `run` then groups.
        let options = Options {
            all_solutions: true,
            pruning,
            var_order: Some(VarOrder::FirstFail),
            ..Default::default()
        };
        let mut out = Vec::new();
        run(SMALL, &options, &mut out).unwrap();
        let mut sols: Vec<String> = String::from_utf8(out)
            .unwrap()
            .split("----------\n")
            .map(String::from)
            .collect();
        sols.sort();
        sols
    };
    let (grouped, separate) = (all(Pruning::Propagators), all(Pruning::ArcConsistency));
    assert_eq!(grouped, separate);
    assert!(grouped.len() > 2, "{grouped:?}");
}
