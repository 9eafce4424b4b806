//! `fzn-csp --explain`: the constraints of an unsatisfiable FlatZinc model that cannot all hold, by the names MiniZinc gives them.
//!
//! MiniZinc writes a model's `constraint :: "name" ...;` as
//! `:: mzn_constraint_name("name")` on each FlatZinc constraint it makes of
//! it, and its debug mode (`minizinc -c -g`) keeps as constraints, marked
//! `domain_change_constraint`, the ones it would otherwise fold into the
//! variables' domains. Each name is one candidate (all the items that carry
//! it, together); each item without a name is a candidate of its own,
//! reported by its FlatZinc text and its `mzn_path` if it has one. The
//! background, which always holds and is never blamed, is the variables'
//! declared domains and the unnamed items that define a variable MiniZinc
//! introduced (`:: defines_var(X)`, such as the `int_lin_ne_reif` of each
//! disjunct of a `forall(...)(a != b \/ c != d)`): they are MiniZinc's
//! decomposition of the constraint that uses the variable, which is blamed
//! instead.
//! [`csp_core::explain`] then finds a minimal conflict among the candidates.

use std::io::Write;
use std::time::Instant;

use csp_core::Config;
use csp_core::explain::{Explainer, Verdict};

use crate::ast::{Annotation, ConstraintItem, Expr};
use crate::error::Error;
use crate::output::{UNKNOWN, UNSATISFIABLE};
use crate::solve::{Options, run};

/// The string argument of annotation `name` on `item`, if it has one.
fn string_annotation<'a>(item: &'a ConstraintItem, name: &str) -> Option<&'a str> {
    match Annotation::find(&item.annotations, name)?.args.as_slice() {
        [Expr::Str(s)] => Some(s),
        _ => None,
    }
}

/// How `--explain` reports a constraint item: its `mzn_constraint_name`, or
/// its FlatZinc text followed by `:: mzn_path("...")` if it has a path.
///
/// ```
/// let m = csp_flatzinc::parse(
///     "var 1..9: x;\n\
///      constraint int_le(x,3) :: mzn_constraint_name(\"x is small\");\n\
///      constraint int_le(5,x) :: mzn_path(\"m.mzn|4|12|4|20\");\n\
///      constraint int_ne(x,4);\n\
///      solve satisfy;",
/// )?;
/// let labels: Vec<String> = m.constraints.iter().map(csp_flatzinc::explain_label).collect();
/// assert_eq!(labels, [
///     "x is small",
///     "int_le(5,x) :: mzn_path(\"m.mzn|4|12|4|20\")",
///     "int_ne(x,4)",
/// ]);
/// # Ok::<(), csp_flatzinc::ParseError>(())
/// ```
pub fn explain_label(item: &ConstraintItem) -> String {
    if let Some(name) = string_annotation(item, "mzn_constraint_name") {
        return name.to_string();
    }
    match string_annotation(item, "mzn_path") {
        Some(path) => format!("{item} :: mzn_path({path:?})"),
        None => item.to_string(),
    }
}

