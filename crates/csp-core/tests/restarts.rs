//! Restarts against the plain search on random CSPs (the brute-force harness
//! of `random_csps.rs`) and on N-Queens: the same answers, the same optima,
//! exact counts, limits that hold, the same runs for the same configuration.

mod common;

use std::collections::BTreeSet;

use common::{spec_and_model, without_time};
use csp_core::{
    CancelFlag, Config, Limits, Model, Pruning, Restarts, SearchStatus, Solver, StopReason, Value,
    VarId, VarOrder,
};
use proptest::collection::vec;
use proptest::prelude::*;

const MAX_BYTES: usize = 160;

/// The policies tried, each with budgets small enough to restart often on
/// these trees.
const POLICIES: [Restarts; 4] = [
    Restarts::Luby { scale: 1 },
    Restarts::Linear { scale: 1 },
    Restarts::Geometric {
        base: 2,
        factor: 1.3,
    },
    Restarts::Luby { scale: 3 },
];

fn config(pruning: Pruning, policy: usize, random: Option<u64>) -> Config {
    let config = Config::textbook()
        .with_pruning(pruning)
        .with_var_order(random.map_or(VarOrder::DomOverWdeg, VarOrder::Random))
        .with_restarts(POLICIES[policy]);
    if pruning == Pruning::Propagators {
        config.with_binary_branching(true)
    } else {
        config
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn first_with_restarts_answers_as_the_brute_force_does(
        bytes in vec(any::<u8>(), 0..MAX_BYTES),
        policy in 0..POLICIES.len(),
        random in proptest::option::of(any::<u64>()),
    ) {
        let (spec, model, expected) = spec_and_model(&bytes);
        for pruning in Pruning::ALL {
            let c = config(pruning, policy, random);
            let r = Solver::new(&model, c.clone()).unwrap().first();
            match &r.solution {
                Some(s) => prop_assert!(expected.contains(s.values()), "{pruning}\n{spec:#?}"),
                None => {
                    prop_assert!(expected.is_empty(), "{pruning}: none found\n{spec:#?}");
                    prop_assert_eq!(r.status, SearchStatus::Complete);
                }
            }
            // Same configuration, same runs.
            let again = Solver::new(&model, c).unwrap().first();
            prop_assert_eq!(without_time(again.stats), without_time(r.stats));
            prop_assert_eq!(again.solution, r.solution);
        }
    }

    #[test]
    fn optimisation_with_restarts_reaches_the_brute_force_optimum(
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
        for pruning in Pruning::ALL {
            let c = config(pruning, policy, random);
            let min = Solver::new(&model, c.clone()).unwrap().minimize(x).unwrap();
            let max = Solver::new(&model, c).unwrap().maximize(x).unwrap();
            for (o, best, improving) in [(&min, lowest, -1), (&max, highest, 1)] {
                prop_assert_eq!(o.objective, best, "{}\n{:#?}", pruning, spec);
                prop_assert!(o.status.is_complete(), "{pruning}: {}", o.status);
                if let Some(s) = &o.best {
                    prop_assert!(expected.contains(s.values()));
                }
                // The bound survives the restarts: every solution improves.
                prop_assert!(o.improvements.windows(2).all(|w| (w[1] - w[0]).signum() == improving));
            }
        }
    }

    #[test]
    fn counting_with_restarts_finds_each_solution_once(
        bytes in vec(any::<u8>(), 0..MAX_BYTES),
        policy in 0..POLICIES.len(),
        random in proptest::option::of(any::<u64>()),
    ) {
        let (spec, model, expected) = spec_and_model(&bytes);
        for pruning in Pruning::ALL {
            let c = config(pruning, policy, random);
            let r = Solver::new(&model, c.clone()).unwrap().count();
            prop_assert!(r.is_complete());
            prop_assert_eq!(r.solutions, expected.len() as u64, "{}\n{:#?}", pruning, spec);
            let mut solver = Solver::new(&model, c).unwrap();
            let found: Vec<Vec<Value>> = solver.solutions().map(|s| s.into_values()).collect();
            let distinct: BTreeSet<Vec<Value>> = found.iter().cloned().collect();
            prop_assert_eq!(distinct.len(), found.len(), "a solution found twice");
            prop_assert_eq!(distinct, expected.clone());
        }
    }

    #[test]
    fn limits_hold_across_restarts(
        bytes in vec(any::<u8>(), 0..MAX_BYTES),
        nodes in 0..60u64,
        failures in 1..30u64,
        policy in 0..POLICIES.len(),
    ) {
        let (_, model, expected) = spec_and_model(&bytes);
        for pruning in Pruning::ALL {
            let c = config(pruning, policy, None);
            let full = Solver::new(&model, c.clone()).unwrap().count();
            let r = Solver::new(&model, c.clone().with_node_limit(nodes)).unwrap().count();
            if full.stats.tried <= nodes {
                prop_assert_eq!(r.status, SearchStatus::Complete);
                prop_assert_eq!(r.solutions, expected.len() as u64);
            } else {
                prop_assert_eq!(r.status, SearchStatus::Stopped(StopReason::NodeLimit));
                prop_assert_eq!(r.stats.tried, nodes);
            }
            let limits = Limits { failures: Some(failures), ..Limits::default() };
            let r = Solver::new(&model, c.clone().with_limits(limits)).unwrap().count();
            if full.stats.rejected < failures {
                prop_assert_eq!(r.status, SearchStatus::Complete);
            } else {
                prop_assert_eq!(r.status, SearchStatus::Stopped(StopReason::FailureLimit));
                prop_assert_eq!(r.stats.rejected, failures);
            }
            let flag = CancelFlag::new();
            flag.cancel();
            let r = Solver::new(&model, c.with_cancel_flag(flag)).unwrap().first();
            prop_assert_eq!(r.stats.tried, 0);
        }
    }
}

/// 10-queens with restarts after every failure or two: many restarts, and
/// every answer as without them.
#[test]
fn queens_with_restarts_restart_and_agree() {
    let (m, q) = csp_core::models::queens(10).unwrap();
    for pruning in [
        Pruning::ForwardChecking,
        Pruning::ArcConsistency,
        Pruning::Propagators,
    ] {
        let plain = Config::textbook()
            .with_pruning(pruning)
            .with_var_order(VarOrder::DomOverWdeg);
        let with = plain.clone().with_restarts(Restarts::Luby { scale: 1 });
        let first = Solver::new(&m, with.clone()).unwrap().first();
        assert!(first.stats.restarts > 0, "{pruning}");
        let s = first.solution.unwrap();
        let columns: BTreeSet<Value> = s.values_of(&q).into_iter().collect();
        assert_eq!(columns.len(), 10, "{pruning}");
        let all = Solver::new(&m, with).unwrap().count();
        assert_eq!(all.solutions, 724, "{pruning}");
        assert!(all.is_complete());
        assert_eq!(
            Solver::new(&m, plain).unwrap().count().stats.restarts,
            0,
            "{pruning}"
        );
    }
}

/// Five pigeons, four holes: with a budget of one failure per run no run
/// ever finishes the proof, so only the limits end the search.
#[test]
fn limits_end_a_search_that_restarts_forever() {
    let mut m = Model::new();
    let p = m.int_var_array("p", 5, 1..=4).unwrap();
    for i in 0..5 {
        for j in i + 1..5 {
            m.not_equal(p[i], p[j]).unwrap();
        }
    }
    let endless = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_var_order(VarOrder::DomOverWdeg)
        .with_restarts(Restarts::Constant { scale: 1 });
    let r = Solver::new(&m, endless.clone().with_node_limit(5_000))
        .unwrap()
        .first();
    assert_eq!(r.status, SearchStatus::Stopped(StopReason::NodeLimit));
    assert_eq!(r.stats.tried, 5_000);
    assert!(r.stats.restarts > 100, "{}", r.stats.restarts);
    let limited = endless
        .clone()
        .with_time_limit(std::time::Duration::from_millis(30));
    let r = Solver::new(&m, limited).unwrap().first();
    assert_eq!(r.status, SearchStatus::Stopped(StopReason::TimeLimit));
    let flag = CancelFlag::new();
    let handle = flag.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(20));
        handle.cancel();
    });
    let r = Solver::new(&m, endless.with_cancel_flag(flag))
        .unwrap()
        .first();
    canceller.join().unwrap();
    assert_eq!(r.status, SearchStatus::Stopped(StopReason::Cancelled));
    // With a growing budget one run finishes: the proof.
    let luby = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_var_order(VarOrder::DomOverWdeg)
        .with_restarts(Restarts::Luby { scale: 1 });
    let r = Solver::new(&m, luby).unwrap().first();
    assert_eq!(r.status, SearchStatus::Complete);
    assert!(r.solution.is_none() && r.stats.restarts > 0);
}

/// The parallel count splits without restarts and counts each subproblem
/// with them: the same total.
#[cfg(feature = "parallel")]
#[test]
fn parallel_count_with_restarts_is_exact() {
    use csp_core::parallel::{ParallelOptions, count_parallel};
    let (m, _) = csp_core::models::queens(9).unwrap();
    for budget in [None, Some(1)] {
        let config = Config::textbook()
            .with_pruning(Pruning::ForwardChecking)
            .with_var_order(VarOrder::DomOverWdeg)
            .with_restarts(Restarts::Luby { scale: 1 })
            .with_trail_budget(budget);
        let r = count_parallel(&m, &config, &ParallelOptions::default()).unwrap();
        assert_eq!(r.solutions, 352);
        assert!(r.is_complete());
    }
}
