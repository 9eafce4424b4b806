//! The domain store: every variable's current values as bits, with an undo trail.
//!
//! All domains live in one [`FixedBitSet`]; each variable owns a run of whole
//! 64-bit words, and bit `i` of a variable stands for the value `min + i` of its
//! declared domain. A change to a word is recorded on the trail the first time the
//! word changes at a given search level (a *stamp* per word remembers the level), so
//! backtracking restores exactly the words that changed, in reverse order.
//! A cached size per variable makes `len`, `is_fixed` and first-fail O(1).

use fixedbitset::FixedBitSet;

use crate::{Value, VarId};

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

/// One undo record: a word's previous contents and its variable's previous size.
#[derive(Clone, Copy, Debug)]
struct TrailEntry {
    word: u32,
    var: u32,
    old_bits: usize,
    old_size: u32,
}

/// A mark on the trail: where a search level starts and the stamp it replaced.
#[derive(Clone, Copy, Debug)]
struct LevelMark {
    trail_len: usize,
    entailed_len: usize,
    waiting_len: usize,
    previous_stamp: u64,
}

/// One scope position of an all-different constraint, with what forward
/// checking needs to strip a value from its variable: the variable's words and
/// `offset + base` (so bit `k` stands for the shifted value `bias + k`).
#[derive(Clone, Copy, Debug)]
struct WaitingEntry {
    bias: Value,
    first: u32,
    span: u32,
    var: u32,
}

/// The scope of one all-different constraint: `entries[start..start + len]`,
/// and the positions whose variable is not decided yet as bits
/// `waiting_bits[words..]` (trailed word by word).
#[derive(Clone, Copy, Debug)]
struct WaitingSet {
    start: u32,
    len: u32,
    words: u32,
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
    bits: FixedBitSet,
    layout: Vec<Layout>,
    size: Vec<u32>,
    trail: Vec<TrailEntry>,
    /// Per word: the stamp of the level at which it was last saved on the trail.
    saved_at: Vec<u64>,
    stamp: u64,
    next_stamp: u64,
    marks: Vec<LevelMark>,
    /// Constraints found entailed, trailed like the words.
    entailed: Vec<bool>,
    entailed_trail: Vec<u32>,
    /// Forward checking on all-different: each registered constraint's scope
    /// (see [`Domains::fc_strip`]).
    waiting: Vec<WaitingEntry>,
    waiting_sets: Vec<WaitingSet>,
    /// Per set, one bit per scope position: its variable is not decided yet.
    waiting_bits: Vec<u64>,
    /// `(word, bits before)`, undone by `pop_level`.
    waiting_trail: Vec<(u32, u64)>,
}

/// Marker for a domain that became empty: the caller turns it into a
/// [`Conflict`](crate::Conflict).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wipeout;

