//! Trailed state: a constraint's own backtrackable integers and bit sets.
//!
//! A constraint that keeps something between calls of
//! [`propagate`](crate::Constraint::propagate) (a counter, a set of positions
//! still to watch, a support) needs it restored when the search backtracks,
//! exactly like the domains. It declares what it needs once, as a
//! [`StateLayout`], in [`Constraint::state_layout`](crate::Constraint::state_layout);
//! each solver then gives it a private slot in one [`TrailedState`], and the
//! constraint reads and writes its integers and bit sets by their number in the
//! layout through the [`PropagationContext`](crate::PropagationContext). Every
//! write is saved on the trail and undone on backtracking.
//!
//! The engine keeps its own per-constraint flag here too: whether the
//! constraint was found entailed on the current path.

mod levels;
mod sparse;
mod steps;
mod woken;

pub(crate) use levels::StateSnapshot;
pub use sparse::SparseBits;
use sparse::SparseRef;
pub use steps::ForwardStep;
use steps::StepRef;
use woken::WokenList;
pub use woken::{WOKEN_CAP, WokenPositions};

use smallvec::SmallVec;

use crate::domains::ShiftedEntry;
use crate::{Domains, Value, VarId};

/// What backtrackable state one constraint needs: integers with their initial
/// values, and bit sets with their length, in the order the constraint numbers
/// them (integer `0`, `1`, …; bit set `0`, `1`, …). It may also ask for
/// *shifted lists* (variables with offsets) prepared for the bulk removal
/// [`PropagationContext::forward_check_shifted`](crate::PropagationContext::forward_check_shifted);
/// they are not trailed, being fixed for the whole search.
///
/// ```
/// use csp_core::StateLayout;
/// // One counter starting at 5 and one bit set of 10 positions, all set.
/// let layout = StateLayout::new().int(5).bits(10, true);
/// assert_eq!((layout.num_ints(), layout.num_bitsets()), (1, 1));
/// assert!(StateLayout::new().is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateLayout {
    ints: SmallVec<[i64; 4]>,
    bitsets: SmallVec<[(u32, bool); 2]>,
    sparse: SmallVec<[u32; 1]>,
    hints: Vec<u64>,
    lists: Vec<(Vec<VarId>, Vec<Value>)>,
    woken: bool,
}

impl StateLayout {
    /// No state.
    pub fn new() -> Self {
        StateLayout::default()
    }

    /// Adds an integer with its initial value; it is number
    /// [`num_ints`](StateLayout::num_ints) before the call.
    pub fn int(mut self, initial: i64) -> Self {
        self.ints.push(initial);
        self
    }

    /// Adds a bit set of `len` positions, all set if `full` (else all clear);
    /// it is number [`num_bitsets`](StateLayout::num_bitsets) before the call.
    /// `len` is capped at `u32::MAX`.
    pub fn bits(mut self, len: usize, full: bool) -> Self {
        self.bitsets
            .push((u32::try_from(len).unwrap_or(u32::MAX), full));
        self
    }

    /// Adds a reversible sparse bit set of `len` positions, all set (see
    /// [`SparseBits`]); it is number [`num_sparse`](StateLayout::num_sparse)
    /// before the call. `len` is capped at `u32::MAX`.
    pub fn sparse_bits(mut self, len: usize) -> Self {
        self.sparse.push(u32::try_from(len).unwrap_or(u32::MAX));
        self
    }

    /// Adds `count` *hints*, 64-bit words starting at `initial` that the
    /// constraint may read and write freely and that backtracking does **not**
    /// restore: for facts that are checked before use, such as the residues
    /// of a support search. They are numbered after the hints added before.
    pub fn hints(mut self, count: usize, initial: u64) -> Self {
        self.hints.extend(std::iter::repeat_n(initial, count));
        self
    }

    /// Number of reversible sparse bit sets.
    pub fn num_sparse(&self) -> usize {
        self.sparse.len()
    }

    /// Number of hints.
    pub fn num_hints(&self) -> usize {
        self.hints.len()
    }

    /// Adds a shifted list: position `j` stands for `vars[j] + offsets[j]`
    /// (lengths must match; the shorter one decides). It is number
    /// [`num_lists`](StateLayout::num_lists) before the call.
    pub fn shifted(mut self, vars: &[VarId], offsets: &[Value]) -> Self {
        let len = vars.len().min(offsets.len());
        self.lists
            .push((vars[..len].to_vec(), offsets[..len].to_vec()));
        self
    }

