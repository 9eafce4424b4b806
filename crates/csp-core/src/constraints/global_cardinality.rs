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
/// count has no value in `[fixed, possible]`. A call counts every value in
/// one pass over the variables' domains, then keeps the counts up to date as
/// it changes a variable (counting that variable again), where no variable of
/// the scope is a view.
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
    /// `(values[j], j)` for every `j`, by value.
    index: Vec<(Value, u32)>,
    /// Where the values span at most a few times their number: for each
    /// offset `v - index[0].0`, the first place of `v` in `index`, or
    /// `u32::MAX`; empty otherwise (then `index` is searched).
    lookup: Vec<u32>,
    /// (variable index, number of positions of `vars` it holds), by index.
    occurrences: Vec<(u32, u32)>,
}

/// The counts of one call: per value of the list, the variables fixed to it
/// and those that can take it; and the variables that can take a value
/// outside the list, and those with none of the list left (the sum bounds).
#[derive(Default)]
struct Tallies {
    per_value: Vec<(Value, Value)>,
    outside: Value,
    only_outside: Value,
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
        let mut index: Vec<(Value, u32)> = (values.iter().enumerate())
            .map(|(j, &v)| (v, j as u32))
            .collect();
        index.sort_unstable();
        let mut lookup = Vec::new();
        if let (Some(&(lo, _)), Some(&(hi, _))) = (index.first(), index.last()) {
            let span = i128::from(hi) - i128::from(lo);
            if span < 4 * index.len() as i128 + 64 {
                lookup = vec![u32::MAX; span as usize + 1];
                for (at, &(v, _)) in index.iter().enumerate().rev() {
                    lookup[(v - lo) as usize] = at as u32;
                }
            }
        }
        let mut ids: Vec<u32> = vars.iter().map(|x| x.index() as u32).collect();
        ids.sort_unstable();
        let mut occurrences: Vec<(u32, u32)> = Vec::new();
        for id in ids {
            match occurrences.last_mut() {
                Some((last, k)) if *last == id => *k += 1,
                _ => occurrences.push((id, 1)),
            }
        }
        Ok(GlobalCardinality {
            scope,
            n: vars.len(),
            values: values.to_vec(),
            sorted,
            index,
            lookup,
            occurrences,
        })
    }

    fn vars(&self) -> &[VarId] {
        &self.scope[..self.n]
    }

    fn counts(&self) -> &[VarId] {
        &self.scope[self.n..]
    }

    /// The first place of `v` in `index`, if `v` is one of `values`.
    #[inline]
    fn place(&self, v: Value) -> Option<usize> {
        let lo = self.index.first()?.0;
        if !self.lookup.is_empty() {
            let at = *self.lookup.get(usize::try_from(v.checked_sub(lo)?).ok()?)?;
            return (at != u32::MAX).then_some(at as usize);
        }
        let at = self.index.partition_point(|&(w, _)| w < v);
        (self.index.get(at)?.0 == v).then_some(at)
    }

    /// Adds `times` times what variable `x` counts to `t`: one to the values
    /// of the list it can take (and to their fixed counts if it is fixed),
    /// one to `outside` if it can take another value, one to
    /// `only_outside` if it has none of the list left. A variable with no
    /// more values than the list is walked value by value; any other is asked
    /// for each value of the list.
    fn add_var(&self, d: &Domains, x: VarId, times: Value, t: &mut Tallies) {
        let len = d.len(x);
        let fixed = times * Value::from(len == 1);
        // Too many values to walk: it may take one of `values` or another
        // (only the "at least" bound counts it).
        let wide = d.too_many_to_walk(x);
        let (inside, other) = if !wide && len <= self.index.len() {
            let (mut inside, mut other) = (false, false);
            for v in d.values(x) {
                let Some(at) = self.place(v) else {
                    other = true;
                    continue;
                };
                inside = true;
                for &(_, j) in self.index[at..].iter().take_while(|e| e.0 == v) {
                    let c = &mut t.per_value[j as usize];
                    *c = (c.0 + fixed, c.1 + times);
                }
            }
            (inside, other)
        } else {
            let mut inside = 0;
            for (c, &value) in t.per_value.iter_mut().zip(&self.values) {
                if d.contains(x, value) {
                    *c = (c.0 + fixed, c.1 + times);
                    inside += 1;
                }
            }
            // (With repeated values the sum bounds are not used.)
            (wide || inside > 0, wide || len > inside)
        };
        t.outside += times * Value::from(other);
        t.only_outside += times * Value::from(!inside);
    }

    /// The tallies of the domains as they are, in one pass over the
    /// variables ([`Self::add_var`] for each position).
    fn tallies(&self, d: &Domains, t: &mut Tallies) {
        t.per_value.clear();
        t.per_value.resize(self.values.len(), (0, 0));
        (t.outside, t.only_outside) = (0, 0);
        for &x in self.vars() {
            self.add_var(d, x, 1, t);
        }
    }

    /// The bounds of the counts' sum: the variables minus those that can take
    /// a value outside `values` (at least), minus those that have none of
    /// `values` left (at most).
    fn sum_bounds(&self, t: &Tallies) -> (Value, Value) {
        let n = self.n as Value;
        (n - t.outside, n - t.only_outside)
    }

    /// The number of positions of `vars` that hold `x`.
    fn occurrences(&self, x: VarId) -> Value {
        let id = x.index() as u32;
        match self.occurrences.binary_search_by_key(&id, |e| e.0) {
            Ok(at) => Value::from(self.occurrences[at].1),
            Err(_) => 0,
        }
    }

    /// Runs `change` on `x`; with `live` tallies, takes `x`'s part out of
    /// them before and puts its new part back after, so that they stay
    /// those of the domains as they are.
    fn change(
        &self,
        ctx: &mut PropagationContext<'_>,
        t: &mut Tallies,
        live: bool,
        x: VarId,
        change: impl FnOnce(&mut PropagationContext<'_>) -> Result<bool, Conflict>,
    ) -> Result<bool, Conflict> {
        let k = if live { self.occurrences(x) } else { 0 };
        if k > 0 {
            self.add_var(ctx.domains(), x, -k, t);
        }
        let changed = change(ctx)?;
        if k > 0 {
            self.add_var(ctx.domains(), x, k, t);
        }
        Ok(changed)
    }

    /// Bounds reasoning on `sum(counts)` within [`Self::sum_bounds`] (read
    /// once, as the counts' sums); whether a count changed.
    fn filter_sum(
        &self,
        ctx: &mut PropagationContext<'_>,
        t: &mut Tallies,
        live: bool,
    ) -> Result<bool, Conflict> {
        ctx.note_revision();
        let (lo, hi) = self.sum_bounds(t);
        let counts = self.counts();
        let min_sum: Value = counts.iter().map(|&c| ctx.min(c)).sum();
        let max_sum: Value = counts.iter().map(|&c| ctx.max(c)).sum();
        if min_sum > hi || max_sum < lo {
            return Err(Conflict::infeasible());
        }
        let mut changed = false;
        for &c in counts {
            let (min, max) = (ctx.min(c), ctx.max(c));
            let (below, above) = (lo - (max_sum - max), hi - (min_sum - min));
            if above < ctx.max(c) {
                changed |= self.change(ctx, t, live, c, |ctx| ctx.remove_above(c, above))?;
            }
            if below > ctx.min(c) {
                changed |= self.change(ctx, t, live, c, |ctx| ctx.remove_below(c, below))?;
            }
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
        let mut t = Tallies::default();
        self.tallies(d, &mut t);
        (self.counts().iter().zip(&t.per_value)).all(|(&c, &(fixed, possible))| {
            d.next_value(c, fixed - 1).is_some_and(|v| v <= possible)
        })
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        // Without views in the scope a change to a variable changes only
        // its own part of the tallies, so they are kept up to date change by
        // change and each round reads them as they are. With views (a
        // change to a base moves its views too, whose parts would be missed)
        // they are counted again at each round, and a round narrows on the
        // tallies of its start: bounds right for wider domains stay sound.
        // Either way the loop ends on a round that changes nothing, so on
        // the same fixpoint.
        let live = !(self.scope.iter()).any(|&x| ctx.domains().view_of(x).is_some());
        let mut changed = false;
        let mut t = Tallies::default();
        self.tallies(ctx.domains(), &mut t);
        loop {
            let mut again = false;
            for (j, (&value, &c)) in self.values.iter().zip(self.counts()).enumerate() {
                ctx.note_revision();
                let (fixed, possible) = t.per_value[j];
                if fixed > ctx.min(c) {
                    again |= self.change(ctx, &mut t, live, c, |ctx| ctx.remove_below(c, fixed))?;
                }
                if possible < ctx.max(c) {
                    again |=
                        self.change(ctx, &mut t, live, c, |ctx| ctx.remove_above(c, possible))?;
                }
                if fixed == possible {
                    continue;
                }
                if ctx.max(c) == fixed {
                    // The value is full: no other variable may take it.
                    for &x in self.vars() {
                        if !ctx.is_fixed(x) && ctx.contains(x, value) {
                            again |=
                                self.change(ctx, &mut t, live, x, |ctx| ctx.remove(x, value))?;
                        }
                    }
                } else if ctx.min(c) == possible {
                    // Every variable that can take the value must.
                    for &x in self.vars() {
                        if !ctx.is_fixed(x) && ctx.contains(x, value) {
                            again |= self.change(ctx, &mut t, live, x, |ctx| ctx.fix(x, value))?;
                        }
                    }
                }
            }
            if !self.sorted.is_empty() {
                again |= self.filter_sum(ctx, &mut t, live)?;
            }
            if !again {
                break;
            }
            changed = true;
            if !live {
                self.tallies(ctx.domains(), &mut t);
            }
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
    use super::GlobalCardinality;
    use crate::{Config, Model, Pruning, Solver, Value};

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

    /// The one-pass tallies against the counts written plainly: per value,
    /// the variables fixed to it and those that can take it; and the sum
    /// bounds from each variable's values inside and outside the list.
    /// Values close together (the lookup table) and far apart (the search),
    /// repeated values, and a variable too wide to walk.
    #[test]
    fn the_one_pass_tallies_count_as_the_definition_does() {
        let mut rng = crate::rng::SplitMix64::new(7);
        let mut next = |k: u64| rng.below(k) as Value;
        for round in 0..400 {
            let mut m = Model::new();
            let mut xs: Vec<_> = (0..1 + next(6))
                .map(|_| {
                    let lo = next(8);
                    let d: Vec<Value> = (lo..lo + 1 + next(9)).filter(|_| next(3) > 0).collect();
                    m.int_var(if d.is_empty() { vec![lo] } else { d }).unwrap()
                })
                .collect();
            if round % 5 == 0 {
                xs.push(m.int_var(0..=1 << 30).unwrap());
            }
            let spread = if round % 2 == 0 { 12 } else { 1_000 };
            let values: Vec<Value> = (0..1 + next(5)).map(|_| next(spread)).collect();
            let counts = m.int_var_array("c", values.len(), 0..=9).unwrap();
            let g = GlobalCardinality::new(&xs, &values, &counts).unwrap();
            // (A variable that wide needs the propagators level.)
            let config = Config::textbook().with_pruning(Pruning::Propagators);
            let s = Solver::new(&m, config).unwrap();
            let d = s.domains();
            let mut t = super::Tallies::default();
            g.tallies(d, &mut t);
            let (tally, sum_bounds) = (&t.per_value, g.sum_bounds(&t));
            let want: Vec<(Value, Value)> = values
                .iter()
                .map(|&v| {
                    let can: Vec<_> = xs.iter().filter(|&&x| d.contains(x, v)).collect();
                    let fixed = can.iter().filter(|&&&x| d.is_fixed(x)).count();
                    (fixed as Value, can.len() as Value)
                })
                .collect();
            assert_eq!(tally, &want, "values {values:?}");
            if g.sorted.is_empty() {
                continue;
            }
            let (mut outside, mut only_outside) = (0, 0);
            for &x in &xs {
                if d.too_many_to_walk(x) {
                    outside += 1;
                    continue;
                }
                let vals: Vec<Value> = d.values(x).collect();
                outside += Value::from(vals.iter().any(|v| !values.contains(v)));
                only_outside += Value::from(vals.iter().all(|v| !values.contains(v)));
            }
            let n = xs.len() as Value;
            assert_eq!(
                sum_bounds,
                (n - outside, n - only_outside),
                "values {values:?}"
            );
        }
    }

    /// With views in the scope (a change to a base moves every view of it)
    /// the tallies are counted again at each round; without them they are
    /// kept up to date change by change. Both count as generate-and-test
    /// does, with a variable held twice and a count that is also counted.
    #[test]
    fn counts_with_and_without_views_match_generate_and_test() {
        let mut rng = crate::rng::SplitMix64::new(11);
        let mut next = |k: u64| rng.below(k) as Value;
        for round in 0..120 {
            let mut m = Model::new();
            let base: Vec<_> = (0..3)
                .map(|_| {
                    let d: Vec<Value> = (0..5).filter(|_| next(4) > 0).collect();
                    m.int_var(if d.is_empty() { vec![next(5)] } else { d })
                        .unwrap()
                })
                .collect();
            // (Every variable is declared before the first view.)
            let mut counts = m.int_var_array("c", 3, 0..=4).unwrap();
            let mut xs = base.clone();
            xs.push(base[next(3) as usize]);
            if round % 2 == 0 {
                xs[1] = m.offset_view(base[1], 1).unwrap();
                xs.push(m.view(base[2], -1, 4).unwrap());
            }
            let values = [1, 2, 3];
            counts[1] = xs[0];
            m.global_cardinality(&xs, &values, &counts).unwrap();
            let count = |pruning| {
                let config = Config::textbook().with_pruning(pruning);
                Solver::new(&m, config).unwrap().count().solutions
            };
            assert_eq!(
                count(Pruning::Propagators),
                count(Pruning::Check),
                "round {round}"
            );
        }
    }

    #[test]
    fn mismatched_lengths_are_refused() {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 2, 0..=2).unwrap();
        assert!(m.global_cardinality(&xs, &[1, 2], &xs[..1]).is_err());
    }
}
