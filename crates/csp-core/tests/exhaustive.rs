//! Exhaustive constraint harness (after Gecode's): every sub-domain combination of
//! tiny domains, every narrowing pruning level, every `propagate` call audited
//! against a brute-force enumeration of the constraint's solutions.
//!
//! The public API has no way to build a `PropagationContext`, so each constraint
//! under test is posted inside a [`Spy`]: a constraint that snapshots the domains,
//! calls the real `propagate` with the engine's context, snapshots again and
//! audits the call. The engine then drives the spy as usual:
//! - `Solver::new` runs the root propagation (forward checking without a
//!   trigger, or the AC-3 queue of `ArcConsistency` and `Propagators`);
//! - for forward checking *with* a trigger, the spy ignores the root call and a
//!   variable selector decides the chosen variable first, so the first triggered
//!   call sees exactly the sub-domains with that variable fixed;
//! - every search is run to the end, so deeper calls are audited too, and the
//!   count is compared with brute force.
//!
//! Each audited call must be sound (no solution of the constraint within the
//! input domains loses a value), report `Conflict` only without solutions and
//! `Entailed` only when every remaining combination satisfies the constraint,
//! say `Unchanged` only when nothing changed, and reach its documented strength
//! (for example generalised arc consistency for `Table` and `Element`).

mod harness;

#[path = "exhaustive/globals.rs"]
mod globals;

use std::sync::{Arc, Mutex};

use csp_core::generic::SUPPORT_SEARCH_LIMIT;
use csp_core::{
    AllDifferent, Config, Constraint, Domains, Element, EqualityChannel, Events, Linear, Model,
    NotEqual, Predicate, PropStatus, Propagation, PropagationContext, Pruning, ReifiedCompare,
    Relation, Solver, StateLayout, Table, Value, VarElement, VarId,
};
use harness::*;

// ------------------------------------------------------------------ the cases

const SPARSE: &[Value] = &[-2, 0, 1, 3];
const NEG: &[Value] = &[-1, 0, 2];
const SMALL: &[Value] = &[0, 1, 2, 3];

#[test]
fn not_equal_with_offsets_is_sound_and_arc_consistent() {
    for offset in [0, 1, -3, 2] {
        let c = NotEqual::new(x(0), x(1), offset);
        assert_trustworthy(
            case(
                format!("x0 != x1 + {offset}"),
                c,
                &[SPARSE, &[-1, 0, 2, 3]],
                move |v| v[0] != v[1] + offset,
            )
            .everywhere(Strength::Gac),
        );
    }
}

#[test]
fn not_equal_on_one_variable_twice_is_sound() {
    for offset in [0, 1] {
        let c = NotEqual::new(x(0), x(0), offset);
        assert_trustworthy(case(format!("x0 != x0 + {offset}"), c, &[NEG], move |v| {
            v[0] != v[1] + offset
        }));
    }
}

fn distinct_after_offsets(offsets: Vec<Value>) -> impl Fn(&[Value]) -> bool + Send + Sync {
    move |v: &[Value]| {
        (0..v.len()).all(|i| (i + 1..v.len()).all(|j| v[i] + offsets[i] != v[j] + offsets[j]))
    }
}

/// Pairwise AC from the root and MAC, only the trigger's value under forward
/// checking, GAC (Régin) under propagators.
fn all_different_case(name: &str, vars: &[VarId], offsets: &[Value], doms: &[&[Value]]) -> Case {
    let c = AllDifferent::with_offsets(vars, offsets).unwrap();
    let pairwise = Strength::PairwiseAc(offsets.to_vec());
    case(name, c, doms, distinct_after_offsets(offsets.to_vec())).strength(
        pairwise.clone(),
        Strength::Sound,
        pairwise,
        Strength::Gac,
    )
}

