//! Set variables (`var set of 1..n`): each is one 0/1 variable per value it
//! may hold, and the FlatZinc set constraints (`set_card`, `set_union`,
//! `set_in`, `set_le`, ...) are posted on those, as MiniZinc's `nosets.mzn`
//! would write them, but without MiniZinc having to compile that library.

use csp_core::{Domain, Relation, Value, VarId};

use crate::ast::ConstraintItem;
use crate::builtins::{Call, bool_or};
use crate::constraints::{InSet, Lit, Parity};
use crate::error::TranslateError;
use crate::translate::Context;

mod declare;

use declare::is_constant;
pub(crate) use declare::{
    declare, declared_set_elements, search_sets, set_element_vars, set_var, set_vars,
};

/// The most values one set (a variable's universe, or a constant set used
/// where a set variable may stand) may hold: each takes a 0/1 variable.
pub const MAX_SET_ELEMENTS: u64 = 1 << 20;

/// A set of integers as the model sees it: the values it may hold,
/// increasing, each with the 0/1 variable that says whether it does (a
/// fixed variable for a constant set).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SetVar {
    /// `(value, in_set)`, by increasing value.
    pub elements: Vec<(Value, VarId)>,
}

impl SetVar {
    /// The 0/1 variables of its elements, by increasing value.
    ///
    /// ```
    /// use csp_core::VarId;
    /// let s = csp_flatzinc::SetVar { elements: vec![(1, VarId::new(4)), (3, VarId::new(5))] };
    /// assert_eq!(s.vars().collect::<Vec<_>>(), [VarId::new(4), VarId::new(5)]);
    /// ```
    pub fn vars(&self) -> impl Iterator<Item = VarId> + '_ {
        self.elements.iter().map(|&(_, b)| b)
    }

    /// The variable of `value`, if the set may hold it.
    fn get(&self, value: Value) -> Option<VarId> {
        self.elements
            .binary_search_by_key(&value, |&(v, _)| v)
            .ok()
            .map(|i| self.elements[i].1)
    }
}

// ------------------------------------------------------------------ posting

/// Every value any of `sets` may hold, increasing, with each set's variable
/// for it (the constant 0 where a set cannot hold it).
fn align(cx: &mut Context, sets: &[&SetVar]) -> Result<Vec<(Value, Vec<VarId>)>, TranslateError> {
    let zero = cx.const_var(0)?;
    let mut values: Vec<Value> = sets
        .iter()
        .flat_map(|s| s.elements.iter().map(|&(v, _)| v))
        .collect();
    values.sort_unstable();
    values.dedup();
    // One variable per value and set, and for the order a handful more per
    // value: refused before they are made if they would pass the limit.
    let needed = (values.len() as u64)
        .saturating_mul(sets.len() as u64 + 6)
        .saturating_mul(crate::translate::BYTES_PER_VARIABLE);
    if needed > cx.memory_limit {
        return Err(cx.core(csp_core::CspError::MemoryLimit {
            what: format!(
                "a set constraint over {} sets of {} values",
                sets.len(),
                values.len()
            ),
            needed,
            limit: cx.memory_limit,
        }));
    }
    Ok(values
        .into_iter()
        .map(|v| (v, sets.iter().map(|s| s.get(v).unwrap_or(zero)).collect()))
        .collect())
}

/// The result `r` of a reified form, or the constant 1 for the plain form
/// (which must hold).
fn result_or_true(cx: &mut Context, r: Option<VarId>) -> Result<VarId, TranslateError> {
    match r {
        Some(r) => Ok(r),
        None => cx.const_var(1),
    }
}

/// A fresh 0/1 variable.
fn boolean(cx: &mut Context) -> Result<VarId, TranslateError> {
    cx.model.int_var(0..=1).map_err(|e| cx.core(e))
}

