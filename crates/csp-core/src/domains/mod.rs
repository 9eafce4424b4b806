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
//! more than narrowing a small one.

mod bulk;
mod trail;
mod walk;

use fixedbitset::FixedBitSet;

use crate::{Value, VarId};
pub(crate) use bulk::{SHIFT_SAFE, ShiftedEntry};
pub(crate) use trail::DomainSnapshot;
use trail::{LevelMark, TrailEntry};

const WORD_BITS: usize = usize::BITS as usize;

/// Where one variable's bits live in the store.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// The value represented by bit 0.
    base: Value,
    /// Index of the first word.
    first: u32,
    /// Number of words.
    words: u32,
    /// Number of bits in those words (`words * 64`).
    span: u64,
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
/// let solver = Solver::new(&model, Config::default())?;
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
    layout: Vec<Layout>,
    size: Vec<u32>,
    /// Per variable: the smallest and largest value left (meaningless once empty).
    lo: Vec<Value>,
    hi: Vec<Value>,
    trail: Vec<TrailEntry>,
    /// Per word: the stamp of the level at which it was last saved on the trail.
    saved_at: Vec<u64>,
    stamp: u64,
    next_stamp: u64,
    marks: Vec<LevelMark>,
    /// The levels (from the bottom of `marks`) whose undo records were
    /// dropped to bound memory: they come back by recomputation only.
    forgotten: usize,
}

/// Marker for a domain that became empty: the caller turns it into a
/// [`Conflict`](crate::Conflict).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wipeout;

impl Domains {
    /// Builds the store from each variable's declared values (sorted, distinct).
    pub(crate) fn new<'a>(
        declared: impl Iterator<Item = (Value, Value, Option<&'a [Value]>)>,
    ) -> Self {
        let mut layout = Vec::new();
        let mut size = Vec::new();
        let mut lo = Vec::new();
        let mut hi = Vec::new();
        let mut total_words: usize = 0;
        let mut pending = Vec::new();
        for (min, max, values) in declared {
            let width = (max - min) as usize + 1;
            let words = width.div_ceil(WORD_BITS);
            layout.push(Layout {
                base: min,
                first: total_words as u32,
                words: words as u32,
                span: (words * WORD_BITS) as u64,
            });
            size.push(values.map_or(width, <[Value]>::len) as u32);
            match values {
                Some(vals) if !vals.is_empty() => {
                    lo.push(vals[0]);
                    hi.push(vals[vals.len() - 1]);
                }
                _ => {
                    lo.push(min);
                    hi.push(max);
                }
            }
            pending.push((min, width, values));
            total_words += words;
        }
        let mut bits = FixedBitSet::with_capacity(total_words * WORD_BITS);
        for (lay, (min, width, values)) in layout.iter().zip(pending) {
            let start = lay.first as usize * WORD_BITS;
            match values {
                None => bits.insert_range(start..start + width),
                Some(values) => {
                    for &v in values {
                        bits.insert(start + (v - min) as usize);
                    }
                }
            }
        }
        Domains {
            bits: bits.as_slice().to_vec(),
            layout,
            size,
            lo,
            hi,
            trail: Vec::new(),
            saved_at: vec![0; total_words],
            stamp: 1,
            next_stamp: 2,
            marks: Vec::new(),
            forgotten: 0,
        }
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.layout.len()
    }

    /// Number of values left in `var`'s domain.
    #[inline]
    pub fn len(&self, var: VarId) -> usize {
        self.size[var.index()] as usize
    }

    /// Whether `var` has exactly one value left.
    #[inline]
    pub fn is_fixed(&self, var: VarId) -> bool {
        self.size[var.index()] == 1
    }

    /// The value of `var` if its domain has exactly one value.
    #[inline]
    pub fn value(&self, var: VarId) -> Option<Value> {
        if self.is_fixed(var) {
            Some(self.min(var))
        } else {
            None
        }
    }

    #[inline]
    fn words(&self, var: VarId) -> &[usize] {
        let lay = self.layout[var.index()];
        &self.bits[lay.first as usize..(lay.first + lay.words) as usize]
    }

    /// The smallest value left (O(1); unspecified once the domain is empty,
    /// which only happens inside a failing propagation).
    #[inline]
    pub fn min(&self, var: VarId) -> Value {
        self.lo[var.index()]
    }

