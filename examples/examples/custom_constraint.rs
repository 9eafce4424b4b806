//! A constraint written from scratch: `DistinctDifferences` (check, then
//! promising, then propagate) finds optimal Golomb rulers, and `--compare` shows
//! every pruning level working on each stage of it.
//!
//! ```text
//! cargo run --release --example custom_constraint -- --marks 7 --stats
//! cargo run --release --example custom_constraint -- --marks 6 --compare
//! ```

use std::time::Duration;

use clap::Parser;
use csp_core::{Config, Pruning};
use csp_examples::cli;
use csp_examples::custom_constraint::Stage;
use csp_examples::golomb::{self, MAX_MARKS};

/// Find the shortest Golomb ruler with n marks using a hand-written constraint.
#[derive(Parser)]
#[command(name = "custom_constraint")]
struct Cli {
    /// The number of marks.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=MAX_MARKS as i64))]
    marks: u8,
    /// How much of the constraint to use: check, promising or propagate.
    #[arg(long, value_enum, default_value_t = Stage::Propagate)]
    stage: Stage,
    /// Run every stage under every pruning level and print a table; each run
    /// stops after --node-limit nodes (1,000,000 unless given) or 20 s.
    #[arg(long)]
    compare: bool,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let n = usize::from(args.marks);
    let defaults = Config::textbook().with_pruning(Pruning::ForwardChecking);
    let config = cli::config_from(&args.strategy, defaults);
    let run = |stage, config| {
        golomb::shortest(n, stage, config).unwrap_or_else(|e| csp_cli::exit_usage(e))
    };
    if !args.compare {
        csp_cli::outln!(
            "{n} marks, stage {}; strategy {}",
            args.stage,
            cli::strategy_name(&config)
        );
        let r = run(args.stage, config.clone());
        match (&r.marks, r.length()) {
            (Some(marks), Some(len)) => {
                let marks: Vec<String> = marks.iter().map(i64::to_string).collect();
                let quality = if r.status.is_complete() {
                    "optimal"
                } else {
                    "best found"
                };
                csp_cli::outln!("marks {}: {quality} length {len}", marks.join(" "));
            }
            _ => csp_cli::outln!("{}", cli::none_found("ruler", r.status)),
        }
        cli::report_stats(&args.strategy, &config, &r.stats, r.status, &[]);
        return;
    }
    let limit = args.strategy.node_limit.unwrap_or(1_000_000);
    csp_cli::outln!(
        "{n} marks, var {}, val {}; each run stops after {limit} nodes or 20 s",
        config.var_order,
        config.val_order
    );
    csp_cli::outln!(
        "{:<10} {:<12} {:>6} {:>10} {:>10} {:>10}  status",
        "stage",
        "pruning",
        "length",
        "nodes",
        "failures",
        "ms"
    );
    for stage in [Stage::Check, Stage::Promising, Stage::Propagate] {
        for pruning in Pruning::ALL {
            let mut c = config.clone().with_pruning(pruning).with_node_limit(limit);
            c.limits.time = c.limits.time.or(Some(Duration::from_secs(20)));
            let r = run(stage, c);
            let len = r.length().map_or("-".to_string(), |v| v.to_string());
            csp_cli::outln!(
                "{:<10} {:<12} {:>6} {:>10} {:>10} {:>10.1}  {}",
                stage.to_string(),
                pruning.to_string(),
                len,
                r.stats.tried,
                r.stats.rejected,
                r.stats.elapsed.as_secs_f64() * 1000.0,
                r.status
            );
        }
    }
}