#[test]
fn all_different_is_sound_and_regin_filtering_is_gac() {
    let xs: Vec<VarId> = (0..4).map(x).collect();
    assert_trustworthy(all_different_case(
        "alldiff(x0..x2) sparse",
        &xs[..3],
        &[0, 0, 0],
        &[&[-1, 0, 2, 3], &[0, 2, 3], &[-1, 0, 3]],
    ));
    assert_trustworthy(all_different_case(
        "alldiff(x0..x2) hall sets",
        &xs[..3],
        &[0, 0, 0],
        &[&[0, 1, 2], &[0, 1, 2], &[0, 1, 2]],
    ));
    // 15^4 combinations: a sample of 4,000.
    assert_trustworthy(all_different_case(
        "alldiff(x0..x3) sampled",
        &xs,
        &[0, 0, 0, 0],
        &[&[-1, 0, 1, 3], SMALL, &[0, 1, 2, 4], SPARSE],
    ));
    assert_trustworthy(all_different_case(
        "alldiff(x0..x3) pigeons",
        &xs,
        &[0, 0, 0, 0],
        &[&[0, 1, 2], &[0, 1, 2], &[0, 1, 2], &[0, 1, 2]],
    ));
}

#[test]
fn all_different_with_offsets_is_sound_and_regin_filtering_is_gac() {
    let xs: Vec<VarId> = (0..4).map(x).collect();
    assert_trustworthy(all_different_case(
        "alldiff(x0, x1+1, x2-2)",
        &xs[..3],
        &[0, 1, -2],
        &[SPARSE, &[-1, 0, 1], &[0, 2, 3]],
    ));
    assert_trustworthy(all_different_case(
        "alldiff(x0, x1-1, x2+1, x3)",
        &xs,
        &[0, -1, 1, 0],
        &[&[0, 1, 2], &[0, 1, 3], &[-1, 0, 1], &[0, 2]],
    ));
}

#[test]
fn all_different_with_a_repeated_variable_is_sound() {
    // x0 != x1, x1 != x0 + 1, x0 != x0 + 1 (always true).
    let c = AllDifferent::with_offsets(&[x(0), x(1), x(0)], &[0, 0, 1]).unwrap();
    assert_trustworthy(case(
        "alldiff(x0, x1, x0+1)",
        c,
        &[&[-1, 0, 1, 2], &[0, 1, 2]],
        distinct_after_offsets(vec![0, 0, 1]),
    ));
    // Positions 2 and 3 pair x0 + 1 with x1 - 1; neither is a first position.
    let c = AllDifferent::with_offsets(&[x(0), x(1), x(0), x(1)], &[0, 0, 1, -1]).unwrap();
    assert_trustworthy(case(
        "alldiff(x0, x1, x0+1, x1-1)",
        c,
        &[&[-1, 0, 1, 2], &[0, 1, 2, 3]],
        distinct_after_offsets(vec![0, 0, 1, -1]),
    ));
    // x0 - 1 twice: never true, though x0 differs from both.
    let c = AllDifferent::with_offsets(&[x(0), x(0), x(0)], &[0, -1, -1]).unwrap();
    assert_trustworthy(case(
        "alldiff(x0, x0-1, x0-1)",
        c,
        &[SPARSE],
        distinct_after_offsets(vec![0, -1, -1]),
    ));
    // x0 != x0: never true.
    let c = AllDifferent::new(&[x(0), x(0)]);
    assert_trustworthy(case("alldiff(x0, x0)", c, &[NEG], |v| v[0] != v[1]));
}

fn linear_case(
    coeffs: &[Value],
    vars: &[VarId],
    rel: Relation,
    rhs: Value,
    doms: &[&[Value]],
) -> Case {
    let c = Linear::new(coeffs, vars, rel, rhs).unwrap();
    let a = coeffs.to_vec();
    let spec = move |v: &[Value]| {
        let s: i128 = a.iter().zip(v).map(|(&a, &v)| i128::from(a * v)).sum();
        compare(s, rel, rhs.into())
    };
    let terms: Vec<String> = coeffs
        .iter()
        .zip(vars)
        .map(|(a, v)| format!("{a}*x{}", v.index()))
        .collect();
    let name = format!("{} {rel} {rhs}", terms.join(" + "));
    let repeated = vars.iter().enumerate().any(|(i, v)| vars[..i].contains(v));
    let c = case(name, c, doms, spec);
    if rel == Relation::Ne {
        // One open variable: its one forbidden value goes.
        if repeated {
            c
        } else {
            c.everywhere(Strength::GacWhenOneOpen)
        }
    } else if repeated {
        c
    } else {
        let b = Strength::BoundsR(coeffs.to_vec(), rel, rhs);
        c.strength(Strength::Sound, Strength::Sound, b.clone(), b)
    }
}

