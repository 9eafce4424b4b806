//! `result = min(vars)` and `result = max(vars)` over an array of variables.

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::{Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Value, VarId};
use smallvec::SmallVec;

/// `result = max(vars)`, or `result = min(vars)`: posted by [`Model::max`] and
/// [`Model::min`].
///
/// The scope is `vars` then `result`. `promising` compares the bounds of the
/// result with those the array allows. Propagation (the same at every level from
/// forward checking up, to a fixpoint) narrows the result to the bounds of the
/// extreme, keeps only result values some variable can take (a variable of
/// more than 4,096 values with holes counts as all the values between its
/// bounds there), bounds every
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

    /// The union of the runs of consecutive values of the variables that
    /// meet `lo..=hi` (`info`: each one's bounds and size), sorted and
    /// merged: an interval is one run, and a variable of more than
    /// `WALK_LIMIT` values with holes counts as its bounds.
    fn runs(
        ctx: &PropagationContext<'_>,
        xs: &[VarId],
        info: &[(Value, Value, usize)],
        (lo, hi): (Value, Value),
    ) -> SmallVec<[(Value, Value); 16]> {
        let mut runs: SmallVec<[(Value, Value); 16]> = SmallVec::new();
        for (&x, &(a, b, n)) in xs.iter().zip(info) {
            if b < lo || a > hi {
                continue;
            }
            let width = (i128::from(b) - i128::from(a) + 1) as u128;
            if n as u128 == width || n > WALK_LIMIT {
                runs.push((a, b));
                continue;
            }
            let mut run: Option<(Value, Value)> = None;
            for v in ctx.values(x) {
                run = match run {
                    Some((s, e)) if e.checked_add(1) == Some(v) => Some((s, v)),
                    Some(done) => {
                        runs.push(done);
                        Some((v, v))
                    }
                    None => Some((v, v)),
                };
            }
            runs.extend(run);
        }
        runs.sort_unstable();
        let mut union: SmallVec<[(Value, Value); 16]> = SmallVec::new();
        for (a, b) in runs {
            match union.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => union.push((a, b)),
            }
        }
        union
    }

    /// One round of filtering; whether anything changed.
    fn round(&self, ctx: &mut PropagationContext<'_>) -> Result<bool, Conflict> {
        if self.max {
            self.round_of::<true>(ctx)
        } else {
            self.round_of::<false>(ctx)
        }
    }

    /// [`round`](Self::round) for the maximum (`MAX`) or the minimum, in the
    /// values themselves (see [`Side`]).
    #[inline]
    fn round_of<const MAX: bool>(
        &self,
        ctx: &mut PropagationContext<'_>,
    ) -> Result<bool, Conflict> {
        let (beyond, reach, floor) = (Side::<MAX>::beyond, Side::<MAX>::reach, Side::<MAX>::floor);
        let (cut_beyond, cut_short) = (Side::<MAX>::cut_beyond, Side::<MAX>::cut_short);
        let (xs, r) = self.parts();
        let Some((far_floor, far_reach, top)) = Side::<MAX>::extremes(ctx.domains(), xs) else {
            return Err(Conflict::infeasible());
        };
        ctx.note_revision();
        let mut changed = cut_short(ctx, r, far_floor)?;
        changed |= cut_beyond(ctx, r, far_reach)?;
        // The result is one of the variables' values. `top`'s bounds hold
        // the result's (its floor is at most as far as `far_floor`, its
        // reach is `far_reach`), so a `top` without holes has every value
        // the result has left and nothing goes. Otherwise a result of a few
        // values is walked with a lookup in each variable, and a larger one
        // keeps the union of the variables' runs, one removal per gap.
        let width = i128::from(ctx.max(top)) - i128::from(ctx.min(top)) + 1;
        let covered = ctx.len(top) as i128 == width;
        if !covered && ctx.len(r) <= 4 {
            changed |= ctx.retain(r, |d, v| xs.iter().any(|&x| d.contains(x, v)))?;
        } else if !covered {
            let info: SmallVec<[(Value, Value, usize); 16]> = xs
                .iter()
                .map(|&x| (ctx.min(x), ctx.max(x), ctx.len(x)))
                .collect();
            let union = Self::runs(ctx, xs, &info, (ctx.min(r), ctx.max(r)));
            changed |= ctx.retain_ranges(r, &union)?;
        }
        // No variable goes beyond the result's reach; a single variable
        // that can still reach the result's floor stops short of it.
        let (r_floor, r_reach) = (floor(ctx.domains(), r), reach(ctx.domains(), r));
        let (mut reaching, mut first) = (0, None);
        for &x in xs {
            ctx.note_revision();
            let mut h = reach(ctx.domains(), x);
            if beyond(h, r_reach) && cut_beyond(ctx, x, r_reach)? {
                changed = true;
                h = reach(ctx.domains(), x);
            }
            if !beyond(r_floor, h) {
                reaching += 1;
                first = first.or(Some(x));
            }
        }
        match (reaching, first) {
            (0, _) => return Err(Conflict::infeasible()),
            (1, Some(x)) => changed |= cut_short(ctx, x, r_floor)?,
            _ => {}
        }
        Ok(changed)
    }

    /// [`promising`](Constraint::promising) for the maximum (`MAX`) or the
    /// minimum: the result's bounds meet those the variables allow.
    fn promising_of<const MAX: bool>(&self, d: &Domains) -> bool {
        let (xs, r) = self.parts();
        let Some((far_floor, far_reach, _)) = Side::<MAX>::extremes(d, xs) else {
            return false;
        };
        !Side::<MAX>::beyond(far_floor, Side::<MAX>::reach(d, r))
            && !Side::<MAX>::beyond(Side::<MAX>::floor(d, r), far_reach)
    }
}

