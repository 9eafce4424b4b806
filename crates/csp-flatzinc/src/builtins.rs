//! The FlatZinc builtins: each `constraint` item posted as csp-core built-ins or this crate's constraints.

use csp_core::{Relation, Value, VarId};

use crate::ast::{ConstraintItem, Expr};
use crate::constraints::{BoolOr, Func, Function, InSet, Lit, Parity};
use crate::error::TranslateError;
use crate::translate::{AllDifferentFiltering, Context, Scalar};

mod channels;
mod linear;

pub(crate) use channels::collect_channels;
use channels::keep_for_channel;
use linear::{linear, split_tie, weighted};

/// Every FlatZinc constraint name the translation accepts.
pub const SUPPORTED: &[&str] = &[
    "int_eq",
    "int_ne",
    "int_le",
    "int_lt",
    "int_eq_reif",
    "int_ne_reif",
    "int_le_reif",
    "int_lt_reif",
    "int_lin_eq",
    "int_lin_ne",
    "int_lin_le",
    "int_lin_eq_reif",
    "int_lin_ne_reif",
    "int_lin_le_reif",
    "int_eq_imp",
    "int_ne_imp",
    "int_le_imp",
    "int_lt_imp",
    "int_lin_eq_imp",
    "int_lin_ne_imp",
    "int_lin_le_imp",
    "bool_clause_imp",
    "array_bool_or_imp",
    "array_bool_and_imp",
    "int_plus",
    "int_times",
    "int_div",
    "int_mod",
    "int_pow",
    "int_min",
    "int_max",
    "int_abs",
    "array_int_minimum",
    "array_int_maximum",
    "array_int_element",
    "array_var_int_element",
    "array_bool_element",
    "array_var_bool_element",
    "bool2int",
    "bool_eq",
    "bool_eq_reif",
    "bool_ne",
    "bool_ne_reif",
    "bool_le",
    "bool_le_reif",
    "bool_lt",
    "bool_lt_reif",
    "bool_not",
    "bool_and",
    "bool_or",
    "bool_xor",
    "bool_clause",
    "bool_clause_reif",
    "array_bool_and",
    "array_bool_or",
    "array_bool_xor",
    "bool_lin_eq",
    "bool_lin_le",
    "set_in",
    "set_in_reif",
    "set_card",
    "set_union",
    "set_intersect",
    "set_diff",
    "set_symdiff",
    "set_eq",
    "set_eq_reif",
    "set_ne",
    "set_ne_reif",
    "set_subset",
    "set_subset_reif",
    "set_superset",
    "set_superset_reif",
    "set_le",
    "set_le_reif",
    "set_lt",
    "set_lt_reif",
    "array_set_element",
    "array_var_set_element",
    "fzn_all_different_int",
    "fzn_table_int",
    "table_int",
    "csp_table_int_negative",
    "fzn_at_most_int",
    "fzn_at_least_int",
    // Globals (globals.rs).
    "csp_circuit_offset",
    "fzn_circuit",
    "fzn_cumulative",
    "fzn_diffn",
    "fzn_disjunctive",
    "fzn_global_cardinality",
    "fzn_global_cardinality_closed",
    "fzn_global_cardinality_low_up",
    "fzn_global_cardinality_low_up_closed",
    "csp_inverse_offsets",
    "fzn_inverse",
    "fzn_regular",
    "fzn_lex_lesseq_int",
    "fzn_lex_lesseq_bool",
    "fzn_count_eq",
    "fzn_count_neq",
    "fzn_count_leq",
    "fzn_count_lt",
    "fzn_count_geq",
    "fzn_count_gt",
    "fzn_count_eq_reif",
    "fzn_count_neq_reif",
    "fzn_count_leq_reif",
    "fzn_count_lt_reif",
    "fzn_count_geq_reif",
    "fzn_count_gt_reif",
    "fzn_count_eq_imp",
    "fzn_count_neq_imp",
    "fzn_count_leq_imp",
    "fzn_count_lt_imp",
    "fzn_count_geq_imp",
    "fzn_count_gt_imp",
];

/// A constraint item's name and arguments, read with their positions for
/// errors (the globals of `globals.rs` read theirs through it too).
pub(crate) struct Call<'a> {
    pub(crate) name: &'a str,
    pub(crate) args: &'a [Expr],
}

