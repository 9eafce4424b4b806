//! `b <-> |{i : vars[i] = value}| relation result` and `b -> ...`: counting
//! with a variable value, reified.

use super::CountVar;
use super::linear_reif::check_bool;
use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::{
    Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Relation, Value, VarId,
};

/// `b <-> (|{i : vars[i] = value}| relation result)`, or `b -> (...)`, with
/// `b` a 0/1 variable: MiniZinc's `count_eq_reif` and its kin, and the
/// conditional counts of models such as `x != 0 -> count(neighbours, x, 2)`.
/// Posted by [`Model::count_var_reif`] and [`Model::count_var_imp`]. The
/// scope is `vars`, then `value`, `result` and `b`.
///
/// With `b` fixed to 1 this is [`CountVar`] in `relation`; fixed to 0, the
/// negated relation (nothing for the implication). While `b` is open, one
/// pass over the candidates of `value` (the sure and possible occurrences
/// of each, as [`CountVar`] computes them) fixes `b` to 0 when no candidate
/// allows the relation, and, for `<->`, to 1 when none allows its
/// negation; it prunes nothing else while `b` is open. MiniZinc's standard
/// decomposition (a fresh count `n`, `CountVar(vars, value, =, n)` and
/// `b <-> n relation result`) takes one more variable and two propagators;
/// on the shared set's `amaze` both search the same tree (1,434 values
/// tried, docs/performance.md, session 20).
///
/// ```
/// use csp_core::{Config, Model, Relation, Solver};
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 3, 0..=1)?;
/// let v = m.int_var(0..=1)?;
/// let two = m.constant(2)?;
/// let b = m.bool_var();
/// // b <-> exactly two of the three equal v.
/// m.count_var_reif(&xs, v, Relation::Eq, two, b)?;
/// let mut s = Solver::new(&m, Config::textbook())?;
/// // 16 assignments of xs and v, each with the one b that fits.
/// assert_eq!(s.count().solutions, 16);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReifiedCount {
    /// `vars`, then `value`, `result` and `b`.
    scope: Vec<VarId>,
    /// The count in `relation`.
    holds: CountVar,
    /// The count in the negated relation.
    fails: CountVar,
    /// `b -> relation` only.
    implication: bool,
}

impl ReifiedCount {
    /// `b <-> (|{i : vars[i] = value}| relation result)`. `b` should be a
    /// 0/1 variable: the solver treats any other value of `b` as a conflict
    /// ([`Model::count_var_reif`] checks it).
    pub fn new(vars: &[VarId], value: VarId, relation: Relation, result: VarId, b: VarId) -> Self {
        let mut scope = vars.to_vec();
        scope.extend([value, result, b]);
        ReifiedCount {
            scope,
            holds: CountVar::new(vars, value, relation, result),
            fails: CountVar::new(vars, value, relation.negated(), result),
            implication: false,
        }
    }

    /// `b -> (|{i : vars[i] = value}| relation result)`: `b = 0` leaves the
    /// count free.
    pub fn implied(
        vars: &[VarId],
        value: VarId,
        relation: Relation,
        result: VarId,
        b: VarId,
    ) -> Self {
        ReifiedCount {
            implication: true,
            ..Self::new(vars, value, relation, result, b)
        }
    }

    fn b(&self) -> VarId {
        self.scope[self.scope.len() - 1]
    }

    /// Runs `inner`, the relation `b` now says, after `b` was fixed by this
    /// call (so the call changed something even if `inner` does not).
    fn enforce(inner: &CountVar, ctx: &mut PropagationContext<'_>) -> Propagation {
        Ok(match inner.propagate(ctx)? {
            PropStatus::Unchanged => PropStatus::Changed,
            status => status,
        })
    }
}

