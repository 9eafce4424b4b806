//! How evenly `count --part I/K` splits the work: each share's time and solutions against the mean.
//!
//! `cargo run --release -p nqueens --example share_spread -- 16 64` times every
//! subproblem of the bitboard counter (prefixes of 2, 3 and 4 rows) and of the
//! symmetry counter (its subtrees) on one thread, adds them up share by share
//! (share I of K is every K-th subproblem from the I-th, as the CLI counts
//! them), and prints the slowest share against the mean. docs/cluster.md
//! explains how this chose `split::SHARE_DEPTH` = 3.

use std::time::Instant;

use nqueens::split::subproblems;
use nqueens::symmetry::subtrees;

/// Prints the spread of `k` shares of subproblems with these times and counts.
fn report(label: &str, k: usize, times: &[f64], counts: &[u64]) {
    let mut share_time = vec![0.0; k];
    let mut share_count = vec![0u64; k];
    for (i, (&t, &c)) in times.iter().zip(counts).enumerate() {
        share_time[i % k] += t;
        share_count[i % k] += c;
    }
    let mean_time = share_time.iter().sum::<f64>() / k as f64;
    let max_time = share_time.iter().copied().fold(0.0, f64::max);
    let mean_count = share_count.iter().sum::<u64>() as f64 / k as f64;
    let max_count = share_count.iter().copied().max().unwrap_or(0) as f64;
    println!(
        "{label:<18} {:>6} subproblems, K = {k:>3}: share time mean {mean_time:.4} s, slowest {max_time:.4} s ({:.2}x); solutions slowest/mean {:.2}x",
        times.len(),
        max_time / mean_time,
        max_count / mean_count,
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().as_deref().unwrap_or("16").parse()?;
    let k: usize = args.next().as_deref().unwrap_or("64").parse()?;
    if k == 0 {
        return Err("K must be at least 1".into());
    }
    for depth in [2, 3, 4] {
        let (mut times, mut counts) = (Vec::new(), Vec::new());
        for s in subproblems(n, depth)? {
            let started = Instant::now();
            counts.push(s.count()?);
            times.push(started.elapsed().as_secs_f64());
        }
        report(&format!("bitboard, {depth} rows"), k, &times, &counts);
    }
    let (mut times, mut counts) = (Vec::new(), Vec::new());
    for s in subtrees(n)? {
        let started = Instant::now();
        counts.push(s.count()?.total);
        times.push(started.elapsed().as_secs_f64());
    }
    report("symmetry", k, &times, &counts);
    Ok(())
}
