//! `fzn-csp`: the csp solver behind MiniZinc's solver contract, reading a FlatZinc file.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use csp_core::{Pruning, ValOrder, VarOrder};
use csp_flatzinc::{Options, install_solver_config, run};

/// Solves a FlatZinc model with csp and prints the solutions as MiniZinc expects.
///
/// Install for MiniZinc with `fzn-csp --install`, then run
/// `minizinc --solver csp model.mzn`.
#[derive(Parser, Debug)]
#[command(name = "fzn-csp", version)]
struct Cli {
    /// The FlatZinc file to solve.
    #[arg(required_unless_present = "install")]
    file: Option<PathBuf>,
    /// All solutions (satisfaction), or every improving solution (optimisation).
    #[arg(short = 'a', long = "all-solutions")]
    all_solutions: bool,
    /// Stop after K solutions.
    #[arg(short = 'n', long = "num-solutions", value_name = "K")]
    num_solutions: Option<u64>,
    /// Print statistics as %%%mzn-stat lines.
    #[arg(short = 's', long = "statistics")]
    statistics: bool,
    /// Stop searching after MS milliseconds.
    #[arg(short = 't', long = "time-limit", value_name = "MS")]
    time_limit: Option<u64>,
    /// Seed for random heuristics (indomain_random, --var random, --val random).
    #[arg(
        short = 'r',
        long = "random-seed",
        value_name = "SEED",
        default_value_t = 0
    )]
    seed: u64,
    /// Free search: ignore the search annotations, use --var and --val.
    #[arg(short = 'f', long = "free-search")]
    free_search: bool,
    /// Pruning after each decision: none, check, fc, mac, propagators.
    #[arg(long, default_value = "propagators")]
    pruning: Pruning,
    /// Variable order where no annotation applies: input, first-fail, mrv-degree, dom-wdeg, random.
    #[arg(long = "var", default_value = "first-fail")]
    var_order: VarOrder,
    /// Value order where no annotation applies: asc, desc, middle, lcv, random.
    #[arg(long = "val", default_value = "asc")]
    val_order: ValOrder,
    /// Write csp.msc and csp-mznlib/ for MiniZinc into --solver-dir, then exit.
    #[arg(long)]
    install: bool,
    /// Where --install writes (default: ~/.minizinc/solvers).
    #[arg(long, value_name = "DIR", requires = "install")]
    solver_dir: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version print as clap has them; an error is one line,
            // status 1, like every other fzn-csp error (MiniZinc's contract).
            return match csp_cli::clap_error_line(&e) {
                None => {
                    let _ = e.print();
                    ExitCode::SUCCESS
                }
                Some(line) => {
                    eprintln!("fzn-csp: {line}");
                    ExitCode::FAILURE
                }
            };
        }
    };
    match main_with(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("fzn-csp: {message}");
            ExitCode::FAILURE
        }
    }
}

fn main_with(cli: Cli) -> Result<(), String> {
    if cli.install {
        let dir = match cli.solver_dir {
            Some(dir) => dir,
            None => std::env::var_os("HOME")
                .map(|home| PathBuf::from(home).join(".minizinc").join("solvers"))
                .ok_or("HOME is not set: give --solver-dir")?,
        };
        let exe = std::env::current_exe().map_err(|e| format!("cannot locate fzn-csp: {e}"))?;
        let msc = install_solver_config(&dir, &exe)
            .map_err(|e| format!("cannot write into {}: {e}", dir.display()))?;
        println!("installed {}", msc.display());
        return Ok(());
    }
    let Some(path) = cli.file else {
        return Err("no FlatZinc file given".into());
    };
    let src = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let options = Options {
        all_solutions: cli.all_solutions,
        num_solutions: cli.num_solutions,
        time_limit: cli.time_limit.map(Duration::from_millis),
        seed: cli.seed,
        free_search: cli.free_search,
        statistics: cli.statistics,
        pruning: cli.pruning,
        var_order: cli.var_order,
        val_order: cli.val_order,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = run(&src, &options, &mut out);
    let _ = out.flush();
    result
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", path.display()))
}
