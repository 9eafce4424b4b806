//! `fzn-csp`: the csp solver behind MiniZinc's solver contract, reading a FlatZinc file.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use csp_core::{Backjumping, Pruning, Restarts, ValOrder, VarOrder};
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
    /// Free search: ignore the search and restart annotations, use the default
    /// search (or --var, --val and --restart).
    #[arg(short = 'f', long = "free-search")]
    free_search: bool,
    /// Pruning after each decision: none, check, fc, mac, propagators.
    #[arg(long, default_value = "propagators")]
    pruning: Pruning,
    /// Variable order where no annotation applies: auto, input, first-fail,
    /// mrv-degree, dom-wdeg, afc-size, random. auto: for a model without search
    /// annotations (or with -f) the default search, afc-size over the
    /// variables the model declares (not those MiniZinc introduced or
    /// defined) first, then over the rest; first-fail for the variables an
    /// annotation leaves out.
    #[arg(long = "var", value_name = "ORDER", default_value = "auto", value_parser = auto::<VarOrder>)]
    var_order: Auto<VarOrder>,
    /// Value order where no annotation applies: auto, asc, desc, middle, lcv, split,
    /// reverse-split, random. auto: asc, except in an optimisation model
    /// without search annotations (or with -f), where each variable the
    /// objective depends on tries first the value that makes the objective
    /// best (largest first where it adds to a maximised objective).
    #[arg(long = "val", value_name = "ORDER", default_value = "auto", value_parser = auto::<ValOrder>)]
    val_order: Auto<ValOrder>,
    /// How all_different_int filters at the propagators level: domain
    /// (value elimination, then Régin's matching filter) or value (value
    /// elimination alone, as Gecode's default).
    #[arg(long = "all-different", value_name = "KIND", default_value = "domain",
          value_parser = ["domain", "value"], conflicts_with = "compare")]
    all_different: String,
    /// Restarts where the model has no restart annotation (or with -f): auto
    /// (the default search's), none, constant, linear, luby, geometric. Each
    /// run ends after its budget of failures: constant --restart-scale, linear
    /// scale x run, luby scale x 1,1,2,1,1,2,4,..., geometric scale x
    /// factor^run; then the search starts again from the root, keeping
    /// dom-wdeg's weights.
    #[arg(long = "restart", value_name = "KIND", default_value = "auto",
          value_parser = ["auto", "none", "constant", "linear", "luby", "geometric"])]
    restart: String,
    /// The failures of --restart's first run (its unit for luby).
    #[arg(long = "restart-scale", value_name = "N", default_value_t = 250,
          value_parser = clap::value_parser!(u64).range(1..))]
    restart_scale: u64,
    /// The growth factor of --restart geometric (>= 1).
    #[arg(long = "restart-factor", value_name = "F", default_value_t = 1.5,
          value_parser = parse_factor)]
    restart_factor: f64,
    /// Look-back after a dead end: none (chronological, the default), gbj
    /// (Gaschnig's backjumping, with --pruning check), cbj (conflict-directed,
    /// with --pruning check, fc or mac); the propagators level refuses both.
    #[arg(long, value_name = "KIND", default_value = "none")]
    backjump: Backjumping,
    /// Record nogoods at each restart (the reduced nld-nogoods of the run's
    /// last branch) and propagate them in the later runs. Needs restarts (a
    /// restart annotation, or --restart) and --pruning mac or propagators.
    #[arg(long)]
    nogoods: bool,
    /// The most nogoods --nogoods keeps; the oldest go first (default 100000).
    #[arg(long, value_name = "N", requires = "nogoods",
          value_parser = clap::value_parser!(u64).range(1..))]
    nogood_limit: Option<u64>,
    /// Compare strategies instead of solving: a comma-separated list of
    /// strategy strings (check,fc,mac+first-fail,propagators+dom-wdeg), each
    /// run under the same budget (-t, default 10 s each); the table is
    /// verified (counts, first solutions or optima must agree).
    #[arg(long, value_name = "STRATEGIES")]
    compare: Option<String>,
    /// --compare's output: md (a Markdown table), csv, json or svg (a chart).
    #[arg(long, value_name = "FORMAT", default_value = "md", requires = "compare",
          value_parser = ["md", "csv", "json", "svg"])]
    format: String,
    /// --compare: write the table or chart to FILE instead of standard output.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        requires = "compare"
    )]
    output: Option<PathBuf>,
    /// Why is there no solution? For an unsatisfiable model, print a minimal
    /// set of constraints that cannot all hold, one per line (by their
    /// mzn_constraint_name, or FlatZinc text and mzn_path), then
    /// =====UNSATISFIABLE=====; a satisfiable model prints its solutions as
    /// without --explain. Compile with `minizinc -c -g` to keep the names.
    #[arg(long, conflicts_with = "compare")]
    explain: bool,
    /// The memory the search's domains may take: 512M, 2G (default 4G).
    #[arg(long, value_name = "SIZE", value_parser = csp_cli::parse_size)]
    memory_limit: Option<u64>,
    /// Write csp.msc and csp-mznlib/ for MiniZinc into --solver-dir, then exit.
    #[arg(long)]
    install: bool,
    /// Where --install writes (default: ~/.minizinc/solvers).
    #[arg(long, value_name = "DIR", requires = "install")]
    solver_dir: Option<PathBuf>,
}