#[test]
fn linear_with_negative_coefficients_is_sound_for_every_relation() {
    for rel in Relation::ALL {
        assert_trustworthy(linear_case(
            &[2, -3, 1],
            &[x(0), x(1), x(2)],
            rel,
            1,
            &[SPARSE, NEG, SMALL],
        ));
        assert_trustworthy(linear_case(
            &[3, -2],
            &[x(0), x(1)],
            rel,
            -1,
            &[&[-2, -1, 1, 2], &[-3, 0, 1, 4]],
        ));
        assert_trustworthy(linear_case(&[-2], &[x(0)], rel, 2, &[&[-3, -1, 0, 2]]));
        // Four variables: a sample of the 15 * 7 * 15 * 7 combinations.
        let mut k = linear_case(
            &[1, -2, 3, -1],
            &[x(0), x(1), x(2), x(3)],
            rel,
            2,
            &[SPARSE, NEG, SMALL, &[-3, 1, 2]],
        );
        k.max_combos = 1_500;
        assert_trustworthy(k);
    }
}

/// `b <-> x REL c` and `b -> x REL c` (the cheap reified comparison that
/// `Model::linear_reif` posts for one term): generalised arc consistency at
/// every level, with constants inside, between and beyond the values and at
/// the ends of i64.
#[test]
fn reified_compare_is_gac_for_every_relation_and_both_modes() {
    const MAX: Value = Value::MAX;
    const MIN: Value = Value::MIN;
    let doms: [(&[Value], &[Value]); 3] = [
        (SPARSE, &[-3, -2, -1, 0, 1, 2, 3, 4]),
        (
            &[MIN, MIN + 1, MIN + 3],
            &[MIN, MIN + 1, MIN + 2, MIN + 3, 0],
        ),
        (
            &[MAX - 3, MAX - 1, MAX],
            &[MAX - 3, MAX - 2, MAX - 1, MAX, 0],
        ),
    ];
    for (dom, constants) in doms {
        for &c in constants {
            for rel in Relation::ALL {
                for implication in [false, true] {
                    let k = if implication {
                        ReifiedCompare::implied(x(0), rel, c, x(1))
                    } else {
                        ReifiedCompare::new(x(0), rel, c, x(1))
                    };
                    let spec = move |v: &[Value]| {
                        let holds = compare(v[0].into(), rel, c.into());
                        if implication {
                            v[1] == 0 || holds
                        } else {
                            (v[1] == 1) == holds
                        }
                    };
                    let arrow = if implication { "->" } else { "<->" };
                    let name = format!("x1 {arrow} x0 {rel} {c}");
                    assert_trustworthy(
                        case(name, k, &[dom, &[0, 1]], spec).everywhere(Strength::Gac),
                    );
                }
            }
        }
    }
}

/// `b_i <-> x = c_i` and `b_i <-> x != c_i` for several constants of one
/// variable in one propagator: generalised arc consistency at every level
/// when the `b_i` are distinct (the literals then only share `x`); sound when
/// one `b` serves two literals. Constants inside, outside and repeated.
#[test]
fn equality_channel_is_gac_with_distinct_booleans_and_sound_with_a_shared_one() {
    type Literals = [(Value, bool); 3];
    let cases: [(&[Value], Literals); 4] = [
        (SPARSE, [(0, true), (3, true), (-2, true)]),
        (SPARSE, [(1, true), (2, false), (3, false)]),
        (NEG, [(2, true), (2, false), (-1, true)]),
        (
            &[Value::MIN, 0, Value::MAX],
            [(Value::MAX, true), (Value::MIN, false), (1, true)],
        ),
    ];
    for (dom, lits) in cases {
        let literals: Vec<(Value, VarId, bool)> = lits
            .iter()
            .enumerate()
            .map(|(i, &(c, e))| (c, x(i + 1), e))
            .collect();
        let spec = move |v: &[Value]| {
            lits.iter()
                .enumerate()
                .all(|(i, &(c, e))| v[i + 1] == Value::from((v[0] == c) == e))
        };
        let channel = EqualityChannel::new(x(0), &literals).unwrap();
        assert_trustworthy(
            case(
                format!("channel {lits:?}"),
                channel,
                &[dom, &[0, 1], &[0, 1], &[0, 1]],
                spec,
            )
            .everywhere(Strength::Gac),
        );
        // The first two literals share one b (x1): scope [x0, x1, x1, x2].
        let shared = [
            literals[0],
            (lits[1].0, x(1), lits[1].1),
            (lits[2].0, x(2), lits[2].1),
        ];
        let spec = move |v: &[Value]| {
            lits.iter()
                .enumerate()
                .all(|(i, &(c, e))| v[i + 1] == Value::from((v[0] == c) == e))
        };
        let channel = EqualityChannel::new(x(0), &shared).unwrap();
        assert_trustworthy(case(
            format!("channel {lits:?}, b shared"),
            channel,
            &[dom, &[0, 1], &[0, 1]],
            spec,
        ));
    }
}

