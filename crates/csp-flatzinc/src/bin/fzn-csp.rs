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
    /// Stop after K solutions (K >= 1).
    #[arg(short = 'n', long = "num-solutions", value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
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
                    csp_cli::errln!("fzn-csp: {line}");
                    ExitCode::FAILURE
                }
            };
        }
    };
    match main_with(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Quit::ReaderGone) => ExitCode::from(csp_cli::output::READER_GONE_STATUS as u8),
        Err(Quit::Message(message)) => {
            // A huge token echoed from the file is quoted to 80 characters.
            csp_cli::errln!("fzn-csp: {}", csp_cli::input::shorten_quoted(&message));
            ExitCode::FAILURE
        }
    }
}

fn main_with(cli: Cli) -> Result<(), Quit> {
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
        csp_cli::try_outln!("installed {}", msc.display()).map_err(|e| output_error(&e))?;
        return Ok(());
    }
    let Some(path) = cli.file else {
        return Err("no FlatZinc file given".into());
    };
    let name = csp_cli::input::quote(&path.display().to_string());
    // At most 64 MB (csp_cli::input::MAX_INPUT_BYTES): `fzn-csp /dev/zero`
    // ends in one line instead of growing.
    let src = csp_cli::input::read_file(&path, &name)?;
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
        cancel: Some(csp_cli::cancel_on_ctrl_c()),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = run(&src, &options, &mut out);
    let flushed = out.flush();
    match result {
        Ok(_) => flushed.map_err(|e| output_error(&e)),
        Err(csp_flatzinc::Error::ReaderGone) => Err(Quit::ReaderGone),
        Err(e) => Err(Quit::Message(format!("{name}: {e}"))),
    }
}

/// Why fzn-csp stops with a non-zero status, or quietly.
enum Quit {
    /// One line on standard error, status 1.
    Message(String),
    /// The reader of the output went away: no message, status 0.
    ReaderGone,
}

impl From<String> for Quit {
    fn from(message: String) -> Self {
        Quit::Message(message)
    }
}

impl From<&str> for Quit {
    fn from(message: &str) -> Self {
        Quit::Message(message.to_string())
    }
}

fn output_error(e: &std::io::Error) -> Quit {
    match csp_cli::output::classify(e) {
        csp_cli::output::WriteFailure::ReaderGone => Quit::ReaderGone,
        csp_cli::output::WriteFailure::Failed(message) => Quit::Message(message),
    }
}
