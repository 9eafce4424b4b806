//! The half-reified builtins (`int_eq_imp`, `int_lin_le_imp`,
//! `bool_clause_imp`, ...: `r -> c`) against a brute force: every solution
//! of random small instances, at every pruning level, half-reified and, as
//! an enumeration posts them, fully reified (`r <-> c`).

use csp_core::Pruning;
use csp_flatzinc::{Options, TranslateOptions, parse, run, solve, translate};

/// A tiny deterministic generator (xorshift), so that failures replay.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

/// The number of solutions of `src` at `pruning`, with the `_imp` items
/// half-reified (`full` false) or fully reified.
fn count(src: &str, pruning: Pruning, full: bool) -> u64 {
    let options = TranslateOptions {
        full_reification: full,
        ..Default::default()
    };
    let t = translate(&parse(src).unwrap(), &options).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let options = Options {
        all_solutions: true,
        pruning,
        ..Default::default()
    };
    solve(&t, &options, &mut |_| {}).unwrap().solutions
}

/// `(r -> c)` and `(r <-> c)` counted over `r` for each assignment where `c`
/// does (`holds`) or does not hold.
fn expected(holds: impl Iterator<Item = bool>) -> (u64, u64) {
    holds.fold((0, 0), |(half, full), h| {
        (half + 1 + u64::from(h), full + 1)
    })
}

fn check(src: &str, (half, full): (u64, u64)) {
    for level in LEVELS {
        assert_eq!(count(src, level, false), half, "{level:?}, r -> c\n{src}");
        assert_eq!(count(src, level, true), full, "{level:?}, r <-> c\n{src}");
    }
}

const LEVELS: [Pruning; 4] = [
    Pruning::Check,
    Pruning::ForwardChecking,
    Pruning::ArcConsistency,
    Pruning::Propagators,
];

/// `x`, `y` in -2..=2 and the Boolean `r` (printed), then `constraint`.
fn ints(constraint: &str) -> String {
    format!(
        "var -2..2: x :: output_var;\nvar -2..2: y :: output_var;\n\
         var bool: r :: output_var;\nconstraint {constraint};\nsolve satisfy;\n"
    )
}

#[test]
fn half_reified_comparisons_and_sums_agree_with_brute_force() {
    let mut rng = Rng(0x1_3579_bdf1);
    for round in 0..40 {
        let (a, b, c) = (rng.int(-3, 3), rng.int(-3, 3), rng.int(-4, 4));
        let k = rng.int(-2, 2);
        for (name, rel) in [("eq", 0), ("ne", 1), ("le", 2), ("lt", 3)] {
            let holds = |l: i64, rhs: i64| match rel {
                0 => l == rhs,
                1 => l != rhs,
                2 => l <= rhs,
                _ => l < rhs,
            };
            // A constant second argument every other round.
            let pairs = || (-2..=2).flat_map(|x| (-2..=2).map(move |y| (x, y)));
            if round % 2 == 0 {
                let src = ints(&format!("int_{name}_imp(x, y, r)"));
                check(&src, expected(pairs().map(|(x, y)| holds(x, y))));
            } else {
                let src = ints(&format!("int_{name}_imp(x, {k}, r)"));
                check(&src, expected(pairs().map(|(x, _)| holds(x, k))));
            }
            if rel == 3 {
                continue;
            }
            let src = ints(&format!("int_lin_{name}_imp([{a}, {b}], [x, y], {c}, r)"));
            check(
                &src,
                expected(pairs().map(|(x, y)| holds(a * x + b * y, c))),
            );
        }
    }
    // A fixed r: true is the plain constraint, false is nothing.
    let fixed = |r: &str| {
        let src = ints(&format!("int_le_imp(x, y, {r})"));
        count(&src, Pruning::Propagators, false)
    };
    assert_eq!((fixed("true"), fixed("false")), (2 * 15, 2 * 25));
}

/// A constraint over `p`, `q`, `s` (half-reified by `r`), with its meaning.
type Case = (&'static str, fn(bool, bool, bool) -> bool);

#[test]
fn half_reified_clauses_agree_with_brute_force() {
    let head = "var bool: p :: output_var;\nvar bool: q :: output_var;\n\
                var bool: s :: output_var;\nvar bool: r :: output_var;\n";
    let cases: [Case; 3] = [
        ("bool_clause_imp([p, q], [s], r)", |p, q, s| p || q || !s),
        ("array_bool_or_imp([p, q, s], r)", |p, q, s| p || q || s),
        ("array_bool_and_imp([p, q, s], r)", |p, q, s| p && q && s),
    ];
    for (constraint, holds) in cases {
        let src = format!("{head}constraint {constraint};\nsolve satisfy;\n");
        let all = (0..8u32).map(|bits| {
            let [p, q, s] = [0, 1, 2].map(|i| bits >> i & 1 == 1);
            holds(p, q, s)
        });
        check(&src, expected(all));
    }
}

/// `run` posts the `_imp` items fully reified when it enumerates a
/// satisfaction model's solutions, and half-reified otherwise.
#[test]
fn enumerations_count_each_solution_once() {
    let src = ints("int_le_imp(x, y, r)");
    let mut out = Vec::new();
    let all = Options {
        all_solutions: true,
        ..Default::default()
    };
    run(&src, &all, &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out)
            .unwrap()
            .matches("----------")
            .count(),
        25
    );
    let model =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models/car_config.fzn");
    let car = std::fs::read_to_string(model).unwrap();
    let mut out = Vec::new();
    run(&car, &all, &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out)
            .unwrap()
            .matches("----------")
            .count(),
        8
    );
}
