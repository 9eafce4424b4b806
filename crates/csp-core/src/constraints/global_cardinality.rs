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
/// equals `possible` fixes every variable that can take it. When the values are
/// distinct, the counts also obey their sum (Gecode's side constraint): it is
/// the number of variables minus those that take a value outside `values`,
/// which lies between the variables with no value of `values` left and those
/// with some other value left; each count is kept within the bounds that the
/// others' bounds leave it. `promising` rejects a partial assignment when some
/// count has no value in `[fixed, possible]`.
///
/// A count may be one of `vars` (a magic sequence counts its own values):
/// every rule holds of any solution whatever the variables are, so it stays
/// sound.
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
    /// `values`, sorted, when no value is repeated (the sum reasoning needs
    /// it); empty otherwise.
    sorted: Vec<Value>,
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
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != values.len() {
            sorted.clear();
        }
        Ok(GlobalCardinality {
            scope,
            n: vars.len(),
            values: values.to_vec(),
            sorted,
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

    /// The bounds of the counts' sum: the variables minus those that can take
    /// a value outside `values` (at least), minus those that have none of
    /// `values` left (at most).
    fn sum_bounds(&self, d: &Domains) -> (Value, Value) {
        let (mut outside, mut only_outside) = (0, 0);
        for &x in self.vars() {
            // Too many values to walk: it may take one of `values` or another
            // (only the "at least" bound counts it).
            let wide = d.too_many_to_walk(x);
            let (mut inside, mut other) = (wide, wide);
            for v in d.values(x).take_while(|_| !wide) {
                if self.sorted.binary_search(&v).is_ok() {
                    inside = true;
                } else {
                    other = true;
                }
                if inside && other {
                    break;
                }
            }
            outside += Value::from(other);
            only_outside += Value::from(!inside);
        }
        let n = self.n as Value;
        (n - outside, n - only_outside)
    }

    /// Bounds reasoning on `sum(counts)` within [`Self::sum_bounds`]; whether
    /// a count changed.
    fn filter_sum(&self, ctx: &mut PropagationContext<'_>) -> Result<bool, Conflict> {
        ctx.note_revision();
        let (lo, hi) = self.sum_bounds(ctx.domains());
        let counts = self.counts();
        let min_sum: Value = counts.iter().map(|&c| ctx.min(c)).sum();
        let max_sum: Value = counts.iter().map(|&c| ctx.max(c)).sum();
        if min_sum > hi || max_sum < lo {
            return Err(Conflict::infeasible());
        }
        let mut changed = false;
        for &c in counts {
            let (min, max) = (ctx.min(c), ctx.max(c));
            changed |= ctx.remove_above(c, hi - (min_sum - min))?;
            changed |= ctx.remove_below(c, lo - (max_sum - max))?;
        }
        Ok(changed)
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
            if !self.sorted.is_empty() {
                again |= self.filter_sum(ctx)?;
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
