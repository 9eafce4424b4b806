//! The exhaustive harness of `tests/exhaustive.rs` (see `tests/harness/`) applied
//! to the arithmetic, counting, logic and offset-element constraints: every
//! sub-domain combination of tiny domains, every narrowing pruning level, every
//! `propagate` call audited against brute force, `promising` audited at `check`.
//! Each reference semantics below is written from the documentation, in `i128`,
//! independently of the constraint's `check`.
//!
//! A last group compares whole searches with brute force at every pruning level
//! on domains too large for the harness (the bounds-only paths).

mod harness;

use csp_core::constraints::{
    BoolOr, Count, CountVar, Func, Function, Lit, MinMax, OffsetElement, ReifiedCount,
    ReifiedLinear,
};
use csp_core::{Config, Model, Pruning, Relation, Solver, Value};
use harness::*;

const SPARSE: &[Value] = &[-2, 0, 1, 3];
const NEG: &[Value] = &[-1, 0, 2];
const SMALL: &[Value] = &[0, 1, 2, 3];
const BOOL: &[Value] = &[0, 1];

fn big(v: Value) -> i128 {
    i128::from(v)
}

// ------------------------------------------------------------------ arithmetic

/// The reference semantics of `z = f(x, y)`, `None` where undefined.
fn reference(f: Function, x: i128, y: i128) -> Option<i128> {
    match f {
        Function::Times => Some(x * y),
        // Truncating division: the quotient's magnitude is |x| / |y| rounded
        // down, its sign the product of the signs.
        Function::Div if y == 0 => None,
        Function::Div => {
            let q = x.abs() / y.abs();
            Some(if (x < 0) != (y < 0) { -q } else { q })
        }
        Function::Mod if y == 0 => None,
        Function::Mod => {
            let r = x.abs() % y.abs();
            Some(if x < 0 { -r } else { r })
        }
        Function::Pow if y < 0 => match x {
            0 => None,
            1 => Some(1),
            -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
            _ => Some(0),
        },
        // |x| >= 2 to a power of 64 or more leaves i64: undefined. (The
        // exponents here reach 2^63, so no loop up to y.)
        Function::Pow if x.abs() >= 2 && y >= 64 => None,
        Function::Pow => match x {
            0 => Some(if y == 0 { 1 } else { 0 }),
            1 => Some(1),
            -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
            // In i128, stopping at the first product outside it (undefined too).
            _ => (0..y).try_fold(1i128, |p, _| p.checked_mul(x)),
        },
        Function::Min => Some(x.min(y)),
        Function::Max => Some(x.max(y)),
        Function::Abs => Some(x.abs()),
        Function::Distance => Some((x - y).abs()),
    }
}

const BINARY: [Function; 7] = [
    Function::Times,
    Function::Div,
    Function::Mod,
    Function::Pow,
    Function::Min,
    Function::Max,
    Function::Distance,
];

#[test]
fn every_binary_function_is_sound_and_domain_consistent() {
    for f in BINARY {
        let c = Func::binary(f, x(0), x(1), x(2));
        assert_trustworthy(
            case(
                format!("x2 = {}(x0, x1)", f.name()),
                c,
                &[SPARSE, &[-2, 0, 1, 2], &[-1, 0, 1, 2, 4]],
                move |v| reference(f, big(v[0]), big(v[1])) == Some(big(v[2])),
            )
            .everywhere(Strength::Gac),
        );
    }
}

#[test]
fn abs_is_sound_and_domain_consistent() {
    let c = Func::unary(Function::Abs, x(0), x(1));
    assert_trustworthy(
        case("x1 = |x0|", c, &[&[-3, -1, 0, 1, 2], &[-1, 0, 1, 3]], |v| {
            big(v[0]).abs() == big(v[1])
        })
        .everywhere(Strength::Gac),
    );
}

