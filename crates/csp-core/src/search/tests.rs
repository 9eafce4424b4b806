//! Unit tests of the search.

use std::time::Duration;

use super::*;
use crate::{CancelFlag, ValOrder, VarOrder};

fn queens(n: usize) -> Model {
    crate::models::queens(n).unwrap().0
}

/// Wants every removal, which turns off forward checking's bulk removal
/// (`Domains::remove_shifted_at`) in favour of removals one by one.
struct Detailed;

impl SearchObserver for Detailed {
    fn wants_details(&self) -> bool {
        true
    }
}

#[test]
fn forward_checking_in_bulk_prunes_exactly_as_one_by_one() {
    for n in 1..=9 {
        let m = queens(n);
        for var in [VarOrder::Input, VarOrder::FirstFail] {
            let config = Config::textbook()
                .with_pruning(Pruning::ForwardChecking)
                .with_var_order(var);
            let mut solver = Solver::new(&m, config.clone()).unwrap();
            let fast = solver.count();
            let slow = Solver::with_observer(&m, config, Detailed).unwrap().count();
            let untimed = |mut stats: SearchStats| {
                stats.elapsed = Duration::ZERO;
                stats
            };
            assert_eq!(untimed(fast.stats), untimed(slow.stats), "n = {n}, {var}");
        }
    }
}

