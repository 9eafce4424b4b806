//! `b <-> (sum a_i * x_i  REL  c)` and `b -> (...)`: reified and half-reified linear constraints.

use crate::constraint::{Events, PropStatus, Propagation};
use crate::{
    Constraint, ConstraintId, CspError, Domain, Domains, EqualityChannel, Linear, Model, Posted,
    PropagationContext, ReifiedCompare, Relation, Value, VarId,
};

/// `b <-> (sum coeffs[i] * vars[i]  relation  rhs)`, or `b -> (...)` when built
/// with [`ReifiedLinear::implied`], with `b` a 0/1 variable: posted by
/// [`Model::linear_reif`] and [`Model::linear_imp`].
///
/// It covers FlatZinc's `int_eq_reif` ... `int_lt_reif` (two terms),
/// `int_lin_*_reif` and their `_imp` forms. [`Model::linear_reif`] and
/// [`Model::linear_imp`] post a sum of one term with coefficient 1 or -1 (a
/// variable compared with a constant) as the cheaper
/// [`ReifiedCompare`](crate::ReifiedCompare) instead; posting a
/// `ReifiedLinear` yourself keeps this one. `promising` tests the relation (or
/// its negation) once `b` is fixed. Propagation, at every level from forward
/// checking up: while `b` is open it watches the bounds of the sum and fixes `b`
/// as soon as the relation is decided (for an implication, only to 0 when the
/// relation cannot hold); once `b` is fixed it propagates the relation or its
/// negation with [`Linear`]'s bounds reasoning.
///
/// ```
/// use csp_core::{Config, Model, Relation, Solver};
/// use csp_core::constraints::ReifiedLinear;
///
/// let mut m = Model::new();
/// let x = m.int_var(0..=3)?;
/// let b = m.bool_var();
/// m.post(ReifiedLinear::new(&[1], &[x], Relation::Le, 1, b)?)?; // b <-> x <= 1
/// let mut solver = Solver::new(&m, Config::textbook())?;
/// let pairs: Vec<_> = solver.solutions().map(|s| (s[x], s[b])).collect();
/// assert_eq!(pairs, vec![(0, 1), (1, 1), (2, 0), (3, 0)]);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ReifiedLinear {
    /// `vars` then `b`.
    scope: Vec<VarId>,
    coeffs: Vec<i128>,
    relation: Relation,
    rhs: i128,
    holds: Linear,
    fails: Linear,
    /// `b -> relation` only.
    implication: bool,
}

impl ReifiedLinear {
    /// `b <-> (sum coeffs[i] * vars[i]  relation  rhs)`. Fails if the lists differ in length.
    pub fn new(
        coeffs: &[Value],
        vars: &[VarId],
        relation: Relation,
        rhs: Value,
        b: VarId,
    ) -> Result<Self, CspError> {
        let holds = Linear::new(coeffs, vars, relation, rhs)?;
        let fails = Linear::new(coeffs, vars, relation.negated(), rhs)?;
        let mut scope = vars.to_vec();
        scope.push(b);
        Ok(ReifiedLinear {
            scope,
            coeffs: coeffs.iter().map(|&a| i128::from(a)).collect(),
            relation,
            rhs: i128::from(rhs),
            holds,
            fails,
            implication: false,
        })
    }

    /// `b -> (sum coeffs[i] * vars[i]  relation  rhs)`: `b = 0` leaves the sum
    /// free. Fails if the lists differ in length.
    pub fn implied(
        coeffs: &[Value],
        vars: &[VarId],
        relation: Relation,
        rhs: Value,
        b: VarId,
    ) -> Result<Self, CspError> {
        Ok(ReifiedLinear {
            implication: true,
            ..Self::new(coeffs, vars, relation, rhs, b)?
        })
    }

    /// The dense two-term form the engine runs at the propagators level, if
    /// the sum and its negation both have one.
    pub(crate) fn dense(&self) -> Option<super::linear_two::Dense> {
        super::linear_two::Dense::reified(
            self.holds.two_terms()?,
            self.fails.two_terms()?,
            self.b(),
            self.implication,
        )
    }

    fn b(&self) -> VarId {
        // The scope always ends with `b` (see `new`).
        self.scope.split_last().map_or(VarId::new(0), |(b, _)| *b)
    }

    fn vars(&self) -> &[VarId] {
        self.scope.split_last().map_or(&[], |(_, xs)| xs)
    }