#[test]
fn functions_over_a_repeated_variable_are_sound() {
    // x1 = x0 * x0, x0 = x0 mod x1, x0 = |x0 - x1| and x1 = |x0 - x0|: the
    // scopes repeat a variable, the tuples are in scope order.
    let cases = [
        ("x1 = x0 * x0", Function::Times, [0, 0, 1]),
        ("x0 = x0 mod x1", Function::Mod, [0, 1, 0]),
        ("x0 = |x0 - x1|", Function::Distance, [0, 1, 0]),
        ("x1 = |x0 - x0|", Function::Distance, [0, 0, 1]),
    ];
    for (name, f, [a, b, c]) in cases {
        assert_trustworthy(
            case(
                name,
                Func::binary(f, x(a), x(b), x(c)),
                &[&[-2, -1, 0, 1, 3], &[-1, 0, 1, 4]],
                move |v| reference(f, big(v[0]), big(v[1])) == Some(big(v[2])),
            )
            .everywhere(Strength::Gac),
        );
    }
}

#[test]
fn max_and_min_of_an_array_are_sound_and_gac_once_one_variable_is_open() {
    assert_trustworthy(
        case(
            "x3 = max(x0, x1, x2)",
            MinMax::max(&[x(0), x(1), x(2)], x(3)),
            &[SPARSE, NEG, &[0, 2], &[-1, 0, 2, 3]],
            |v| v[0..3].iter().max() == Some(&v[3]),
        )
        .everywhere(Strength::GacWhenOneOpen),
    );
    assert_trustworthy(
        case(
            "x3 = min(x0, x1, x2)",
            MinMax::min(&[x(0), x(1), x(2)], x(3)),
            &[SPARSE, NEG, &[0, 2], &[-2, -1, 0, 2]],
            |v| v[0..3].iter().min() == Some(&v[3]),
        )
        .everywhere(Strength::GacWhenOneOpen),
    );
}

#[test]
fn max_with_the_result_in_the_array_is_sound() {
    // x1 = max(x0, x1): x0 <= x1.
    assert_trustworthy(
        case(
            "x1 = max(x0, x1)",
            MinMax::max(&[x(0), x(1)], x(1)),
            &[SPARSE, &[-1, 0, 2]],
            |v| v[0].max(v[1]) == v[1],
        )
        .everywhere(Strength::Gac),
    );
}

// ------------------------------------------------------------------ counting

fn count_of(vars: &[Value], value: Value) -> i128 {
    vars.iter().filter(|&&v| v == value).count() as i128
}

#[test]
fn count_is_sound_and_gac() {
    for value in [0, 2] {
        assert_trustworthy(
            case(
                format!("x3 = count(x0..x2 = {value})"),
                Count::new(&[x(0), x(1), x(2)], value, x(3)),
                &[NEG, &[0, 2], &[0, 1, 2], &[-1, 0, 1, 3]],
                move |v| count_of(&v[..3], value) == big(v[3]),
            )
            .everywhere(Strength::Gac),
        );
    }
}

#[test]
fn at_most_and_at_least_are_sound_and_gac() {
    for n in 0..=3 {
        assert_trustworthy(
            case(
                format!("at most {n} of x0..x3 = 1"),
                Count::at_most(&[x(0), x(1), x(2), x(3)], 1, n),
                &[SMALL, &[1, 2], NEG, &[0, 1]],
                move |v| count_of(v, 1) <= n as i128,
            )
            .everywhere(Strength::Gac),
        );
        assert_trustworthy(
            case(
                format!("at least {n} of x0..x3 = 1"),
                Count::at_least(&[x(0), x(1), x(2), x(3)], 1, n),
                &[SMALL, &[1, 2], NEG, &[0, 1]],
                move |v| count_of(v, 1) >= n as i128,
            )
            .everywhere(Strength::Gac),
        );
    }
}

#[test]
fn count_over_repeated_variables_and_its_own_result_is_sound() {
    assert_trustworthy(case(
        "x1 = count([x0, x0, x1] = 1)",
        Count::new(&[x(0), x(0), x(1)], 1, x(1)),
        &[&[0, 1, 2], &[0, 1, 2, 3]],
        // The scope is [x0, x0, x1, x1].
        |v| count_of(&v[..3], 1) == big(v[3]),
    ));
}

