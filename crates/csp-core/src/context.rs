//! `PropagationContext`: how a constraint reads and narrows domains during search.

use std::ops::Deref;

use smallvec::SmallVec;

mod changes;
mod own_state;

pub(crate) use changes::{Changes, EV_ALL, EV_BOUNDS, EV_DOMAIN, EV_FIXED, EV_MAX, EV_MIN};

use crate::constraint::Conflict;
use crate::domains::Wipeout;
use crate::state::TrailedState;
use crate::{Domains, Pruning, Value, VarId};

/// A constraint's access to the domains while it propagates.
///
/// It dereferences to [`Domains`] for reading; the methods below remove values.
/// Every removal is undone automatically when the search backtracks, counted in
/// the statistics, attributed to the running constraint for observers, and
/// schedules the constraints that watch the variable. A removal that empties a
/// domain returns a [`Conflict`], so `?` ends the propagation at once:
///
/// ```
/// use csp_core::{Constraint, Model, PropagationContext, Propagation, PropStatus, VarId, Value};
///
/// /// `x < y`, filtered on bounds.
/// struct Less([VarId; 2]);
///
/// impl Constraint for Less {
///     fn scope(&self) -> &[VarId] { &self.0 }
///     fn check(&self, v: &[Value]) -> bool { v[0] < v[1] }
///     fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
///         let [x, y] = self.0;
///         let a = ctx.remove_above(x, ctx.max(y) - 1)?;
///         let b = ctx.remove_below(y, ctx.min(x) + 1)?;
///         Ok(if a || b { PropStatus::Changed } else { PropStatus::Unchanged })
///     }
/// }
/// # let mut m = Model::new();
/// # let x = m.int_var(0..=3)?; let y = m.int_var(0..=3)?;
/// # m.post(Less([x, y]))?;
/// # assert_eq!(csp_core::Solver::new(&m, Default::default())?.count().solutions, 6);
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub struct PropagationContext<'a> {
    domains: &'a mut Domains,
    state: &'a mut TrailedState,
    changes: &'a mut Changes,
    pruning: Pruning,
    trigger: Option<(VarId, usize)>,
    /// The running constraint's number (its slot in `state`).
    cid: usize,
}

impl<'a> PropagationContext<'a> {
    pub(crate) fn new(
        domains: &'a mut Domains,
        state: &'a mut TrailedState,
        changes: &'a mut Changes,
        pruning: Pruning,
        trigger: Option<(VarId, usize)>,
        cid: usize,
    ) -> Self {
        PropagationContext {
            domains,
            state,
            changes,
            pruning,
            trigger,
            cid,
        }
    }

    /// Counts the values a bulk removal took out; whether any, or the conflict
    /// if it emptied a domain.
    #[inline]
    fn count_stripped(&mut self, stripped: Result<u32, (VarId, u32)>) -> Result<bool, Conflict> {
        let (Ok(n) | Err((_, n))) = stripped;
        self.changes.pruned += u64::from(n);
        match stripped {
            Ok(n) => Ok(n > 0),
            Err((var, _)) => Err(Conflict::wipeout(var)),
        }
    }

    /// The pruning level the search runs at; a constraint may filter less under
    /// [`Pruning::ForwardChecking`] than under [`Pruning::Propagators`].
    #[inline]
    pub fn pruning(&self) -> Pruning {
        self.pruning
    }

    /// Under forward checking: the variable just assigned by the search and its
    /// position in this constraint's scope (the first, if it occurs twice).
    /// `None` for other calls (the root, or a propagation queue).
    #[inline]
    pub fn trigger(&self) -> Option<(VarId, usize)> {
        self.trigger
    }

    /// The current domains (also reachable through `Deref`).
    #[inline]
    pub fn domains(&self) -> &Domains {
        self.domains
    }

