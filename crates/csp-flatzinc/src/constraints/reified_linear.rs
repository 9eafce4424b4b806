//! `b <-> (sum a_i * x_i  REL  c)`: the reified comparisons and linear constraints of FlatZinc.

use csp_core::{
    Constraint, CspError, Domains, Linear, PropStatus, Propagation, PropagationContext, Relation,
    Value, VarId,
};

/// `b <-> (sum coeffs[i] * vars[i]  relation  rhs)`, with `b` a 0/1 variable.
///
/// It covers `int_eq_reif` ... `int_lt_reif` (two terms) and `int_lin_*_reif`.
/// While `b` is open it watches the bounds of the sum and fixes `b` as soon as the
/// relation is decided; once `b` is fixed it propagates the relation or its negation
/// with csp-core's [`Linear`].
///
/// ```
/// use csp_core::{Config, Model, Relation, Solver};
/// use csp_flatzinc::constraints::ReifiedLinear;
///
/// let mut m = Model::new();
/// let x = m.int_var(0..=3)?;
/// let b = m.bool_var();
/// m.post(ReifiedLinear::new(&[1], &[x], Relation::Le, 1, b)?)?; // b <-> x <= 1
/// let mut solver = Solver::new(&m, Config::default())?;
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
        let fails = Linear::new(coeffs, vars, negate(relation), rhs)?;
        let mut scope = vars.to_vec();
        scope.push(b);
        Ok(ReifiedLinear {
            scope,
            coeffs: coeffs.iter().map(|&a| i128::from(a)).collect(),
            relation,
            rhs: i128::from(rhs),
            holds,
            fails,
        })
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
            let hit = need % a == 0 && Value::try_from(need / a).is_ok_and(|v| d.contains(x, v));
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

/// The relation that holds exactly when `relation` does not.
pub(crate) fn negate(relation: Relation) -> Relation {
    match relation {
        Relation::Eq => Relation::Ne,
        Relation::Ne => Relation::Eq,
        Relation::Le => Relation::Gt,
        Relation::Lt => Relation::Ge,
        Relation::Ge => Relation::Lt,
        Relation::Gt => Relation::Le,
    }
}

impl Constraint for ReifiedLinear {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        match values.split_last() {
            Some((&b, xs)) => b == Value::from(self.holds.check(xs)),
            None => false,
        }
    }

    fn name(&self) -> &str {
        "reified-linear"
    }

    fn promising(&self, d: &Domains) -> bool {
        match d.value(self.b()) {
            Some(1) => self.holds.promising(d),
            Some(0) => self.fails.promising(d),
            Some(_) => false,
            None => true,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let b = self.b();
        match ctx.value(b) {
            Some(1) => return self.holds.propagate(ctx),
            Some(0) => return self.fails.propagate(ctx),
            _ => {}
        }
        match self.decided(ctx.domains()) {
            Some(truth) => {
                ctx.note_revision();
                ctx.fix(b, Value::from(truth))?;
                Ok(PropStatus::Entailed)
            }
            None => Ok(PropStatus::Unchanged),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::testing::agrees_with_brute_force;
    use csp_core::Model;

    fn post(domains: &[&[Value]], coeffs: &[Value], relation: Relation, rhs: Value) -> Model {
        let mut m = Model::new();
        let xs: Vec<VarId> = domains
            .iter()
            .map(|d| m.int_var(d.to_vec()).unwrap())
            .collect();
        let b = m.bool_var();
        m.post(ReifiedLinear::new(coeffs, &xs, relation, rhs, b).unwrap())
            .unwrap();
        m
    }

    #[test]
    fn every_relation_agrees_with_brute_force_at_every_pruning_level() {
        for relation in [
            Relation::Eq,
            Relation::Ne,
            Relation::Le,
            Relation::Lt,
            Relation::Ge,
            Relation::Gt,
        ] {
            let m = post(&[&[-1, 0, 2], &[1, 2, 3]], &[2, -1], relation, 1);
            agrees_with_brute_force(&m);
        }
    }

    #[test]
    fn single_open_term_with_a_hole_decides_equality() {
        // b <-> x = 2 with x in {1, 3}: b must be false.
        let m = post(&[&[1, 3]], &[1], Relation::Eq, 2);
        agrees_with_brute_force(&m);
        let mut solver = csp_core::Solver::new(&m, Default::default()).unwrap();
        assert!(solver.solutions().all(|s| s[VarId::new(1)] == 0));
    }

    #[test]
    fn negation_is_the_complement() {
        for r in [Relation::Eq, Relation::Le, Relation::Lt] {
            assert_eq!(negate(negate(r)), r);
            let x = VarId::new(0);
            for v in -2..=2 {
                let holds = Linear::new(&[1], &[x], r, 0).unwrap().check(&[v]);
                let fails = Linear::new(&[1], &[x], negate(r), 0).unwrap().check(&[v]);
                assert_ne!(holds, fails, "{r} at {v}");
            }
        }
    }
}