impl Constraint for ReifiedCount {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        let (b, rest) = (values[values.len() - 1], &values[..values.len() - 1]);
        let holds = self.holds.check(rest);
        if self.implication {
            b == 0 || (b == 1 && holds)
        } else {
            b == Value::from(holds)
        }
    }

    fn name(&self) -> &str {
        if self.implication {
            "count-var-imp"
        } else {
            "count-var-reif"
        }
    }

    fn promising(&self, d: &Domains) -> bool {
        match d.value(self.b()) {
            Some(1) => self.holds.promising(d),
            Some(0) if self.implication => true,
            Some(0) => self.fails.promising(d),
            Some(_) => false,
            None => self.implication || self.holds.promising(d) || self.fails.promising(d),
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let b = self.b();
        match ctx.value(b) {
            Some(1) => self.holds.propagate(ctx),
            Some(0) if self.implication => Ok(PropStatus::Entailed),
            Some(0) => self.fails.propagate(ctx),
            Some(_) => Err(Conflict::wipeout(b)),
            None => {
                if ctx.too_many_to_walk(self.holds.value()) {
                    // A value too wide to walk: nothing until it narrows.
                    return Ok(PropStatus::Unchanged);
                }
                ctx.note_revision();
                match self.holds.truth(ctx.domains(), !self.implication) {
                    Some(false) => {
                        ctx.fix(b, 0)?;
                        if self.implication {
                            Ok(PropStatus::Entailed)
                        } else {
                            Self::enforce(&self.fails, ctx)
                        }
                    }
                    Some(true) => {
                        ctx.fix(b, 1)?;
                        Self::enforce(&self.holds, ctx)
                    }
                    None => Ok(PropStatus::Unchanged),
                }
            }
        }
    }
}

impl Model {
    /// `b <-> (|{i : vars[i] = value}| relation result)`, with `b` a 0/1
    /// variable (see [`ReifiedCount`]).
    ///
    /// ```
    /// use csp_core::{Config, Model, Relation, Solver};
    /// let mut m = Model::new();
    /// let xs = m.int_var_array("x", 2, 1..=2)?;
    /// let v = m.int_var(1..=2)?;
    /// let zero = m.constant(0)?;
    /// let b = m.bool_var();
    /// m.count_var_reif(&xs, v, Relation::Gt, zero, b)?; // b <-> v occurs in xs
    /// let mut s = Solver::new(&m, Config::textbook())?;
    /// let absent = s.solutions().filter(|s| s[b] == 0).count();
    /// assert_eq!(absent, 2); // xs = [1, 1] with v = 2, xs = [2, 2] with v = 1
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    ///
    /// Fails on a variable of another model, or if `b` is not a 0/1
    /// variable.
    pub fn count_var_reif(
        &mut self,
        vars: &[VarId],
        value: VarId,
        relation: Relation,
        result: VarId,
        b: VarId,
    ) -> Result<ConstraintId, CspError> {
        self.post_reified_count(
            "count_var_reif",
            ReifiedCount::new(vars, value, relation, result, b),
        )
    }

    /// `b -> (|{i : vars[i] = value}| relation result)`, with `b` a 0/1
    /// variable: the count must stand in the relation when `b = 1`; `b = 0`
    /// says nothing. Fails as [`Model::count_var_reif`] does.
    ///
    /// ```
    /// use csp_core::{Config, Model, Relation, Solver};
    /// let mut m = Model::new();
    /// let xs = m.int_var_array("x", 2, 1..=2)?;
    /// let v = m.int_var(1..=2)?;
    /// let two = m.constant(2)?;
    /// let b = m.bool_var();
    /// m.count_var_imp(&xs, v, Relation::Eq, two, b)?; // b -> both equal v
    /// let mut s = Solver::new(&m, Config::textbook())?;
    /// // b = 0: any of the 8; b = 1: [1, 1] with v = 1, [2, 2] with v = 2.
    /// assert_eq!(s.count().solutions, 10);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn count_var_imp(
        &mut self,
        vars: &[VarId],
        value: VarId,
        relation: Relation,
        result: VarId,
        b: VarId,
    ) -> Result<ConstraintId, CspError> {
        self.post_reified_count(
            "count_var_imp",
            ReifiedCount::implied(vars, value, relation, result, b),
        )
    }

    /// Posts `c` once its `b` is checked to be a 0/1 variable of this model.
    fn post_reified_count(
        &mut self,
        context: &str,
        c: ReifiedCount,
    ) -> Result<ConstraintId, CspError> {
        let b = c.b();
        self.check_vars(context, &[b])?;
        check_bool(self, context, b)?;
        self.post(c)
    }
}

#[cfg(test)]
mod tests {
    use crate::{CspError, Model, Relation};

    #[test]
    fn a_b_that_is_not_0_1_is_refused() {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 2, 0..=2).unwrap();
        let v = m.int_var(0..=2).unwrap();
        let c = m.int_var(0..=2).unwrap();
        let wide = m.int_var(0..=2).unwrap();
        for implied in [false, true] {
            let err = if implied {
                m.count_var_imp(&xs, v, Relation::Eq, c, wide)
            } else {
                m.count_var_reif(&xs, v, Relation::Eq, c, wide)
            };
            assert!(
                matches!(err, Err(CspError::InvalidArgument { .. })),
                "{err:?}"
            );
        }
    }
}
