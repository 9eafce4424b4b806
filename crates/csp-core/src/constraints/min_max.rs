//! `result = min(vars)` and `result = max(vars)` over an array of variables.

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::{Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Value, VarId};

/// `result = max(vars)`, or `result = min(vars)`: posted by [`Model::max`] and
/// [`Model::min`].
///
/// The scope is `vars` then `result`. `promising` compares the bounds of the
/// result with those the array allows. Propagation (the same at every level from
/// forward checking up, to a fixpoint) narrows the result to the bounds of the
/// extreme, keeps only result values some variable can take, bounds every
/// variable by the result, and when a single variable can still reach the
/// result, bounds it from the other side too.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// use csp_core::constraints::MinMax;
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 3, 0..=2)?;
/// let r = m.int_var(0..=2)?;
/// m.post(MinMax::max(&xs, r))?;
/// // Every one of the 27 arrays has exactly one maximum.
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 27);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinMax {
    /// `vars` then `result`.
    scope: Vec<VarId>,
    /// `true` for the maximum.
    max: bool,
}

impl MinMax {
    /// `result = max(vars)`.
    pub fn max(vars: &[VarId], result: VarId) -> Self {
        Self::new(vars, result, true)
    }

    /// `result = min(vars)`.
    pub fn min(vars: &[VarId], result: VarId) -> Self {
        Self::new(vars, result, false)
    }

    fn new(vars: &[VarId], result: VarId, max: bool) -> Self {
        let mut scope = vars.to_vec();
        scope.push(result);
        MinMax { scope, max }
    }

    fn parts(&self) -> (&[VarId], VarId) {
        match self.scope.split_last() {
            Some((&r, xs)) => (xs, r),
            None => (&[], VarId::new(0)),
        }
    }

    /// The variable's bounds in "key" space, where the maximum is wanted:
    /// `(lower, upper)` of `v` for max, of `-v` for min.
    fn key_bounds(&self, d: &Domains, x: VarId) -> (i128, i128) {
        let (lo, hi) = (i128::from(d.min(x)), i128::from(d.max(x)));
        if self.max { (lo, hi) } else { (-hi, -lo) }
    }

    /// The bounds of the extreme of the array, in key space.
    fn extreme_bounds(&self, d: &Domains) -> (i128, i128) {
        let (xs, _) = self.parts();
        xs.iter().fold((i128::MIN, i128::MIN), |(lo, hi), &x| {
            let (l, h) = self.key_bounds(d, x);
            (lo.max(l), hi.max(h))
        })
    }

    /// Removes the values of `x` whose key is above `bound`.
    fn cut_above(
        &self,
        ctx: &mut PropagationContext<'_>,
        x: VarId,
        bound: i128,
    ) -> Result<bool, Conflict> {
        if self.max {
            ctx.remove_above(x, clamp(bound))
        } else {
            ctx.remove_below(x, clamp(-bound))
        }
    }

    /// Removes the values of `x` whose key is below `bound`.
    fn cut_below(
        &self,
        ctx: &mut PropagationContext<'_>,
        x: VarId,
        bound: i128,
    ) -> Result<bool, Conflict> {
        if self.max {
            ctx.remove_below(x, clamp(bound))
        } else {
            ctx.remove_above(x, clamp(-bound))
        }
    }

    /// One round of filtering; whether anything changed.
    fn round(&self, ctx: &mut PropagationContext<'_>) -> Result<bool, Conflict> {
        let (xs, r) = self.parts();
        let (lo, hi) = self.extreme_bounds(ctx.domains());
        ctx.note_revision();
        let mut changed = self.cut_below(ctx, r, lo)?;
        changed |= self.cut_above(ctx, r, hi)?;
        // The result is one of the variables' values.
        changed |= ctx.retain(r, |d, v| xs.iter().any(|&x| d.contains(x, v)))?;
        let (r_lo, r_hi) = self.key_bounds(ctx.domains(), r);
        for &x in xs {
            ctx.note_revision();
            changed |= self.cut_above(ctx, x, r_hi)?;
        }
        let mut reach = xs
            .iter()
            .copied()
            .filter(|&x| self.key_bounds(ctx.domains(), x).1 >= r_lo);
        match (reach.next(), reach.next()) {
            (None, _) => return Err(Conflict::infeasible()),
            (Some(x), None) => changed |= self.cut_below(ctx, x, r_lo)?,
            _ => {}
        }
        Ok(changed)
    }
}

fn clamp(v: i128) -> Value {
    v.clamp(i128::from(Value::MIN), i128::from(Value::MAX)) as Value
}

impl Constraint for MinMax {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        let Some((&r, xs)) = values.split_last() else {
            return false;
        };
        let extreme = if self.max {
            xs.iter().max()
        } else {
            xs.iter().min()
        };
        extreme == Some(&r)
    }

    fn name(&self) -> &str {
        if self.max { "max" } else { "min" }
    }

    fn promising(&self, d: &Domains) -> bool {
        let (_, r) = self.parts();
        let (lo, hi) = self.extreme_bounds(d);
        let (r_lo, r_hi) = self.key_bounds(d, r);
        lo <= r_hi && r_lo <= hi
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let mut changed = false;
        while self.round(ctx)? {
            changed = true;
        }
        Ok(if self.scope.iter().all(|&v| ctx.is_fixed(v)) {
            PropStatus::Entailed
        } else if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

fn non_empty(context: &str, vars: &[VarId]) -> Result<(), CspError> {
    if vars.is_empty() {
        return Err(CspError::InvalidArgument {
            context: context.into(),
            message: "the array is empty".into(),
        });
    }
    Ok(())
}

impl Model {
    /// `result = min(vars)` (see [`MinMax`]); `vars` must not be empty.
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let xs = m.int_var_array("x", 2, 1..=3)?;
    /// let lowest = m.constant(2)?;
    /// m.min(&xs, lowest)?;
    /// // (2, 2), (2, 3), (3, 2).
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 3);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn min(&mut self, vars: &[VarId], result: VarId) -> Result<ConstraintId, CspError> {
        non_empty("min", vars)?;
        self.post(MinMax::min(vars, result))
    }

    /// `result = max(vars)` (see [`MinMax`]); `vars` must not be empty.
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let xs = m.int_var_array("x", 3, 0..=5)?;
    /// let top = m.int_var(0..=1)?;
    /// m.max(&xs, top)?;
    /// // Every variable is 0 or 1: 8 arrays.
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 8);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn max(&mut self, vars: &[VarId], result: VarId) -> Result<ConstraintId, CspError> {
        non_empty("max", vars)?;
        self.post(MinMax::max(vars, result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Pruning, Solver};

    #[test]
    fn an_empty_array_is_refused() {
        let mut m = Model::new();
        let r = m.int_var(0..=1).unwrap();
        assert_eq!(
            m.max(&[], r).unwrap_err().to_string(),
            "max: the array is empty"
        );
    }

    #[test]
    fn the_only_variable_that_reaches_the_result_is_bounded_by_it() {
        let mut m = Model::new();
        let a = m.int_var(0..=9).unwrap();
        let b = m.int_var(0..=3).unwrap();
        let r = m.int_var([5, 7]).unwrap();
        m.max(&[a, b], r).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        let d = s.domains();
        assert_eq!(d.values(a).collect::<Vec<_>>(), vec![5, 6, 7]);
    }
}
