//! Views for FlatZinc: a variable that a constraint defines as `a·x + c` of
//! another (`int_lin_eq([1, -1], [y, x], c) :: defines_var(y)`,
//! `int_plus(x, 3, y)`, `int_times(x, 2, y)`, `bool2int(b, y)`, each with
//! `defines_var(y)`) becomes a view of `x` ([`Model::view`](csp_core::Model::view)):
//! no variable, no propagator. Where the definition is a copy (`y = x`, as
//! `bool2int` is), `y` is not even a view: it names `x` itself, so that
//! constraints on `y` read `x` directly.
//!
//! Exactness: `y`'s declared domain is kept by declaring `x` with only the
//! values whose image lies in it; a variable is defined once, definitions
//! never form a cycle, and a chain `z = b·y + d`, `y = a·x + c` composes into
//! a view of `x`. A view whose image would overflow or span more than the
//! engine allows stays a variable with its constraint. csp-core wants the
//! views declared after the variables: the translation declares the views
//! once the variables are declared, a constant needed later becomes a view
//! of the constant 0, and a model that still declares a variable after a view
//! (a global constraint's auxiliary variable) is translated again without
//! views.

use crate::hash::{HashMap, HashSet};

use csp_core::{Domain, MAX_DOMAIN_WIDTH, Value};

use crate::ast::{self, Annotation, ConstraintItem, Decl, Expr, Model, ParType, VarType};
use crate::error::TranslateError;
use crate::strategy::{Phase, ValChoice};
use crate::translate::{Context, Scalar, Symbol, TranslateOptions, Translation};
use csp_core::Goal;

/// The most values a base variable's domain may have for its views'
/// domains to be intersected value by value.
const ENUMERATE_LIMIT: u128 = 1 << 20;

/// The views of a translation: which variables become views, of what, and
/// which constraints they replace. The names are the syntax tree's.
#[derive(Clone, Debug, Default)]
pub(crate) struct ViewPlan<'a> {
    /// `(y, x, a, c)`: `y = a·x + c` with `x` a variable (not a view), in
    /// the order of the defining constraints.
    pub(crate) views: Vec<(&'a str, &'a str, Value, Value)>,
    /// The defining constraints (indices in the model), not posted.
    pub(crate) consumed: HashSet<usize>,
    /// The base variables' domains, cut to the values whose images lie in
    /// their views' declared domains.
    pub(crate) restricted: HashMap<String, Domain>,
    names: HashSet<&'a str>,
    /// The declarations declared after the views: the views, and (in file
    /// order, transitively) every alias or array that names one of them.
    deferred: HashSet<&'a str>,
}

impl<'a> ViewPlan<'a> {
    /// Finds the declarations that must wait for the views: the views, and
    /// every alias or array that names a view or another such declaration
    /// (FlatZinc declares a name before its use, so one pass in file order
    /// is enough).
    fn defer(&mut self, decls: &'a [Decl]) {
        self.deferred.clone_from(&self.names);
        for decl in decls {
            let deferred = &self.deferred;
            let named = |e: &Expr| matches!(e, Expr::Ident(n) if deferred.contains(n.as_str()));
            let waits = match decl {
                Decl::Par(_) => false,
                Decl::Var(v) => v.value.as_ref().is_some_and(named),
                Decl::VarArray(a) => a
                    .value
                    .as_ref()
                    .is_some_and(|items| items.iter().any(named)),
            };
            if waits {
                self.deferred.insert(decl.name());
            }
        }
    }

    /// Whether the declaration must wait for the views (see `defer`).
    pub(crate) fn defers(&self, decl: &Decl) -> bool {
        !matches!(decl, Decl::Par(_)) && self.deferred.contains(decl.name())
    }

