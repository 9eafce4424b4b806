//! `xcsp-csp`: solves an XCSP3-core instance with csp and prints the XCSP
//! competition's output; `--check SOLUTION` verifies a solution instead.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use csp_cli::StrategyArgs;
use csp_xcsp::solve::{Options, run};
use csp_xcsp::{Error, Problem, parse_instance, read_instance_text};

/// Solves an XCSP3-core instance (.xml, .xml.gz, .xml.lzma) and prints
/// `o`, `s`, `v` and `c` lines as the XCSP competitions expect.
#[derive(Parser, Debug)]
#[command(name = "xcsp-csp", version)]
struct Cli {
    /// The XCSP3 instance.
    file: PathBuf,
    /// Verify this solution (an <instantiation>, or a solver's `v` lines;
    /// `-` for standard input) against FILE instead of solving.
    #[arg(long, value_name = "SOLUTION")]
    check: Option<PathBuf>,
    /// Every solution of a satisfaction instance, each as its `v` block.
    #[arg(short = 'a', long = "all-solutions")]
    all_solutions: bool,
    /// Stop after N solutions of a satisfaction instance (N >= 1).
    #[arg(short = 'n', long = "num-solutions", value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    num_solutions: Option<u64>,
    /// Restarts: geometric (the default), luby, none (as fzn-csp spells
    /// them); each run ends after its budget of failures (geometric: 250 x
    /// 1.5^run; luby: 250 x 1,1,2,1,1,2,4,...), then the search starts again
    /// from the root.
    #[arg(long = "restart", value_name = "KIND", default_value = "geometric",
          value_parser = ["geometric", "luby", "none"])]
    restart: String,
    #[command(flatten)]
    strategy: StrategyArgs,
}

fn main() -> ExitCode {
    let cli: Cli = match csp_cli::parse_args("xcsp-csp", 2) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let name = csp_cli::input::quote(&cli.file.display().to_string());
    match main_with(&cli) {
        Ok(code) => code,
        Err(Error::Output(e)) => csp_cli::output::exit_on_error(&e, "xcsp-csp: "),
        Err(e @ Error::Unsupported(_)) => {
            // The competition's answer for what a solver does not handle.
            let _ = writeln!(std::io::stdout(), "s UNSUPPORTED");
            csp_cli::errln!("xcsp-csp: {name}: {e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            csp_cli::errln!(
                "xcsp-csp: {name}: {}",
                csp_cli::input::shorten_quoted(&e.to_string())
            );
            ExitCode::from(2)
        }
    }
}

fn main_with(cli: &Cli) -> Result<ExitCode, Error> {
    let text = read_instance_text(&cli.file)?;
    let problem = Problem::new(&parse_instance(&text)?)?;
    if let Some(solution) = &cli.check {
        return check(&problem, solution);
    }
    let restarts = match cli.restart.as_str() {
        "luby" => csp_core::Restarts::Luby { scale: 250 },
        "none" => csp_core::Restarts::Never,
        _ => csp_xcsp::solve::DEFAULT_RESTARTS,
    };
    let options = Options {
        config: cli
            .strategy
            .config_with(csp_xcsp::solve::default_config().with_restarts(restarts)),
        all_solutions: cli.all_solutions,
        num_solutions: cli.num_solutions,
        stats: cli.strategy.stats,
        cancel: Some(csp_cli::cancel_on_ctrl_c()),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    run(&problem, &options, &mut out)?;
    out.flush().map_err(Error::Output)?;
    Ok(ExitCode::SUCCESS)
}

/// `--check`: exit 0 and one `c` line when every constraint holds, exit 1
/// and the first violated constraint otherwise.
fn check(problem: &Problem, solution: &std::path::Path) -> Result<ExitCode, Error> {
    let sname = csp_cli::input::quote(&solution.display().to_string());
    let text = if solution.as_os_str() == "-" {
        csp_cli::input::read_stdin("<stdin>")
    } else {
        csp_cli::input::read_file(solution, &sname)
    }
    .map_err(Error::Read)?;
    let values = csp_xcsp::output::read_solution(&problem.names, &text)?;
    let out_of_domain = problem
        .names
        .vars
        .iter()
        .zip(&values)
        .find(|(v, x)| !v.contains(**x));
    if let Some((v, x)) = out_of_domain {
        csp_cli::errln!("xcsp-csp: {sname}: {} = {x} is outside its domain", v.name);
        return Ok(ExitCode::FAILURE);
    }
    if let Some(k) = problem.violated(&values) {
        csp_cli::errln!(
            "xcsp-csp: {sname}: constraint {} of {} is violated: {}",
            k + 1,
            problem.constraints.len(),
            csp_cli::input::quote(&format!("{:?}", problem.constraints[k]))
        );
        return Ok(ExitCode::FAILURE);
    }
    let objective = problem.goal.as_ref().and_then(|g| g.kind.eval(&values));
    let line = match objective {
        Some(o) => format!(
            "c solution verified: {} constraints hold, objective {o}",
            problem.constraints.len()
        ),
        None => format!(
            "c solution verified: {} constraints hold",
            problem.constraints.len()
        ),
    };
    writeln!(std::io::stdout(), "{line}").map_err(Error::Output)?;
    Ok(ExitCode::SUCCESS)
}