/// The side of the extreme: the maximum (`MAX`) or the minimum. A
/// variable's *reach* is its bound on that side (its largest value for the
/// maximum, its smallest for the minimum), its *floor* the other bound.
struct Side<const MAX: bool>;

impl<const MAX: bool> Side<MAX> {
    /// `a` lies beyond `b`, on the side of the extreme.
    #[inline]
    fn beyond(a: Value, b: Value) -> bool {
        if MAX { a > b } else { a < b }
    }

    #[inline]
    fn reach(d: &Domains, x: VarId) -> Value {
        if MAX { d.max(x) } else { d.min(x) }
    }

    #[inline]
    fn floor(d: &Domains, x: VarId) -> Value {
        if MAX { d.min(x) } else { d.max(x) }
    }

    /// Removes what lies beyond `v`.
    #[inline]
    fn cut_beyond(ctx: &mut PropagationContext<'_>, x: VarId, v: Value) -> Result<bool, Conflict> {
        if MAX {
            ctx.remove_above(x, v)
        } else {
            ctx.remove_below(x, v)
        }
    }

    /// Removes what lies short of `v`.
    #[inline]
    fn cut_short(ctx: &mut PropagationContext<'_>, x: VarId, v: Value) -> Result<bool, Conflict> {
        if MAX {
            ctx.remove_below(x, v)
        } else {
            ctx.remove_above(x, v)
        }
    }

    /// The farthest floor and the farthest reach of `xs`, and the first
    /// variable with that reach: the extreme's floor is at least the first,
    /// its reach at most the second. `None` for no variable.
    #[inline]
    fn extremes(d: &Domains, xs: &[VarId]) -> Option<(Value, Value, VarId)> {
        let (mut far_floor, mut far_reach, mut top) = (None::<Value>, None::<Value>, None);
        for &x in xs {
            let (f, h) = (Self::floor(d, x), Self::reach(d, x));
            if far_floor.is_none_or(|g| Self::beyond(f, g)) {
                far_floor = Some(f);
            }
            if far_reach.is_none_or(|g| Self::beyond(h, g)) {
                (far_reach, top) = (Some(h), Some(x));
            }
        }
        Some((far_floor?, far_reach?, top?))
    }
}