    /// Whether a filter may take `bytes` of scratch memory within the
    /// search's memory limit, beside the domains; `false` means the filter
    /// must give up (filtering less is sound) and the search stops with
    /// [`StopReason::MemoryLimit`].
    #[inline]
    pub(crate) fn charge(&mut self, bytes: usize) -> bool {
        self.domains.charge(bytes)
    }

    /// The bytes of scratch memory a filter may still take within the
    /// search's memory limit, beside the domains (what
    /// [`charge`](Self::charge) would accept).
    #[inline]
    pub(crate) fn memory_left(&self) -> usize {
        self.domains.memory_left()
    }

    /// The domains and the engine's change record, borrowed together (for a
    /// filter that reads the domains while polling the limits).
    #[inline]
    pub(crate) fn domains_and_changes(&mut self) -> (&Domains, &mut Changes) {
        (self.domains, self.changes)
    }

    /// Whether the search must stop now (its time limit passed or its cancel
    /// flag was set). A long propagation may ask as often as it likes (the
    /// clock is read once every 64 questions) and return early: filtering less
    /// is always sound, and the engine stops the search as soon as the
    /// propagation returns.
    #[inline]
    pub fn should_stop(&mut self) -> bool {
        self.changes.poll()
    }

    /// Counts one revision in the search statistics: one variable's domain
    /// examined by this constraint in order to remove values from it, whether
    /// or not any value goes. Every built-in constraint counts this way (one
    /// per variable it filters per call; a call that only tests fixed values
    /// counts none), so `revisions` compares across models.
    #[inline]
    pub fn note_revision(&mut self) {
        self.changes.revisions += 1;
    }

    /// Counts `count` revisions at once (see [`note_revision`](Self::note_revision)).
    #[inline]
    pub fn note_revisions(&mut self, count: u64) {
        self.changes.revisions += count;
    }

    /// `var`'s size and bounds, for [`finish`](Self::finish).
    #[inline]
    fn shape_before(&self, var: VarId) -> (usize, Value, Value) {
        let d = &*self.domains;
        (d.len(var), d.min(var), d.max(var))
    }

    #[inline]
    fn record_before(&self, var: VarId) -> Option<SmallVec<[Value; 16]>> {
        self.changes
            .record
            .then(|| self.domains.values(var).collect())
    }

    #[inline]
    fn record_after(&mut self, var: VarId, before: Option<SmallVec<[Value; 16]>>) {
        if let Some(before) = before {
            for v in before {
                if !self.domains.contains(var, v) {
                    self.changes.removed.push((var, v));
                }
            }
        }
    }

    /// Notes `removed` values gone from `var` with `events`, as a change of its
    /// base for a view (its watches are the base's): a view with a negative
    /// scale moves the base's opposite bound, so `MIN` and `MAX` swap.
    #[inline(always)]
    fn note_base(&mut self, var: VarId, removed: u64, events: u8) {
        match self.domains.view_of(var) {
            None => self.changes.note(var, removed, events),
            Some(view) => {
                let events = view.base_events(events);
                self.changes.note(view.base(), removed, events);
            }
        }
    }

    /// Notes a change of `var` whose bounds were `lo..=hi` before.
    #[inline]
    fn finish(
        &mut self,
        var: VarId,
        (len_before, lo, hi): (usize, Value, Value),
        result: Result<u64, Wipeout>,
    ) -> Result<bool, Conflict> {
        match result {
            Ok(0) => Ok(false),
            Ok(n) => {
                // Only `remove_range` can remove values strictly inside.
                let d = &*self.domains;
                let mut events = EV_DOMAIN;
                if d.min(var) > lo {
                    events |= EV_BOUNDS | EV_MIN;
                }
                if d.max(var) < hi {
                    events |= EV_BOUNDS | EV_MAX;
                }
                if d.is_fixed(var) {
                    events |= EV_FIXED;
                }
                self.note_base(var, n, events);
                Ok(true)
            }
            Err(Wipeout) => {
                self.changes.pruned = self.changes.pruned.saturating_add(len_before as u64);
                Err(Conflict::wipeout(var))
            }
        }
    }

