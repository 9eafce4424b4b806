//! Counting: how many variables of an array take a given value.

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::{
    Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Pruning, StateLayout,
    Value, VarId,
};

/// The wake set (bit set 0 of the state at the propagators level): the
/// positions whose changes can still move the tally.
const WAKE: usize = 0;
/// Shifted list 0 at the propagators level: `vars` with no offset, laid out
/// for the bulk scan ([`PropagationContext::tally_shifted`]).
const LIST: usize = 0;
/// Trailed integer 0 at the propagators level: how many positions left the
/// wake set fixed to the value (the sure occurrences the tally no longer scans).
const SURE_OUT: usize = 0;

/// The number of `vars` equal to `value` is `result`, or lies within constant
/// bounds: posted by [`Model::count`], [`Model::at_most`] and
/// [`Model::at_least`].
///
/// With `sure` the variables fixed to `value` and `possible` those that can
/// still take it, `promising` asks that the count's domain meet
/// `[sure, possible]`. Propagation, the same at every level from forward
/// checking up, keeps the counts in `[sure, possible]`, removes `value` from the
/// open variables when no count above `sure` is left, and fixes them to `value`
/// when no count below `possible` is left: generalised arc consistency when the
/// variables are distinct.
///
/// At the propagators level a variable that can no longer take `value`, or is
/// fixed to it, leaves the constraint's wake set (Gecode's count propagators
/// cancel their subscription to it): its changes no longer wake the
/// constraint, and the constraint no longer adds to its accumulated failure
/// count ([`SearchView::afc`](crate::branching::SearchView::afc)), and
/// each call scans only the positions left in the set (the others' sure
/// occurrences are kept in a trailed counter).
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// use csp_core::constraints::Count;
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 3, 0..=1)?;
/// m.post(Count::at_most(&xs, 1, 1))?;
/// // 000, 100, 010, 001.
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 4);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// `vars`, then `result` if there is one.
    scope: Vec<VarId>,
    /// Number of `vars`.
    n: usize,
    value: Value,
    /// `Some` for `count = result`; `None` for constant bounds.
    result: Option<VarId>,
    /// The constant bounds on the count (`0..=n` with a result).
    lo: usize,
    hi: usize,
}

/// The counts the current domains allow.
#[derive(Clone, Copy, Debug)]
struct Tally {
    /// Variables fixed to the value.
    sure: usize,
    /// Variables that contain it.
    possible: usize,
}

impl Count {
    /// `result` = the number of `vars` equal to `value`.
    pub fn new(vars: &[VarId], value: Value, result: VarId) -> Self {
        let mut scope = vars.to_vec();
        scope.push(result);
        Count {
            scope,
            n: vars.len(),
            value,
            result: Some(result),
            lo: 0,
            hi: vars.len(),
        }
    }

    /// At most `n` of `vars` equal `value`.
    pub fn at_most(vars: &[VarId], value: Value, n: usize) -> Self {
        Self::bounded(vars, value, 0, n)
    }

    /// At least `n` of `vars` equal `value`.
    pub fn at_least(vars: &[VarId], value: Value, n: usize) -> Self {
        Self::bounded(vars, value, n, usize::MAX)
    }

    fn bounded(vars: &[VarId], value: Value, lo: usize, hi: usize) -> Self {
        Count {
            scope: vars.to_vec(),
            n: vars.len(),
            value,
            result: None,
            lo,
            hi,
        }
    }

    fn vars(&self) -> &[VarId] {
        &self.scope[..self.n]
    }

    fn tally(&self, d: &Domains) -> Tally {
        let mut t = Tally {
            sure: 0,
            possible: 0,
        };
        for &x in self.vars() {
            self.add(d, x, &mut t);
        }
        t
    }

    #[inline]
    fn add(&self, d: &Domains, x: VarId, t: &mut Tally) {
        if d.contains(x, self.value) {
            t.possible += 1;
            if d.is_fixed(x) {
                t.sure += 1;
            }
        }
    }

    /// The tally at the propagators level, where the positions out of the
    /// wake set are decided (their sure occurrences kept in `SURE_OUT`): it
    /// scans only the others, and takes those now decided with respect to the
    /// value (fixed, or unable to take it) out of the set as it goes, one
    /// trailed word per word that changes.
    fn tally_watched(&self, ctx: &mut PropagationContext<'_>) -> Tally {
        let out = ctx.state_int(SURE_OUT) as usize;
        if let Some((left, open)) = ctx.tally_shifted(LIST, WAKE, self.value) {
            let sure = out + left;
            if left != 0 {
                ctx.set_state_int(SURE_OUT, sure as i64);
            }
            return Tally {
                sure,
                possible: sure + open,
            };
        }
        let (mut sure, mut open) = (out, 0);
        for chunk in 0..ctx.state_bits(WAKE).len() {
            let word = ctx.state_bits(WAKE)[chunk];
            let (mut live, mut keep) = (word, word);
            let d = ctx.domains();
            while live != 0 {
                let bit = live.trailing_zeros() as usize;
                live &= live - 1;
                let pos = chunk * 64 + bit;
                // The result's position (`n`) stays: its changes matter.
                let Some(&x) = self.vars().get(pos) else {
                    continue;
                };
                match d.takes(x, self.value) {
                    None => open += 1,
                    Some(fixed) => {
                        keep &= !(1 << bit);
                        sure += usize::from(fixed);
                    }
                }
            }
            if keep != word {
                ctx.set_state_word(WAKE, chunk, keep);
            }
        }
        if sure != out {
            ctx.set_state_int(SURE_OUT, sure as i64);
        }
        Tally {
            sure,
            possible: sure + open,
        }
    }