/// `count relation result`, written out for the reference semantics.
fn relates(count: i128, relation: Relation, result: i128) -> bool {
    match relation {
        Relation::Eq => count == result,
        Relation::Ne => count != result,
        Relation::Le => count <= result,
        Relation::Lt => count < result,
        Relation::Ge => count >= result,
        Relation::Gt => count > result,
    }
}

#[test]
fn count_with_a_variable_value_is_sound_and_gac() {
    for relation in Relation::ALL {
        assert_trustworthy(
            case(
                format!("count(x0..x2 = x3) {relation} x4"),
                CountVar::new(&[x(0), x(1), x(2)], x(3), relation, x(4)),
                &[NEG, &[0, 2], &[0, 1, 2], &[-1, 0, 2], &[0, 1, 3]],
                move |v| relates(count_of(&v[..3], v[3]), relation, big(v[4])),
            )
            .everywhere(Strength::Gac),
        );
    }
}

#[test]
fn count_with_a_variable_value_is_sound_and_gac_at_the_i64_edges() {
    // Values and counts near one edge each, the result small, at the bottom
    // or at the top.
    let cases: [[&[Value]; 5]; 3] = [
        [
            &[MAX - 1, MAX],
            &[MAX - 2, MAX],
            HIGH,
            &[MAX - 1, MAX],
            &[0, 1, 2, 3],
        ],
        [LOW, &[MIN, MIN + 2], &[MIN + 1], &[MIN, MIN + 1], LOW],
        [HIGH, &[MAX - 2, MAX - 1], &[MAX], HIGH, HIGH],
    ];
    for relation in Relation::ALL {
        for doms in &cases {
            assert_trustworthy(
                case(
                    format!("count(x0..x2 = x3) {relation} x4 at the edges, {doms:?}"),
                    CountVar::new(&[x(0), x(1), x(2)], x(3), relation, x(4)),
                    doms,
                    move |v| relates(count_of(&v[..3], v[3]), relation, big(v[4])),
                )
                .everywhere(Strength::Gac),
            );
        }
    }
}

#[test]
fn count_with_a_variable_value_over_shared_variables_is_sound() {
    for relation in Relation::ALL {
        // The value is one of the counted variables, the result another, and a
        // variable is counted twice: the scope is [x0, x0, x1, x2, x1, x2].
        assert_trustworthy(case(
            format!("count([x0, x0, x1, x2] = x1) {relation} x2"),
            CountVar::new(&[x(0), x(0), x(1), x(2)], x(1), relation, x(2)),
            &[&[0, 1, 2], &[0, 1, 2], &[0, 1, 2, 3, 4]],
            move |v| relates(count_of(&v[..4], v[4]), relation, big(v[5])),
        ));
        // Value and result the same variable: count(x0..x2 = x3) rel x3.
        assert_trustworthy(case(
            format!("count(x0..x2 = x3) {relation} x3"),
            CountVar::new(&[x(0), x(1), x(2)], x(3), relation, x(3)),
            &[&[0, 1, 2], &[1, 2], &[0, 1, 3], &[0, 1, 2, 3]],
            move |v| relates(count_of(&v[..3], v[3]), relation, big(v[4])),
        ));
    }
}

