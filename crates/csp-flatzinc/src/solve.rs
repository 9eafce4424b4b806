//! Running a translated model: satisfaction or branch and bound, with the solver contract's limits, output and statistics.

use std::io::Write;
use std::time::{Duration, Instant};

use csp_core::{
    Backjumping, CancelFlag, Config, CspError, Limits, Node, Pruning, Restarts, SearchObserver,
    SearchStats, SearchStatus, Solver, StopReason, ValOrder, Value, VarOrder,
};

use crate::branching::{PhasedValues, PhasedVariables};
use crate::error::Error;
use crate::output::{final_line, format_solution};
use crate::translate::{AllDifferentFiltering, TranslateOptions, Translation, translate};

/// The options of MiniZinc's solver contract, and ours.
#[derive(Clone, Debug)]
pub struct Options {
    /// `-a`: every solution of a satisfaction problem; every improving solution of
    /// an optimisation problem.
    pub all_solutions: bool,
    /// `-n K`: stop after `K` solutions.
    pub num_solutions: Option<u64>,
    /// `-t MS`: stop searching after this long; [`run`] counts it from its
    /// call, the parsing and translation included.
    pub time_limit: Option<Duration>,
    /// `-r SEED`: seed for `indomain_random` and the random heuristics.
    pub seed: u64,
    /// `-f`: ignore the search annotations and use `var_order` and `val_order`.
    pub free_search: bool,
    /// `-s`: print statistics as `%%%mzn-stat:` lines.
    pub statistics: bool,
    /// `--pruning`: how much the search prunes after each decision.
    pub pruning: Pruning,
    /// `--var`: the variable order where no annotation applies; `None`
    /// (`auto`): the [`SearchPlan`]'s choice.
    pub var_order: Option<VarOrder>,
    /// `--val`: the value order where no annotation applies; `None`
    /// (`auto`): ascending.
    pub val_order: Option<ValOrder>,
    /// `--restart`: the restart policy where the model has no restart
    /// annotation (or with free search); `None` (`auto`): the
    /// [`SearchPlan`]'s choice.
    pub restarts: Option<Restarts>,
    /// Stops the search when set (Ctrl-C); [`run`] also sets it when the
    /// output can no longer be written.
    pub cancel: Option<CancelFlag>,
    /// A heartbeat while searching (fzn-csp draws one on a terminal).
    pub progress: Option<csp_core::ProgressHook>,
    /// `--memory-limit`: the memory the search's domains may take (default
    /// [`csp_core::DEFAULT_MEMORY_LIMIT`]).
    pub memory_limit: Option<u64>,
    /// `--backjump`: the look-back after a dead end
    /// ([`Config::with_backjumping`](csp_core::Config::with_backjumping));
    /// conflict-directed backjumping needs `--pruning` check, fc or mac.
    pub backjumping: Backjumping,
    /// `--nogoods`: record nogoods at each restart
    /// ([`Config::with_nogoods`](csp_core::Config::with_nogoods)); needs
    /// restarts (a restart annotation, or `--restart`) and `--pruning` mac
    /// or propagators.
    pub nogoods: bool,
    /// `--nogood-limit`: the most nogoods kept (`None`: the default,
    /// [`csp_core::DEFAULT_NOGOOD_LIMIT`]).
    pub nogood_limit: Option<usize>,
    /// For a program that ends as soon as [`run`] or [`solve`] returns
    /// (fzn-csp): the solver, the parsed file and the translation are not
    /// freed, and the operating system takes their memory back at the
    /// exit. Freeing the millions of small pieces of a large model takes
    /// tens of milliseconds, after a time limit or Ctrl-C too. Default
    /// `false`: everything is freed (a long-running program must).
    pub leave_memory_to_exit: bool,
    /// `--all-different`: how `all_different_int` filters (default: Régin's
    /// domain consistency).
    pub all_different: AllDifferentFiltering,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            all_solutions: false,
            num_solutions: None,
            time_limit: None,
            seed: 0,
            free_search: false,
            statistics: false,
            pruning: Pruning::Propagators,
            var_order: None,
            val_order: None,
            restarts: None,
            cancel: None,
            progress: None,
            memory_limit: None,
            backjumping: Backjumping::None,
            nogoods: false,
            nogood_limit: None,
            leave_memory_to_exit: false,
            all_different: AllDifferentFiltering::Domain,
        }
    }
}