    /// Whether the relation is decided by the current domains: `Some(true)` if it
    /// holds for every remaining assignment, `Some(false)` if for none.
    fn decided(&self, d: &Domains) -> Option<bool> {
        let (mut lo, mut hi) = (0i128, 0i128);
        let mut open: Option<(i128, VarId)> = None;
        let mut open_count = 0;
        for (&a, &x) in self.coeffs.iter().zip(self.vars()) {
            let (min, max) = (i128::from(d.min(x)), i128::from(d.max(x)));
            if a >= 0 {
                lo += a * min;
                hi += a * max;
            } else {
                lo += a * max;
                hi += a * min;
            }
            if min != max && a != 0 {
                open_count += 1;
                open = Some((a, x));
            }
        }
        let eq = if self.rhs < lo || self.rhs > hi {
            Some(false)
        } else if lo == hi {
            Some(true)
        } else if let (1, Some((a, x))) = (open_count, open) {
            // One open term: the sum hits rhs only if the one value it needs is left.
            let own_lo = if a >= 0 {
                a * i128::from(d.min(x))
            } else {
                a * i128::from(d.max(x))
            };
            let need = self.rhs - (lo - own_lo);
            let hit = super::wide::exact_quotient(need, a)
                .and_then(|v| Value::try_from(v).ok())
                .is_some_and(|v| d.contains(x, v));
            (!hit).then_some(false)
        } else {
            None
        };
        match self.relation {
            Relation::Eq => eq,
            Relation::Ne => eq.map(|e| !e),
            Relation::Le => decide(hi <= self.rhs, lo > self.rhs),
            Relation::Lt => decide(hi < self.rhs, lo >= self.rhs),
            Relation::Ge => decide(lo >= self.rhs, hi < self.rhs),
            Relation::Gt => decide(lo > self.rhs, hi <= self.rhs),
        }
    }
}

fn decide(holds: bool, fails: bool) -> Option<bool> {
    if holds {
        Some(true)
    } else if fails {
        Some(false)
    } else {
        None
    }
}

impl Relation {
    /// Whether `lhs relation rhs` holds.
    ///
    /// ```
    /// use csp_core::Relation;
    /// assert!(Relation::Le.holds(3, 3) && !Relation::Lt.holds(3, 3));
    /// assert!(Relation::Ne.holds(-1, 1));
    /// ```
    pub fn holds(self, lhs: i128, rhs: i128) -> bool {
        match self {
            Relation::Eq => lhs == rhs,
            Relation::Ne => lhs != rhs,
            Relation::Le => lhs <= rhs,
            Relation::Lt => lhs < rhs,
            Relation::Ge => lhs >= rhs,
            Relation::Gt => lhs > rhs,
        }
    }

    /// The relation that holds exactly when `self` does not.
    ///
    /// ```
    /// use csp_core::Relation;
    /// assert_eq!(Relation::Le.negated(), Relation::Gt);
    /// assert_eq!(Relation::Ne.negated(), Relation::Eq);
    /// ```
    pub fn negated(self) -> Relation {
        match self {
            Relation::Eq => Relation::Ne,
            Relation::Ne => Relation::Eq,
            Relation::Le => Relation::Gt,
            Relation::Lt => Relation::Ge,
            Relation::Ge => Relation::Lt,
            Relation::Gt => Relation::Le,
        }
    }
}

impl Constraint for ReifiedLinear {
    /// The sum's bounds and the fixing of the 0/1 variable are all it reads.
    fn events(&self, _pos: usize) -> Events {
        Events::BOUNDS
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        match values.split_last() {
            Some((&b, xs)) if self.implication => b == 0 || (b == 1 && self.holds.check(xs)),
            Some((&b, xs)) => b == Value::from(self.holds.check(xs)),
            None => false,
        }
    }

    fn name(&self) -> &str {
        if self.implication {
            "linear-imp"
        } else {
            "linear-reif"
        }
    }