/// The most values of a variable with holes whose runs are looked for; a
/// larger one counts as its bounds when the result's support is built.
const WALK_LIMIT: usize = 1 << 12;

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
        if self.max {
            self.promising_of::<true>(d)
        } else {
            self.promising_of::<false>(d)
        }
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
    use crate::rng::SplitMix64;
    use crate::{Config, Pruning, Solver};
    use std::collections::BTreeSet;

    #[test]
    fn an_empty_array_is_refused() {
        let mut m = Model::new();
        let r = m.int_var(0..=1).unwrap();
        assert_eq!(
            m.max(&[], r).unwrap_err().to_string(),
            "max: the array is empty"
        );
    }

    /// The root fixpoint of `result = max(xs)` (or min) computed on sets, one
    /// rule at a time as the documentation states them (a variable of more
    /// than `WALK_LIMIT` values with holes supports its whole hull).
    fn reference(
        xs: &[BTreeSet<Value>],
        r: &BTreeSet<Value>,
        max: bool,
    ) -> Option<(Vec<BTreeSet<Value>>, BTreeSet<Value>)> {
        let key = |v: Value| if max { v } else { -v };
        let (mut xs, mut r) = (xs.to_vec(), r.clone());
        loop {
            let before = (xs.clone(), r.clone());
            if xs.iter().any(BTreeSet::is_empty) || r.is_empty() {
                return None;
            }
            let lo = xs
                .iter()
                .map(|x| x.iter().map(|&v| key(v)).min().unwrap())
                .max()?;
            let hi = xs
                .iter()
                .map(|x| x.iter().map(|&v| key(v)).max().unwrap())
                .max()?;
            r.retain(|&v| lo <= key(v) && key(v) <= hi);
            r.retain(|v| {
                xs.iter().any(|x| {
                    let (a, b) = (*x.first().unwrap(), *x.last().unwrap());
                    let holes = x.len() as Value != b - a + 1;
                    if holes && x.len() > WALK_LIMIT {
                        a <= *v && *v <= b
                    } else {
                        x.contains(v)
                    }
                })
            });
            let (r_lo, r_hi) = (
                r.iter().map(|&v| key(v)).min()?,
                r.iter().map(|&v| key(v)).max()?,
            );
            for x in &mut xs {
                x.retain(|&v| key(v) <= r_hi);
            }
            let reach: Vec<usize> = (0..xs.len())
                .filter(|&i| xs[i].iter().any(|&v| key(v) >= r_lo))
                .collect();
            match reach[..] {
                [] => return None,
                [i] => xs[i].retain(|&v| key(v) >= r_lo),
                _ => {}
            }
            if (xs.clone(), r.clone()) == before {
                return Some((xs, r));
            }
        }
    }

    #[test]
    fn large_and_wide_results_keep_exactly_the_values_of_the_reference() {
        let mut rng = SplitMix64::new(41);
        let mut below = |n: u64| rng.next_u64() % n;
        for case in 0..80 {
            let max = case % 2 == 0;
            let mut m = Model::new();
            let mut sets = Vec::new();
            let mut vars = Vec::new();
            for _ in 0..1 + below(4) {
                let a = below(9000) as Value;
                let b = a + below(6000) as Value;
                // An interval, a few values, or many values with holes.
                let set: BTreeSet<Value> = match below(3) {
                    0 => (a..=b).collect(),
                    1 => (0..1 + below(30))
                        .map(|_| a + below(6001) as Value)
                        .collect(),
                    _ => (a..=b).filter(|_| below(5) != 0).collect(),
                };
                vars.push(m.int_var(set.iter().copied().collect::<Vec<_>>()).unwrap());
                sets.push(set);
            }
            // A result with bits (12,001 values) or a wide one (10^6 + 1
            // values: a hole list), with holes of its own, or a few values.
            let top: Value = if case % 3 == 0 { 1_000_000 } else { 12_000 };
            let mut r_set: BTreeSet<Value> =
                (0..=top).filter(|&v| v > 15_000 || v % 7 != 3).collect();
            if case % 4 == 3 {
                // A result of at most 4 values, some of them the variables'.
                let all: Vec<Value> = sets.iter().flatten().copied().collect();
                r_set = (0..4)
                    .map(|k| {
                        if k % 2 == 0 {
                            all[below(all.len() as u64) as usize]
                        } else {
                            below(15_000) as Value
                        }
                    })
                    .collect();
            }
            let r = m
                .int_var(r_set.iter().copied().collect::<Vec<_>>())
                .unwrap();
            if max {
                m.max(&vars, r).unwrap();
            } else {
                m.min(&vars, r).unwrap();
            }
            let config = Config::textbook().with_pruning(Pruning::Propagators);
            let mut s = Solver::new(&m, config).unwrap();
            match reference(&sets, &r_set, max) {
                None => assert!(s.first().solution.is_none(), "case {case}"),
                Some((xs, want)) => {
                    let d = s.domains();
                    let got: BTreeSet<Value> = d.values(r).collect();
                    assert_eq!(got, want, "case {case}: result");
                    for (i, x) in xs.iter().enumerate() {
                        let got: BTreeSet<Value> = d.values(vars[i]).collect();
                        assert_eq!(&got, x, "case {case}: x{i}");
                    }
                }
            }
        }
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
