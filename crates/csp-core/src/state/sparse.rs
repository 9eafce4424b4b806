//! Reversible sparse bit sets and untrailed hints in a constraint's trailed state.
//!
//! A reversible sparse bit set (Demeulenaere et al., *Compact-Table*, CP 2016)
//! is a bit set that only loses bits along a search path, stored as words with
//! the indices of its non-zero words kept in a prefix `index[..limit]` of a
//! permutation. Operations visit only the non-zero words, and backtracking
//! restores the words and `limit` from the trail; the permutation itself need
//! not be restored (it stays a permutation, and the words at positions
//! `..limit` are again exactly the non-zero ones). Each set has a scratch
//! *mask* of the same length, all zero between operations.
//!
//! A *sparse word list* is how callers name a bit set of the same length to
//! combine with it: `(word index, word)` pairs for its non-zero words only,
//! so that a support of a few tuples costs a few pairs.

use super::TrailedState;

/// One reversible sparse bit set of `words` words: `cells[first]` is the
/// number of non-zero words (`limit`), then `words` words (trailed), then the
/// permutation of word indices and the mask (both untrailed).
#[derive(Clone, Copy, Debug)]
pub(super) struct SparseRef {
    pub(super) first: u32,
    pub(super) words: u32,
}

impl SparseRef {
    #[inline(always)]
    fn word(self, i: usize) -> usize {
        self.first as usize + 1 + i
    }
    #[inline(always)]
    fn index(self, p: usize) -> usize {
        self.first as usize + 1 + self.words as usize + p
    }
    #[inline(always)]
    fn mask(self, i: usize) -> usize {
        self.first as usize + 1 + 2 * self.words as usize + i
    }
}

/// The cells a sparse set of `len` positions takes, all set: `limit`, the
/// words, the identity permutation, and a zero mask.
pub(super) fn initial_cells(len: u32) -> impl Iterator<Item = u64> {
    let words = (len as usize).div_ceil(64);
    let word = move |w: usize| {
        let bits = (len as usize - w * 64).min(64);
        u64::MAX >> (64 - bits)
    };
    std::iter::once(words as u64)
        .chain((0..words).map(word))
        .chain((0..words).map(|w| w as u64))
        .chain((0..words).map(|_| 0))
}

/// Access to one of the running constraint's reversible sparse bit sets (see
/// [`StateLayout::sparse_bits`](crate::StateLayout::sparse_bits)), from
/// [`PropagationContext::sparse_bits`](crate::PropagationContext::sparse_bits).
///
/// Bit `b` lives in word `b / 64`. Word writes are trailed and undone on
/// backtracking; the set only ever loses bits.
///
/// ```
/// use csp_core::*;
///
/// /// Keeps, in a sparse set over 0..200, the numbers not yet excluded.
/// struct Demo(Vec<VarId>);
/// impl Constraint for Demo {
///     fn scope(&self) -> &[VarId] { &self.0 }
///     fn check(&self, _: &[Value]) -> bool { true }
///     fn state_layout(&self, _: Pruning) -> StateLayout {
///         StateLayout::new().sparse_bits(200)
///     }
///     fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
///         let mut s = ctx.sparse_bits(0);
///         assert_eq!((s.len(), s.count()), (4, 200));
///         // Keep the bits of words 0 and 3 that are in the mask.
///         s.add_to_mask(&[(0, 0b1011), (3, u64::MAX), (2, 1)]);
///         s.intersect_with_mask();
///         assert_eq!((s.len(), s.count()), (3, 3 + 8 + 1));
///         assert_eq!(s.first_common(&[(1, 7), (2, 1)], 0), Some(1));
///         // Remove bit 1.
///         s.add_to_mask(&[(0, 0b10)]);
///         s.subtract_mask();
///         assert_eq!(s.count_common(&[(0, u64::MAX), (3, 0xff)]), 2 + 8);
///         Ok(PropStatus::Unchanged)
///     }
/// }
/// let mut m = Model::new();
/// let x = m.int_var(0..=1)?;
/// m.post(Demo(vec![x]))?;
/// Solver::new(&m, Config::default())?;
/// # Ok::<(), CspError>(())
/// ```
pub struct SparseBits<'a> {
    state: &'a mut TrailedState,
    set: SparseRef,
}

impl<'a> SparseBits<'a> {
    pub(crate) fn new(state: &'a mut TrailedState, cid: usize, k: usize) -> Self {
        let slot = state.slots[cid];
        assert!(
            k < slot.n_sparse as usize,
            "sparse bit set {k} is not in the constraint's state layout"
        );
        let set = state.sparse[slot.sparse as usize + k];
        SparseBits { state, set }
    }

