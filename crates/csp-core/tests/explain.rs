//! Explanations on planted conflicts: random satisfiable models plus one to
//! three constraints that cannot hold together; the explanation must be
//! those, or another set that brute force proves unsatisfiable and minimal.

use csp_core::explain::{self, Explainer, Verdict};
use csp_core::rng::SplitMix64;
use csp_core::{Config, ConstraintId, Model, Pruning, Relation, Value, VarId};

/// Domains `0..D` for `N` variables: 4^7 = 16,384 assignments to enumerate.
const N: usize = 7;
const D: Value = 4;

/// Whether the constraints `subset` of `m` have a solution, by enumerating
/// every assignment (independent of the solver).
fn brute_force_sat(m: &Model, subset: &[ConstraintId]) -> bool {
    let total = (D as u64).pow(N as u32);
    let mut values = [0; N];
    let mut scoped = Vec::new();
    (0..total).any(|code| {
        let mut c = code;
        for v in values.iter_mut() {
            *v = (c % D as u64) as Value;
            c /= D as u64;
        }
        subset.iter().all(|&id| {
            let con = m.constraint(id).unwrap();
            scoped.clear();
            scoped.extend(con.scope().iter().map(|v| values[v.index()]));
            con.check(&scoped)
        })
    })
}

/// A random model satisfied by a hidden assignment: disequalities where the
/// hidden values differ, and linear inequalities with a little slack.
fn satisfiable_model(rng: &mut SplitMix64, constraints: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let x = m.int_var_array("x", N, 0..=D - 1).unwrap();
    let hidden: Vec<Value> = (0..N).map(|_| rng.below(D as u64) as Value).collect();
    while m.num_constraints() < constraints {
        let i = rng.below(N as u64) as usize;
        let j = rng.below(N as u64) as usize;
        if i == j {
            continue;
        }
        if rng.below(2) == 0 {
            if hidden[i] != hidden[j] {
                m.not_equal(x[i], x[j]).unwrap();
            }
        } else {
            let a = rng.below(5) as Value - 2;
            let b = rng.below(5) as Value - 2;
            let rhs = a * hidden[i] + b * hidden[j] + rng.below(3) as Value;
            m.linear(&[a, b], &[x[i], x[j]], Relation::Le, rhs).unwrap();
        }
    }
    assert!(m.is_solution(&hidden));
    (m, x)
}

/// Plants `k` (1 to 3) constraints that cannot all hold, on random
/// variables; returns their ids.
fn plant(rng: &mut SplitMix64, m: &mut Model, x: &[VarId], k: usize) -> Vec<ConstraintId> {
    let mut pick = || x[rng.below(N as u64) as usize];
    match k {
        // Alone impossible: two variables summing above their maxima.
        1 => {
            let (a, b) = (pick(), pick());
            vec![m.linear(&[1, 1], &[a, b], Relation::Ge, 2 * D - 1).unwrap()]
        }
        // A bound below and a bound above that cross.
        2 => {
            let a = pick();
            vec![
                m.linear(&[1], &[a], Relation::Le, 1).unwrap(),
                m.linear(&[1], &[a], Relation::Ge, 2).unwrap(),
            ]
        }
        // A cycle of strict orders.
        _ => {
            let (a, b, c) = loop {
                let t = (pick(), pick(), pick());
                if t.0 != t.1 && t.1 != t.2 && t.0 != t.2 {
                    break t;
                }
            };
            vec![
                m.less_than(a, b).unwrap(),
                m.less_than(b, c).unwrap(),
                m.less_than(c, a).unwrap(),
            ]
        }
    }
}

/// Checks that `found` is unsatisfiable and minimal by brute force.
fn assert_minimal(m: &Model, found: &[ConstraintId], seed: u64) {
    assert!(
        !brute_force_sat(m, found),
        "seed {seed}: {found:?} has a solution"
    );
    for i in 0..found.len() {
        let mut rest = found.to_vec();
        rest.remove(i);
        assert!(
            brute_force_sat(m, &rest),
            "seed {seed}: {found:?} is not minimal, {:?} is enough",
            rest
        );
    }
}

