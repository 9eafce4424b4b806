//! The global constraints our `mznlib` declares, posted as csp-core's globals.

use csp_core::constraints::{
    Automaton, Circuit, CountVar, Cumulative, Diffn, Disjunctive, GlobalCardinality, Inverse,
    LexLessEq, Regular,
};
use csp_core::{Domain, Relation, Value, VarId};

use crate::ast::ConstraintItem;
use crate::builtins::Call;
use crate::constraints::InSet;
use crate::error::TranslateError;
use crate::translate::{AllDifferentFiltering, Context, Scalar};

/// Posts a global constraint of our `mznlib`; any other name is unsupported.
pub(crate) fn post(cx: &mut Context, item: &ConstraintItem) -> Result<(), TranslateError> {
    let a = Call {
        name: &item.name,
        args: &item.args,
    };
    match a.name {
        "csp_circuit_offset" | "fzn_circuit" => {
            let offset_arg = usize::from(a.name == "csp_circuit_offset");
            a.arity(cx, 1 + offset_arg)?;
            let offset = if offset_arg == 1 { a.int(cx, 0)? } else { 1 };
            let succ = a.vars(cx, offset_arg)?;
            if succ.is_empty() {
                return Ok(());
            }
            let circuit = Circuit::with_offset(&succ, offset);
            // `:: domain` asks for domain consistency, as in Gecode.
            match crate::ast::Annotation::find(&item.annotations, "domain") {
                Some(_) => cx.post(circuit.domain()),
                None => cx.post(circuit),
            }
        }
        "fzn_cumulative" => {
            a.arity(cx, 4)?;
            let (s, d, r) = (a.vars(cx, 0)?, a.vars(cx, 1)?, a.vars(cx, 2)?);
            let b = a.var(cx, 3)?;
            // Built first, so that lists of different lengths are refused
            // even when there are no tasks.
            let c = Cumulative::new(&s, &d, &r, b).map_err(|e| cx.core(e))?;
            if s.is_empty() {
                return Ok(());
            }
            cx.post(c)
        }
        "fzn_diffn" => {
            a.arity(cx, 4)?;
            let (x, y) = (a.vars(cx, 0)?, a.vars(cx, 1)?);
            let (dx, dy) = (a.vars(cx, 2)?, a.vars(cx, 3)?);
            // Built first, so that lists of different lengths are refused
            // even with fewer than two rectangles.
            let c = Diffn::new(&x, &y, &dx, &dy).map_err(|e| cx.core(e))?;
            if x.len() < 2 {
                return Ok(());
            }
            cx.post(c)
        }
        "fzn_disjunctive" => {
            a.arity(cx, 2)?;
            let (s, d) = (a.vars(cx, 0)?, a.vars(cx, 1)?);
            let c = Disjunctive::new(&s, &d).map_err(|e| cx.core(e))?;
            if s.is_empty() {
                return Ok(());
            }
            cx.post(c)
        }
        "fzn_global_cardinality" | "fzn_global_cardinality_closed" => {
            a.arity(cx, 3)?;
            let x = a.vars(cx, 0)?;
            let cover = a.ints(cx, 1)?;
            let counts = a.vars(cx, 2)?;
            let closed = a.name.ends_with("_closed");
            global_cardinality(cx, &x, &cover, &counts, closed)
        }
        "fzn_global_cardinality_low_up" | "fzn_global_cardinality_low_up_closed" => {
            a.arity(cx, 4)?;
            let x = a.vars(cx, 0)?;
            let cover = a.ints(cx, 1)?;
            let (lo, hi) = (a.ints(cx, 2)?, a.ints(cx, 3)?);
            if lo.len() != cover.len() || hi.len() != cover.len() {
                return Err(cx.bad(&a.what(2), "one lower and one upper bound per value"));
            }
            let len = Value::try_from(x.len()).unwrap_or(Value::MAX);
            let mut counts = Vec::with_capacity(cover.len());
            for (&l, &h) in lo.iter().zip(&hi) {
                let (l, h) = (l.max(0), h.min(len));
                if l > h {
                    return cx.post_false();
                }
                counts.push(cx.model.int_var(l..=h).map_err(|e| cx.core(e))?);
            }
            let closed = a.name.ends_with("_closed");
            global_cardinality(cx, &x, &cover, &counts, closed)
        }
        "csp_inverse_offsets" | "fzn_inverse" => {
            let offsets = a.name == "csp_inverse_offsets";
            a.arity(cx, if offsets { 4 } else { 2 })?;
            let (f, f_offset, g, g_offset) = if offsets {
                (a.vars(cx, 0)?, a.int(cx, 1)?, a.vars(cx, 2)?, a.int(cx, 3)?)
            } else {
                (a.vars(cx, 0)?, 1, a.vars(cx, 1)?, 1)
            };
            if f.len() != g.len() {
                // Each must map its positions onto the other's: impossible.
                return cx.post_false();
            }
            if f.is_empty() {
                return Ok(());
            }
            let c = Inverse::with_offsets(&f, f_offset, &g, g_offset).map_err(|e| cx.core(e))?;
            // Gecode-like filtering: its `channel` propagates values only.
            cx.post(match cx.all_different {
                AllDifferentFiltering::Domain => c,
                AllDifferentFiltering::Value => c.values_only(),
            })
        }
        "fzn_regular" => {
            a.arity(cx, 6)?;
            let x = a.vars(cx, 0)?;
            let automaton = automaton(cx, &a)?;
            if x.is_empty() {
                return if automaton.accepts(&[]) {
                    Ok(())
                } else {
                    cx.post_false()
                };
            }
            cx.post(Regular::new(&x, &automaton))
        }
        "fzn_lex_lesseq_int" | "fzn_lex_lesseq_bool" => {
            a.arity(cx, 2)?;
            let (x, y) = (a.vars(cx, 0)?, a.vars(cx, 1)?);
            if x.is_empty() {
                return Ok(());
            }
            cx.post(LexLessEq::new(&x, &y))
        }
        "fzn_count_eq" | "fzn_count_neq" | "fzn_count_leq" | "fzn_count_lt" | "fzn_count_geq"
        | "fzn_count_gt" => {
            a.arity(cx, 3)?;
            let x = a.vars(cx, 0)?;
            let y = cx.scalar(&a.args[1], &a.what(1))?;
            let c = a.var(cx, 2)?;
            count(cx, &x, y, count_relation(&a.name[10..]), c)
        }
        "fzn_count_eq_reif" | "fzn_count_neq_reif" | "fzn_count_leq_reif" | "fzn_count_lt_reif"
        | "fzn_count_geq_reif" | "fzn_count_gt_reif" | "fzn_count_eq_imp" | "fzn_count_neq_imp"
        | "fzn_count_leq_imp" | "fzn_count_lt_imp" | "fzn_count_geq_imp" | "fzn_count_gt_imp" => {
            a.arity(cx, 4)?;
            let x = a.vars(cx, 0)?;
            let y = cx.scalar(&a.args[1], &a.what(1))?;
            let y = cx.var_of(y)?;
            let c = a.var(cx, 2)?;
            let b = a.var(cx, 3)?;
            let implication = a.name.ends_with("_imp");
            let rel = a.name[10..]
                .trim_end_matches("_imp")
                .trim_end_matches("_reif");
            let relation = count_relation(rel);
            let posted = if implication {
                cx.model.count_var_imp(&x, y, relation, c, b)
            } else {
                cx.model.count_var_reif(&x, y, relation, c, b)
            };
            posted.map(|_| ()).map_err(|e| cx.core(e))
        }
        _ => Err(TranslateError::UnsupportedConstraint {
            name: a.name.to_string(),
            line: cx.line,
        }),
    }
}

