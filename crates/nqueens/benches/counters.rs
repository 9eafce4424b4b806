//! Criterion benchmarks of the dedicated counters: bitboard vs symmetry, and parallel speed-up.
//!
//! Run with `cargo bench -p nqueens --bench counters`; the whole run takes a
//! few minutes (10 samples, flat sampling: the n = 16 counts take seconds).
//! It starts by checking the counts for n = 14..=17 against OEIS (not timed).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use nqueens::{bitboard, symmetry};

/// Small, flat groups: every sample is one or a few full counts.
fn configure(group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
}

fn sequential(c: &mut Criterion) {
    let mut group = c.benchmark_group("sequential");
    configure(&mut group);
    for n in 12..=16 {
        group.bench_with_input(BenchmarkId::new("bitboard", n), &n, |b, &n| {
            b.iter(|| bitboard::count(black_box(n)))
        });
        group.bench_with_input(BenchmarkId::new("symmetry", n), &n, |b, &n| {
            b.iter(|| symmetry::count(black_box(n)))
        });
    }
    group.finish();
}

fn parallel(c: &mut Criterion) {
    let mut group = c.benchmark_group("parallel");
    configure(&mut group);
    for n in [15, 16] {
        for threads in [1, 2] {
            let id = format!("n{n}/threads{threads}");
            group.bench_function(BenchmarkId::new("bitboard", &id), |b| {
                b.iter(|| bitboard::count_parallel(black_box(n), Some(threads)))
            });
            group.bench_function(BenchmarkId::new("symmetry", &id), |b| {
                b.iter(|| symmetry::count_parallel(black_box(n), Some(threads)))
            });
        }
    }
    group.finish();
}

/// Not timed: checks the counters beyond the sizes the tests reach, n = 14..=17,
/// against OEIS A000170 (total) and A002562 (unique), with both threads.
fn verify(_: &mut Criterion) {
    const TOTAL: [u64; 4] = [365_596, 2_279_184, 14_772_512, 95_815_104];
    const UNIQUE: [u64; 4] = [45_752, 285_053, 1_846_955, 11_977_939];
    for (n, (total, unique)) in (14..=17).zip(TOTAL.into_iter().zip(UNIQUE)) {
        let b = bitboard::count_parallel(n, Some(2)).expect("n <= 32");
        let s = symmetry::count_parallel(n, Some(2)).expect("n <= 32");
        assert_eq!(b, total, "bitboard n = {n}");
        assert_eq!((s.total, s.unique), (total, unique), "symmetry n = {n}");
        println!("verified n = {n}: {total} solutions, {unique} unique");
    }
}

criterion_group!(benches, verify, sequential, parallel);
criterion_main!(benches);