/// `a = b` on two 0/1 variables.
fn same(cx: &mut Context, a: VarId, b: VarId) -> Result<(), TranslateError> {
    if a == b {
        return Ok(());
    }
    cx.linear(&[1, -1], &[a, b], Relation::Eq, 0)
}

/// `t <-> (a rel b)` on two 0/1 variables (`t` fresh).
fn compare(cx: &mut Context, a: VarId, rel: Relation, b: VarId) -> Result<VarId, TranslateError> {
    let t = boolean(cx)?;
    if a == b {
        let holds = matches!(rel, Relation::Eq | Relation::Le);
        cx.linear(&[1], &[t], Relation::Eq, Value::from(holds))?;
    } else {
        cx.linear_reif(&[1, -1], &[a, b], rel, 0, t)?;
    }
    Ok(t)
}

/// `r <-> (t_1 /\ ... /\ t_n)` (`None`: the conjunction holds).
fn all(cx: &mut Context, ts: &[VarId], r: Option<VarId>) -> Result<(), TranslateError> {
    match r {
        Some(r) => {
            let lits: Vec<Lit> = ts.iter().map(|&t| Lit::neg(t)).collect();
            bool_or(cx, &lits, Some(Lit::neg(r)))
        }
        None => ts
            .iter()
            .try_for_each(|&t| cx.linear(&[1], &[t], Relation::Eq, 1)),
    }
}

/// `l` holds.
fn assert_lit(cx: &mut Context, l: Lit) -> Result<(), TranslateError> {
    cx.linear(&[1], &[l.var], Relation::Eq, Value::from(l.positive))
}

/// `l == m` on two literals.
fn equal_lits(cx: &mut Context, l: Lit, m: Lit) -> Result<(), TranslateError> {
    if l.positive == m.positive {
        same(cx, l.var, m.var)
    } else if l.var == m.var {
        cx.post_false()
    } else {
        cx.linear(&[1, 1], &[l.var, m.var], Relation::Eq, 1)
    }
}

/// `r <-> (l1 \/ l2)`, whatever variables the three share.
fn or2(cx: &mut Context, l1: Lit, l2: Lit, r: Lit) -> Result<(), TranslateError> {
    if l1 == l2.negated() {
        return assert_lit(cx, r);
    }
    if l1 == l2 {
        return equal_lits(cx, r, l1);
    }
    if r.var == l1.var || r.var == l2.var {
        let t = Lit::pos(boolean(cx)?);
        bool_or(cx, &[l1, l2], Some(t))?;
        return equal_lits(cx, r, t);
    }
    bool_or(cx, &[l1, l2], Some(r))
}

/// `r = a xor b` on 0/1 variables, whatever variables the three share.
fn xor(cx: &mut Context, a: VarId, b: VarId, r: VarId) -> Result<(), TranslateError> {
    let zero = cx.const_var(0)?;
    if a == b {
        same(cx, r, zero)
    } else if r == a {
        same(cx, b, zero)
    } else if r == b {
        same(cx, a, zero)
    } else {
        cx.post(Parity::new(&[a, b, r], false))
    }
}

/// A clause, without repeated literals; one holding a literal and its
/// negation is left out.
fn clause(cx: &mut Context, lits: &[Lit]) -> Result<(), TranslateError> {
    let mut kept: Vec<Lit> = Vec::with_capacity(lits.len());
    for &l in lits {
        if kept.contains(&l.negated()) {
            return Ok(());
        }
        if !kept.contains(&l) {
            kept.push(l);
        }
    }
    bool_or(cx, &kept, None)
}

