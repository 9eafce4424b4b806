//! Solving with the XCSP competition's output: `o` lines for improving
//! solutions, one `s` line, the last solution as `v` lines, `c` comments.

use std::io::Write;

use csp_core::{CancelFlag, Config, Solver};

use crate::error::{Error, Result};
use crate::flat::Problem;
use crate::output::instantiation;
use crate::translate::{Translation, translate};

/// The search `xcsp-csp` runs when no option says otherwise: the engine's
/// strongest general search (propagation, afc/size variable order, binary
/// choices `x = v`, then `x != v`) with [`DEFAULT_RESTARTS`].
pub fn default_config() -> Config {
    Config::default()
        .with_pruning(csp_core::Pruning::Propagators)
        .with_var_order(csp_core::VarOrder::AfcSize)
        .with_binary_branching(true)
        .with_restarts(DEFAULT_RESTARTS)
}

/// The default restarts: geometric, 250 failures then 1.5 times more each
/// run. On the shared XCSP3 set (docs/xcsp.md, "The default search") they
/// answer all 30 instances in 2.7 s of CPU in total; without restarts one
/// instance (RotatingWorkforce1-0103) is not answered in 20 s.
pub const DEFAULT_RESTARTS: csp_core::Restarts = csp_core::Restarts::Geometric {
    base: 250,
    factor: 1.5,
};

/// What a run was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// The search: pruning, heuristics and limits.
    pub config: Config,
    /// Print every solution of a satisfaction problem (`v` block each).
    pub all_solutions: bool,
    /// Stop after this many solutions of a satisfaction problem.
    pub num_solutions: Option<u64>,
    /// Print `c` lines with the search statistics.
    pub stats: bool,
    /// Stops the search (Ctrl-C).
    pub cancel: Option<CancelFlag>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            config: default_config(),
            all_solutions: false,
            num_solutions: None,
            stats: false,
            cancel: None,
        }
    }
}

/// The competition's answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A solution found (satisfaction), search not asked to prove more.
    Satisfiable,
    /// No solution, proved.
    Unsatisfiable,
    /// The optimum, proved.
    OptimumFound,
    /// A limit or Ctrl-C stopped the search before an answer was proved.
    Unknown,
}

impl Answer {
    /// `SATISFIABLE`, `UNSATISFIABLE`, `OPTIMUM FOUND`, `UNKNOWN`.
    pub fn text(self) -> &'static str {
        match self {
            Answer::Satisfiable => "SATISFIABLE",
            Answer::Unsatisfiable => "UNSATISFIABLE",
            Answer::OptimumFound => "OPTIMUM FOUND",
            Answer::Unknown => "UNKNOWN",
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The `s` line.
    pub answer: Answer,
    /// Every solution printed (instance variable values), in order.
    pub solutions: Vec<Vec<i64>>,
    /// The best objective value found.
    pub objective: Option<i64>,
}

/// Translates and solves `problem`, writing the competition's lines to `out`.
///
/// ```
/// let xml = r#"<instance format="XCSP3" type="COP"><variables><var id="x"> 0..9 </var></variables>
///   <constraints><intension> lt(mul(x,x),50) </intension></constraints><objectives><maximize> x </maximize></objectives></instance>"#;
/// let p = csp_xcsp::Problem::new(&csp_xcsp::parse_instance(xml)?)?;
/// let mut out = Vec::new();
/// let outcome = csp_xcsp::solve::run(&p, &Default::default(), &mut out)?;
/// assert_eq!(outcome.objective, Some(7));
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("s OPTIMUM FOUND\n"));
/// assert!(text.contains("v <instantiation type=\"solution\" cost=\"7\">\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(problem: &Problem, options: &Options, out: &mut dyn Write) -> Result<Outcome> {
    let begun = std::time::Instant::now();
    let t = translate(problem)?;
    let mut config = csp_cli::time_left(options.config.clone(), begun);
    if config.decision_vars.is_none() {
        // The instance's variables first: the auxiliary ones follow from them.
        config = config.with_decision_vars(&t.vars);
    }
    let config_cancel = options.cancel.clone().unwrap_or_default();
    config.limits.cancel = Some(config_cancel.clone());
    let io = Error::Output;
    writeln!(
        out,
        "c xcsp-csp: {} variables, {} constraints -> {} engine variables, {} engine constraints",
        problem.names.vars.len(),
        problem.constraints.len(),
        t.model.num_vars(),
        t.model.num_constraints()
    )
    .map_err(io)?;
    let project = |t: &Translation, values: &[i64]| -> Vec<i64> {
        t.vars.iter().map(|v| values[v.index()]).collect()
    };
    let mut solutions = Vec::new();
    let (answer, objective, stats) = match t.objective {
        None => {
            let limit = if options.all_solutions {
                options.num_solutions
            } else {
                Some(options.num_solutions.unwrap_or(1))
            };
            config.limits.solutions = limit;
            let mut solver = Solver::new(&t.model, config)?;
            while let Some(s) = solver.next_solution() {
                let values = project(&t, s.values());
                if options.all_solutions {
                    write_v(out, &instantiation(&problem.names, &values, None)).map_err(io)?;
                }
                solutions.push(values);
            }
            let answer = match (solutions.is_empty(), solver.status().is_complete()) {
                (false, _) => Answer::Satisfiable,
                (true, true) => Answer::Unsatisfiable,
                (true, false) => Answer::Unknown,
            };
            (answer, None, *solver.stats())
        }
        Some((var, goal)) => {
            let mut solver = Solver::new(&t.model, config)?;
            let mut failed = None;
            let stop = config_cancel.clone();
            let optimum = solver.optimize_with(var, goal, |s| {
                let values = project(&t, s.values());
                if let Err(e) =
                    writeln!(out, "o {}", s.values()[var.index()]).and_then(|()| out.flush())
                {
                    // Nobody reads what the search would find: stop it.
                    stop.cancel();
                    failed.get_or_insert(e);
                }
                solutions.push(values);
            })?;
            if let Some(e) = failed {
                return Err(io(e));
            }
            let answer = match (optimum.best.is_some(), optimum.status.is_complete()) {
                (true, true) => Answer::OptimumFound,
                (false, true) => Answer::Unsatisfiable,
                (_, false) => Answer::Unknown,
            };
            (answer, optimum.objective, optimum.stats)
        }
    };
    if options.stats {
        for (name, value) in stats.mzn_stats() {
            writeln!(out, "c {name} = {value}").map_err(io)?;
        }
    }
    writeln!(out, "s {}", answer.text()).map_err(io)?;
    if let Some(last) = solutions.last()
        && !(options.all_solutions && t.objective.is_none())
    {
        write_v(out, &instantiation(&problem.names, last, objective)).map_err(io)?;
    }
    out.flush().map_err(io)?;
    Ok(Outcome {
        answer,
        solutions,
        objective,
    })
}

fn write_v(out: &mut dyn Write, text: &str) -> std::io::Result<()> {
    for line in text.lines() {
        writeln!(out, "v {line}")?;
    }
    out.flush()
}
