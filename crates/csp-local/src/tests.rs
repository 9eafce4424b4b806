//! Tests of min-conflicts against known placements and exhaustive search.

use super::*;
use csp_core::rng::SplitMix64;
use csp_core::{Config, Model, Relation, Solver, VarId, models};

fn queens(n: usize) -> Model {
    models::queens(n).unwrap().0
}

fn pairwise_queens(n: usize) -> Model {
    models::pairwise_queens(n).unwrap().0
}

/// Checks the placement without the model: no two queens share a column or
/// a diagonal.
fn no_attack(cols: &[Value]) -> bool {
    (0..cols.len()).all(|i| {
        (i + 1..cols.len()).all(|j| {
            let d = (cols[i] - cols[j]).abs();
            d != 0 && d != (j - i) as Value
        })
    })
}

fn run(m: &Model, seed: u64, steps: u64) -> LocalSearchResult {
    MinConflicts::new()
        .with_seed(seed)
        .with_max_steps(steps)
        .solve(m)
        .unwrap()
}

#[test]
fn places_queens_on_boards_of_8_50_and_1000() {
    for n in [8, 50, 1000] {
        let m = queens(n);
        for seed in 0..3 {
            let r = run(&m, seed, 1_000_000);
            assert_eq!(
                r.status,
                LocalSearchStatus::Found,
                "n = {n}, seed {seed}: {r:?}"
            );
            assert_eq!(r.conflicts_left, 0);
            let cols = r.solution.unwrap();
            assert!(
                m.is_solution(&cols) && no_attack(&cols),
                "n = {n}: {cols:?}"
            );
        }
    }
}

#[test]
fn places_queens_with_the_pairwise_not_equal_model() {
    for n in [8, 30] {
        let m = pairwise_queens(n);
        let r = run(&m, 3, 1_000_000);
        assert_eq!(r.status, LocalSearchStatus::Found, "n = {n}: {r:?}");
        assert!(no_attack(&r.solution.unwrap()));
    }
}

#[test]
fn same_seed_gives_same_result() {
    let m = queens(200);
    let strip = |mut r: LocalSearchResult| {
        r.elapsed = Duration::ZERO;
        r
    };
    let a = strip(run(&m, 42, 1_000_000));
    assert_eq!(a, strip(run(&m, 42, 1_000_000)));
    // Another seed gives another placement.
    assert!((43..48).any(|s| run(&m, s, 1_000_000).solution != a.solution));
}

#[test]
fn unsatisfiable_models_end_at_the_step_limit_without_a_solution() {
    let mut pigeons = Model::new();
    let xs = pigeons.int_var_array("x", 4, 0..=2).unwrap();
    pigeons.all_different(&xs).unwrap();
    for m in [queens(2), queens(3), pigeons] {
        let r = run(&m, 1, 5_000);
        assert_eq!(r.status, LocalSearchStatus::StepLimit);
        assert_eq!((r.solution, r.steps), (None, 5_000));
        assert!(r.conflicts_left > 0);
    }
}

#[test]
fn time_limit_and_cancel_flag_stop_the_search() {
    let mut m = Model::new();
    let xs = m.int_var_array("x", 6, 0..=4).unwrap();
    m.all_different(&xs).unwrap();
    let r = MinConflicts::new()
        .with_max_steps(u64::MAX)
        .with_time_limit(Duration::from_millis(20))
        .solve(&m)
        .unwrap();
    assert_eq!((r.status, r.solution), (LocalSearchStatus::TimeLimit, None));
    let flag = CancelFlag::new();
    flag.cancel();
    let r = MinConflicts::new()
        .with_cancel_flag(flag)
        .solve(&m)
        .unwrap();
    assert_eq!((r.status, r.solution), (LocalSearchStatus::Cancelled, None));
}

#[test]
fn empty_model_has_the_empty_solution() {
    let r = run(&Model::new(), 0, 10);
    assert_eq!(
        (r.status, r.solution),
        (LocalSearchStatus::Found, Some(vec![]))
    );
}

