//! Set variable declarations, and sets read from constraint arguments.

use csp_core::{Domain, Relation, Value, VarId};

use super::{MAX_SET_ELEMENTS, SetVar};
use crate::ast::{Decl, Expr, SetLit, VarType};
use crate::error::TranslateError;
use crate::translate::{BYTES_PER_VARIABLE, Context, Symbol};

/// The symbol of a set variable declaration (`None` for any other).
pub(crate) fn declare(cx: &mut Context, decl: &Decl) -> Result<Option<Symbol>, TranslateError> {
    match decl {
        Decl::Var(v) => {
            let VarType::SetOfInt(universe) = &v.ty else {
                return Ok(None);
            };
            let set = match &v.value {
                Some(e) => {
                    let set = set_var(cx, e, &format!("the value of `{}`", v.name))?;
                    within(cx, set, universe.as_ref())?
                }
                None => fresh(cx, &v.name, universe.as_ref())?,
            };
            Ok(Some(Symbol::SetVar(set)))
        }
        Decl::VarArray(a) => {
            let VarType::SetOfInt(universe) = &a.element else {
                return Ok(None);
            };
            let mut sets = Vec::with_capacity(a.len);
            match &a.value {
                Some(items) => {
                    let what = format!("an element of `{}`", a.name);
                    for item in items {
                        let set = set_var(cx, item, &what)?;
                        sets.push(within(cx, set, universe.as_ref())?);
                    }
                }
                None => {
                    let each = universe_values(cx, &a.name, universe.as_ref())?.len() as u64;
                    check_memory(cx, &a.name, (a.len as u64).saturating_mul(each))?;
                    for i in 0..a.len {
                        cx.poll()?;
                        let name = format!("{}[{}]", a.name, i + 1);
                        sets.push(fresh(cx, &name, universe.as_ref())?);
                    }
                }
            }
            Ok(Some(Symbol::SetVarArray(sets)))
        }
        Decl::Par(_) => Ok(None),
    }
}

fn check_memory(cx: &Context, name: &str, vars: u64) -> Result<(), TranslateError> {
    let needed = vars.saturating_mul(BYTES_PER_VARIABLE);
    if needed > cx.memory_limit {
        return Err(TranslateError::Core {
            source: csp_core::CspError::MemoryLimit {
                what: format!("set variables `{name}` of {vars} possible elements"),
                needed,
                limit: cx.memory_limit,
            },
            line: cx.line,
        });
    }
    Ok(())
}

/// The values of a declared universe, checked against [`MAX_SET_ELEMENTS`].
fn universe_values(
    cx: &Context,
    name: &str,
    universe: Option<&SetLit>,
) -> Result<Vec<Value>, TranslateError> {
    let unsupported = |what: String| TranslateError::UnsupportedType {
        name: name.to_string(),
        what,
        line: cx.line,
    };
    match universe {
        None => Err(unsupported(
            "set variable without a finite universe (`var set of int`)".into(),
        )),
        Some(SetLit::FloatRange(..) | SetLit::Floats(_)) => {
            Err(unsupported("set of floats".into()))
        }
        Some(SetLit::IntRange(lo, hi)) => {
            let len = (i128::from(*hi) - i128::from(*lo) + 1).max(0);
            if len > i128::from(MAX_SET_ELEMENTS) {
                return Err(unsupported(format!(
                    "set variable of {len} possible elements (at most {MAX_SET_ELEMENTS})"
                )));
            }
            Ok((*lo..=*hi).collect())
        }
        Some(SetLit::Ints(values)) => {
            if values.len() as u64 > MAX_SET_ELEMENTS {
                return Err(unsupported(format!(
                    "set variable of {} possible elements (at most {MAX_SET_ELEMENTS})",
                    values.len()
                )));
            }
            Ok(values.clone())
        }
    }
}

/// A new set variable: a 0/1 variable per value of its universe, named
/// `"v in name"`, listed for the default search.
fn fresh(
    cx: &mut Context,
    name: &str,
    universe: Option<&SetLit>,
) -> Result<SetVar, TranslateError> {
    let values = universe_values(cx, name, universe)?;
    check_memory(cx, name, values.len() as u64)?;
    let mut elements = Vec::with_capacity(values.len());
    for v in values {
        let b = cx
            .model
            .named_int_var(format!("{v} in {name}"), 0..=1)
            .map_err(|e| cx.core(e))?;
        cx.set_elements.push(b);
        elements.push((v, b));
    }
    Ok(SetVar { elements })
}

/// `set` restricted to the declared universe: its values outside are out.
fn within(
    cx: &mut Context,
    set: SetVar,
    universe: Option<&SetLit>,
) -> Result<SetVar, TranslateError> {
    let Some(universe) = universe else {
        return Ok(set);
    };
    let mut kept = Vec::with_capacity(set.elements.len());
    for (v, b) in set.elements {
        if universe.contains(v) {
            kept.push((v, b));
        } else {
            cx.linear(&[1], &[b], Relation::Eq, 0)?;
        }
    }
    Ok(SetVar { elements: kept })
}

