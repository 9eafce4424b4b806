//! The variables the modeller declared, and those solutions are told apart by.

use csp_core::VarId;

use super::{Context, Scalar, Symbol};
use crate::ast;

/// The variables of `ast` declared on their own and not marked
/// `var_is_introduced` or `is_defined_var`.
pub(crate) fn declared_vars(cx: &Context, ast: &ast::Model) -> Vec<VarId> {
    vars_where(cx, ast, |_, marked| is_declared(marked))
}

/// Whether a declaration with these annotations is the modeller's: not
/// marked `var_is_introduced` or `is_defined_var` (MiniZinc's marks).
pub(crate) fn is_declared(marked: &dyn Fn(&str) -> bool) -> bool {
    !marked("var_is_introduced") && !marked("is_defined_var")
}

/// The variable declarations without a value (not a constant or an alias)
/// that `keep` accepts (given the item and its annotations), in order.
fn var_decls_where<'a>(
    ast: &'a ast::Model,
    keep: impl Fn(&ast::VarDecl, &dyn Fn(&str) -> bool) -> bool + 'a,
) -> impl Iterator<Item = &'a ast::VarDecl> + 'a {
    ast.decls.iter().filter_map(move |decl| {
        let ast::Decl::Var(v) = decl else {
            return None;
        };
        let marked = |name: &str| ast::Annotation::find(&v.annotations, name).is_some();
        (v.value.is_none() && keep(v, &marked)).then_some(v)
    })
}

/// [`Translation::projection`] for `ast`, whose printed items are `outputs`
/// and search annotations `phases`.
pub(crate) fn projection(
    cx: &Context,
    ast: &ast::Model,
    outputs: &[crate::Output],
    phases: &[crate::Phase],
) -> Vec<VarId> {
    let own = |_: &ast::VarDecl, marked: &dyn Fn(&str) -> bool| !marked("var_is_introduced");
    let mut out = vars_where(cx, ast, own);
    out.extend(set_elements_where(cx, ast, own));
    for o in outputs {
        out.extend(o.values.iter().filter_map(|s| match s {
            Scalar::IntVar(v) | Scalar::BoolVar(v) => Some(*v),
            _ => None,
        }));
        out.extend(o.sets.iter().flatten().flat_map(crate::SetVar::vars));
    }
    out.extend(phases.iter().flat_map(|p| p.vars.iter().copied()));
    let mut seen = crate::hash::HashSet::default();
    out.retain(|v| seen.insert(*v));
    out
}

/// The elements' 0/1 variables of the set variables of [`var_decls_where`],
/// set by set.
pub(crate) fn set_elements_where(
    cx: &Context,
    ast: &ast::Model,
    keep: impl Fn(&ast::VarDecl, &dyn Fn(&str) -> bool) -> bool,
) -> Vec<VarId> {
    var_decls_where(ast, keep)
        .filter_map(|v| match cx.symbol(&v.name) {
            Ok(Symbol::SetVar(set)) => Some(set.vars()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The integer and Boolean variables of [`var_decls_where`], once each.
pub(crate) fn vars_where(
    cx: &Context,
    ast: &ast::Model,
    keep: impl Fn(&ast::VarDecl, &dyn Fn(&str) -> bool) -> bool,
) -> Vec<VarId> {
    let mut seen = crate::hash::HashSet::default();
    let mut out = Vec::new();
    for v in var_decls_where(ast, keep) {
        if let Some(Symbol::Scalar(Scalar::IntVar(var) | Scalar::BoolVar(var))) =
            cx.symbols.get(&v.name)
            && seen.insert(*var)
        {
            out.push(*var);
        }
    }
    out
}
