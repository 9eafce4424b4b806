//! Strategy comparison: run many strategies on many sizes, check that they agree,
//! and tabulate the work each did.
//!
//! A comparison that does not check itself is how published comparisons go
//! wrong (a model variant missing a constraint makes two strategies look alike).
//! [`compare`] therefore verifies, for every size, that all complete runs report
//! the same number of solutions (count mode) or agree on satisfiability with a
//! valid solution (first mode); a disagreement is an error naming both
//! strategies, never a row in a table.
//!
//! ```
//! use csp_core::{CspError, Model, Strategy};
//! use csp_compare::{compare, CompareOptions, Entry};
//!
//! // N-Queens with three all-different constraints.
//! let build = |n: usize, _variant: &str| -> Result<Model, CspError> {
//!     let mut m = Model::new();
//!     let q = m.int_var_array("q", n, 0..=(n as i64 - 1))?;
//!     let up: Vec<i64> = (0..n as i64).collect();
//!     let down: Vec<i64> = up.iter().map(|i| -i).collect();
//!     m.all_different(&q)?;
//!     m.all_different_offsets(&q, &up)?;
//!     m.all_different_offsets(&q, &down)?;
//!     Ok(m)
//! };
//! let entries = vec![
//!     Entry::engine("check", "check".parse::<Strategy>()?, ""),
//!     Entry::engine("fc", "fc".parse::<Strategy>()?, ""),
//! ];
//! let table = compare(&build, &entries, &[6, 8], &CompareOptions::default()).unwrap();
//! assert_eq!(table.rows.len(), 4);
//! assert!(table.rows.iter().all(|r| r.solutions == if r.size == 6 { 4 } else { 92 }));
//! println!("{}", table.to_markdown());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod chart;
mod format;

use std::time::{Duration, Instant};

use serde::Serialize;

use csp_core::{
    Config, CspError, Goal, Limits, Model, SearchStats, SearchStatus, Solver, StopReason, Strategy,
    Value, VarId,
};

pub use chart::ChartLabels;
pub use format::format_seconds;

/// What each run does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Count all solutions.
    #[default]
    Count,
    /// Find the first solution.
    First,
    /// Find the smallest value of [`CompareOptions::objective`] and prove it
    /// optimal (branch and bound).
    Minimize,
    /// Find the largest value of [`CompareOptions::objective`] and prove it
    /// optimal.
    Maximize,
}

/// What a custom (non-engine) method reports for one size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomOutcome {
    /// Solutions counted (count mode), or 1/0 for found/none (first mode).
    pub solutions: u64,
    /// In first mode: the solution found, one value per model variable, so the
    /// comparison can check it against the model.
    pub solution: Option<Vec<csp_core::Value>>,
    /// Nodes, if the method counts them.
    pub nodes: Option<u64>,
}

/// A custom method: given the size and the mode, its outcome.
pub type CustomRunner = dyn Fn(usize, Mode) -> Result<CustomOutcome, MethodError> + Send + Sync;

/// Why a custom method failed: the method's own error, kept as it is (its
/// message is the one line the comparison reports).
///
/// ```
/// use csp_compare::MethodError;
/// let e = MethodError::new(std::fmt::Error);
/// assert_eq!(e.to_string(), "an error occurred when formatting an argument");
/// ```
#[derive(Clone, Debug, thiserror::Error)]
#[error(transparent)]
pub struct MethodError(std::sync::Arc<dyn std::error::Error + Send + Sync>);

impl MethodError {
    /// Wraps the method's error.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        MethodError(std::sync::Arc::new(error))
    }
}

/// Two method errors are equal when they say the same thing.
impl PartialEq for MethodError {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for MethodError {}

/// How an entry solves.
pub enum Method {
    /// The generic engine with a strategy, on the model variant named here (passed
    /// to the model builder).
    Engine {
        /// Pruning and heuristics.
        strategy: Strategy,
        /// The model variant (free text for the builder; `""` for the default).
        variant: String,
    },
    /// Anything else (a dedicated counter), checked like the engine runs.
    Custom(Box<CustomRunner>),
}

/// One column of the comparison: a name and a method.
pub struct Entry {
    /// The name shown in tables and errors.
    pub name: String,
    /// How it solves.
    pub method: Method,
}

impl Entry {
    /// An engine run with `strategy` on model `variant`.
    pub fn engine(name: impl Into<String>, strategy: Strategy, variant: impl Into<String>) -> Self {
        Entry {
            name: name.into(),
            method: Method::Engine {
                strategy,
                variant: variant.into(),
            },
        }
    }