    /// Removes `value` from `var`. `Ok(true)` if it was there.
    #[inline(always)]
    pub fn remove(&mut self, var: VarId, value: Value) -> Result<bool, Conflict> {
        match self.domains.remove(var, value) {
            Ok(false) => Ok(false),
            Ok(true) => {
                self.removed_one(var, value);
                Ok(true)
            }
            Err(Wipeout) => {
                self.removed_one(var, value);
                Err(Conflict::wipeout(var))
            }
        }
    }

    #[inline]
    fn removed_one(&mut self, var: VarId, value: Value) {
        let d = &*self.domains;
        let mut events = EV_DOMAIN;
        if value < d.min(var) {
            events |= EV_BOUNDS | EV_MIN;
        } else if value > d.max(var) {
            events |= EV_BOUNDS | EV_MAX;
        }
        if d.len(var) == 1 {
            events |= EV_FIXED;
        }
        self.note_base(var, 1, events);
        if self.changes.record {
            self.changes.removed.push((var, value));
        }
    }

    /// Removes `value - offsets[j]` from `vars[j]` for every `j` but `skip`.
    /// Returns whether anything was removed. (A fast path for all-different; the
    /// caller guarantees that `value - offsets[j]` cannot overflow.)
    #[inline]
    pub(crate) fn remove_shifted(
        &mut self,
        vars: &[VarId],
        offsets: &[Value],
        value: Value,
        skip: usize,
    ) -> Result<bool, Conflict> {
        if self.changes.record || self.changes.track_changed {
            // Observers and the propagation queue need each removal: go one by one.
            let mut changed = false;
            for (j, (&y, &o)) in vars.iter().zip(offsets).enumerate() {
                if j != skip
                    && let Some(w) = value.checked_sub(o)
                {
                    changed |= self.remove(y, w)?;
                }
            }
            return Ok(changed);
        }
        let stripped = self.domains.remove_shifted(vars, offsets, value, skip);
        self.count_stripped(stripped)
    }

    /// Removes every value below `bound`. `Ok(true)` if anything was removed.
    pub fn remove_below(&mut self, var: VarId, bound: Value) -> Result<bool, Conflict> {
        if bound <= self.domains.min(var) && self.domains.len(var) > 0 {
            return Ok(false);
        }
        let shape = self.shape_before(var);
        let before = self.record_before(var);
        let r = self.domains.remove_below(var, bound);
        self.record_after(var, before);
        self.finish(var, shape, r)
    }

    /// Removes every value above `bound`. `Ok(true)` if anything was removed.
    pub fn remove_above(&mut self, var: VarId, bound: Value) -> Result<bool, Conflict> {
        if bound >= self.domains.max(var) && self.domains.len(var) > 0 {
            return Ok(false);
        }
        let shape = self.shape_before(var);
        let before = self.record_before(var);
        let r = self.domains.remove_above(var, bound);
        self.record_after(var, before);
        self.finish(var, shape, r)
    }

    /// Removes every value of `a..=b` from `var`. `Ok(true)` if anything was
    /// removed. On a wide variable this costs one hole per run of values
    /// removed, whatever the width of the range.
    pub fn remove_range(&mut self, var: VarId, a: Value, b: Value) -> Result<bool, Conflict> {
        let shape = self.shape_before(var);
        let before = self.record_before(var);
        let r = self.domains.remove_range(var, a, b);
        self.record_after(var, before);
        self.finish(var, shape, r)
    }