    /// The largest value left (O(1); unspecified once the domain is empty).
    #[inline]
    pub fn max(&self, var: VarId) -> Value {
        self.hi[var.index()]
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

    /// After `value` left the non-empty domain of `var`: moves a bound that
    /// stood on it to the next value left.
    #[inline(always)]
    fn repair_bounds(&mut self, var: VarId, value: Value) {
        let v = var.index();
        if value == self.lo[v] {
            let base = self.layout[v].base;
            let from = (value - base) as usize + 1;
            self.lo[v] = base + self.scan_up(var, from).unwrap_or(from) as Value;
        } else if value == self.hi[v] {
            let base = self.layout[v].base;
            let from = (value - base) as usize;
            self.hi[v] = base + self.scan_down(var, from - 1).unwrap_or(0) as Value;
        }
    }

    /// Whether `value` is still in `var`'s domain.
    #[inline]
    pub fn contains(&self, var: VarId, value: Value) -> bool {
        let lay = self.layout[var.index()];
        let Some(offset) = value.checked_sub(lay.base) else {
            return false;
        };
        if offset < 0 || offset as usize >= lay.words as usize * WORD_BITS {
            return false;
        }
        let offset = offset as usize;
        let w = self.bits[lay.first as usize + offset / WORD_BITS];
        w >> (offset % WORD_BITS) & 1 == 1
    }

    /// The values left in `var`'s domain, in increasing order.
    pub fn values(&self, var: VarId) -> DomainValues<'_> {
        let lay = self.layout[var.index()];
        let words = self.words(var);
        DomainValues {
            words,
            base: lay.base,
            index: 0,
            current: words.first().copied().unwrap_or(0),
        }
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
        self.size[v] -= removed;
        removed
    }

    /// Removes one value. `Ok(true)` if it was there, `Err` if the domain is now empty.
    #[inline(always)]
    pub(crate) fn remove(&mut self, var: VarId, value: Value) -> Result<bool, Wipeout> {
        let v = var.index();
        if value < self.lo[v] || value > self.hi[v] {
            return Ok(false);
        }
        let lay = self.layout[v];
        let offset = (value - lay.base) as u64;
        let i = lay.first as usize + (offset / WORD_BITS as u64) as usize;
        let bit = 1usize << (offset % WORD_BITS as u64);
        let old = self.bits[i];
        if old & bit == 0 {
            return Ok(false);
        }
        self.clear_bit(var, i, old, bit)?;
        self.repair_bounds(var, value);
        Ok(true)
    }

    /// Reduces the domain to `value`. Returns the number of values removed.
    pub(crate) fn assign(&mut self, var: VarId, value: Value) -> Result<u32, Wipeout> {
        let lay = self.layout[var.index()];
        let offset = value.wrapping_sub(lay.base) as u64;
        let first = lay.first as usize;
        let (keep_word, bit) = if offset < lay.span
            && self.bits[first + (offset / WORD_BITS as u64) as usize]
                >> (offset % WORD_BITS as u64)
                & 1
                == 1
        {
            (
                (offset / WORD_BITS as u64) as usize,
                1usize << (offset % WORD_BITS as u64),
            )
        } else {
            (usize::MAX, 0)
        };
        let mut removed = 0;
        // Words outside the bounds' words are empty already.
        let v = var.index();
        let lo_word = ((self.lo[v] - lay.base) as usize / WORD_BITS).min(lay.words as usize - 1);
        let hi_word = ((self.hi[v] - lay.base) as usize / WORD_BITS).min(lay.words as usize - 1);
        for k in lo_word.min(hi_word)..=hi_word {
            let new = if k == keep_word { bit } else { 0 };
            if self.bits[first + k] != new {
                removed += self.write_word(var, first + k, new);
            }
        }
        if bit == 0 {
            Err(Wipeout)
        } else {
            self.lo[v] = value;
            self.hi[v] = value;
            Ok(removed)
        }
    }

    /// Clears a bit known to be set in word `i` (holding `old`).
    #[inline]
    fn clear_bit(&mut self, var: VarId, i: usize, old: usize, bit: usize) -> Result<bool, Wipeout> {
        let v = var.index();
        self.save_word(i, v, old);
        self.bits[i] = old & !bit;
        self.size[v] -= 1;
        if self.size[v] == 0 {
            Err(Wipeout)
        } else {
            Ok(true)
        }
    }

    /// Clears the bits of offsets `from..=to` of `var` (within its span).
    /// Returns the number of values removed; the caller fixes the bounds.
    fn clear_offsets(&mut self, var: VarId, from: usize, to: usize) -> u32 {
        let lay = self.layout[var.index()];
        let mut removed = 0;
        for k in from / WORD_BITS..=to / WORD_BITS {
            let lo = k * WORD_BITS;
            let mut mask = usize::MAX;
            if from > lo {
                mask &= usize::MAX << (from - lo);
            }
            if to < lo + WORD_BITS - 1 {
                mask &= usize::MAX >> (WORD_BITS - 1 - (to - lo));
            }
            let i = lay.first as usize + k;
            let old = self.bits[i];
            if old & mask != 0 {
                removed += self.write_word(var, i, old & !mask);
            }
        }
        removed
    }