#[test]
fn reified_count_with_a_variable_value_is_sound() {
    // b <-> count(x0..x2 = x3) rel x4, and b -> ..., b = x5; then with a
    // variable counted twice and the value among the counted variables.
    for relation in Relation::ALL {
        for implication in [false, true] {
            let post = if implication {
                ReifiedCount::implied
            } else {
                ReifiedCount::new
            };
            let holds = move |b: Value, count: bool| {
                if implication {
                    b == 0 || (b == 1 && count)
                } else {
                    b == Value::from(count)
                }
            };
            let arrow = if implication { "->" } else { "<->" };
            assert_trustworthy(case(
                format!("x5 {arrow} count(x0..x2 = x3) {relation} x4"),
                post(&[x(0), x(1), x(2)], x(3), relation, x(4), x(5)),
                &[NEG, &[0, 2], &[0, 1, 2], &[-1, 0, 2], &[0, 1, 3], BOOL],
                move |v| holds(v[5], relates(count_of(&v[..3], v[3]), relation, big(v[4]))),
            ));
            // Values and counts at the i64 edges, as for CountVar above.
            for doms in [
                [&[MAX - 1, MAX][..], HIGH, &[MAX - 1, MAX], &[0, 1, 2], BOOL],
                [LOW, &[MIN, MIN + 1], &[MIN, MIN + 2], LOW, BOOL],
            ] {
                assert_trustworthy(case(
                    format!("x4 {arrow} count(x0..x1 = x2) {relation} x3 at the edges, {doms:?}"),
                    post(&[x(0), x(1)], x(2), relation, x(3), x(4)),
                    &doms,
                    move |v| holds(v[4], relates(count_of(&v[..2], v[2]), relation, big(v[3]))),
                ));
            }
            assert_trustworthy(case(
                format!("x3 {arrow} count([x0, x0, x1] = x1) {relation} x2"),
                post(&[x(0), x(0), x(1)], x(1), relation, x(2), x(3)),
                &[&[0, 1, 2], &[0, 1], &[0, 1, 2, 3], BOOL],
                move |v| holds(v[5], relates(count_of(&v[..3], v[3]), relation, big(v[4]))),
            ));
        }
    }
}

// ------------------------------------------------------------------ logic

#[test]
fn clauses_are_sound_and_gac() {
    let lits = [Lit::pos(x(0)), Lit::neg(x(1)), Lit::pos(x(2))];
    assert_trustworthy(
        case(
            "x0 or not x1 or x2",
            BoolOr::clause(&lits),
            &[BOOL, BOOL, BOOL],
            |v| v[0] == 1 || v[1] == 0 || v[2] == 1,
        )
        .everywhere(Strength::Gac),
    );
    for positive in [true, false] {
        let r = if positive {
            Lit::pos(x(3))
        } else {
            Lit::neg(x(3))
        };
        assert_trustworthy(
            case(
                format!("{positive} x3 <-> (x0 or not x1 or x2)"),
                BoolOr::reified(&lits, r),
                &[BOOL, BOOL, BOOL, BOOL],
                move |v| ((v[3] == 1) == positive) == (v[0] == 1 || v[1] == 0 || v[2] == 1),
            )
            .everywhere(Strength::Gac),
        );
    }
}

#[test]
fn reified_and_implied_linear_are_sound_for_every_relation() {
    for rel in Relation::ALL {
        let spec = move |v: &[Value]| compare(2 * big(v[0]) - big(v[1]), rel, 1);
        assert_trustworthy(
            case(
                format!("x2 <-> 2 x0 - x1 {rel} 1"),
                ReifiedLinear::new(&[2, -1], &[x(0), x(1)], rel, 1, x(2)).unwrap(),
                &[NEG, &[1, 2, 3], BOOL],
                move |v| (v[2] == 1) == spec(v),
            )
            .everywhere(Strength::GacWhenOneOpen),
        );
        assert_trustworthy(
            case(
                format!("x2 -> 2 x0 - x1 {rel} 1"),
                ReifiedLinear::implied(&[2, -1], &[x(0), x(1)], rel, 1, x(2)).unwrap(),
                &[NEG, &[1, 2, 3], BOOL],
                move |v| v[2] == 0 || spec(v),
            )
            .everywhere(Strength::GacWhenOneOpen),
        );
    }
}

#[test]
fn reified_linear_over_its_own_control_variable_is_sound() {
    // x1 <-> x0 + x1 >= 2.
    assert_trustworthy(case(
        "x1 <-> x0 + x1 >= 2",
        ReifiedLinear::new(&[1, 1], &[x(0), x(1)], Relation::Ge, 2, x(1)).unwrap(),
        &[SMALL, BOOL],
        |v| (v[2] == 1) == (big(v[0]) + big(v[1]) >= 2),
    ));
}

