//! `b <-> (x REL c)` and `b -> (x REL c)`: one variable compared with a
//! constant, reified. The cheap special case of [`ReifiedLinear`].

use crate::constraint::{Conflict, Events, PropCost, PropStatus, Propagation};
use crate::{Constraint, Domains, PropagationContext, Relation, Value, VarId};

#[cfg(doc)]
use crate::ReifiedLinear;

/// `b <-> (x relation c)`, or `b -> (x relation c)`, with `b` a 0/1
/// variable and `c` a constant: FlatZinc's `int_eq_reif(x, 3, b)` and its
/// kin, and the reified comparisons of a Boolean decomposition
/// (`sum(i)(bool2int(x[i] = v))`).
///
/// [`Model::linear_reif`](crate::Model::linear_reif) and
/// [`Model::linear_imp`](crate::Model::linear_imp) post it, under the names
/// `linear-reif` and `linear-imp`, for a sum of one term with coefficient 1
/// or -1; other sums get a [`ReifiedLinear`]. The filtering is Gecode's
/// default for these: for `=` and `!=` domain consistency (`b` is fixed to
/// 0 as soon as `c` leaves `x`, not only when it leaves `x`'s bounds, which
/// is all a sum's bounds can tell), for the orders bounds consistency, which
/// is domain consistency there. A call reads two domains and changes at
/// most one; the constraint is idempotent.
///
/// It is queued with the sums ([`PropCost::Linear`]), where the
/// [`ReifiedLinear`] it replaces was, not before them: the queue order
/// decides which constraint finds a failure, and so what afc/size and
/// dom/wdeg learn. Queued first, on a decomposed self-counting sequence
/// (n = 60, `bench/count/selfcount.mzn`) the failures went to the
/// comparisons instead of the counts and the default search took 34,495
/// nodes instead of 302.
///
/// ```
/// use csp_core::{Config, Model, Pruning, Relation, Solver};
/// let mut m = Model::new();
/// let b = m.bool_var();
/// let x = m.int_var(0..=4)?;
/// m.linear_reif(&[1], &[x], Relation::Eq, 2, b)?; // b <-> x = 2
/// m.linear(&[1], &[x], Relation::Ne, 2)?;          // removes 2 from x
/// let config = Config::textbook().with_pruning(Pruning::Propagators);
/// let mut s = Solver::new(&m, config)?;
/// let all: Vec<_> = s.solutions().map(|v| (v[b], v[x])).collect();
/// assert_eq!(all, vec![(0, 0), (0, 1), (0, 3), (0, 4)]);
/// // b was 0 before the first decision: b = 1 was never tried.
/// assert_eq!(s.stats().rejected, 0);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ReifiedCompare {
    /// `[x, b]`.
    scope: [VarId; 2],
    relation: Relation,
    c: Value,
    /// `b -> relation` only.
    implication: bool,
}

impl ReifiedCompare {
    /// `b <-> (x relation c)`. `b` should be a 0/1 variable: the solver
    /// treats any other value of `b` as a conflict
    /// ([`Model::linear_reif`](crate::Model::linear_reif) checks it).
    pub fn new(x: VarId, relation: Relation, c: Value, b: VarId) -> Self {
        ReifiedCompare {
            scope: [x, b],
            relation,
            c,
            implication: false,
        }
    }

    /// `b -> (x relation c)`: `b = 0` leaves `x` free.
    pub fn implied(x: VarId, relation: Relation, c: Value, b: VarId) -> Self {
        ReifiedCompare {
            implication: true,
            ..Self::new(x, relation, c, b)
        }
    }

    /// `b <-> (coeff * x  relation  rhs)` (or `b -> ...` when `implication`)
    /// as a comparison of `x` with a constant, for `coeff` 1 or -1; `None`
    /// for another coefficient, or for `-x REL i64::MIN` (its constant,
    /// `-i64::MIN`, is not a [`Value`]): the caller posts a
    /// [`ReifiedLinear`] then.
    pub(crate) fn from_term(
        coeff: Value,
        x: VarId,
        relation: Relation,
        rhs: Value,
        b: VarId,
        implication: bool,
    ) -> Option<Self> {
        let (relation, c) = match coeff {
            1 => (relation, rhs),
            // -x REL rhs is x REL' -rhs, the order reversed.
            -1 => {
                let flipped = match relation {
                    Relation::Le => Relation::Ge,
                    Relation::Lt => Relation::Gt,
                    Relation::Ge => Relation::Le,
                    Relation::Gt => Relation::Lt,
                    same => same,
                };
                (flipped, rhs.checked_neg()?)
            }
            _ => return None,
        };
        let c = Self::new(x, relation, c, b);
        Some(ReifiedCompare { implication, ..c })
    }