impl Domains {
    /// Builds the store from each variable's declared values (sorted, distinct).
    pub(crate) fn new<'a>(
        declared: impl Iterator<Item = (Value, Value, Option<&'a [Value]>)>,
        constraints: usize,
    ) -> Self {
        let mut layout = Vec::new();
        let mut size = Vec::new();
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
            bits,
            layout,
            size,
            trail: Vec::new(),
            saved_at: vec![0; total_words],
            stamp: 1,
            next_stamp: 2,
            marks: Vec::new(),
            entailed: vec![false; constraints],
            entailed_trail: Vec::new(),
            waiting: Vec::new(),
            waiting_sets: Vec::new(),
            waiting_bits: Vec::new(),
            waiting_trail: Vec::new(),
        }
    }

    /// Registers an all-different scope (distinct variables, offsets small enough
    /// that `value - offset - base` cannot overflow) for [`Domains::fc_strip`];
    /// returns its set number.
    pub(crate) fn add_waiting_set(&mut self, vars: &[VarId], offsets: &[Value]) -> u32 {
        let set = WaitingSet {
            start: self.waiting.len() as u32,
            len: vars.len() as u32,
            words: self.waiting_bits.len() as u32,
        };
        for (&var, &offset) in vars.iter().zip(offsets) {
            let lay = self.layout[var.index()];
            self.waiting.push(WaitingEntry {
                bias: offset.wrapping_add(lay.base),
                first: lay.first,
                // At most `MAX_DOMAIN_WIDTH` rounded up to whole words.
                span: u32::try_from(lay.span).unwrap_or(u32::MAX),
                var: var.index() as u32,
            });
        }
        for chunk in 0..vars.len().div_ceil(64) {
            let bits = (vars.len() - chunk * 64).min(64);
            self.waiting_bits.push(u64::MAX >> (64 - bits));
        }
        self.waiting_sets.push(set);
        (self.waiting_sets.len() - 1) as u32
    }

    /// Forward checking for a registered all-different when the variable at
    /// scope position `pos` has just been decided and `x_pos + o_pos = shifted`:
    /// the position stops waiting, and `shifted - o_j` leaves every variable
    /// still waiting, in scope order. Decided variables are skipped: forward
    /// checking removed their values when they were decided, so nothing would
    /// be removed from them. Returns the number of values removed, or the
    /// emptied variable with the number removed before.
    #[inline]
    pub(crate) fn fc_strip(
        &mut self,
        set: u32,
        pos: usize,
        shifted: Value,
    ) -> Result<u32, (VarId, u32)> {
        let s = self.waiting_sets[set as usize];
        let (start, words) = (s.start as usize, s.words as usize);
        let w = words + pos / 64;
        let old = self.waiting_bits[w];
        let bit = 1u64 << (pos % 64);
        if old & bit != 0 {
            self.waiting_trail.push((w as u32, old));
            self.waiting_bits[w] = old & !bit;
        }
        let mut removed = 0;
        let bits = self.bits.as_mut_slice();
        for chunk in 0..(s.len as usize).div_ceil(64) {
            let mut live = self.waiting_bits[words + chunk];
            while live != 0 {
                let k = chunk * 64 + live.trailing_zeros() as usize;
                live &= live - 1;
                let e = self.waiting[start + k];
                let offset = shifted.wrapping_sub(e.bias) as u64;
                if offset >= u64::from(e.span) {
                    continue;
                }
                let i = e.first as usize + (offset / WORD_BITS as u64) as usize;
                let bit = 1usize << (offset % WORD_BITS as u64);
                let old = bits[i];
                if old & bit == 0 {
                    continue;
                }
                // The removal step of `strip`, inlined by hand like there: one
                // shared helper (a struct of the borrowed fields, always
                // inlined) measured 1.4% more instructions for the whole search
                // (callgrind, n = 11: 219.3 M vs 216.2 M).
                bits[i] = old & !bit;
                let v = e.var as usize;
                if self.saved_at[i] != self.stamp {
                    self.saved_at[i] = self.stamp;
                    self.trail.push(TrailEntry {
                        word: i as u32,
                        var: e.var,
                        old_bits: old,
                        old_size: self.size[v],
                    });
                }
                removed += 1;
                self.size[v] -= 1;
                if self.size[v] == 0 {
                    return Err((VarId::new(v), removed));
                }
            }
        }
        Ok(removed)
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
        &self.bits.as_slice()[lay.first as usize..(lay.first + lay.words) as usize]
    }

    /// The smallest value left (the declared minimum if the domain is empty).
    #[inline]
    pub fn min(&self, var: VarId) -> Value {
        let lay = self.layout[var.index()];
        for (i, &w) in self.words(var).iter().enumerate() {
            if w != 0 {
                return lay.base + (i * WORD_BITS + w.trailing_zeros() as usize) as Value;
            }
        }
        lay.base
    }

    /// The largest value left (the declared minimum if the domain is empty).
    #[inline]
    pub fn max(&self, var: VarId) -> Value {
        let lay = self.layout[var.index()];
        for (i, &w) in self.words(var).iter().enumerate().rev() {
            if w != 0 {
                let bit = WORD_BITS - 1 - w.leading_zeros() as usize;
                return lay.base + (i * WORD_BITS + bit) as Value;
            }
        }
        lay.base
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
        let w = self.bits.as_slice()[lay.first as usize + offset / WORD_BITS];
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

    /// The smallest value left that is greater than `value`, if any.
    pub fn next_value(&self, var: VarId, value: Value) -> Option<Value> {
        let lay = self.layout[var.index()];
        let width = lay.words as usize * WORD_BITS;
        let start = if value < lay.base {
            0
        } else {
            let offset = value as i128 - lay.base as i128 + 1;
            if offset >= width as i128 {
                return None;
            }
            offset as usize
        };
        let words = self.words(var);
        let mut i = start / WORD_BITS;
        let mut w = words[i] & (usize::MAX << (start % WORD_BITS));
        loop {
            if w != 0 {
                return Some(lay.base + (i * WORD_BITS + w.trailing_zeros() as usize) as Value);
            }
            i += 1;
            if i == words.len() {
                return None;
            }
            w = words[i];
        }
    }

    /// Whether constraint number `index` was found entailed on the current path.
    pub(crate) fn is_entailed(&self, index: usize) -> bool {
        self.entailed[index]
    }

    pub(crate) fn set_entailed(&mut self, index: usize) {
        if !self.entailed[index] {
            self.entailed[index] = true;
            self.entailed_trail.push(index as u32);
        }
    }

    // ----- changes (crate-private: constraints change domains through a context) -----

    /// Opens a new level: changes from now on are undone by the matching `pop_level`.
    #[inline]
    pub(crate) fn push_level(&mut self) {
        self.marks.push(LevelMark {
            trail_len: self.trail.len(),
            entailed_len: self.entailed_trail.len(),
            waiting_len: self.waiting_trail.len(),
            previous_stamp: self.stamp,
        });
        self.stamp = self.next_stamp;
        self.next_stamp += 1;
    }

    /// Undoes every change since the matching `push_level`.
    #[inline]
    pub(crate) fn pop_level(&mut self) {
        let Some(mark) = self.marks.pop() else {
            return;
        };
        let words = self.bits.as_mut_slice();
        for e in self.trail.drain(mark.trail_len..).rev() {
            words[e.word as usize] = e.old_bits;
            self.size[e.var as usize] = e.old_size;
        }
        for c in self.entailed_trail.drain(mark.entailed_len..) {
            self.entailed[c as usize] = false;
        }
        for (word, bits) in self.waiting_trail.drain(mark.waiting_len..).rev() {
            self.waiting_bits[word as usize] = bits;
        }
        self.stamp = mark.previous_stamp;
    }

    /// Replaces word `i` (of variable `var`) by `new`, which must be a subset of it.
    /// Returns how many values were removed.
    #[inline]
    fn write_word(&mut self, var: VarId, i: usize, new: usize) -> u32 {
        let old = self.bits.as_slice()[i];
        let removed = (old ^ new).count_ones();
        if removed == 0 {
            return 0;
        }
        let v = var.index();
        if self.saved_at[i] != self.stamp {
            self.saved_at[i] = self.stamp;
            self.trail.push(TrailEntry {
                word: i as u32,
                var: v as u32,
                old_bits: old,
                old_size: self.size[v],
            });
        }
        // Otherwise the word was saved at this level already: the older entry restores
        // both the word and (being older) the variable's size.
        self.bits.as_mut_slice()[i] = new;
        self.size[v] -= removed;
        removed
    }

    /// Removes one value. `Ok(true)` if it was there, `Err` if the domain is now empty.
    #[inline(always)]
    pub(crate) fn remove(&mut self, var: VarId, value: Value) -> Result<bool, Wipeout> {
        let lay = self.layout[var.index()];
        // A value below the base wraps to a huge offset and is rejected with the
        // values above the span.
        let offset = value.wrapping_sub(lay.base) as u64;
        if offset >= lay.span {
            return Ok(false);
        }
        let i = lay.first as usize + (offset / WORD_BITS as u64) as usize;
        let bit = 1usize << (offset % WORD_BITS as u64);
        let old = self.bits.as_slice()[i];
        if old & bit == 0 {
            return Ok(false);
        }
        self.clear_bit(var, i, old, bit)
    }

    /// Removes `value - offsets[j]` from `vars[j]` for every `j` but `skip` (the
    /// all-different forward-checking step, in one tight loop). Returns the
    /// number of values removed, or the variable emptied with the number removed
    /// before. The caller guarantees that `value - offsets[j]` cannot overflow.
    #[inline]
    pub(crate) fn remove_shifted(
        &mut self,
        vars: &[VarId],
        offsets: &[Value],
        value: Value,
        skip: usize,
    ) -> Result<u32, (VarId, u32)> {
        let mut removed = 0;
        let skip = skip.min(vars.len());
        self.strip(&vars[..skip], &offsets[..skip], value, &mut removed)?;
        let rest = (skip + 1).min(vars.len());
        self.strip(&vars[rest..], &offsets[rest..], value, &mut removed)?;
        Ok(removed)
    }

    #[inline(always)]
    fn strip(
        &mut self,
        vars: &[VarId],
        offsets: &[Value],
        value: Value,
        removed: &mut u32,
    ) -> Result<(), (VarId, u32)> {
        for (&var, &o) in vars.iter().zip(offsets) {
            let v = var.index();
            let lay = self.layout[v];
            let offset = value.wrapping_sub(o).wrapping_sub(lay.base) as u64;
            if offset >= lay.span {
                continue;
            }
            let i = lay.first as usize + (offset / WORD_BITS as u64) as usize;
            let bit = 1usize << (offset % WORD_BITS as u64);
            let words = self.bits.as_mut_slice();
            let old = words[i];
            if old & bit == 0 {
                continue;
            }
            // `clear_bit` inlined by hand: calling it costs 5% of the whole
            // forward-checking search (callgrind, n = 11: 286 M vs 271 M instructions).
            words[i] = old & !bit;
            if self.saved_at[i] != self.stamp {
                self.saved_at[i] = self.stamp;
                self.trail.push(TrailEntry {
                    word: i as u32,
                    var: v as u32,
                    old_bits: old,
                    old_size: self.size[v],
                });
            }
            *removed += 1;
            self.size[v] -= 1;
            if self.size[v] == 0 {
                return Err((var, *removed));
            }
        }
        Ok(())
    }

    /// Reduces the domain to `value`. Returns the number of values removed.
    pub(crate) fn assign(&mut self, var: VarId, value: Value) -> Result<u32, Wipeout> {
        let lay = self.layout[var.index()];
        let offset = value.wrapping_sub(lay.base) as u64;
        let first = lay.first as usize;
        let (keep_word, bit) = if offset < lay.span
            && self.bits.as_slice()[first + (offset / WORD_BITS as u64) as usize]
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
        for k in 0..lay.words as usize {
            let new = if k == keep_word { bit } else { 0 };
            if self.bits.as_slice()[first + k] != new {
                removed += self.write_word(var, first + k, new);
            }
        }
        if bit == 0 { Err(Wipeout) } else { Ok(removed) }
    }

    /// Clears a bit known to be set in word `i` (holding `old`).
    #[inline]
    fn clear_bit(&mut self, var: VarId, i: usize, old: usize, bit: usize) -> Result<bool, Wipeout> {
        let v = var.index();
        if self.saved_at[i] != self.stamp {
            self.saved_at[i] = self.stamp;
            self.trail.push(TrailEntry {
                word: i as u32,
                var: v as u32,
                old_bits: old,
                old_size: self.size[v],
            });
        }
        self.bits.as_mut_slice()[i] = old & !bit;
        self.size[v] -= 1;
        if self.size[v] == 0 {
            Err(Wipeout)
        } else {
            Ok(true)
        }
    }

    /// Keeps only the values whose offsets (value - base) have their bit set in
    /// `mask_for_word(word_index_within_var)`. Returns the number removed.
    #[inline]
    fn mask_words(
        &mut self,
        var: VarId,
        mut mask_for_word: impl FnMut(usize) -> usize,
    ) -> Result<u32, Wipeout> {
        let lay = self.layout[var.index()];
        let mut removed = 0;
        for k in 0..lay.words as usize {
            let i = lay.first as usize + k;
            let old = self.bits.as_slice()[i];
            let new = old & mask_for_word(k);
            if new != old {
                removed += self.write_word(var, i, new);
            }
        }
        if self.size[var.index()] == 0 {
            Err(Wipeout)
        } else {
            Ok(removed)
        }
    }

    /// Removes every value smaller than `bound`.
    pub(crate) fn remove_below(&mut self, var: VarId, bound: Value) -> Result<u32, Wipeout> {
        let lay = self.layout[var.index()];
        if bound <= lay.base {
            return Ok(0);
        }
        let cut = (bound as i128 - lay.base as i128) as u128; // first offset kept
        self.mask_words(var, |k| {
            let lo = (k * WORD_BITS) as u128;
            if cut <= lo {
                usize::MAX
            } else if cut >= lo + WORD_BITS as u128 {
                0
            } else {
                usize::MAX << (cut - lo) as u32
            }
        })
    }

    /// Removes every value greater than `bound`.
    pub(crate) fn remove_above(&mut self, var: VarId, bound: Value) -> Result<u32, Wipeout> {
        let lay = self.layout[var.index()];
        if bound < lay.base {
            return self.mask_words(var, |_| 0);
        }
        let last = (bound as i128 - lay.base as i128) as u128; // last offset kept
        self.mask_words(var, |k| {
            let lo = (k * WORD_BITS) as u128;
            if last >= lo + WORD_BITS as u128 - 1 {
                usize::MAX
            } else if last < lo {
                0
            } else {
                usize::MAX >> (WORD_BITS as u32 - 1 - (last - lo) as u32)
            }
        })
    }

    /// Copies `var`'s words (to restore them later with `restore_words`).
    pub(crate) fn save_words(&self, var: VarId, out: &mut Vec<usize>) {
        out.clear();
        out.extend_from_slice(self.words(var));
    }

    /// Writes back words saved by `save_words`, with their size, without trailing.
    pub(crate) fn restore_words(&mut self, var: VarId, saved: &[usize], size: u32) {
        let lay = self.layout[var.index()];
        let first = lay.first as usize;
        self.bits.as_mut_slice()[first..first + saved.len()].copy_from_slice(saved);
        self.size[var.index()] = size;
    }

    /// Temporarily reduces `var` to `value` without trailing (for probing); the
    /// caller restores with `restore_words`.
    pub(crate) fn overwrite_fixed(&mut self, var: VarId, value: Value) {
        let lay = self.layout[var.index()];
        let offset = (value - lay.base) as usize;
        let first = lay.first as usize;
        for k in 0..lay.words as usize {
            self.bits.as_mut_slice()[first + k] = if k == offset / WORD_BITS {
                1usize << (offset % WORD_BITS)
            } else {
                0
            };
        }
        self.size[var.index()] = 1;
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

    fn store(specs: &[(Value, Value)]) -> Domains {
        Domains::new(specs.iter().map(|&(a, b)| (a, b, None)), 0)
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
    fn sparse_domain_keeps_only_declared_values() {
        let vals = [-5, 0, 7, 100];
        let d = Domains::new(std::iter::once((-5, 100, Some(&vals[..]))), 0);
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
    fn fc_strip_skips_decided_positions_and_pop_level_restores_them() {
        // all-different over x0, x1 + 1, x2 (offsets 0, 1, 0), values 0..=3.
        let mut d = store(&[(0, 3), (0, 3), (0, 3)]);
        let x: Vec<VarId> = (0..3).map(VarId::new).collect();
        let set = d.add_waiting_set(&x, &[0, 1, 0]);
        d.push_level();
        // x0 = 2 decided: 2 leaves x2 and 2 - 1 = 1 leaves x1.
        d.assign(x[0], 2).unwrap();
        assert_eq!(d.fc_strip(set, 0, 2), Ok(2));
        assert_eq!(d.values(x[1]).collect::<Vec<_>>(), [0, 2, 3]);
        assert_eq!(d.values(x[2]).collect::<Vec<_>>(), [0, 1, 3]);
        d.push_level();
        // x2 = 3 decided: x0 no longer waits, so its value 2 stays even though
        // the shifted value 3 - 0 would not touch it anyway; x1 loses 3 - 1 = 2.
        d.assign(x[2], 3).unwrap();
        assert_eq!(d.fc_strip(set, 2, 3), Ok(1));
        assert_eq!(d.values(x[1]).collect::<Vec<_>>(), [0, 3]);
        // A second strip from the same position strips the same waiting set.
        assert_eq!(d.fc_strip(set, 2, 1), Ok(1));
        assert_eq!(d.value(x[1]), Some(3));
        // Emptying a waiting variable reports it with the count removed before.
        assert_eq!(d.fc_strip(set, 2, 4), Err((x[1], 1)));
        d.pop_level();
        d.pop_level();
        assert_eq!(d.waiting_bits, [0b111]);
        for &v in &x {
            assert_eq!(d.len(v), 4);
        }
        // Every position waits again: x1 loses 3 - 1 = 2 when x0 = 3 is decided.
        d.push_level();
        assert_eq!(d.fc_strip(set, 0, 3), Ok(2));
        assert!(!d.contains(x[1], 2) && !d.contains(x[2], 3));
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
