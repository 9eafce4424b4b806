//! The domain store: every variable's current values as bits, with an undo trail.
//!
//! All domains live in one run of words (built as a [`FixedBitSet`]); each variable owns a run of whole
//! 64-bit words, and bit `i` of a variable stands for the value `min + i` of its
//! declared domain. A change to a word is recorded on the trail the first time the
//! word changes at a given search level (a *stamp* per word remembers the level), so
//! backtracking restores exactly the words that changed, in reverse order.
//! A cached size, minimum and maximum per variable make `len`, `is_fixed`,
//! `min`, `max` and first-fail O(1); bounds changes touch only the words between
//! the old and the new bound, so narrowing a wide domain step by step costs no
//! more than narrowing a small one. A variable's layout and its size and
//! bounds sit together in one record, so a removal reads one record.
//!
//! A variable declared as a range wider than a threshold (see
//! [`Config::with_lazy_bits_above`](crate::Config::with_lazy_bits_above))
//! starts as an *interval*: its bounds alone, no words. Bounds changes cost
//! O(1) there; the variable gets its words (`interval.rs`) the first time a
//! value strictly inside its bounds has to leave, and keeps them.

mod bulk;
mod interval;
mod masks;
mod membership;
mod probe;
mod trail;
mod values;
mod view;
mod walk;
mod wide;

use fixedbitset::FixedBitSet;

use crate::{MAX_DOMAIN_WIDTH, Value, VarId};
pub(crate) use bulk::{SHIFT_SAFE, ShiftedEntry};
pub(crate) use trail::DomainSnapshot;
use trail::{LevelMark, TrailEntry};
pub use values::DomainValues;
pub(crate) use view::View;

const WORD_BITS: usize = usize::BITS as usize;

/// The widest span (from the smallest to the largest declared value) a
/// variable may have and still get bits when it first loses a value from
/// inside its bounds: 2^16 values, 1,024 words. A wider variable is *wide*
/// (`wide.rs`): bounds and a sorted list of holes, so that a distance over
/// `0..10^6` with a few values left costs its holes, not 15,625 words to
/// clear and restore.
pub(crate) const BITS_WIDTH_LIMIT: u64 = 1 << 16;

/// Variables declared as a range of more than this many values start as
/// intervals (the default of [`Config::with_lazy_bits_above`](crate::Config::with_lazy_bits_above)).
pub const DEFAULT_LAZY_BITS_ABOVE: u64 = 64;

/// A variable's size and bounds; the bounds as offsets from its base (a
/// variable with bits spans at most [`BITS_WIDTH_LIMIT`] values; a wide one,
/// up to the whole of `i64`). The size of a domain of all 2^64 values is kept
/// as `u64::MAX` ([`Domains::len`] says so). The trail saves it whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    pub(super) size: u64,
    pub(super) lo: u64,
    pub(super) hi: u64,
}

/// One variable: where its bits live in the store, and its current shape.
#[derive(Clone, Copy, Debug)]
struct Var {
    /// The value represented by bit 0.
    base: Value,
    /// Index of the first word.
    first: u32,
    /// Number of words; 0 for an interval that has no bits yet (its domain
    /// is exactly `lo..=hi`).
    words: u32,
    now: Shape,
    /// Number of declared values from `base` (the span its bits will cover),
    /// saturated at `u64::MAX`; above [`BITS_WIDTH_LIMIT`] the variable is
    /// wide and `first` indexes its holes.
    width: u64,
}

impl Var {
    /// Whether the variable is an interval without bits.
    #[inline(always)]
    fn is_interval(&self) -> bool {
        self.words == 0
    }

    /// Number of bits in the variable's words.
    #[inline(always)]
    fn span(&self) -> u64 {
        u64::from(self.words) * WORD_BITS as u64
    }

    /// Whether the variable is wide (never gets bits; holes in a list).
    #[inline(always)]
    fn is_wide(&self) -> bool {
        self.width > BITS_WIDTH_LIMIT
    }

    #[inline(always)]
    fn lo(&self) -> Value {
        self.base.wrapping_add(self.now.lo as Value)
    }

    #[inline(always)]
    fn hi(&self) -> Value {
        self.base.wrapping_add(self.now.hi as Value)
    }
}