#[test]
fn wide_domains_are_sampled_not_materialised() {
    // 2000 variables of 2^24 values each: 32 Gbit as bitsets.
    let mut m = Model::new();
    let xs = m.int_var_array("x", 2000, 0..=((1 << 24) - 1)).unwrap();
    m.all_different(&xs).unwrap();
    m.less_than(xs[0], xs[1]).unwrap();
    let ys = m.int_var_array("y", 5, [3, 1_000_000, -7, 12, 99]).unwrap();
    m.all_different(&ys).unwrap();
    let r = run(&m, 5, 100_000);
    assert_eq!(r.status, LocalSearchStatus::Found, "{r:?}");
    assert!(m.is_solution(&r.solution.unwrap()));
}

#[test]
fn every_kind_of_constraint_is_satisfied() {
    let mut m = Model::new();
    let x = m.int_var(0..=9).unwrap();
    let y = m.int_var(0..=9).unwrap();
    let z = m.int_var([1, 3, 5, 7]).unwrap();
    let i = m.int_var(0..=3).unwrap();
    m.linear(&[1, 2, 1], &[x, y, z], Relation::Eq, 15).unwrap();
    m.linear(&[1, -1], &[x, y], Relation::Ne, 0).unwrap();
    m.table(&[x, z], vec![vec![2, 5], vec![4, 7], vec![9, 1]])
        .unwrap();
    m.element(i, &[7, 5, 3, 1], z).unwrap();
    m.element_var(i, &[x, y, z, x], y).unwrap();
    m.predicate("x even", &[x], |v| v[0] % 2 == 0).unwrap();
    let r = run(&m, 9, 100_000);
    assert_eq!(r.status, LocalSearchStatus::Found, "{r:?}");
    assert!(m.is_solution(&r.solution.unwrap()));
}

#[test]
fn a_variable_repeated_in_a_scope_is_checked_on_the_whole_scope() {
    let mut m = Model::new();
    let x = m.int_var(0..=9).unwrap();
    m.linear(&[1, 1], &[x, x], Relation::Eq, 4).unwrap();
    m.all_different_offsets(&[x, x], &[0, 1]).unwrap();
    assert_eq!(run(&m, 0, 1_000).solution, Some(vec![2]));
    m.all_different(&[x, x]).unwrap();
    assert_eq!(run(&m, 0, 1_000).status, LocalSearchStatus::StepLimit);
}

#[test]
fn linear_constraints_over_wide_domains_are_repaired_directly() {
    let mut m = Model::new();
    let x = m.int_var(0..=1_000_000).unwrap();
    let y = m.int_var([2, 4, 8]).unwrap();
    m.linear(&[1, 3], &[x, y], Relation::Eq, 999_999).unwrap();
    let zs = m.int_var_array("z", 100, 0..=1_000).unwrap();
    m.linear(&[1; 100], &zs, Relation::Eq, 12_345).unwrap();
    m.linear(&[2, -1], &[zs[0], zs[1]], Relation::Gt, 1_500)
        .unwrap();
    let r = run(&m, 1, 1_000);
    assert_eq!(r.status, LocalSearchStatus::Found, "{r:?}");
    assert!(m.is_solution(&r.solution.unwrap()));
}

/// A random small model: 2 to 5 variables, 1 to 5 constraints of every kind.
fn random_model(rng: &mut SplitMix64) -> Model {
    let mut m = Model::new();
    let n = 2 + rng.below(4) as usize;
    let pick = |rng: &mut SplitMix64, hi: u64| rng.below(hi) as Value;
    let vars: Vec<VarId> = (0..n)
        .map(|_| {
            match pick(rng, 3) {
                0 => m.int_var(vec![pick(rng, 5) - 1, pick(rng, 5), pick(rng, 7) - 2]),
                _ => {
                    let lo = pick(rng, 3) - 1;
                    m.int_var(lo..=lo + pick(rng, 4))
                }
            }
            .unwrap()
        })
        .collect();
    let some = |rng: &mut SplitMix64, k: usize| -> Vec<VarId> {
        (0..k).map(|_| vars[rng.below(n as u64) as usize]).collect()
    };
    for _ in 0..1 + rng.below(5) {
        let _ = match rng.below(6) {
            0 => {
                let v = some(rng, 2);
                m.not_equal_offset(v[0], v[1], pick(rng, 5) - 2)
            }
            1 => {
                let k = 2 + rng.below(n as u64 - 1) as usize;
                let v = some(rng, k);
                let offsets: Vec<Value> = (0..k).map(|_| pick(rng, 3) - 1).collect();
                m.all_different_offsets(&v, &offsets)
            }
            2 => {
                let k = 1 + rng.below(3) as usize;
                let v = some(rng, k);
                let coeffs: Vec<Value> = (0..k).map(|_| pick(rng, 5) - 2).collect();
                let rel = Relation::ALL[rng.below(6) as usize];
                m.linear(&coeffs, &v, rel, pick(rng, 9) - 3)
            }
            3 => {
                let v = some(rng, 2);
                let tuples = (0..1 + rng.below(6))
                    .map(|_| vec![pick(rng, 5) - 1, pick(rng, 5) - 1])
                    .collect();
                m.table(&v, tuples)
            }
            4 => {
                let v = some(rng, 3);
                m.element_var(v[0], &v[1..2], v[2])
            }
            _ => {
                let v = some(rng, 2);
                let array: Vec<Value> = (0..3).map(|_| pick(rng, 5) - 1).collect();
                m.element(v[0], &array, v[1])
            }
        };
    }
    m
}