#[test]
fn linear_with_a_zero_coefficient_is_sound_for_every_relation() {
    for rel in Relation::ALL {
        assert_trustworthy(linear_case(
            &[1, 0, -1],
            &[x(0), x(1), x(2)],
            rel,
            0,
            &[NEG, &[-1, 1, 5], &[0, 1, 2]],
        ));
    }
}

#[test]
fn linear_with_a_repeated_variable_is_sound_for_every_relation() {
    for rel in Relation::ALL {
        assert_trustworthy(linear_case(
            &[1, -2, 1],
            &[x(0), x(1), x(0)],
            rel,
            1,
            &[SPARSE, &[-1, 0, 1, 2]],
        ));
    }
}

fn table_case(vars: &[VarId], tuples: Vec<Vec<Value>>, doms: &[&[Value]]) -> Case {
    let name = format!("table{:?} of {} tuples", vars, tuples.len());
    let allowed = tuples.clone();
    let c = Table::new(vars, tuples).unwrap();
    case(name, c, doms, move |v| allowed.iter().any(|t| t == v)).everywhere(Strength::Gac)
}

#[test]
fn table_is_sound_and_gac() {
    // Some tuples lie outside the domains.
    assert_trustworthy(table_case(
        &[x(0), x(1)],
        vec![
            vec![-1, 0],
            vec![0, 1],
            vec![2, 1],
            vec![3, 3],
            vec![2, 0],
            vec![5, 5],
            vec![0, -7],
        ],
        &[&[-1, 0, 2, 3], &[0, 1, 3]],
    ));
    let doms: [&[Value]; 3] = [SPARSE, NEG, &[0, 1, 3]];
    let tuples: Vec<Vec<Value>> = assignments(&doms.map(<[Value]>::to_vec))
        .filter(|t| (3 * t[0] + 5 * t[1] + 7 * t[2]).rem_euclid(4) == 1)
        .collect();
    assert_trustworthy(table_case(&[x(0), x(1), x(2)], tuples, &doms));
}

#[test]
fn table_with_a_repeated_variable_is_sound_and_gac() {
    assert_trustworthy(table_case(
        &[x(0), x(1), x(0)],
        vec![
            vec![0, 1, 0],
            vec![1, 1, 2],
            vec![2, 0, 2],
            vec![1, 2, 1],
            vec![-1, 0, -1],
            vec![3, 3, 0],
        ],
        &[&[-1, 0, 1, 2], &[0, 1, 2]],
    ));
}

#[test]
fn empty_table_always_conflicts() {
    assert_trustworthy(table_case(&[x(0), x(1)], vec![], &[&[0, 1], &[-1, 1]]));
}

fn element_spec(array: Vec<Value>) -> impl Fn(&[Value]) -> bool + Send + Sync {
    move |v: &[Value]| (0..array.len() as Value).contains(&v[0]) && array[v[0] as usize] == v[1]
}