    /// Asks the kernel, at the propagators level, for the scope positions
    /// whose variables changed since the constraint's last call
    /// ([`PropagationContext::take_woken`](crate::PropagationContext::take_woken)),
    /// Gecode's advisors in a simple form: a constraint that keeps counts
    /// of its scope in trailed state can then update them from the changed
    /// positions instead of scanning its scope. A variable twice in a scope
    /// is listed at its first position.
    pub fn woken(mut self) -> Self {
        self.woken = true;
        self
    }

    /// Whether the layout asks for the changed positions
    /// ([`StateLayout::woken`]).
    pub fn wants_woken(&self) -> bool {
        self.woken
    }

    /// Number of shifted lists.
    pub fn num_lists(&self) -> usize {
        self.lists.len()
    }

    /// Number of integers.
    pub fn num_ints(&self) -> usize {
        self.ints.len()
    }

    /// Number of bit sets.
    pub fn num_bitsets(&self) -> usize {
        self.bitsets.len()
    }

    /// Whether the layout asks for nothing.
    pub fn is_empty(&self) -> bool {
        self.ints.is_empty()
            && self.bitsets.is_empty()
            && self.sparse.is_empty()
            && self.hints.is_empty()
            && self.lists.is_empty()
            && !self.woken
    }
}

/// Where one constraint's state lives: its integers are
/// `cells[ints..ints + n_ints]`, its bit sets `bitsets[sets..sets + n_sets]`,
/// its shifted lists `lists[lists..lists + n_lists]`, its sparse sets
/// `sparse[sparse..sparse + n_sparse]`, its hints `cells[hints..hints + n_hints]`.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    ints: u32,
    n_ints: u32,
    sets: u32,
    n_sets: u32,
    lists: u32,
    n_lists: u32,
    sparse: u32,
    n_sparse: u32,
    hints: u32,
    n_hints: u32,
}

/// A prepared shifted list: the variables and offsets, and, when exact
/// arithmetic allows, the domain store's layout of each (the fast path).
#[derive(Clone, Debug)]
pub(crate) struct ShiftedList {
    pub(crate) vars: Vec<VarId>,
    pub(crate) offsets: Vec<Value>,
    pub(crate) entries: Option<Vec<ShiftedEntry>>,
}

/// One bit set: `len` bits in `cells[first..]`.
#[derive(Clone, Copy, Debug)]
struct BitsetRef {
    first: u32,
    len: u32,
}

/// A mark on the trail: where a search level starts.
#[derive(Clone, Copy, Debug)]
struct LevelMark {
    trail_len: usize,
    entailed_len: usize,
}