// ------------------------------------------------------------------ element

#[test]
fn element_with_an_offset_is_sound_and_gac_over_constants() {
    for offset in [1, -2] {
        let array = [3, -2, 3, 0];
        assert_trustworthy(
            case(
                format!("x1 = [3,-2,3,0][x0 - {offset}]"),
                OffsetElement::new(x(0), &array, offset, x(1)),
                &[&[-2, 0, 1, 4], &[-2, 0, 3, 5]],
                move |v| {
                    let i = big(v[0]) - big(offset);
                    (0..4).contains(&i) && big(array[i as usize]) == big(v[1])
                },
            )
            .everywhere(Strength::Gac),
        );
    }
    // x0 = [1, 0, 3][x0 - 1]: the fixed points 1 and 3.
    assert_trustworthy(
        case(
            "x0 = [1,0,3][x0 - 1]",
            OffsetElement::new(x(0), &[1, 0, 3], 1, x(0)),
            &[&[0, 1, 2, 3]],
            |v| {
                let i = big(v[0]) - 1;
                (0..3).contains(&i) && [1, 0, 3][i as usize] == big(v[1])
            },
        )
        .everywhere(Strength::Gac),
    );
}

#[test]
fn element_over_variables_with_an_offset_filters_the_last_open_variable() {
    let spec = |v: &[Value]| match v[0] {
        1 => v[2] == v[1],
        2 => v[3] == v[1],
        _ => false,
    };
    assert_trustworthy(
        case(
            "x1 = [x2, x3][x0 - 1]",
            OffsetElement::with_vars(x(0), &[x(2), x(3)], 1, x(1)),
            &[&[0, 1, 2, 3], &[0, 1, 2], &[0, 2], &[1, 2, 3]],
            spec,
        )
        .everywhere(Strength::GacWhenOneOpen),
    );
    // The index among the items: x0 = [x1, x0][x0 - 1].
    assert_trustworthy(case(
        "x0 = [x1, x0][x0 - 1]",
        OffsetElement::with_vars(x(0), &[x(1), x(0)], 1, x(0)),
        &[&[0, 1, 2, 3], &[0, 1, 2]],
        |v| match v[0] {
            1 => v[2] == v[1],
            2 => v[3] == v[1],
            _ => false,
        },
    ));
}

// ------------------------------------------------------------------ large domains

/// Every pruning level counts what brute force counts.
fn agrees_at_every_level(m: &Model, name: &str) {
    let domains: Vec<Vec<Value>> = m.vars().map(|v| m.domain(v).unwrap().values()).collect();
    let want = assignments(&domains).filter(|a| m.is_solution(a)).count() as u64;
    assert!(want > 0, "{name}: a test without solutions says little");
    for pruning in Pruning::ALL {
        let mut s = Solver::new(m, Config::textbook().with_pruning(pruning)).unwrap();
        let r = s.count();
        assert!(r.is_complete());
        assert_eq!(r.solutions, want, "{name} under {pruning}");
    }
    let binary = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_binary_branching(true);
    let r = Solver::new(m, binary).unwrap().count();
    assert!(r.is_complete());
    assert_eq!(r.solutions, want, "{name} under propagators, binary");
}