/// The search [`solve`] runs for a translation and options: the fallback
/// heuristics (for the variables no search annotation covers), the restarts,
/// and whether the declared variables come first.
///
/// A model is *unannotated* when its solve item has no search and no restart
/// annotation, or with free search (`-f`). Then fzn-csp's **default search**
/// applies: [`DEFAULT_VAR_ORDER`] over the variables the modeller declared
/// ([`Translation::decision_vars`]) first, then over the rest, values in
/// ascending order, binary choices, [`DEFAULT_RESTARTS`]. In an optimisation
/// model the values of the variables the objective depends on are tried
/// best first instead ([`Translation::objective_guide`]), and the declared
/// variables are listed by decreasing stake, which breaks the variable
/// order's ties ([`SearchPlan::objective_guided`]). An annotated model
/// keeps its annotations, and the variables they do not cover are decided
/// first-fail, ascending, without restarts (unless the model has a restart
/// annotation). `--var`, `--val` and `--restart` replace these choices
/// where no annotation applies; a restart annotation wins over `--restart`.
///
/// ```
/// use csp_core::{Restarts, VarOrder};
/// use csp_flatzinc::{Options, SearchPlan, parse, translate};
/// let src = "var 1..3: x;\nsolve :: int_search([x], input_order, indomain_min, complete) satisfy;";
/// let t = translate(&parse(src)?, &Default::default())?;
/// let annotated = SearchPlan::new(&t, &Options::default());
/// assert_eq!(annotated.var_order, VarOrder::FirstFail);
/// assert_eq!(annotated.restarts, Restarts::Never);
/// let free = SearchPlan::new(&t, &Options { free_search: true, ..Default::default() });
/// assert_eq!(free.var_order, csp_flatzinc::DEFAULT_VAR_ORDER);
/// assert!(free.declared_first);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchPlan {
    /// The variable order where no annotation applies (seeded with `-r`).
    pub var_order: VarOrder,
    /// The value order where no annotation applies (seeded with `-r`).
    pub val_order: ValOrder,
    /// The restart policy.
    pub restarts: Restarts,
    /// Whether the search branches on [`Translation::decision_vars`] first.
    pub declared_first: bool,
    /// Whether the values of the objective's variables are tried best first
    /// ([`Translation::objective_guide`]): an unannotated optimisation model
    /// without `--val`. Then the declared variables are also listed by
    /// decreasing stake (ties in declaration order), which decides the
    /// variable order's ties.
    pub objective_guided: bool,
    /// Whether the elements of set variables ([`Translation::set_elements`])
    /// try 1 (in the set) first: an unannotated model without `--val`, as
    /// Gecode's default search includes a set variable's smallest undecided
    /// element first (`SET_VAL_MIN_INC`).
    pub elements_in_first: bool,
}

/// The default search's variable order (see [`SearchPlan`]): afc/size
/// (largest aged failure count of the variable's constraints over its domain
/// size, [`VarOrder::AfcSize`], Gecode's own default). On the benchmark set
/// (docs/search.md) it makes fewer nodes than dom/wdeg on all four models
/// without annotations (`still_life` 460,916 → 353,170, `cutstock` 1,100 →
/// 238) and, with free search, solves the same 26 of 27 within 20 s in less
/// time (`multi-knapsack` 4.7 s → 0.8 s, `golomb` 10 6.0 s → 3.9 s; `bacp`
/// is its worst, 44,282 → 191,484 nodes, 0.22 s → 0.24 s).
pub const DEFAULT_VAR_ORDER: VarOrder = VarOrder::AfcSize;