/// Every constraint's trailed state in one solver (see [`StateLayout`] and
/// [`Constraint::state_layout`](crate::Constraint::state_layout)).
///
/// Integers and bit-set words are 64-bit cells; a write records the cell's old
/// contents on the trail, and backtracking restores them in reverse order.
/// Constraints reach their own slot through the
/// [`PropagationContext`](crate::PropagationContext):
///
/// ```
/// use csp_core::*;
///
/// /// At most `k` of the scope take the value 1, with a trailed count of the
/// /// ones fixed so far (a sketch: it counts each fixed one once per path).
/// struct AtMostOnes { vars: Vec<VarId>, k: i64 }
///
/// impl Constraint for AtMostOnes {
///     fn scope(&self) -> &[VarId] { &self.vars }
///     fn check(&self, v: &[Value]) -> bool { v.iter().filter(|&&x| x == 1).count() as i64 <= self.k }
///     // Integer 0: the ones counted; bit set 0: the positions not counted yet.
///     fn state_layout(&self, _: Pruning) -> StateLayout {
///         StateLayout::new().int(0).bits(self.vars.len(), true)
///     }
///     fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
///         let mut ones = ctx.state_int(0);
///         for (i, &x) in self.vars.iter().enumerate() {
///             if ctx.state_bit(0, i) && ctx.value(x) == Some(1) {
///                 ctx.clear_state_bit(0, i);
///                 ones += 1;
///             }
///         }
///         ctx.set_state_int(0, ones);
///         if ones > self.k { return Err(Conflict::infeasible()); }
///         let mut changed = false;
///         if ones == self.k {
///             for &x in &self.vars {
///                 if !ctx.is_fixed(x) { changed |= ctx.remove(x, 1)?; }
///             }
///         }
///         Ok(if changed { PropStatus::Changed } else { PropStatus::Unchanged })
///     }
/// }
///
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 4, 0..=1)?;
/// m.post(AtMostOnes { vars: xs, k: 2 })?;
/// for pruning in Pruning::ALL {
///     let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning))?;
///     assert_eq!(s.count().solutions, 1 + 4 + 6); // no, one or two ones
/// }
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct TrailedState {
    cells: Vec<u64>,
    slots: Vec<Slot>,
    bitsets: Vec<BitsetRef>,
    sparse: Vec<SparseRef>,
    lists: Vec<ShiftedList>,
    /// `(cell, contents before)`, undone by `pop_level`.
    trail: Vec<(u32, u64)>,
    /// Per constraint: its forward-checking step, if it has one.
    steps: Vec<StepRef>,
    /// Per constraint: its step's index in `steps`, or `u32::MAX` (four
    /// bytes a constraint: a model of 20,000 sums without steps kept a
    /// 400 KB array of `None`s beside its hot data).
    step_of: Vec<u32>,
    /// The steps' lists, one after the other (see `StepRef`).
    step_entries: Vec<ShiftedEntry>,
    step_offsets: Vec<Value>,
    /// Per constraint: the first cell of its wake set, if it has one.
    wake: Vec<u32>,
    /// Per constraint: where its changed positions are kept in `woken`
    /// ([`StateLayout::woken`]), or `u32::MAX`.
    woken_slot: Vec<u32>,
    woken: Vec<WokenList>,
    /// Per constraint: found entailed on the current path.
    entailed: Vec<bool>,
    entailed_trail: Vec<u32>,
    /// The constraints whose entailment flag changed (set or undone), kept
    /// for the incremental variable selection only.
    pub(crate) entailment_changed: crate::changelog::ChangeLog,
    marks: Vec<LevelMark>,
    /// Levels (from the bottom) whose undo records were dropped.
    forgotten: usize,
}