#[test]
fn random_small_csps_agree_with_exhaustive_search() {
    const CASES: u64 = 300;
    let mut rng = SplitMix64::new(2024);
    let (mut satisfiable, mut unsatisfiable) = (0, 0);
    for case in 0..CASES {
        let m = random_model(&mut rng);
        let count = Solver::new(&m, Config::textbook()).unwrap().count();
        assert!(count.is_complete());
        if count.solutions > 0 {
            satisfiable += 1;
        } else {
            unsatisfiable += 1;
        }
        // Whole domains scanned, and (2 candidates) sampled with free values.
        for candidates in [16, 2] {
            let r = MinConflicts::new()
                .with_seed(case)
                .with_max_steps(5_000)
                .with_candidates(candidates)
                .solve(&m)
                .unwrap();
            if let Some(s) = &r.solution {
                assert!(m.is_solution(s), "case {case}: {s:?} is not a solution");
            }
            let expected = if count.solutions > 0 {
                LocalSearchStatus::Found
            } else {
                LocalSearchStatus::StepLimit
            };
            assert_eq!(
                r.status, expected,
                "case {case}, {candidates} candidates: {r:?}"
            );
        }
    }
    // The generator makes both kinds.
    assert!(
        satisfiable > 50 && unsatisfiable > 50,
        "{satisfiable} / {unsatisfiable}"
    );
}

#[test]
fn views_get_values_that_agree_with_their_bases() {
    // 8-queens with the diagonals as views: q[i] + i and q[i] - i all different.
    let n = 8;
    let mut m = Model::new();
    let q = m.int_var_array("q", n, 0..=n as Value - 1).unwrap();
    let up: Vec<_> = (0..n)
        .map(|i| m.offset_view(q[i], i as Value).unwrap())
        .collect();
    let down: Vec<_> = (0..n)
        .map(|i| m.offset_view(q[i], -(i as Value)).unwrap())
        .collect();
    let twice = m.scale_view(q[0], 2).unwrap();
    let minus = m.minus_view(q[1]).unwrap();
    m.all_different(&q).unwrap();
    m.all_different(&up).unwrap();
    m.all_different(&down).unwrap();
    // q[0] even and q[1] at least 2: views in a sum and a comparison.
    m.linear(&[1, 1], &[twice, minus], Relation::Le, 20)
        .unwrap();
    m.linear(&[1], &[minus], Relation::Le, -2).unwrap();
    for seed in 0..5 {
        let result = MinConflicts::new()
            .with_seed(seed)
            .with_max_steps(200_000)
            .solve(&m)
            .unwrap();
        let s = result.solution.expect("8-queens has solutions");
        assert!(m.is_solution(&s), "seed {seed}");
        for i in 0..n {
            assert_eq!(s[up[i].index()], s[q[i].index()] + i as Value);
            assert_eq!(s[down[i].index()], s[q[i].index()] - i as Value);
        }
        assert_eq!(s[twice.index()], 2 * s[q[0].index()]);
        assert!(s[q[1].index()] >= 2, "seed {seed}");
    }
}
