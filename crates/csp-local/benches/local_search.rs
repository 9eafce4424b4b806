//! Min-conflicts benchmark: places n queens (global model: three all-different
//! constraints) with `MinConflicts` and prints a table, median of several runs.
//!
//! `cargo bench -p csp-core --bench local_search` (n = 10^3 .. 10^6) or
//! `cargo bench -p csp-core --bench local_search -- 1000000` (only those n).
//! `--runs K` changes the number of runs per row (default 3), `--seed S` the seed.
//! Every solution is validated twice: by `Model::is_solution` inside `solve`, and
//! here by an independent O(n) attack check.

use std::time::{Duration, Instant};

use csp_local::{LocalSearchStatus, MinConflicts};

/// N-Queens, global model (csp-core's shared builder).
fn global(n: usize) -> csp_core::Model {
    csp_core::models::queens(n).expect("valid size").0
}

/// Whether `cols` places n non-attacking queens (one per row, column by row).
fn valid_queens(cols: &[i64]) -> bool {
    let n = cols.len();
    let (mut col, mut up, mut down) = (vec![false; n], vec![false; 2 * n], vec![false; 2 * n]);
    cols.iter().enumerate().all(|(r, &c)| {
        let Ok(c) = usize::try_from(c) else {
            return false;
        };
        if c >= n || col[c] || up[c + r] || down[c + n - r] {
            return false;
        }
        (col[c], up[c + r], down[c + n - r]) = (true, true, true);
        true
    })
}

/// CPU time of this thread so far (Linux), to see through a loaded machine.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut runs = 3;
    let mut seed = 1;
    let mut sizes = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--runs" => runs = it.next().and_then(|s| s.parse().ok()).expect("--runs K"),
            "--seed" => seed = it.next().and_then(|s| s.parse().ok()).expect("--seed S"),
            s => sizes.push(s.parse::<usize>().expect("a board size")),
        }
    }
    if sizes.is_empty() {
        sizes = vec![1_000, 10_000, 100_000, 1_000_000];
    }
    println!("min-conflicts, N-Queens global model, seed {seed}, median of {runs} runs");
    println!(
        "(solve: MinConflicts::solve, its is_solution check included, wall clock; solve cpu: \
         this thread's CPU time from /proc/thread-self/schedstat, coarse below ~10 ms; \
         total: model building + solve)"
    );
    println!(
        "| {:>9} | {:>9} | {:>9} | {:>7} | {:>9} | {:>9} | {:>9} |",
        "n", "build ms", "init cfl", "steps", "solve ms", "solve cpu", "total ms"
    );
    println!(
        "|{:-<11}|{:-<11}|{:-<11}|{:-<9}|{:-<11}|{:-<11}|{:-<11}|",
        "", "", "", "", "", "", ""
    );
    for n in sizes {
        let (mut builds, mut solves, mut totals) = (Vec::new(), Vec::new(), Vec::new());
        let mut cpus = Vec::new();
        let (mut steps, mut init) = (0, 0);
        for _ in 0..runs {
            let t = Instant::now();
            let model = global(n);
            let build = t.elapsed();
            let cpu = thread_cpu();
            let r = MinConflicts::new()
                .with_seed(seed)
                .solve(&model)
                .expect("no internal error");
            if let (Some(a), Some(b)) = (cpu, thread_cpu()) {
                cpus.push(b - a);
            }
            assert_eq!(r.status, LocalSearchStatus::Found, "n = {n}: {r:?}");
            let cols = r.solution.as_deref().expect("a solution");
            assert!(valid_queens(cols), "n = {n}: invalid placement");
            (steps, init) = (r.steps, r.initial_conflicts);
            builds.push(build);
            solves.push(r.elapsed);
            totals.push(build + r.elapsed);
            drop(model);
        }
        let cpu = if cpus.is_empty() {
            "-".to_string()
        } else {
            ms(median(cpus))
        };
        println!(
            "| {:>9} | {:>9} | {:>9} | {:>7} | {:>9} | {:>9} | {:>9} |",
            n,
            ms(median(builds)),
            init,
            steps,
            ms(median(solves)),
            cpu,
            ms(median(totals))
        );
    }
}
