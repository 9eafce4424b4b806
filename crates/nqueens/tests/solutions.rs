//! Known solutions: the first of 8-queens, the two of 4-queens, and all 92 valid and distinct.

use std::collections::HashSet;

use csp_core::{Config, Pruning, ValOrder, VarOrder};
use nqueens::construct::validate;
use nqueens::{Queens, Variant};

#[test]
fn the_first_solution_of_eight_queens_in_input_order() {
    for variant in Variant::ALL {
        for pruning in Pruning::ALL {
            let first = Queens::new(8, variant)
                .unwrap()
                .first(Config::textbook().with_pruning(pruning))
                .unwrap();
            assert_eq!(
                first,
                Some(vec![0, 4, 7, 5, 2, 6, 1, 3]),
                "{variant} {pruning}"
            );
        }
    }
}

#[test]
fn four_queens_lists_exactly_two_solutions_in_order() {
    for variant in Variant::ALL {
        let all = Queens::new(4, variant)
            .unwrap()
            .all(Config::textbook())
            .unwrap();
        assert_eq!(all, vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
    }
}

#[test]
fn all_92_solutions_of_eight_queens_are_valid_and_distinct() {
    for variant in Variant::ALL {
        let all = Queens::new(8, variant)
            .unwrap()
            .all(Config::textbook())
            .unwrap();
        assert_eq!(all.len(), 92);
        for s in &all {
            assert_eq!(validate(s), Ok(()), "{s:?}");
        }
        let distinct: HashSet<&Vec<usize>> = all.iter().collect();
        assert_eq!(distinct.len(), 92);
        // Input order lists them lexicographically, as the classic programs do.
        assert!(all.windows(2).all(|w| w[0] < w[1]));
    }
}

#[test]
fn every_strategy_finds_the_same_set_of_solutions() {
    let queens = Queens::new(6, Variant::Global).unwrap();
    let reference: HashSet<Vec<usize>> = queens
        .all(Config::textbook())
        .unwrap()
        .into_iter()
        .collect();
    assert_eq!(reference.len(), 4);
    for pruning in Pruning::ALL {
        for var in [VarOrder::Input, VarOrder::FirstFail, VarOrder::MrvDegree] {
            for val in [
                ValOrder::Ascending,
                ValOrder::Descending,
                ValOrder::MiddleOut,
                ValOrder::LeastConstraining,
            ] {
                let config = Config::textbook()
                    .with_pruning(pruning)
                    .with_var_order(var)
                    .with_val_order(val);
                let found: HashSet<Vec<usize>> = queens.all(config).unwrap().into_iter().collect();
                assert_eq!(found, reference, "{pruning} {var} {val}");
            }
        }
    }
}

#[test]
fn large_boards_solve_quickly_with_forward_checking_and_first_fail() {
    let config = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_var_order(VarOrder::FirstFail);
    let s = Queens::new(100, Variant::Global)
        .unwrap()
        .first(config)
        .unwrap()
        .unwrap();
    assert_eq!(validate(&s), Ok(()));
}
