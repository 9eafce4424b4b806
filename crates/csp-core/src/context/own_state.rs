//! The running constraint's own trailed state, read and written through its
//! `PropagationContext`, and forward checking's bulk step over it.

use smallvec::SmallVec;

use super::{PropagationContext, count_bits};
use crate::Value;
use crate::constraint::Conflict;
use crate::domains::SHIFT_SAFE;
use crate::state::SparseBits;

impl PropagationContext<'_> {
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

    /// The positions of the running constraint's scope whose variables
    /// changed since its last call (at most [`WOKEN_CAP`](crate::WOKEN_CAP)
    /// of them, possibly repeated, a variable twice in the scope at its
    /// first position), or `None` when every position may have changed (the
    /// first call, too many changes, a restored state) or the constraint's
    /// layout did not ask for them ([`StateLayout::woken`](crate::StateLayout::woken)).
    /// Either way the list starts again empty. Only changes that wake the
    /// constraint ([`Constraint::events`](crate::Constraint::events)) are
    /// listed, and not at the positions the wake set
    /// ([`Constraint::wake_set`](crate::Constraint::wake_set)) had cleared. The changes the constraint makes itself are listed
    /// for its next call: a constraint that keeps counts in trailed state
    /// must count its own changes before it returns, since a count written
    /// at a deeper level is undone on backtracking while the list is not.
    #[inline]
    pub fn take_woken(&mut self) -> Option<crate::WokenPositions> {
        self.state.take_woken(self.cid)
    }

    /// Counting's scan for a constraint that remembers, in trailed bit set
    /// `set`, which positions of its shifted list `list` (see
    /// [`StateLayout::shifted`](crate::StateLayout::shifted)) are still open
    /// with respect to `value`: each position `j` left in the set whose
    /// `var_j + offset_j` is now decided (fixed, or unable to take `value`)
    /// leaves the set (trailed, one write per changed word). Positions of the
    /// set past the list stay. Returns how many of the positions that left
    /// are fixed to `value` and how many positions of the list stay open, or
    /// `None`, changing nothing, where the list has no prepared layout (a
    /// view other than `x + c`, a variable too wide for bits) or `value` is
    /// too large for exact arithmetic: the caller then scans the domains
    /// itself.
    ///
    /// # Panics
    /// If the running constraint's layout has no such list or bit set.
    #[inline]
    pub fn tally_shifted(
        &mut self,
        list: usize,
        set: usize,
        value: Value,
    ) -> Option<(usize, usize)> {
        if !(-SHIFT_SAFE..SHIFT_SAFE).contains(&value) {
            return None;
        }
        let (mut sure, mut open) = (0, 0);
        let mut chunk = 0;
        loop {
            let (l, words) = self.state.list_and_set(self.cid, list, set);
            let entries = l.entries.as_deref()?;
            let Some(&word) = words.get(chunk) else {
                break;
            };
            // Positions past the list (a count's result) are not scanned.
            let past = entries.len().saturating_sub(chunk * 64);
            let inside = if past >= 64 {
                u64::MAX
            } else {
                (1u64 << past) - 1
            };
            let (decided, s, o) = self.domains.takes_at(entries, chunk, word & inside, value);
            sure += s as usize;
            open += o as usize;
            if decided != 0 {
                self.state.set_word(self.cid, set, chunk, word & !decided);
            }
            chunk += 1;
        }
        Some((sure, open))
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
}
