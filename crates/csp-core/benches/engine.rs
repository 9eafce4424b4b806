//! Engine benchmark: counts all N-Queens solutions with the generic engine and
//! prints a table (median of several runs, nodes per second).
//!
//! `cargo bench -p csp-core --bench engine` (all rows) or
//! `cargo bench -p csp-core --bench engine -- 12 13` (only those n).
//! Add `--runs K` to change the number of runs per row (default 3), and
//! `--only MODEL-PRUNING-VAR` (e.g. `global-fc-input`) to run one row.

use std::time::{Duration, Instant};

use csp_core::{Config, Model, Pruning, Solver, VarOrder};

/// OEIS A000170, for checking every run.
const A000170: [u64; 18] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512, 95815104,
];

/// N-Queens, global model (csp-core's shared builder).
fn global(n: usize) -> csp_core::Model {
    csp_core::models::queens(n).expect("valid size").0
}

fn pairwise(n: usize) -> Model {
    csp_core::models::pairwise_queens(n).expect("valid size").0
}

/// A benchmark row: model name, builder, pruning, variable order.
type Row = (&'static str, fn(usize) -> Model, Pruning, VarOrder);

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut runs = 3;
    let mut sizes = Vec::new();
    let mut only: Option<String> = None;
    let mut first = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--first" {
            first = true;
        } else if a == "--only" {
            only = it.next().cloned();
        } else if a == "--runs" {
            runs = it.next().and_then(|r| r.parse().ok()).unwrap_or(3);
        } else if let Ok(n) = a.parse::<usize>() {
            sizes.push(n);
        }
    }
    if first {
        if sizes.is_empty() {
            sizes = vec![50, 100, 200, 500, 1000, 10_000];
        }
        first_solutions(&sizes, runs);
        return;
    }
    if sizes.is_empty() {
        sizes = vec![12, 13, 14];
    }
    println!("| model | pruning | var | n | solutions | nodes (tried) | median time | nodes/s |");
    println!("|---|---|---|---:|---:|---:|---:|---:|");
    let rows: &[Row] = &[
        ("global", global, Pruning::ForwardChecking, VarOrder::Input),
        (
            "pairwise",
            pairwise,
            Pruning::ForwardChecking,
            VarOrder::Input,
        ),
        ("global", global, Pruning::ArcConsistency, VarOrder::Input),
        (
            "global",
            global,
            Pruning::ForwardChecking,
            VarOrder::FirstFail,
        ),
    ];
    for &(name, build, pruning, var) in rows {
        let key = format!("{name}-{pruning}-{var}");
        if only.as_ref().is_some_and(|o| o != &key) {
            continue;
        }
        for &n in &sizes {
            let m = build(n);
            let mut times: Vec<Duration> = Vec::new();
            let mut tried = 0;
            for _ in 0..runs {
                let start = Instant::now();
                let r = Solver::new(
                    &m,
                    Config::textbook().with_pruning(pruning).with_var_order(var),
                )
                .expect("valid model")
                .count();
                times.push(start.elapsed());
                assert_eq!(r.solutions, A000170[n], "wrong count for n = {n}");
                tried = r.stats.tried;
            }
            times.sort();
            let med = times[times.len() / 2];
            println!(
                "| {name} | {pruning} | {var} | {n} | {} | {tried} | {:.3} s | {:.1} M |",
                A000170[n],
                med.as_secs_f64(),
                tried as f64 / med.as_secs_f64() / 1e6
            );
        }
    }
}

/// First solutions of large boards with forward checking, first-fail and
/// middle-out on the global model; each solution validated.
fn first_solutions(sizes: &[usize], runs: usize) {
    println!("| n | strategy | nodes (tried) | failures | median time (search) |");
    println!("|---:|---|---:|---:|---:|");
    for &n in sizes {
        let m = global(n);
        let strategy: csp_core::Strategy = "fc+first-fail+middle".parse().expect("valid");
        let mut times = Vec::new();
        let mut stats = csp_core::SearchStats::default();
        for _ in 0..runs {
            let start = Instant::now();
            let mut s = Solver::new(&m, strategy.config()).expect("valid model");
            let r = s.first();
            times.push(start.elapsed());
            let sol = r.solution.expect("a solution exists for n >= 4");
            assert!(m.is_solution(sol.values()), "invalid solution for n = {n}");
            stats = r.stats;
        }
        times.sort();
        println!(
            "| {n} | {strategy} | {} | {} | {:.3} s |",
            stats.tried,
            stats.rejected,
            times[times.len() / 2].as_secs_f64()
        );
    }
}
