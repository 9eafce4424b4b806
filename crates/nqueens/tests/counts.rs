//! The engine's counts against OEIS A000170 for both model variants, and against the dedicated counters.

use csp_core::{Config, Pruning, VarOrder};
use nqueens::{Queens, Variant, bitboard};

/// OEIS A000170, n = 0..=13.
const A000170: [u64; 14] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];

fn engine_count(n: usize, variant: Variant, pruning: Pruning) -> u64 {
    let result = Queens::new(n, variant)
        .unwrap()
        .count(Config::textbook().with_pruning(pruning))
        .unwrap();
    assert!(result.is_complete());
    result.solutions
}

#[test]
fn counts_up_to_ten_match_a000170_with_the_promising_check() {
    for variant in Variant::ALL {
        for (n, &expected) in A000170.iter().enumerate().take(11) {
            assert_eq!(
                engine_count(n, variant, Pruning::Check),
                expected,
                "n={n} {variant}"
            );
        }
    }
}

/// n = 11..=13 with forward checking and first-fail, the quickest engine
/// strategy there; one test per variant so that they run side by side.
fn counts_eleven_to_thirteen(variant: Variant) {
    let queens = |n| Queens::new(n, variant).unwrap();
    for (n, &expected) in A000170.iter().enumerate().skip(11) {
        let config = Config::textbook()
            .with_pruning(Pruning::ForwardChecking)
            .with_var_order(VarOrder::FirstFail);
        let result = queens(n).count(config).unwrap();
        assert!(result.is_complete());
        assert_eq!(result.solutions, expected, "n={n} {variant}");
    }
}

#[test]
fn counts_eleven_to_thirteen_match_a000170_pairwise() {
    counts_eleven_to_thirteen(Variant::Pairwise);
}

#[test]
fn counts_eleven_to_thirteen_match_a000170_global() {
    counts_eleven_to_thirteen(Variant::Global);
}

#[test]
fn every_pruning_level_and_variable_order_agrees_on_small_boards() {
    for variant in Variant::ALL {
        let queens = Queens::new(7, variant).unwrap();
        for pruning in Pruning::ALL {
            for var in [VarOrder::Input, VarOrder::FirstFail, VarOrder::DomOverWdeg] {
                let config = Config::textbook().with_pruning(pruning).with_var_order(var);
                assert_eq!(
                    queens.count(config).unwrap().solutions,
                    40,
                    "{variant} {pruning} {var}"
                );
            }
        }
    }
}

#[test]
fn the_engine_agrees_with_the_bitboard_counter() {
    for n in 0..=12 {
        let engine = engine_count(n, Variant::Global, Pruning::ArcConsistency);
        assert_eq!(engine, bitboard::count(n as u32).unwrap(), "n={n}");
    }
}

#[test]
fn both_variants_visit_the_same_tree_under_check() {
    for n in [4, 6, 8] {
        let stats = |variant| {
            let r = Queens::new(n, variant)
                .unwrap()
                .count(Config::textbook().with_pruning(Pruning::Check))
                .unwrap();
            (r.stats.tried, r.stats.accepted, r.stats.rejected)
        };
        assert_eq!(stats(Variant::Pairwise), stats(Variant::Global), "n={n}");
    }
}
