//! Régin's filter starts each call from the matching its constraint found at
//! the previous call on the same thread (a kept matching, checked before use).
//! Which matching it starts from must change nothing: on random all-different
//! models (with offsets, several constraints sharing variables) and circuits
//! with `Circuit::domain`, the count under the propagators level equals brute
//! force and forward checking, and the statistics are the same whether the
//! thread starts with no kept matching, with the matchings of a previous
//! search of the same model, or the search runs on two threads.

use csp_core::constraints::Circuit;
use csp_core::parallel::{ParallelOptions, count_parallel};
use csp_core::rng::SplitMix64;
use csp_core::{Config, Model, Pruning, SearchStats, Solver, Value, VarId};

/// Whether a complete assignment is a solution.
type Check = Box<dyn Fn(&[Value]) -> bool + Send + Sync>;

/// A random model: its domains, and a checker of complete assignments.
struct Case {
    model: Model,
    domains: Vec<Vec<Value>>,
    check: Check,
}

fn subset(rng: &mut SplitMix64, from: &[Value]) -> Vec<Value> {
    let mut s: Vec<Value> = from.iter().copied().filter(|_| rng.below(4) > 0).collect();
    if s.is_empty() {
        s.push(from[rng.below(from.len() as u64) as usize]);
    }
    s
}

/// Up to three all-different constraints with offsets over random subsets
/// of up to 7 variables over 0..=6.
fn all_different_case(rng: &mut SplitMix64) -> Case {
    let n = 3 + rng.below(5) as usize;
    let full: Vec<Value> = (0..=6).collect();
    let domains: Vec<Vec<Value>> = (0..n).map(|_| subset(rng, &full)).collect();
    let mut model = Model::new();
    let vars: Vec<VarId> = domains
        .iter()
        .map(|d| model.int_var(d.clone()).unwrap())
        .collect();
    let mut posted: Vec<(Vec<usize>, Vec<Value>)> = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let mut scope: Vec<usize> = (0..n).filter(|_| rng.below(3) > 0).collect();
        if scope.len() < 2 {
            scope = (0..n).collect();
        }
        let offsets: Vec<Value> = if rng.below(2) == 0 {
            vec![0; scope.len()]
        } else {
            scope.iter().map(|_| rng.below(5) as Value - 2).collect()
        };
        let xs: Vec<VarId> = scope.iter().map(|&i| vars[i]).collect();
        model.all_different_offsets(&xs, &offsets).unwrap();
        posted.push((scope, offsets));
    }
    let check = Box::new(move |v: &[Value]| {
        posted.iter().all(|(scope, offsets)| {
            let mut s: Vec<Value> = scope.iter().zip(offsets).map(|(&i, o)| v[i] + o).collect();
            s.sort_unstable();
            s.windows(2).all(|w| w[0] != w[1])
        })
    });
    Case {
        model,
        domains,
        check,
    }
}

/// A circuit over 3 to 6 nodes with Régin's matching, random successor domains.
fn circuit_case(rng: &mut SplitMix64) -> Case {
    let n = 3 + rng.below(4) as usize;
    let full: Vec<Value> = (0..n as Value).collect();
    let domains: Vec<Vec<Value>> = (0..n)
        .map(|_| {
            let mut s = subset(rng, &full);
            if s.len() == 1 && rng.below(2) == 0 {
                s = full.clone();
            }
            s
        })
        .collect();
    let mut model = Model::new();
    let next: Vec<VarId> = domains
        .iter()
        .map(|d| model.int_var(d.clone()).unwrap())
        .collect();
    model.post(Circuit::new(&next).domain()).unwrap();
    let check = Box::new(move |v: &[Value]| {
        // One cycle through every node.
        let mut at = 0;
        for step in 1..=n {
            at = v[at] as usize;
            if at == 0 {
                return step == n;
            }
        }
        false
    });
    Case {
        model,
        domains,
        check,
    }
}

fn brute_force(case: &Case) -> u64 {
    fn go(i: usize, case: &Case, v: &mut Vec<Value>) -> u64 {
        if i == case.domains.len() {
            return u64::from((case.check)(v));
        }
        let mut count = 0;
        for &x in &case.domains[i] {
            v.push(x);
            count += go(i + 1, case, v);
            v.pop();
        }
        count
    }
    go(0, case, &mut Vec::new())
}

fn config(pruning: Pruning) -> Config {
    Config::textbook().with_pruning(pruning)
}

/// The statistics but the time.
fn stats(model: &Model) -> SearchStats {
    let mut solver = Solver::new(model, config(Pruning::Propagators)).unwrap();
    let mut stats = solver.count().stats;
    stats.elapsed = Default::default();
    stats
}

fn assert_case(case: &Case, what: &str) {
    let expected = brute_force(case);
    let fc = Solver::new(&case.model, config(Pruning::ForwardChecking))
        .unwrap()
        .count();
    assert_eq!(fc.solutions, expected, "{what}: forward checking");
    // A thread of its own: no kept matching at the start.
    let fresh = std::thread::scope(|s| s.spawn(|| stats(&case.model)).join().unwrap());
    assert_eq!(fresh.solutions, expected, "{what}: propagators");
    // This thread, twice: the second search may start from the matchings
    // the first one kept.
    assert_eq!(stats(&case.model), fresh, "{what}: first search here");
    assert_eq!(stats(&case.model), fresh, "{what}: second search here");
    let options = ParallelOptions {
        depth: Some(1),
        threads: Some(2),
    };
    let parallel = count_parallel(&case.model, &config(Pruning::Propagators), &options).unwrap();
    assert_eq!(parallel.solutions, expected, "{what}: two threads");
}

#[test]
fn random_all_different_models_count_the_same_with_kept_matchings() {
    let mut rng = SplitMix64::new(0x5eed_0030);
    for trial in 0..300 {
        let case = all_different_case(&mut rng);
        assert_case(&case, &format!("all-different trial {trial}"));
    }
}

#[test]
fn random_circuits_with_regin_count_the_same_with_kept_matchings() {
    let mut rng = SplitMix64::new(0x5eed_0031);
    for trial in 0..300 {
        let case = circuit_case(&mut rng);
        assert_case(&case, &format!("circuit trial {trial}"));
    }
}