    /// Whether `name` becomes a view.
    pub(crate) fn is_view(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// Whether there is no view.
    pub(crate) fn is_empty(&self) -> bool {
        self.views.is_empty()
    }
}

/// A view's image of its base: `(a, c, y's declared domain)` for `y = a·x + c`.
type Image = (Value, Value, Option<Domain>);

/// A definition `y = a·x + c` read from a constraint: `(y, x, a, c)`.
type Definition<'a> = (&'a str, &'a str, Value, Value);

/// The definition a constraint makes, if it is one of the forms above.
fn definition<'a>(
    item: &'a ConstraintItem,
    int_arrays: &HashMap<&str, Vec<Value>>,
) -> Option<Definition<'a>> {
    let defined = match &Annotation::find(&item.annotations, "defines_var")?.args[..] {
        [Expr::Ident(y)] => y.as_str(),
        _ => return None,
    };
    let ident = |e: &'a Expr| match e {
        Expr::Ident(n) => Some(n.as_str()),
        _ => None,
    };
    let (y, x, a, c) = match (item.name.as_str(), &item.args[..]) {
        ("int_lin_eq", [coeffs, vars, Expr::Int(rhs)]) => {
            let coeffs = match coeffs {
                Expr::Array(items) => items
                    .iter()
                    .map(|e| match e {
                        Expr::Int(v) => Some(*v),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?,
                Expr::Ident(name) => int_arrays.get(name.as_str())?.clone(),
                _ => return None,
            };
            let Expr::Array(vars) = vars else {
                return None;
            };
            let ([ay, ax], [vy, vx]) = (coeffs.as_slice(), vars.as_slice()) else {
                return None;
            };
            // The defined variable first.
            let (ay, ax, vy, vx) = if ident(vy) == Some(defined) {
                (*ay, *ax, vy, vx)
            } else {
                (*ax, *ay, vx, vy)
            };
            if ident(vy)? != defined || !(ay == 1 || ay == -1) || ax == 0 {
                return None;
            }
            // ay·y + ax·x = rhs, ay = ±1: y = -ay·ax·x + ay·rhs.
            (
                defined,
                ident(vx)?,
                ay.checked_mul(ax)?.checked_neg()?,
                ay.checked_mul(*rhs)?,
            )
        }
        ("int_plus", [p, q, Expr::Ident(r)]) if *r == defined => match (p, q) {
            (Expr::Ident(x), Expr::Int(k)) | (Expr::Int(k), Expr::Ident(x)) => {
                (defined, x.as_str(), 1, *k)
            }
            _ => return None,
        },
        ("int_times", [p, q, Expr::Ident(r)]) if *r == defined => match (p, q) {
            (Expr::Ident(x), Expr::Int(k)) | (Expr::Int(k), Expr::Ident(x)) if *k != 0 => {
                (defined, x.as_str(), *k, 0)
            }
            _ => return None,
        },
        ("bool2int", [Expr::Ident(b), Expr::Ident(i)]) if *i == defined => {
            (defined, b.as_str(), 1, 0)
        }
        _ => return None,
    };
    (x != y).then_some((y, x, a, c))
}

/// The scalar variable declarations without a value, by name.
fn plain_vars(ast: &Model) -> HashMap<&str, &VarType> {
    ast.decls
        .iter()
        .filter_map(|d| match d {
            Decl::Var(v) if v.value.is_none() => Some((v.name.as_str(), &v.ty)),
            _ => None,
        })
        .collect()
}

/// [`translate`](crate::translate), with views or without.
pub(crate) fn translate_views(
    ast: &ast::Model,
    options: &TranslateOptions,
    views: bool,
) -> Result<Translation, TranslateError> {
    let inferred = crate::bounds::infer(ast);
    let mut cx = Context::new(options);
    let mut plan = match views {
        true => plan(&cx, ast, &inferred.bounds),
        false => ViewPlan::default(),
    };
    plan.defer(&ast.decls);
    cx.restricted.clone_from(&plan.restricted);
    // Variables, then views, then what names them (see `views.rs`).
    for decl in ast.decls.iter().filter(|d| !plan.defers(d)) {
        cx.line = decl.pos().line;
        cx.poll()?;
        cx.declare(decl, &inferred.bounds)?;
    }
    cx.declare_views(&plan)?;
    for decl in ast
        .decls
        .iter()
        .filter(|d| plan.defers(d) && !plan.is_view(d.name()))
    {
        cx.line = decl.pos().line;
        cx.poll()?;
        cx.declare(decl, &inferred.bounds)?;
    }
    let mut posted_by = vec![None; cx.model.num_constraints()];
    crate::builtins::collect_channels(&mut cx, &ast.constraints)?;
    for (i, item) in ast.constraints.iter().enumerate() {
        cx.line = item.pos.line;
        cx.poll()?;
        if let Some(ch) = cx.channels.as_mut() {
            ch.item = i;
        }
        if !plan.consumed.contains(&i) {
            crate::builtins::post(&mut cx, item)?;
        }
        posted_by.resize(cx.model.num_constraints(), Some(i));
    }
    if !plan.is_empty() && !views_last(&cx.model) {
        return translate_views(ast, options, false);
    }
    cx.line = ast.solve.pos.line;
    let objective = match &ast.solve.goal {
        ast::Goal::Satisfy => None,
        ast::Goal::Minimize(e) => cx.objective(e, Goal::Minimize)?,
        ast::Goal::Maximize(e) => cx.objective(e, Goal::Maximize)?,
    };
    let (phases, restarts) = if options.free_search {
        (Vec::new(), None)
    } else {
        let (phases, restarts) = crate::strategy::phases(&cx, &ast.solve.annotations)?;
        (phases_on_bases(phases, &cx.model), restarts)
    };
    let outputs = crate::output::outputs(&cx, &ast.decls)?;
    let decision_vars = crate::translate::declared_vars(&cx, ast);
    let projection = crate::translate::projection(&cx, ast, &outputs, &phases);
    let set_decisions = crate::sets::declared_set_elements(&cx, ast);
    let mut set_elements = std::mem::take(&mut cx.set_elements);
    set_elements.extend(crate::sets::set_element_vars(&cx, ast));
    let objective_guide = crate::guide::objective_guide(&mut cx, ast, objective)?;
    Ok(Translation {
        model: cx.model,
        outputs,
        objective,
        phases,
        restarts,
        decision_vars,
        projection,
        set_decisions,
        set_elements,
        objective_guide,
        clamped: inferred.clamped,
        posted_by,
    })
}

/// Finds the views of `ast`.
pub(crate) fn plan<'a>(
    cx: &Context,
    ast: &'a Model,
    inferred: &HashMap<String, (Value, Value)>,
) -> ViewPlan<'a> {
    let int_arrays: HashMap<&str, Vec<Value>> = ast
        .decls
        .iter()
        .filter_map(|d| match d {
            Decl::Par(p) if matches!(p.ty, ParType::Array { .. }) => match &p.value {
                Expr::Array(items) => Some((
                    p.name.as_str(),
                    items
                        .iter()
                        .map(|e| match e {
                            Expr::Int(v) => Some(*v),
                            _ => None,
                        })
                        .collect::<Option<Vec<_>>>()?,
                )),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let vars = plain_vars(ast);
    let int_typed = |ty: &VarType| {
        matches!(
            ty,
            VarType::Int | VarType::IntRange(..) | VarType::IntSet(_)
        )
    };
    // Definitions in constraint order: once per variable, never a cycle.
    let mut defs: HashMap<&str, (&str, Value, Value, usize)> = HashMap::default();
    let mut order = Vec::new();
    for (i, item) in ast.constraints.iter().enumerate() {
        let Some((y, x, a, c)) = definition(item, &int_arrays) else {
            continue;
        };
        let (Some(ty_y), Some(ty_x)) = (vars.get(y), vars.get(x)) else {
            continue;
        };
        if !int_typed(ty_y) || !(int_typed(ty_x) || **ty_x == VarType::Bool) || defs.contains_key(y)
        {
            continue;
        }
        // x must not depend on y.
        let mut at = x;
        let mut cyclic = false;
        while let Some((next, ..)) = defs.get(at) {
            if *next == y {
                cyclic = true;
                break;
            }
            at = next;
        }
        if cyclic || at == y {
            continue;
        }
        defs.insert(y, (x, a, c, i));
        order.push(y);
    }
    // Resolve chains to a variable, dropping views whose arithmetic or
    // domains do not fit, until nothing changes.
    let domain_of = |name: &str| -> Option<Domain> {
        cx.domain(name, vars.get(name)?, inferred).ok().flatten()
    };
    loop {
        let mut plan = ViewPlan::default();
        let mut dropped = None;
        let mut images: HashMap<&str, Vec<Image>> = HashMap::default();
        for &y in &order {
            let Some(&(x, a, c, i)) = defs.get(y) else {
                continue;
            };
            let (mut base, mut scale, mut offset) = (x, a, c);
            let mut ok = true;
            while let Some(&(next, a2, c2, _)) = defs.get(base) {
                // y = s·(a2·next + c2) + o.
                match (
                    scale.checked_mul(a2),
                    scale.checked_mul(c2).and_then(|v| v.checked_add(offset)),
                ) {
                    (Some(s), Some(o)) => (scale, offset) = (s, o),
                    _ => ok = false,
                }
                base = next;
                if !ok {
                    break;
                }
            }
            if !ok {
                dropped = Some(y);
                break;
            }
            images
                .entry(base)
                .or_default()
                .push((scale, offset, domain_of(y)));
            plan.views.push((y, base, scale, offset));
            plan.consumed.insert(i);
            plan.names.insert(y);
        }
        if dropped.is_none() {
            for (base, views) in &images {
                match restrict(domain_of(base), views) {
                    Some(Some(d)) => {
                        plan.restricted.insert(base.to_string(), d);
                    }
                    Some(None) => {}
                    None => {
                        // Drop one view of this base and try again.
                        dropped = plan.views.iter().find(|v| v.1 == *base).map(|v| v.0);
                        break;
                    }
                }
            }
        }
        match dropped {
            None => return plan,
            Some(y) => {
                defs.remove(y);
            }
        }
    }
}

/// The base's domain cut to the values whose image under every view lies in
/// the view's declared domain: `Some(None)` if nothing is cut, `None` if the
/// views cannot be made (an image that overflows or is too wide, a domain
/// too large to cut, or nothing left).
fn restrict(base: Option<Domain>, views: &[Image]) -> Option<Option<Domain>> {
    let base = base?;
    let (lo, hi) = base.bounds()?;
    for &(a, c, _) in views {
        let image = |v: Value| i128::from(a) * i128::from(v) + i128::from(c);
        let (p, q) = (image(lo), image(hi));
        let (min, max) = (p.min(q), p.max(q));
        Value::try_from(min).ok()?;
        Value::try_from(max).ok()?;
        if (max - min + 1) as u128 > u128::from(MAX_DOMAIN_WIDTH) {
            return None;
        }
    }
    // A range kept by ranges: one range of base values (no enumeration).
    if let Domain::Range(..) = base
        && views
            .iter()
            .all(|(_, _, d)| matches!(d, None | Some(Domain::Range(..))))
    {
        let (mut from, mut to) = (i128::from(lo), i128::from(hi));
        for &(a, c, ref d) in views {
            let Some(Domain::Range(l, u)) = d else {
                continue;
            };
            // l <= a·v + c <= u.
            let (p, q) = (
                i128::from(*l) - i128::from(c),
                i128::from(*u) - i128::from(c),
            );
            let a = i128::from(a);
            let (p, q) = if a > 0 { (p, q) } else { (-q, -p) };
            let a = a.abs();
            from = from.max(p.div_euclid(a) + i128::from(p.rem_euclid(a) != 0));
            to = to.min(q.div_euclid(a));
        }
        if from > to {
            return None;
        }
        let (from, to) = (from as Value, to as Value);
        return Some(((from, to) != (lo, hi)).then_some(Domain::Range(from, to)));
    }
    let inside = |v: Value| {
        views.iter().all(|(a, c, d)| {
            d.as_ref()
                .is_none_or(|d| d.contains(a.wrapping_mul(v).wrapping_add(*c)))
        })
    };
    if base.len() > ENUMERATE_LIMIT {
        // Only bounds that already hold are accepted for a wide domain.
        return (inside(lo)
            && inside(hi)
            && views
                .iter()
                .all(|(_, _, d)| matches!(d, None | Some(Domain::Range(..)))))
        .then_some(None);
    }
    let values = base.values();
    let kept: Vec<Value> = values.iter().copied().filter(|&v| inside(v)).collect();
    if kept.is_empty() {
        return None;
    }
    Some((kept.len() < values.len()).then(|| Domain::from_values(kept)))
}

/// The search phases with each view replaced by its base: a view is never
/// a decision of its own. A view with a negative scale puts its base in a
/// phase of its own, next to its phase, with the value order reversed
/// (`indomain_max` on `-x` is `indomain_min` on `x`).
pub(crate) fn phases_on_bases(phases: Vec<Phase>, model: &csp_core::Model) -> Vec<Phase> {
    let mut out = Vec::with_capacity(phases.len());
    for phase in phases {
        let (mut same, mut reversed) = (Vec::new(), Vec::new());
        for &v in &phase.vars {
            match model.view_of(v) {
                Some((base, scale, _)) if scale < 0 => reversed.push(base),
                Some((base, ..)) => same.push(base),
                None => same.push(v),
            }
        }
        let flipped = match phase.val_choice {
            ValChoice::Min => ValChoice::Max,
            ValChoice::Max => ValChoice::Min,
            ValChoice::Split => ValChoice::ReverseSplit,
            ValChoice::ReverseSplit => ValChoice::Split,
            other => other,
        };
        let (var_choice, val_choice) = (phase.var_choice, phase.val_choice);
        if !same.is_empty() || reversed.is_empty() {
            out.push(Phase {
                vars: same,
                var_choice,
                val_choice,
            });
        }
        if !reversed.is_empty() {
            out.push(Phase {
                vars: reversed,
                var_choice,
                val_choice: flipped,
            });
        }
    }
    out
}

/// Whether `model` declares its views after its variables (as csp-core's
/// solver requires).
pub(crate) fn views_last(model: &csp_core::Model) -> bool {
    let mut seen_view = false;
    model.vars().all(|v| {
        let view = model.view_of(v).is_some();
        seen_view |= view;
        view || !seen_view
    })
}

impl Context {
    /// Declares the views of `plan` (the variables are declared): first the
    /// constant 0, so that constants needed later are views of it.
    pub(crate) fn declare_views(&mut self, plan: &ViewPlan<'_>) -> Result<(), TranslateError> {
        if plan.is_empty() {
            return Ok(());
        }
        let zero = self.const_var(0)?;
        for (y, x, a, c) in &plan.views {
            let base = match self.symbol(x)? {
                Symbol::Scalar(Scalar::IntVar(v) | Scalar::BoolVar(v)) => *v,
                _ => return Err(self.bad(y, "a variable to view")),
            };
            // `y = x` (bool2int, or a copy): the same variable under a
            // second name, so that constraints read it without a view.
            let view = if (*a, *c) == (1, 0) {
                base
            } else {
                self.model
                    .named_view(y.to_string(), base, *a, *c)
                    .map_err(|e| self.core(e))?
            };
            self.define(y, Symbol::Scalar(Scalar::IntVar(view)));
        }
        self.zero = Some(zero);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::views_last;
    use crate::{TranslateOptions, parse, translate};

    fn counts(src: &str) -> (usize, usize, usize) {
        let t = translate(&parse(src).unwrap(), &TranslateOptions::default()).unwrap();
        (
            t.model.num_vars(),
            t.model.num_views(),
            t.model.num_constraints(),
        )
    }

    #[test]
    fn two_term_definitions_become_views() {
        let src = "var 0..5: x :: output_var;\n\
                   var 2..4: y :: output_var;\n\
                   var int: z :: output_var;\n\
                   var bool: b :: output_var;\n\
                   var 0..1: i :: output_var;\n\
                   array [1..2] of int: k = [1, -2];\n\
                   constraint int_lin_eq(k, [y, x], -1) :: defines_var(y);\n\
                   constraint int_times(y, 3, z) :: defines_var(z);\n\
                   constraint bool2int(b, i) :: defines_var(i);\n\
                   solve satisfy;";
        // y = 2x - 1 (x in 0..5, y in 2..4: x in {2}), z = 3y, i = b (the
        // same variable, no view); the constant 0 is the zero base.
        let (vars, views, constraints) = counts(src);
        assert_eq!((vars, views, constraints), (5, 2, 0));
        let t = translate(&parse(src).unwrap(), &TranslateOptions::default()).unwrap();
        let m = &t.model;
        let x = t.outputs.iter().find(|o| o.name == "x").unwrap();
        let _ = x;
        let names: Vec<String> = m.vars().map(|v| m.var_name(v)).collect();
        assert_eq!(names, ["x", "b", "0", "y", "z"]);
        assert_eq!(m.domain(csp_core::VarId::new(0)).unwrap().values(), [2]);
    }

    #[test]
    fn a_variable_made_after_the_views_means_no_views() {
        // global_cardinality_low_up makes its count variables while posting:
        // after the views, so the model is translated again without them.
        let src = "var 1..2: a;\nvar 1..2: b;\nvar 2..3: c :: output_var;\n\
                   constraint int_plus(a, 1, c) :: defines_var(c);\n\
                   constraint fzn_global_cardinality_low_up([a, b], [1, 2], [1, 0], [1, 1]);\n\
                   solve satisfy;";
        let ast = parse(src).unwrap();
        let t = translate(&ast, &TranslateOptions::default()).unwrap();
        assert_eq!(t.model.num_views(), 0);
        assert!(views_last(&t.model));
        // Without the global the same definition is a view.
        let (_, views, _) = counts(&src.replace(
            "constraint fzn_global_cardinality_low_up([a, b], [1, 2], [1, 0], [1, 1]);\n",
            "",
        ));
        assert_eq!(views, 1);
    }

    #[test]
    fn cycles_and_second_definitions_stay_constraints() {
        let src = "var 0..5: x;\nvar 0..5: y;\n\
                   constraint int_lin_eq([1, -1], [y, x], 0) :: defines_var(y);\n\
                   constraint int_lin_eq([1, -1], [x, y], 0) :: defines_var(x);\n\
                   constraint int_plus(x, 1, y) :: defines_var(y);\n\
                   solve satisfy;";
        let (vars, views, constraints) = counts(src);
        // y = x names x (a copy: no view, no variable); x = y (a cycle) and
        // the second definition of y are posted.
        assert_eq!((vars, views, constraints), (2, 0, 2));
    }
}