    /// The number of non-zero words.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.state.cells[self.set.first as usize] as usize
    }

    /// Whether no bit is left.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Word `i` (64 bits from bit `64 * i`).
    #[inline(always)]
    pub fn word(&self, i: usize) -> u64 {
        self.state.cells[self.set.word(i)]
    }

    /// The number of bits set.
    pub fn count(&self) -> u64 {
        let c = &self.state.cells;
        (0..self.len())
            .map(|p| u64::from(c[self.set.word(c[self.set.index(p)] as usize)].count_ones()))
            .sum()
    }

    /// Adds the words of `list` (a sparse word list) to the mask, where this
    /// set's word is not zero (only those words can still matter).
    #[inline]
    pub fn add_to_mask(&mut self, list: &[(u32, u64)]) {
        let set = self.set;
        let c = &mut self.state.cells;
        for &(i, w) in list {
            if c[set.word(i as usize)] != 0 {
                c[set.mask(i as usize)] |= w;
            }
        }
    }

    /// Keeps only the bits in the mask, and clears the mask; whether a bit went.
    pub fn intersect_with_mask(&mut self) -> bool {
        self.combine_with_mask(false)
    }

    /// Removes the bits in the mask, and clears the mask; whether a bit went.
    pub fn subtract_mask(&mut self) -> bool {
        self.combine_with_mask(true)
    }

    #[inline]
    fn combine_with_mask(&mut self, subtract: bool) -> bool {
        let set = self.set;
        let s = &mut *self.state;
        let mut limit = s.cells[set.first as usize] as usize;
        let before = limit;
        let mut changed = false;
        let mut p = limit;
        while p > 0 {
            p -= 1;
            let i = s.cells[set.index(p)] as usize;
            let mask = std::mem::take(&mut s.cells[set.mask(i)]);
            let old = s.cells[set.word(i)];
            let new = if subtract { old & !mask } else { old & mask };
            if new != old {
                changed = true;
                s.write(set.word(i), new);
                if new == 0 {
                    // Swap the emptied word's index out of the prefix.
                    limit -= 1;
                    s.cells.swap(set.index(p), set.index(limit));
                }
            }
        }
        if limit != before {
            s.write(set.first as usize, limit as u64);
        }
        changed
    }

    /// The position in `list` (a sparse word list) of a word that has a bit in
    /// common with this set, trying position `hint` first; `None` if none has.
    #[inline]
    pub fn first_common(&self, list: &[(u32, u64)], hint: usize) -> Option<usize> {
        let set = self.set;
        let c = &self.state.cells;
        if let Some(&(i, w)) = list.get(hint)
            && c[set.word(i as usize)] & w != 0
        {
            return Some(hint);
        }
        list.iter()
            .position(|&(i, w)| c[set.word(i as usize)] & w != 0)
    }

    /// The number of bits this set has in common with `list` (a sparse word list).
    #[inline]
    pub fn count_common(&self, list: &[(u32, u64)]) -> u64 {
        let c = &self.state.cells;
        list.iter()
            .map(|&(i, w)| u64::from((c[self.set.word(i as usize)] & w).count_ones()))
            .sum()
    }

    /// The positions of the bits set, in no particular order.
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        let c = &self.state.cells;
        (0..self.len()).flat_map(move |p| {
            let i = c[self.set.index(p)] as usize;
            let mut w = c[self.set.word(i)];
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    i * 64 + b
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Domains, StateLayout, TrailedState};

    use super::SparseBits;

    fn state(len: usize) -> TrailedState {
        let layouts = [StateLayout::new().int(3).sparse_bits(len).hints(2, 9)];
        TrailedState::new(layouts.iter(), &mut Domains::new(std::iter::empty()))
    }

    fn sorted(s: &SparseBits<'_>) -> Vec<usize> {
        let mut v: Vec<usize> = s.ones().collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn backtracking_restores_words_and_limit_whatever_the_permutation() {
        let mut st = state(200);
        st.push_level();
        let mut s = SparseBits::new(&mut st, 0, 0);
        assert_eq!(s.count(), 200);
        // Empty word 0 and keep one bit of word 2.
        s.add_to_mask(&[(0, u64::MAX)]);
        s.subtract_mask();
        s.add_to_mask(&[(1, u64::MAX), (2, 1 << 5), (3, u64::MAX)]);
        s.intersect_with_mask();
        let want: Vec<usize> = (64..128).chain([133]).chain(192..200).collect();
        assert_eq!(sorted(&s), want);
        assert_eq!(s.len(), 3);
        st.push_level();
        let mut s = SparseBits::new(&mut st, 0, 0);
        s.add_to_mask(&[(1, u64::MAX), (3, u64::MAX)]);
        assert!(s.subtract_mask());
        assert_eq!((s.len(), sorted(&s)), (1, vec![133]));
        assert!(!s.subtract_mask(), "the mask was cleared");
        st.pop_level();
        let s = SparseBits::new(&mut st, 0, 0);
        assert_eq!(s.len(), 3);
        assert_eq!(s.count(), 64 + 1 + 8);
        st.pop_level();
        let s = SparseBits::new(&mut st, 0, 0);
        assert_eq!((s.len(), s.count()), (4, 200));
        assert_eq!(sorted(&s), (0..200).collect::<Vec<_>>());
        assert_eq!((st.int(0, 0), st.hint(0, 1)), (3, 9));
    }

    #[test]
    fn mask_words_outside_the_set_are_never_kept() {
        let mut st = state(128);
        st.push_level();
        let mut s = SparseBits::new(&mut st, 0, 0);
        s.add_to_mask(&[(0, u64::MAX)]);
        s.subtract_mask();
        // Word 0 is empty: a mask word there would survive to the next level.
        s.add_to_mask(&[(0, 1), (1, 2)]);
        s.intersect_with_mask();
        assert_eq!(sorted(&s), vec![65]);
        st.pop_level();
        let mut s = SparseBits::new(&mut st, 0, 0);
        s.add_to_mask(&[(1, 4)]);
        s.intersect_with_mask();
        assert_eq!(sorted(&s), vec![66], "no stale mask bit in word 0");
    }

    #[test]
    fn first_common_prefers_the_hint_and_counts_are_exact() {
        let mut st = state(130);
        let s = SparseBits::new(&mut st, 0, 0);
        assert_eq!(s.first_common(&[(0, 0), (1, 1), (2, 1)], 2), Some(2));
        assert_eq!(s.first_common(&[(0, 0), (1, 1), (2, 1)], 7), Some(1));
        assert_eq!(
            s.first_common(&[(2, 4)], 0),
            None,
            "bit 130 is past the length"
        );
        assert_eq!(s.count_common(&[(0, 0xf0), (2, 0b11)]), 4 + 2);
    }
}