/// The default search's restarts (see [`SearchPlan`]): none. On the
/// benchmark set Luby and geometric restarts with dom/wdeg solved fewer
/// instances than the same search without (docs/search.md); `--restart`
/// turns them on.
pub const DEFAULT_RESTARTS: Restarts = Restarts::Never;

impl SearchPlan {
    /// The plan for `t` under `options`.
    pub fn new(t: &Translation, options: &Options) -> Self {
        let annotated_restarts = if options.free_search {
            None
        } else {
            t.restarts
        };
        let unannotated =
            options.free_search || (t.phases.is_empty() && annotated_restarts.is_none());
        let (var_order, restarts) = if unannotated {
            (DEFAULT_VAR_ORDER, DEFAULT_RESTARTS)
        } else {
            (VarOrder::FirstFail, Restarts::Never)
        };
        let var_order = match options.var_order.unwrap_or(var_order) {
            VarOrder::Random(_) => VarOrder::Random(options.seed),
            other => other,
        };
        let objective_guided = unannotated && t.objective.is_some() && options.val_order.is_none();
        let elements_in_first = unannotated && options.val_order.is_none();
        let val_order = match options.val_order.unwrap_or(ValOrder::Ascending) {
            ValOrder::Random(_) => ValOrder::Random(options.seed),
            other => other,
        };
        SearchPlan {
            var_order,
            val_order,
            restarts: annotated_restarts.or(options.restarts).unwrap_or(restarts),
            declared_first: unannotated,
            objective_guided,
            elements_in_first,
        }
    }
}

/// How a search ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Solutions reported (for optimisation: improving solutions found).
    pub solutions: u64,
    /// `Complete` when every solution was found, or the last one proved optimal.
    pub status: SearchStatus,
    /// The best objective value, for optimisation.
    pub objective: Option<Value>,
    /// What the search did.
    pub stats: SearchStats,
}