/// The current domains of all variables of a model during search.
///
/// Read access is public: constraints read domains through it in
/// [`Constraint::promising`](crate::Constraint::promising) and heuristics read it to
/// choose a variable. Changes go through a
/// [`PropagationContext`](crate::PropagationContext), which records them for undo,
/// statistics and observers.
///
/// ```
/// use csp_core::{Model, Solver, Config};
/// let mut model = Model::new();
/// let x = model.int_var(-2..=5)?;
/// let solver = Solver::new(&model, Config::textbook())?;
/// let domains = solver.domains();
/// assert_eq!((domains.min(x), domains.max(x), domains.len(x)), (-2, 5, 8));
/// assert!(domains.contains(x, 0) && !domains.contains(x, 6));
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Domains {
    /// Every variable's words, built with a [`FixedBitSet`] and kept as a plain
    /// slice (fixedbitset's slice accessors recompute the length, with a
    /// division, on every call: 4% of a forward-checking search).
    bits: Vec<usize>,
    /// The variables' records, indexed by id; views (declared after every
    /// variable) have ids from `vars.len()` on and no record.
    vars: Vec<Var>,
    /// The views, the first with id `vars.len()` (see `view.rs`).
    views: Vec<View>,
    trail: Vec<TrailEntry>,
    /// Per word: the stamp of the level at which it was last saved on the trail.
    saved_at: Vec<u64>,
    /// Per variable: the same for an interval's shape records.
    shape_saved_at: Vec<u64>,
    stamp: u64,
    next_stamp: u64,
    marks: Vec<LevelMark>,
    /// The levels (from the bottom of `marks`) whose undo records were
    /// dropped to bound memory: they come back by recomputation only.
    forgotten: usize,
    /// The most bytes the domains may take ([`set_budget`](Self::set_budget)).
    budget: usize,
    /// A range could not get its bits within the budget.
    over_budget: bool,
    /// Per wide variable (indexed by its `first`): the values that left from
    /// strictly inside its bounds, as sorted disjoint ranges (some may lie
    /// outside the current bounds: they are kept for backtracking).
    holes: Vec<Vec<(Value, Value)>>,
    /// The number of ranges in `holes`, for [`bytes`](Self::bytes).
    hole_count: usize,
    /// The variables whose domain changed (forward or undone), kept for the
    /// incremental variable selection only.
    pub(crate) changed: crate::changelog::ChangeLog,
}

/// Marker for a domain that became empty: the caller turns it into a
/// [`Conflict`](crate::Conflict).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wipeout;

impl Domains {
    /// Builds the store from each variable's declared values (sorted, distinct),
    /// ranges wider than [`DEFAULT_LAZY_BITS_ABOVE`] as intervals.
    #[cfg(test)]
    pub(crate) fn new<'a>(
        declared: impl Iterator<Item = (Value, Value, Option<&'a [Value]>)>,
    ) -> Self {
        Self::with_lazy_bits_above(declared, DEFAULT_LAZY_BITS_ABOVE)
    }

    /// Builds the store from each variable's declared values (sorted,
    /// distinct); a range (or a list of consecutive values) of more than
    /// `lazy_above` values starts as an interval without bits.
    #[cfg(test)]
    pub(crate) fn with_lazy_bits_above<'a>(
        declared: impl Iterator<Item = (Value, Value, Option<&'a [Value]>)>,
        lazy_above: u64,
    ) -> Self {
        Self::with_views(declared, Vec::new(), lazy_above)
    }

    /// [`with_lazy_bits_above`](Self::with_lazy_bits_above) for the
    /// variables, followed by `views` (ids from the number of variables on).
    pub(crate) fn with_views<'a>(
        declared: impl Iterator<Item = (Value, Value, Option<&'a [Value]>)>,
        views: Vec<View>,
        lazy_above: u64,
    ) -> Self {
        let mut vars = Vec::new();
        let mut holes: Vec<Vec<(Value, Value)>> = Vec::new();
        let mut total_words: usize = 0;
        let mut pending = Vec::new();
        for (min, max, values) in declared {
            let span = (i128::from(max) - i128::from(min) + 1) as u128;
            let width = u64::try_from(span).unwrap_or(u64::MAX);
            let wide = width > BITS_WIDTH_LIMIT;
            // A range, or a list of consecutive values.
            let contiguous = values.is_none_or(|vals| vals.len() as u128 == span);
            let lazy = wide || (contiguous && width > lazy_above);
            let words = if lazy {
                0
            } else {
                (width as usize).div_ceil(WORD_BITS)
            };
            let (size, lo, hi) = match values {
                Some(vals) if !vals.is_empty() => {
                    (vals.len() as u64, vals[0], vals[vals.len() - 1])
                }
                _ => (width, min, max),
            };
            let mut first = total_words as u32;
            if wide {
                // The gaps of a list of values are its first holes.
                let gaps = values.map_or_else(Vec::new, |vals| {
                    vals.windows(2)
                        .filter(|w| w[1].wrapping_sub(w[0]) as u64 > 1)
                        .map(|w| (w[0] + 1, w[1] - 1))
                        .collect()
                });
                first = holes.len() as u32;
                holes.push(gaps);
            }
            vars.push(Var {
                base: min,
                first,
                words: words as u32,
                now: Shape {
                    size,
                    lo: lo.wrapping_sub(min) as u64,
                    hi: hi.wrapping_sub(min) as u64,
                },
                width,
            });
            pending.push((min, width, values));
            total_words += words;
        }
        let mut bits = FixedBitSet::with_capacity(total_words * WORD_BITS);
        for (var, (min, width, values)) in vars.iter().zip(pending) {
            if var.is_interval() {
                continue;
            }
            let start = var.first as usize * WORD_BITS;
            match values {
                None => bits.insert_range(start..start + width as usize),
                Some(values) => {
                    for &v in values {
                        bits.insert(start + (v - min) as usize);
                    }
                }
            }
        }
        let n_vars = vars.len();
        Domains {
            bits: bits.as_slice().to_vec(),
            vars,
            views,
            trail: Vec::new(),
            saved_at: vec![0; total_words],
            shape_saved_at: vec![0; n_vars],
            stamp: 1,
            next_stamp: 2,
            marks: Vec::new(),
            forgotten: 0,
            budget: usize::MAX,
            over_budget: false,
            hole_count: holes.iter().map(Vec::len).sum(),
            holes,
            changed: Default::default(),
        }
    }