impl Call<'_> {
    pub(crate) fn what(&self, i: usize) -> String {
        format!("argument {} of `{}`", i + 1, self.name)
    }

    pub(crate) fn arity(&self, cx: &Context, n: usize) -> Result<(), TranslateError> {
        if self.args.len() == n {
            Ok(())
        } else {
            Err(TranslateError::Arity {
                name: self.name.to_string(),
                expected: n,
                found: self.args.len(),
                line: cx.line,
            })
        }
    }

    pub(crate) fn scalar(&self, cx: &Context, i: usize) -> Result<Scalar, TranslateError> {
        cx.scalar(&self.args[i], &self.what(i))
    }

    /// Argument `i`, which must be a Boolean (`boolean`) or an integer,
    /// constant or variable.
    pub(crate) fn typed(
        &self,
        cx: &Context,
        i: usize,
        boolean: bool,
    ) -> Result<Scalar, TranslateError> {
        let s = self.scalar(cx, i)?;
        match (s, boolean) {
            (Scalar::Bool(_) | Scalar::BoolVar(_), true)
            | (Scalar::Int(_) | Scalar::IntVar(_), false) => Ok(s),
            (_, true) => Err(cx.bad(&self.what(i), "a Boolean (true, false or a var bool)")),
            (_, false) => Err(cx.bad(&self.what(i), "an integer (a constant or a var int)")),
        }
    }

    pub(crate) fn var(&self, cx: &mut Context, i: usize) -> Result<VarId, TranslateError> {
        cx.var(&self.args[i], &self.what(i))
    }

    pub(crate) fn int(&self, cx: &Context, i: usize) -> Result<Value, TranslateError> {
        cx.int(&self.args[i], &self.what(i))
    }

    pub(crate) fn ints(&self, cx: &Context, i: usize) -> Result<Vec<Value>, TranslateError> {
        cx.ints(&self.args[i], &self.what(i))
    }

    pub(crate) fn scalars(&self, cx: &Context, i: usize) -> Result<Vec<Scalar>, TranslateError> {
        cx.scalars(&self.args[i], &self.what(i))
    }

    pub(crate) fn vars(&self, cx: &mut Context, i: usize) -> Result<Vec<VarId>, TranslateError> {
        cx.vars(&self.args[i], &self.what(i))
    }

    pub(crate) fn lits(
        &self,
        cx: &mut Context,
        i: usize,
        positive: bool,
    ) -> Result<Vec<Lit>, TranslateError> {
        Ok(self
            .vars(cx, i)?
            .into_iter()
            .map(|var| Lit { var, positive })
            .collect())
    }
}