/// Searches `t`, calling `on_solution` with the values of every solution to report
/// (indexed by model variable): for satisfaction the first one, `-n K` of them or
/// all of them; for optimisation the best one, or with `-a` every improving one.
///
/// ```
/// let ast = csp_flatzinc::parse("var 1..5: x :: output_var;\nconstraint int_ne(x, 3);\nsolve maximize x;")?;
/// let t = csp_flatzinc::translate(&ast, &Default::default())?;
/// let mut best = Vec::new();
/// let outcome = csp_flatzinc::solve(&t, &Default::default(), &mut |values| best = values.to_vec())?;
/// assert_eq!(outcome.objective, Some(5));
/// assert!(outcome.status.is_complete());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(
    t: &Translation,
    options: &Options,
    on_solution: &mut dyn FnMut(&[Value]),
) -> Result<Outcome, CspError> {
    let plan = SearchPlan::new(t, options);
    let phases = if options.free_search {
        &[][..]
    } else {
        &t.phases[..]
    };
    // The default search decides the declared sets first, element by
    // element in input order, in the set first (`set_search(..., input_order,
    // indomain_min)`): a learning order over all the elements lost the
    // structure (docs/search.md, "Set variables").
    let set_phase;
    let phases = if plan.elements_in_first
        && options.var_order.is_none()
        && phases.is_empty()
        && !t.set_decisions.is_empty()
    {
        set_phase = [crate::Phase {
            vars: t.set_decisions.clone(),
            var_choice: crate::VarChoice::InputOrder,
            val_choice: crate::ValChoice::Max,
        }];
        &set_phase[..]
    } else {
        phases
    };
    let vars = PhasedVariables::new(phases, plan.var_order);
    let vals = PhasedValues::new(t.model.num_vars(), phases, plan.val_order, options.seed);
    let mut guided = if plan.objective_guided {
        t.objective_guide.clone()
    } else {
        Vec::new()
    };
    if plan.elements_in_first && !t.set_elements.is_empty() {
        // The objective's guide, where it has one, wins.
        let mut elements: Vec<crate::Guided> = t
            .set_elements
            .iter()
            .filter(|v| guided.binary_search_by_key(*v, |g| g.var).is_err())
            .map(|&var| crate::Guided {
                var,
                values: crate::ValueGuide::Down,
                stake: 0.0,
            })
            .collect();
        guided.append(&mut elements);
        guided.sort_by_key(|g| g.var);
    }
    let vals = crate::guide::GuidedValues::new(guided, vals);
    if options.num_solutions == Some(0) {
        // No solution asked for: nothing to search (the status is unknown).
        return Ok(Outcome {
            solutions: 0,
            status: SearchStatus::Stopped(StopReason::SolutionLimit),
            objective: None,
            stats: SearchStats::default(),
        });
    }
    let limits = Limits {
        time: options.time_limit,
        cancel: options.cancel.clone(),
        solutions: match (t.objective, options.all_solutions) {
            (None, false) => Some(options.num_solutions.unwrap_or(1)),
            _ => options.num_solutions,
        },
        ..Limits::default()
    };
    // Binary choices (x = v, then x != v) at the propagators level, as
    // Gecode does; the textbook levels ignore the setting.
    let mut config = Config::textbook()
        .with_pruning(options.pruning)
        .with_binary_branching(true)
        .with_restarts(plan.restarts)
        .with_backjumping(options.backjumping)
        .with_nogoods(options.nogoods)
        .with_limits(limits);
    if let Some(n) = options.nogood_limit {
        config = config.with_nogood_limit(n);
    }
    config.progress = options.progress.clone();
    if let Some(m) = options.memory_limit {
        config.memory_limit = Some(m);
    }
    if plan.declared_first {
        let mut order = t.decision_vars.clone();
        if plan.objective_guided {
            let stake = |v: &csp_core::VarId| {
                t.objective_guide
                    .binary_search_by_key(v, |g| g.var)
                    .map_or(0.0, |k| t.objective_guide[k].stake)
            };
            // Largest stake first; the sort is stable.
            order.sort_by(|a, b| stake(b).total_cmp(&stake(a)));
        }
        config = config.with_decision_vars(&order);
    }
    if t.objective.is_none() && asks_several(options) {
        // Each assignment of the model's own variables once, whatever the
        // auxiliary variables (free half-reified Booleans) may take.
        config = config.with_projection(&t.projection);
    }
    let report_each = t.objective.is_none() || options.all_solutions;
    let observer = Reporter {
        on_solution,
        report_each,
        best: None,
    };
    let mut solver = Solver::with_selectors(&t.model, config, vars, vals, observer)?;
    let outcome = match t.objective {
        None => {
            while solver.next_solution().is_some() {}
            let stats = *solver.stats();
            Outcome {
                solutions: stats.solutions,
                status: solver.status(),
                objective: None,
                stats,
            }
        }
        Some((var, goal)) => {
            let optimum = solver.optimize(var, goal)?;
            let reporter = solver.observer_mut();
            if let Some(best) = reporter.best.take() {
                (reporter.on_solution)(&best);
            }
            Outcome {
                solutions: optimum.stats.solutions,
                status: optimum.status,
                objective: optimum.objective,
                stats: optimum.stats,
            }
        }
    };
    if options.leave_memory_to_exit {
        std::mem::forget(solver);
    }
    Ok(outcome)
}

/// Whether `options` ask for more than one solution (of a satisfaction model).
fn asks_several(options: &Options) -> bool {
    options.all_solutions || options.num_solutions.is_some_and(|n| n > 1)
}

/// Passes solutions on as the search finds them, or keeps the last for the end.
struct Reporter<'f> {
    on_solution: &'f mut dyn FnMut(&[Value]),
    report_each: bool,
    best: Option<Vec<Value>>,
}

