//! Differential testing: one corpus of known answers (`tests/data/nqueens.csv`:
//! OEIS A000170 totals and A002562 unique counts) run against every solving
//! path: each pruning level with each variable and value order on both models,
//! the dedicated counters (sequential and parallel), the engine's parallel and
//! split counts, the bitboard shares, and the solutions listed one by one.
//! Sizes are kept to what runs in seconds; the benchmarks check n = 14..17.

use std::collections::HashSet;

use csp_core::parallel::{self, ParallelOptions};
use csp_core::{Config, Pruning, ValOrder, VarOrder};
use nqueens::construct::validate;
use nqueens::{Queens, Variant, bitboard, split, symmetry};

struct Known {
    n: usize,
    total: u64,
    unique: u64,
}

fn corpus() -> Vec<Known> {
    include_str!("data/nqueens.csv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("n,"))
        .map(|l| {
            let f: Vec<u64> = l.split(',').map(|x| x.trim().parse().unwrap()).collect();
            Known {
                n: f[0] as usize,
                total: f[1],
                unique: f[2],
            }
        })
        .collect()
}

fn known(max_n: usize) -> impl Iterator<Item = Known> {
    corpus().into_iter().filter(move |k| k.n <= max_n)
}

const VAR_ORDERS: [VarOrder; 5] = [
    VarOrder::Input,
    VarOrder::FirstFail,
    VarOrder::MrvDegree,
    VarOrder::DomOverWdeg,
    VarOrder::Random(7),
];

const VAL_ORDERS: [ValOrder; 5] = [
    ValOrder::Ascending,
    ValOrder::Descending,
    ValOrder::MiddleOut,
    ValOrder::LeastConstraining,
    ValOrder::Random(3),
];

#[test]
fn the_corpus_is_the_published_table() {
    let c = corpus();
    assert_eq!(c.len(), 18);
    assert!(c.iter().enumerate().all(|(i, k)| k.n == i));
    // A class has at most 8 boards, and at least 2 once n > 1.
    for k in &c[2..] {
        assert!(
            k.unique * 2 <= k.total && k.total <= k.unique * 8,
            "n = {}",
            k.n
        );
    }
}

#[test]
fn every_pruning_level_and_order_on_both_models_agrees_with_the_corpus() {
    for k in known(7) {
        for variant in Variant::ALL {
            let queens = Queens::new(k.n, variant).unwrap();
            for pruning in Pruning::ALL {
                if pruning == Pruning::None && k.n > 6 {
                    continue; // generate-and-test: 7^7 leaves per order
                }
                for var in VAR_ORDERS {
                    for val in VAL_ORDERS {
                        let config = Config::textbook()
                            .with_pruning(pruning)
                            .with_var_order(var)
                            .with_val_order(val);
                        let r = queens.count(config).unwrap();
                        assert!(r.is_complete());
                        assert_eq!(
                            r.solutions, k.total,
                            "n = {} {variant} {pruning} {var} {val}",
                            k.n
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn propagating_strategies_agree_with_the_corpus_up_to_eleven() {
    for k in known(11).filter(|k| k.n >= 8) {
        let queens = Queens::new(k.n, Variant::Global).unwrap();
        for pruning in [
            Pruning::ForwardChecking,
            Pruning::ArcConsistency,
            Pruning::Propagators,
        ] {
            for var in [VarOrder::Input, VarOrder::FirstFail, VarOrder::DomOverWdeg] {
                let config = Config::textbook().with_pruning(pruning).with_var_order(var);
                let r = queens.count(config).unwrap();
                assert_eq!(r.solutions, k.total, "n = {} {pruning} {var}", k.n);
            }
        }
    }
}

#[test]
fn dedicated_counters_agree_with_the_corpus() {
    for k in known(13) {
        let n = k.n as u32;
        assert_eq!(bitboard::count(n).unwrap(), k.total, "bitboard n = {n}");
        let s = symmetry::count(n).unwrap();
        assert_eq!((s.total, s.unique), (k.total, k.unique), "symmetry n = {n}");
        for threads in [1, 2, 3] {
            assert_eq!(bitboard::count_parallel(n, Some(threads)).unwrap(), k.total);
            let p = symmetry::count_parallel(n, Some(threads)).unwrap();
            assert_eq!((p.total, p.unique), (k.total, k.unique), "n = {n}");
        }
    }
}

#[test]
fn bitboard_shares_sum_to_the_corpus() {
    for k in known(12) {
        for parts in [1, 2, 3, 7] {
            let sum: u64 = (1..=parts)
                .map(|part| split::count_share(k.n as u32, part, parts).unwrap().count)
                .sum();
            assert_eq!(sum, k.total, "n = {} in {parts} shares", k.n);
        }
    }
}

#[test]
fn engine_parallel_and_split_counts_agree_with_the_corpus() {
    for k in known(10).filter(|k| k.n >= 1) {
        let queens = Queens::new(k.n, Variant::Global).unwrap();
        for pruning in [Pruning::Check, Pruning::ForwardChecking] {
            let config = Config::textbook()
                .with_pruning(pruning)
                .with_var_order(VarOrder::FirstFail);
            for (depth, threads) in [(None, 1), (None, 2), (Some(2), 2), (Some(k.n), 3)] {
                let options = ParallelOptions {
                    depth,
                    threads: Some(threads),
                };
                let r = parallel::count_parallel(queens.model(), &config, &options).unwrap();
                assert!(r.is_complete());
                assert_eq!(r.solutions, k.total, "n = {} {pruning} {depth:?}", k.n);
            }
            for parts in [1, 3] {
                let sum: u64 = (0..parts)
                    .map(|p| {
                        parallel::count_share(queens.model(), &config, 2, p, parts)
                            .unwrap()
                            .solutions
                    })
                    .sum();
                assert_eq!(sum, k.total, "n = {} {pruning} {parts} shares", k.n);
            }
        }
    }
}

/// The 8 images of a board (columns by row) under the symmetries of the square.
fn images(cols: &[usize]) -> Vec<Vec<usize>> {
    let n = cols.len();
    let mut inverse = vec![0; n];
    for (r, &c) in cols.iter().enumerate() {
        inverse[c] = r;
    }
    let mirror = |b: &[usize]| b.iter().map(|&c| n - 1 - c).collect::<Vec<_>>();
    let flip = |b: &[usize]| b.iter().rev().copied().collect::<Vec<_>>();
    let base = [cols.to_vec(), inverse];
    let mut out = Vec::new();
    for b in base {
        out.push(mirror(&b));
        out.push(flip(&b));
        out.push(mirror(&flip(&b)));
        out.push(b);
    }
    out
}

#[test]
fn listed_solutions_are_valid_distinct_and_fall_into_the_corpus_classes() {
    for k in known(9) {
        let queens = Queens::new(k.n, Variant::Global).unwrap();
        let all = queens
            .all(Config::textbook().with_pruning(Pruning::ForwardChecking))
            .unwrap();
        assert_eq!(all.len() as u64, k.total, "n = {}", k.n);
        let distinct: HashSet<&Vec<usize>> = all.iter().collect();
        assert_eq!(distinct.len(), all.len());
        for s in &all {
            validate(s).unwrap();
        }
        // Classes: the smallest image of each solution, counted once.
        let classes: HashSet<Vec<usize>> = all
            .iter()
            .map(|s| images(s).into_iter().min().unwrap())
            .collect();
        assert_eq!(classes.len() as u64, k.unique, "n = {}", k.n);
    }
}