fn main() -> ExitCode {
    // An error is one line, status 1, like every other fzn-csp error
    // (MiniZinc's contract).
    let cli: Cli = match csp_cli::parse_args("fzn-csp", 1) {
        Ok(cli) => cli,
        Err(code) => return code,
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
    let Some(path) = cli.file.clone() else {
        return Err("no FlatZinc file given".into());
    };
    let name = csp_cli::input::quote(&path.display().to_string());
    if cli.compare.is_some() && cli.output.is_none() && cli.format == "svg" {
        csp_cli::output::refuse_terminal("SVG")?;
    }
    // At most 64 MB (csp_cli::input::MAX_INPUT_BYTES): `fzn-csp /dev/zero`
    // ends in one line instead of growing.
    let src = csp_cli::input::read_file(&path, &name)?;
    if let Some(list) = &cli.compare {
        return compare(&cli, list, &src, &name);
    }
    let options = Options {
        all_solutions: cli.all_solutions,
        num_solutions: cli.num_solutions,
        time_limit: cli.time_limit.map(Duration::from_millis),
        seed: cli.seed,
        free_search: cli.free_search,
        statistics: cli.statistics,
        pruning: cli.pruning,
        var_order: cli.var_order.0,
        val_order: cli.val_order.0,
        restarts: restarts(&cli.restart, cli.restart_scale, cli.restart_factor),
        cancel: Some(csp_cli::cancel_on_ctrl_c()),
        // On a terminal, a heartbeat line (MiniZinc reads fzn-csp through
        // pipes: nothing is drawn there).
        progress: csp_cli::progress::hook(None),
        memory_limit: cli.memory_limit,
        backjumping: cli.backjump,
        nogoods: cli.nogoods,
        nogood_limit: cli
            .nogood_limit
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        // fzn-csp ends when the run does: the model is not freed.
        leave_memory_to_exit: true,
        all_different: cli
            .all_different
            .parse()
            .map_err(|e: String| Quit::Message(format!("{name}: {e}")))?,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = match cli.explain {
        true => csp_flatzinc::explain(&src, &options, &mut out),
        false => run(&src, &options, &mut out).map(|_| ()),
    };
    let flushed = out.flush();
    match result {
        Ok(_) => flushed.map_err(|e| output_error(&e)),
        Err(csp_flatzinc::Error::ReaderGone) => Err(Quit::ReaderGone),
        Err(e) => Err(Quit::Message(format!("{name}: {e}"))),
    }
}

/// `--compare`: the verified table (or chart) of the strategies on the model.
fn compare(cli: &Cli, list: &str, src: &str, name: &str) -> Result<(), Quit> {
    let strategies = csp_flatzinc::parse_strategies(list)?;
    let settings = csp_flatzinc::CompareSettings {
        all_solutions: cli.all_solutions,
        time_limit: cli.time_limit.map(Duration::from_millis),
        cancel: Some(csp_cli::cancel_on_ctrl_c()),
    };
    let spinner = std::io::IsTerminal::is_terminal(&std::io::stderr()).then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(125));
        bar
    });
    let table = csp_flatzinc::compare(src, &strategies, &settings, |strategy| {
        if let Some(bar) = &spinner {
            bar.set_message(format!("running {strategy}"));
        }
    });
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    let table = table.map_err(|e| Quit::Message(format!("{name}: {e}")))?;
    let text = match cli.format.as_str() {
        "csv" => table.to_csv(),
        "json" => {
            table
                .to_json()
                .map_err(|e| format!("cannot write the table as JSON: {e}"))?
                + "\n"
        }
        "svg" => {
            let mut labels = csp_compare::ChartLabels::for_mode(table.mode);
            labels.title = format!("{name}: {}", labels.title);
            labels.size = "model".into();
            table.to_svg_with(&labels)
        }
        _ => table.to_markdown(),
    };
    match &cli.output {
        Some(path) => std::fs::write(path, text).map_err(|e| {
            format!(
                "cannot write {}: {e}",
                csp_cli::input::quote(&path.display().to_string())
            )
        })?,
        None => csp_cli::try_outln!("{}", text.trim_end()).map_err(|e| output_error(&e))?,
    }
    let cut = table.rows.iter().filter(|r| !r.complete).count();
    if cut > 0 {
        let budget = settings
            .time_limit
            .unwrap_or(csp_flatzinc::DEFAULT_COMPARE_TIME);
        csp_cli::errln!(
            "note: {cut} run(s) stopped at the budget ({} ms each, -t); their numbers are lower bounds",
            budget.as_millis()
        );
    }
    Ok(())
}

/// The policy of `--restart KIND` (`None` for `auto`).
fn restarts(kind: &str, scale: u64, factor: f64) -> Option<Restarts> {
    Some(match kind {
        "none" => Restarts::Never,
        "constant" => Restarts::Constant { scale },
        "linear" => Restarts::Linear { scale },
        "luby" => Restarts::Luby { scale },
        "geometric" => Restarts::Geometric {
            base: scale,
            factor,
        },
        _ => return None,
    })
}

/// An option that may be `auto`: `None`, fzn-csp's default search decides.
#[derive(Clone, Debug)]
struct Auto<T>(Option<T>);

/// Parses `auto` or a value of `T`.
fn auto<T: std::str::FromStr>(s: &str) -> Result<Auto<T>, String>
where
    T::Err: std::fmt::Display,
{
    match s {
        "auto" => Ok(Auto(None)),
        _ => s
            .parse::<T>()
            .map(|v| Auto(Some(v)))
            .map_err(|e| e.to_string()),
    }
}

/// A `--restart-factor`: a finite number >= 1.
fn parse_factor(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() && f >= 1.0 => Ok(f),
        _ => Err(format!("expected a number >= 1, not `{s}`")),
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
