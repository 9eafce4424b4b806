//! Look-back measured: backtracking, Gaschnig's backjumping and
//! conflict-directed backjumping, each with its look-ahead, on 8-queens and
//! on random binary CSPs (model B) near the phase transition. The figures of
//! docs/strategies.md ("Look-back") come from this program.
//!
//! ```text
//! cargo run --release -p csp-examples --example lookback
//! cargo run --release -p csp-examples --example lookback -- --random 30,10,0.2 --tightness 0.52 --instances 30 --strategies fc,fc-cbj
//! cargo run --release -p csp-examples --example lookback -- --random 30,10,0.2 --sweep 0.48,0.56,0.02 --instances 20 --strategies fc-cbj
//! cargo run --release -p csp-examples --example lookback -- --random 30,10,0.2 --tightness 0.52 --instances 30 --strategies fc --hardest-third
//! ```
//!
//! Nodes are values tried ([`csp_core::SearchStats::tried`]), as Kondrak and
//! van Beek count them; every strategy uses the input variable order and
//! ascending values, the static orders of their theorems.

use std::time::{Duration, Instant};

use clap::Parser;
use csp_core::{Model, Solver, Strategy, models};

/// Compare chronological backtracking with backjumping.
#[derive(Parser)]
#[command(name = "lookback")]
struct Cli {
    /// A random class `n,d,density` instead of 8-queens and the default
    /// class (20,10,0.3).
    #[arg(long, value_name = "N,D,DENSITY")]
    random: Option<String>,
    /// The tightness of the random class (default 0.54, where about half of
    /// the default class's instances have a solution, found with --sweep;
    /// for 30,10,0.2 that point is 0.52).
    #[arg(long, value_name = "T")]
    tightness: Option<f64>,
    /// Tightnesses `from,to,step`: for each, the share of instances with a
    /// solution and the mean nodes of the first strategy.
    #[arg(long, value_name = "FROM,TO,STEP")]
    sweep: Option<String>,
    /// Instances of the random class (seeds 0, 1, ...).
    #[arg(long, default_value_t = 50)]
    instances: u64,
    /// The strategies, by their strategy strings.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "check,check-gbj,check-cbj,fc,fc-cbj,mac,mac-cbj"
    )]
    strategies: Vec<Strategy>,
    /// Only the third of the instances on which forward checking (`fc`)
    /// visits the most nodes (ranked first, by nodes, not timed).
    #[arg(long)]
    hardest_third: bool,
    /// Only these seeds (as --hardest-third prints them), to time a
    /// strategy on them alone.
    #[arg(long, value_delimiter = ',', value_name = "SEEDS")]
    seeds: Option<Vec<u64>>,
    /// Stop each search after this many nodes (the instance then counts as
    /// stopped, and its nodes are a lower bound).
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
}

/// One strategy's totals over instances.
#[derive(Default)]
struct Totals {
    nodes: u64,
    checks: u64,
    backjumps: u64,
    solved: u64,
    stopped: u64,
    time: Duration,
}

fn run(model: &Model, strategy: Strategy, all: bool, limit: Option<u64>, totals: &mut Totals) {
    let started = Instant::now();
    let mut config = strategy.config();
    config.limits.nodes = limit;
    let mut solver = Solver::new(model, config).unwrap_or_else(|e| csp_cli::exit_usage(e));
    let stats = if all {
        let r = solver.count();
        totals.solved += r.solutions;
        totals.stopped += u64::from(!r.is_complete());
        r.stats
    } else {
        let r = solver.first();
        totals.solved += u64::from(r.solution.is_some());
        totals.stopped += u64::from(r.solution.is_none() && !r.status.is_complete());
        r.stats
    };
    totals.time += started.elapsed();
    totals.nodes += stats.tried;
    totals.checks += stats.checks + stats.propagations;
    totals.backjumps += stats.backjumps;
}

fn table(
    title: &str,
    what: &str,
    strategies: &[Strategy],
    models: &[Model],
    all: bool,
    limit: Option<u64>,
) {
    csp_cli::outln!("{title}");
    csp_cli::outln!();
    csp_cli::outln!(
        "| strategy | {what} | stopped | nodes | checks + propagations | backjumps | time (ms) |"
    );
    csp_cli::outln!("|---|---:|---:|---:|---:|---:|---:|");
    for &s in strategies {
        let mut t = Totals::default();
        for m in models {
            run(m, s, all, limit, &mut t);
        }
        csp_cli::outln!(
            "| {s} | {} | {} | {} | {} | {} | {:.1} |",
            t.solved,
            t.stopped,
            t.nodes,
            t.checks,
            t.backjumps,
            t.time.as_secs_f64() * 1e3
        );
    }
    csp_cli::outln!();
}

