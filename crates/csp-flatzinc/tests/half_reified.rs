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
            let (src, expected) = if round % 2 == 0 {
                let expected = (-2..=2)
                    .flat_map(|x| (-2..=2).map(move |y| (x, y)))
                    .map(|(x, y)| 1 + usize::from(holds(x, y)))
                    .sum::<usize>();
                (ints(&format!("int_{name}_imp(x, y, r)")), expected)
            } else {
                let expected = 5
                    * (-2..=2)
                        .map(|x| 1 + usize::from(holds(x, k)))
                        .sum::<usize>();
                (ints(&format!("int_{name}_imp(x, {k}, r)")), expected)
            };
            for level in LEVELS {
                assert_eq!(count(&src, level), expected, "{level:?}\n{src}");
            }
            if rel == 3 {
                continue;
            }
            let src = ints(&format!("int_lin_{name}_imp([{a}, {b}], [x, y], {c}, r)"));
            let expected = (-2..=2)
                .flat_map(|x| (-2..=2).map(move |y| (x, y)))
                .map(|(x, y)| 1 + usize::from(holds(a * x + b * y, c)))
                .sum::<usize>();
            for level in LEVELS {
                assert_eq!(count(&src, level), expected, "{level:?}\n{src}");
            }
        }
    }
    // A fixed r: true is the plain constraint, false is nothing.
    assert_eq!(
        count(&ints("int_le_imp(x, y, true)"), Pruning::Propagators),
        2 * 15
    );
    assert_eq!(
        count(&ints("int_le_imp(x, y, false)"), Pruning::Propagators),
        2 * 25
    );
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
        let mut expected = 0;
        for bits in 0..16u32 {
            let [p, q, s, r] = [0, 1, 2, 3].map(|i| bits >> i & 1 == 1);
            expected += usize::from(!r || holds(p, q, s));
        }
        for level in LEVELS {
            assert_eq!(count(&src, level), expected, "{level:?}\n{src}");
        }
    }
}