/// Posts one set constraint; `false` if `item` is not one (or is the
/// integer `set_in` over a constant set).
pub(crate) fn post(cx: &mut Context, item: &ConstraintItem) -> Result<bool, TranslateError> {
    let name = item.name.as_str();
    // The set constraints of `SUPPORTED`, by arity; any other name is not
    // this module's.
    let arity = match name {
        "set_card" | "set_in" | "set_eq" | "set_ne" | "set_subset" | "set_superset" | "set_le"
        | "set_lt" => 2,
        "set_in_reif"
        | "set_union"
        | "set_intersect"
        | "set_diff"
        | "set_symdiff"
        | "set_eq_reif"
        | "set_ne_reif"
        | "set_subset_reif"
        | "set_superset_reif"
        | "set_le_reif"
        | "set_lt_reif"
        | "array_set_element"
        | "array_var_set_element" => 3,
        _ => return Ok(false),
    };
    let call = Call {
        name,
        args: &item.args,
    };
    if matches!(name, "set_in" | "set_in_reif")
        && item.args.get(1).is_some_and(|e| is_constant(cx, e))
    {
        return Ok(false);
    }
    let reified = name.ends_with("_reif");
    call.arity(cx, arity)?;
    let set = |cx: &mut Context, i: usize| set_var(cx, &item.args[i], &call.what(i));
    let result = |cx: &mut Context| -> Result<Option<VarId>, TranslateError> {
        if reified {
            call.var(cx, 2).map(Some)
        } else {
            Ok(None)
        }
    };
    match name {
        "set_card" => {
            let x = set(cx, 0)?;
            let c = call.var(cx, 1)?;
            let mut vars: Vec<VarId> = x.vars().collect();
            let mut coeffs = vec![1; vars.len()];
            vars.push(c);
            coeffs.push(-1);
            cx.linear(&coeffs, &vars, Relation::Eq, 0)?;
        }
        "set_in" | "set_in_reif" => {
            let y = set(cx, 1)?;
            let r = result(cx)?;
            set_in(cx, &call, &y, r)?;
        }
        "set_union" | "set_intersect" | "set_diff" | "set_symdiff" => {
            let (x, y, z) = (set(cx, 0)?, set(cx, 1)?, set(cx, 2)?);
            for (_, v) in align(cx, &[&x, &y, &z])? {
                let (a, b, r) = (v[0], v[1], v[2]);
                match name {
                    "set_union" => or2(cx, Lit::pos(a), Lit::pos(b), Lit::pos(r))?,
                    "set_intersect" => or2(cx, Lit::neg(a), Lit::neg(b), Lit::neg(r))?,
                    "set_diff" => or2(cx, Lit::neg(a), Lit::pos(b), Lit::neg(r))?,
                    _ => xor(cx, a, b, r)?,
                }
            }
        }
        "set_eq" | "set_eq_reif" | "set_ne" | "set_ne_reif" => {
            let (x, y) = (set(cx, 0)?, set(cx, 1)?);
            let r = result(cx)?;
            let pairs = align(cx, &[&x, &y])?;
            if name == "set_eq" {
                for (_, v) in pairs {
                    same(cx, v[0], v[1])?;
                }
            } else {
                let mut ts = Vec::with_capacity(pairs.len());
                for (_, v) in pairs {
                    ts.push(compare(cx, v[0], Relation::Eq, v[1])?);
                }
                // x != y: not all equal; its reification is the negation.
                let r = match (name, r) {
                    ("set_ne", _) => Some(cx.const_var(0)?),
                    ("set_ne_reif", Some(r)) => {
                        let not_r = boolean(cx)?;
                        cx.linear(&[1, 1], &[r, not_r], Relation::Eq, 1)?;
                        Some(not_r)
                    }
                    (_, r) => r,
                };
                all(cx, &ts, r)?;
            }
        }
        "set_subset" | "set_subset_reif" | "set_superset" | "set_superset_reif" => {
            let (mut x, mut y) = (set(cx, 0)?, set(cx, 1)?);
            if name.starts_with("set_superset") {
                std::mem::swap(&mut x, &mut y);
            }
            let r = result(cx)?;
            let mut ts = Vec::new();
            for (_, v) in align(cx, &[&x, &y])? {
                if r.is_none() {
                    clause(cx, &[Lit::neg(v[0]), Lit::pos(v[1])])?;
                } else {
                    ts.push(compare(cx, v[0], Relation::Le, v[1])?);
                }
            }
            if r.is_some() {
                all(cx, &ts, r)?;
            }
        }
        "set_le" | "set_le_reif" | "set_lt" | "set_lt_reif" => {
            let (x, y) = (set(cx, 0)?, set(cx, 1)?);
            let r = result(cx)?;
            lex(cx, &x, &y, name.starts_with("set_lt"), r)?;
        }
        "array_set_element" | "array_var_set_element" => {
            let index = call.var(cx, 0)?;
            let sets = set_vars(cx, &item.args[1], &call.what(1))?;
            let z = set(cx, 2)?;
            element(cx, index, &sets, &z)?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// `x in y` (reified by `r`), `y` a set variable.
fn set_in(
    cx: &mut Context,
    call: &Call<'_>,
    y: &SetVar,
    r: Option<VarId>,
) -> Result<(), TranslateError> {
    let x = call.scalar(cx, 0)?;
    if let crate::translate::Scalar::Int(v) = x {
        let held = match y.get(v) {
            Some(b) => b,
            None => cx.const_var(0)?,
        };
        let r = result_or_true(cx, r)?;
        return same(cx, held, r);
    }
    let x = call.var(cx, 0)?;
    let (lo, hi) = cx
        .model
        .domain(x)
        .map_err(|e| cx.core(e))?
        .bounds()
        .unwrap_or((0, -1));
    let span = i128::from(hi) - i128::from(lo) + 1;
    if r.is_none() {
        let values: Vec<Value> = y.elements.iter().map(|&(v, _)| v).collect();
        cx.post(InSet::new(x, Domain::Set(values)))?;
    }
    let zero = cx.const_var(0)?;
    if span <= 0 {
        return match r {
            Some(r) => same(cx, r, zero),
            None => Ok(()),
        };
    }
    let r = result_or_true(cx, r)?;
    if span <= 2 * y.elements.len() as i128 + 64 {
        // The element over x's span: r = held[x], 0 outside y's values.
        let items: Vec<VarId> = (lo..=hi).map(|v| y.get(v).unwrap_or(zero)).collect();
        return cx
            .model
            .element_var_offset(x, &items, lo, r)
            .map(|_| ())
            .map_err(|e| cx.core(e));
    }
    // A wide x: r <-> OR_v (x = v /\ held_v).
    let mut cases = Vec::with_capacity(y.elements.len());
    for &(v, held) in &y.elements {
        let is_v = boolean(cx)?;
        cx.linear_reif(&[1], &[x], Relation::Eq, v, is_v)?;
        let case = boolean(cx)?;
        bool_or(cx, &[Lit::neg(is_v), Lit::neg(held)], Some(Lit::neg(case)))?;
        cases.push(Lit::pos(case));
    }
    bool_or(cx, &cases, Some(Lit::pos(r)))
}

/// `z = sets[index]` (1-based): the element constraint for each value.
fn element(
    cx: &mut Context,
    index: VarId,
    sets: &[SetVar],
    z: &SetVar,
) -> Result<(), TranslateError> {
    if sets.is_empty() {
        return cx.post_false();
    }
    let mut all: Vec<&SetVar> = sets.iter().collect();
    all.push(z);
    let aligned = align(cx, &all)?;
    if aligned.is_empty() {
        return cx.post(InSet::new(index, Domain::Range(1, sets.len() as Value)));
    }
    for (_, v) in aligned {
        let (items, held) = v.split_at(sets.len());
        cx.model
            .element_var_offset(index, items, 1, held[0])
            .map_err(|e| cx.core(e))?;
    }
    Ok(())
}

/// `x <= y` (`strict`: `x < y`) in MiniZinc's order on sets, reified by
/// `r`: `nosets.mzn`'s decomposition, a chain over the values either may
/// hold, with `max(x union {l - 1})` and `max(y union {l - 1})`.
fn lex(
    cx: &mut Context,
    x: &SetVar,
    y: &SetVar,
    strict: bool,
    r: Option<VarId>,
) -> Result<(), TranslateError> {
    let aligned = align(cx, &[x, y])?;
    let r = result_or_true(cx, r)?;
    let Some(&(l, _)) = aligned.first() else {
        // Both empty: x <= y holds, x < y does not.
        let holds = cx.const_var(Value::from(!strict))?;
        return same(cx, r, holds);
    };
    let below = l.checked_sub(1).ok_or_else(|| {
        cx.bad(
            "a set order",
            "sets whose values are above the smallest i64",
        )
    })?;
    let xmax = set_max(cx, x, below)?;
    let ymax = set_max(cx, y, below)?;
    // The last value u: b = (not x_u /\ y_u) for <, (x_u -> y_u) for <=.
    let mut next = boolean(cx)?;
    if let Some((_, v)) = aligned.last() {
        let (xu, yu) = (v[0], v[1]);
        match strict {
            true => or2(cx, Lit::pos(xu), Lit::neg(yu), Lit::neg(next))?,
            false => or2(cx, Lit::neg(xu), Lit::pos(yu), Lit::pos(next))?,
        }
    }
    for &(i, ref v) in aligned.iter().rev().skip(1) {
        let (xi, yi) = (v[0], v[1]);
        let (b, p, q) = (boolean(cx)?, boolean(cx)?, boolean(cx)?);
        // p <-> xmax < i; q <-> ymax > i.
        cx.linear_reif(&[1], &[xmax], Relation::Le, i - 1, p)?;
        match i.checked_add(1) {
            Some(j) => cx.linear_reif(&[-1], &[ymax], Relation::Le, -j, q)?,
            None => assert_lit(cx, Lit::neg(q))?,
        }
        // b = [next, p, q, next][2 x_i + y_i + 1], as nosets.mzn writes it:
        // both in or both out, b = next; only y, b = p; only x, b = q.
        let cmp = cx.model.int_var(1..=4).map_err(|e| cx.core(e))?;
        if xi == yi {
            cx.linear(&[1, -3], &[cmp, xi], Relation::Eq, 1)?;
        } else {
            cx.linear(&[1, -2, -1], &[cmp, xi, yi], Relation::Eq, 1)?;
        }
        cx.model
            .element_var_offset(cmp, &[next, p, q, next], 1, b)
            .map_err(|e| cx.core(e))?;
        next = b;
    }
    same(cx, r, next)
}

/// `max(x union {below})` as a variable.
fn set_max(cx: &mut Context, x: &SetVar, below: Value) -> Result<VarId, TranslateError> {
    let floor = cx.const_var(below)?;
    let mut terms = vec![floor];
    for &(v, b) in &x.elements {
        // t = [below, v][b]: v when the set holds v (no arithmetic, so no
        // overflow at the ends of i64).
        let t = cx
            .model
            .int_var(Domain::Set(vec![below, v]))
            .map_err(|e| cx.core(e))?;
        cx.model
            .element_offset(b, &[below, v], 0, t)
            .map_err(|e| cx.core(e))?;
        terms.push(t);
    }
    let hi = x.elements.last().map_or(below, |&(v, _)| v.max(below));
    let m = cx.model.int_var(below..=hi).map_err(|e| cx.core(e))?;
    cx.model.max(&terms, m).map_err(|e| cx.core(e))?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_finds_its_values() {
        let (a, b) = (VarId::new(0), VarId::new(1));
        let s = SetVar {
            elements: vec![(-3, a), (7, b)],
        };
        assert_eq!(s.get(7), Some(b));
        assert_eq!(s.get(-3), Some(a));
        assert_eq!(s.get(0), None);
    }
}
