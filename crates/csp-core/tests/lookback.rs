//! Look-back (backjumping): every combination finds exactly the solutions
//! of chronological backtracking, and the node orderings Kondrak and van
//! Beek (1997) proved hold with the same static variable order.
//!
//! A *node* is a value tried ([`SearchStats::tried`](csp_core::SearchStats)),
//! an instantiation in the papers' sense: under forward checking and MAC a
//! value that empties a future domain is a node too, a value removed before
//! it was tried is not.

use std::collections::BTreeSet;

use csp_core::{
    Backjumping, Config, CspError, Model, Pruning, Restarts, SearchStatus, Solver, ValOrder, Value,
    VarOrder, models,
};

/// The look-back combinations of the literature, with their look-ahead.
const COMBINATIONS: [(Pruning, Backjumping); 4] = [
    (Pruning::Check, Backjumping::Gbj),
    (Pruning::Check, Backjumping::Cbj),
    (Pruning::ForwardChecking, Backjumping::Cbj),
    (Pruning::ArcConsistency, Backjumping::Cbj),
];

fn solutions(model: &Model, config: Config) -> BTreeSet<Vec<Value>> {
    let mut s = Solver::new(model, config).unwrap();
    let mut out = BTreeSet::new();
    while let Some(sol) = s.next_solution() {
        assert!(out.insert(sol.values().to_vec()), "a solution found twice");
    }
    assert_eq!(s.status(), SearchStatus::Complete);
    out
}

fn count(model: &Model, pruning: Pruning, bj: Backjumping) -> (u64, u64) {
    let config = Config::textbook()
        .with_pruning(pruning)
        .with_backjumping(bj);
    let r = Solver::new(model, config).unwrap().count();
    assert!(r.is_complete());
    (r.solutions, r.stats.tried)
}

fn first(model: &Model, pruning: Pruning, bj: Backjumping) -> (bool, u64) {
    let config = Config::textbook()
        .with_pruning(pruning)
        .with_backjumping(bj);
    let r = Solver::new(model, config).unwrap().first();
    assert!(r.solution.is_some() || r.status == SearchStatus::Complete);
    (r.solution.is_some(), r.stats.tried)
}

/// Seeds of small model-B instances around the phase transition: about
/// half of them have a solution.
fn small_random(seed: u64) -> Model {
    let n = 8 + (seed % 5) as usize;
    let tightness = [0.35, 0.4, 0.45, 0.5][(seed % 4) as usize];
    models::random_binary(n, 5, 0.5, tightness, seed).unwrap().0
}

#[test]
fn every_combination_and_order_finds_the_solutions_of_backtracking() {
    let var_orders = [
        VarOrder::Input,
        VarOrder::FirstFail,
        VarOrder::MrvDegree,
        VarOrder::DomOverWdeg,
        VarOrder::AfcSize,
        VarOrder::Random(3),
    ];
    let val_orders = [
        ValOrder::Ascending,
        ValOrder::Descending,
        ValOrder::MiddleOut,
        ValOrder::LeastConstraining,
        ValOrder::Random(5),
    ];
    let mut with_solutions = 0;
    for seed in 0..24 {
        let m = small_random(seed);
        let expected = solutions(&m, Config::textbook());
        with_solutions += usize::from(!expected.is_empty());
        for (pruning, bj) in COMBINATIONS {
            for (k, var) in var_orders.iter().enumerate() {
                let val = val_orders[(k + seed as usize) % val_orders.len()];
                let config = Config::textbook()
                    .with_pruning(pruning)
                    .with_backjumping(bj)
                    .with_var_order(*var)
                    .with_val_order(val);
                let found = solutions(&m, config);
                assert_eq!(found, expected, "seed {seed}: {pruning}-{bj} {var} {val}");
            }
            // Recomputation (undo records dropped) and restarts.
            let config = Config::textbook()
                .with_pruning(pruning)
                .with_backjumping(bj)
                .with_trail_budget(Some(1));
            assert_eq!(
                solutions(&m, config.clone()),
                expected,
                "seed {seed} recomputing"
            );
            let config = config
                .with_var_order(VarOrder::DomOverWdeg)
                .with_restarts(Restarts::Luby { scale: 1 });
            assert_eq!(solutions(&m, config), expected, "seed {seed} restarts");
        }
    }
    // Both kinds of instance were met.
    assert!((4..20).contains(&with_solutions), "{with_solutions}");
}

