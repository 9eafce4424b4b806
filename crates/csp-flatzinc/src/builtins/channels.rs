//! Equality channels: the `int_eq_reif` and `int_ne_reif` items of one
//! variable against constants, grouped before posting and posted as one
//! [`EqualityChannel`](csp_core::EqualityChannel) per variable.

use crate::hash::HashMap;

use csp_core::{Value, VarId};

use crate::ast::ConstraintItem;
use crate::error::TranslateError;
use crate::translate::{Context, Scalar};

/// With [`TranslateOptions::channel_equalities`](crate::TranslateOptions):
/// whether the item being posted is one of the comparisons that
/// [`collect_channels`] grouped (then it is posted as part of its
/// variable's channel, which the group's first item posts whole).
pub(super) fn keep_for_channel(cx: &mut Context) -> Result<bool, TranslateError> {
    let Some(ch) = cx.channels.as_mut() else {
        return Ok(false);
    };
    let Some(&x) = ch.items.get(&ch.item) else {
        return Ok(false);
    };
    if let Some(literals) = ch.groups.remove(&x) {
        cx.model
            .equality_channel(x, &literals)
            .map_err(|e| cx.core(e))?;
    }
    Ok(true)
}

/// The comparison `b <-> x = c` (`equal`) or `b <-> x != c` that an
/// `int_eq_reif` or `int_ne_reif` item states, with `x` a variable, `c` a
/// constant and `b` a Boolean variable; `None` for any other item.
fn literal(cx: &Context, item: &ConstraintItem) -> Option<(VarId, Value, VarId, bool)> {
    let equal = match item.name.as_str() {
        "int_eq_reif" => true,
        "int_ne_reif" => false,
        _ => return None,
    };
    let [x, y, b] = &item.args[..] else {
        return None;
    };
    let scalar = |e| cx.scalar(e, "").ok();
    let (x, c) = match (scalar(x)?, scalar(y)?) {
        (Scalar::IntVar(v), Scalar::Int(c)) | (Scalar::Int(c), Scalar::IntVar(v)) => (v, c),
        _ => return None,
    };
    match scalar(b)? {
        Scalar::BoolVar(b) if b != x => Some((x, c, b, equal)),
        _ => None,
    }
}

/// For [`TranslateOptions::channel_equalities`](crate::TranslateOptions),
/// before the constraint items are posted: the `int_eq_reif` and
/// `int_ne_reif` items of each variable compared with a constant, grouped
/// by variable where there are two or more (items that do not read as such
/// are left to their own translation, which reports what is wrong with
/// them). Polls the translation's limits at every item.
pub(crate) fn collect_channels(
    cx: &mut Context,
    items: &[ConstraintItem],
) -> Result<(), TranslateError> {
    if cx.channels.is_none() {
        return Ok(());
    }
    let mut by_var: HashMap<VarId, Vec<(usize, Value, VarId, bool)>> = HashMap::default();
    for (i, item) in items.iter().enumerate() {
        cx.line = item.pos.line;
        cx.poll()?;
        if let Some((x, c, b, equal)) = literal(cx, item) {
            by_var.entry(x).or_default().push((i, c, b, equal));
        }
    }
    let Some(ch) = cx.channels.as_mut() else {
        return Ok(());
    };
    for (x, group) in by_var {
        if group.len() < 2 {
            continue;
        }
        for &(i, ..) in &group {
            ch.items.insert(i, x);
        }
        let literals = group.into_iter().map(|(_, c, b, e)| (c, b, e)).collect();
        ch.groups.insert(x, literals);
    }
    Ok(())
}