fn class(spec: &str) -> (usize, usize, f64) {
    let parts: Vec<&str> = spec.split(',').collect();
    let parsed = match parts[..] {
        [n, d, p] => n
            .parse()
            .ok()
            .zip(d.parse().ok())
            .zip(p.parse().ok())
            .map(|((n, d), p)| (n, d, p)),
        _ => None,
    };
    parsed.unwrap_or_else(|| {
        csp_cli::exit_usage(format!("--random: expected N,D,DENSITY, got '{spec}'"))
    })
}

fn instances(n: usize, d: usize, p: f64, t: f64, seeds: impl Iterator<Item = u64>) -> Vec<Model> {
    seeds
        .map(|seed| {
            models::random_binary(n, d, p, t, seed)
                .unwrap_or_else(|e| csp_cli::exit_usage(e))
                .0
        })
        .collect()
}

fn main() {
    let args: Cli = csp_examples::cli::parse_args();
    let (n, d, p) = args.random.as_deref().map_or((20, 10, 0.3), class);
    let t = args.tightness.unwrap_or(0.54);
    if let Some(sweep) = &args.sweep {
        let parts: Vec<f64> = sweep
            .split(',')
            .map(|x| {
                x.parse()
                    .unwrap_or_else(|_| csp_cli::exit_usage("--sweep: FROM,TO,STEP"))
            })
            .collect();
        let [from, to, step] = parts[..] else {
            csp_cli::exit_usage("--sweep: expected FROM,TO,STEP");
        };
        let step = step.max(1e-3);
        let s = args.strategies[0];
        csp_cli::outln!("| tightness | with a solution | mean nodes ({s}) |");
        csp_cli::outln!("|---:|---:|---:|");
        let mut t = from;
        while t <= to + 1e-9 {
            let ms = instances(n, d, p, t, 0..args.instances);
            let mut totals = Totals::default();
            for m in &ms {
                run(m, s, false, args.node_limit, &mut totals);
            }
            csp_cli::outln!(
                "| {t:.2} | {}/{} | {} |",
                totals.solved,
                args.instances,
                totals.nodes / args.instances.max(1)
            );
            t += step;
        }
        return;
    }
    let mut seeds: Vec<u64> = args
        .seeds
        .clone()
        .unwrap_or_else(|| (0..args.instances).collect());
    if args.hardest_third {
        let fc: Strategy = "fc".parse().unwrap_or_else(|e| csp_cli::exit_usage(e));
        let mut ranked: Vec<(u64, u64)> = seeds
            .iter()
            .map(|&seed| {
                let m = &instances(n, d, p, t, std::iter::once(seed))[0];
                let mut totals = Totals::default();
                run(m, fc, false, None, &mut totals);
                (totals.nodes, seed)
            })
            .collect();
        ranked.sort_unstable_by(|a, b| b.cmp(a));
        seeds = ranked
            .iter()
            .take(ranked.len().div_ceil(3))
            .map(|&(_, s)| s)
            .collect();
        seeds.sort_unstable();
        csp_cli::outln!("hardest third under fc: seeds {seeds:?}");
    }
    if args.random.is_none()
        && args.tightness.is_none()
        && !args.hardest_third
        && args.seeds.is_none()
    {
        let (queens, _) = models::pairwise_queens(8).unwrap_or_else(|e| csp_cli::exit_usage(e));
        table(
            "8-queens (pairwise model), all solutions",
            "solutions",
            &args.strategies,
            &[queens],
            true,
            args.node_limit,
        );
    }
    let started = Instant::now();
    let ms = instances(n, d, p, t, seeds.iter().copied());
    let built = started.elapsed();
    table(
        &format!(
            "random binary CSPs, model B: n = {n}, d = {d}, density {p}, tightness {t}, {} instances (seeds {}..), first solution (built in {:.0} ms)",
            ms.len(),
            seeds.first().copied().unwrap_or(0),
            built.as_secs_f64() * 1e3
        ),
        "with a solution",
        &args.strategies,
        &ms,
        false,
        args.node_limit,
    );
}