/// Parses and translates FlatZinc `src` and explains it, writing to `out`:
/// for an unsatisfiable model, the labels ([`explain_label`]) of a minimal
/// set of constraints that cannot all hold, one per line, then
/// `=====UNSATISFIABLE=====`; for a satisfiable one, what [`run`] prints
/// (its solutions, as without `--explain`); `=====UNKNOWN=====` if a limit
/// stopped the first check, of the whole model.
///
/// A conflict that a limit kept from being proved minimal is printed all
/// the same (it is proved unsatisfiable), after a comment line
/// `% fzn-csp: not proved minimal (...)`. A conflict among the
/// declarations alone (no constraint to blame) is one comment line. With
/// [`Options::statistics`], `%%%mzn-stat:` lines give the effort:
/// `explainChecks`, `explainUndecided`, `nodes`, `failures`, `solveTime`.
///
/// The limits hold for the whole explanation: [`Options::time_limit`]
/// (counted from the call), [`Options::cancel`], [`Options::memory_limit`].
///
/// ```
/// let src = "var 1..9: x :: output_var;\n\
///            constraint int_le(x,3) :: mzn_constraint_name(\"small\");\n\
///            constraint int_ne(x,2) :: mzn_constraint_name(\"not two\");\n\
///            constraint int_le(5,x) :: mzn_constraint_name(\"big\");\n\
///            solve satisfy;";
/// let mut out = Vec::new();
/// csp_flatzinc::explain(src, &Default::default(), &mut out)?;
/// assert_eq!(String::from_utf8(out)?, "small\nbig\n=====UNSATISFIABLE=====\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn explain(src: &str, options: &Options, out: &mut dyn Write) -> Result<(), Error> {
    let started = Instant::now();
    let ast = crate::parse(src)?;
    // Without views: every item the file lists is a constraint of the model,
    // so that each can be blamed.
    let translate_options = crate::TranslateOptions {
        memory_limit: options.memory_limit,
        deadline: options.time_limit.and_then(|t| started.checked_add(t)),
        cancel: options.cancel.clone(),
        all_different: options.all_different,
        ..Default::default()
    };
    let mut t = match crate::views::translate_views(&ast, &translate_options, false) {
        Ok(t) => t,
        // Stopped by -t or Ctrl-C before anything was searched: no claim,
        // as `run` answers.
        Err(crate::TranslateError::Stopped { .. }) => {
            return out
                .write_all(format!("{}\n", crate::output::UNKNOWN).as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| Error::output(&e));
        }
        Err(e) => return Err(e.into()),
    };
    let core = |source| {
        Error::Translate(crate::TranslateError::Core {
            source,
            line: ast.solve.pos.line,
        })
    };
    if let Some(name) = t.clamped.first() {
        return Err(core(csp_core::CspError::InvalidArgument {
            context: "--explain".into(),
            message: format!(
                "the values of `{name}` can exceed 64-bit integers and were cut to fit: \
                 no conflict could be proved"
            ),
        }));
    }
    let labels: Vec<String> = ast.constraints.iter().map(explain_label).collect();
    let is_background = |item: Option<usize>| match item {
        None => true,
        Some(i) => {
            let item = &ast.constraints[i];
            string_annotation(item, "mzn_constraint_name").is_none()
                && Annotation::find(&item.annotations, "defines_var").is_some()
        }
    };
    let mut groups: Vec<(usize, Vec<csp_core::ConstraintId>)> = Vec::new();
    for (id, _) in t.model.constraints() {
        if let Some(item) = t.posted_by.get(id.index()).copied().flatten() {
            match groups.last_mut() {
                Some((last, ids)) if *last == item => ids.push(id),
                _ => groups.push((item, vec![id])),
            }
        }
    }
    for (item, ids) in groups.iter().filter(|(i, _)| !is_background(Some(*i))) {
        t.model
            .name_group(labels[*item].clone(), ids)
            .map_err(core)?;
    }
    let background: Vec<csp_core::ConstraintId> = t
        .model
        .constraints()
        .map(|(id, _)| id)
        .filter(|id| is_background(t.posted_by.get(id.index()).copied().flatten()))
        .collect();
    let cancel = options.cancel.clone().unwrap_or_default();
    let mut config = Config::default()
        .with_pruning(options.pruning)
        .with_cancel_flag(cancel.clone());
    if let Some(bytes) = options.memory_limit {
        config.memory_limit = Some(bytes);
    }
    let mut explainer = Explainer::new(&t.model, config)
        .with_background(&background)
        .map_err(core)?;
    if let Some(limit) = options.time_limit {
        explainer = explainer.with_time_budget(limit.saturating_sub(started.elapsed()));
    }
    let why = explainer.run().map_err(core)?;
    let mut text = String::new();
    match &why.verdict {
        Verdict::Satisfiable(_) => {
            // Nothing to explain: the normal run, in the time left.
            let mut rest = options.clone();
            rest.time_limit = options
                .time_limit
                .map(|t| t.saturating_sub(started.elapsed()));
            rest.cancel = Some(cancel);
            run(src, &rest, out)?;
            return Ok(());
        }
        Verdict::Unknown(_) => {
            text.push_str(UNKNOWN);
            text.push('\n');
        }
        Verdict::Minimal | Verdict::NotProvenMinimal(_) => {
            if let Verdict::NotProvenMinimal(reason) = &why.verdict {
                text.push_str(&format!(
                    "% fzn-csp: not proved minimal (a check stopped: {reason})\n"
                ));
            }
            if why.conflict.is_empty() {
                text.push_str("% fzn-csp: the variable declarations alone have no solution\n");
            }
            for name in why.names(&t.model) {
                text.push_str(&name);
                text.push('\n');
            }
            text.push_str(UNSATISFIABLE);
            text.push('\n');
        }
    }
    if options.statistics {
        let e = why.effort;
        let solve_time = format!("{:.6}", e.time.as_secs_f64());
        for (k, v) in [
            ("explainChecks", e.checks.to_string()),
            ("explainUndecided", e.undecided.to_string()),
            ("nodes", e.nodes.to_string()),
            ("failures", e.failures.to_string()),
            ("solveTime", solve_time),
        ] {
            text.push_str(&format!("%%%mzn-stat: {k}={v}\n"));
        }
        text.push_str("%%%mzn-stat-end\n");
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::output(&e))
}