    fn current(&self, ctx: &mut PropagationContext<'_>) -> Tally {
        if ctx.pruning() == Pruning::Propagators {
            self.tally_watched(ctx)
        } else {
            self.tally(ctx.domains())
        }
    }

    /// Whether a count in `from..=to` is allowed by the result's domain or the
    /// bounds.
    fn allows(&self, d: &Domains, from: usize, to: usize) -> bool {
        let (from, to) = (from.max(self.lo), to.min(self.hi));
        if from > to {
            return false;
        }
        match self.result {
            None => true,
            Some(r) => d
                .next_value(r, from as Value - 1)
                .is_some_and(|c| c <= to as Value),
        }
    }

    /// One round of filtering from the tally `t` of the current domains;
    /// whether anything changed.
    fn round(&self, ctx: &mut PropagationContext<'_>, t: Tally) -> Result<bool, Conflict> {
        let mut changed = false;
        // An open variable taking the value makes the count at least sure + 1;
        // avoiding it, at most possible - 1: whether such counts are left.
        let (above, below) = match self.result {
            Some(r) => {
                ctx.note_revision();
                changed |= ctx.remove_below(r, t.sure as Value)?;
                changed |= ctx.remove_above(r, t.possible as Value)?;
                // The result now lies within `sure..=possible` (a wipeout
                // failed above), so its bounds answer `allows`.
                let d = ctx.domains();
                (d.max(r) > t.sure as Value, d.min(r) < t.possible as Value)
            }
            None => {
                if !self.allows(ctx.domains(), t.sure, t.possible) {
                    return Err(Conflict::infeasible());
                }
                (
                    self.allows(ctx.domains(), t.sure + 1, t.possible),
                    t.possible > 0 && self.allows(ctx.domains(), t.sure, t.possible - 1),
                )
            }
        };
        let can_take = t.possible > t.sure && above;
        let can_avoid = t.possible > t.sure && below;
        if can_take && can_avoid {
            return Ok(changed);
        }
        for &x in self.vars() {
            if ctx.is_fixed(x) || !ctx.contains(x, self.value) {
                continue;
            }
            ctx.note_revision();
            changed |= if can_take {
                ctx.fix(x, self.value)?
            } else {
                ctx.remove(x, self.value)?
            };
        }
        Ok(changed)
    }
}

impl Constraint for Count {
    /// At the propagators level, the wake set (one position per scope
    /// variable, all set), the sure occurrences out of it, and the variables
    /// laid out for the bulk scan.
    fn state_layout(&self, pruning: Pruning) -> StateLayout {
        match pruning {
            Pruning::Propagators => StateLayout::new()
                .int(0)
                .bits(self.scope.len(), true)
                .shifted(self.vars(), &vec![0; self.n]),
            _ => StateLayout::new(),
        }
    }

    /// A variable decided with respect to the value does not wake it.
    fn wake_set(&self) -> Option<usize> {
        Some(WAKE)
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        let count = values[..self.n]
            .iter()
            .filter(|&&v| v == self.value)
            .count();
        let in_bounds = (self.lo..=self.hi).contains(&count);
        match self.result {
            Some(_) => in_bounds && values.get(self.n) == Some(&(count as Value)),
            None => in_bounds,
        }
    }

    fn name(&self) -> &str {
        match (self.result, self.lo) {
            (Some(_), _) => "count",
            (None, 0) => "at-most",
            (None, _) => "at-least",
        }
    }

