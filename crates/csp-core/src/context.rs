//! `PropagationContext`: how a constraint reads and narrows domains during search.

use std::ops::Deref;
use std::time::Instant;

use smallvec::SmallVec;

use crate::constraint::Conflict;
use crate::domains::{SHIFT_SAFE, Wipeout};
use crate::state::{SparseBits, TrailedState};
use crate::{CancelFlag, StopReason};
use crate::{Domains, Pruning, Value, VarId};

/// The events a change raises (the bits of [`Events`](crate::Events)).
pub(crate) const EV_FIXED: u8 = 1;
pub(crate) const EV_BOUNDS: u8 = 2;
pub(crate) const EV_DOMAIN: u8 = 4;
pub(crate) const EV_MIN: u8 = 8;
pub(crate) const EV_MAX: u8 = 16;
/// Every event: what a decision raises on its variable.
pub(crate) const EV_ALL: u8 = EV_FIXED | EV_BOUNDS | EV_DOMAIN | EV_MIN | EV_MAX;

/// How many polls pass between two readings of the clock.
const POLL_INTERVAL: u32 = 64;

/// What the engine collects while a constraint narrows domains.
#[derive(Debug, Default)]
pub(crate) struct Changes {
    /// Values removed in total.
    pub pruned: u64,
    /// Arc revisions reported by constraints.
    pub revisions: u64,
    /// Whether to list changed variables (for the propagation queue).
    pub track_changed: bool,
    /// Variables whose domain changed since the list was last drained.
    pub changed: Vec<VarId>,
    /// Per variable: already in `changed`.
    pub in_changed: Vec<bool>,
    /// Per variable: the events raised since it entered `changed` (bits of
    /// [`Events`](crate::Events)).
    pub events: Vec<u8>,
    /// Whether to list every removed value (for observers).
    pub record: bool,
    /// The removed values, when recording.
    pub removed: Vec<(VarId, Value)>,
    /// Scratch for saving a domain while probing.
    pub scratch: Vec<usize>,
    /// When the running search must stop (time limit), if ever.
    pub deadline: Option<Instant>,
    /// The search's cancel flag.
    pub cancel: Option<CancelFlag>,
    /// Why propagation was cut short, once a poll found a limit reached.
    pub interrupted: Option<StopReason>,
    /// Polls since the clock was last read.
    polls: u32,
}

impl Changes {
    pub(crate) fn new(vars: usize) -> Self {
        Changes {
            in_changed: vec![false; vars],
            events: vec![0; vars],
            ..Changes::default()
        }
    }

    /// Whether the search must stop: the cancel flag is set or the deadline
    /// passed. Reads the clock once every [`POLL_INTERVAL`] calls, so that a
    /// propagation loop can ask at every step.
    #[inline]
    pub(crate) fn poll(&mut self) -> bool {
        if self.interrupted.is_some() {
            return true;
        }
        self.polls += 1;
        if self.polls < POLL_INTERVAL {
            return false;
        }
        self.polls = 0;
        self.check_now()
    }

    /// [`poll`](Changes::poll) without waiting for the interval.
    pub(crate) fn check_now(&mut self) -> bool {
        if self.cancel.as_ref().is_some_and(CancelFlag::is_cancelled) {
            self.interrupted = Some(StopReason::Cancelled);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.interrupted = Some(StopReason::TimeLimit);
        }
        self.interrupted.is_some()
    }

