//! A binary relation given by a closure, filtered by support (AC-3's `revise`).

use std::fmt;

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::{Constraint, Domains, PropagationContext, Pruning, Value, VarId};

/// The test a [`BinaryRelation`] runs on a pair of values.
pub type PairFn = dyn Fn(Value, Value) -> bool + Send + Sync;

/// A constraint between two variables given by a closure on a pair of values,
/// `allowed(x, y)`, whose propagation *revises by support*: a value of one
/// variable stays while some value of the other is compatible with it.
///
/// Unlike [`Predicate`](crate::Predicate) (whose generic arc consistency
/// enumerates tuples), this is the textbook binary constraint of AC-3:
///
/// - [`Pruning::Check`]: once both sides have a value, `allowed` of them;
/// - [`Pruning::ForwardChecking`]: once one side has a value `a`, the other
///   keeps the values `b` with `allowed(a, b)` (one revision);
/// - [`Pruning::ArcConsistency`] and [`Pruning::Propagators`]: with neither
///   side fixed, each side is revised against the other (two revisions), and
///   the constraint is called again while a domain of its scope shrinks, so
///   the pair reaches arc consistency.
///
/// Each revision costs `|D(x)| · |D(y)|` tests at worst. It keeps no
/// supports between calls (AC-3, not AC-2001): on N-Queens the domains are
/// small and most values find a support among the first few tried.
///
/// ```
/// use csp_core::{Config, Model, Pruning, Solver};
/// // Two queens on a 4 × 4 board, in rows 0 and 2: not on a line.
/// let mut m = Model::new();
/// let a = m.int_var(0..=3)?;
/// let b = m.int_var(0..=3)?;
/// m.binary_relation("no attack", a, b, |x, y| x != y && (x - y).abs() != 2)?;
/// for pruning in Pruning::ALL {
///     let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning))?;
///     assert_eq!(s.count().solutions, 8);
/// }
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub struct BinaryRelation {
    name: String,
    vars: [VarId; 2],
    allowed: Box<PairFn>,
}

impl BinaryRelation {
    /// The relation `allowed(x, y)` between `x` and `y`, named `name`.
    pub fn new(
        name: impl Into<String>,
        x: VarId,
        y: VarId,
        allowed: impl Fn(Value, Value) -> bool + Send + Sync + 'static,
    ) -> Self {
        BinaryRelation {
            name: name.into(),
            vars: [x, y],
            allowed: Box::new(allowed),
        }
    }

    /// Whether the pair `(x, y)` is allowed.
    #[inline]
    pub fn allows(&self, x: Value, y: Value) -> bool {
        (self.allowed)(x, y)
    }

    /// Keeps the values of `vars[side]` with a support in the other variable's
    /// domain; counts one revision.
    fn revise(&self, ctx: &mut PropagationContext<'_>, side: usize) -> Result<bool, Conflict> {
        let (var, other) = (self.vars[side], self.vars[1 - side]);
        if ctx.too_many_to_walk(other) {
            // A support would be looked for among too many values (a wide
            // variable's): nothing until it narrows.
            return Ok(false);
        }
        ctx.note_revision();
        ctx.retain(var, |d, a| {
            d.values(other).any(|b| {
                if side == 0 {
                    self.allows(a, b)
                } else {
                    self.allows(b, a)
                }
            })
        })
    }
}

impl fmt::Debug for BinaryRelation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BinaryRelation")
            .field("name", &self.name)
            .field("vars", &self.vars)
            .finish_non_exhaustive()
    }
}

impl Constraint for BinaryRelation {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    #[inline]
    fn check(&self, v: &[Value]) -> bool {
        self.allows(v[0], v[1])
    }

    fn name(&self) -> &str {
        &self.name
    }