    /// A custom method.
    pub fn custom(
        name: impl Into<String>,
        run: impl Fn(usize, Mode) -> Result<CustomOutcome, MethodError> + Send + Sync + 'static,
    ) -> Self {
        Entry {
            name: name.into(),
            method: Method::Custom(Box::new(run)),
        }
    }
}

/// Options of a comparison.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// The variable to optimise in [`Mode::Minimize`] and [`Mode::Maximize`]
    /// (the same in every model the builder makes).
    pub objective: Option<VarId>,
    /// Count or first solution.
    pub mode: Mode,
    /// Limits applied to every run alike (equal budgets).
    pub limits: Limits,
    /// Runs faster than this are repeated (up to `max_repeats` times) and the
    /// median time is reported.
    pub repeat_below: Duration,
    /// The most runs for one cell.
    pub max_repeats: usize,
    /// The variables solutions are told apart by, if not all: each engine
    /// run is configured with [`Config::with_projection`], so that
    /// [`Mode::Count`] counts the solutions projected on them (it also puts
    /// them first in every strategy's order; the optimisation modes ignore
    /// it). A front end whose models add auxiliary variables (FlatZinc's
    /// half-reified Booleans) counts the model's own solutions this way.
    pub projection: Option<Vec<VarId>>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            objective: None,
            mode: Mode::Count,
            limits: Limits::default(),
            repeat_below: Duration::from_millis(200),
            max_repeats: 5,
            projection: None,
        }
    }
}

/// One cell of the comparison: an entry on a size.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The entry's name.
    pub strategy: String,
    /// The size.
    pub size: usize,
    /// Solutions found (a lower bound when `complete` is false).
    pub solutions: u64,
    /// Whether the run finished (false: a limit stopped it).
    pub complete: bool,
    /// The limit that stopped it, if any.
    pub stopped_by: Option<String>,
    /// Values tried (`None` for custom methods that do not count nodes).
    pub nodes: Option<u64>,
    /// Values rejected.
    pub failures: Option<u64>,
    /// Values removed by propagation.
    pub pruned: Option<u64>,
    /// Constraint checks plus propagator calls.
    pub propagations: Option<u64>,
    /// Median wall time, in seconds.
    pub seconds: f64,
    /// How many runs the median is over.
    pub runs: usize,
    /// The engine's full statistics for the median run (engine entries only).
    #[serde(skip)]
    pub stats: Option<SearchStats>,
    /// Optimisation: the best objective value found (the optimum when
    /// `complete`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<Value>,
}

/// A finished, verified comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    /// Count, first, or optimisation.
    pub mode: Mode,
    /// One row per entry and size, sizes outer, entries in the given order.
    pub rows: Vec<Row>,
    /// Whether the table compares strategies on one model ([`compare_model`]):
    /// the size column is left out of the Markdown table.
    #[serde(skip)]
    pub single_model: bool,
}

/// Why a comparison failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompareError {
    /// Two complete runs disagree: at least one strategy or model variant is wrong.
    #[error(
        "size {size}: '{a}' finds {a_count} solutions but '{b}' finds {b_count}; at least one of them is wrong"
    )]
    Disagreement {
        /// The size.
        size: usize,
        /// The first strategy.
        a: String,
        /// Its count.
        a_count: u64,
        /// The other strategy.
        b: String,
        /// Its count.
        b_count: u64,
    },
    /// Two complete optimisation runs prove different optima.
    #[error(
        "size {size}: '{a}' proves the optimum {a_value} but '{b}' proves {b_value}; at least one of them is wrong"
    )]
    DisagreeOptimum {
        /// The size.
        size: usize,
        /// The first strategy.
        a: String,
        /// Its optimum.
        a_value: Value,
        /// The other strategy.
        b: String,
        /// Its optimum.
        b_value: Value,
    },
    /// A strategy reported a solution that violates the model.
    #[error("size {size}: '{strategy}' reports a solution that violates the model")]
    InvalidSolution {
        /// The size.
        size: usize,
        /// The strategy.
        strategy: String,
    },
    /// The model could not be built or searched.
    #[error("size {size}, '{strategy}': {source}")]
    Model {
        /// The size.
        size: usize,
        /// The strategy.
        strategy: String,
        /// The error.
        source: CspError,
    },
    /// A custom method failed.
    #[error("size {size}, '{strategy}': {source}")]
    Custom {
        /// The size.
        size: usize,
        /// The strategy.
        strategy: String,
        /// The method's error.
        source: MethodError,
    },
}