    /// Whether `v` satisfies the comparison.
    #[inline]
    fn holds(&self, v: Value) -> bool {
        self.relation.holds(i128::from(v), i128::from(self.c))
    }

    /// `Some(true)` if every value of `x` satisfies the comparison,
    /// `Some(false)` if none does, `None` otherwise. An empty domain
    /// answers `Some(false)`.
    #[inline(always)]
    fn truth(&self, d: &Domains) -> Option<bool> {
        let x = self.scope[0];
        let c = self.c;
        // = and != read one value and the size; the orders the bounds.
        let eq = || {
            if !d.contains(x, c) {
                Some(false)
            } else if d.is_fixed(x) {
                Some(true)
            } else {
                None
            }
        };
        let decide = |all: bool, none: bool| {
            if none {
                Some(false)
            } else if all {
                Some(true)
            } else {
                None
            }
        };
        match self.relation {
            Relation::Eq => eq(),
            Relation::Ne => eq().map(|e| !e),
            Relation::Le => decide(d.max(x) <= c, d.min(x) > c),
            Relation::Lt => decide(d.max(x) < c, d.min(x) >= c),
            Relation::Ge => decide(d.min(x) >= c, d.max(x) < c),
            Relation::Gt => decide(d.min(x) > c, d.max(x) <= c),
        }
    }

    /// Narrows `x` so that the comparison is `truth`, and says the
    /// constraint is entailed.
    #[inline(never)]
    fn enforce(&self, ctx: &mut PropagationContext<'_>, truth: bool) -> Propagation {
        let x = self.scope[0];
        ctx.note_revision();
        let c = self.c;
        let relation = if truth {
            self.relation
        } else {
            self.relation.negated()
        };
        // x < c and x > c: no value beyond the ends of i64.
        let below = |c: Value| c.checked_sub(1).ok_or(Conflict::wipeout(x));
        let above = |c: Value| c.checked_add(1).ok_or(Conflict::wipeout(x));
        match relation {
            Relation::Eq => ctx.fix(x, c)?,
            Relation::Ne => ctx.remove(x, c)?,
            Relation::Le => ctx.remove_above(x, c)?,
            Relation::Lt => ctx.remove_above(x, below(c)?)?,
            Relation::Ge => ctx.remove_below(x, c)?,
            Relation::Gt => ctx.remove_below(x, above(c)?)?,
        };
        Ok(PropStatus::Entailed)
    }
}

impl Constraint for ReifiedCompare {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        match *values {
            [x, b] if self.implication => b == 0 || (b == 1 && self.holds(x)),
            [x, b] => b == Value::from(self.holds(x)),
            _ => false,
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
        match d.value(self.scope[1]) {
            Some(1) => self.truth(d) != Some(false),
            Some(0) if self.implication => true,
            Some(0) => d.len(self.scope[0]) > 0 && self.truth(d) != Some(true),
            Some(_) => false,
            None => true,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let b = self.scope[1];
        match ctx.value(b) {
            Some(1) => self.enforce(ctx, true),
            Some(0) if self.implication => Ok(PropStatus::Entailed),
            Some(0) => self.enforce(ctx, false),
            Some(_) => Err(Conflict::wipeout(b)),
            None => match self.truth(ctx.domains()) {
                Some(true) if self.implication => Ok(PropStatus::Entailed),
                Some(truth) => {
                    ctx.note_revision();
                    ctx.fix(b, Value::from(truth))?;
                    Ok(PropStatus::Entailed)
                }
                None => Ok(PropStatus::Unchanged),
            },
        }
    }

    /// `=` and `!=` read whether `c` is still in `x`; the orders read `x`'s
    /// bounds; `b` matters once fixed.
    fn events(&self, pos: usize) -> Events {
        match (pos, self.relation) {
            (0, Relation::Eq | Relation::Ne) => Events::DOMAIN,
            (0, _) => Events::BOUNDS,
            _ => Events::FIXED,
        }
    }

    /// With the sums, as the [`ReifiedLinear`] it replaces (see the type's
    /// documentation).
    fn cost(&self) -> PropCost {
        PropCost::Linear
    }

    fn idempotent(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Model, Pruning, Solver};