/// Posts one constraint item.
pub(crate) fn post(cx: &mut Context, item: &ConstraintItem) -> Result<(), TranslateError> {
    if keep_for_channel(cx)? || crate::sets::post(cx, item)? {
        return Ok(());
    }
    let call = Call {
        name: &item.name,
        args: &item.args,
    };
    let relation = |suffix: &str| match suffix {
        "eq" => Some(Relation::Eq),
        "ne" => Some(Relation::Ne),
        "le" => Some(Relation::Le),
        "lt" => Some(Relation::Lt),
        _ => None,
    };
    let name = item.name.as_str();
    // int_eq, bool_lt, int_le_reif, ...: comparisons of two values, plain or reified.
    if let Some(rest) = name
        .strip_prefix("int_")
        .or_else(|| name.strip_prefix("bool_"))
    {
        let (op, tie) = split_tie(rest);
        if let Some(rel) = relation(op) {
            call.arity(cx, if tie.is_some() { 3 } else { 2 })?;
            // `int_le(x, true)` is ill-typed FlatZinc: refused, not read as 1.
            let boolean = name.starts_with("bool_");
            let terms = [
                (1, call.typed(cx, 0, boolean)?),
                (-1, call.typed(cx, 1, boolean)?),
            ];
            let result = match tie {
                Some(tie) => Some((call.typed(cx, 2, true)?, tie)),
                None => None,
            };
            return linear(cx, &terms, rel, 0, result);
        }
    }
    // int_lin_eq, int_lin_le_reif, ...: linear (in)equalities.
    if let Some(rest) = name.strip_prefix("int_lin_") {
        let (op, tie) = split_tie(rest);
        if let Some(rel @ (Relation::Eq | Relation::Ne | Relation::Le)) = relation(op) {
            call.arity(cx, if tie.is_some() { 4 } else { 3 })?;
            let terms = weighted(cx, &call)?;
            let rhs = call.int(cx, 2)?;
            let result = match tie {
                Some(tie) => Some((call.scalar(cx, 3)?, tie)),
                None => None,
            };
            return linear(cx, &terms, rel, rhs, result);
        }
    }
    match name {
        "int_plus" => {
            call.arity(cx, 3)?;
            let terms = [
                (1, call.scalar(cx, 0)?),
                (1, call.scalar(cx, 1)?),
                (-1, call.scalar(cx, 2)?),
            ];
            linear(cx, &terms, Relation::Eq, 0, None)
        }
        "bool2int" => {
            call.arity(cx, 2)?;
            let terms = [(1, call.scalar(cx, 0)?), (-1, call.scalar(cx, 1)?)];
            linear(cx, &terms, Relation::Eq, 0, None)
        }
        "bool_not" => {
            call.arity(cx, 2)?;
            let terms = [(1, call.scalar(cx, 0)?), (1, call.scalar(cx, 1)?)];
            linear(cx, &terms, Relation::Eq, 1, None)
        }
        "bool_lin_eq" | "bool_lin_le" => {
            call.arity(cx, 3)?;
            let mut terms = weighted(cx, &call)?;
            if name == "bool_lin_eq" {
                terms.push((-1, call.scalar(cx, 2)?));
                linear(cx, &terms, Relation::Eq, 0, None)
            } else {
                let rhs = call.int(cx, 2)?;
                linear(cx, &terms, Relation::Le, rhs, None)
            }
        }
        "int_times" | "int_div" | "int_mod" | "int_pow" | "int_min" | "int_max" => {
            call.arity(cx, 3)?;
            let function = match name {
                "int_times" => Function::Times,
                "int_div" => Function::Div,
                "int_mod" => Function::Mod,
                "int_pow" => Function::Pow,
                "int_min" => Function::Min,
                _ => Function::Max,
            };
            let (x, y, z) = (call.var(cx, 0)?, call.var(cx, 1)?, call.var(cx, 2)?);
            cx.post(Func::binary(function, x, y, z))
        }
        "array_int_minimum" | "array_int_maximum" => {
            call.arity(cx, 2)?;
            let (m, xs) = (call.var(cx, 0)?, call.vars(cx, 1)?);
            if xs.is_empty() {
                return cx.post_false();
            }
            if name == "array_int_minimum" {
                cx.model.min(&xs, m)
            } else {
                cx.model.max(&xs, m)
            }
            .map(|_| ())
            .map_err(|e| cx.core(e))
        }
        "int_abs" => {
            call.arity(cx, 2)?;
            let (x, z) = (call.var(cx, 0)?, call.var(cx, 1)?);
            cx.post(Func::unary(Function::Abs, x, z))
        }
        "array_int_element" | "array_bool_element" => {
            call.arity(cx, 3)?;
            let table: Vec<Value> = call
                .scalars(cx, 1)?
                .into_iter()
                .map(|s| match s {
                    Scalar::Int(v) => Ok(v),
                    Scalar::Bool(b) => Ok(Value::from(b)),
                    _ => Err(cx.bad(&call.what(1), "an array of constants")),
                })
                .collect::<Result<_, _>>()?;
            let (index, result) = (call.var(cx, 0)?, call.var(cx, 2)?);
            if table.is_empty() {
                return cx.post_false();
            }
            cx.model
                .element_offset(index, &table, 1, result)
                .map(|_| ())
                .map_err(|e| cx.core(e))
        }
        "array_var_int_element" | "array_var_bool_element" => {
            call.arity(cx, 3)?;
            let items = call.vars(cx, 1)?;
            let (index, result) = (call.var(cx, 0)?, call.var(cx, 2)?);
            if items.is_empty() {
                return cx.post_false();
            }
            cx.model
                .element_var_offset(index, &items, 1, result)
                .map(|_| ())
                .map_err(|e| cx.core(e))
        }
        "bool_and" | "bool_or" => {
            call.arity(cx, 3)?;
            let positive = name == "bool_or";
            let lits = [
                Lit {
                    var: call.var(cx, 0)?,
                    positive,
                },
                Lit {
                    var: call.var(cx, 1)?,
                    positive,
                },
            ];
            let r = Lit {
                var: call.var(cx, 2)?,
                positive,
            };
            bool_or(cx, &lits, Some(r))
        }
        "array_bool_and" | "array_bool_or" => {
            call.arity(cx, 2)?;
            let positive = name == "array_bool_or";
            let lits = call.lits(cx, 0, positive)?;
            let r = Lit {
                var: call.var(cx, 1)?,
                positive,
            };
            bool_or(cx, &lits, Some(r))
        }
        "bool_clause_imp" | "array_bool_or_imp" => {
            // r -> (l_1 \/ ...): the clause with not r.
            let clause = name == "bool_clause_imp";
            call.arity(cx, if clause { 3 } else { 2 })?;
            let mut lits = call.lits(cx, 0, true)?;
            if clause {
                lits.extend(call.lits(cx, 1, false)?);
            }
            lits.push(Lit::neg(call.var(cx, if clause { 2 } else { 1 })?));
            bool_or(cx, &lits, None)
        }
        "array_bool_and_imp" => {
            // r -> (a_1 /\ ...): a clause (not r \/ a_i) for each.
            call.arity(cx, 2)?;
            let r = Lit::neg(call.var(cx, 1)?);
            for a in call.lits(cx, 0, true)? {
                bool_or(cx, &[r, a], None)?;
            }
            Ok(())
        }
        "bool_clause" | "bool_clause_reif" => {
            let reified = name == "bool_clause_reif";
            call.arity(cx, if reified { 3 } else { 2 })?;
            let mut lits = call.lits(cx, 0, true)?;
            lits.extend(call.lits(cx, 1, false)?);
            let r = if reified {
                Some(Lit::pos(call.var(cx, 2)?))
            } else {
                None
            };
            bool_or(cx, &lits, r)
        }
        "bool_xor" if call.args.len() == 2 => {
            let vars = [call.var(cx, 0)?, call.var(cx, 1)?];
            cx.post(Parity::new(&vars, true))
        }
        "bool_xor" => {
            call.arity(cx, 3)?;
            let vars = [call.var(cx, 0)?, call.var(cx, 1)?, call.var(cx, 2)?];
            cx.post(Parity::new(&vars, false))
        }
        "array_bool_xor" => {
            call.arity(cx, 1)?;
            let vars = call.vars(cx, 0)?;
            if vars.is_empty() {
                return cx.post_false();
            }
            cx.post(Parity::new(&vars, true))
        }
        "set_in" | "set_in_reif" => {
            let reified = name == "set_in_reif";
            call.arity(cx, if reified { 3 } else { 2 })?;
            let x = call.var(cx, 0)?;
            let set = cx.set(&call.args[1], &call.what(1))?;
            if reified {
                let r = call.var(cx, 2)?;
                cx.post(InSet::reified(x, set, r))
            } else {
                cx.post(InSet::new(x, set))
            }
        }
        "fzn_all_different_int" => {
            call.arity(cx, 1)?;
            let vars = call.vars(cx, 0)?;
            if vars.len() < 2 {
                return Ok(());
            }
            match cx.all_different {
                AllDifferentFiltering::Domain => cx.model.all_different(&vars),
                AllDifferentFiltering::Value => cx.model.all_different_by_value(&vars),
            }
            .map(|_| ())
            .map_err(|e| cx.core(e))
        }
        "fzn_table_int" | "table_int" | "csp_table_int_negative" => {
            call.arity(cx, 2)?;
            let vars = call.vars(cx, 0)?;
            let flat = call.ints(cx, 1)?;
            if vars.is_empty() {
                return Ok(());
            }
            if flat.len() % vars.len() != 0 {
                return Err(cx.bad(
                    &call.what(1),
                    &format!("a table whose length is a multiple of {}", vars.len()),
                ));
            }
            let posted = if name == "csp_table_int_negative" {
                let rows = flat
                    .chunks(vars.len())
                    .map(|r| r.iter().copied().map(Some).collect())
                    .collect();
                cx.model.negative_table(&vars, rows)
            } else {
                let tuples = flat.chunks(vars.len()).map(<[Value]>::to_vec).collect();
                cx.model.table(&vars, tuples)
            };
            posted.map(|_| ()).map_err(|e| cx.core(e))
        }
        "fzn_at_most_int" | "fzn_at_least_int" => {
            call.arity(cx, 3)?;
            let n = call.int(cx, 0)?;
            let vars = call.vars(cx, 1)?;
            let value = call.int(cx, 2)?;
            let at_most = name == "fzn_at_most_int";
            // Bounds the array cannot break hold trivially; those it cannot meet fail.
            let posted = match (at_most, usize::try_from(n)) {
                (true, Err(_)) => return cx.post_false(),
                (false, Err(_) | Ok(0)) => return Ok(()),
                (true, Ok(n)) if n >= vars.len() => return Ok(()),
                (false, Ok(n)) if n > vars.len() => return cx.post_false(),
                (true, Ok(n)) => cx.model.at_most(&vars, value, n),
                (false, Ok(n)) => cx.model.at_least(&vars, value, n),
            };
            posted.map(|_| ()).map_err(|e| cx.core(e))
        }
        _ => crate::globals::post(cx, item),
    }
}

/// `result <-> (l_1 \/ ...)` (or the clause), settling the cases without literals.
pub(crate) fn bool_or(
    cx: &mut Context,
    lits: &[Lit],
    result: Option<Lit>,
) -> Result<(), TranslateError> {
    match (lits.is_empty(), result) {
        (true, None) => cx.post_false(),
        // The empty disjunction is false.
        (true, Some(r)) => {
            let value = Value::from(!r.positive);
            cx.linear(&[1], &[r.var], Relation::Eq, value)
        }
        (false, None) => cx.post(BoolOr::clause(lits)),
        (false, Some(r)) => cx.post(BoolOr::reified(lits, r)),
    }
}