/// `counts[j] = |{i : x[i] = cover[j]}|`, and with `closed` every `x[i]` in the
/// cover.
fn global_cardinality(
    cx: &mut Context,
    x: &[VarId],
    cover: &[Value],
    counts: &[VarId],
    closed: bool,
) -> Result<(), TranslateError> {
    if cover.len() != counts.len() {
        return Err(cx.bad("global_cardinality", "one count per value of the cover"));
    }
    if closed {
        let set = Domain::from(cover.to_vec());
        for &v in x {
            cx.post(InSet::new(v, set.clone()))?;
        }
    }
    if x.is_empty() {
        for &c in counts {
            cx.linear(&[1], &[c], Relation::Eq, 0)?;
        }
        return Ok(());
    }
    if cover.is_empty() {
        return Ok(());
    }
    let c = GlobalCardinality::new(x, cover, counts).map_err(|e| cx.core(e))?;
    cx.post(c)
}

/// The relation of `count` to `c` in MiniZinc's `count_REL(x, y, c)`:
/// `count_leq(x, y, c)` says `c <= count`, so `count >= c`.
fn count_relation(rel: &str) -> Relation {
    match rel {
        "eq" => Relation::Eq,
        "neq" => Relation::Ne,
        "leq" => Relation::Ge,
        "lt" => Relation::Gt,
        "geq" => Relation::Le,
        _ => Relation::Lt,
    }
}

