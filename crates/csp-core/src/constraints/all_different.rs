//! All-different over `x_i + o_i`: value elimination, and Régin's matching filter.

use smallvec::SmallVec;

use crate::constraint::{Conflict, Pairwise, PropCost, PropStatus, Propagation};
use crate::constraints::matching::{self, Matching};
use crate::constraints::small_matching;
use crate::{
    Constraint, CspError, Domains, Events, ForwardStep, PropagationContext, Pruning, StateLayout,
    Value, VarId,
};

/// The values `x_i + offset_i` are pairwise different.
///
/// With all offsets zero this is the classic all-different. Offsets express the
/// N-Queens diagonals without extra variables: `q_i + i` and `q_i - i` all differ.
///
/// Filtering by pruning level:
/// - forward checking: the value of the variable just assigned is removed from the
///   others;
/// - arc consistency: the same, cascading whenever a variable becomes fixed (the arc
///   consistency of the pairwise `!=` decomposition);
/// - propagators: that, then Régin's matching-based filter, which removes every
///   value that cannot appear in any solution of the constraint (generalised arc
///   consistency). Up to 64 variables whose shifted values lie within 64 of each
///   other, it works on one machine word per domain (bit masks, no graph).
///
/// At the propagators level value elimination is incremental: a trailed set
/// keeps the positions whose fixed value has not yet left the others, so each
/// fixed variable's value is removed once along a branch, not at every call.
///
/// [`values_only`](AllDifferent::values_only) leaves Régin's filter out: at
/// the propagators level it filters as arc consistency does (value
/// elimination, cascading), woken only when a variable becomes fixed and
/// queued with the linear-cost constraints (Gecode's default for `distinct`,
/// `IPL_VAL`); the other levels are unchanged.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 3, 0..=2)?;
/// m.all_different(&xs)?;
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 6);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllDifferent {
    vars: Vec<VarId>,
    offsets: Vec<Value>,
    /// Whether every offset is below 2^61 in magnitude (then `v - o` cannot
    /// overflow for `|v| < 2^61`, and the fast path applies).
    small_offsets: bool,
    /// Whether forward checking keeps the undecided positions in its trailed
    /// state (bit set [`WAITING`]) and skips the decided ones: no variable
    /// repeats, and no shifted value can overflow.
    skips_decided: bool,
    /// Whether the propagators level runs Régin's filter (not with
    /// [`values_only`](AllDifferent::values_only)).
    matching: bool,
}

/// The trailed bit set of the positions whose variable is not decided yet
/// (kept by forward checking, when `skips_decided`).
const WAITING: usize = 0;
/// The scope with its offsets, as a shifted list of the trailed state.
const SCOPE: usize = 0;

/// Whether no variable occurs twice.
fn distinct(vars: &[VarId]) -> bool {
    let mut seen = vars.to_vec();
    seen.sort_unstable();
    seen.windows(2).all(|w| w[0] != w[1])
}

/// Magnitude below which `value - offset` cannot overflow.
const SAFE: Value = 1 << 61;

impl AllDifferent {
    /// All of `vars` take different values.
    pub fn new(vars: &[VarId]) -> Self {
        AllDifferent {
            vars: vars.to_vec(),
            offsets: vec![0; vars.len()],
            small_offsets: true,
            skips_decided: distinct(vars),
            matching: true,
        }
    }

    /// All of `vars[i] + offsets[i]` are different.
    pub fn with_offsets(vars: &[VarId], offsets: &[Value]) -> Result<Self, CspError> {
        if vars.len() != offsets.len() {
            return Err(CspError::LengthMismatch {
                context: "all-different".into(),
                what: "offsets".into(),
                expected: vars.len(),
                got: offsets.len(),
            });
        }
        let small_offsets = offsets.iter().all(|o| (-SAFE..SAFE).contains(o));
        Ok(AllDifferent {
            vars: vars.to_vec(),
            offsets: offsets.to_vec(),
            small_offsets,
            skips_decided: small_offsets && distinct(vars),
            matching: true,
        })
    }