#[test]
fn planted_conflicts_are_found_or_a_verified_minimal_one() {
    let configs = [
        Config::default(),
        Config::textbook().with_pruning(Pruning::ForwardChecking),
        Config::textbook().with_pruning(Pruning::Check),
        Config::textbook().with_pruning(Pruning::ArcConsistency),
    ];
    let mut exact = 0;
    let mut runs = 0;
    for seed in 0..120u64 {
        let mut rng = SplitMix64::new(seed);
        let size = 6 + rng.below(20) as usize;
        let (mut m, x) = satisfiable_model(&mut rng, size);
        let k = 1 + (seed % 3) as usize;
        let planted = plant(&mut rng, &mut m, &x, k);
        // The planted constraints come last here; the next test puts them first.
        let config = &configs[(seed / 3) as usize % configs.len()];
        let why = explain::explain(&m, config).unwrap();
        assert!(why.verdict.is_minimal(), "seed {seed}: {:?}", why.verdict);
        let found = why.constraints();
        runs += 1;
        if found == planted {
            exact += 1;
        } else {
            assert_minimal(&m, &found, seed);
        }
        assert!(why.effort.checks >= 2, "seed {seed}");
    }
    // The planted conflict is usually the only one; say how often.
    assert!(
        exact * 2 > runs,
        "only {exact} of {runs} found the planted set"
    );
}

#[test]
fn planted_conflicts_first_in_the_model_are_found_too() {
    for seed in 0..60u64 {
        let mut rng = SplitMix64::new(1000 + seed);
        let mut m = Model::new();
        let x = m.int_var_array("x", N, 0..=D - 1).unwrap();
        let k = 1 + (seed % 3) as usize;
        let planted = plant(&mut rng, &mut m, &x, k);
        // The rest: satisfied by a hidden assignment, as above.
        let hidden: Vec<Value> = (0..N).map(|_| rng.below(D as u64) as Value).collect();
        for _ in 0..10 {
            let i = rng.below(N as u64) as usize;
            let j = (i + 1 + rng.below(N as u64 - 1) as usize) % N;
            if hidden[i] != hidden[j] {
                m.not_equal(x[i], x[j]).unwrap();
            }
        }
        let why = explain::explain(&m, &Config::default()).unwrap();
        assert!(why.verdict.is_minimal(), "seed {seed}");
        let found = why.constraints();
        if found != planted {
            assert_minimal(&m, &found, seed);
        }
    }
}

#[test]
fn planted_groups_are_reported_by_name() {
    for seed in 0..30u64 {
        let mut rng = SplitMix64::new(2000 + seed);
        let (mut m, x) = satisfiable_model(&mut rng, 12);
        let planted = plant(&mut rng, &mut m, &x, 3);
        // The cycle as two rules: its first order alone, the other two together.
        m.name_group("first", &planted[..1]).unwrap();
        m.name_group("rest", &planted[1..]).unwrap();
        let why = explain::explain(&m, &Config::default()).unwrap();
        let found = why.constraints();
        if found == planted {
            assert_eq!(why.names(&m), ["first", "rest"], "seed {seed}");
        } else {
            // Another conflict: at least unsatisfiable, and every group
            // reported whole.
            assert!(!brute_force_sat(&m, &found), "seed {seed}");
            for part in &why.conflict {
                if let Some(g) = &part.group {
                    let (_, members) = m.groups().find(|(n, _)| n == g).unwrap();
                    assert_eq!(part.constraints, members, "seed {seed}");
                }
            }
        }
    }
}

#[test]
fn the_background_shifts_the_blame() {
    // x0 <= 1 (background), x0 >= 2, x0 >= 3: either lower bound clashes
    // with the background alone; QuickXplain names one of them.
    let mut m = Model::new();
    let x = m.int_var_array("x", 2, 0..=D - 1).unwrap();
    let cap = m.linear(&[1], &[x[0]], Relation::Le, 1).unwrap();
    let a = m.linear(&[1], &[x[0]], Relation::Ge, 2).unwrap();
    let b = m.linear(&[1], &[x[0]], Relation::Ge, 3).unwrap();
    let why = Explainer::new(&m, Config::default())
        .with_background(&[cap])
        .unwrap()
        .run()
        .unwrap();
    assert!(why.verdict.is_minimal());
    let found = why.constraints();
    assert!(found == [a] || found == [b], "{found:?}");
    assert!(!found.contains(&cap));
    let why = explain::explain(&m, &Config::default()).unwrap();
    assert!(matches!(why.verdict, Verdict::Minimal));
    assert_eq!(why.constraints().len(), 2);
    assert!(why.constraints().contains(&cap));
}