    /// The bytes the domains take now, about (their words and bookkeeping).
    pub(crate) fn bytes(&self) -> usize {
        (self.bits.len() + self.saved_at.len()) * std::mem::size_of::<usize>()
            + self.vars.len() * std::mem::size_of::<Var>()
            + self.hole_count * std::mem::size_of::<(Value, Value)>()
    }

    /// Bounds [`bytes`](Self::bytes): a range that must get its bits past
    /// the budget does not, and [`over_budget`](Self::over_budget) says so.
    pub(crate) fn set_budget(&mut self, bytes: usize) {
        self.budget = bytes;
    }

    /// Whether a range could not get its bits within the budget (the
    /// search must stop: the removal was refused, not done), or a
    /// [`charge`](Self::charge) did not fit.
    pub(crate) fn over_budget(&self) -> bool {
        self.over_budget
    }

    /// Whether `extra` bytes more than the domains take fit in the budget
    /// (Régin's graph, a decision's list of values, an observer's
    /// recording); if not, the search must stop
    /// ([`over_budget`](Self::over_budget) says so from then on).
    pub(crate) fn charge(&mut self, extra: usize) -> bool {
        if self.bytes().saturating_add(extra) > self.budget {
            self.over_budget = true;
            return false;
        }
        true
    }

    /// The bytes a [`charge`](Self::charge) may still ask for.
    pub(crate) fn memory_left(&self) -> usize {
        self.budget.saturating_sub(self.bytes())
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.vars.len() + self.views.len()
    }

    /// Number of values left in `var`'s domain.
    #[inline]
    pub fn len(&self, var: VarId) -> usize {
        match self.vars.get(var.index()) {
            Some(d) => d.now.size as usize,
            None => self.view_len(var),
        }
    }

    /// Whether `var` has more values than a filter may walk one by one
    /// (more than [`MAX_DOMAIN_WIDTH`]: only a wide variable can): such a
    /// domain is narrowed by its bounds or by ranges.
    #[inline]
    pub(crate) fn too_many_to_walk(&self, var: VarId) -> bool {
        self.len(var) as u64 > MAX_DOMAIN_WIDTH
    }

    /// Whether `var` has exactly one value left.
    #[inline]
    pub fn is_fixed(&self, var: VarId) -> bool {
        match self.vars.get(var.index()) {
            Some(d) => d.now.size == 1,
            None => self.view_len(var) == 1,
        }
    }

    /// The value of `var` if its domain has exactly one value.
    #[inline]
    pub fn value(&self, var: VarId) -> Option<Value> {
        match self.vars.get(var.index()) {
            Some(d) => (d.now.size == 1).then(|| d.lo()),
            None => self.view_value(var),
        }
    }

    #[inline]
    fn words(&self, var: VarId) -> &[usize] {
        let d = &self.vars[var.index()];
        if d.is_interval() {
            // A wide variable's `first` indexes its holes, not words.
            return &[];
        }
        &self.bits[d.first as usize..(d.first + d.words) as usize]
    }

    /// The smallest value left (O(1); unspecified once the domain is empty,
    /// which only happens inside a failing propagation).
    #[inline]
    pub fn min(&self, var: VarId) -> Value {
        match self.vars.get(var.index()) {
            Some(d) => d.lo(),
            None => self.view_min(var),
        }
    }

    /// The largest value left (O(1); unspecified once the domain is empty).
    #[inline]
    pub fn max(&self, var: VarId) -> Value {
        match self.vars.get(var.index()) {
            Some(d) => d.hi(),
            None => self.view_max(var),
        }
    }

    /// The offset of the first value at offset `from` or above (`None` if none).
    #[inline]
    fn scan_up(&self, var: VarId, from: usize) -> Option<usize> {
        let words = self.words(var);
        let mut i = from / WORD_BITS;
        if i >= words.len() {
            return None;
        }
        let mut w = words[i] & (usize::MAX << (from % WORD_BITS));
        loop {
            if w != 0 {
                return Some(i * WORD_BITS + w.trailing_zeros() as usize);
            }
            i += 1;
            if i == words.len() {
                return None;
            }
            w = words[i];
        }
    }