#[test]
fn functions_over_large_domains_agree_with_brute_force() {
    for f in BINARY {
        let mut m = Model::new();
        let a = m.int_var(-50..=50).unwrap();
        let b = m.int_var(-45..=45).unwrap();
        let c = m.int_var(-6..=9).unwrap();
        m.post(Func::binary(f, a, b, c)).unwrap();
        const { assert!(101 * 91 > csp_core::constraints::ENUMERATION_LIMIT) };
        agrees_at_every_level(&m, f.name());
    }
    let mut m = Model::new();
    let a = m.int_var(-5000..=5000).unwrap();
    let r = m.int_var(-3..=40).unwrap();
    m.abs(a, r).unwrap();
    agrees_at_every_level(&m, "abs");
    // A result far wider than the pairs of values (a result over 0..1000
    // with at most 60 supported values): the gaps between the supported
    // results go as ranges, inside the bounds, from a variable that starts
    // as an interval and from one with bits.
    for f in BINARY {
        for holes in [false, true] {
            let mut m = Model::new();
            let a = m.int_var([-7, -2, 0, 3, 9, 40]).unwrap();
            let b = m.int_var(-4..=5).unwrap();
            let values = (-300..=700).filter(|v| !holes || v % 7 != 3);
            let c = m.int_var(values.collect::<Vec<_>>()).unwrap();
            m.post(Func::binary(f, a, b, c)).unwrap();
            agrees_at_every_level(&m, f.name());
        }
    }
    // A factor of one sign: the other factor's bounds follow from the product's.
    for f in [Function::Times, Function::Div, Function::Mod] {
        let mut m = Model::new();
        let a = m.int_var(-50..=50).unwrap();
        let b = m.int_var(-60..=-3).unwrap();
        let c = m.int_var(-6..=9).unwrap();
        m.post(Func::binary(f, a, b, c)).unwrap();
        agrees_at_every_level(&m, f.name());
    }
}

#[test]
fn model_methods_agree_with_brute_force() {
    let mut m = Model::new();
    let xs = m.int_var_array("x", 4, 0..=3).unwrap();
    let b = m.bool_var();
    let c = m.bool_var();
    let twos = m.int_var(0..=4).unwrap();
    let top = m.int_var(0..=3).unwrap();
    let low = m.int_var(0..=3).unwrap();
    let i = m.int_var(1..=4).unwrap();
    m.count(&xs, 2, twos).unwrap();
    m.at_most(&xs, 0, 1).unwrap();
    m.at_least(&xs, 3, 1).unwrap();
    m.max(&xs, top).unwrap();
    m.min(&xs[..2], low).unwrap();
    m.linear_reif(&[1, 1], &[xs[0], xs[1]], Relation::Ge, 4, b)
        .unwrap();
    m.linear_imp(&[1], &[twos], Relation::Le, 1, c).unwrap();
    m.clause(&[b, c], &[]).unwrap();
    m.element_var_offset(i, &xs, 1, top).unwrap();
    m.distance(xs[2], xs[3], low).unwrap();
    agrees_at_every_level(&m, "mixed");

    let mut m = Model::new();
    let a = m.int_var(-3..=3).unwrap();
    let b = m.int_var([-2, -1, 1, 2]).unwrap();
    let q = m.int_var(-3..=3).unwrap();
    let r = m.int_var(-2..=2).unwrap();
    let p = m.int_var(-6..=6).unwrap();
    let k = m.int_var(0..=3).unwrap();
    let one = m.constant(1).unwrap();
    m.div(a, b, q).unwrap();
    m.modulo(a, b, r).unwrap();
    m.times(q, b, p).unwrap();
    m.abs(r, k).unwrap();
    m.element_offset(k, &[5, 1, 7, 9], 0, one).unwrap();
    m.element_offset(q, &[1, 0, 1, 1, 0, 1, 1], -3, k).unwrap();
    agrees_at_every_level(&m, "arithmetic");
}

// ------------------------------------------------------------------ i64 edges

// Each set below lies at one end of the integers, but `BOTH`, which spans
// the whole of `i64` (a wide domain: bounds and holes, no bits).
const MIN: Value = Value::MIN;
const MAX: Value = Value::MAX;
/// Dividends and factors at the bottom and at the top.
const LOW: &[Value] = &[MIN, MIN + 1, MIN + 2];
const HIGH: &[Value] = &[MAX - 2, MAX - 1, MAX];
/// Divisors, factors and exponents that make the ends overflow or not.
const EDGE_Y: &[Value] = &[-1, 1, 2];
/// Results around 0 (`MIN mod -1`, `MIN div MIN`).
const ZERO: &[Value] = &[-1, 0, 1];
/// Both ends and 0: one wide domain over all of `i64`, with holes.
const BOTH: &[Value] = &[MIN, MIN + 1, 0, 1, MAX];

