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
/// Trailed integer 1 at the propagators level: how many positions of the
/// wake set are open (may take the value, not fixed) as of the last call.
const OPEN: usize = 1;
/// Hint 0 at the propagators level: 0 until the first call looks; then 1 if
/// the only positions that share the result's variable (or its base, for
/// views) are those of `result_at`, 2 otherwise.
const ALIAS: usize = 0;
/// The fewest variables for which the count asks the kernel for the
/// positions changed between calls: on fewer, the scan of the open
/// positions costs less than listing the changes (`carseq`, counts over 10
/// variables: +1.4% instructions with the lists, the same tree).
const WOKEN_FROM: usize = 32;

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
/// occurrences are kept in a trailed counter). From 32 variables on it also
/// keeps the open positions counted and asks the kernel for the positions
/// changed since its last call ([`StateLayout::woken`]): a call then looks
/// at those alone, and scans its open positions only after a round that
/// changed its variables.
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
    /// For each position of `vars`, the next position with the same
    /// variable (`u32::MAX` for none): the kernel lists a variable twice in
    /// the scope at its first position only.
    same: Vec<u32>,
    /// The positions of `vars` that are the result itself.
    result_at: Vec<u32>,
}

/// What a round of filtering changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Changed {
    Nothing,
    /// The result's domain only.
    Result,
    /// Some of `vars` (and maybe the result).
    Vars,
}