    /// The offset of the last value at offset `from` or below (`None` if none).
    #[inline]
    fn scan_down(&self, var: VarId, from: usize) -> Option<usize> {
        let words = self.words(var);
        let from = from.min(words.len() * WORD_BITS - 1);
        let mut i = from / WORD_BITS;
        let mut w = words[i] & (usize::MAX >> (WORD_BITS - 1 - from % WORD_BITS));
        loop {
            if w != 0 {
                return Some(i * WORD_BITS + WORD_BITS - 1 - w.leading_zeros() as usize);
            }
            if i == 0 {
                return None;
            }
            i -= 1;
            w = words[i];
        }
    }

    /// After the value at offset `offset` left the non-empty domain of `var`,
    /// whose word `i` now holds `word`: moves a bound that stood on it to the
    /// next value left, looking in that word first.
    #[inline(always)]
    fn repair_bounds(&mut self, var: VarId, offset: u32, i: usize, word: usize) {
        let v = var.index();
        let now = self.vars[v].now;
        let in_word = offset as usize % WORD_BITS;
        let word_start = offset - in_word as u32;
        if u64::from(offset) == now.lo {
            let above = word & (usize::MAX << in_word);
            self.vars[v].now.lo = u64::from(if above != 0 {
                word_start + above.trailing_zeros()
            } else {
                self.scan_up_from_word(var, i + 1)
            });
        } else if u64::from(offset) == now.hi {
            let below = word & (usize::MAX >> (WORD_BITS - 1 - in_word));
            self.vars[v].now.hi = u64::from(if below != 0 {
                word_start + (WORD_BITS - 1) as u32 - below.leading_zeros()
            } else {
                self.scan_down_from_word(var, i)
            });
        }
    }

    /// The offset of the first value in store words `i..` of `var` (the
    /// variable is not empty and has one there).
    #[inline(never)]
    fn scan_up_from_word(&self, var: VarId, i: usize) -> u32 {
        let first = self.vars[var.index()].first as usize;
        self.scan_up(var, (i - first) * WORD_BITS).unwrap_or(0) as u32
    }

    /// The offset of the last value in store words `..i` of `var` (the
    /// variable is not empty and has one there).
    #[inline(never)]
    fn scan_down_from_word(&self, var: VarId, i: usize) -> u32 {
        let first = self.vars[var.index()].first as usize;
        self.scan_down(var, (i - first) * WORD_BITS - 1)
            .unwrap_or(0) as u32
    }

    // ----- changes (crate-private: constraints change domains through a context) -----

    /// Replaces word `i` (of variable `var`) by `new`, which must be a subset of it.
    /// Returns how many values were removed.
    #[inline]
    fn write_word(&mut self, var: VarId, i: usize, new: usize) -> u32 {
        let old = self.bits[i];
        let removed = (old ^ new).count_ones();
        if removed == 0 {
            return 0;
        }
        let v = var.index();
        self.save_word(i, v, old);
        // Otherwise the word was saved at this level already: the older entry restores
        // both the word and (being older) the variable's size.
        self.bits[i] = new;
        self.vars[v].now.size -= u64::from(removed);
        removed
    }

    /// Removes one value. `Ok(true)` if it was there, `Err` if the domain is now empty.
    #[inline(always)]
    pub(crate) fn remove(&mut self, var: VarId, value: Value) -> Result<bool, Wipeout> {
        let Some(&d) = self.vars.get(var.index()) else {
            return self.view_remove(var, value);
        };
        if value < d.lo() || value > d.hi() {
            return Ok(false);
        }
        if d.is_interval() {
            return self.interval_remove(var.index(), value);
        }
        let offset = (value - d.base) as u64;
        let i = d.first as usize + (offset / WORD_BITS as u64) as usize;
        let bit = 1usize << (offset % WORD_BITS as u64);
        let old = self.bits[i];
        if old & bit == 0 {
            return Ok(false);
        }
        self.take_bit(var, i, old, bit, offset)?;
        Ok(true)
    }