    /// Removes every value smaller than `bound`.
    pub(crate) fn remove_below(&mut self, var: VarId, bound: Value) -> Result<u32, Wipeout> {
        let v = var.index();
        if bound <= self.lo[v] {
            return Ok(0);
        }
        let base = self.layout[v].base;
        let from = (self.lo[v] - base) as usize;
        if bound > self.hi[v] {
            let to = (self.hi[v] - base) as usize;
            self.clear_offsets(var, from, to);
            return Err(Wipeout);
        }
        let cut = (bound - base) as usize; // the first offset kept
        let removed = self.clear_offsets(var, from, cut - 1);
        // Some value at `cut` or above remains: `bound <= hi`.
        self.lo[v] = base + self.scan_up(var, cut).unwrap_or(cut) as Value;
        Ok(removed)
    }

    /// Removes every value greater than `bound`.
    pub(crate) fn remove_above(&mut self, var: VarId, bound: Value) -> Result<u32, Wipeout> {
        let v = var.index();
        if bound >= self.hi[v] {
            return Ok(0);
        }
        let base = self.layout[v].base;
        let to = (self.hi[v] - base) as usize;
        if bound < self.lo[v] {
            let from = (self.lo[v] - base) as usize;
            self.clear_offsets(var, from, to);
            return Err(Wipeout);
        }
        let cut = (bound - base) as usize; // the last offset kept
        let removed = self.clear_offsets(var, cut + 1, to);
        self.hi[v] = base + self.scan_down(var, cut).unwrap_or(cut) as Value;
        Ok(removed)
    }

    /// Copies `var`'s words (to restore them later with `restore_words`).
    pub(crate) fn save_words(&self, var: VarId, out: &mut Vec<usize>) {
        out.clear();
        out.extend_from_slice(self.words(var));
    }

    /// The size and bounds of `var` (to restore them with `restore_words`).
    pub(crate) fn shape(&self, var: VarId) -> (u32, Value, Value) {
        let v = var.index();
        (self.size[v], self.lo[v], self.hi[v])
    }

    /// Writes back words saved by `save_words`, with the size and bounds saved
    /// by `shape`, without trailing.
    pub(crate) fn restore_words(
        &mut self,
        var: VarId,
        saved: &[usize],
        shape: (u32, Value, Value),
    ) {
        let lay = self.layout[var.index()];
        let first = lay.first as usize;
        self.bits[first..first + saved.len()].copy_from_slice(saved);
        let v = var.index();
        (self.size[v], self.lo[v], self.hi[v]) = shape;
    }

    /// Temporarily reduces `var` to `value` without trailing (for probing); the
    /// caller restores with `restore_words`.
    pub(crate) fn overwrite_fixed(&mut self, var: VarId, value: Value) {
        let lay = self.layout[var.index()];
        let offset = (value - lay.base) as usize;
        let first = lay.first as usize;
        for k in 0..lay.words as usize {
            self.bits[first + k] = if k == offset / WORD_BITS {
                1usize << (offset % WORD_BITS)
            } else {
                0
            };
        }
        self.size[var.index()] = 1;
        self.lo[var.index()] = value;
        self.hi[var.index()] = value;
    }
}

/// Iterator over the values of one domain, in increasing order.
#[derive(Clone, Debug)]
pub struct DomainValues<'a> {
    words: &'a [usize],
    base: Value,
    index: usize,
    current: usize,
}

impl Iterator for DomainValues<'_> {
    type Item = Value;

    #[inline]
    fn next(&mut self) -> Option<Value> {
        while self.current == 0 {
            self.index += 1;
            if self.index >= self.words.len() {
                return None;
            }
            self.current = self.words[self.index];
        }
        let bit = self.current.trailing_zeros() as usize;
        self.current &= self.current - 1;
        Some(self.base + (self.index * WORD_BITS + bit) as Value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::branching::Sweep;

    fn store(specs: &[(Value, Value)]) -> Domains {
        Domains::new(specs.iter().map(|&(a, b)| (a, b, None)))
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
        assert_eq!(d.remove_shifted_at(&list, &[0b101], 2), Ok(2));
        assert_eq!(d.values(x[0]).collect::<Vec<_>>(), [0, 1, 3]);
        assert_eq!(d.len(x[1]), 4);
        assert_eq!(d.values(x[2]).collect::<Vec<_>>(), [0, 1, 3]);
        // Position 1 only: 3 - 1 = 2 leaves x1.
        assert_eq!(d.remove_shifted_at(&list, &[0b010], 3), Ok(1));
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
