//! `r <-> (l_1 \/ ... \/ l_n)` over Boolean literals: clauses, and/or, implications and their reifications.

use crate::constraint::{Conflict, Events, PropCost, PropStatus, Propagation};
use crate::constraints::linear_reif::check_bool;
use crate::{Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Value, VarId};

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
/// [`Model::clause`] posts the plain clause. Every Boolean connective of FlatZinc
/// is one of these: `bool_clause(as, bs)` is
/// the clause of `as` and the negations of `bs`; `array_bool_or(as, r)` has result
/// `r`; `array_bool_and(as, r)` is `not r <-> (not a_1 \/ ... )`; `bool_le(a, b)` is
/// `not a \/ b`. Propagation is unit propagation: a true literal makes the result
/// true, all literals false make it false, a false result makes every literal
/// false, and a true result with one open literal left makes that literal true
/// (the same at every level from forward checking up); `promising` is the same
/// test without the fixing.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// use csp_core::constraints::{BoolOr, Lit};
///
/// let mut m = Model::new();
/// let a = m.bool_var();
/// let b = m.bool_var();
/// let r = m.bool_var();
/// m.post(BoolOr::reified(&[Lit::pos(a), Lit::neg(b)], Lit::pos(r)))?; // r <-> (a \/ not b)
/// let mut solver = Solver::new(&m, Config::textbook())?;
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
    /// A clause acts on fixed literals only.
    fn events(&self, _pos: usize) -> Events {
        Events::FIXED
    }

    fn cost(&self) -> PropCost {
        if self.lits.len() <= 3 {
            PropCost::Cheap
        } else {
            PropCost::Linear
        }
    }

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

/// Clauses over 0/1 variables, posted as [`BoolOr`].
impl Model {
    /// At least one of `positive` is 1 or one of `negative` is 0:
    /// `p_1 \/ ... \/ not n_1 \/ ...`. Every variable must be a 0/1 variable;
    /// an empty clause never holds (and is refused: it has no scope).
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let rain = m.named_bool_var("rain");
    /// let umbrella = m.named_bool_var("umbrella");
    /// m.clause(&[umbrella], &[rain])?; // rain -> umbrella
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 3);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn clause(
        &mut self,
        positive: &[VarId],
        negative: &[VarId],
    ) -> Result<ConstraintId, CspError> {
        let lits: Vec<Lit> = positive
            .iter()
            .map(|&v| Lit::pos(v))
            .chain(negative.iter().map(|&v| Lit::neg(v)))
            .collect();
        for l in &lits {
            self.check_vars("clause", &[l.var])?;
            check_bool(self, "clause", l.var)?;
        }
        self.post(BoolOr::clause(&lits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Pruning, Solver};

    #[test]
    fn empty_clause_never_holds_and_empty_or_is_false() {
        let c = BoolOr::clause(&[]);
        assert!(!c.check(&[]));
        let r = BoolOr::reified(&[], Lit::pos(VarId::new(0)));
        assert!(r.check(&[0]) && !r.check(&[1]));
        let mut m = Model::new();
        assert!(matches!(
            m.clause(&[], &[]),
            Err(CspError::EmptyScope { .. })
        ));
    }

    #[test]
    fn a_clause_over_a_non_boolean_is_refused() {
        let mut m = Model::new();
        let a = m.bool_var();
        let x = m.named_int_var("x", [0, 1, 2]).unwrap();
        assert_eq!(
            m.clause(&[a], &[x]).unwrap_err().to_string(),
            "clause: x must be a 0/1 variable, its domain is [0, 1, 2]"
        );
    }

    #[test]
    fn unit_propagation_fixes_the_last_literal() {
        let mut m = Model::new();
        let a = m.int_var([0]).unwrap();
        let b = m.int_var([1]).unwrap();
        let c = m.bool_var();
        m.clause(&[a, c], &[b]).unwrap();
        let s = Solver::new(
            &m,
            Config::textbook().with_pruning(Pruning::ForwardChecking),
        )
        .unwrap();
        assert_eq!(s.domains().value(c), Some(1));
    }
}