/// `|{i : x[i] = y}| relation c`: csp-core's `Count` for `=` with a constant
/// `y`, its `CountVar` otherwise.
fn count(
    cx: &mut Context,
    x: &[VarId],
    y: Scalar,
    relation: Relation,
    c: VarId,
) -> Result<(), TranslateError> {
    let value = match y {
        Scalar::Int(v) => Some(v),
        Scalar::Bool(b) => Some(Value::from(b)),
        Scalar::IntVar(_) | Scalar::BoolVar(_) => None,
    };
    match value {
        Some(v) if relation == Relation::Eq => {
            cx.model.count(x, v, c).map(|_| ()).map_err(|e| cx.core(e))
        }
        _ => {
            let y = cx.var_of(y)?;
            cx.post(CountVar::new(x, y, relation, c))
        }
    }
}

/// The automaton of `fzn_regular(x, Q, S, d, q0, F)`: states `1..=Q` (0 fails),
/// symbols `1..=S`, `d` flattened row by row.
fn automaton(cx: &mut Context, a: &Call<'_>) -> Result<Automaton, TranslateError> {
    let q = a.int(cx, 1)?;
    let s = a.int(cx, 2)?;
    let d = a.ints(cx, 3)?;
    let q0 = a.int(cx, 4)?;
    let f = cx.set(&a.args[5], &a.what(5))?;
    let (Ok(states), Ok(symbols)) = (usize::try_from(q), usize::try_from(s)) else {
        return Err(cx.bad(&a.what(1), "non-negative numbers of states and symbols"));
    };
    if Some(d.len()) != states.checked_mul(symbols) {
        return Err(cx.bad(&a.what(3), &format!("{states} x {symbols} transitions")));
    }
    let state = |v: Value| usize::try_from(v).ok().filter(|&k| k >= 1 && k <= states);
    let Some(start) = state(q0) else {
        return Err(cx.bad(&a.what(4), &format!("a state in 1..{states}")));
    };
    let accepting: Vec<usize> = (1..=states).filter(|&k| f.contains(k as Value)).collect();
    let mut transitions = Vec::new();
    for (k, &to) in d.iter().enumerate() {
        if to == 0 {
            continue;
        }
        let Some(to) = state(to) else {
            return Err(cx.bad(&a.what(3), &format!("states in 0..{states}")));
        };
        let from = 1 + k / symbols;
        let symbol = (1 + k % symbols) as Value;
        transitions.push((from, symbol, to));
    }
    Automaton::new(states + 1, start, &accepting, &transitions).map_err(|e| cx.core(e))
}

#[cfg(test)]
mod tests {
    use crate::{Options, parse, solve, translate};

    /// The number of solutions of a FlatZinc text (all of them, every variable).
    fn count(src: &str) -> u64 {
        let ast = parse(src).unwrap();
        let t = translate(&ast, &Default::default()).unwrap();
        let options = Options {
            all_solutions: true,
            ..Default::default()
        };
        solve(&t, &options, &mut |_| {}).unwrap().solutions
    }

