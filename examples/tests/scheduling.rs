//! Job shop (`disjunctive`) and travelling salesman (`circuit`): optima from the
//! literature and from brute force written independently of the models.

use csp_core::{Config, Pruning, Solver, Value};
use csp_examples::jobshop::{JobShop, JobShopModel};
use csp_examples::tsp::{Tsp, TspModel};

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            out.push(q);
        }
    }
    out
}

/// The least makespan over every combination of machine sequences: each
/// sequence fixes the earliest starts (longest paths), or is cyclic.
fn brute_force_makespan(shop: &JobShop) -> Value {
    let ops: Vec<(usize, usize)> = shop
        .jobs
        .iter()
        .enumerate()
        .flat_map(|(j, job)| (0..job.len()).map(move |k| (j, k)))
        .collect();
    let per_machine: Vec<Vec<(usize, usize)>> = (0..shop.machines())
        .map(|m| {
            ops.iter()
                .copied()
                .filter(|&(j, k)| shop.jobs[j][k].0 == m)
                .collect()
        })
        .collect();
    let orders: Vec<Vec<Vec<usize>>> = per_machine.iter().map(|o| permutations(o.len())).collect();
    let mut best = Value::MAX;
    let mut pick = vec![0; orders.len()];
    loop {
        // Earliest starts by relaxation; a cycle never settles.
        let mut start = vec![vec![0; 0]; shop.jobs.len()];
        for (j, job) in shop.jobs.iter().enumerate() {
            start[j] = vec![0; job.len()];
        }
        let dur = |j: usize, k: usize| shop.jobs[j][k].1;
        let mut settled = false;
        for _ in 0..=ops.len() {
            let mut changed = false;
            for (j, job) in shop.jobs.iter().enumerate() {
                for k in 1..job.len() {
                    let v = start[j][k - 1] + dur(j, k - 1);
                    if start[j][k] < v {
                        start[j][k] = v;
                        changed = true;
                    }
                }
            }
            for (m, seq) in pick.iter().enumerate() {
                let order = &orders[m][*seq];
                for w in order.windows(2) {
                    let (a, b) = (per_machine[m][w[0]], per_machine[m][w[1]]);
                    let v = start[a.0][a.1] + dur(a.0, a.1);
                    if start[b.0][b.1] < v {
                        start[b.0][b.1] = v;
                        changed = true;
                    }
                }
            }
            if !changed {
                settled = true;
                break;
            }
        }
        if settled {
            let makespan = ops
                .iter()
                .map(|&(j, k)| start[j][k] + dur(j, k))
                .max()
                .unwrap();
            best = best.min(makespan);
        }
        // Next combination of sequences.
        let mut m = 0;
        loop {
            if m == pick.len() {
                return best;
            }
            pick[m] += 1;
            if pick[m] < orders[m].len() {
                break;
            }
            pick[m] = 0;
            m += 1;
        }
    }
}

#[test]
fn the_small_job_shop_optimum_agrees_with_brute_force_at_every_level() {
    let shop = JobShop::small();
    assert_eq!(brute_force_makespan(&shop), 11);
    for order_vars in [true, false] {
        for pruning in [
            Pruning::ForwardChecking,
            Pruning::ArcConsistency,
            Pruning::Propagators,
        ] {
            let m = if order_vars {
                JobShopModel::with_order_vars(&shop, shop.total_duration())
            } else {
                JobShopModel::new(&shop, shop.total_duration())
            }
            .unwrap();
            let config = Config::textbook().with_pruning(pruning);
            let best = Solver::new(&m.model, config)
                .unwrap()
                .minimize(m.makespan)
                .unwrap();
            assert!(best.status.is_complete());
            assert_eq!(
                best.objective,
                Some(11),
                "{pruning}, order variables {order_vars}"
            );
            // The schedule respects jobs and machines.
            let v = best.best.unwrap().into_values();
            let s = |j: usize, k: usize| v[m.starts[j][k].index()];
            for (j, job) in shop.jobs.iter().enumerate() {
                for k in 1..job.len() {
                    assert!(s(j, k - 1) + job[k - 1].1 <= s(j, k));
                }
            }
        }
    }
}

#[test]
fn ft06_is_proved_optimal_at_55() {
    // Fisher and Thompson (1963); the optimum 55 is in every scheduling survey.
    let shop = JobShop::ft06();
    let m = JobShopModel::new(&shop, shop.total_duration()).unwrap();
    let config = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_var_order(csp_core::VarOrder::FirstFail);
    let best = Solver::new(&m.model, config)
        .unwrap()
        .minimize(m.makespan)
        .unwrap();
    assert!(best.status.is_complete());
    assert_eq!(best.objective, Some(55));
    let text = m.show(&shop, best.best.unwrap().values());
    assert_eq!(text.lines().count(), 6);
}

#[test]
fn a_bad_job_shop_is_refused() {
    let mut shop = JobShop::small();
    shop.jobs[0][0].1 = 50;
    assert!(JobShopModel::new(&shop, 20).is_err());
    shop.jobs = vec![vec![]];
    assert!(JobShopModel::new(&shop, 20).is_err());
}

/// The shortest tour and how many directed tours reach it, over every order of
/// the cities after city 0.
fn brute_force_tsp(tsp: &Tsp) -> (Value, usize) {
    let n = tsp.cities.len();
    let mut best = (Value::MAX, 0);
    for p in permutations(n - 1) {
        let tour: Vec<usize> = std::iter::once(0).chain(p.iter().map(|&c| c + 1)).collect();
        let len = tsp.tour_length(&tour);
        if len < best.0 {
            best = (len, 1);
        } else if len == best.0 {
            best.1 += 1;
        }
    }
    best
}

#[test]
fn the_shortest_tour_agrees_with_brute_force() {
    for (n, seed) in [(2, 3), (3, 1), (5, 2), (6, 1), (7, 4), (8, 1)] {
        let tsp = Tsp::random(n, seed);
        let (length, tours) = brute_force_tsp(&tsp);
        for pruning in [Pruning::ForwardChecking, Pruning::Propagators] {
            let m = TspModel::new(&tsp, None).unwrap();
            let config = Config::textbook().with_pruning(pruning);
            let best = Solver::new(&m.model, config)
                .unwrap()
                .minimize(m.length)
                .unwrap();
            assert!(best.status.is_complete());
            assert_eq!(
                best.objective,
                Some(length),
                "n = {n}, seed {seed}, {pruning}"
            );
            let tour = m.tour(best.best.unwrap().values());
            assert_eq!(tsp.tour_length(&tour), length);
            // Every optimal directed tour, once each.
            let m = TspModel::new(&tsp, Some(length)).unwrap();
            let count = Solver::new(&m.model, Config::textbook().with_pruning(pruning))
                .unwrap()
                .count();
            assert_eq!(count.solutions, tours as u64, "n = {n}, seed {seed}");
        }
    }
    assert!(TspModel::new(&Tsp::random(1, 1), None).is_err());
}