    /// The same constraint filtered by value elimination alone at every level
    /// (Régin's filter left out).
    ///
    /// ```
    /// use csp_core::constraints::AllDifferent;
    /// use csp_core::{Config, Model, Pruning, Solver};
    /// // x, y in {1, 2} leave z only 3, but only Régin's filter sees it.
    /// let mut m = Model::new();
    /// let (x, y, z) = (m.int_var(1..=2)?, m.int_var(1..=2)?, m.int_var(1..=3)?);
    /// m.all_different_by_value(&[x, y, z])?;
    /// let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators))?;
    /// assert_eq!(s.domains().len(z), 3);
    /// assert!(AllDifferent::new(&[x, y, z]).values_only().is_values_only());
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn values_only(mut self) -> Self {
        self.matching = false;
        self
    }

    /// Whether this constraint leaves Régin's filter out
    /// ([`values_only`](AllDifferent::values_only)).
    pub fn is_values_only(&self) -> bool {
        !self.matching
    }

    /// The offsets `o_i`.
    pub fn offsets(&self) -> &[Value] {
        &self.offsets
    }

    #[inline]
    fn shifted(&self, i: usize, v: Value) -> i128 {
        i128::from(v) + i128::from(self.offsets[i])
    }

    /// Removes `value` (a shifted value) from every variable but `skip`.
    #[inline]
    pub(crate) fn eliminate(
        &self,
        ctx: &mut PropagationContext<'_>,
        skip: usize,
        value: i128,
    ) -> Result<bool, Conflict> {
        // One revision per other variable whose domain loses the value.
        ctx.note_revisions(self.vars.len().saturating_sub(1) as u64);
        let mut changed = false;
        match Value::try_from(value) {
            // The common case: plain 64-bit arithmetic that cannot overflow.
            Ok(value) if self.small_offsets && (-SAFE..SAFE).contains(&value) => {
                changed = ctx.remove_shifted(&self.vars, &self.offsets, value, skip)?;
            }
            _ => {
                for (j, (&y, &o)) in self.vars.iter().zip(&self.offsets).enumerate() {
                    if j != skip
                        && let Ok(w) = Value::try_from(value - i128::from(o))
                    {
                        changed |= ctx.remove(y, w)?;
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Value elimination to a fixpoint: every fixed variable's value leaves the
    /// others, including variables that became fixed on the way. `own`: the
    /// running constraint is this one (not one that embeds it), so its
    /// trailed state is at hand.
    fn eliminate_fixed(&self, ctx: &mut PropagationContext<'_>, own: bool) -> Propagation {
        if own && self.skips_decided && ctx.pruning() == Pruning::Propagators {
            return self.eliminate_waiting(ctx);
        }
        let n = self.vars.len();
        let mut done: SmallVec<[bool; 32]> = SmallVec::from_elem(false, n);
        let mut changed = false;
        loop {
            let mut progress = false;
            for i in 0..n {
                if done[i] {
                    continue;
                }
                if let Some(v) = ctx.value(self.vars[i]) {
                    done[i] = true;
                    progress = true;
                    changed |= self.eliminate(ctx, i, self.shifted(i, v))?;
                }
            }
            if !progress {
                break;
            }
        }
        if done.iter().all(|&d| d) {
            return Ok(PropStatus::Entailed);
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }

    /// [`eliminate_fixed`](Self::eliminate_fixed) under the propagators
    /// level, incrementally: the trailed set [`WAITING`] holds the positions
    /// whose value has not left the others yet. A fixed position in it
    /// leaves it, and its value leaves the positions still in it (those out
    /// of it are fixed, to values already removed from the rest, so they
    /// cannot hold this one unless it was removed from them first); each
    /// fixed variable's value is thus removed once per branch, not at every
    /// call (Gecode's value propagation keeps its assigned views apart the
    /// same way).
    fn eliminate_waiting(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let n = self.vars.len();
        let mut changed = false;
        loop {
            let mut progress = false;
            let words: SmallVec<[u64; 4]> = ctx.state_bits(WAITING).into();
            for (chunk, &word) in words.iter().enumerate() {
                let mut live = word;
                while live != 0 {
                    let i = chunk * 64 + live.trailing_zeros() as usize;
                    live &= live - 1;
                    let Some(v) = ctx.value(self.vars[i]) else {
                        continue;
                    };
                    progress = true;
                    ctx.clear_state_bit(WAITING, i);
                    ctx.note_revisions(n as u64 - 1);
                    let value = self.shifted(i, v);
                    let waiting: SmallVec<[u64; 4]> = ctx.state_bits(WAITING).into();
                    for (c, &w) in waiting.iter().enumerate() {
                        let mut rest = w;
                        while rest != 0 {
                            let j = c * 64 + rest.trailing_zeros() as usize;
                            rest &= rest - 1;
                            if let Ok(w) = Value::try_from(value - i128::from(self.offsets[j])) {
                                changed |= ctx.remove(self.vars[j], w)?;
                            }
                        }
                    }
                }
            }
            if !progress {
                break;
            }
        }
        if ctx.state_bits(WAITING).iter().all(|&w| w == 0) {
            return Ok(PropStatus::Entailed);
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }

    /// Whether Régin's filter can be skipped after value elimination: it
    /// would remove nothing and find no conflict. With the fixed variables'
    /// values gone from the others (each fixed variable a component of its
    /// own), a value leaves an unfixed variable only through a Hall set of
    /// others: `k` unfixed variables whose domains together hold `k` values,
    /// `k` less than the number `m` of unfixed variables, hence `k`
    /// variables of at most `k` values each. If no `k < m` has that many,
    /// there is no Hall set, and every set of variables has at least as many
    /// values as variables (a set of `k < m` has one of more than `k` values;
    /// all `m` have two of `m` values or more), so all can be matched (Hall's
    /// theorem). Checked in O(m) from the domain sizes; the exhaustive
    /// harness checks that the filter stays domain consistent.
    fn no_hall_set(&self, ctx: &PropagationContext<'_>) -> bool {
        let m = self.vars.iter().filter(|&&x| !ctx.is_fixed(x)).count();
        // by_size[s]: the unfixed variables of s < m values.
        let mut by_size: SmallVec<[u32; 64]> = SmallVec::from_elem(0, m);
        for &x in &self.vars {
            let len = ctx.len(x);
            if len > 1 && len < m {
                by_size[len] += 1;
            }
        }
        let mut at_most = 0;
        for (k, &count) in by_size.iter().enumerate().skip(1) {
            at_most += count as usize;
            if at_most >= k {
                return false;
            }
        }
        true
    }

    /// Régin's filter: keeps a value only if some maximum matching of variables to
    /// values uses it.
    fn matching_filter(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if ctx.should_stop() {
            return Ok(PropStatus::Unchanged);
        }
        // Up to 64 variables within a window of 64 values: one word each,
        // from their bounds alone (a wider domain cannot fit the window).
        if self.vars.len() <= small_matching::WORD {
            let (mut lo, mut hi) = (i128::MAX, i128::MIN);
            for (i, &x) in self.vars.iter().enumerate() {
                lo = lo.min(self.shifted(i, ctx.min(x)));
                hi = hi.max(self.shifted(i, ctx.max(x)));
            }
            if hi - lo < small_matching::WORD as i128 {
                if let Some(result) = small_matching::filter(ctx, &self.vars, &self.offsets, lo) {
                    return result;
                }
            }
        }
        // The graph's memory, charged to the memory limit before it is built.
        let (mut edges, mut words, mut lo, mut hi) = (0usize, 0usize, i128::MAX, i128::MIN);
        for (i, &x) in self.vars.iter().enumerate() {
            if ctx.too_many_to_walk(x) {
                // A domain too large to list (a wide variable's): value
                // elimination alone, until it is smaller.
                return Ok(PropStatus::Unchanged);
            }
            let len = ctx.len(x);
            edges = edges.saturating_add(len);
            words = words.saturating_add(matching::words_needed(len, ctx.min(x), ctx.max(x)));
            let (a, b) = (self.shifted(i, ctx.min(x)), self.shifted(i, ctx.max(x)));
            lo = lo.min(a.min(b));
            hi = hi.max(a.max(b));
        }
        let span = usize::try_from(hi.saturating_sub(lo).saturating_add(1)).unwrap_or(usize::MAX);
        let graph = matching::bytes_needed(self.vars.len(), words, edges, span);
        if !ctx.charge(graph) {
            return Ok(PropStatus::Unchanged);
        }
        // The list of removals takes what the graph leaves of the limit.
        const REMOVAL: usize = std::mem::size_of::<(usize, i128)>();
        let room = ctx.memory_left().saturating_sub(graph) / REMOVAL;
        let mut removals = Vec::new();
        let shift = |i: usize, v: Value| self.shifted(i, v);
        let (domains, changes) = ctx.domains_and_changes();
        let mut stop = || changes.poll();
        // This constraint's key for the matching kept between calls: the
        // address of its scope, which does not move while it lives (a later
        // constraint at the same address starts from a stale matching, which
        // is checked like any other).
        let key = self.vars.as_ptr() as usize;
        match matching::unsupported(
            key,
            &self.vars,
            domains,
            &shift,
            &mut stop,
            room,
            &mut removals,
        ) {
            Matching::Removals => {}
            Matching::Infeasible => return Err(Conflict::infeasible()),
            // The search is stopping: filtering less is always sound.
            Matching::Interrupted => return Ok(PropStatus::Unchanged),
            // One more removal than fits: the charge fails, and the search
            // stops on the memory limit (filtering less is sound).
            Matching::OverBudget => {
                let fits = ctx
                    .charge(graph.saturating_add(room.saturating_add(1).saturating_mul(REMOVAL)));
                debug_assert!(!fits);
                return Ok(PropStatus::Unchanged);
            }
        }
        // One revision per variable: the matching examined every domain.
        ctx.note_revisions(self.vars.len() as u64);
        let mut changed = false;
        for (i, value) in removals {
            if let Ok(w) = Value::try_from(value - i128::from(self.offsets[i])) {
                changed |= ctx.remove(self.vars[i], w)?;
            }
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

impl AllDifferent {
    /// This constraint's filtering for a constraint that embeds it and calls
    /// it from its own `propagate` (circuit, inverse): the same removals as
    /// [`propagate`](Constraint::propagate), without the trailed state, which
    /// belongs to the running constraint.
    pub fn propagate_embedded(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        self.filter(ctx, false)
    }

    /// Régin's filter alone (with its Hall-set pre-check), for a constraint
    /// that embeds this one and has already removed every fixed variable's
    /// (shifted) value from the others (inverse does it incrementally).
    pub(crate) fn matching_embedded(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if self.no_hall_set(ctx) {
            Ok(PropStatus::Unchanged)
        } else {
            self.matching_filter(ctx)
        }
    }

    /// Value elimination alone, whatever the level: every fixed variable's
    /// (shifted) value leaves the others, to a fixpoint. Stateless, like
    /// [`propagate_embedded`](AllDifferent::propagate_embedded), for a
    /// constraint that embeds this one.
    pub fn propagate_values_embedded(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        self.eliminate_fixed(ctx, false)
    }

    /// Everything but the hot path of [`propagate`](Constraint::propagate):
    /// the filtering without the trailed state.
    #[inline(never)]
    fn filter(&self, ctx: &mut PropagationContext<'_>, own: bool) -> Propagation {
        match ctx.pruning() {
            Pruning::ForwardChecking => match ctx.trigger() {
                Some((x, i)) => {
                    let Some(v) = ctx.value(x) else {
                        return Ok(PropStatus::Unchanged);
                    };
                    let mut changed = self.eliminate(ctx, i, self.shifted(i, v))?;
                    // A variable listed twice: its other positions are fixed too,
                    // and no later trigger will eliminate their values.
                    for j in i + 1..self.vars.len() {
                        if self.vars[j] == x {
                            changed |= self.eliminate(ctx, j, self.shifted(j, v))?;
                        }
                    }
                    Ok(if changed {
                        PropStatus::Changed
                    } else {
                        PropStatus::Unchanged
                    })
                }
                None => self.eliminate_fixed(ctx, own),
            },
            Pruning::Propagators if self.matching => {
                let first = self.eliminate_fixed(ctx, own)?;
                if first == PropStatus::Entailed {
                    return Ok(first);
                }
                let second = if self.no_hall_set(ctx) {
                    PropStatus::Unchanged
                } else {
                    self.matching_filter(ctx)?
                };
                Ok(
                    if first == PropStatus::Changed || second == PropStatus::Changed {
                        PropStatus::Changed
                    } else {
                        PropStatus::Unchanged
                    },
                )
            }
            _ => self.eliminate_fixed(ctx, own),
        }
    }
}

impl Constraint for AllDifferent {
    fn cost(&self) -> PropCost {
        if self.matching {
            PropCost::Expensive
        } else {
            PropCost::Linear
        }
    }

    /// Any change for Régin's filter; a variable becoming fixed for value
    /// elimination alone.
    fn events(&self, _pos: usize) -> Events {
        if self.matching {
            Events::DOMAIN
        } else {
            Events::FIXED
        }
    }

    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[Value]) -> bool {
        let mut s: SmallVec<[i128; 32]> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| self.shifted(i, v))
            .collect();
        s.sort_unstable();
        s.windows(2).all(|w| w[0] != w[1])
    }

    fn name(&self) -> &str {
        "all-different"
    }

    fn state_layout(&self, _pruning: Pruning) -> StateLayout {
        // Also under other levels: a value heuristic's probe runs forward
        // checking whatever the level.
        if self.skips_decided {
            StateLayout::new()
                .bits(self.vars.len(), true)
                .shifted(&self.vars, &self.offsets)
        } else {
            StateLayout::new()
        }
    }

    fn forward_step(&self) -> Option<ForwardStep> {
        // The layout's list and set, under the same condition.
        self.skips_decided.then_some(ForwardStep {
            list: SCOPE,
            set: WAITING,
        })
    }

    fn promising(&self, d: &Domains) -> bool {
        let mut s: SmallVec<[i128; 32]> = SmallVec::new();
        for (i, &x) in self.vars.iter().enumerate() {
            if let Some(v) = d.value(x) {
                s.push(self.shifted(i, v));
            }
        }
        s.sort_unstable();
        s.windows(2).all(|w| w[0] != w[1])
    }

    fn pairwise(&self) -> Option<&dyn Pairwise> {
        Some(self)
    }

    #[inline]
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        // The hot path of forward checking, kept small: a decision's value
        // leaves the undecided variables (the trailed waiting set).
        if self.skips_decided
            && ctx.pruning() == Pruning::ForwardChecking
            && let Some((x, i)) = ctx.trigger()
            && let Some(v) = ctx.value(x)
            && let Some(shifted) = v.checked_add(self.offsets[i])
            && (-SAFE..SAFE).contains(&shifted)
        {
            let changed = ctx.forward_check_shifted(SCOPE, WAITING, i, shifted)?;
            return Ok(if changed {
                PropStatus::Changed
            } else {
                PropStatus::Unchanged
            });
        }
        self.filter(ctx, true)
    }
}

impl Pairwise for AllDifferent {
    /// Positions `i` and `j` conflict when their shifted values are equal.
    fn conflict(&self, i: usize, vi: Value, j: usize, vj: Value) -> bool {
        i != j && self.shifted(i, vi) == self.shifted(j, vj)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Solver};

    #[test]
    fn matching_filter_removes_values_taken_by_a_hall_set() {
        // x, y in {1, 2} force z out of {1, 2}.
        let mut m = Model::new();
        let x = m.int_var(1..=2).unwrap();
        let y = m.int_var(1..=2).unwrap();
        let z = m.int_var(1..=3).unwrap();
        m.all_different(&[x, y, z]).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        assert_eq!(s.domains().value(z), Some(3));
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::ArcConsistency)).unwrap();
        assert_eq!(s.domains().len(z), 3);
    }

    /// Value elimination alone: the same solutions as Régin's filter on
    /// random small models (brute force: the count with plain checking),
    /// never smaller domains after the root propagation, and at least as
    /// many values tried; last, a Hall set only Régin's filter sees.
    #[test]
    fn values_only_finds_the_same_solutions_with_weaker_filtering() {
        let mut rng = crate::rng::SplitMix64::new(11);
        for case in 0..300 {
            let n = 3 + (rng.next_u64() % 4) as usize;
            let doms: Vec<Vec<i64>> = (0..n)
                .map(|_| {
                    let mut d: Vec<i64> = (0..5).filter(|_| rng.next_u64() % 3 != 0).collect();
                    if d.is_empty() {
                        d.push((rng.next_u64() % 5) as i64);
                    }
                    d
                })
                .collect();
            let build = |by_value: bool| {
                let mut m = Model::new();
                let xs: Vec<_> = doms.iter().map(|d| m.int_var(d.clone()).unwrap()).collect();
                if by_value {
                    m.all_different_by_value(&xs).unwrap();
                } else {
                    m.all_different(&xs).unwrap();
                }
                (m, xs)
            };
            let (regin, xs) = build(false);
            let (values, _) = build(true);
            let checked = Solver::new(&values, Config::textbook().with_pruning(Pruning::Check))
                .unwrap()
                .count();
            let propagators = Config::textbook().with_pruning(Pruning::Propagators);
            let a = Solver::new(&regin, propagators.clone()).unwrap().count();
            let b = Solver::new(&values, propagators.clone()).unwrap().count();
            assert_eq!(a.solutions, checked.solutions, "case {case}: {doms:?}");
            assert_eq!(b.solutions, checked.solutions, "case {case}: {doms:?}");
            assert!(b.stats.tried >= a.stats.tried, "case {case}: {doms:?}");
            let (sa, sb) = (
                Solver::new(&regin, propagators.clone()).unwrap(),
                Solver::new(&values, propagators).unwrap(),
            );
            for &x in &xs {
                assert!(sb.domains().len(x) >= sa.domains().len(x), "case {case}");
            }
        }
        // x, y in {1, 2}: z keeps 1 and 2 without the matching.
        let mut m = Model::new();
        let x = m.int_var(1..=2).unwrap();
        let y = m.int_var(1..=2).unwrap();
        let z = m.int_var(1..=3).unwrap();
        m.all_different_by_value(&[x, y, z]).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        assert_eq!(s.domains().len(z), 3);
    }

    #[test]
    fn values_far_apart_are_numbered_by_sorting_and_filter_alike() {
        // The Hall set of the test above with values 10^6 apart: their span
        // is too wide to index directly, so the value nodes come from sorting.
        let mut m = Model::new();
        let x = m.int_var([1, 1_000_000]).unwrap();
        let y = m.int_var([1, 1_000_000]).unwrap();
        let z = m.int_var([1, 1_000_000, 2_000_000]).unwrap();
        m.all_different(&[x, y, z]).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        assert_eq!(s.domains().value(z), Some(2_000_000));
        assert_eq!(s.domains().len(x), 2);
    }

    #[test]
    fn pigeonhole_fails_at_the_root_with_propagators() {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 4, 0..=2).unwrap();
        m.all_different(&xs).unwrap();
        let mut s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        let r = s.count();
        assert_eq!(r.solutions, 0);
        assert_eq!(r.stats.tried, 0);
    }

    #[test]
    fn forward_checking_eliminates_every_position_of_a_repeated_variable() {
        // x0 + 1 != x1 - 1 pairs positions 2 and 3, neither of which is a
        // trigger position (0 for x0, 1 for x1).
        let mut m = Model::new();
        let x0 = m.int_var(0..=2).unwrap();
        let x1 = m.int_var(0..=2).unwrap();
        m.all_different_offsets(&[x0, x1, x0, x1], &[0, 0, 1, -1])
            .unwrap();
        let brute = (0..=2)
            .flat_map(|a| (0..=2).map(move |b| (a, b)))
            .filter(|&(a, b)| a != b && a != b - 1 && a + 1 != b && a + 1 != b - 1)
            .count() as u64;
        assert_eq!(brute, 3);
        for pruning in Pruning::ALL {
            let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
            assert_eq!(s.count().solutions, brute, "{pruning}");
        }
    }

    #[test]
    fn offsets_shift_values_before_comparing() {
        let mut m = Model::new();
        let a = m.int_var(0..=1).unwrap();
        let b = m.int_var(0..=1).unwrap();
        // a + 1 != b + 0
        m.all_different_offsets(&[a, b], &[1, 0]).unwrap();
        let mut s = Solver::new(&m, Config::textbook()).unwrap();
        assert_eq!(s.count().solutions, 3);
    }
}
