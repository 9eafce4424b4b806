//! Global cardinality: how many variables take each of some values.

use crate::constraint::{Conflict, PropCost, PropStatus, Propagation};
use crate::{Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Value, VarId};

/// `counts[j]` is the number of `i` with `vars[i] = values[j]`, for every `j`.
///
/// Variables may take values outside `values` (the "open" form, as in MiniZinc's
/// `global_cardinality`); restrict their domains for the closed form. The scope is
/// `vars` followed by `counts`.
///
/// Filtering (the same at every level, run to a fixpoint): each count is
/// narrowed to `[fixed, possible]`, the number of variables fixed to its value
/// and the number that can still take it; a count whose largest value equals
/// `fixed` removes the value from the other variables, one whose smallest value
/// equals `possible` fixes every variable that can take it. `promising` rejects a
/// partial assignment when some count has no value in `[fixed, possible]`.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 3, 1..=2)?;
/// let ones = m.int_var(2..=2)?;
/// let twos = m.int_var(0..=3)?;
/// m.global_cardinality(&xs, &[1, 2], &[ones, twos])?;
/// // Two of three variables are 1, the other is 2 (and `twos` is 1).
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 3);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalCardinality {
    scope: Vec<VarId>,
    n: usize,
    values: Vec<Value>,
}

impl GlobalCardinality {
    /// `counts[j] = |{i : vars[i] = values[j]}|`. Fails if `values` and `counts`
    /// differ in length.
    pub fn new(vars: &[VarId], values: &[Value], counts: &[VarId]) -> Result<Self, CspError> {
        if values.len() != counts.len() {
            return Err(CspError::LengthMismatch {
                context: "global_cardinality".into(),
                what: "counts".into(),
                expected: values.len(),
                got: counts.len(),
            });
        }
        let mut scope = vars.to_vec();
        scope.extend_from_slice(counts);
        Ok(GlobalCardinality {
            scope,
            n: vars.len(),
            values: values.to_vec(),
        })
    }

    fn vars(&self) -> &[VarId] {
        &self.scope[..self.n]
    }

    fn counts(&self) -> &[VarId] {
        &self.scope[self.n..]
    }

    /// Variables fixed to `value`, and variables that can take it.
    fn tally(&self, d: &Domains, value: Value) -> (Value, Value) {
        let (mut fixed, mut possible) = (0, 0);
        for &x in self.vars() {
            if d.contains(x, value) {
                possible += 1;
                if d.is_fixed(x) {
                    fixed += 1;
                }
            }
        }
        (fixed, possible)
    }
}

impl Constraint for GlobalCardinality {
    fn cost(&self) -> PropCost {
        PropCost::Expensive
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        let (xs, counts) = v.split_at(self.n);
        self.values
            .iter()
            .zip(counts)
            .all(|(&value, &c)| xs.iter().filter(|&&x| x == value).count() as Value == c)
    }

    fn name(&self) -> &str {
        "global_cardinality"
    }

    fn promising(&self, d: &Domains) -> bool {
        self.values.iter().zip(self.counts()).all(|(&value, &c)| {
            let (fixed, possible) = self.tally(d, value);
            d.next_value(c, fixed - 1).is_some_and(|v| v <= possible)
        })
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let mut changed = false;
        loop {
            let mut again = false;
            for (&value, &c) in self.values.iter().zip(self.counts()) {
                ctx.note_revision();
                let (fixed, possible) = self.tally(ctx.domains(), value);
                again |= ctx.remove_below(c, fixed)?;
                again |= ctx.remove_above(c, possible)?;
                if fixed == possible {
                    continue;
                }
                if ctx.max(c) == fixed {
                    // The value is full: no other variable may take it.
                    for &x in self.vars() {
                        if !ctx.is_fixed(x) {
                            again |= ctx.remove(x, value)?;
                        }
                    }
                } else if ctx.min(c) == possible {
                    // Every variable that can take the value must.
                    for &x in self.vars() {
                        if ctx.contains(x, value) {
                            again |= ctx.fix(x, value)?;
                        }
                    }
                }
            }
            if !again {
                break;
            }
            changed = true;
        }
        finish(self, ctx, changed)
    }
}

/// The status after filtering: entailed (or a conflict) once the scope is fixed.
pub(crate) fn finish<C: Constraint + ?Sized>(
    c: &C,
    ctx: &PropagationContext<'_>,
    changed: bool,
) -> Propagation {
    if c.scope().iter().all(|&v| ctx.is_fixed(v)) {
        return if c.promising(ctx.domains()) {
            Ok(PropStatus::Entailed)
        } else {
            Err(Conflict::infeasible())
        };
    }
    Ok(if changed {
        PropStatus::Changed
    } else {
        PropStatus::Unchanged
    })
}

impl Model {
    /// `counts[j]` is the number of `vars` equal to `values[j]` (see
    /// [`GlobalCardinality`]; `counts` are variables, fixed ones for constants).
    ///
    /// Fails if `values` and `counts` differ in length, if the scope is empty, or
    /// on a variable of another model.
    pub fn global_cardinality(
        &mut self,
        vars: &[VarId],
        values: &[Value],
        counts: &[VarId],
    ) -> Result<ConstraintId, CspError> {
        self.post(GlobalCardinality::new(vars, values, counts)?)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Solver};

    #[test]
    fn counts_are_narrowed_from_the_root() {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 4, 0..=2).unwrap();
        let c = m.int_var_array("c", 2, 0..=9).unwrap();
        m.linear(&[1], &[xs[0]], crate::Relation::Eq, 1).unwrap();
        m.global_cardinality(&xs, &[1, 5], &c).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        assert_eq!((s.domains().min(c[0]), s.domains().max(c[0])), (1, 4));
        assert_eq!(s.domains().value(c[1]), Some(0));
    }

    #[test]
    fn mismatched_lengths_are_refused() {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 2, 0..=2).unwrap();
        assert!(m.global_cardinality(&xs, &[1, 2], &xs[..1]).is_err());
    }
}