impl TrailedState {
    /// Gives each constraint (in posting order) a slot for its layout.
    pub(crate) fn new<'a>(
        layouts: impl ExactSizeIterator<Item = &'a StateLayout>,
        domains: &mut Domains,
    ) -> Self {
        let mut s = TrailedState {
            step_of: vec![u32::MAX; layouts.len()],
            wake: vec![u32::MAX; layouts.len()],
            woken_slot: vec![u32::MAX; layouts.len()],
            entailed: vec![false; layouts.len()],
            ..TrailedState::default()
        };
        for (cid, layout) in layouts.enumerate() {
            if layout.woken {
                s.woken_slot[cid] = s.woken.len() as u32;
                s.woken.push(WokenList {
                    positions: SmallVec::new(),
                    all: true,
                });
            }
            let slot = Slot {
                ints: s.cells.len() as u32,
                n_ints: layout.ints.len() as u32,
                sets: s.bitsets.len() as u32,
                n_sets: layout.bitsets.len() as u32,
                lists: s.lists.len() as u32,
                n_lists: layout.lists.len() as u32,
                sparse: s.sparse.len() as u32,
                n_sparse: layout.sparse.len() as u32,
                hints: 0,
                n_hints: layout.hints.len() as u32,
            };
            for (vars, offsets) in &layout.lists {
                s.lists.push(ShiftedList {
                    vars: vars.clone(),
                    offsets: offsets.clone(),
                    entries: domains.shifted_entries(vars, offsets),
                });
            }
            s.cells.extend(layout.ints.iter().map(|&v| v as u64));
            for &(len, full) in &layout.bitsets {
                let first = s.cells.len() as u32;
                let words = (len as usize).div_ceil(64);
                for w in 0..words {
                    let bits = (len as usize - w * 64).min(64);
                    let word = if full { u64::MAX >> (64 - bits) } else { 0 };
                    s.cells.push(word);
                }
                s.bitsets.push(BitsetRef { first, len });
            }
            for &len in &layout.sparse {
                let first = s.cells.len() as u32;
                s.cells.extend(sparse::initial_cells(len));
                s.sparse.push(SparseRef {
                    first,
                    words: len.div_ceil(64),
                });
            }
            let slot = Slot {
                hints: s.cells.len() as u32,
                ..slot
            };
            s.cells.extend_from_slice(&layout.hints);
            s.slots.push(slot);
        }
        s
    }

    /// The cell of integer `i` of constraint `cid`.
    #[inline]
    fn int_cell(&self, cid: usize, i: usize) -> usize {
        let slot = self.slots[cid];
        assert!(
            i < slot.n_ints as usize,
            "trailed integer {i} is not in the constraint's state layout"
        );
        slot.ints as usize + i
    }

    #[inline(always)]
    fn bitset(&self, cid: usize, k: usize) -> BitsetRef {
        let slot = self.slots[cid];
        assert!(
            k < slot.n_sets as usize,
            "trailed bit set {k} is not in the constraint's state layout"
        );
        self.bitsets[slot.sets as usize + k]
    }

    /// Clears position `pos` of bit set `set` of constraint `cid` (trailed), and
    /// gives its shifted list `k` with the words of that bit set.
    #[inline(always)]
    pub(crate) fn take_position(
        &mut self,
        cid: usize,
        k: usize,
        set: usize,
        pos: usize,
    ) -> (&ShiftedList, &[u64]) {
        let (list, first, len) = self.list_and_set_at(cid, k, set);
        if pos < len {
            clear_position(&mut self.cells, &mut self.trail, first, pos);
        }
        (
            &self.lists[list],
            &self.cells[first..first + len.div_ceil(64)],
        )
    }

    /// Where shifted list `k` and bit set `set` of constraint `cid` live: the
    /// list's index, the set's first cell and its length in bits.
    #[inline(always)]
    fn list_and_set_at(&self, cid: usize, k: usize, set: usize) -> (usize, usize, usize) {
        let slot = self.slots[cid];
        assert!(
            k < slot.n_lists as usize && set < slot.n_sets as usize,
            "shifted list {k} or bit set {set} is not in the constraint's state layout"
        );
        let b = self.bitsets[slot.sets as usize + set];
        (slot.lists as usize + k, b.first as usize, b.len as usize)
    }

    /// Shifted list `k` of constraint `cid` with the words of its bit set
    /// `set`, read only.
    #[inline(always)]
    pub(crate) fn list_and_set(&self, cid: usize, k: usize, set: usize) -> (&ShiftedList, &[u64]) {
        let (list, first, len) = self.list_and_set_at(cid, k, set);
        (
            &self.lists[list],
            &self.cells[first..first + len.div_ceil(64)],
        )
    }

    /// Integer `i` of constraint `cid`.
    #[inline]
    pub(crate) fn int(&self, cid: usize, i: usize) -> i64 {
        self.cells[self.int_cell(cid, i)] as i64
    }

    /// Sets integer `i` of constraint `cid`, saving the old value on the trail.
    #[inline]
    pub(crate) fn set_int(&mut self, cid: usize, i: usize, value: i64) {
        let cell = self.int_cell(cid, i);
        self.write(cell, value as u64);
    }

    /// The words of bit set `k` of constraint `cid` (bits past its length are 0).
    #[inline(always)]
    pub(crate) fn words(&self, cid: usize, k: usize) -> &[u64] {
        let b = self.bitset(cid, k);
        let first = b.first as usize;
        &self.cells[first..first + (b.len as usize).div_ceil(64)]
    }

    /// Sets word `i` of bit set `k` of constraint `cid` to `word` (trailed);
    /// bits past the set's length are dropped.
    #[inline]
    pub(crate) fn set_word(&mut self, cid: usize, k: usize, i: usize, word: u64) {
        let b = self.bitset(cid, k);
        assert!(
            i < (b.len as usize).div_ceil(64),
            "word {i} is past bit set {k}"
        );
        let bits = (b.len as usize - i * 64).min(64);
        self.write(b.first as usize + i, word & (u64::MAX >> (64 - bits)));
    }

    /// The cell of hint `i` of constraint `cid`.
    #[inline(always)]
    fn hint_cell(&self, cid: usize, i: usize) -> usize {
        let slot = self.slots[cid];
        assert!(
            i < slot.n_hints as usize,
            "hint {i} is not in the constraint's state layout"
        );
        slot.hints as usize + i
    }

    /// Hint `i` of constraint `cid`.
    #[inline(always)]
    pub(crate) fn hint(&self, cid: usize, i: usize) -> u64 {
        self.cells[self.hint_cell(cid, i)]
    }

    /// Sets hint `i` of constraint `cid` (not trailed).
    #[inline(always)]
    pub(crate) fn set_hint(&mut self, cid: usize, i: usize, value: u64) {
        let cell = self.hint_cell(cid, i);
        self.cells[cell] = value;
    }

    /// Whether position `pos` of bit set `k` of constraint `cid` is set.
    #[inline]
    pub(crate) fn bit(&self, cid: usize, k: usize, pos: usize) -> bool {
        let b = self.bitset(cid, k);
        pos < b.len as usize && self.cells[b.first as usize + pos / 64] >> (pos % 64) & 1 == 1
    }

    /// Sets (`on`) or clears position `pos` of bit set `k` of constraint `cid`;
    /// whether it changed. Positions past the set's length are ignored.
    #[inline(always)]
    pub(crate) fn put_bit(&mut self, cid: usize, k: usize, pos: usize, on: bool) -> bool {
        let b = self.bitset(cid, k);
        if pos >= b.len as usize {
            return false;
        }
        let cell = b.first as usize + pos / 64;
        let old = self.cells[cell];
        let bit = 1u64 << (pos % 64);
        let new = if on { old | bit } else { old & !bit };
        if new == old {
            return false;
        }
        self.write(cell, new);
        true
    }

    #[inline(always)]
    fn write(&mut self, cell: usize, new: u64) {
        let old = self.cells[cell];
        if old != new {
            self.trail.push((cell as u32, old));
            self.cells[cell] = new;
        }
    }

    /// Whether constraint `cid` was found entailed on the current path.
    #[inline]
    pub(crate) fn is_entailed(&self, cid: usize) -> bool {
        self.entailed[cid]
    }

    /// Marks constraint `cid` entailed until the search backtracks above here.
    #[inline]
    pub(crate) fn set_entailed(&mut self, cid: usize) {
        if !self.entailed[cid] {
            self.entailed[cid] = true;
            self.entailed_trail.push(cid as u32);
            self.entailment_changed.note(cid);
        }
    }
}