struct Measured {
    solutions: u64,
    objective: Option<Value>,
    status: SearchStatus,
    stats: Option<SearchStats>,
    nodes: Option<u64>,
    solution: Option<Vec<csp_core::Value>>,
    time: Duration,
}

fn run_engine(
    model: &Model,
    strategy: Strategy,
    options: &CompareOptions,
) -> Result<Measured, CspError> {
    let config = Config {
        limits: options.limits.clone(),
        projection: options.projection.clone(),
        ..strategy.config()
    };
    let start = Instant::now();
    let mut solver = Solver::new(model, config)?;
    let mut objective = None;
    let (solutions, status, solution) = match options.mode {
        Mode::Count => {
            let r = solver.count();
            (r.solutions, r.status, None)
        }
        Mode::Minimize | Mode::Maximize => {
            let var = options.objective.ok_or_else(|| CspError::InvalidArgument {
                context: "compare".into(),
                message: "an optimisation comparison needs an objective variable".into(),
            })?;
            let goal = if options.mode == Mode::Minimize {
                Goal::Minimize
            } else {
                Goal::Maximize
            };
            let r = solver.optimize(var, goal)?;
            objective = r.objective;
            let found = r.best.map(|s| s.into_values());
            (r.improvements.len() as u64, r.status, found)
        }
        Mode::First => {
            let r = solver.first();
            let status = match r.status {
                SearchStatus::Paused => SearchStatus::Complete,
                s => s,
            };
            let found = r.solution.map(|s| s.into_values());
            (u64::from(found.is_some()), status, found)
        }
    };
    let time = start.elapsed();
    let stats = *solver.stats();
    Ok(Measured {
        solutions,
        status,
        objective,
        nodes: Some(stats.tried),
        stats: Some(stats),
        solution,
        time,
    })
}

fn run_once(
    entry: &Entry,
    size: usize,
    build: &dyn Fn(usize, &str) -> Result<Model, CspError>,
    options: &CompareOptions,
) -> Result<(Measured, Option<Model>), CompareError> {
    let model_err = |source| CompareError::Model {
        size,
        strategy: entry.name.clone(),
        source,
    };
    match &entry.method {
        Method::Engine { strategy, variant } => {
            let model = build(size, variant).map_err(model_err)?;
            let m = run_engine(&model, *strategy, options).map_err(model_err)?;
            Ok((m, Some(model)))
        }
        Method::Custom(run) => {
            let start = Instant::now();
            let out = run(size, options.mode).map_err(|source| CompareError::Custom {
                size,
                strategy: entry.name.clone(),
                source,
            })?;
            let time = start.elapsed();
            let model = if out.solution.is_some() {
                Some(build(size, "").map_err(model_err)?)
            } else {
                None
            };
            Ok((
                Measured {
                    solutions: out.solutions,
                    objective: None,
                    status: SearchStatus::Complete,
                    stats: None,
                    nodes: out.nodes,
                    solution: out.solution,
                    time,
                },
                model,
            ))
        }
    }
}

/// Runs every entry on every size, verifies that they agree, and returns the
/// table. `build(size, variant)` makes the model for an entry.
pub fn compare(
    build: &dyn Fn(usize, &str) -> Result<Model, CspError>,
    entries: &[Entry],
    sizes: &[usize],
    options: &CompareOptions,
) -> Result<Table, CompareError> {
    compare_reporting(build, entries, sizes, options, |_, _| {})
}

