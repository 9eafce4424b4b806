//! Criterion benchmarks of the generic engine on N-Queens: counting (n = 10..14,
//! forward checking and MAC, input order and first-fail), parallel speed-up of
//! the engine's count, and first solutions of large boards (engine, min-conflicts
//! local search, construction).
//!
//! `cargo bench -p nqueens --bench engine` (about 10 minutes: the n = 14 counts
//! take seconds each); filter with criterion's syntax, e.g.
//! `cargo bench -p nqueens --bench engine -- count/fc-input`.
//! Every measured run is checked: counts against OEIS A000170, solutions with
//! the O(n) validator.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use csp_core::parallel::{ParallelOptions, count_parallel};
use csp_core::{Config, Pruning, ValOrder, VarOrder};
use csp_local::MinConflicts;
use nqueens::construct::{construct, validate};
use nqueens::{Queens, Variant};

/// OEIS A000170 for n = 0..=14.
const A000170: [u64; 15] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];

fn configure(group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
}

fn count(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    configure(&mut group);
    let strategies = [
        ("fc-input", Pruning::ForwardChecking, VarOrder::Input),
        (
            "fc-first-fail",
            Pruning::ForwardChecking,
            VarOrder::FirstFail,
        ),
        ("mac-input", Pruning::ArcConsistency, VarOrder::Input),
        (
            "mac-first-fail",
            Pruning::ArcConsistency,
            VarOrder::FirstFail,
        ),
    ];
    for n in 10..=14 {
        let queens = Queens::new(n, Variant::Global).expect("valid n");
        for (name, pruning, var) in strategies {
            let config = Config::textbook().with_pruning(pruning).with_var_order(var);
            group.bench_with_input(BenchmarkId::new(name, n), &n, |b, &n| {
                b.iter(|| {
                    let r = queens.count(config.clone()).expect("valid config");
                    assert_eq!(r.solutions, A000170[n], "{name} n = {n}");
                    black_box(r.solutions)
                })
            });
        }
    }
    group.finish();
}

fn parallel(c: &mut Criterion) {
    let mut group = c.benchmark_group("parallel");
    configure(&mut group);
    for n in [13, 14] {
        let queens = Queens::new(n, Variant::Global).expect("valid n");
        let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
        for threads in [1, 2] {
            let options = ParallelOptions {
                depth: None,
                threads: Some(threads),
            };
            let id = format!("n{n}/threads{threads}");
            group.bench_function(BenchmarkId::new("fc-input", id), |b| {
                b.iter(|| {
                    let r = count_parallel(queens.model(), &config, &options).expect("valid");
                    assert_eq!(r.solutions, A000170[n]);
                    black_box(r.solutions)
                })
            });
        }
    }
    group.finish();
}

fn first_solution(c: &mut Criterion) {
    let mut group = c.benchmark_group("first");
    configure(&mut group);
    let engine = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_var_order(VarOrder::FirstFail)
        .with_val_order(ValOrder::MiddleOut);
    for n in [50, 100, 200, 500, 1000] {
        let queens = Queens::new(n, Variant::Global).expect("valid n");
        group.bench_with_input(BenchmarkId::new("fc-first-fail-middle", n), &n, |b, _| {
            b.iter(|| {
                let columns = queens
                    .first(engine.clone())
                    .expect("valid")
                    .expect("a solution");
                validate(&columns).expect("a valid placement");
                black_box(columns.len())
            })
        });
    }
    for n in [1000, 100_000] {
        // The CLI's model for local search: three all-different, no size cap.
        let (model, _) = nqueens::model::global_model_any_size(n).expect("valid n");
        let search = MinConflicts::new().with_seed(1).with_max_steps(10_000_000);
        group.bench_with_input(BenchmarkId::new("min-conflicts", n), &n, |b, _| {
            b.iter(|| {
                let result = search.solve(&model).expect("valid model");
                let values = result.solution.expect("a solution within the steps");
                let columns: Vec<usize> = values.iter().map(|&v| v as usize).collect();
                validate(&columns).expect("a valid placement");
                black_box(columns.len())
            })
        });
    }
    for n in [10_000, 1_000_000] {
        group.bench_with_input(BenchmarkId::new("construct", n), &n, |b, &n| {
            b.iter(|| {
                let columns = construct(black_box(n)).expect("n >= 4");
                validate(&columns).expect("a valid placement");
                black_box(columns.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, count, parallel, first_solution);
criterion_main!(benches);