/// Clears position `pos` of the bit set whose words start at cell `first`,
/// saving the word's old contents on `trail` if it changes.
#[inline(always)]
fn clear_position(cells: &mut [u64], trail: &mut Vec<(u32, u64)>, first: usize, pos: usize) {
    let cell = first + pos / 64;
    let old = cells[cell];
    let bit = 1u64 << (pos % 64);
    if old & bit != 0 {
        trail.push((cell as u32, old));
        cells[cell] = old & !bit;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pop_level_restores_integers_bits_and_entailment() {
        let layouts = [
            StateLayout::new().int(7),
            StateLayout::new(),
            StateLayout::new().bits(70, true).int(-1),
        ];
        let mut d = Domains::new(std::iter::empty());
        let mut s = TrailedState::new(layouts.iter(), &mut d);
        assert_eq!(s.words(2, 0), [u64::MAX, 0b11_1111]);
        assert_eq!((s.int(0, 0), s.int(2, 0)), (7, -1));
        s.push_level();
        s.set_int(0, 0, 9);
        assert!(s.put_bit(2, 0, 65, false));
        assert!(!s.put_bit(2, 0, 65, false));
        assert!(!s.put_bit(2, 0, 70, false), "past the length");
        s.set_entailed(1);
        s.push_level();
        s.set_int(0, 0, 11);
        s.set_int(2, 0, 4);
        // Written twice at one level: the undo must end on the oldest value.
        s.set_int(0, 0, 13);
        assert!(s.put_bit(2, 0, 0, false));
        s.pop_level();
        assert_eq!((s.int(0, 0), s.int(2, 0)), (9, -1));
        assert!(s.bit(2, 0, 0) && !s.bit(2, 0, 65) && s.is_entailed(1));
        s.pop_level();
        assert_eq!(s.int(0, 0), 7);
        assert!(s.bit(2, 0, 65) && !s.is_entailed(1));
    }

    #[test]
    #[should_panic(expected = "not in the constraint's state layout")]
    fn reading_outside_the_layout_is_a_bug() {
        let layouts = [StateLayout::new().int(0)];
        let s = TrailedState::new(layouts.iter(), &mut Domains::new(std::iter::empty()));
        let _ = s.int(0, 1);
    }
}