/// [`compare`], calling `starting(size, entry)` before each entry runs on a
/// size (to show progress while a long comparison works).
pub fn compare_reporting(
    build: &dyn Fn(usize, &str) -> Result<Model, CspError>,
    entries: &[Entry],
    sizes: &[usize],
    options: &CompareOptions,
    mut starting: impl FnMut(usize, &Entry),
) -> Result<Table, CompareError> {
    let mut rows = Vec::new();
    for &size in sizes {
        let mut agreed: Option<(String, u64)> = None;
        let mut optimum: Option<(String, Value)> = None;
        for entry in entries {
            starting(size, entry);
            let (first, model) = run_once(entry, size, build, options)?;
            // Verify before timing further runs.
            if let (Some(sol), Some(model)) = (&first.solution, &model)
                && !model.is_solution(sol)
            {
                return Err(CompareError::InvalidSolution {
                    size,
                    strategy: entry.name.clone(),
                });
            }
            if let (true, Some(v)) = (first.status.is_complete(), first.objective) {
                match &optimum {
                    Some((name, best)) if *best != v => {
                        return Err(CompareError::DisagreeOptimum {
                            size,
                            a: name.clone(),
                            a_value: *best,
                            b: entry.name.clone(),
                            b_value: v,
                        });
                    }
                    Some(_) => {}
                    None => optimum = Some((entry.name.clone(), v)),
                }
            }
            let optimising = matches!(options.mode, Mode::Minimize | Mode::Maximize);
            if first.status.is_complete() && !optimising {
                match &agreed {
                    Some((name, count)) if *count != first.solutions => {
                        return Err(CompareError::Disagreement {
                            size,
                            a: name.clone(),
                            a_count: *count,
                            b: entry.name.clone(),
                            b_count: first.solutions,
                        });
                    }
                    Some(_) => {}
                    None => agreed = Some((entry.name.clone(), first.solutions)),
                }
            }
            let mut times = vec![first.time];
            if first.time < options.repeat_below && first.status.is_complete() {
                while times.len() < options.max_repeats.max(1) {
                    times.push(run_once(entry, size, build, options)?.0.time);
                }
            }
            times.sort();
            let median = times[times.len() / 2];
            let stopped_by = match first.status {
                SearchStatus::Stopped(r) if r != StopReason::SolutionLimit => Some(r.to_string()),
                _ => None,
            };
            rows.push(Row {
                strategy: entry.name.clone(),
                size,
                solutions: first.solutions,
                complete: first.status.is_complete(),
                stopped_by,
                nodes: first.nodes,
                failures: first.stats.map(|s| s.rejected),
                pruned: first.stats.map(|s| s.pruned),
                propagations: first.stats.map(|s| s.checks + s.propagations),
                seconds: median.as_secs_f64(),
                runs: times.len(),
                stats: first.stats,
                objective: first.objective,
            });
        }
    }
    Ok(Table {
        mode: options.mode,
        rows,
        single_model: false,
    })
}