    fn error(src: &str) -> String {
        let ast = parse(src).unwrap();
        translate(&ast, &Default::default())
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn circuit_and_inverse_count_from_one_by_default() {
        let xs = "array [1..4] of var 1..4: x :: output_array([1..4]);\n";
        assert_eq!(
            count(&format!("{xs}constraint fzn_circuit(x);\nsolve satisfy;")),
            6
        );
        // `:: domain` (Régin's matching inside) finds the same circuits.
        assert_eq!(
            count(&format!(
                "{xs}constraint fzn_circuit(x) :: domain;\nsolve satisfy;"
            )),
            6
        );
        let src = "array [1..3] of var 0..2: x :: output_array([1..3]);\n\
                   constraint csp_circuit_offset(0, x);\nsolve satisfy;";
        assert_eq!(count(src), 2);
        let fg = "array [1..3] of var 1..3: f :: output_array([1..3]);\n\
                  array [1..3] of var 1..3: g :: output_array([1..3]);\n";
        assert_eq!(
            count(&format!(
                "{fg}constraint fzn_inverse(f, g);\nsolve satisfy;"
            )),
            6
        );
        // Different lengths cannot be inverse.
        let src = "array [1..2] of var 1..2: f :: output_array([1..2]);\n\
                   array [1..1] of var 1..2: g :: output_array([1..1]);\n\
                   constraint fzn_inverse(f, g);\nsolve satisfy;";
        assert_eq!(count(src), 0);
    }

    #[test]
    fn cardinality_forms() {
        let xs = "array [1..3] of var 1..3: x :: output_array([1..3]);\n";
        // Exactly one 1 and at most one 2, values outside the cover allowed.
        let low_up = format!(
            "{xs}constraint fzn_global_cardinality_low_up(x, [1, 2], [1, 0], [1, 1]);\nsolve satisfy;"
        );
        assert_eq!(count(&low_up), 3 * 3); // where the 1 goes; (2,3), (3,2), (3,3)
        // Closed: only 1s and 2s.
        let closed = format!(
            "{xs}constraint fzn_global_cardinality_low_up_closed(x, [1, 2], [1, 0], [1, 2]);\nsolve satisfy;"
        );
        assert_eq!(count(&closed), 3);
        // count with a variable value: c = |{i : x[i] = v}|, c = 2.
        let var_count = format!(
            "{xs}var 1..3: v :: output_var;\nconstraint fzn_count_eq(x, v, 2);\nsolve satisfy;"
        );
        assert_eq!(count(&var_count), 3 * 3 * 2);
    }

    /// The count forms and what each says of a count `k` and `c`: MiniZinc's
    /// `count_leq(x, y, c)` is `c <= k`, and so on.
    type Holds = fn(i64, i64) -> bool;
    const COUNT_FORMS: [(&str, Holds); 6] = [
        ("eq", |k, c| c == k),
        ("neq", |k, c| c != k),
        ("leq", |k, c| c <= k),
        ("lt", |k, c| c < k),
        ("geq", |k, c| c >= k),
        ("gt", |k, c| c > k),
    ];

    #[test]
    fn every_count_form_matches_brute_force() {
        // x in 0..2 (three of them), y and c constants or variables.
        let xs = "array [1..3] of var 0..2: x :: output_array([1..3]);\n\
                  var 0..2: y :: output_var;\nvar 0..3: c :: output_var;\n";
        for (name, holds) in COUNT_FORMS {
            for (y, c) in [("y", "c"), ("1", "c"), ("y", "2"), ("1", "2")] {
                let src = format!("{xs}constraint fzn_count_{name}(x, {y}, {c});\nsolve satisfy;");
                let mut expected = 0;
                for code in 0..27 * 3 * 4 {
                    let x = [code % 3, code / 3 % 3, code / 9 % 3];
                    let (yv, cv) = (code / 27 % 3, code / 81);
                    let value = if y == "y" { yv } else { 1 };
                    let result = if c == "c" { cv } else { 2 };
                    let k = x.iter().filter(|&&a| a == value).count() as i64;
                    expected += u64::from(holds(k, result));
                }
                assert_eq!(count(&src), expected, "fzn_count_{name}(x, {y}, {c})");
            }
        }
    }

    #[test]
    fn every_reified_count_form_matches_brute_force() {
        // b <-> count and b -> count, with y and c constants or variables.
        let xs = "array [1..3] of var 0..2: x :: output_array([1..3]);\n\
                  var 0..2: y :: output_var;\nvar 0..3: c :: output_var;\n\
                  var bool: b :: output_var;\n";
        for (name, holds) in COUNT_FORMS {
            for mode in ["reif", "imp"] {
                for (y, c) in [("y", "c"), ("1", "c"), ("y", "2")] {
                    let src = format!(
                        "{xs}constraint fzn_count_{name}_{mode}(x, {y}, {c}, b);\nsolve satisfy;"
                    );
                    let mut expected = 0;
                    for code in 0..27 * 3 * 4 * 2 {
                        let x = [code % 3, code / 3 % 3, code / 9 % 3];
                        let (yv, cv, b) = (code / 27 % 3, code / 81 % 4, code / 324);
                        let value = if y == "y" { yv } else { 1 };
                        let result = if c == "c" { cv } else { 2 };
                        let k = x.iter().filter(|&&a| a == value).count() as i64;
                        let relation = holds(k, result);
                        let ok = if mode == "imp" {
                            b == 0 || relation
                        } else {
                            (b == 1) == relation
                        };
                        expected += u64::from(ok);
                    }
                    assert_eq!(
                        count(&src),
                        expected,
                        "fzn_count_{name}_{mode}(x, {y}, {c}, b)"
                    );
                }
            }
        }
        assert!(
            error("var bool: b;\nconstraint fzn_count_eq_reif([], 1, 2, b, b);\nsolve satisfy;")
                .contains("4 arguments"),
        );
    }

    #[test]
    fn regular_reads_the_flattened_table() {
        // Over {1, 2}: no two 2s in a row (state 2 = just read a 2).
        let src = "array [1..4] of var 1..2: x :: output_array([1..4]);\n\
                   constraint fzn_regular(x, 2, 2, [1, 2, 1, 0], 1, 1..2);\nsolve satisfy;";
        assert_eq!(count(src), 8);
        let bad = "array [1..2] of var 1..2: x;\n\
                   constraint fzn_regular(x, 2, 2, [1, 2, 1], 1, 1..2);\nsolve satisfy;";
        assert!(error(bad).contains("2 x 2 transitions"), "{}", error(bad));
        let bad = "array [1..2] of var 1..2: x;\n\
                   constraint fzn_regular(x, 2, 2, [1, 2, 1, 3], 1, 1..2);\nsolve satisfy;";
        assert!(error(bad).contains("states in 0..2"), "{}", error(bad));
    }
}