#[test]
fn assume_after_the_search_started_is_an_error() {
    let m = queens(4);
    let mut s = Solver::new(&m, Config::textbook()).unwrap();
    assert!(s.first().solution.is_some());
    let e = s.assume(&[(VarId::new(0), 1)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "assume: decisions must be made before the search starts"
    );
}

#[test]
fn a_variable_of_another_model_is_an_error_not_a_panic() {
    let m = queens(4);
    let mut s = Solver::new(&m, Config::textbook()).unwrap();
    let e = s.assume(&[(VarId::new(7), 0)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "assume: unknown variable #7 (the model has 4 variables)"
    );
    let e = s.minimize(VarId::new(4)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "optimize: unknown variable #4 (the model has 4 variables)"
    );
    let e = s.maximize(VarId::new(9)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "optimize: unknown variable #9 (the model has 4 variables)"
    );
    // The failed calls left the search untouched.
    assert_eq!(s.count().solutions, 2);
}

#[test]
fn zero_limits_stop_before_the_first_node() {
    let m = queens(4);
    let r = Solver::new(&m, Config::textbook().with_node_limit(0))
        .unwrap()
        .first();
    assert_eq!(
        (r.solution.is_none(), r.status, r.stats.tried),
        (true, SearchStatus::Stopped(StopReason::NodeLimit), 0)
    );
    let r = Solver::new(&m, Config::textbook().with_time_limit(Duration::ZERO))
        .unwrap()
        .count();
    assert_eq!(
        (r.solutions, r.status, r.stats.tried),
        (0, SearchStatus::Stopped(StopReason::TimeLimit), 0)
    );
    let flag = CancelFlag::new();
    flag.cancel();
    let r = Solver::new(&m, Config::textbook().with_cancel_flag(flag))
        .unwrap()
        .count();
    assert_eq!(
        (r.solutions, r.status, r.stats.tried),
        (0, SearchStatus::Stopped(StopReason::Cancelled), 0)
    );
}

/// Records the variable chosen at each node, with its depth.
#[derive(Default)]
struct Chosen(Vec<(usize, VarId)>);

impl SearchObserver for Chosen {
    fn on_select(&mut self, depth: usize, var: VarId, _candidates: &[crate::Candidate]) {
        self.0.push((depth, var));
    }
}

#[test]
fn decision_variables_are_branched_on_first_in_the_order_given() {
    // x0..x3 all different, s = x0 + x1 (auxiliary), declared first.
    let mut m = Model::new();
    let s = m.int_var(0..=6).unwrap();
    let x = m.int_var_array("x", 4, 0..=3).unwrap();
    m.all_different(&x).unwrap();
    m.linear(&[1, 1, -1], &[x[0], x[1], s], crate::Relation::Eq, 0)
        .unwrap();
    let order = [x[3], x[1], x[0], x[2]];
    for pruning in Pruning::ALL {
        for var in [VarOrder::Input, VarOrder::FirstFail, VarOrder::DomOverWdeg] {
            let config = Config::textbook()
                .with_pruning(pruning)
                .with_var_order(var)
                .with_decision_vars(&order);
            let mut solver = Solver::with_observer(&m, config, Chosen::default()).unwrap();
            assert_eq!(solver.count().solutions, 24, "{pruning:?} {var}");
            let chosen = solver.into_observer().0;
            // Whenever s is chosen, the four x are decided on the path to it.
            let mut path: Vec<VarId> = Vec::new();
            for &(depth, v) in &chosen {
                path.truncate(depth);
                if v == s {
                    assert!(x.iter().all(|xi| path.contains(xi)), "{pruning:?} {var}");
                }
                path.push(v);
            }
            if var == VarOrder::Input {
                // At the propagators level the last x is fixed by the three
                // decisions before it, and a fixed variable is not branched on.
                let k = if pruning == Pruning::Propagators {
                    3
                } else {
                    4
                };
                let first: Vec<VarId> = chosen[..k].iter().map(|c| c.1).collect();
                assert_eq!(first, order[..k], "{pruning:?}");
            }
        }
    }
    // Without decision variables, input order starts with s.
    let mut plain = Solver::with_observer(&m, Config::textbook(), Chosen::default()).unwrap();
    plain.first();
    assert_eq!(plain.into_observer().0[0], (0, s));
}

#[test]
fn unknown_or_repeated_decision_variables_are_errors() {
    let m = queens(4);
    let e = Solver::new(&m, Config::textbook().with_decision_vars(&[VarId::new(9)]))
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "decision variables: unknown variable #9 (the model has 4 variables)"
    );
    let twice = [VarId::new(1), VarId::new(1)];
    let e = Solver::new(&m, Config::textbook().with_decision_vars(&twice))
        .err()
        .unwrap();
    assert_eq!(e.to_string(), "decision variables: #1 is listed twice");
}

#[test]
fn limits_hold_inside_the_root_propagation() {
    // Régin's filter on 300 queens is slow; a cancel flag already set stops it
    // in the middle of the root propagation.
    let m = queens(300);
    let flag = CancelFlag::new();
    flag.cancel();
    let config = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_cancel_flag(flag);
    let mut s = Solver::new(&m, config).unwrap();
    let r = s.count();
    assert_eq!(
        (r.status, r.stats.tried),
        (SearchStatus::Stopped(StopReason::Cancelled), 0)
    );
    // A time limit already spent stops it the same way.
    let config = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_time_limit(Duration::ZERO);
    let r = Solver::new(&m, config).unwrap().count();
    assert_eq!(
        (r.status, r.stats.tried),
        (SearchStatus::Stopped(StopReason::TimeLimit), 0)
    );
}

#[test]
fn a_limit_reached_inside_a_decision_stops_the_search_there() {
    // Set the flag from the observer when the second node is tried: the
    // propagation of that decision is cut, and the search stops at once.
    struct CancelAt(CancelFlag, u64);
    impl SearchObserver for CancelAt {
        fn on_try(&mut self, node: &Node) {
            if node.id == self.1 {
                self.0.cancel();
            }
        }
    }
    let m = queens(200);
    let flag = CancelFlag::new();
    let config = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_cancel_flag(flag.clone());
    let mut s = Solver::with_observer(&m, config, CancelAt(flag, 2)).unwrap();
    let r = s.count();
    assert_eq!(r.status, SearchStatus::Stopped(StopReason::Cancelled));
    assert_eq!((r.stats.tried, r.stats.solutions), (2, 0));
}

#[test]
fn recomputation_under_a_tiny_trail_budget_changes_nothing_but_memory() {
    // A budget of one byte drops the undo records of every level but the
    // newest, so nearly every backtrack recomputes from the root snapshot.
    let (queens6, _) = crate::models::queens(6).unwrap();
    let mut mixed = Model::new();
    let x = mixed.int_var_array("x", 5, 0..=4).unwrap();
    mixed.all_different(&x[..4]).unwrap();
    mixed
        .linear(&[1, 1, -1], &[x[0], x[1], x[4]], crate::Relation::Le, 2)
        .unwrap();
    mixed.not_equal(x[2], x[4]).unwrap();
    for m in [&queens6, &mixed] {
        for pruning in Pruning::ALL {
            for binary in [false, true] {
                for var in [VarOrder::Input, VarOrder::FirstFail] {
                    let config = Config::textbook()
                        .with_pruning(pruning)
                        .with_var_order(var)
                        .with_binary_branching(binary);
                    let run = |budget| {
                        let c = config.clone().with_trail_budget(budget);
                        let mut s = Solver::new(m, c).unwrap();
                        let sols: Vec<_> = s.solutions().map(|s| s.values().to_vec()).collect();
                        (sols, s.stats().tried, s.stats().rejected, s.status())
                    };
                    let full = run(None);
                    assert!(!full.0.is_empty());
                    assert_eq!(run(Some(1)), full, "{pruning} {var} binary={binary}");
                }
            }
        }
    }
}

#[test]
fn assumptions_are_kept_by_recomputation() {
    let (m, q) = crate::models::queens(6).unwrap();
    let config = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_trail_budget(Some(1));
    let mut s = Solver::new(&m, config).unwrap();
    assert!(s.assume(&[(q[0], 1)]).unwrap());
    let sols: Vec<_> = s.solutions().map(|s| s.values().to_vec()).collect();
    assert_eq!(sols.len(), 1);
    assert!(sols.iter().all(|v| v[0] == 1));
}

#[test]
fn split_choices_halve_the_domain_and_count_each_value_once() {
    // x in 0..=7 unconstrained: halving makes a complete binary tree over the
    // 8 values, 14 nodes (7 choices, two branches each), one solution a leaf.
    #[derive(Default)]
    struct Record(Vec<String>);
    impl SearchObserver for Record {
        fn on_try(&mut self, n: &Node) {
            self.0.push(format!("{}{}", n.choice.symbols().0, n.value));
        }
        fn on_refute(&mut self, n: &Node, _: Option<&crate::Failure>) {
            self.0.push(format!("{}{}", n.choice.symbols().1, n.value));
        }
    }
    let mut m = Model::new();
    let x = m.int_var(0..=7).unwrap();
    for (val, first) in [
        (ValOrder::Split, ["<=3", "<=1", "<=0", ">0", ">1", "<=2"]),
        (
            ValOrder::ReverseSplit,
            [">=4", ">=6", ">=7", "<7", "<6", ">=5"],
        ),
    ] {
        let config = Config::textbook()
            .with_pruning(Pruning::Propagators)
            .with_binary_branching(true)
            .with_val_order(val);
        let mut s = Solver::with_observer(&m, config, Record::default()).unwrap();
        let values: Vec<Value> = s.solutions().map(|s| s.value(x)).collect();
        let expected: Vec<Value> = match val {
            ValOrder::Split => (0..=7).collect(),
            _ => (0..=7).rev().collect(),
        };
        assert_eq!(values, expected);
        let stats = *s.stats();
        assert_eq!((stats.tried, stats.solutions, stats.peak_depth), (14, 8, 3));
        assert_eq!(s.observer().0[..6], first);
    }
    // Without binary choices (and at the textbook levels) a node assigns a
    // value: one node per value, ascending.
    let config = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_val_order(ValOrder::Split);
    let r = Solver::new(&m, config).unwrap().count();
    assert_eq!((r.solutions, r.stats.tried), (8, 8));
}

#[test]
fn afc_size_starts_with_the_variable_on_most_constraints_per_value() {
    // y has two constraints (count 1 each), x and z one: y first (2 / 4
    // against 1 / 4), whatever the declaration order.
    #[derive(Default)]
    struct Selected(Vec<usize>);
    impl SearchObserver for Selected {
        fn on_select(&mut self, _depth: usize, var: VarId, _: &[crate::Candidate]) {
            self.0.push(var.index());
        }
    }
    let mut m = Model::new();
    let x = m.int_var(0..=3).unwrap();
    let y = m.int_var(0..=3).unwrap();
    let z = m.int_var(0..=3).unwrap();
    m.not_equal(x, y).unwrap();
    m.not_equal(y, z).unwrap();
    let config = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_var_order(VarOrder::AfcSize);
    let mut s = Solver::with_observer(&m, config, Selected::default()).unwrap();
    assert_eq!(s.count().solutions, 4 * 3 * 3);
    assert_eq!(s.observer().0[0], y.index());
}