    /// Reduces the domain to `value`. Returns the number of values removed.
    #[inline]
    pub(crate) fn assign(&mut self, var: VarId, value: Value) -> Result<u64, Wipeout> {
        let v = var.index();
        let Some(&d) = self.vars.get(v) else {
            return self.view_assign(var, value);
        };
        if d.is_interval() {
            return self.interval_assign(v, value);
        }
        let offset = value.wrapping_sub(d.base) as u64;
        let first = d.first as usize;
        if offset < d.now.lo || offset > d.now.hi {
            // Outside the bounds (or the span): nothing is kept.
            let (lo, hi) = (d.now.lo as usize, d.now.hi as usize);
            self.clear_offsets(var, lo.min(hi), hi);
            return Err(Wipeout);
        }
        let keep_word = (offset / WORD_BITS as u64) as usize;
        let bit = 1usize << (offset % WORD_BITS as u64);
        if self.bits[first + keep_word] & bit == 0 {
            let (lo, hi) = (d.now.lo as usize, d.now.hi as usize);
            self.clear_offsets(var, lo, hi);
            return Err(Wipeout);
        }
        if d.now.size == 1 {
            return Ok(0);
        }
        // Words outside the bounds' words are empty already; every value but
        // one leaves (no count of bits needed).
        let lo_word = d.now.lo as usize / WORD_BITS;
        let hi_word = d.now.hi as usize / WORD_BITS;
        for k in lo_word..=hi_word {
            let new = if k == keep_word { bit } else { 0 };
            let old = self.bits[first + k];
            if old != new {
                self.save_word(first + k, v, old);
                self.bits[first + k] = new;
            }
        }
        self.vars[v].now = Shape {
            size: 1,
            lo: offset,
            hi: offset,
        };
        Ok(d.now.size - 1)
    }

    /// The removal step every single-value removal shares: clears `bit`,
    /// known to be set in word `i` (holding `old`) at offset `offset` of
    /// `var`, saves the word on the trail the first time at this level,
    /// counts the value, and moves a bound that stood on it. `Err` if the
    /// domain is now empty.
    #[inline(always)]
    fn take_bit(
        &mut self,
        var: VarId,
        i: usize,
        old: usize,
        bit: usize,
        offset: u64,
    ) -> Result<(), Wipeout> {
        let v = var.index();
        // The word first, then the record: this order measured 0.7% fewer
        // instructions for a forward-checking search (callgrind, n = 11).
        self.bits[i] = old & !bit;
        self.save_word(i, v, old);
        let d = self.vars[v];
        self.vars[v].now.size = d.now.size - 1;
        if d.now.size == 1 {
            return Err(Wipeout);
        }
        if d.words == 1 {
            // One word (not empty): its first and last bits are the bounds,
            // found without a branch on whether the value was one of them (a
            // branch that a predictor misses often in forward checking).
            let word = old & !bit;
            self.vars[v].now.lo = u64::from(word.trailing_zeros());
            self.vars[v].now.hi = u64::from(usize::BITS - 1 - word.leading_zeros());
        } else if offset == d.now.lo || offset == d.now.hi {
            self.repair_bounds(var, offset as u32, i, old & !bit);
        }
        Ok(())
    }

    /// Clears the bits of offsets `from..=to` of `var` (within its span).
    /// Returns the number of values removed; the caller fixes the bounds.
    fn clear_offsets(&mut self, var: VarId, from: usize, to: usize) -> u32 {
        let first = self.vars[var.index()].first as usize;
        let mut removed = 0;
        for k in from / WORD_BITS..=to / WORD_BITS {
            let mask = word_mask(k, from, to);
            let i = first + k;
            let old = self.bits[i];
            if old & mask != 0 {
                removed += self.write_word(var, i, old & !mask);
            }
        }
        removed
    }

    /// Removes every value smaller than `bound`.
    #[inline(always)]
    pub(crate) fn remove_below(&mut self, var: VarId, bound: Value) -> Result<u64, Wipeout> {
        let v = var.index();
        let Some(&d) = self.vars.get(v) else {
            return self.view_remove_below(var, bound);
        };
        if bound <= d.lo() {
            return Ok(0);
        }
        if d.is_interval() {
            return self.interval_narrow(v, bound, d.hi());
        }
        let from = d.now.lo as usize;
        if bound > d.hi() {
            self.clear_offsets(var, from, d.now.hi as usize);
            return Err(Wipeout);
        }
        let cut = (bound - d.base) as usize; // the first offset kept
        let removed = self.clear_offsets(var, from, cut - 1);
        // Some value at `cut` or above remains: `bound <= hi`.
        self.vars[v].now.lo = self.scan_up(var, cut).unwrap_or(cut) as u64;
        Ok(u64::from(removed))
    }

    /// Removes every value greater than `bound`.
    #[inline(always)]
    pub(crate) fn remove_above(&mut self, var: VarId, bound: Value) -> Result<u64, Wipeout> {
        let v = var.index();
        let Some(&d) = self.vars.get(v) else {
            return self.view_remove_above(var, bound);
        };
        if bound >= d.hi() {
            return Ok(0);
        }
        if d.is_interval() {
            return self.interval_narrow(v, d.lo(), bound);
        }
        let to = d.now.hi as usize;
        if bound < d.lo() {
            self.clear_offsets(var, d.now.lo as usize, to);
            return Err(Wipeout);
        }
        let cut = (bound - d.base) as usize; // the last offset kept
        let removed = self.clear_offsets(var, cut + 1, to);
        self.vars[v].now.hi = self.scan_down(var, cut).unwrap_or(cut) as u64;
        Ok(u64::from(removed))
    }
}