    fn promising(&self, d: &Domains) -> bool {
        let t = self.tally(d);
        self.allows(d, t.sure, t.possible)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let mut changed = false;
        // Until a round changes nothing: then `t` is the tally of the
        // domains as they are (and the wake set holds only open positions).
        let t = loop {
            let t = self.current(ctx);
            if !self.round(ctx, t)? {
                break t;
            }
            changed = true;
        };
        let settled = match self.result {
            Some(r) => t.sure == t.possible && ctx.is_fixed(r),
            None => t.sure >= self.lo && t.possible <= self.hi,
        };
        Ok(if settled {
            PropStatus::Entailed
        } else if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

/// Counting constraints, posted as [`Count`].
impl Model {
    /// `result` = the number of `vars` equal to `value`.
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let xs = m.int_var_array("x", 4, 1..=3)?;
    /// let twos = m.int_var(0..=4)?;
    /// m.count(&xs, 2, twos)?;
    /// let two = m.constant(2)?;
    /// m.equal(twos, two)?;
    /// // Choose the 2 places of the 2s (6 ways), then 1 or 3 elsewhere (4 ways).
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 24);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn count(
        &mut self,
        vars: &[VarId],
        value: Value,
        result: VarId,
    ) -> Result<ConstraintId, CspError> {
        self.post(Count::new(vars, value, result))
    }

    /// At most `n` of `vars` equal `value` ("at most 2 exams per slot").
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let exams = m.int_var_array("slot", 3, 0..=1)?;
    /// for slot in 0..=1 {
    ///     m.at_most(&exams, slot, 2)?;
    /// }
    /// // Every assignment but "all in slot 0" and "all in slot 1".
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 6);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn at_most(
        &mut self,
        vars: &[VarId],
        value: Value,
        n: usize,
    ) -> Result<ConstraintId, CspError> {
        self.post(Count::at_most(vars, value, n))
    }

    /// At least `n` of `vars` equal `value`.
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let xs = m.int_var_array("x", 3, 0..=1)?;
    /// m.at_least(&xs, 1, 2)?;
    /// // 110, 101, 011, 111.
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 4);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn at_least(
        &mut self,
        vars: &[VarId],
        value: Value,
        n: usize,
    ) -> Result<ConstraintId, CspError> {
        self.post(Count::at_least(vars, value, n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Pruning, Solver};

    #[test]
    fn a_full_slot_removes_the_value_from_the_open_variables() {
        let mut m = Model::new();
        let a = m.int_var([0]).unwrap();
        let b = m.int_var([0]).unwrap();
        let c = m.int_var(0..=2).unwrap();
        m.at_most(&[a, b, c], 0, 2).unwrap();
        let s = Solver::new(
            &m,
            Config::textbook().with_pruning(Pruning::ForwardChecking),
        )
        .unwrap();
        assert_eq!(s.domains().values(c).collect::<Vec<_>>(), vec![1, 2]);
    }

    #[test]
    fn a_count_with_a_hole_forces_the_open_variables() {
        // count in {0, 3} with one variable already 5: all three must be 5.
        let mut m = Model::new();
        let xs = [
            m.int_var([5]).unwrap(),
            m.int_var(4..=6).unwrap(),
            m.int_var(5..=9).unwrap(),
        ];
        let r = m.int_var([0, 3]).unwrap();
        m.count(&xs, 5, r).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        assert!(xs.iter().all(|&x| s.domains().value(x) == Some(5)));
        assert_eq!(s.domains().value(r), Some(3));
    }

    /// 70 counted variables (two words of the wake set, the result's
    /// position past them), plain or views `x + 5` of variables in `0..=2`,
    /// all in `{5, 6, 7}`; with `scaled`, one of them `2x + 2` instead (in
    /// `{2, 4, 6}`), which has no place in the bulk scan's list, so the
    /// count scans the domains one by one. 68 or 69 of them equal 6: the
    /// others take either of their two other values.
    fn wide_count(scaled: bool) -> Model {
        let mut m = Model::new();
        let viewed = |j: usize| j % 3 == 0 || (scaled && j == 64);
        // Every variable before the first view.
        let vars: Vec<VarId> = (0..70)
            .map(|j| match viewed(j) {
                true => m.int_var(0..=2).unwrap(),
                false => m.int_var(5..=7).unwrap(),
            })
            .collect();
        let r = m.int_var([68, 69]).unwrap();
        let mut xs = Vec::new();
        for (j, &x) in vars.iter().enumerate() {
            xs.push(match j % 3 {
                0 => m.offset_view(x, 5).unwrap(),
                _ if viewed(j) => m.view(x, 2, 2).unwrap(),
                _ => x,
            });
        }
        m.count(&xs, 6, r).unwrap();
        m
    }

    #[test]
    fn counts_over_two_words_of_positions_and_views_match_the_formula() {
        // C(70, 2) * 2^2 + C(70, 1) * 2.
        let expected = 2415 * 4 + 70 * 2;
        for scaled in [false, true] {
            for pruning in [Pruning::ForwardChecking, Pruning::Propagators] {
                let m = wide_count(scaled);
                let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
                let count = s.count();
                assert!(count.is_complete());
                assert_eq!(count.solutions, expected, "scaled {scaled}, {pruning}");
            }
        }
    }

    #[test]
    fn at_least_more_than_the_array_has_no_solution() {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 2, 0..=1).unwrap();
        m.at_least(&xs, 1, 3).unwrap();
        for pruning in Pruning::ALL {
            let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
            assert_eq!(s.count().solutions, 0, "{pruning}");
        }
    }
}