/// The Booleans of `ast` that stand for the elements of set variables:
/// `var bool` items marked `var_is_introduced` and `output_var` (MiniZinc
/// adds `is_defined_var` to some) that no constraint defines
/// (`defines_var`). MiniZinc's `nosets.mzn` (included by solver libraries
/// without set variables; fzn-csp's no longer is one) turns each `var set
/// of` into one such Boolean per possible element and prints the set from them (a reverse map, which FlatZinc does
/// not show as a constraint). Other introduced Booleans that are printed,
/// such as an optional variable's `occurs`, have a defining constraint.
pub(crate) fn set_element_vars(cx: &Context, ast: &crate::ast::Model) -> Vec<VarId> {
    let mut defined = crate::hash::HashSet::default();
    for item in &ast.constraints {
        for a in item.annotations.iter().filter(|a| a.name == "defines_var") {
            if let [Expr::Ident(name)] = a.args.as_slice() {
                defined.insert(name.as_str());
            }
        }
    }
    crate::translate::vars_where(cx, ast, |v, marked| {
        v.ty == VarType::Bool
            && marked("var_is_introduced")
            && marked("output_var")
            && !defined.contains(v.name.as_str())
    })
}

/// The elements of the set variables the modeller declared (no
/// `var_is_introduced` or `is_defined_var`), in declaration order.
pub(crate) fn declared_set_elements(cx: &Context, ast: &crate::ast::Model) -> Vec<VarId> {
    crate::translate::set_elements_where(cx, ast, |_, marked| crate::translate::is_declared(marked))
}

// ------------------------------------------------------------------ reading arguments

/// A constant set as a [`SetVar`] of fixed variables.
fn constant(cx: &mut Context, set: &Domain, what: &str) -> Result<SetVar, TranslateError> {
    if set.len() as u64 > MAX_SET_ELEMENTS {
        return Err(cx.bad(
            what,
            &format!("a set of at most {MAX_SET_ELEMENTS} values where a set variable may stand"),
        ));
    }
    let one = cx.const_var(1)?;
    Ok(SetVar {
        elements: set.values().into_iter().map(|v| (v, one)).collect(),
    })
}

/// The element at 1-based `index` of an array of sets.
fn indexed(sets: &[SetVar], index: i64) -> Option<&SetVar> {
    sets.get(usize::try_from(index).ok()?.checked_sub(1)?)
}

/// A set, constant or variable: a literal, a name, or an array's element.
pub(crate) fn set_var(cx: &mut Context, e: &Expr, what: &str) -> Result<SetVar, TranslateError> {
    match e {
        Expr::Ident(name) => match cx.symbol(name)? {
            Symbol::SetVar(s) => return Ok(s.clone()),
            Symbol::Set(_) => {}
            _ => return Err(cx.bad(what, "a set of integers, constant or variable")),
        },
        Expr::ArrayAccess { name, index } => {
            if let Symbol::SetVarArray(sets) = cx.symbol(name)? {
                return indexed(sets, *index)
                    .cloned()
                    .ok_or_else(|| cx.bad(what, &format!("an index of `{name}`")));
            }
        }
        _ => {}
    }
    let set = cx
        .set(e, what)
        .map_err(|_| cx.bad(what, "a set of integers, constant or variable"))?;
    constant(cx, &set, what)
}

/// An array of sets, constant or variable.
pub(crate) fn set_vars(
    cx: &mut Context,
    e: &Expr,
    what: &str,
) -> Result<Vec<SetVar>, TranslateError> {
    match e {
        Expr::Array(items) => items.iter().map(|item| set_var(cx, item, what)).collect(),
        Expr::Ident(name) => match cx.symbol(name)? {
            Symbol::SetVarArray(sets) => Ok(sets.clone()),
            Symbol::SetArray(sets) => {
                let sets = sets.clone();
                sets.iter().map(|s| constant(cx, s, what)).collect()
            }
            _ => Err(cx.bad(what, "an array of sets")),
        },
        _ => Err(cx.bad(what, "an array of sets")),
    }
}

/// The set variables named by a search annotation's array (constant sets
/// left out); `None` if it names anything else.
pub(crate) fn search_sets(cx: &Context, e: &Expr) -> Option<Vec<SetVar>> {
    let one = |e: &Expr| match e {
        Expr::Ident(name) => match cx.symbol(name).ok()? {
            Symbol::SetVar(s) => Some(Some(s.clone())),
            Symbol::Set(_) => Some(None),
            _ => None,
        },
        Expr::ArrayAccess { name, index } => match cx.symbol(name).ok()? {
            Symbol::SetVarArray(sets) => Some(Some(indexed(sets, *index)?.clone())),
            _ => None,
        },
        Expr::Set(_) => Some(None),
        _ => None,
    };
    match e {
        Expr::Array(items) => items
            .iter()
            .map(one)
            .collect::<Option<Vec<_>>>()
            .map(|v| v.into_iter().flatten().collect()),
        Expr::Ident(name) => match cx.symbol(name).ok()? {
            Symbol::SetVarArray(sets) => Some(sets.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Whether argument `e` is a constant set (so `set_in` is the integer builtin).
pub(super) fn is_constant(cx: &Context, e: &Expr) -> bool {
    cx.set(e, "").is_ok()
}