impl SearchObserver for Reporter<'_> {
    fn wants_details(&self) -> bool {
        false
    }

    fn on_solution(&mut self, _node: Option<&Node>, values: &[Value]) {
        if self.report_each {
            (self.on_solution)(values);
        } else {
            self.best = Some(values.to_vec());
        }
    }
}

/// Whether the search of `ast` under `options` orders its variables by
/// what failures taught it (afc/size, the default search's, or dom/wdeg,
/// from `--var` or a `dom_w_deg` annotation). [`run`] then posts the
/// comparisons of a variable with constants one by one, not as channels
/// ([`TranslateOptions::channel_equalities`]): a channel is charged with
/// the failures of all its literals at once, and on a decomposed
/// self-counting sequence (`bench/count/selfcount.mzn`, n = 60) the default
/// search took 14,954 nodes with channels against 302 without (dom/wdeg
/// 7,302 against 167), with the same propagation (first-fail: 10,367 nodes
/// either way).
fn search_learns_from_failures(ast: &crate::ast::Model, options: &Options) -> bool {
    fn mentions_dom_w_deg(e: &crate::ast::Expr) -> bool {
        use crate::ast::Expr;
        match e {
            Expr::Ident(name) => name == "dom_w_deg",
            Expr::Array(items) => items.iter().any(mentions_dom_w_deg),
            Expr::Annotation(a) => a.args.iter().any(mentions_dom_w_deg),
            _ => false,
        }
    }
    let learning = |order: VarOrder| matches!(order, VarOrder::AfcSize | VarOrder::DomOverWdeg);
    if options.var_order.is_some_and(learning) {
        return true;
    }
    let annotations = &ast.solve.annotations;
    let searches = annotations
        .iter()
        .filter(|a| !a.name.starts_with("restart_"));
    let annotated = !options.free_search && searches.clone().next().is_some();
    if !annotated {
        // The default search, unless `--var` names another order.
        return options.var_order.is_none_or(learning);
    }
    searches.flat_map(|a| &a.args).any(mentions_dom_w_deg)
}

