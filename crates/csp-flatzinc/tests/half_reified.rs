//! The half-reified builtins (`int_eq_imp`, `int_lin_le_imp`,
//! `bool_clause_imp`, ...: `r -> c`) against a brute force: every solution
//! of random small instances, at every pruning level.

use csp_core::Pruning;
use csp_flatzinc::{Options, run};

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

/// The number of solutions fzn-csp finds for `src` at `pruning`.
fn count(src: &str, pruning: Pruning) -> usize {
    let options = Options {
        all_solutions: true,
        pruning,
        ..Default::default()
    };
    let mut out = Vec::new();
    run(src, &options, &mut out).unwrap_or_else(|e| panic!("{e}\n{src}"));
    String::from_utf8(out)
        .unwrap()
        .matches("----------")
        .count()
}

/// `(r -> c)` counted over `r` for each assignment where `c` does
/// (`holds`) or does not hold: 2 and 1.
fn expected(holds: impl Iterator<Item = bool>) -> usize {
    holds.map(|h| 1 + usize::from(h)).sum()
}

fn check(src: &str, expected: usize) {
    for level in LEVELS {
        assert_eq!(count(src, level), expected, "{level:?}\n{src}");
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
        count(&src, Pruning::Propagators)
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

/// `x`, `y` in -2..=2 and an introduced, unprinted Boolean `r`: MiniZinc's
/// own `r` of a half-reified constraint. `search` is the solve item's
/// annotation (or empty).
fn introduced(constraint: &str, search: &str) -> String {
    format!(
        "var -2..2: x :: output_var;\nvar -2..2: y :: output_var;\n\
         var bool: r :: var_is_introduced;\nconstraint {constraint};\n\
         constraint bool_clause([r], [x_le_0]);\nvar bool: x_le_0 :: var_is_introduced;\n\
         constraint int_le_reif(x, 0, x_le_0);\nsolve {search} satisfy;\n"
    )
}

#[test]
fn enumerations_are_projected_on_the_models_own_variables() {
    // r -> (x <= y), and x <= 0 -> r: the pairs with x > 0 or x <= y, once
    // each, whatever r may take; r is MiniZinc's, not the model's.
    let pairs = (-2..=2i64).flat_map(|x| (-2..=2i64).map(move |y| (x, y)));
    let wanted = pairs.filter(|&(x, y)| x > 0 || x <= y).count();
    let src = introduced("int_le_imp(x, y, r)", "");
    check(&src, wanted);
    // An annotation that decides r first makes r the model's own: every
    // (x, y, r) is then a solution of its own.
    let with_r = introduced(
        "int_le_imp(x, y, r)",
        ":: bool_search([r], input_order, indomain_min, complete)",
    );
    let full = (-2..=2i64)
        .flat_map(|x| (-2..=2i64).map(move |y| (x, y)))
        .map(|(x, y)| match (x <= 0, x <= y) {
            (true, true) => 1,   // r must be true
            (true, false) => 0,  // r true fails, r false breaks the clause
            (false, true) => 2,  // r free
            (false, false) => 1, // r false
        })
        .sum::<usize>();
    check(&with_r, full);
    // An annotation on x only: y is still the model's.
    let on_x = introduced(
        "int_le_imp(x, y, r)",
        ":: int_search([x], input_order, indomain_max, complete)",
    );
    check(&on_x, wanted);
}

#[test]
fn compare_counts_projected_solutions() {
    let src = introduced("int_le_imp(x, y, r)", "");
    let strategies = csp_flatzinc::parse_strategies("check,fc,propagators").unwrap();
    let settings = csp_flatzinc::CompareSettings {
        all_solutions: true,
        ..Default::default()
    };
    let table = csp_flatzinc::compare(&src, &strategies, &settings, |_| {}).unwrap();
    let pairs = (-2..=2i64).flat_map(|x| (-2..=2i64).map(move |y| (x, y)));
    let wanted = pairs.filter(|&(x, y)| x > 0 || x <= y).count() as u64;
    assert_eq!(table.rows.len(), 3);
    for row in &table.rows {
        assert!(row.complete, "{row:?}");
        assert_eq!(row.solutions, wanted, "{row:?}");
    }
}