#[test]
fn queens_counts_match_oeis_a000170_under_every_combination() {
    const A000170: [u64; 11] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (n, &expected) in A000170.iter().enumerate().skip(1) {
        for model in [
            models::queens(n).unwrap().0,
            models::pairwise_queens(n).unwrap().0,
        ] {
            for (pruning, bj) in COMBINATIONS {
                assert_eq!(
                    count(&model, pruning, bj).0,
                    expected,
                    "n = {n}, {pruning}-{bj}"
                );
            }
        }
    }
}

/// Kondrak & van Beek: nodes(CBJ) <= nodes(BJ) <= nodes(BT), FC-CBJ <= FC,
/// MAC-CBJ <= MAC, with the same static variable order (input) and value
/// order, for the first solution and for all of them.
fn assert_orderings(model: &Model, what: &str, strict: &mut [u64; 4]) {
    use Backjumping::{Cbj, Gbj, None};
    use Pruning::{ArcConsistency as Mac, Check, ForwardChecking as Fc};
    for all in [false, true] {
        let nodes = |p, b| {
            if all {
                count(model, p, b).1
            } else {
                first(model, p, b).1
            }
        };
        let (bt, bj, cbj) = (nodes(Check, None), nodes(Check, Gbj), nodes(Check, Cbj));
        let (fc, fc_cbj) = (nodes(Fc, None), nodes(Fc, Cbj));
        let (mac, mac_cbj) = (nodes(Mac, None), nodes(Mac, Cbj));
        let line = format!(
            "{what} (all: {all}): bt {bt} bj {bj} cbj {cbj} fc {fc} fc-cbj {fc_cbj} mac {mac} mac-cbj {mac_cbj}"
        );
        assert!(cbj <= bj && bj <= bt, "{line}");
        assert!(fc_cbj <= fc, "{line}");
        assert!(mac_cbj <= mac, "{line}");
        for (k, (a, b)) in [(bj, bt), (cbj, bj), (fc_cbj, fc), (mac_cbj, mac)]
            .into_iter()
            .enumerate()
        {
            strict[k] += u64::from(a < b);
        }
    }
}

#[test]
fn kondrak_van_beek_orderings_hold_on_random_binary_csps() {
    let mut strict = [0; 4];
    for seed in 0..30 {
        let n = 10 + (seed % 3) as usize;
        let tightness = [0.3, 0.35, 0.4][(seed % 3) as usize];
        let (m, _) = models::random_binary(n, 5, 0.5, tightness, seed).unwrap();
        assert_orderings(&m, &format!("seed {seed}"), &mut strict);
    }
    // Each look-back saved nodes somewhere: the orderings are not all ties.
    assert!(strict.iter().all(|&s| s > 0), "{strict:?}");
}

#[test]
fn kondrak_van_beek_orderings_hold_on_queens() {
    let mut strict = [0; 4];
    for n in 4..=8 {
        for (name, model) in [
            ("global", models::queens(n).unwrap().0),
            ("pairwise", models::pairwise_queens(n).unwrap().0),
        ] {
            assert_orderings(&model, &format!("{n}-queens {name}"), &mut strict);
        }
    }
}

#[test]
fn unsupported_combinations_are_refused_with_the_reason() {
    let (m, _) = models::queens(4).unwrap();
    for pruning in Pruning::ALL {
        for bj in Backjumping::ALL {
            let result = Solver::new(
                &m,
                Config::textbook()
                    .with_pruning(pruning)
                    .with_backjumping(bj),
            );
            let supported = bj == Backjumping::None || COMBINATIONS.contains(&(pruning, bj));
            match result {
                Ok(_) => assert!(supported, "{pruning}-{bj} accepted"),
                Err(CspError::UnsupportedBackjumping { reason, .. }) => {
                    assert!(!supported, "{pruning}-{bj} refused");
                    assert!(!reason.is_empty());
                }
                Err(e) => panic!("{pruning}-{bj}: {e}"),
            }
        }
    }
}

#[test]
fn backjumps_are_counted_and_limits_still_hold() {
    let (m, _) = models::random_binary(12, 5, 0.5, 0.4, 11).unwrap();
    let config = Config::textbook().with_backjumping(Backjumping::Cbj);
    let r = Solver::new(&m, config.clone()).unwrap().count();
    assert!(
        r.stats.backjumps > 0 && r.stats.levels_jumped >= r.stats.backjumps,
        "{:?}",
        r.stats
    );
    let limited = Solver::new(&m, config.with_node_limit(50)).unwrap().count();
    assert_eq!(limited.stats.tried, 50);
    assert!(!limited.is_complete());
}