/// Parses, translates and solves FlatZinc `src`, writing MiniZinc's output to
/// `out`: solutions with separators, the final status line and, with
/// [`Options::statistics`], `%%%mzn-stat:` lines.
///
/// ```
/// let src = "var 1..3: x :: output_var;\nconstraint int_ne(x, 2);\nsolve satisfy;";
/// let options = csp_flatzinc::Options { all_solutions: true, ..Default::default() };
/// let mut out = Vec::new();
/// csp_flatzinc::run(src, &options, &mut out)?;
/// assert_eq!(String::from_utf8(out)?, "x = 1;\n----------\nx = 3;\n----------\n==========\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(src: &str, options: &Options, out: &mut dyn Write) -> Result<Outcome, Error> {
    let started = Instant::now();
    let ast = crate::parse(src)?;
    let translate_options = TranslateOptions {
        free_search: options.free_search,
        memory_limit: options.memory_limit,
        deadline: options.time_limit.and_then(|t| started.checked_add(t)),
        cancel: options.cancel.clone(),
        all_different: options.all_different,
        channel_equalities: options.pruning == Pruning::Propagators
            && !search_learns_from_failures(&ast, options),
    };
    let t = match translate(&ast, &translate_options) {
        Ok(t) => t,
        Err(crate::TranslateError::Stopped { reason, .. }) => {
            // As a search stopped before its first solution: no claim.
            let status = SearchStatus::Stopped(reason);
            if let Some(line) = final_line(0, status) {
                out.write_all(format!("{line}\n").as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(|e| Error::output(&e))?;
            }
            if options.leave_memory_to_exit {
                std::mem::forget(ast);
            }
            return Ok(Outcome {
                solutions: 0,
                status,
                objective: None,
                stats: SearchStats::default(),
            });
        }
        Err(e) => return Err(e.into()),
    };
    // A failed write stops the search: nobody reads what it would find.
    let mut options = options.clone();
    // `-t` counts from here: parsing and translating a large file take tens
    // of milliseconds that the search must not add to the limit.
    options.time_limit = options
        .time_limit
        .map(|t| t.saturating_sub(started.elapsed()));
    let stop = options.cancel.get_or_insert_with(CancelFlag::new).clone();
    let mut failed: Option<std::io::Error> = None;
    let mut print = |values: &[Value]| {
        if failed.is_none() {
            // The outputs and the values come from the same translation.
            let written = format_solution(&t.outputs, values)
                .map_err(std::io::Error::other)
                .and_then(|text| out.write_all(text.as_bytes()))
                .and_then(|()| out.flush());
            if let Err(e) = written {
                failed = Some(e);
                stop.cancel();
            }
        }
    };
    let outcome = solve(&t, &options, &mut print).map_err(|source| {
        Error::Translate(crate::TranslateError::Core {
            source,
            line: ast.solve.pos.line,
        })
    })?;
    if let Some(e) = failed {
        return Err(Error::output(&e));
    }
    let mut text = String::new();
    // Domains cut to 64 bits: the search ended, but it did not cover the
    // model, so it proves neither unsatisfiability nor completeness.
    let status = if t.clamped.is_empty() || !outcome.status.is_complete() {
        outcome.status
    } else {
        text.push_str(&format!(
            "% fzn-csp: the values of {} can exceed 64-bit integers and were cut to fit; \
             the search proves nothing past that\n",
            t.clamped
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        SearchStatus::Paused
    };
    if let Some(line) = final_line(outcome.solutions, status) {
        text.push_str(line);
        text.push('\n');
    }
    if options.statistics {
        text.push_str(&statistics(&t, &outcome));
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::output(&e))?;
    if options.leave_memory_to_exit {
        std::mem::forget(t);
        std::mem::forget(ast);
    }
    Ok(outcome)
}

/// The statistics block: csp-core's counters under MiniZinc's names, the model's
/// size, and the objective.
fn statistics(t: &Translation, outcome: &Outcome) -> String {
    let mut lines = vec![
        ("variables".to_string(), t.model.num_vars().to_string()),
        (
            "propagators".to_string(),
            t.model.num_constraints().to_string(),
        ),
    ];
    lines.extend(
        outcome
            .stats
            .mzn_stats()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v)),
    );
    if let Some(objective) = outcome.objective {
        lines.push(("objective".to_string(), objective.to_string()));
    }
    let mut s = String::new();
    for (k, v) in lines {
        s.push_str(&format!("%%%mzn-stat: {k}={v}\n"));
    }
    s.push_str("%%%mzn-stat-end\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_only_where_the_search_learns_nothing_from_failures() {
        let model = |solve: &str| crate::parse(&format!("var 1..3: x;\n{solve}\n")).unwrap();
        let plain = model("solve satisfy;");
        let annotated = model("solve :: int_search([x], first_fail, indomain_min) satisfy;");
        let weighted =
            model("solve :: seq_search([int_search([x], dom_w_deg, indomain_min)]) satisfy;");
        let restarted = model("solve :: restart_luby(10) satisfy;");
        let with = |var_order, free_search| Options {
            var_order,
            free_search,
            ..Default::default()
        };
        let learns = search_learns_from_failures;
        assert!(learns(&plain, &with(None, false)));
        assert!(learns(&restarted, &with(None, false)));
        assert!(!learns(&plain, &with(Some(VarOrder::FirstFail), false)));
        assert!(!learns(&annotated, &with(None, false)));
        assert!(learns(&annotated, &with(None, true)));
        assert!(learns(
            &annotated,
            &with(Some(VarOrder::DomOverWdeg), false)
        ));
        assert!(learns(&weighted, &with(None, false)));
    }
}
