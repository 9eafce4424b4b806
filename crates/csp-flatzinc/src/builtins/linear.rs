//! Sums as the builtins write them: terms of constants and variables
//! folded into csp-core's linear constraints, plain, reified or
//! half-reified.

use csp_core::{Constraint, Relation, Value, VarId};

use super::Call;
use crate::error::TranslateError;
use crate::translate::{Context, Scalar};

/// The terms of `int_lin_*` and `bool_lin_*`: coefficients (argument 1) with values (argument 2).
pub(super) fn weighted(
    cx: &Context,
    call: &Call<'_>,
) -> Result<Vec<(Value, Scalar)>, TranslateError> {
    let coeffs = call.ints(cx, 0)?;
    let values = call.scalars(cx, 1)?;
    if coeffs.len() != values.len() {
        return Err(cx.bad(
            &call.what(1),
            &format!("{} values, one per coefficient", coeffs.len()),
        ));
    }
    Ok(coeffs.into_iter().zip(values).collect())
}

/// The variable terms of `terms`, and `rhs` less the constant ones.
fn fold(
    cx: &Context,
    terms: &[(Value, Scalar)],
    rhs: Value,
) -> Result<(Vec<Value>, Vec<VarId>, Value), TranslateError> {
    let overflow = |cx: &Context| {
        cx.core(csp_core::CspError::Overflow {
            context: "linear".into(),
            detail: "the constant terms do not fit in 64 bits".into(),
        })
    };
    let mut bound = Some(i128::from(rhs));
    let mut coeffs = Vec::new();
    let mut vars = Vec::new();
    for &(a, s) in terms {
        let constant = match s {
            Scalar::Int(c) => c,
            Scalar::Bool(b) => Value::from(b),
            Scalar::IntVar(v) | Scalar::BoolVar(v) => {
                coeffs.push(a);
                vars.push(v);
                continue;
            }
        };
        bound = bound.and_then(|b| b.checked_sub(i128::from(a) * i128::from(constant)));
    }
    let rhs = bound
        .and_then(|b| Value::try_from(b).ok())
        .ok_or_else(|| overflow(cx))?;
    Ok((coeffs, vars, rhs))
}

/// How a comparison's or a sum's truth is tied to the Boolean `r` of its
/// `_reif` or `_imp` form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tie {
    /// `r <-> c` (`_reif`).
    Full,
    /// `r -> c` (`_imp`).
    Half,
}

/// The relation's name in `rest` (`le` of `le_reif`) and how its result is
/// tied: `None` for the plain form.
pub(super) fn split_tie(rest: &str) -> (&str, Option<Tie>) {
    match (rest.strip_suffix("_reif"), rest.strip_suffix("_imp")) {
        (Some(op), _) => (op, Some(Tie::Full)),
        (_, Some(op)) => (op, Some(Tie::Half)),
        _ => (rest, None),
    }
}

/// Posts `sum a * x  rel  rhs`, or with `result` `(r, tie)`
/// `r <-> (sum ...)` ([`Tie::Full`]) or `r -> (sum ...)` ([`Tie::Half`]),
/// with the constant terms moved to the right-hand side first. A constant
/// `r` posts the sum, its negation (full, false) or nothing (half, false).
pub(super) fn linear(
    cx: &mut Context,
    terms: &[(Value, Scalar)],
    rel: Relation,
    rhs: Value,
    result: Option<(Scalar, Tie)>,
) -> Result<(), TranslateError> {
    let (coeffs, vars, rhs) = fold(cx, terms, rhs)?;
    let (r, tie) = match result {
        None => return cx.linear(&coeffs, &vars, rel, rhs),
        Some((Scalar::Bool(b), tie)) => (Err(b), tie),
        Some((Scalar::Int(c), tie)) => (Err(c != 0), tie),
        Some((Scalar::IntVar(r) | Scalar::BoolVar(r), tie)) => (Ok(r), tie),
    };
    let r = match (r, tie) {
        (Err(true), _) => return cx.linear(&coeffs, &vars, rel, rhs),
        (Err(false), Tie::Full) => return cx.linear(&coeffs, &vars, rel.negated(), rhs),
        (Err(false), Tie::Half) => return Ok(()),
        (Ok(r), _) => r,
    };
    if vars.is_empty() {
        let holds = csp_core::Linear::new(&[], &[], rel, rhs)
            .map_err(|e| cx.core(e))?
            .check(&[]);
        return match (holds, tie) {
            (true, Tie::Half) => Ok(()),
            _ => cx.linear(&[1], &[r], Relation::Eq, Value::from(holds)),
        };
    }
    cx.check_linear_range(&coeffs, &vars, rhs)?;
    match tie {
        Tie::Full => cx.linear_reif(&coeffs, &vars, rel, rhs, r),
        Tie::Half => cx
            .model
            .linear_imp(&coeffs, &vars, rel, rhs, r)
            .map(|_| ())
            .map_err(|e| cx.core(e)),
    }
}
