//! Nogood recording from restarts against plain backtracking: random CSPs
//! checked by brute force (the harness of `random_csps.rs`), random binary
//! CSPs and N-Queens. The same first answers, counts, solution sets and
//! optima; nogoods actually learnt and used; the store's bound holds.

mod common;

use std::collections::BTreeSet;

use common::spec_and_model;
use csp_core::{
    Backjumping, Config, CspError, Pruning, Restarts, SearchStatus, Solver, Value, VarId, VarOrder,
};
use proptest::collection::vec;
use proptest::prelude::*;

const MAX_BYTES: usize = 160;

/// Budgets small enough to restart often on these trees.
const POLICIES: [Restarts; 3] = [
    Restarts::Luby { scale: 1 },
    Restarts::Linear { scale: 1 },
    Restarts::Geometric {
        base: 2,
        factor: 1.3,
    },
];

/// The configurations with nogoods: arc consistency (d-way, with and
/// without CBJ) and the propagators (binary choices, d-way, splits).
fn configs(policy: usize, random: Option<u64>) -> Vec<(String, Config)> {
    let base = |pruning| {
        Config::textbook()
            .with_pruning(pruning)
            .with_var_order(random.map_or(VarOrder::DomOverWdeg, VarOrder::Random))
            .with_restarts(POLICIES[policy])
            .with_nogoods(true)
    };
    vec![
        ("ac".into(), base(Pruning::ArcConsistency)),
        (
            "ac-cbj".into(),
            base(Pruning::ArcConsistency).with_backjumping(Backjumping::Cbj),
        ),
        (
            "ac-binary".into(),
            base(Pruning::ArcConsistency).with_binary_branching(true),
        ),
        ("propagators".into(), base(Pruning::Propagators)),
        (
            "propagators-binary".into(),
            base(Pruning::Propagators).with_binary_branching(true),
        ),
        (
            "propagators-split".into(),
            base(Pruning::Propagators)
                .with_binary_branching(true)
                .with_val_order(csp_core::ValOrder::Split),
        ),
        (
            "propagators-tiny-store".into(),
            base(Pruning::Propagators)
                .with_binary_branching(true)
                .with_nogood_limit(3),
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn first_with_nogoods_answers_as_the_brute_force_does(
        bytes in vec(any::<u8>(), 0..MAX_BYTES),
        policy in 0..POLICIES.len(),
        random in proptest::option::of(any::<u64>()),
    ) {
        let (spec, model, expected) = spec_and_model(&bytes);
        for (name, c) in configs(policy, random) {
            let r = Solver::new(&model, c).unwrap().first();
            match &r.solution {
                Some(s) => prop_assert!(expected.contains(s.values()), "{name}\n{spec:#?}"),
                None => {
                    prop_assert!(expected.is_empty(), "{name}: none found\n{spec:#?}");
                    prop_assert_eq!(r.status, SearchStatus::Complete);
                }
            }
        }
    }

    #[test]
    fn counting_with_nogoods_finds_each_solution_once(
        bytes in vec(any::<u8>(), 0..MAX_BYTES),
        policy in 0..POLICIES.len(),
        random in proptest::option::of(any::<u64>()),
    ) {
        let (spec, model, expected) = spec_and_model(&bytes);
        for (name, c) in configs(policy, random) {
            let r = Solver::new(&model, c.clone()).unwrap().count();
            prop_assert!(r.is_complete());
            prop_assert_eq!(r.solutions, expected.len() as u64, "{}\n{:#?}", name, spec);
            let mut solver = Solver::new(&model, c).unwrap();
            let found: Vec<Vec<Value>> = solver.solutions().map(|s| s.into_values()).collect();
            let distinct: BTreeSet<Vec<Value>> = found.iter().cloned().collect();
            prop_assert_eq!(distinct.len(), found.len(), "{}: a solution found twice", name);
            prop_assert_eq!(distinct, expected.clone(), "{}", name);
        }
    }

    #[test]
    fn optimisation_with_nogoods_reaches_the_brute_force_optimum(
        bytes in vec(any::<u8>(), 0..MAX_BYTES),
        objective in 0..6usize,
        policy in 0..POLICIES.len(),
        random in proptest::option::of(any::<u64>()),
    ) {
        let (spec, model, expected) = spec_and_model(&bytes);
        let objective = objective % spec.domains.len();
        let x = VarId::new(objective);
        let lowest = expected.iter().map(|s| s[objective]).min();
        let highest = expected.iter().map(|s| s[objective]).max();
        for (name, c) in configs(policy, random) {
            let min = Solver::new(&model, c.clone()).unwrap().minimize(x).unwrap();
            let max = Solver::new(&model, c).unwrap().maximize(x).unwrap();
            for (o, best) in [(&min, lowest), (&max, highest)] {
                prop_assert_eq!(o.objective, best, "{}\n{:#?}", name, spec);
                prop_assert!(o.status.is_complete(), "{name}: {}", o.status);
                if let Some(s) = &o.best {
                    prop_assert!(expected.contains(s.values()));
                }
            }
        }
    }
}

/// Plain backtracking's solution set, and the same with restarts and
/// nogoods under `config`: equal, each found once.
fn same_solutions(model: &csp_core::Model, config: Config) -> csp_core::SearchStats {
    let plain = Config::textbook().with_pruning(Pruning::ForwardChecking);
    let expected: BTreeSet<Vec<Value>> = Solver::new(model, plain)
        .unwrap()
        .solutions()
        .map(|s| s.into_values())
        .collect();
    let mut solver = Solver::new(model, config).unwrap();
    let found: Vec<Vec<Value>> = solver.solutions().map(|s| s.into_values()).collect();
    assert_eq!(solver.status(), SearchStatus::Complete);
    let distinct: BTreeSet<Vec<Value>> = found.iter().cloned().collect();
    assert_eq!(distinct.len(), found.len(), "a solution found twice");
    assert_eq!(distinct, expected);
    *solver.stats()
}

fn luby_nogoods(pruning: Pruning, binary: bool) -> Config {
    Config::textbook()
        .with_pruning(pruning)
        .with_binary_branching(binary)
        .with_var_order(VarOrder::DomOverWdeg)
        .with_restarts(Restarts::Luby { scale: 1 })
        .with_nogoods(true)
}

#[test]
fn random_binary_csps_keep_their_solutions_and_use_nogoods() {
    let (mut learnt, mut used) = (0, 0);
    for seed in 0..12 {
        // Around the phase transition: some with solutions, some without.
        let (m, _) = csp_core::models::random_binary(12, 6, 0.5, 0.35, seed).unwrap();
        for (pruning, binary) in [
            (Pruning::ArcConsistency, false),
            (Pruning::Propagators, true),
            (Pruning::Propagators, false),
        ] {
            let stats = same_solutions(&m, luby_nogoods(pruning, binary));
            learnt += stats.nogoods_learnt;
            used += stats.nogoods_used;
            // Unsatisfiable or not, the first solution (or the proof) too.
            let first = Solver::new(&m, luby_nogoods(pruning, binary))
                .unwrap()
                .first();
            assert!(first.status.is_complete() || first.solution.is_some());
        }
    }
    assert!(learnt > 0 && used > 0, "learnt {learnt}, used {used}");
}

#[test]
fn queens_keep_their_solutions_and_use_nogoods() {
    let (m, _) = csp_core::models::queens(8).unwrap();
    for (pruning, binary) in [
        (Pruning::ArcConsistency, false),
        (Pruning::Propagators, true),
    ] {
        let stats = same_solutions(&m, luby_nogoods(pruning, binary));
        assert_eq!(stats.solutions, 92);
        assert!(stats.restarts > 0, "{pruning}");
        assert!(
            stats.nogoods_learnt > 0 && stats.nogoods_used > 0,
            "{pruning}: {stats:?}"
        );
        assert_eq!(stats.nogoods_deleted, 0);
    }
}

#[test]
fn a_pigeonhole_is_proved_unsatisfiable_with_nogoods() {
    // Seven pigeons, six holes: a proof that needs many runs with a
    // budget of one failure or two.
    let m = pigeons(6);
    for (pruning, binary) in [
        (Pruning::ArcConsistency, false),
        (Pruning::Propagators, true),
    ] {
        let r = Solver::new(&m, luby_nogoods(pruning, binary))
            .unwrap()
            .first();
        assert!(r.solution.is_none());
        assert_eq!(r.status, SearchStatus::Complete, "{pruning}");
        assert!(
            r.stats.restarts > 0 && r.stats.nogoods_used > 0,
            "{pruning}: {:?}",
            r.stats
        );
    }
}

/// `n + 1` pigeons in `n` holes, pairwise differences: no solution.
fn pigeons(n: usize) -> csp_core::Model {
    let mut m = csp_core::Model::new();
    let p = m.int_var_array("p", n + 1, 1..=n as i64).unwrap();
    for i in 0..=n {
        for j in i + 1..=n {
            m.not_equal(p[i], p[j]).unwrap();
        }
    }
    m
}

#[test]
fn a_small_store_deletes_the_oldest_and_still_agrees() {
    let m = pigeons(6);
    let config = luby_nogoods(Pruning::Propagators, true).with_nogood_limit(2);
    let stats = same_solutions(&m, config);
    assert_eq!(stats.solutions, 0);
    assert!(stats.nogoods_deleted > 0, "{stats:?}");
    // At most 2 kept: every nogood learnt beyond them was deleted.
    assert!(
        stats.nogoods_learnt - stats.nogoods_deleted <= 2,
        "{stats:?}"
    );
}

#[test]
fn nogoods_without_restarts_or_below_arc_consistency_are_errors() {
    let (m, _) = csp_core::models::queens(4).unwrap();
    let no_restarts = Config::default().with_nogoods(true);
    let err = Solver::new(&m, no_restarts).err().unwrap();
    assert!(matches!(err, CspError::UnsupportedNogoods { .. }));
    assert!(err.to_string().contains("needs restarts"), "{err}");
    let fc = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_restarts(Restarts::Luby { scale: 1 })
        .with_nogoods(true);
    let err = Solver::new(&m, fc).err().unwrap();
    assert!(err.to_string().contains("ac or propagators"), "{err}");
    let zero = luby_nogoods(Pruning::Propagators, true).with_nogood_limit(0);
    let err = Solver::new(&m, zero).err().unwrap();
    assert!(matches!(err, CspError::InvalidArgument { .. }), "{err}");
    // Off by default, and off means no nogood.
    let plain = Config::default().with_restarts(Restarts::Luby { scale: 1 });
    let r = Solver::new(&m, plain).unwrap().count();
    assert_eq!((r.solutions, r.stats.nogoods_learnt), (2, 0));
}