#[test]
fn every_function_is_sound_and_domain_consistent_at_the_i64_edges() {
    for f in BINARY {
        for (xs, ys, zs) in [
            (LOW, EDGE_Y, LOW),
            (LOW, EDGE_Y, ZERO),
            (LOW, EDGE_Y, HIGH),
            (HIGH, EDGE_Y, HIGH),
            (HIGH, EDGE_Y, ZERO),
            (HIGH, EDGE_Y, LOW),
            // The ends as divisors and second factors.
            (&[-1, 0, 2][..], LOW, ZERO),
            (&[-1, 0, 2][..], HIGH, ZERO),
            (LOW, LOW, ZERO),
            (HIGH, HIGH, ZERO),
            // Wide domains with holes, touching both ends.
            (BOTH, &[-1, 2][..], BOTH),
        ] {
            let c = Func::binary(f, x(0), x(1), x(2));
            assert_trustworthy(
                case(
                    format!("x2 = {}(x0, x1) over {xs:?}, {ys:?}, {zs:?}", f.name()),
                    c,
                    &[xs, ys, zs],
                    move |v| reference(f, big(v[0]), big(v[1])) == Some(big(v[2])),
                )
                .everywhere(Strength::Gac),
            );
        }
    }
    for (xs, zs) in [(LOW, HIGH), (HIGH, HIGH), (LOW, LOW), (BOTH, BOTH)] {
        let c = Func::unary(Function::Abs, x(0), x(1));
        assert_trustworthy(
            case(
                format!("x1 = |x0| over {xs:?}, {zs:?}"),
                c,
                &[xs, zs],
                |v| big(v[0]).abs() == big(v[1]),
            )
            .everywhere(Strength::Gac),
        );
    }
}

/// Every pruning level counts what the `i128` reference counts, over every
/// assignment of the declared domains (the constraints' own `check` is not
/// the judge here).
fn matches_reference(m: &Model, name: &str, holds: &dyn Fn(&[Value]) -> bool) {
    let domains: Vec<Vec<Value>> = m.vars().map(|v| m.domain(v).unwrap().values()).collect();
    let want = assignments(&domains).filter(|a| holds(a)).count() as u64;
    assert!(want > 0, "{name}: a test without solutions says little");
    let binary = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_binary_branching(true);
    let configs = Pruning::ALL
        .iter()
        .map(|&p| Config::textbook().with_pruning(p))
        .chain([binary]);
    for config in configs {
        let what = format!("{name} under {:?}", config.pruning);
        let mut s = Solver::new(m, config).unwrap();
        let mut got = 0;
        while let Some(sol) = s.next_solution() {
            assert!(
                holds(sol.values()),
                "{what}: a wrong solution {:?}",
                sol.values()
            );
            got += 1;
        }
        assert!(s.status().is_complete(), "{what}");
        assert_eq!(got, want, "{what}");
    }
}

#[test]
fn int_mod_of_min_by_minus_one_is_zero() {
    // The attack's case: x in MIN..MIN+1, y in -1..1; MIN mod -1 = 0.
    let mut m = Model::new();
    let a = m.int_var(MIN..=MIN + 1).unwrap();
    let b = m.int_var(-1..=1).unwrap();
    let r = m.int_var(-1..=1).unwrap();
    m.modulo(a, b, r).unwrap();
    for pruning in Pruning::ALL {
        let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
        let sols: Vec<Vec<Value>> = s.solutions().map(|s| s.values().to_vec()).collect();
        assert!(s.status().is_complete());
        assert_eq!(sols.len(), 4, "{pruning}: {sols:?}");
        assert!(sols.contains(&vec![MIN, -1, 0]), "{pruning}: {sols:?}");
    }
}

