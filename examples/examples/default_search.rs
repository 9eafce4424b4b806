//! The measurement behind `Config::default()`: the example models solved with
//! the propagators level and binary choices under each learning variable
//! order (dom/wdeg, afc/size) and each restart policy, nodes and time per run.
//!
//! ```text
//! cargo run --release -p csp-examples --example default_search
//! cargo run --release -p csp-examples --example default_search -- --time-limit 60s
//! ```
//!
//! Every run of one model must agree (the same optimum or count) when it
//! completes; the program stops with an error otherwise.

use std::time::{Duration, Instant};

use clap::Parser;
use csp_core::{Config, CspError, Goal, LinExpr, Model, Restarts, Solver, VarOrder};
use csp_examples::cli;
use csp_examples::custom_constraint::Stage;
use csp_examples::golomb::GolombRuler;
use csp_examples::jobshop::{JobShop, JobShopModel};
use csp_examples::magic_square::MagicSquare;
use csp_examples::nurse_roster::Roster;
use csp_examples::sudoku::{SudokuModel, parse_puzzles};
use csp_examples::tsp::{Tsp, TspModel};

const PUZZLES: &str = include_str!("../data/sudoku.txt");

/// Time each example model under the candidate default searches.
#[derive(Parser)]
#[command(name = "default_search")]
struct Cli {
    /// Each run's budget.
    #[arg(long, default_value = "20s", value_parser = csp_cli::parse_duration)]
    time_limit: Duration,
}

/// What a model asks of the search.
enum Task {
    Optimise(LinExpr, Goal),
    Count,
    First,
}

fn models() -> Result<Vec<(String, Model, Task)>, CspError> {
    let mut out = Vec::new();
    let roster = Roster::sample().build()?;
    out.push((
        "nurse roster".into(),
        roster.model,
        Task::Optimise(roster.cost, Goal::Minimize),
    ));
    let shop = JobShop::ft06();
    let js = JobShopModel::new(&shop, shop.total_duration())?;
    out.push((
        "jobshop ft06".into(),
        js.model,
        Task::Optimise(js.makespan.into(), Goal::Minimize),
    ));
    let tsp = TspModel::new(&Tsp::random(12, 1), None)?;
    out.push((
        "tsp 12".into(),
        tsp.model,
        Task::Optimise(tsp.length.into(), Goal::Minimize),
    ));
    let ruler = GolombRuler::new(9, Stage::Propagate)?;
    let len = ruler.length();
    out.push((
        "golomb 9".into(),
        ruler.model,
        Task::Optimise(len.into(), Goal::Minimize),
    ));
    let magic = MagicSquare::new(5, false)?;
    out.push(("magic square 5".into(), magic.model, Task::First));
    let puzzles = parse_puzzles(PUZZLES).map_err(|e| CspError::InvalidArgument {
        context: "sudoku".into(),
        message: e.to_string(),
    })?;
    for p in puzzles.iter().rev().take(3) {
        let s = SudokuModel::new(&p.puzzle)?;
        out.push((format!("sudoku line {}", p.line), s.model, Task::Count));
    }
    Ok(out)
}

fn main() {
    let args: Cli = cli::parse_args();
    let models = models().unwrap_or_else(|e| csp_cli::exit_usage(e));
    let candidates = [
        ("dom-wdeg", VarOrder::DomOverWdeg, Restarts::Never),
        ("afc-size", VarOrder::AfcSize, Restarts::Never),
        (
            "dom-wdeg+luby",
            VarOrder::DomOverWdeg,
            Restarts::Luby { scale: 100 },
        ),
        (
            "afc-size+luby",
            VarOrder::AfcSize,
            Restarts::Luby { scale: 100 },
        ),
    ];
    csp_cli::outln!("| model | search | answer | nodes | time |");
    csp_cli::outln!("|---|---|---:|---:|---:|");
    for (name, model, task) in &models {
        let mut agreed: Option<String> = None;
        for (label, var, restarts) in candidates {
            let config = Config::default()
                .with_var_order(var)
                .with_restarts(restarts)
                .with_time_limit(args.time_limit);
            let begun = Instant::now();
            let mut solver = Solver::new(model, config).unwrap_or_else(|e| csp_cli::exit_usage(e));
            let (answer, complete, nodes) = match task {
                Task::Optimise(v, goal) => {
                    let r = solver
                        .optimize(v, *goal)
                        .unwrap_or_else(|e| csp_cli::exit_usage(e));
                    let a = r.objective.map_or("none".to_string(), |o| o.to_string());
                    (a, r.status.is_complete(), r.stats.tried)
                }
                Task::Count => {
                    let r = solver.count();
                    (
                        r.solutions.to_string(),
                        r.status.is_complete(),
                        r.stats.tried,
                    )
                }
                Task::First => {
                    let r = solver.first();
                    let found = r.solution.is_some();
                    let done = found || r.status.is_complete();
                    (
                        if found { "found" } else { "none" }.to_string(),
                        done,
                        r.stats.tried,
                    )
                }
            };
            let time = begun.elapsed();
            if complete {
                match &agreed {
                    Some(a) if *a != answer => csp_cli::exit_usage(format!(
                        "{name}: {label} finds {answer}, another search {a}"
                    )),
                    Some(_) => {}
                    None => agreed = Some(answer.clone()),
                }
            }
            let shown = if complete {
                answer
            } else {
                format!("{answer} (limit)")
            };
            csp_cli::outln!(
                "| {name} | {label} | {shown} | {nodes} | {:.3} s |",
                time.as_secs_f64()
            );
        }
    }
    csp_cli::output::finish();
}
