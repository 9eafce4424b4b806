//! Magic sequences: `s[i]` is the number of `i` in `s`. Posted one count per
//! value, as one global cardinality whose counts are the sequence itself, and
//! as counts with a variable value; every form, at every pruning level, must
//! find the known number of solutions (two for n = 4, one for n = 5 and from
//! n = 7 on, none for n = 1, 2, 3, 6).

use csp_core::{Config, Model, Pruning, Relation, Restarts, Solver, Value, VarId, VarOrder};

const SOLUTIONS: [u64; 9] = [0, 0, 0, 0, 2, 1, 0, 1, 1];

fn sequence(m: &mut Model, n: usize) -> Vec<VarId> {
    m.int_var_array("s", n, 0..=(n as Value - 1)).unwrap()
}

/// One count per value.
fn counts(n: usize) -> Model {
    let mut m = Model::new();
    let s = sequence(&mut m, n);
    for (i, &si) in s.iter().enumerate() {
        m.count(&s, i as Value, si).unwrap();
    }
    m
}

/// One global cardinality: the counts are the variables.
fn cardinality(n: usize) -> Model {
    let mut m = Model::new();
    let s = sequence(&mut m, n);
    let values: Vec<Value> = (0..n as Value).collect();
    m.global_cardinality(&s, &values, &s).unwrap();
    m
}

/// Counts with the value a (fixed) variable, and the redundant sums.
fn variable_values(n: usize) -> Model {
    let mut m = Model::new();
    let s = sequence(&mut m, n);
    for (i, &si) in s.iter().enumerate() {
        let v = m.constant(i as Value).unwrap();
        m.count_var(&s, v, Relation::Eq, si).unwrap();
    }
    let ones = vec![1; n];
    m.linear(&ones, &s, Relation::Eq, n as Value).unwrap();
    let weights: Vec<Value> = (0..n as Value).collect();
    m.linear(&weights, &s, Relation::Eq, n as Value).unwrap();
    m
}

fn check(name: &str, build: fn(usize) -> Model) {
    for (n, &expected) in SOLUTIONS.iter().enumerate().skip(1) {
        for pruning in Pruning::ALL {
            // Generate-and-test and plain backtracking only on the short ones.
            if n > 5 && pruning < Pruning::ForwardChecking {
                continue;
            }
            let m = build(n);
            let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
            let count = s.count();
            assert!(count.is_complete());
            assert_eq!(count.solutions, expected, "{name}, n = {n}, {pruning}");
        }
        let m = build(n);
        let count = Solver::new(&m, Config::default()).unwrap().count();
        assert_eq!(count.solutions, expected, "{name}, n = {n}, default search");
    }
}

#[test]
fn magic_sequences_with_one_count_per_value() {
    check("counts", counts);
}

#[test]
fn magic_sequences_with_one_global_cardinality_over_themselves() {
    check("global cardinality", cardinality);
}

#[test]
fn magic_sequences_with_variable_values_and_sums() {
    check("variable values", variable_values);
}

#[test]
fn the_sum_reasoning_of_global_cardinality_fixes_a_magic_sequence_early() {
    // n = 7 has one solution, 3 2 1 1 0 0 0; the sum of the counts is 7, so
    // fixing s0 = 3 leaves the others little room. Without the sum reasoning
    // the root alone would not bound s1 by 7 - 3 = 4.
    let mut m = Model::new();
    let s = sequence(&mut m, 7);
    let values: Vec<Value> = (0..7).collect();
    m.global_cardinality(&s, &values, &s).unwrap();
    m.linear(&[1], &[s[0]], Relation::Eq, 3).unwrap();
    let solver = Solver::new(&m, Config::default()).unwrap();
    for &si in &s[1..] {
        assert!(
            solver.domains().max(si) <= 4,
            "{:?}",
            solver.domains().max(si)
        );
    }
}

/// From 32 variables on a count keeps its open positions counted and reads
/// the positions changed since its last call (debug builds check each
/// update against a full recount): the magic sequences of 32 to 35, each
/// count's result also one of its variables, under n-ary and binary
/// choices, input order and first-fail, with and without restarts, must
/// each give the one known sequence (n - 4, 2, 1, 0, ..., 0, 1, 0, 0, 0).
#[test]
fn long_magic_sequences_read_the_changed_positions() {
    for n in 32..=35usize {
        let mut want = vec![0; n];
        (want[0], want[1], want[2], want[n - 4]) = (n as Value - 4, 2, 1, 1);
        let m = counts(n);
        let configs = [
            Config::textbook().with_pruning(Pruning::Propagators),
            Config::textbook()
                .with_pruning(Pruning::Propagators)
                .with_binary_branching(true)
                .with_var_order(VarOrder::FirstFail),
            Config::textbook()
                .with_pruning(Pruning::Propagators)
                .with_binary_branching(true)
                .with_var_order(VarOrder::Random(n as u64))
                .with_restarts(Restarts::Luby { scale: 2 }),
        ];
        for (k, config) in configs.into_iter().enumerate() {
            let mut s = Solver::new(&m, config).unwrap();
            let found: Vec<Vec<Value>> = s.solutions().map(|sol| sol.values().to_vec()).collect();
            assert!(s.status().is_complete(), "n = {n}, config {k}");
            assert_eq!(found, vec![want.clone()], "n = {n}, config {k}");
        }
    }
}