/// For each position of `vars`, the next position with the same variable,
/// or `u32::MAX`.
fn next_same(vars: &[VarId]) -> Vec<u32> {
    let mut next = vec![u32::MAX; vars.len()];
    let mut last: std::collections::HashMap<VarId, usize> = std::collections::HashMap::new();
    for (j, &x) in vars.iter().enumerate().rev() {
        if let Some(&k) = last.get(&x) {
            next[j] = k as u32;
        }
        last.insert(x, j);
    }
    next
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
            same: next_same(vars),
            result_at: (0..vars.len() as u32)
                .filter(|&j| vars[j as usize] == result)
                .collect(),
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
            same: next_same(vars),
            result_at: Vec::new(),
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
        if self.listed()
            && let Some((left, open)) = ctx.tally_shifted(LIST, WAKE, self.value)
        {
            let sure = out + left;
            return self.keep(ctx, (out, ctx.state_int(OPEN) as usize), sure, open);
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
        let open_before = match self.listed() {
            true => ctx.state_int(OPEN) as usize,
            false => open,
        };
        self.keep(ctx, (out, open_before), sure, open)
    }

    /// Whether the count keeps its open positions counted between calls, asks
    /// the kernel for the positions changed, and scans through the prepared
    /// list ([`WOKEN_FROM`] variables or more at the propagators level):
    /// below that, a plain scan of the open positions costs less.
    fn listed(&self) -> bool {
        self.n >= WOKEN_FROM
    }

    /// Writes the sure occurrences out of the wake set and (for a listed
    /// count) the open positions in it, where they changed from `before`;
    /// gives the tally.
    fn keep(
        &self,
        ctx: &mut PropagationContext<'_>,
        before: (usize, usize),
        sure: usize,
        open: usize,
    ) -> Tally {
        if sure != before.0 {
            ctx.set_state_int(SURE_OUT, sure as i64);
        }
        if self.listed() && open != before.1 {
            ctx.set_state_int(OPEN, open as i64);
        }
        Tally {
            sure,
            possible: sure + open,
        }
    }

    /// The tally at the propagators level from the counts of the last call
    /// and the positions changed since, given by the kernel (or `at`):
    /// each such position still in the wake set that is now decided leaves
    /// it, and the counts move. O(changes) where a scan is O(open positions).
    fn tally_woken(&self, ctx: &mut PropagationContext<'_>, at: &[u32]) -> Tally {
        let before = (
            ctx.state_int(SURE_OUT) as usize,
            ctx.state_int(OPEN) as usize,
        );
        let (mut sure, mut open) = before;
        for &first in at {
            let mut p = first as usize;
            // The result alone (`n`) moves no count.
            while p < self.n {
                if ctx.state_bit(WAKE, p)
                    && let Some(fixed) = ctx.domains().takes(self.scope[p], self.value)
                {
                    ctx.clear_state_bit(WAKE, p);
                    open -= 1;
                    sure += usize::from(fixed);
                }
                p = self.same[p] as usize;
            }
        }
        let t = self.keep(ctx, before, sure, open);
        debug_assert!(
            {
                let plain = self.tally(ctx.domains());
                (plain.sure, plain.possible) == (t.sure, t.possible)
            },
            "the counts kept by count({value}) went wrong",
            value = self.value
        );
        t
    }

    /// Whether the result's variable (or its base) appears in `vars` only at
    /// the positions of `result_at`, looked at once per solver (a hint).
    fn simple_alias(&self, ctx: &mut PropagationContext<'_>) -> bool {
        let Some(r) = self.result else {
            return true;
        };
        match ctx.state_hint(ALIAS) {
            1 => true,
            2 => false,
            _ => {
                let d = ctx.domains();
                let base = d.base_of(r);
                let simple = self.vars().iter().all(|&x| x == r || d.base_of(x) != base);
                ctx.set_state_hint(ALIAS, if simple { 1 } else { 2 });
                simple
            }
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
    /// what it changed.
    fn round(&self, ctx: &mut PropagationContext<'_>, t: Tally) -> Result<Changed, Conflict> {
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
        let result_only = if changed {
            Changed::Result
        } else {
            Changed::Nothing
        };
        if can_take && can_avoid {
            return Ok(result_only);
        }
        let mut vars_changed = false;
        for &x in self.vars() {
            if ctx.is_fixed(x) || !ctx.contains(x, self.value) {
                continue;
            }
            ctx.note_revision();
            vars_changed |= if can_take {
                ctx.fix(x, self.value)?
            } else {
                ctx.remove(x, self.value)?
            };
        }
        Ok(if vars_changed {
            Changed::Vars
        } else {
            result_only
        })
    }
}

impl Constraint for Count {
    /// At the propagators level, the wake set (one position per scope
    /// variable, all set) and the sure occurrences out of it; from
    /// 32 variables on, also the open positions in it, the
    /// variables laid out for the bulk scan, a hint and the positions
    /// changed between calls.
    fn state_layout(&self, pruning: Pruning) -> StateLayout {
        match pruning {
            Pruning::Propagators if self.listed() => StateLayout::new()
                .int(0)
                .int(0)
                .bits(self.scope.len(), true)
                .shifted(self.vars(), &vec![0; self.n])
                .hints(1, 0)
                .woken(),
            Pruning::Propagators => StateLayout::new().int(0).bits(self.scope.len(), true),
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
        let kernel = ctx.pruning() == Pruning::Propagators;
        // At the propagators level the counts of the last call, moved by the
        // positions changed since, when the kernel lists them.
        let mut t = match kernel {
            true => match ctx.take_woken() {
                Some(at) => self.tally_woken(ctx, &at),
                None => self.tally_watched(ctx),
            },
            false => self.tally(ctx.domains()),
        };
        // Until a round changes nothing: then `t` is the tally of the
        // domains as they are (and the wake set holds only open positions;
        // the counts kept count this call's own changes, which backtracking
        // would otherwise separate from the list of changed positions).
        loop {
            let what = self.round(ctx, t)?;
            if what == Changed::Nothing {
                break;
            }
            changed = true;
            t = match kernel {
                // Only the result moved: only its own positions can have.
                true if what == Changed::Result && self.listed() && self.simple_alias(ctx) => {
                    self.tally_woken(ctx, &self.result_at)
                }
                true => self.tally_watched(ctx),
                false => self.tally(ctx.domains()),
            };
        }
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

    /// 34 variables (a count that keeps its lists) in two values at an end
    /// of `i64`, the counted value that end: at most two of them take it.
    #[test]
    fn long_counts_at_the_ends_of_i64_match_the_formula() {
        // C(34, 0) + C(34, 1) + C(34, 2).
        let expected = 1 + 34 + 561;
        for (values, value) in [
            ([Value::MAX - 1, Value::MAX], Value::MAX),
            ([Value::MIN, Value::MIN + 1], Value::MIN),
            ([Value::MAX - 1, Value::MAX], Value::MAX - 1),
        ] {
            for pruning in [Pruning::ForwardChecking, Pruning::Propagators] {
                let mut m = Model::new();
                let xs: Vec<VarId> = (0..34).map(|_| m.int_var(values).unwrap()).collect();
                let r = m.int_var(0..=2).unwrap();
                m.count(&xs, value, r).unwrap();
                let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
                let count = s.count();
                assert!(count.is_complete());
                assert_eq!(count.solutions, expected, "value {value}, {pruning}");
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