    fn promising(&self, d: &Domains) -> bool {
        match d.value(self.b()) {
            Some(1) => self.holds.promising(d),
            Some(0) if self.implication => true,
            Some(0) => self.fails.promising(d),
            Some(_) => false,
            None => true,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let b = self.b();
        match ctx.value(b) {
            Some(1) => return self.holds.propagate(ctx),
            Some(0) if self.implication => return Ok(PropStatus::Entailed),
            Some(0) => return self.fails.propagate(ctx),
            _ => {}
        }
        match self.decided(ctx.domains()) {
            Some(true) if self.implication => Ok(PropStatus::Entailed),
            Some(truth) => {
                ctx.note_revision();
                ctx.fix(b, Value::from(truth))?;
                Ok(PropStatus::Entailed)
            }
            None => Ok(PropStatus::Unchanged),
        }
    }
}

/// Fails unless `b`'s declared domain lies within `{0, 1}`.
pub(crate) fn check_bool(model: &Model, context: &str, b: VarId) -> Result<(), CspError> {
    let domain = model.domain(b)?;
    match domain.bounds() {
        Some((lo, hi)) if lo >= 0 && hi <= 1 => Ok(()),
        _ => Err(CspError::InvalidArgument {
            context: context.into(),
            message: format!(
                "{} must be a 0/1 variable, its domain is {}",
                model.var_name(b),
                show(domain)
            ),
        }),
    }
}

fn show(d: &Domain) -> String {
    match d {
        Domain::Range(lo, hi) => format!("{lo}..={hi}"),
        Domain::Set(v) => format!("{v:?}"),
    }
}

/// Reified linear constraints, posted as [`ReifiedLinear`].
impl Model {
    /// `b <-> (sum coeffs[i] * vars[i]  relation  rhs)`, with `b` a 0/1
    /// variable: `b = 1` exactly when the relation holds.
    ///
    /// Fails on lists of different lengths, if `b` is not a 0/1 variable, or if
    /// a sum over the declared domains could overflow.
    ///
    /// ```
    /// use csp_core::{Config, Model, Relation, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=3)?;
    /// let y = m.int_var(0..=3)?;
    /// let b = m.bool_var();
    /// m.linear_reif(&[1, 1], &[x, y], Relation::Ge, 5, b)?; // b <-> x + y >= 5
    /// let b_true = Solver::new(&m, Config::textbook())?.solutions().filter(|s| s[b] == 1).count();
    /// assert_eq!(b_true, 3); // (2, 3), (3, 2), (3, 3)
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn linear_reif(
        &mut self,
        coeffs: &[Value],
        vars: &[VarId],
        relation: Relation,
        rhs: Value,
        b: VarId,
    ) -> Result<ConstraintId, CspError> {
        if let Some(id) = self.compare_post("linear-reif", coeffs, vars, relation, rhs, b, false)? {
            return Ok(id);
        }
        let c = ReifiedLinear::new(coeffs, vars, relation, rhs, b)?;
        self.checked_post("linear-reif", c, vars, b)
    }

    /// `b -> (sum coeffs[i] * vars[i]  relation  rhs)`, with `b` a 0/1 variable:
    /// the relation must hold when `b = 1`; `b = 0` says nothing. Fails as
    /// [`Model::linear_reif`] does.
    ///
    /// ```
    /// use csp_core::{Config, Model, Relation, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=3)?;
    /// let b = m.bool_var();
    /// m.linear_imp(&[1], &[x], Relation::Eq, 2, b)?; // b -> x = 2
    /// // b = 0 with any x (4), b = 1 with x = 2 (1).
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 5);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn linear_imp(
        &mut self,
        coeffs: &[Value],
        vars: &[VarId],
        relation: Relation,
        rhs: Value,
        b: VarId,
    ) -> Result<ConstraintId, CspError> {
        if let Some(id) = self.compare_post("linear-imp", coeffs, vars, relation, rhs, b, true)? {
            return Ok(id);
        }
        let c = ReifiedLinear::implied(coeffs, vars, relation, rhs, b)?;
        self.checked_post("linear-imp", c, vars, b)
    }

    /// `b <-> x = c` (or `b <-> x != c` when `equal` is false) for every
    /// literal `(c, b, equal)`, as one [`EqualityChannel`]: the same
    /// solutions and, at the propagators level, the same filtering as one
    /// [`Model::linear_reif`] per literal, in one propagator. Fails if a
    /// variable is not in this model, if a `b` is not a 0/1 variable, or if
    /// a `b` is `x`.
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(1..=3)?;
    /// let (two, not_three) = (m.bool_var(), m.bool_var());
    /// m.equality_channel(x, &[(2, two, true), (3, not_three, false)])?;
    /// let all: Vec<_> = Solver::new(&m, Config::textbook())?
    ///     .solutions()
    ///     .map(|v| (v[x], v[two], v[not_three]))
    ///     .collect();
    /// assert_eq!(all, vec![(1, 0, 1), (2, 1, 1), (3, 0, 0)]);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn equality_channel(
        &mut self,
        x: VarId,
        literals: &[(Value, VarId, bool)],
    ) -> Result<ConstraintId, CspError> {
        let c = EqualityChannel::new(x, literals)?;
        self.check_vars("equality-channel", c.scope())?;
        for &(_, b, _) in literals {
            check_bool(self, "equality-channel", b)?;
        }
        self.add(Posted::EqualityChannel(c))
    }

    /// A sum of one term with coefficient 1 or -1 posted as a
    /// [`ReifiedCompare`]; `None` for any other sum.
    #[allow(clippy::too_many_arguments)]
    fn compare_post(
        &mut self,
        context: &str,
        coeffs: &[Value],
        vars: &[VarId],
        relation: Relation,
        rhs: Value,
        b: VarId,
        implication: bool,
    ) -> Result<Option<ConstraintId>, CspError> {
        let (&[a], &[x]) = (coeffs, vars) else {
            return Ok(None);
        };
        let Some(c) = ReifiedCompare::from_term(a, x, relation, rhs, b, implication) else {
            return Ok(None);
        };
        self.check_vars(context, &[x, b])?;
        check_bool(self, context, b)?;
        self.add(Posted::ReifiedCompare(c)).map(Some)
    }

    fn checked_post(
        &mut self,
        context: &str,
        mut c: ReifiedLinear,
        vars: &[VarId],
        b: VarId,
    ) -> Result<ConstraintId, CspError> {
        self.check_vars(context, vars)?;
        self.check_vars(context, &[b])?;
        check_bool(self, context, b)?;
        let bounds: Vec<(Value, Value)> = vars
            .iter()
            .map(|&v| self.domain(v).map(|d| d.bounds().unwrap_or((0, 0))))
            .collect::<Result<_, _>>()?;
        let bases = self.bases(vars);
        c.holds.check_range(&bounds, &bases)?;
        c.fails.check_range(&bounds, &bases)?;
        // The pseudo-Boolean filtering keeps trailed state that this
        // constraint's (empty) state layout does not reserve.
        c.holds.without_trailed_state();
        c.fails.without_trailed_state();
        self.add(crate::Posted::ReifiedLinear(Box::new(c)))
    }
}

