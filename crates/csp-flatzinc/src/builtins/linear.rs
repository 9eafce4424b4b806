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

/// Posts `sum a * x  rel  rhs`, or `r <-> (sum a * x  rel  rhs)` when `result` is
/// given, with the constant terms moved to the right-hand side first.
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

/// `r -> (sum terms  rel  rhs)` (the `_imp` builtins): nothing when `r` is
/// false, the plain constraint when it is true.
pub(super) fn linear_imp(
    cx: &mut Context,
    terms: &[(Value, Scalar)],
    rel: Relation,
    rhs: Value,
    r: Scalar,
) -> Result<(), TranslateError> {
    let (coeffs, vars, rhs) = fold(cx, terms, rhs)?;
    match r {
        Scalar::Bool(false) | Scalar::Int(0) => Ok(()),
        Scalar::Bool(true) | Scalar::Int(_) => cx.linear(&coeffs, &vars, rel, rhs),
        Scalar::IntVar(r) | Scalar::BoolVar(r) => {
            if vars.is_empty() {
                let holds = csp_core::Linear::new(&[], &[], rel, rhs)
                    .map_err(|e| cx.core(e))?
                    .check(&[]);
                return if holds {
                    Ok(())
                } else {
                    cx.linear(&[1], &[r], Relation::Eq, 0)
                };
            }
            cx.check_linear_range(&coeffs, &vars, rhs)?;
            cx.model
                .linear_imp(&coeffs, &vars, rel, rhs, r)
                .map(|_| ())
                .map_err(|e| cx.core(e))
        }
    }
}

pub(super) fn linear(
    cx: &mut Context,
    terms: &[(Value, Scalar)],
    rel: Relation,
    rhs: Value,
    result: Option<Scalar>,
) -> Result<(), TranslateError> {
    let (coeffs, vars, rhs) = fold(cx, terms, rhs)?;
    match result {
        None => cx.linear(&coeffs, &vars, rel, rhs),
        Some(Scalar::Bool(b)) => {
            cx.linear(&coeffs, &vars, if b { rel } else { rel.negated() }, rhs)
        }
        Some(Scalar::Int(c)) => cx.linear(
            &coeffs,
            &vars,
            if c != 0 { rel } else { rel.negated() },
            rhs,
        ),
        Some(Scalar::IntVar(r) | Scalar::BoolVar(r)) => {
            if vars.is_empty() {
                let holds = csp_core::Linear::new(&[], &[], rel, rhs)
                    .map_err(|e| cx.core(e))?
                    .check(&[]);
                return cx.linear(&[1], &[r], Relation::Eq, Value::from(holds));
            }
            cx.check_linear_range(&coeffs, &vars, rhs)?;
            cx.linear_reif(&coeffs, &vars, rel, rhs, r)
        }
    }
}