/// [`compare_reporting`] on one model (no sizes): `build` makes the model
/// afresh for every run (the same model each time). The table's rows have
/// size 0, and its Markdown leaves the size column out.
///
/// ```
/// use csp_core::{Model, Strategy};
/// use csp_compare::{compare_model, CompareOptions, Entry, Mode};
/// // The smallest x + y with x != y over 1..=3, proved by two strategies.
/// let build = || -> Result<Model, csp_core::CspError> {
///     let mut m = Model::new();
///     let x = m.int_var(1..=3)?;
///     let y = m.int_var(1..=3)?;
///     m.not_equal(x, y)?;
///     let total = m.int_var(0..=6)?;
///     m.post((x + y).eq(total))?;
///     Ok(m)
/// };
/// let entries = vec![
///     Entry::engine("check", "check".parse::<Strategy>()?, ""),
///     Entry::engine("propagators+dom-wdeg", "propagators+dom-wdeg".parse::<Strategy>()?, ""),
/// ];
/// let objective = build()?.vars().last();
/// let options = CompareOptions { mode: Mode::Minimize, objective, ..Default::default() };
/// let table = compare_model(&build, &entries, &options, |_| {})?;
/// assert!(table.rows.iter().all(|r| r.objective == Some(3) && r.complete));
/// assert!(table.to_markdown().starts_with("| strategy | optimum |"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compare_model(
    build: &dyn Fn() -> Result<Model, CspError>,
    entries: &[Entry],
    options: &CompareOptions,
    mut starting: impl FnMut(&Entry),
) -> Result<Table, CompareError> {
    let sized = |_: usize, _: &str| build();
    let mut table = compare_reporting(&sized, entries, &[0], options, |_, e| starting(e))?;
    table.single_model = true;
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queens(n: usize, variant: &str) -> Result<Model, CspError> {
        let mut m = Model::new();
        let q = m.int_var_array("q", n, 0..=(n as i64 - 1))?;
        for i in 0..n {
            for j in i + 1..n {
                let d = (j - i) as i64;
                m.not_equal(q[i], q[j])?;
                m.not_equal_offset(q[i], q[j], d)?;
                // The deliberately broken variant forgets one diagonal.
                if variant != "broken" {
                    m.not_equal_offset(q[i], q[j], -d)?;
                }
            }
        }
        Ok(m)
    }

    fn s(text: &str) -> Strategy {
        text.parse().unwrap()
    }

    #[test]
    fn a_broken_variant_is_an_error_naming_both_strategies() {
        let entries = vec![
            Entry::engine("fc", s("fc"), ""),
            Entry::engine("fc on broken model", s("fc"), "broken"),
        ];
        let e = compare(&queens, &entries, &[6], &CompareOptions::default()).unwrap_err();
        // 83 permutations of 6 have distinct q_i + i (checked by brute force).
        assert_eq!(
            e.to_string(),
            "size 6: 'fc' finds 4 solutions but 'fc on broken model' finds 83; at least one of them is wrong"
        );
    }

    #[test]
    fn table_node_counts_equal_the_runs_statistics() {
        let entries = vec![
            Entry::engine("check", s("check"), ""),
            Entry::engine("mac", s("mac"), ""),
        ];
        let t = compare(&queens, &entries, &[5, 6], &CompareOptions::default()).unwrap();
        for r in &t.rows {
            let m = queens(r.size, "").unwrap();
            let strategy = if r.strategy == "check" {
                s("check")
            } else {
                s("mac")
            };
            let stats = Solver::new(&m, strategy.config()).unwrap().count().stats;
            assert_eq!(r.nodes, Some(stats.tried));
            assert_eq!(r.failures, Some(stats.rejected));
            assert_eq!(r.pruned, Some(stats.pruned));
        }
    }

    #[test]
    fn a_run_stopped_by_a_limit_is_kept_and_marked() {
        let entries = vec![
            Entry::engine("none", s("none"), ""),
            Entry::engine("fc", s("fc"), ""),
        ];
        let options = CompareOptions {
            limits: Limits {
                nodes: Some(1000),
                ..Limits::default()
            },
            ..CompareOptions::default()
        };
        let t = compare(&queens, &entries, &[7], &options).unwrap();
        assert!(!t.rows[0].complete);
        assert_eq!(t.rows[0].stopped_by.as_deref(), Some("node limit"));
        assert_eq!(t.rows[0].nodes, Some(1000));
        assert!(t.rows[1].complete);
        assert!(t.to_markdown().contains("(limit)"));
    }

    #[test]
    fn custom_methods_are_verified_too() {
        let entries = vec![
            Entry::engine("fc", s("fc"), ""),
            Entry::custom("liar", |_, _| {
                Ok(CustomOutcome {
                    solutions: 3,
                    solution: None,
                    nodes: None,
                })
            }),
        ];
        assert!(matches!(
            compare(&queens, &entries, &[6], &CompareOptions::default()),
            Err(CompareError::Disagreement { .. })
        ));
        let first = CompareOptions {
            mode: Mode::First,
            ..CompareOptions::default()
        };
        let wrong = vec![Entry::custom("bad placement", |n, _| {
            Ok(CustomOutcome {
                solutions: 1,
                solution: Some(vec![0; n]),
                nodes: None,
            })
        })];
        assert!(matches!(
            compare(&queens, &wrong, &[6], &first),
            Err(CompareError::InvalidSolution { .. })
        ));
        let failing = vec![Entry::custom("broken counter", |_, _| {
            Err(MethodError::new(std::fmt::Error))
        })];
        let e = compare(&queens, &failing, &[6], &CompareOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "size 6, 'broken counter': an error occurred when formatting an argument"
        );
    }
}
