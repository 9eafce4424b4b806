//! The pseudo-boolean specialisation of linear constraints against the
//! generic sum and brute force.
//!
//! - The exhaustive harness (see `tests/harness/`) audits every `propagate`
//!   call of [`PseudoBoolean`] on every sub-domain combination: sound,
//!   honest about conflicts and entailment, and bounds(R) consistent at every
//!   level (one call reaches the fixpoint).
//! - Random 0/1 sums (coefficients of both signs, zeros, sometimes one or two
//!   integer terms) posted through [`Model::linear`] (which picks the
//!   specialisation at the propagators level) must have exactly the solutions
//!   of the same sum posted as a generic [`Linear`], of brute force, and at
//!   the root a fixpoint no weaker than the generic one; whole searches with
//!   several such sums must visit no more nodes than with the generic sums.

mod harness;

use csp_core::{
    Config, Linear, Model, Pruning, PseudoBoolean, Relation, Solver, Value, VarId, VarOrder,
};
use harness::*;

const BOOL: &[Value] = &[0, 1];
const INT: &[Value] = &[-2, 0, 1, 3];
/// The relations the 0/1 sum takes (`!=` stays the general sum's).
const PB_RELATIONS: [Relation; 5] = [
    Relation::Eq,
    Relation::Le,
    Relation::Lt,
    Relation::Ge,
    Relation::Gt,
];

fn pb_case(coeffs: &[Value], rel: Relation, rhs: Value, doms: &[&[Value]]) -> Case {
    let vars: Vec<VarId> = (0..coeffs.len()).map(x).collect();
    let bounds: Vec<(Value, Value)> = doms.iter().map(|d| (d[0], d[d.len() - 1])).collect();
    let c = PseudoBoolean::new(coeffs, &vars, rel, rhs, &bounds).unwrap();
    let a = coeffs.to_vec();
    let name = format!("pb {coeffs:?} {rel} {rhs} over {doms:?}");
    let b = Strength::BoundsR(coeffs.to_vec(), rel, rhs);
    case(name, c, doms, move |v| sum_holds(&a, v, rel, rhs)).everywhere(b)
}

#[test]
fn pseudo_boolean_is_sound_and_bounds_consistent_on_every_sub_domain() {
    type PbCase<'a> = (&'a [Value], Value, &'a [&'a [Value]]);
    let cases: [PbCase<'_>; 6] = [
        (&[5, 3, 2, 1], 6, &[BOOL, BOOL, BOOL, BOOL]),
        (&[4, -3, 2, -2], 1, &[BOOL, BOOL, BOOL, BOOL]),
        (&[-1, -7, 0, 3], -4, &[BOOL, BOOL, BOOL, BOOL]),
        (&[3, 3, 3], 3, &[BOOL, BOOL, &[0]]),
        // One integer term: a knapsack with its load.
        (&[4, 3, 2, -1], 0, &[BOOL, BOOL, BOOL, INT]),
        // Two integer terms.
        (&[2, -3, 1, 2], 1, &[BOOL, BOOL, INT, &[-1, 0, 2]]),
    ];
    for (coeffs, rhs, doms) in cases {
        for rel in PB_RELATIONS {
            assert_trustworthy(pb_case(coeffs, rel, rhs, doms));
        }
    }
}

#[test]
fn pseudo_boolean_refuses_what_it_cannot_represent() {
    let v = [x(0), x(1)];
    let b = [(0, 1), (0, 1)];
    assert!(PseudoBoolean::new(&[1], &v, Relation::Le, 1, &b).is_err());
    assert!(PseudoBoolean::new(&[1, 1], &v, Relation::Le, 1, &b[..1]).is_err());
    assert!(PseudoBoolean::new(&[1, 1], &v, Relation::Ne, 1, &b).is_err());
    assert!(PseudoBoolean::new(&[1, 1], &[x(0), x(0)], Relation::Le, 1, &b).is_err());
    let huge = [(0, 1), (0, Value::MAX)];
    assert!(PseudoBoolean::new(&[1, 4], &v, Relation::Le, 1, &huge).is_err());
    assert!(PseudoBoolean::new(&[1, 1], &v, Relation::Le, 1, &b).is_ok());
}