impl Domains {
    /// Empties the (non-empty) domain of `var`: always `Err`.
    pub(crate) fn clear(&mut self, var: VarId) -> Result<u64, Wipeout> {
        let hi = self.max(var);
        self.remove_below(var, hi)?;
        // The last value leaves.
        self.remove(var, hi).and(Err(Wipeout))
    }

    /// Removes every value of `a..=b` from `var`; returns the number removed.
    /// A wide variable gets one hole per run of values left there, not one
    /// per value.
    pub(crate) fn remove_range(&mut self, var: VarId, a: Value, b: Value) -> Result<u64, Wipeout> {
        if a > b || self.len(var) == 0 {
            return Ok(0);
        }
        let (lo, hi) = (self.min(var), self.max(var));
        if b < lo || a > hi {
            return Ok(0);
        }
        if a <= lo {
            return match b < hi {
                true => self.remove_below(var, b + 1),
                false => self.clear(var),
            };
        }
        if b >= hi {
            return self.remove_above(var, a - 1);
        }
        match self.vars.get(var.index()) {
            Some(d) if d.is_wide() => Ok(self.wide_remove_inside(var.index(), a, b)),
            Some(&d) => {
                // Strictly inside the bounds, which stay: word by word.
                if d.is_interval() && !self.give_bits(var.index()) {
                    // Past the memory budget: refused; the search stops.
                    return Err(Wipeout);
                }
                let base = self.vars[var.index()].base;
                let (from, to) = ((a - base) as usize, (b - base) as usize);
                Ok(u64::from(self.clear_offsets(var, from, to)))
            }
            None => {
                // A range between the bounds of a view: value by value.
                let mut removed = 0;
                let mut v = a;
                while let Some(next) = self.next_value(var, v - 1).filter(|&n| n <= b) {
                    self.remove(var, next)?;
                    removed += 1;
                    v = next + 1;
                }
                Ok(removed)
            }
        }
    }
}