    #[inline]
    fn promising(&self, d: &Domains) -> bool {
        match (d.value(self.vars[0]), d.value(self.vars[1])) {
            (Some(a), Some(b)) => self.allows(a, b),
            _ => true,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let [x, y] = self.vars;
        if x == y {
            return match ctx.value(x) {
                Some(a) if self.allows(a, a) => Ok(PropStatus::Entailed),
                Some(_) => Err(Conflict::wipeout(x)),
                None => {
                    ctx.note_revision();
                    let changed = ctx.retain(x, |_, a| self.allows(a, a))?;
                    Ok(if changed {
                        PropStatus::Changed
                    } else {
                        PropStatus::Unchanged
                    })
                }
            };
        }
        let fixed = (ctx.value(x).is_some(), ctx.value(y).is_some());
        match fixed {
            // Both fixed: a check. A clash empties the side not just decided
            // (as `NotEqual` does), so the failure names a variable.
            (true, true) => {
                if !self.promising(ctx.domains()) {
                    let side = usize::from(ctx.trigger().is_none_or(|(_, pos)| pos == 0));
                    let var = self.vars[side];
                    if let Some(value) = ctx.value(var) {
                        ctx.remove(var, value)?;
                    }
                    return Err(Conflict::wipeout(var));
                }
                return Ok(PropStatus::Entailed);
            }
            // One side has a value: the other keeps its compatible values,
            // after which every pair left is allowed.
            (true, false) => {
                self.revise(ctx, 1)?;
                return Ok(PropStatus::Entailed);
            }
            (false, true) => {
                self.revise(ctx, 0)?;
                return Ok(PropStatus::Entailed);
            }
            (false, false) => {}
        }
        if ctx.pruning() == Pruning::ForwardChecking {
            return Ok(PropStatus::Unchanged);
        }
        let cx = self.revise(ctx, 0)?;
        let cy = self.revise(ctx, 1)?;
        Ok(if cx || cy {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Solver};

    /// x < y on 0..=3, revised by support: arc consistency at the root
    /// leaves x in 0..=2 and y in 1..=3 and counts two revisions per call.
    #[test]
    fn arc_consistency_removes_values_without_support() {
        let mut m = Model::new();
        let x = m.int_var(0..=3).unwrap();
        let y = m.int_var(0..=3).unwrap();
        m.binary_relation("less", x, y, |a, b| a < b).unwrap();
        let config = Config::textbook().with_pruning(Pruning::ArcConsistency);
        let mut s = Solver::new(&m, config).unwrap();
        let count = s.count();
        assert_eq!(count.solutions, 6);
        // The root removes 3 from x and 0 from y: 2 values.
        assert!(count.stats.pruned >= 2, "{:?}", count.stats);
        assert!(count.stats.revisions >= 2, "{:?}", count.stats);
    }

    #[test]
    fn every_level_finds_the_same_solutions_as_a_predicate() {
        for pruning in Pruning::ALL {
            let mut a = Model::new();
            let mut b = Model::new();
            let xa = a.int_var_array("x", 4, 0..=4).unwrap();
            let xb = b.int_var_array("x", 4, 0..=4).unwrap();
            for i in 0..4 {
                for j in i + 1..4 {
                    let d = (j - i) as crate::Value;
                    a.binary_relation("r", xa[i], xa[j], move |p, q| (p - q).abs() != d && p != q)
                        .unwrap();
                    b.predicate("r", &[xb[i], xb[j]], move |v| {
                        (v[0] - v[1]).abs() != d && v[0] != v[1]
                    })
                    .unwrap();
                }
            }
            let config = Config::textbook().with_pruning(pruning);
            let na = Solver::new(&a, config.clone()).unwrap().count();
            let nb = Solver::new(&b, config).unwrap().count();
            assert_eq!(na.solutions, nb.solutions, "{pruning}");
            if pruning >= Pruning::ArcConsistency {
                // Both reach arc consistency: the same tree.
                assert_eq!(na.stats.tried, nb.stats.tried, "{pruning}");
            }
        }
    }

    #[test]
    fn a_relation_on_one_variable_keeps_the_values_related_to_themselves() {
        let mut m = Model::new();
        let x = m.int_var(0..=5).unwrap();
        m.binary_relation("even", x, x, |a, b| a == b && a % 2 == 0)
            .unwrap();
        for pruning in Pruning::ALL {
            let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
            assert_eq!(s.count().solutions, 3, "{pruning}");
        }
    }
}