    /// Every relation, both coefficients, both modes, constants at the
    /// i64 edges: the same solutions as the sum's own check, at every
    /// level, by brute force over x's values.
    #[test]
    fn every_relation_agrees_with_brute_force_at_every_level() {
        let relations = [
            Relation::Eq,
            Relation::Ne,
            Relation::Le,
            Relation::Lt,
            Relation::Ge,
            Relation::Gt,
        ];
        let domains: [(Value, Value); 3] = [
            (-3, 3),
            (Value::MIN, Value::MIN + 4),
            (Value::MAX - 4, Value::MAX),
        ];
        for &(lo, hi) in &domains {
            for rhs in [
                lo,
                lo + 1,
                (lo / 2 + hi / 2),
                hi - 1,
                hi,
                0,
                Value::MIN,
                Value::MAX,
            ] {
                for coeff in [1, -1] {
                    for relation in relations {
                        for implication in [false, true] {
                            let holds = |x: Value| {
                                relation.holds(i128::from(coeff) * i128::from(x), i128::from(rhs))
                            };
                            let mut expected: Vec<(Value, Value)> = Vec::new();
                            for x in lo..=hi {
                                for b in 0..=1 {
                                    let ok = if implication {
                                        b == 0 || holds(x)
                                    } else {
                                        (b == 1) == holds(x)
                                    };
                                    if ok {
                                        expected.push((x, b));
                                    }
                                }
                            }
                            for pruning in Pruning::ALL {
                                let mut m = Model::new();
                                let x = m.int_var(lo..=hi).unwrap();
                                let b = m.bool_var();
                                let posted = if implication {
                                    m.linear_imp(&[coeff], &[x], relation, rhs, b)
                                } else {
                                    m.linear_reif(&[coeff], &[x], relation, rhs, b)
                                };
                                posted.unwrap();
                                let mut s =
                                    Solver::new(&m, Config::textbook().with_pruning(pruning))
                                        .unwrap();
                                let mut got: Vec<(Value, Value)> =
                                    s.solutions().map(|v| (v[x], v[b])).collect();
                                got.sort_unstable();
                                assert_eq!(
                                    got, expected,
                                    "{coeff}*x {relation:?} {rhs}, x in {lo}..={hi}, implication {implication}, {pruning:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_term_with_another_coefficient_or_an_unrepresentable_constant_is_not_a_comparison() {
        let (x, b) = (VarId::new(0), VarId::new(1));
        assert!(ReifiedCompare::from_term(2, x, Relation::Eq, 4, b, false).is_none());
        assert!(ReifiedCompare::from_term(-1, x, Relation::Eq, Value::MIN, b, false).is_none());
        assert!(ReifiedCompare::from_term(1, x, Relation::Lt, Value::MIN, b, false).is_some());
        assert!(ReifiedCompare::from_term(-1, x, Relation::Eq, Value::MAX, b, false).is_some());
    }

    /// During the search: y = 0 takes 2 out of the middle of x's domain
    /// (a table), which must wake the comparison and fix b before b is
    /// decided (a constraint woken on bounds only would leave b open, and
    /// b = 1 would be tried and fail).
    #[test]
    fn a_value_leaving_the_middle_of_the_domain_during_search_wakes_the_comparison() {
        for relation in [Relation::Eq, Relation::Ne] {
            let mut m = Model::new();
            let y = m.int_var(0..=1).unwrap();
            let b = m.bool_var();
            let x = m.int_var(0..=4).unwrap();
            let rows = [[0, 0], [0, 1], [0, 3], [0, 4], [1, 2]];
            m.table(&[y, x], rows.iter().map(|r| r.to_vec()).collect())
                .unwrap();
            m.linear_reif(&[1], &[x], relation, 2, b).unwrap();
            let config = Config::textbook().with_pruning(Pruning::Propagators);
            let result = Solver::new(&m, config).unwrap().count();
            assert_eq!(result.solutions, 5);
            assert_eq!(result.stats.rejected, 0, "{relation:?}");
        }
    }

    /// The value leaving x from the middle of its domain fixes b (a sum's
    /// bounds could not tell).
    #[test]
    fn a_value_leaving_the_middle_of_the_domain_fixes_b() {
        for relation in [Relation::Eq, Relation::Ne] {
            let mut m = Model::new();
            let b = m.bool_var();
            let x = m.int_var(0..=4).unwrap();
            m.linear_reif(&[1], &[x], relation, 2, b).unwrap();
            m.linear(&[1], &[x], Relation::Ne, 2).unwrap();
            assert!(matches!(m.posted()[0], crate::Posted::ReifiedCompare(_)));
            let config = Config::textbook().with_pruning(Pruning::Propagators);
            let mut s = Solver::new(&m, config).unwrap();
            let result = s.count();
            assert_eq!(result.solutions, 4);
            // b is decided first and only its one value left is tried.
            assert_eq!(result.stats.rejected, 0, "{relation:?}");
        }
    }
}