/// The bits of word `k` (of one variable) that stand for offsets `from..=to`.
#[inline]
fn word_mask(k: usize, from: usize, to: usize) -> usize {
    let lo = k * WORD_BITS;
    let mut mask = usize::MAX;
    if from > lo {
        mask &= usize::MAX << (from - lo);
    }
    if to < lo + WORD_BITS - 1 {
        mask &= usize::MAX >> (WORD_BITS - 1 - (to - lo));
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::branching::Sweep;

    fn store(specs: &[(Value, Value)]) -> Domains {
        Domains::new(specs.iter().map(|&(a, b)| (a, b, None)))
    }

    #[test]
    fn spans_above_the_bits_limit_keep_holes_in_a_list() {
        let limit = BITS_WIDTH_LIMIT as Value;
        // 0..limit spans exactly the limit; 0..=limit one value more.
        let mut d = store(&[(0, limit - 1), (0, limit), (0, 1_000_000)]);
        for i in 0..3 {
            d.remove_range(VarId::new(i), 10, 20).unwrap();
        }
        let (bits, wide, far) = (d.vars[0], d.vars[1], d.vars[2]);
        assert!(!bits.is_wide() && bits.words as u64 == BITS_WIDTH_LIMIT / 64);
        assert!(wide.is_wide() && wide.words == 0);
        // A distance over 0..10^6 with one hole: one entry, no words.
        assert!(far.is_wide() && far.words == 0);
        assert_eq!(d.holes_of(&far), &[(10, 20)]);
        assert_eq!(d.len(VarId::new(2)), 1_000_001 - 11);
        assert_eq!(d.next_value(VarId::new(2), 9), Some(21));
    }

    #[test]
    fn range_domain_reports_bounds_size_and_values() {
        let d = store(&[(-3, 70)]);
        let x = VarId::new(0);
        assert_eq!((d.min(x), d.max(x), d.len(x)), (-3, 70, 74));
        assert_eq!(d.values(x).count(), 74);
        assert_eq!(d.values(x).nth(66), Some(63));
        assert_eq!(d.next_value(x, 62), Some(63));
        assert_eq!(d.next_value(x, 70), None);
    }

    #[test]
    fn prev_and_next_values_walk_the_domain_both_ways() {
        let vals = [-70, -5, 0, 63, 64, 130];
        let d = Domains::new(std::iter::once((-70, 130, Some(&vals[..]))));
        let x = VarId::new(0);
        let mut down = Vec::new();
        let mut at = d.sweep_next(x, Sweep::Down, None, 0);
        while let Some(v) = at {
            down.push(v);
            at = d.sweep_next(x, Sweep::Down, Some(v), 0);
        }
        assert_eq!(down, [130, 64, 63, 0, -5, -70]);
        assert_eq!(d.prev_value(x, Value::MAX), Some(130));
        assert_eq!(d.prev_value(x, -70), None);
        assert_eq!(d.prev_value(x, Value::MIN), None);
        assert_eq!(d.sweep_next(x, Sweep::Up, Some(0), 0), Some(63));
    }

    #[test]
    fn sparse_domain_keeps_only_declared_values() {
        let vals = [-5, 0, 7, 100];
        let d = Domains::new(std::iter::once((-5, 100, Some(&vals[..]))));
        let x = VarId::new(0);
        assert_eq!(d.values(x).collect::<Vec<_>>(), vals);
        assert_eq!(d.len(x), 4);
        assert!(!d.contains(x, 1));
    }

    /// Ranges removed inside the bounds, word by word, from a variable with
    /// bits and from an interval that gets its bits then, against a set:
    /// values, sizes and bounds after each step and after each backtrack.
    #[test]
    fn ranges_inside_the_bounds_match_a_set_and_are_undone() {
        use std::collections::BTreeSet;
        let mut rng = crate::rng::SplitMix64::new(5);
        for (lo, hi) in [(-40, 300), (0, 63), (1000, 1200)] {
            let mut d = store(&[(lo, hi)]);
            let x = VarId::new(0);
            let full: BTreeSet<Value> = (lo..=hi).collect();
            let mut stack = vec![full.clone()];
            d.push_level();
            let span = (hi - lo + 1) as u64;
            for step in 0..600 {
                let set = stack.last().unwrap().clone();
                match rng.below(10) {
                    0..=5 => {
                        let a = lo - 2 + rng.below(span + 4) as Value;
                        let b = a + rng.below(90) as Value;
                        let mut next = set.clone();
                        next.retain(|v| !(a..=b).contains(v));
                        let r = d.remove_range(x, a, b);
                        if next.is_empty() {
                            assert!(r.is_err(), "step {step}");
                            d.pop_level();
                            stack.pop();
                            if stack.is_empty() {
                                break;
                            }
                        } else {
                            assert_eq!(r, Ok((set.len() - next.len()) as u64), "step {step}");
                            *stack.last_mut().unwrap() = next;
                        }
                    }
                    6 | 7 => {
                        d.push_level();
                        stack.push(set);
                    }
                    _ if stack.len() > 1 => {
                        d.pop_level();
                        stack.pop();
                    }
                    _ => {}
                }
                let Some(want) = stack.last() else { break };
                assert_eq!(
                    d.values(x).collect::<Vec<_>>(),
                    want.iter().copied().collect::<Vec<_>>()
                );
                assert_eq!(d.len(x), want.len(), "step {step}");
                assert_eq!(
                    (d.min(x), d.max(x)),
                    (*want.first().unwrap(), *want.last().unwrap())
                );
            }
        }
    }

    #[test]
    fn pop_level_restores_words_and_sizes_in_reverse() {
        let mut d = store(&[(0, 130), (0, 3)]);
        let (x, y) = (VarId::new(0), VarId::new(1));
        d.push_level();
        assert_eq!(d.remove(x, 5), Ok(true));
        assert_eq!(d.remove(x, 5), Ok(false));
        assert_eq!(d.remove(x, 6), Ok(true));
        d.push_level();
        assert_eq!(d.remove_below(x, 100), Ok(98));
        assert_eq!(d.remove_above(x, 120), Ok(10));
        assert_eq!((d.min(x), d.max(x), d.len(x)), (100, 120, 21));
        assert_eq!(d.assign(y, 2), Ok(3));
        assert_eq!(d.value(y), Some(2));
        d.pop_level();
        assert_eq!((d.min(x), d.max(x), d.len(x)), (0, 130, 129));
        assert_eq!(d.len(y), 4);
        d.pop_level();
        assert_eq!(d.len(x), 131);
    }

    #[test]
    fn remove_shifted_at_visits_only_the_listed_positions() {
        // Positions 0 and 2 of x0, x1 + 1, x2 (offsets 0, 1, 0), values 0..=3.
        let mut d = store(&[(0, 3), (0, 3), (0, 3)]);
        let x: Vec<VarId> = (0..3).map(VarId::new).collect();
        let list = d.shifted_entries(&x, &[0, 1, 0]).unwrap();
        d.push_level();
        assert_eq!(d.remove_shifted_at(&list, &[0b101], 2), Ok((2, 2)));
        assert_eq!(d.values(x[0]).collect::<Vec<_>>(), [0, 1, 3]);
        assert_eq!(d.len(x[1]), 4);
        assert_eq!(d.values(x[2]).collect::<Vec<_>>(), [0, 1, 3]);
        // Position 1 only: 3 - 1 = 2 leaves x1.
        assert_eq!(d.remove_shifted_at(&list, &[0b010], 3), Ok((1, 1)));
        assert!(!d.contains(x[1], 2));
        // Emptying a variable reports it with the count removed before.
        d.assign(x[2], 0).unwrap();
        assert_eq!(d.remove_shifted_at(&list, &[0b111], 0), Err((x[2], 2)));
        d.pop_level();
        for &v in &x {
            assert_eq!(d.len(v), 4);
        }
        // Offsets too large for exact arithmetic are refused.
        assert!(d.shifted_entries(&x[..1], &[Value::MAX]).is_none());
    }

    #[test]
    fn remove_shifted_at_takes_a_value_named_twice_once() {
        // One variable at two positions with the same shift (two views of it
        // can be): the value leaves once, and the size says so.
        let mut d = store(&[(0, 3), (0, 3)]);
        let (x, y) = (VarId::new(0), VarId::new(1));
        let list = d.shifted_entries(&[x, y, x], &[1, 0, 1]).unwrap();
        d.push_level();
        assert_eq!(d.remove_shifted_at(&list, &[0b111], 3), Ok((2, 3)));
        assert_eq!(d.values(x).collect::<Vec<_>>(), [0, 1, 3]);
        assert_eq!((d.len(x), d.len(y)), (3, 3));
        d.pop_level();
        assert_eq!((d.len(x), d.len(y)), (4, 4));
    }

    #[test]
    fn removing_the_last_value_reports_a_wipeout() {
        let mut d = store(&[(1, 2)]);
        let x = VarId::new(0);
        d.push_level();
        assert_eq!(d.remove(x, 1), Ok(true));
        assert_eq!(d.remove(x, 2), Err(Wipeout));
        d.pop_level();
        assert_eq!(d.len(x), 2);
        assert_eq!(d.assign(x, 9), Err(Wipeout));
    }

    #[test]
    fn bounds_removal_handles_word_edges() {
        for bound in [0, 1, 63, 64, 65, 127, 128, 129, 200] {
            let mut d = store(&[(0, 191)]);
            let x = VarId::new(0);
            let _ = d.remove_below(x, bound);
            assert_eq!(d.values(x).next(), (bound < 192).then_some(bound));
            let mut d = store(&[(0, 191)]);
            let _ = d.remove_above(x, bound);
            assert_eq!(d.values(x).last(), Some(bound.min(191)));
        }
    }

    #[test]
    fn bounds_next_values_and_sizes_follow_every_removal_across_words() {
        // Removals one by one and in bulk, in a scrambled order, over domains
        // of one to four words: after each, the cached size and bounds and the
        // walks agree with a plain set; popping restores everything.
        use std::collections::BTreeSet;
        for &(lo, hi) in &[(0, 40), (-70, 130), (5, 260), (-3, 64)] {
            let mut d = store(&[(lo, hi), (lo, hi)]);
            let (x, y) = (VarId::new(0), VarId::new(1));
            let list = d.shifted_entries(&[y], &[0]).unwrap();
            let mut set: BTreeSet<Value> = (lo..=hi).collect();
            let width = hi - lo + 1;
            d.push_level();
            for step in 0..width - 1 {
                let v = lo + (step * 37 + 11).rem_euclid(width);
                assert_eq!(d.remove(x, v), Ok(set.remove(&v)));
                if step % 2 == 0 {
                    // The same value leaves y through forward checking's loop.
                    let _ = d.remove_shifted_at(&list, &[1], v);
                }
                assert_eq!(d.len(x), set.len());
                assert_eq!(d.min(x), *set.first().unwrap());
                assert_eq!(d.max(x), *set.last().unwrap());
                for probe in [lo - 1, lo, (lo + hi) / 2, hi - 1, v] {
                    assert_eq!(
                        d.next_value(x, probe),
                        set.range(probe + 1..).next().copied(),
                        "next after {probe}"
                    );
                }
                assert_eq!(d.values(x).collect::<BTreeSet<_>>(), set);
            }
            let left = d.min(x);
            assert_eq!(d.assign(x, left), Ok(0));
            assert_eq!(
                d.assign(y, lo + width / 2).is_ok(),
                d.contains(y, lo + width / 2)
            );
            d.pop_level();
            for var in [x, y] {
                assert_eq!(
                    (d.min(var), d.max(var), d.len(var)),
                    (lo, hi, width as usize)
                );
            }
        }
    }

    #[test]
    fn out_of_range_values_are_absent_not_errors() {
        let mut d = store(&[(10, 20)]);
        let x = VarId::new(0);
        assert!(!d.contains(x, Value::MIN));
        assert!(!d.contains(x, Value::MAX));
        assert_eq!(d.remove(x, Value::MIN), Ok(false));
        assert_eq!(d.remove(x, Value::MAX), Ok(false));
        assert_eq!(d.next_value(x, Value::MIN), Some(10));
    }
}
