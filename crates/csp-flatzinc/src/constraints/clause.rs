//! `r <-> (l_1 \/ ... \/ l_n)` over Boolean literals: clauses, and/or, implications and their reifications.

use csp_core::{
    Conflict, Constraint, Domains, PropStatus, Propagation, PropagationContext, Value, VarId,
};

/// A Boolean variable (domain `0..=1`) or its negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lit {
    /// The variable.
    pub var: VarId,
    /// `true` for `var`, `false` for `not var`.
    pub positive: bool,
}

impl Lit {
    /// The literal `var`.
    pub fn pos(var: VarId) -> Self {
        Lit {
            var,
            positive: true,
        }
    }

    /// The literal `not var`.
    pub fn neg(var: VarId) -> Self {
        Lit {
            var,
            positive: false,
        }
    }

    /// The opposite literal.
    pub fn negated(self) -> Self {
        Lit {
            var: self.var,
            positive: !self.positive,
        }
    }

    /// The literal's truth for a value of its variable.
    fn truth(self, value: Value) -> bool {
        (value != 0) == self.positive
    }

    /// The literal's truth under the current domains, `None` while open.
    fn state(self, d: &Domains) -> Option<bool> {
        d.value(self.var).map(|v| self.truth(v))
    }

    /// The value that makes the literal `truth`.
    fn value_for(self, truth: bool) -> Value {
        Value::from(truth == self.positive)
    }
}

/// `result <-> (lits[0] \/ lits[1] \/ ...)`, or the plain clause when there is no result.
///
/// Every Boolean connective of FlatZinc is one of these: `bool_clause(as, bs)` is
/// the clause of `as` and the negations of `bs`; `array_bool_or(as, r)` has result
/// `r`; `array_bool_and(as, r)` is `not r <-> (not a_1 \/ ... )`; `bool_le(a, b)` is
/// `not a \/ b`. Propagation is unit propagation: a true literal makes the result
/// true, all literals false make it false, a false result makes every literal
/// false, and a true result with one open literal left makes that literal true.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// use csp_flatzinc::constraints::{BoolOr, Lit};
///
/// let mut m = Model::new();
/// let a = m.bool_var();
/// let b = m.bool_var();
/// let r = m.bool_var();
/// m.post(BoolOr::reified(&[Lit::pos(a), Lit::neg(b)], Lit::pos(r)))?; // r <-> (a \/ not b)
/// let mut solver = Solver::new(&m, Config::default())?;
/// assert_eq!(solver.count().solutions, 4);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug)]
pub struct BoolOr {
    /// The literals' variables, then the result's if any.
    scope: Vec<VarId>,
    lits: Vec<Lit>,
    result: Option<Lit>,
}

impl BoolOr {
    /// The clause `lits[0] \/ lits[1] \/ ...`; an empty clause never holds.
    pub fn clause(lits: &[Lit]) -> Self {
        BoolOr {
            scope: lits.iter().map(|l| l.var).collect(),
            lits: lits.to_vec(),
            result: None,
        }
    }

    /// `result <-> (lits[0] \/ lits[1] \/ ...)`.
    pub fn reified(lits: &[Lit], result: Lit) -> Self {
        let mut scope: Vec<VarId> = lits.iter().map(|l| l.var).collect();
        scope.push(result.var);
        BoolOr {
            scope,
            lits: lits.to_vec(),
            result: Some(result),
        }
    }

    /// The truth the result must have (`Some(true)` for a plain clause).
    fn required(&self, d: &Domains) -> Option<bool> {
        match self.result {
            None => Some(true),
            Some(r) => r.state(d),
        }
    }
}

impl Constraint for BoolOr {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        let any = self.lits.iter().zip(values).any(|(l, &v)| l.truth(v));
        match self.result {
            None => any,
            Some(r) => r.truth(values[self.lits.len()]) == any,
        }
    }

    fn name(&self) -> &str {
        "bool-or"
    }

    fn promising(&self, d: &Domains) -> bool {
        let mut open = false;
        for l in &self.lits {
            match l.state(d) {
                Some(true) => return self.required(d) != Some(false),
                Some(false) => {}
                None => open = true,
            }
        }
        // No literal is true yet.
        open || self.required(d) != Some(true)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        ctx.note_revision();
        let mut open: Option<Lit> = None;
        let mut open_count = 0;
        for &l in &self.lits {
            match l.state(ctx.domains()) {
                Some(true) => {
                    return match self.result {
                        None => Ok(PropStatus::Entailed),
                        Some(r) => {
                            ctx.fix(r.var, r.value_for(true))?;
                            Ok(PropStatus::Entailed)
                        }
                    };
                }
                Some(false) => {}
                None => {
                    open_count += 1;
                    open = Some(l);
                }
            }
        }
        match (self.required(ctx.domains()), open) {
            // Every literal is false.
            (Some(true), None) => Err(Conflict::infeasible()),
            (_, None) => {
                if let Some(r) = self.result {
                    ctx.fix(r.var, r.value_for(false))?;
                }
                Ok(PropStatus::Entailed)
            }
            (Some(false), Some(_)) => {
                for &l in &self.lits {
                    ctx.fix(l.var, l.value_for(false))?;
                }
                Ok(PropStatus::Entailed)
            }
            (Some(true), Some(l)) if open_count == 1 => {
                ctx.fix(l.var, l.value_for(true))?;
                Ok(PropStatus::Entailed)
            }
            _ => Ok(PropStatus::Unchanged),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::testing::agrees_with_brute_force;
    use csp_core::Model;

    fn bools(m: &mut Model, n: usize) -> Vec<VarId> {
        (0..n).map(|_| m.bool_var()).collect()
    }

    #[test]
    fn clause_with_mixed_signs_agrees_with_brute_force() {
        let mut m = Model::new();
        let v = bools(&mut m, 3);
        m.post(BoolOr::clause(&[
            Lit::pos(v[0]),
            Lit::neg(v[1]),
            Lit::pos(v[2]),
        ]))
        .unwrap();
        agrees_with_brute_force(&m);
    }

    #[test]
    fn reified_or_and_negated_result_agree_with_brute_force() {
        for positive in [true, false] {
            let mut m = Model::new();
            let v = bools(&mut m, 4);
            let r = Lit {
                var: v[3],
                positive,
            };
            m.post(BoolOr::reified(
                &[Lit::neg(v[0]), Lit::pos(v[1]), Lit::pos(v[2])],
                r,
            ))
            .unwrap();
            agrees_with_brute_force(&m);
        }
    }

    #[test]
    fn repeated_variable_in_a_clause_is_handled() {
        // a \/ not a always holds; r <-> (a \/ a) makes r = a.
        let mut m = Model::new();
        let v = bools(&mut m, 2);
        m.post(BoolOr::clause(&[Lit::pos(v[0]), Lit::neg(v[0])]))
            .unwrap();
        m.post(BoolOr::reified(
            &[Lit::pos(v[0]), Lit::pos(v[0])],
            Lit::pos(v[1]),
        ))
        .unwrap();
        agrees_with_brute_force(&m);
    }

    #[test]
    fn empty_clause_never_holds_and_empty_or_is_false() {
        let c = BoolOr::clause(&[]);
        assert!(!c.check(&[]));
        let r = BoolOr::reified(&[], Lit::pos(VarId::new(0)));
        assert!(r.check(&[0]) && !r.check(&[1]));
    }
}