#[cfg(test)]
mod reified_pseudo_boolean {
    use crate::{Config, Model, Relation, Solver};

    /// Three 0/1 variables in a reified sum: the sum's pseudo-Boolean
    /// filtering used to ask for trailed state the reified constraint never
    /// reserved (a panic under the propagators level).
    #[test]
    fn reified_sum_of_booleans_counts_right() {
        let mut m = Model::new();
        let x: Vec<_> = (0..3).map(|_| m.bool_var()).collect();
        let b = m.bool_var();
        m.linear_reif(&[1, 1, 1], &x, Relation::Eq, 1, b).unwrap();
        m.linear(&[1], &[b], Relation::Eq, 1).unwrap();
        // Exactly one of three: 3 solutions.
        assert_eq!(
            Solver::new(
                &m,
                Config::default().with_pruning(crate::Pruning::Propagators)
            )
            .unwrap()
            .count()
            .solutions,
            3
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Pruning, Solver};

    #[test]
    fn single_open_term_with_a_hole_decides_equality() {
        // b <-> x = 2 with x in {1, 3}: b must be false.
        let mut m = Model::new();
        let x = m.int_var([1, 3]).unwrap();
        let b = m.bool_var();
        m.linear_reif(&[1], &[x], Relation::Eq, 2, b).unwrap();
        for pruning in [Pruning::ForwardChecking, Pruning::Propagators] {
            let s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
            assert_eq!(s.domains().value(b), Some(0), "{pruning}");
        }
    }

    #[test]
    fn negation_is_the_complement() {
        for r in [Relation::Eq, Relation::Le, Relation::Lt] {
            assert_eq!(r.negated().negated(), r);
            let x = VarId::new(0);
            for v in -2..=2 {
                let holds = Linear::new(&[1], &[x], r, 0).unwrap().check(&[v]);
                let fails = Linear::new(&[1], &[x], r.negated(), 0).unwrap().check(&[v]);
                assert_ne!(holds, fails, "{r} at {v}");
            }
        }
    }

    #[test]
    fn the_control_variable_must_be_boolean() {
        let mut m = Model::new();
        let x = m.int_var(0..=3).unwrap();
        let b = m.named_int_var("b", 0..=2).unwrap();
        assert_eq!(
            m.linear_reif(&[1], &[x], Relation::Eq, 2, b)
                .unwrap_err()
                .to_string(),
            "linear-reif: b must be a 0/1 variable, its domain is 0..=2"
        );
        let big = m.int_var([Value::MAX - 1, Value::MAX]).unwrap();
        let c = m.bool_var();
        assert!(matches!(
            m.linear_imp(&[Value::MAX; 4], &[big; 4], Relation::Le, 0, c),
            Err(CspError::Overflow { .. })
        ));
        assert_eq!(m.num_constraints(), 0);
    }

    #[test]
    fn an_implication_only_forces_the_relation_when_b_is_true() {
        let mut m = Model::new();
        let x = m.int_var(0..=3).unwrap();
        let b = m.bool_var();
        m.linear_imp(&[1], &[x], Relation::Ge, 5, b).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        assert_eq!(s.domains().value(b), Some(0));
        assert_eq!(s.domains().len(x), 4);
    }
}
