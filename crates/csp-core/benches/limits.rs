//! Time-limit overshoot: how long after its time limit a count of all
//! 30-queens solutions (far too many to finish) returns, for each pruning level
//! and a parallel count. Prints a table of the median and worst overshoot.
//!
//! `cargo bench -p csp-core --bench limits` (limit 100 ms, 5 runs per row), or
//! `cargo bench -p csp-core --bench limits -- --limit-ms 1000 --runs 3 --n 30`.

use std::time::{Duration, Instant};

use csp_core::parallel::{ParallelOptions, count_parallel};
use csp_core::{Config, Pruning, SearchStatus, Solver, StopReason, VarOrder};

/// N-Queens, global model (csp-core's shared builder).
fn queens(n: usize) -> csp_core::Model {
    csp_core::models::queens(n).expect("valid size").0
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let (mut limit_ms, mut runs, mut n) = (100u64, 5usize, 30usize);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or_else(|| panic!("{a} needs a number"))
        };
        match a.as_str() {
            "--limit-ms" => limit_ms = value(),
            "--runs" => runs = value() as usize,
            "--n" => n = value() as usize,
            other => panic!("unknown argument {other} (--limit-ms MS, --runs K, --n N)"),
        }
    }
    let limit = Duration::from_millis(limit_ms);
    let model = queens(n);
    let rows: [(&str, Pruning, VarOrder, Option<usize>); 7] = [
        ("check, input", Pruning::Check, VarOrder::Input, None),
        ("fc, input", Pruning::ForwardChecking, VarOrder::Input, None),
        (
            "fc, first-fail",
            Pruning::ForwardChecking,
            VarOrder::FirstFail,
            None,
        ),
        (
            "mac, first-fail",
            Pruning::ArcConsistency,
            VarOrder::FirstFail,
            None,
        ),
        (
            "propagators, first-fail",
            Pruning::Propagators,
            VarOrder::FirstFail,
            None,
        ),
        (
            "mac, dom-wdeg",
            Pruning::ArcConsistency,
            VarOrder::DomOverWdeg,
            None,
        ),
        (
            "fc, input, 2 threads",
            Pruning::ForwardChecking,
            VarOrder::Input,
            Some(2),
        ),
    ];
    println!("All solutions of {n}-queens, time limit {limit_ms} ms, {runs} runs per row.");
    println!("Overshoot = wall time from the call to its return, minus the limit.\n");
    println!("| strategy | nodes per run (median) | median overshoot (ms) | worst (ms) |");
    println!("|---|---:|---:|---:|");
    for (name, pruning, var, threads) in rows {
        let config = Config::textbook()
            .with_pruning(pruning)
            .with_var_order(var)
            .with_time_limit(limit);
        let mut over = Vec::new();
        let mut nodes = Vec::new();
        for _ in 0..runs {
            let started = Instant::now();
            let result = match threads {
                None => Solver::new(&model, config.clone()).expect("valid").count(),
                Some(t) => {
                    let options = ParallelOptions {
                        depth: None,
                        threads: Some(t),
                    };
                    count_parallel(&model, &config, &options).expect("valid")
                }
            };
            let wall = started.elapsed();
            assert_eq!(
                result.status,
                SearchStatus::Stopped(StopReason::TimeLimit),
                "{name}: the count should not finish"
            );
            over.push(wall.saturating_sub(limit).as_secs_f64() * 1e3);
            nodes.push(result.stats.tried);
        }
        over.sort_by(f64::total_cmp);
        nodes.sort_unstable();
        println!(
            "| {name} | {} | {:.2} | {:.2} |",
            nodes[nodes.len() / 2],
            over[over.len() / 2],
            over[over.len() - 1]
        );
    }
}