    /// Keeps the values of `var` that are in `sorted` (increasing), like
    /// [`retain`](Self::retain) with a binary search, but on a domain of any
    /// size: the bounds move to the list's ends, and each gap between two
    /// listed values goes as one range. A domain with few values more than
    /// the list is walked value by value instead; a larger one (a sum's
    /// result over `0..10^6` that a few pairs of values support) costs one
    /// range per gap, not one removal per value.
    pub fn retain_sorted(&mut self, var: VarId, sorted: &[Value]) -> Result<bool, Conflict> {
        if self.domains.len(var) <= 2 * sorted.len() + 64 {
            return self.retain(var, |_, v| sorted.binary_search(&v).is_ok());
        }
        let (Some(&first), Some(&last)) = (sorted.first(), sorted.last()) else {
            return self.remove_range(var, Value::MIN, Value::MAX);
        };
        let mut changed = self.remove_below(var, first)?;
        changed |= self.remove_above(var, last)?;
        for w in sorted.windows(2) {
            if w[1] > w[0].saturating_add(1) {
                changed |= self.remove_range(var, w[0] + 1, w[1] - 1)?;
            }
        }
        Ok(changed)
    }

    /// Keeps the values of `var` that lie in one of `ranges` (each `(lo, hi)`
    /// with `lo <= hi`, disjoint, increasing and not adjacent): the bounds
    /// move to the ranges' ends, and each gap between two ranges holding a
    /// value of `var` goes as one range, whatever the domain's size.
    ///
    /// ```
    /// use csp_core::{Constraint, Model, PropagationContext, Propagation, PropStatus, VarId, Value};
    ///
    /// /// `x` in `3..=5` or `9..=10`.
    /// struct InRanges([VarId; 1]);
    ///
    /// impl Constraint for InRanges {
    ///     fn scope(&self) -> &[VarId] { &self.0 }
    ///     fn check(&self, v: &[Value]) -> bool { (3..=5).contains(&v[0]) || (9..=10).contains(&v[0]) }
    ///     fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
    ///         ctx.retain_ranges(self.0[0], &[(3, 5), (9, 10)])?;
    ///         Ok(PropStatus::Entailed)
    ///     }
    /// }
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=1_000_000)?;
    /// m.post(InRanges([x]))?;
    /// let mut solver = csp_core::Solver::new(&m, Default::default())?;
    /// let xs: Vec<Value> = solver.solutions().map(|s| s[x]).collect();
    /// assert_eq!(xs, vec![3, 4, 5, 9, 10]);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn retain_ranges(
        &mut self,
        var: VarId,
        ranges: &[(Value, Value)],
    ) -> Result<bool, Conflict> {
        let (Some(&(first, _)), Some(&(_, last))) = (ranges.first(), ranges.last()) else {
            return self.remove_range(var, Value::MIN, Value::MAX);
        };
        let mut changed = self.remove_below(var, first)?;
        changed |= self.remove_above(var, last)?;
        for w in ranges.windows(2) {
            // Disjoint and increasing: no overflow either side.
            let (a, b) = (w[0].1 + 1, w[1].0 - 1);
            if a > b {
                continue;
            }
            if self.domains.next_value(var, w[0].1).is_some_and(|v| v <= b) {
                changed |= self.remove_range(var, a, b)?;
            }
        }
        Ok(changed)
    }

    /// Reduces `var` to the single value `value` (a conflict if it is not there).
    pub fn fix(&mut self, var: VarId, value: Value) -> Result<bool, Conflict> {
        let shape = self.shape_before(var);
        let before = self.record_before(var);
        let r = self.domains.assign(var, value);
        self.record_after(var, before);
        self.finish(var, shape, r)
    }

    /// Keeps the values of `var` for which `keep(domains, value)` is true. The
    /// closure sees the domains as they were when `retain` was called.
    ///
    /// A domain of more than [`MAX_DOMAIN_WIDTH`](crate::MAX_DOMAIN_WIDTH)
    /// values (a wide variable's) is not walked: only its bounds move, past
    /// at most [`WIDE_BOUND_STEPS`] values at each end that `keep` refuses
    /// (bounds reasoning; the values left inside are tested again when the
    /// domain is small enough, or fixed).
    pub fn retain(
        &mut self,
        var: VarId,
        mut keep: impl FnMut(&Domains, Value) -> bool,
    ) -> Result<bool, Conflict> {
        if self.domains.too_many_to_walk(var) {
            return self.retain_bounds(var, keep);
        }
        let doomed: SmallVec<[Value; 16]> = self
            .domains
            .values(var)
            .filter(|&v| !keep(self.domains, v))
            .collect();
        let mut changed = false;
        for v in doomed {
            changed |= self.remove(var, v)?;
        }
        Ok(changed)
    }

    /// [`retain`](Self::retain) for a domain too large to walk: the bounds
    /// move to the first and last values `keep` accepts among at most
    /// [`WIDE_BOUND_STEPS`] from each end.
    #[cold]
    #[inline(never)]
    fn retain_bounds(
        &mut self,
        var: VarId,
        mut keep: impl FnMut(&Domains, Value) -> bool,
    ) -> Result<bool, Conflict> {
        let d = &*self.domains;
        let (mut lo, mut hi) = (Some(d.min(var)), Some(d.max(var)));
        for _ in 0..WIDE_BOUND_STEPS {
            match lo {
                Some(v) if !keep(d, v) => lo = d.next_value(var, v),
                _ => break,
            }
        }
        let Some(lo) = lo else {
            // Every value was refused.
            return self.remove_range(var, Value::MIN, Value::MAX);
        };
        for _ in 0..WIDE_BOUND_STEPS {
            match hi {
                Some(v) if v > lo && !keep(d, v) => hi = d.prev_value(var, v),
                _ => break,
            }
        }
        let hi = hi.unwrap_or(lo);
        let mut changed = self.remove_below(var, lo)?;
        changed |= self.remove_above(var, hi)?;
        Ok(changed)
    }

    /// Keeps the values `w` of `var` for which `test` holds while `var` is
    /// temporarily fixed to `w` (every other domain as it is). This is how the
    /// generic forward checking asks [`Constraint::promising`] about each value.
    /// A domain of more than [`MAX_DOMAIN_WIDTH`](crate::MAX_DOMAIN_WIDTH)
    /// values only has its bounds probed, as in [`retain`](Self::retain).
    ///
    /// [`Constraint::promising`]: crate::Constraint::promising
    pub fn retain_probing(
        &mut self,
        var: VarId,
        mut test: impl FnMut(&Domains) -> bool,
    ) -> Result<bool, Conflict> {
        // A view is probed through its base (fixing the base fixes it).
        let var = self.domains.base_of(var);
        let shape = self.domains.shape(var);
        let mut saved = std::mem::take(&mut self.changes.scratch);
        self.domains.save_words(var, &mut saved);
        let candidates: SmallVec<[Value; 16]> = if self.domains.too_many_to_walk(var) {
            // The first and last values, from each end until one passes.
            let d = &*self.domains;
            let up = std::iter::successors(Some(d.min(var)), |&v| d.next_value(var, v));
            let down = std::iter::successors(Some(d.max(var)), |&v| d.prev_value(var, v));
            up.take(WIDE_BOUND_STEPS)
                .chain(down.take(WIDE_BOUND_STEPS))
                .collect()
        } else {
            self.domains.values(var).collect()
        };
        let mut doomed: SmallVec<[Value; 16]> = SmallVec::new();
        for w in candidates {
            self.domains.overwrite_fixed(var, w);
            if !test(self.domains) {
                doomed.push(w);
            }
        }
        self.domains.restore_words(var, &saved, shape);
        self.changes.scratch = saved;
        let mut changed = false;
        for w in doomed {
            changed |= self.remove(var, w)?;
        }
        Ok(changed)
    }
}

impl Deref for PropagationContext<'_> {
    type Target = Domains;

    #[inline]
    fn deref(&self) -> &Domains {
        self.domains
    }
}

/// How many values at each end of a domain too large to walk
/// ([`PropagationContext::retain`]) are tested before its bound stays.
pub const WIDE_BOUND_STEPS: usize = 64;

/// The number of bits set in `words`.
pub(crate) fn count_bits(words: &[u64]) -> u64 {
    words.iter().map(|w| u64::from(w.count_ones())).sum()
}