/// A random 0/1 sum over `vars` (the first `bools` are 0/1; the rest range
/// over [-3, 4]), its relation and right-hand side.
fn random_sum(rng: &mut Rng, n: usize) -> (Vec<Value>, Relation, Value) {
    let coeffs: Vec<Value> = (0..n)
        .map(|_| match rng.int(0, 9) {
            0 => 0,
            1..=6 => rng.int(-9, 9),
            _ => rng.int(-40, 40),
        })
        .collect();
    let total: Value = coeffs.iter().map(|a| a.abs()).sum();
    let rel = PB_RELATIONS[rng.int(0, 4) as usize];
    (coeffs, rel, rng.int(-total / 2, total / 2 + 1))
}

fn build(
    n: usize,
    bools: usize,
    sums: &[(Vec<Value>, Relation, Value)],
    generic: bool,
) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let vars: Vec<VarId> = (0..n)
        .map(|i| {
            if i < bools {
                m.int_var(0..=1).unwrap()
            } else {
                m.int_var(-3..=4).unwrap()
            }
        })
        .collect();
    for (coeffs, rel, rhs) in sums {
        if generic {
            // Not through `Model::linear`: no post-time check, so no specialisation.
            m.post(Linear::new(coeffs, &vars, *rel, *rhs).unwrap())
                .unwrap();
        } else {
            m.linear(coeffs, &vars, *rel, *rhs).unwrap();
        }
    }
    (m, vars)
}

fn brute_force(n: usize, bools: usize, sums: &[(Vec<Value>, Relation, Value)]) -> Vec<Vec<Value>> {
    let doms: Vec<Vec<Value>> = (0..n)
        .map(|i| {
            if i < bools {
                vec![0, 1]
            } else {
                (-3..=4).collect()
            }
        })
        .collect();
    assignments(&doms)
        .filter(|a| sums.iter().all(|(c, r, b)| sum_holds(c, a, *r, *b)))
        .collect()
}

fn solutions(m: &Model, config: Config) -> (Vec<Vec<Value>>, u64) {
    let mut s = Solver::new(m, config).unwrap();
    let mut all: Vec<Vec<Value>> = s.solutions().map(|s| s.into_values()).collect();
    all.sort();
    (all, s.stats().tried)
}

#[test]
fn random_zero_one_sums_agree_with_the_generic_sum_and_brute_force() {
    let mut rng = Rng(0x5eed_0b01);
    let mut specialised_roots = 0;
    for round in 0..400 {
        let n = rng.int(2, 7) as usize;
        // Mostly pure 0/1 sums; some with one or two integer terms.
        let bools = match rng.int(0, 5) {
            0 => n.saturating_sub(1).max(2),
            1 => n.saturating_sub(2).max(2),
            _ => n,
        };
        let sums: Vec<_> = (0..rng.int(1, 3))
            .map(|_| random_sum(&mut rng, n))
            .collect();
        let want = brute_force(n, bools, &sums);
        let (pb, _) = build(n, bools, &sums, false);
        let (generic, vars) = build(n, bools, &sums, true);
        for pruning in Pruning::ALL {
            let config = Config::textbook()
                .with_pruning(pruning)
                .with_var_order(VarOrder::FirstFail);
            let (got, nodes) = solutions(&pb, config.clone());
            assert_eq!(got, want, "round {round} {pruning}: {sums:?}");
            let (reference, generic_nodes) = solutions(&generic, config);
            assert_eq!(reference, want, "round {round} {pruning} generic");
            assert!(
                nodes <= generic_nodes,
                "round {round} {pruning}: {nodes} nodes against {generic_nodes}: {sums:?}"
            );
        }
        // The root fixpoint at the propagators level is at least as tight.
        if want.is_empty() {
            // The root may have failed: its domains mean nothing.
            continue;
        }
        let config = Config::textbook().with_pruning(Pruning::Propagators);
        let a = Solver::new(&pb, config.clone()).unwrap();
        let b = Solver::new(&generic, config).unwrap();
        for &v in &vars {
            let mine: Vec<Value> = a.domains().values(v).collect();
            let theirs: Vec<Value> = b.domains().values(v).collect();
            assert!(
                mine.iter().all(|w| theirs.contains(w)),
                "round {round}: {v} keeps {mine:?}, generic {theirs:?}: {sums:?}"
            );
            specialised_roots += usize::from(mine.len() < 2);
        }
    }
    // The rounds did reach fixed variables at the root (the test can fail).
    assert!(specialised_roots > 0);
}