    #[inline]
    fn note(&mut self, var: VarId, removed: u64, events: u8) {
        self.pruned = self.pruned.saturating_add(removed);
        if self.track_changed {
            let v = var.index();
            self.events[v] |= events;
            if !self.in_changed[v] {
                self.in_changed[v] = true;
                self.changed.push(var);
            }
        }
    }
}

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

    // ------------------------------------------------ the constraint's own state

    /// Integer `i` of the running constraint's trailed state (see
    /// [`StateLayout`](crate::StateLayout)).
    ///
    /// # Panics
    /// If the constraint's layout has no integer `i`.
    #[inline]
    pub fn state_int(&self, i: usize) -> i64 {
        self.state.int(self.cid, i)
    }

    /// Sets integer `i` of the running constraint's trailed state; the old value
    /// comes back when the search backtracks.
    ///
    /// # Panics
    /// If the constraint's layout has no integer `i`.
    #[inline]
    pub fn set_state_int(&mut self, i: usize, value: i64) {
        self.state.set_int(self.cid, i, value);
    }

    /// Whether position `pos` of bit set `k` of the running constraint's
    /// trailed state is set (`false` past the set's length).
    ///
    /// # Panics
    /// If the constraint's layout has no bit set `k`.
    #[inline]
    pub fn state_bit(&self, k: usize, pos: usize) -> bool {
        self.state.bit(self.cid, k, pos)
    }

    /// The words of bit set `k` (64 positions to a word, bits past its length
    /// clear).
    ///
    /// # Panics
    /// If the constraint's layout has no bit set `k`.
    #[inline]
    pub fn state_bits(&self, k: usize) -> &[u64] {
        self.state.words(self.cid, k)
    }

    /// Sets position `pos` of bit set `k`, trailed; whether it changed.
    ///
    /// # Panics
    /// If the constraint's layout has no bit set `k`.
    #[inline]
    pub fn set_state_bit(&mut self, k: usize, pos: usize) -> bool {
        self.state.put_bit(self.cid, k, pos, true)
    }

    /// Clears position `pos` of bit set `k`, trailed; whether it changed.
    ///
    /// # Panics
    /// If the constraint's layout has no bit set `k`.
    #[inline(always)]
    pub fn clear_state_bit(&mut self, k: usize, pos: usize) -> bool {
        self.state.put_bit(self.cid, k, pos, false)
    }

    /// Sets word `i` (positions `64 * i..64 * i + 64`) of bit set `k` to
    /// `word`, trailed; bits past the set's length are dropped.
    ///
    /// # Panics
    /// If the constraint's layout has no bit set `k` or it has no word `i`.
    #[inline]
    pub fn set_state_word(&mut self, k: usize, i: usize, word: u64) {
        self.state.set_word(self.cid, k, i, word);
    }

    /// Reversible sparse bit set `k` of the running constraint's trailed state
    /// (see [`StateLayout::sparse_bits`](crate::StateLayout::sparse_bits)).
    ///
    /// # Panics
    /// If the constraint's layout has no sparse bit set `k`.
    #[inline]
    pub fn sparse_bits(&mut self, k: usize) -> SparseBits<'_> {
        SparseBits::new(self.state, self.cid, k)
    }

    /// Hint `i` of the running constraint (see
    /// [`StateLayout::hints`](crate::StateLayout::hints)): not restored on
    /// backtracking.
    ///
    /// # Panics
    /// If the constraint's layout has no hint `i`.
    #[inline(always)]
    pub fn state_hint(&self, i: usize) -> u64 {
        self.state.hint(self.cid, i)
    }

    /// Sets hint `i` of the running constraint (not trailed).
    ///
    /// # Panics
    /// If the constraint's layout has no hint `i`.
    #[inline(always)]
    pub fn set_state_hint(&mut self, i: usize, value: u64) {
        self.state.set_hint(self.cid, i, value);
    }

    /// Forward checking's bulk step for a constraint that remembers, in trailed
    /// bit set `set`, which positions of its shifted list `list` (see
    /// [`StateLayout::shifted`](crate::StateLayout::shifted)) are still worth
    /// visiting: position `pos` leaves the set (trailed), then `shifted -
    /// offset_j` leaves `var_j` for every position `j` left in the set, in
    /// increasing order of `j`, each counted as one revision. Returns whether
    /// anything was removed. Values
    /// that would overflow are skipped. All-different uses it with the
    /// undecided positions: a decided variable's value leaves the others.
    ///
    /// # Panics
    /// If the running constraint's layout has no such list or bit set (a
    /// wrapper that forwards `propagate` must forward
    /// [`Constraint::state_layout`](crate::Constraint::state_layout) too), or
    /// the bit set is longer than the list.
    #[inline(always)]
    pub fn forward_check_shifted(
        &mut self,
        list: usize,
        set: usize,
        pos: usize,
        shifted: Value,
    ) -> Result<bool, Conflict> {
        let (l, positions) = self.state.take_position(self.cid, list, set, pos);
        // One revision per variable filtered: the positions left in the set.
        if let Some(entries) = &l.entries
            && !self.changes.record
            && !self.changes.track_changed
            && (-SHIFT_SAFE..SHIFT_SAFE).contains(&shifted)
        {
            // The bulk loop counts the positions it visits (no popcount, which
            // is a dozen instructions a word on baseline x86-64).
            let stripped = match self.domains.remove_shifted_at(entries, positions, shifted) {
                Ok((removed, visited)) => {
                    self.changes.revisions += u64::from(visited);
                    Ok(removed)
                }
                Err(wiped) => {
                    self.changes.revisions += count_bits(positions);
                    Err(wiped)
                }
            };
            return self.count_stripped(stripped);
        }
        self.changes.revisions += count_bits(positions);
        // Observers and the propagation queue need each removal: go one by one.
        let positions: SmallVec<[u64; 4]> = positions.into();
        let (vars, offsets) = (l.vars.clone(), l.offsets.clone());
        let mut changed = false;
        for (chunk, &word) in positions.iter().enumerate() {
            let mut live = word;
            while live != 0 {
                let j = chunk * 64 + live.trailing_zeros() as usize;
                live &= live - 1;
                if let Some(w) = shifted.checked_sub(offsets[j]) {
                    changed |= self.remove(vars[j], w)?;
                }
            }
        }
        Ok(changed)
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