#[test]
fn functions_over_large_domains_at_the_edges_agree_with_the_reference() {
    // Past the enumeration limit: the bounds-only paths, at both ends, with
    // results near each end and near 0.
    let results: [Vec<Value>; 3] = [
        (MIN..=MIN + 40).collect(),
        (-20..=20).collect(),
        (MAX - 40..=MAX).collect(),
    ];
    for f in BINARY {
        for (lo, hi) in [(MIN, MIN + 70), (MAX - 70, MAX)] {
            for z in &results {
                let mut m = Model::new();
                let a = m.int_var(lo..=hi).unwrap();
                let b = m.int_var(-60..=60).unwrap();
                let c = m.int_var(z.clone()).unwrap();
                m.post(Func::binary(f, a, b, c)).unwrap();
                const { assert!(71 * 121 > csp_core::constraints::ENUMERATION_LIMIT) };
                let domains: Vec<Vec<Value>> =
                    m.vars().map(|v| m.domain(v).unwrap().values()).collect();
                let reach = |v: &[Value]| reference(f, big(v[0]), big(v[1])) == Some(big(v[2]));
                if !assignments(&domains).any(|a| reach(&a)) {
                    continue; // nothing to count for this end and these results
                }
                let name = format!("{} over {lo}..={hi}, results from {}", f.name(), z[0]);
                matches_reference(&m, &name, &reach);
            }
        }
    }
    let mut m = Model::new();
    let a = m.int_var(MIN..=MIN + 5000).unwrap();
    let r = m.int_var(MAX - 40..=MAX).unwrap();
    m.abs(a, r).unwrap();
    matches_reference(&m, "abs at MIN", &|v| big(v[0]).abs() == big(v[1]));
}

#[test]
fn linear_sums_and_views_at_the_edges_agree_with_the_reference() {
    // x - y = d near the top, x + y <= MIN + 3 near the bottom: sums that
    // leave i64 on the way are exact (i128), never wrapped.
    let mut m = Model::new();
    let x = m.int_var(MAX - 4..=MAX).unwrap();
    let y = m.int_var(MAX - 6..=MAX).unwrap();
    let d = m.int_var(-2..=3).unwrap();
    m.linear(&[1, -1, -1], &[x, y, d], Relation::Eq, 0).unwrap();
    matches_reference(&m, "x - y = d near MAX", &|v| {
        big(v[0]) - big(v[1]) == big(v[2])
    });
    let mut m = Model::new();
    let x = m.int_var(MIN..=MIN + 5).unwrap();
    let y = m.int_var(MIN..=MIN + 6).unwrap();
    m.linear(&[1, 1], &[x, y], Relation::Le, MIN + 3).unwrap();
    matches_reference(&m, "x + y <= MIN + 3", &|v| {
        big(v[0]) + big(v[1]) <= big(MIN) + 3
    });
    // Views near the ends: v = x - 5 with x at the top, w = -x at the bottom
    // (-MIN does not exist: the view is refused, not wrapped).
    let mut m = Model::new();
    let x = m.int_var(MAX - 3..=MAX).unwrap();
    let k = m.int_var(MAX - 9..=MAX).unwrap();
    let v = m.offset_view(x, -5).unwrap();
    m.not_equal(v, k).unwrap();
    // The view is enumerated like a variable here: it must equal x - 5.
    matches_reference(&m, "x - 5 != k near MAX", &|a| {
        big(a[2]) == big(a[0]) - 5 && big(a[2]) != big(a[1])
    });
    let mut m = Model::new();
    let x = m.int_var(MIN..=MIN + 2).unwrap();
    assert!(m.minus_view(x).is_err(), "-MIN must be refused");
    let mut m = Model::new();
    let y = m.int_var(MIN + 1..=MIN + 3).unwrap();
    let k = m.int_var(MAX - 1..=MAX).unwrap();
    let w = m.minus_view(y).unwrap();
    m.equal(w, k).unwrap();
    matches_reference(&m, "-y = k near MIN", &|a| {
        big(a[2]) == -big(a[0]) && big(a[2]) == big(a[1])
    });
}