/// A coefficient of `i64::MIN` on a variable fixed to 0 adds nothing to the
/// sum, but `>=` negates it: the sum must not take the 64-bit form then (it
/// overflowed, a panic under debug assertions).
#[test]
fn a_coefficient_of_i64_min_on_a_zero_variable_does_not_overflow() {
    for rel in [Relation::Ge, Relation::Gt, Relation::Le, Relation::Eq] {
        let mut m = Model::new();
        let x = m.int_var(0..=0).unwrap();
        let y = m.int_var(0..=1).unwrap();
        let z = m.int_var(0..=1).unwrap();
        m.linear(&[Value::MIN, 1, 1], &[x, y, z], rel, 1).unwrap();
        let expected = [(0, 0), (0, 1), (1, 0), (1, 1)]
            .iter()
            .filter(|&&(b, c)| rel.holds(i128::from(b + c), 1))
            .count() as u64;
        for pruning in Pruning::ALL {
            let config = Config::textbook().with_pruning(pruning);
            let count = Solver::new(&m, config).unwrap().count().solutions;
            assert_eq!(count, expected, "{rel:?} {pruning}");
        }
    }
}

/// Sums of 64 to 80 Booleans (more than one word of open terms), sometimes
/// with an integer term, two or three to a model over shared variables: every
/// solution is the generic sum's, under several orders, with no more nodes.
#[test]
fn large_zero_one_sums_agree_with_the_generic_sum() {
    let mut rng = Rng(0x1a7e_b001);
    for round in 0..8 {
        let bools = rng.int(64, 80) as usize;
        let n = bools + usize::from(rng.int(0, 2) == 0);
        // Small positive coefficients and a small bound: few solutions.
        let mut sums = Vec::new();
        for k in 0..rng.int(2, 3) {
            let coeffs: Vec<Value> = (0..n)
                .map(|i| match (i < bools, rng.int(0, 5)) {
                    (false, _) => -1,
                    // The first sum covers every Boolean: at most two are 1.
                    (true, 0) if k > 0 => 0,
                    (true, _) => rng.int(1, 3),
                })
                .collect();
            let rel = if k == 0 {
                Relation::Le
            } else {
                PB_RELATIONS[rng.int(0, 4) as usize]
            };
            let rhs = match rel {
                Relation::Le | Relation::Lt | Relation::Eq => rng.int(1, 2),
                _ => rng.int(-3, 0),
            };
            sums.push((coeffs, rel, rhs));
        }
        let (pb, _) = build(n, bools, &sums, false);
        let (generic, _) = build(n, bools, &sums, true);
        for var in [VarOrder::Input, VarOrder::FirstFail, VarOrder::DomOverWdeg] {
            let config = Config::textbook()
                .with_pruning(Pruning::Propagators)
                .with_var_order(var);
            let (got, nodes) = solutions(&pb, config.clone());
            let (want, generic_nodes) = solutions(&generic, config);
            assert_eq!(got, want, "round {round} {var:?}: {sums:?}");
            assert!(!want.is_empty(), "round {round}");
            assert!(
                nodes <= generic_nodes,
                "round {round} {var:?}: {nodes} > {generic_nodes}"
            );
        }
    }
}