/// All-different is pairwise (`Constraint::pairwise`): on the global
/// N-Queens model (three all-different constraints) the look-back blames the
/// attacking queens as on the model posted pair by pair. Under the check
/// both visit the same nodes and jump the same way. Under forward checking
/// the first domain found empty may differ (the global model filters
/// constraint by constraint, the pairwise one queen by queen, so the
/// conflict sets may too): there FC-CBJ must find the same solutions, jump,
/// and visit no more nodes than FC.
#[test]
fn global_queens_jump_as_the_pairwise_model() {
    let combos = [
        (Pruning::Check, Backjumping::Gbj),
        (Pruning::Check, Backjumping::Cbj),
        (Pruning::ForwardChecking, Backjumping::Cbj),
    ];
    for n in 4..=9 {
        let global = models::queens(n).unwrap().0;
        let pairwise = models::pairwise_queens(n).unwrap().0;
        for (pruning, bj) in combos {
            for all in [false, true] {
                let run = |m: &Model| {
                    let config = Config::textbook()
                        .with_pruning(pruning)
                        .with_backjumping(bj);
                    let mut s = Solver::new(m, config).unwrap();
                    let (solutions, stats) = if all {
                        let r = s.count();
                        (r.solutions, r.stats)
                    } else {
                        let r = s.first();
                        (u64::from(r.solution.is_some()), r.stats)
                    };
                    (solutions, stats.tried, stats.backjumps, stats.levels_jumped)
                };
                let (g, p) = (run(&global), run(&pairwise));
                if pruning == Pruning::Check {
                    assert_eq!(g, p, "n = {n}, {pruning}-{bj}, all = {all}");
                } else {
                    assert_eq!(g.0, p.0, "n = {n}, {pruning}-{bj}, all = {all}");
                    let fc = if all {
                        count(&global, pruning, Backjumping::None).1
                    } else {
                        first(&global, pruning, Backjumping::None).1
                    };
                    assert!(g.1 <= fc, "n = {n}, all = {all}: {} > {fc}", g.1);
                }
                if n == 8 && all {
                    assert!(g.2 > 0, "8-queens {pruning}-{bj} never jumped");
                }
            }
        }
    }
}

/// Random models with all-different constraints over shifted values, views
/// and repeated variables, beside binary sums: every look-back combination
/// finds the solutions of chronological backtracking.
#[test]
fn pairwise_explanations_keep_every_solution() {
    use csp_core::Relation;
    let mut with_solutions = 0;
    for seed in 0..40u64 {
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = |k: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % k
        };
        let mut m = Model::new();
        let n = 6 + next(3) as usize;
        let mut xs = m.int_var_array("x", n, 0..=4).unwrap();
        // A view of a variable takes part like any other.
        let v = m.view(xs[0], -1, 4).unwrap();
        xs.push(v);
        for _ in 0..2 + next(2) {
            let k = 3 + next(3) as usize;
            let mut vars: Vec<_> = (0..k).map(|_| xs[next(xs.len() as u64) as usize]).collect();
            vars.dedup();
            let offsets: Vec<Value> = (0..vars.len()).map(|_| next(5) as Value - 2).collect();
            // A variable listed twice with equal offsets makes the
            // constraint unsatisfiable: only some models keep it.
            if m.all_different_offsets(&vars, &offsets).is_err() {
                continue;
            }
        }
        for _ in 0..2 {
            let a = xs[next(n as u64) as usize];
            let b = xs[next(n as u64) as usize];
            m.linear(&[1, 1], &[a, b], Relation::Le, 3 + next(4) as Value)
                .unwrap();
        }
        let expected = solutions(&m, Config::textbook());
        with_solutions += usize::from(!expected.is_empty());
        for (pruning, bj) in COMBINATIONS {
            for (var, val) in [
                (VarOrder::Input, ValOrder::Ascending),
                (VarOrder::FirstFail, ValOrder::Descending),
                (VarOrder::DomOverWdeg, ValOrder::LeastConstraining),
            ] {
                let config = Config::textbook()
                    .with_pruning(pruning)
                    .with_backjumping(bj)
                    .with_var_order(var)
                    .with_val_order(val);
                assert_eq!(
                    solutions(&m, config),
                    expected,
                    "seed {seed}: {pruning}-{bj} {var} {val}"
                );
            }
        }
    }
    assert!((5..38).contains(&with_solutions), "{with_solutions}");
}