#[test]
fn element_is_sound_and_gac_including_out_of_range_indices() {
    let array = vec![3, -2, 3, 0];
    let c = Element::new(x(0), &array, x(1));
    assert_trustworthy(
        case(
            "x1 = [3,-2,3,0][x0]",
            c,
            &[&[-1, 0, 1, 3], &[-2, 0, 3, 5]],
            element_spec(array),
        )
        .everywhere(Strength::Gac),
    );
    let array = vec![1, 1, 2, -1];
    let c = Element::new(x(0), &array, x(1));
    assert_trustworthy(
        case("x1 = [1,1,2,-1][x0]", c, &[SMALL, NEG], element_spec(array))
            .everywhere(Strength::Gac),
    );
}

#[test]
fn element_with_index_as_result_is_sound() {
    // x0 = array[x0]: only x0 = 2.
    let array = vec![1, 2, 2, 0];
    let c = Element::new(x(0), &array, x(0));
    assert_trustworthy(case("x0 = [1,2,2,0][x0]", c, &[SMALL], element_spec(array)));
}

fn var_element_spec(v: &[Value]) -> bool {
    let items = &v[2..];
    (0..items.len() as Value).contains(&v[0]) && items[v[0] as usize] == v[1]
}

#[test]
fn var_element_is_sound_and_filters_the_last_open_variable() {
    let c = VarElement::new(x(0), &[x(2), x(3)], x(1));
    assert_trustworthy(
        case(
            "x1 = [x2, x3][x0]",
            c,
            &[&[-1, 0, 1, 2], &[0, 1, 2], &[0, 2], &[1, 2, 3]],
            var_element_spec,
        )
        .everywhere(Strength::GacWhenOneOpen),
    );
}

#[test]
fn var_element_with_repeated_variables_is_sound() {
    // The index is also an item; the result is also an item.
    let c = VarElement::new(x(0), &[x(0), x(1)], x(2));
    assert_trustworthy(case(
        "x2 = [x0, x1][x0]",
        c,
        &[&[0, 1, 2], &[0, 1], &[-1, 0, 1, 2]],
        var_element_spec,
    ));
    let c = VarElement::new(x(0), &[x(1), x(2)], x(1));
    assert_trustworthy(case(
        "x1 = [x1, x2][x0]",
        c,
        &[&[-1, 0, 1], &[0, 1, 2], &[0, 2]],
        var_element_spec,
    ));
}

/// Generic filtering: forward checking by probing, GAC by support search.
const GENERIC: [Strength; 4] = [
    Strength::GacWhenOneOpen,
    Strength::GacWhenOneOpen,
    Strength::Gac,
    Strength::Gac,
];

#[test]
fn predicate_gets_sound_generic_filtering() {
    let rule = |v: &[Value]| (v[0] - v[1]).abs() == v[2];
    let c = Predicate::new("|x0 - x1| = x2", &[x(0), x(1), x(2)], rule);
    let mut k = case("|x0 - x1| = x2", c, &[SPARSE, NEG, &[0, 1, 3]], rule);
    k.strength = GENERIC;
    assert_trustworthy(k);
    // A repeated variable: x0 * x1 = x0 + 1.
    let rule = |v: &[Value]| v[0] * v[1] == v[2] + 1;
    let c = Predicate::new("x0 * x1 = x0 + 1", &[x(0), x(1), x(0)], rule);
    let mut k = case("x0 * x1 = x0 + 1", c, &[&[-1, 0, 1, 2], SPARSE], rule);
    k.strength = GENERIC;
    assert_trustworthy(k);
}

/// A user constraint with only the two required methods: every other behaviour
/// comes from the defaults in `generic`.
struct CheckOnly {
    scope: Vec<VarId>,
    rule: fn(&[Value]) -> bool,
}

impl Constraint for CheckOnly {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        (self.rule)(values)
    }
}

fn check_only(name: &str, scope: &[VarId], rule: fn(&[Value]) -> bool, doms: &[&[Value]]) -> Case {
    let c = CheckOnly {
        scope: scope.to_vec(),
        rule,
    };
    let mut k = case(name, c, doms, rule);
    k.strength = GENERIC;
    k
}

