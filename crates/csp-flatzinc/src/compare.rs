//! `fzn-csp --compare STRATEGIES FILE.fzn`: the verified strategy comparison
//! of `nqueens compare`, on any model MiniZinc can compile.
//!
//! Each strategy string (`check`, `fc+first-fail`, `propagators+dom-wdeg`,
//! spelled as `--pruning`, `--var` and `--val` spell them) searches the
//! model afresh under the same budget. A satisfaction model is solved to its
//! first solution (each one checked against the model) or, with `-a`, all
//! its solutions are counted (every complete count must agree); an
//! optimisation model is optimised (every proved optimum must agree, every
//! best solution is checked). A disagreement is an error, never a row.
//!
//! ```
//! let src = "var 1..4: x :: output_var;\nvar 1..4: y :: output_var;\n\
//!            constraint int_lt(x, y);\nsolve maximize x;";
//! let strategies = csp_flatzinc::parse_strategies("check,fc,propagators+dom-wdeg")?;
//! let table = csp_flatzinc::compare(src, &strategies, &Default::default(), |_| {})?;
//! assert_eq!(table.rows.len(), 3);
//! assert!(table.rows.iter().all(|r| r.complete && r.objective == Some(3)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use csp_compare::{CompareOptions, Entry, Mode, Table};
use csp_core::{CancelFlag, Goal, Limits, Strategy};

use crate::{Error, TranslateOptions, translate};

/// The budget of each run when no `-t` is given: 10 s.
pub const DEFAULT_COMPARE_TIME: Duration = Duration::from_secs(10);

/// How [`compare`] runs.
#[derive(Clone, Debug, Default)]
pub struct CompareSettings {
    /// Satisfaction models: count all solutions instead of finding the first.
    pub all_solutions: bool,
    /// Each run's time budget (default [`DEFAULT_COMPARE_TIME`]).
    pub time_limit: Option<Duration>,
    /// Stops every run (Ctrl-C).
    pub cancel: Option<CancelFlag>,
}

/// Parses a comma-separated list of strategy strings
/// (`check,fc,propagators+dom-wdeg`); each entry is named by its string.
///
/// ```
/// let s = csp_flatzinc::parse_strategies("check, mac+first-fail")?;
/// assert_eq!(s.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>(), ["check", "mac+first-fail"]);
/// assert!(csp_flatzinc::parse_strategies("fc,sideways").is_err());
/// assert!(csp_flatzinc::parse_strategies(" ").is_err());
/// # Ok::<(), String>(())
/// ```
pub fn parse_strategies(list: &str) -> Result<Vec<(String, Strategy)>, String> {
    let entries: Vec<(String, Strategy)> = list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<Strategy>()
                .map(|st| (s.to_string(), st))
                .map_err(|e| e.to_string())
        })
        .collect::<Result<_, _>>()?;
    if entries.is_empty() {
        return Err(
            "--compare needs at least one strategy (e.g. check,fc,propagators+dom-wdeg)".into(),
        );
    }
    Ok(entries)
}

/// Compares `strategies` on the FlatZinc model `src` (complete runs
/// must agree, a disagreement is an error; docs/minizinc.md, "Compare
/// strategies on your model");
/// `starting` is called with each strategy's name before it
/// runs.
pub fn compare(
    src: &str,
    strategies: &[(String, Strategy)],
    settings: &CompareSettings,
    mut starting: impl FnMut(&str),
) -> Result<Table, Error> {
    let ast = crate::parse(src)?;
    let options = TranslateOptions {
        free_search: true,
        ..Default::default()
    };
    let first = translate(&ast, &options)?;
    if !first.clamped.is_empty() {
        return Err(Error::Io(format!(
            "cannot compare: the bounds of {} were cut to 64 bits, so no run could prove its result",
            first.clamped.join(", ")
        )));
    }
    let mode = match first.objective {
        Some((_, Goal::Minimize)) => Mode::Minimize,
        Some((_, Goal::Maximize)) => Mode::Maximize,
        None if settings.all_solutions => Mode::Count,
        None => Mode::First,
    };
    let entries: Vec<Entry> = strategies
        .iter()
        .map(|(name, s)| Entry::engine(name.clone(), *s, ""))
        .collect();
    let compare_options = CompareOptions {
        objective: first.objective.map(|(v, _)| v),
        mode,
        limits: Limits {
            time: Some(settings.time_limit.unwrap_or(DEFAULT_COMPARE_TIME)),
            cancel: settings.cancel.clone(),
            ..Limits::default()
        },
        // Counted: the model's own solutions, not their auxiliary extensions.
        projection: (mode == Mode::Count).then(|| first.projection.clone()),
        ..CompareOptions::default()
    };
    // Every run translates the model afresh: the same model each time.
    let build = || {
        translate(&ast, &options).map(|t| t.model).map_err(|e| {
            csp_core::CspError::InvalidArgument {
                context: "translate".into(),
                message: e.to_string(),
            }
        })
    };
    csp_compare::compare_model(&build, &entries, &compare_options, |e| starting(&e.name))
        .map_err(|e| Error::Io(format!("comparison failed: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_across_strategies() {
        let src = "var 1..4: x :: output_var;\nvar 1..4: y :: output_var;\n\
                   constraint int_ne(x, y);\nsolve satisfy;";
        let strategies = parse_strategies("none,check,fc,mac,propagators+dom-wdeg").unwrap();
        let settings = CompareSettings {
            all_solutions: true,
            ..Default::default()
        };
        let table = compare(src, &strategies, &settings, |_| {}).unwrap();
        assert_eq!(table.mode, Mode::Count);
        assert!(table.rows.iter().all(|r| r.solutions == 12 && r.complete));
        assert!(table.to_markdown().starts_with("| strategy | solutions |"));
    }

    #[test]
    fn first_solutions_are_checked() {
        let src =
            "var 1..3: x :: output_var;\nvar 1..3: y;\nconstraint int_lt(x, y);\nsolve satisfy;";
        let table = compare(
            src,
            &parse_strategies("check,fc").unwrap(),
            &Default::default(),
            |_| {},
        )
        .unwrap();
        assert_eq!(table.mode, Mode::First);
        assert!(table.rows.iter().all(|r| r.solutions == 1));
    }

    #[test]
    fn an_unsatisfiable_optimisation_says_so() {
        let src = "var 1..3: x;\nconstraint int_lt(x, 1);\nsolve minimize x;";
        let table = compare(
            src,
            &parse_strategies("check,propagators").unwrap(),
            &Default::default(),
            |_| {},
        )
        .unwrap();
        assert!(
            table
                .rows
                .iter()
                .all(|r| r.complete && r.objective.is_none())
        );
        assert!(table.to_markdown().contains("no solution"));
    }
}