#[test]
fn check_only_constraint_gets_sound_generic_filtering() {
    assert_trustworthy(check_only(
        "x0 < x1^2",
        &[x(0), x(1)],
        |v| v[0] < v[1] * v[1],
        &[&[-1, 0, 2, 4], &[-2, 0, 1]],
    ));
    assert_trustworthy(check_only(
        "x0 * x1 + x2 odd",
        &[x(0), x(1), x(2)],
        |v| (v[0] * v[1] + v[2]).rem_euclid(2) == 1,
        &[&[-1, 0, 1, 2], &[0, 1, 2], &[-2, 1, 3]],
    ));
    assert_trustworthy(check_only(
        "x0 + x1 = x2 * x3",
        &[x(0), x(1), x(2), x(3)],
        |v| v[0] + v[1] == v[2] * v[3],
        &[&[0, 1, 2], &[0, 1, 2], &[0, 1, 2], &[0, 1, 2]],
    ));
    assert_trustworthy(check_only(
        "x0 - x1 + x0 = 1",
        &[x(0), x(1), x(0)],
        |v| v[0] - v[1] + v[2] == 1,
        &[SPARSE, &[-1, 0, 1, 3]],
    ));
}

#[test]
fn support_search_above_the_tuple_limit_falls_back_to_sound_forward_checking() {
    // 257 * 256 tuples > SUPPORT_SEARCH_LIMIT: arc consistency does not enumerate
    // them, and keeps every value while two variables are open.
    let wide: Vec<Value> = (0..=256).collect();
    let narrow: Vec<Value> = (0..=255).collect();
    assert!((wide.len() * narrow.len()) as u64 > SUPPORT_SEARCH_LIMIT);
    let mut k = check_only(
        "x0 + x1 = x2",
        &[x(0), x(1), x(2)],
        |v| v[0] + v[1] == v[2],
        &[&wide[..], &narrow[..], &[3]],
    );
    k.strength = std::array::from_fn(|_| Strength::Sound);
    let harness = Arc::new(Harness {
        case: k,
        report: Mutex::new(Report::default()),
    });
    let m = model_with(&harness, &harness.case.domains.clone(), false);
    let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::ArcConsistency)).unwrap();
    assert_eq!(s.domains().len(x(0)), 257, "fell back to forward checking");
    let m2 = {
        // Below the limit the same constraint is filtered to GAC.
        let mut m = Model::new();
        let a = m.int_var(0..=255).unwrap();
        let b = m.int_var(0..=255).unwrap();
        let c = m.int_var([3]).unwrap();
        m.post(CheckOnly {
            scope: vec![a, b, c],
            rule: |v| v[0] + v[1] == v[2],
        })
        .unwrap();
        m
    };
    let s2 = Solver::new(
        &m2,
        Config::textbook().with_pruning(Pruning::ArcConsistency),
    )
    .unwrap();
    assert_eq!(
        s2.domains().values(x(0)).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    drop(s);
    drop(m);
    let report = Arc::into_inner(harness)
        .unwrap()
        .report
        .into_inner()
        .unwrap();
    assert_eq!(report.calls[Level::Ac.index()], 1);
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

#[test]
fn extreme_values_and_offsets_do_not_overflow() {
    const MAX: Value = Value::MAX;
    const MIN: Value = Value::MIN;
    for offset in [MAX, MIN, MAX - 1] {
        let c = NotEqual::new(x(0), x(1), offset);
        assert_trustworthy(
            case(
                format!("x0 != x1 + {offset}"),
                c,
                &[&[MAX - 2, MAX - 1, MAX], &[-1, 0, 1]],
                move |v| i128::from(v[0]) != i128::from(v[1]) + i128::from(offset),
            )
            .everywhere(Strength::Gac),
        );
    }
    // Two all-different cases; the second has shifted values within 64 of
    // each other at the top of `i64` (a Hall set of three): Régin's filter
    // on one word, its window ending at `MAX`.
    type AllDiffCase<'a> = (&'a str, [Value; 4], [&'a [Value]; 4]);
    let alldiffs: [AllDiffCase<'_>; 2] = [
        (
            "alldiff with extreme offsets",
            [MAX - 1, 0, MIN, 0],
            [&[-1, 0, 1], &[MAX - 1, MAX], &[MAX - 1, MAX], &[-1, 0]],
        ),
        (
            "alldiff on one word at the top of i64",
            [MAX - 1, 0, 0, MAX - 5],
            [
                &[-1, 0, 1],
                &[MAX - 2, MAX - 1, MAX],
                &[MAX - 1, MAX],
                &[-3, -2],
            ],
        ),
    ];
    for (name, offsets, doms) in alldiffs {
        let c = AllDifferent::with_offsets(&[x(0), x(1), x(2), x(3)], &offsets).unwrap();
        let spec = move |v: &[Value]| {
            let s: Vec<i128> = v
                .iter()
                .zip(offsets)
                .map(|(&v, o)| i128::from(v) + i128::from(o))
                .collect();
            (0..s.len()).all(|i| (i + 1..s.len()).all(|j| s[i] != s[j]))
        };
        assert_trustworthy(case(name, c, &doms, spec).strength(
            Strength::Sound,
            Strength::Sound,
            Strength::Sound,
            Strength::Gac,
        ));
    }
    for rel in Relation::ALL {
        for rhs in [MAX, MIN, 0] {
            let c = Linear::new(&[3, -2], &[x(0), x(1)], rel, rhs).unwrap();
            let spec = move |v: &[Value]| {
                compare(3 * i128::from(v[0]) - 2 * i128::from(v[1]), rel, rhs.into())
            };
            let doms: [&[Value]; 2] = [&[MAX - 2, MAX - 1, MAX], &[MIN, MIN + 1, MIN + 3]];
            let k = case(format!("3*x0 - 2*x1 {rel} {rhs}"), c, &doms, spec);
            assert_trustworthy(if rel == Relation::Ne {
                k.everywhere(Strength::GacWhenOneOpen)
            } else {
                let b = Strength::BoundsR(vec![3, -2], rel, rhs);
                k.strength(Strength::Sound, Strength::Sound, b.clone(), b)
            });
        }
    }
    let array = vec![MIN, MAX, 0];
    let c = Element::new(x(0), &array, x(1));
    assert_trustworthy(
        case(
            "x1 = [MIN, MAX, 0][x0]",
            c,
            &[&[-1, 0, 1, 2], &[MAX - 1, MAX]],
            element_spec(array),
        )
        .everywhere(Strength::Gac),
    );
}

// ------------------------------------------------- the harness can fail (mutants)

/// `x0 != x1` with one deliberate defect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Defect {
    /// Removes the largest value of x1 whatever happens.
    RemovesASupportedValue,
    /// Reports a conflict as soon as x0 is fixed.
    FalseConflict,
    /// Reports `Entailed` at once.
    FalseEntailment,
    /// `promising` rejects x0 = 0 while x1 is open.
    ImpatientPromising,
    /// Never filters, yet claims GAC.
    NoFiltering,
    /// Filters correctly but reports `Unchanged`.
    HidesChanges,
    /// Asks to be woken only when a largest value falls, so a refutation
    /// (`x != min`) that leaves a variable its largest value does not wake it.
    DeafToFixing,
    /// Filters only on every second call, yet claims to be idempotent.
    FalseIdempotence,
    /// Clears a fixed variable's wake-set position, and clears it again on
    /// every later call (an untrailed flag): a position never restored on
    /// backtracking.
    WakeBitNeverRestored,
    /// Clears a fixed variable's wake-set position, trailed (correct: a fixed
    /// variable changes no more on this path); a control.
    WakeBitTrailed,
    /// No defect: the control.
    None,
}

struct Mutant {
    scope: [VarId; 2],
    defect: Defect,
}

impl Constraint for Mutant {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        v[0] != v[1]
    }

    fn events(&self, _: usize) -> Events {
        if self.defect == Defect::DeafToFixing {
            Events::MAX
        } else {
            Events::DOMAIN
        }
    }

    fn idempotent(&self) -> bool {
        self.defect == Defect::FalseIdempotence
    }

    /// Bit set 0: the wake set; hints 0 and 1: "position cleared once";
    /// hint 2: the calls so far.
    fn state_layout(&self, _: Pruning) -> StateLayout {
        StateLayout::new().bits(2, true).hints(3, 0)
    }

    fn wake_set(&self) -> Option<usize> {
        matches!(
            self.defect,
            Defect::WakeBitNeverRestored | Defect::WakeBitTrailed
        )
        .then_some(0)
    }

    fn promising(&self, d: &Domains) -> bool {
        match (d.value(self.scope[0]), d.value(self.scope[1])) {
            (Some(a), Some(b)) => a != b,
            (Some(0), None) => self.defect != Defect::ImpatientPromising,
            _ => true,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let [a, b] = self.scope;
        match self.defect {
            Defect::RemovesASupportedValue if ctx.len(b) > 1 => {
                ctx.remove(b, ctx.max(b))?;
                return Ok(PropStatus::Changed);
            }
            Defect::FalseConflict if ctx.is_fixed(a) => {
                return Err(csp_core::Conflict::infeasible());
            }
            Defect::FalseEntailment => return Ok(PropStatus::Entailed),
            Defect::NoFiltering => return Ok(PropStatus::Unchanged),
            Defect::FalseIdempotence if ctx.pruning() == Pruning::Propagators => {
                let calls = ctx.state_hint(2);
                ctx.set_state_hint(2, calls + 1);
                if calls % 2 == 0 {
                    return Ok(PropStatus::Unchanged);
                }
            }
            Defect::WakeBitNeverRestored | Defect::WakeBitTrailed
                if ctx.pruning() == Pruning::Propagators =>
            {
                for (j, &v) in self.scope.iter().enumerate() {
                    let sticky = self.defect == Defect::WakeBitNeverRestored;
                    if ctx.is_fixed(v) || (sticky && ctx.state_hint(j) == 1) {
                        ctx.clear_state_bit(0, j);
                        ctx.set_state_hint(j, 1);
                    }
                }
            }
            _ => {}
        }
        let mut changed = false;
        if let Some(v) = ctx.value(a) {
            changed |= ctx.remove(b, v)?;
        }
        if let Some(v) = ctx.value(b) {
            changed |= ctx.remove(a, v)?;
        }
        Ok(if changed && self.defect != Defect::HidesChanges {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

#[test]
fn harness_reports_each_kind_of_defect() {
    for defect in [
        Defect::RemovesASupportedValue,
        Defect::FalseConflict,
        Defect::FalseEntailment,
        Defect::ImpatientPromising,
        Defect::NoFiltering,
        Defect::HidesChanges,
        Defect::DeafToFixing,
        Defect::FalseIdempotence,
        Defect::WakeBitNeverRestored,
    ] {
        let c = Mutant {
            scope: [x(0), x(1)],
            defect,
        };
        let k =
            case(format!("{defect:?}"), c, &[NEG, NEG], |v| v[0] != v[1]).everywhere(Strength::Gac);
        let report = run(k);
        assert!(
            !report.violations.is_empty(),
            "the harness missed {defect:?}"
        );
        // The kernel-facing defects are caught by the checks made for them.
        let by = match defect {
            Defect::DeafToFixing | Defect::WakeBitNeverRestored => "woken by every change",
            Defect::FalseIdempotence => "claims to be idempotent",
            _ => "",
        };
        assert!(
            report.violations.iter().any(|v| v.contains(by)),
            "{defect:?}: {:?}",
            report.violations.first()
        );
    }
    // The controls, without a defect, pass.
    for defect in [Defect::None, Defect::WakeBitTrailed] {
        let c = Mutant {
            scope: [x(0), x(1)],
            defect,
        };
        let k = case("control", c, &[NEG, NEG], |v| v[0] != v[1]).everywhere(Strength::Gac);
        assert_eq!(run(k).violations, Vec::<String>::new(), "{defect:?}");
    }
}

#[test]
fn sub_domain_enumeration_visits_every_combination() {
    let doms = vec![vec![-1, 0, 2], vec![5, 7]];
    let all = combos(&doms, 1_000);
    assert_eq!(all.len(), 7 * 3);
    assert!(all.contains(&vec![vec![-1, 2], vec![7]]));
    let sample = combos(&doms, 10);
    assert_eq!(sample.len(), 11);
    assert!(sample.contains(&doms));
}
