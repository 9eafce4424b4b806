//! Counting N-Queens solutions one per symmetry class, weighted by the class size.
//!
//! The 8 symmetries of the square (4 rotations, 4 reflections) split the
//! solutions into classes of 8, 4 or 2 boards: a solution is never its own
//! mirror image (two queens would share a line), so its symmetry group is
//! trivial (8 images), the half turn (4 images) or all rotations (2 images).
//! This counter visits one representative per class, following the classic
//! bitboard scheme of Takaken ("N-Queens with symmetry"):
//!
//! * **Corner classes**, those with a queen in a corner: rotate it to the top
//!   left. The transpose keeps that queen in place, so of the two boards we
//!   keep the one whose column-1 queen lies below the column of the row-1
//!   queen (enforced by forbidding column 1 in the rows above). Such a class
//!   always has 8 boards: a turned copy would need a queen in the opposite
//!   corner too, on the same diagonal.
//! * **Edge classes**, all others: let `b` be the smallest distance of a
//!   queen on an edge (first/last row or column) to its nearest corner. The
//!   candidates are the boards with the first-row queen in column `b` and
//!   every edge queen at distance `>= b`. For `b >= 2` the search fixes the
//!   two side-column queens first (and, when few columns are left for it,
//!   the last-row queen), one search per placement, so that their columns
//!   and diagonals prune the rows above them; then it fills the rows in
//!   order, the last two without a loop.
//!   A reflection never ties on the first row, so comparing the candidate
//!   with its three rotations decides whether it is the smallest board of its
//!   class and whether it equals its quarter or half turn.
//!
//! `total` is OEIS A000170 and `unique` OEIS A002562. `n = 0` counts the
//! empty board once (`total = unique = 1`). Boards of up to
//! [`MAX_N`] columns are supported.
//!
//! ```
//! use nqueens::symmetry::{count, count_parallel};
//!
//! let eight = count(8)?;
//! assert_eq!((eight.total, eight.unique), (92, 12));
//! assert_eq!(count_parallel(10, Some(2))?, count(10)?);
//! # Ok::<(), nqueens::bitboard::CounterError>(())
//! ```

use rayon::prelude::*;

mod classify;
mod small;
mod subtrees;

use small::count_small;
pub use subtrees::{Subtree, subtrees};

use crate::bitboard::{
    CounterError, MAX_N, Masks, STACK_MASK, check_size, completions, full_mask, in_pool,
};

/// Solutions counted by symmetry class.
///
/// For `n <= 1` the only board is a class of 1 on its own: it is counted in
/// `total` and `unique` but in none of the `classes_of_*` fields.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SymmetryCount {
    /// All solutions (OEIS A000170).
    pub total: u64,
    /// Classes of solutions under the 8 symmetries of the board (OEIS A002562).
    pub unique: u64,
    /// Classes of 2 solutions: invariant under the quarter turn.
    pub classes_of_2: u64,
    /// Classes of 4 solutions: invariant under the half turn only.
    pub classes_of_4: u64,
    /// Classes of 8 solutions: no symmetry.
    pub classes_of_8: u64,
}

impl SymmetryCount {
    /// Builds the count from the number of classes of each size; `None` if the
    /// total does not fit in a `u64`.
    ///
    /// ```
    /// use nqueens::symmetry::SymmetryCount;
    ///
    /// let c = SymmetryCount::from_classes(1, 0, 11).unwrap();
    /// assert_eq!((c.total, c.unique), (90, 12));
    /// assert_eq!(SymmetryCount::from_classes(0, 0, u64::MAX / 4), None);
    /// ```
    pub fn from_classes(classes_of_2: u64, classes_of_4: u64, classes_of_8: u64) -> Option<Self> {
        let total = 2 * u128::from(classes_of_2)
            + 4 * u128::from(classes_of_4)
            + 8 * u128::from(classes_of_8);
        Some(SymmetryCount {
            total: u64::try_from(total).ok()?,
            // At most the total.
            unique: classes_of_2 + classes_of_4 + classes_of_8,
            classes_of_2,
            classes_of_4,
            classes_of_8,
        })
    }
}

impl SymmetryCount {
    /// The sum of two counts (of disjoint parts of a search), or `None` if a
    /// field overflows.
    ///
    /// ```
    /// use nqueens::symmetry::SymmetryCount;
    ///
    /// let a = SymmetryCount::from_classes(0, 1, 2).unwrap();
    /// let b = SymmetryCount::from_classes(1, 0, 0).unwrap();
    /// assert_eq!(a.checked_add(b), SymmetryCount::from_classes(1, 1, 2));
    /// ```
    pub fn checked_add(self, other: SymmetryCount) -> Option<SymmetryCount> {
        Some(SymmetryCount {
            total: self.total.checked_add(other.total)?,
            unique: self.unique.checked_add(other.unique)?,
            classes_of_2: self.classes_of_2.checked_add(other.classes_of_2)?,
            classes_of_4: self.classes_of_4.checked_add(other.classes_of_4)?,
            classes_of_8: self.classes_of_8.checked_add(other.classes_of_8)?,
        })
    }
}

/// Classes found so far, by size.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Tally {
    of_2: u64,
    of_4: u64,
    of_8: u64,
}

impl Tally {
    /// Saturating: a class count that large makes [`Tally::finish`] fail.
    fn add(self, other: Tally) -> Tally {
        Tally {
            of_2: self.of_2.saturating_add(other.of_2),
            of_4: self.of_4.saturating_add(other.of_4),
            of_8: self.of_8.saturating_add(other.of_8),
        }
    }

    fn finish(self, n: u32) -> Result<SymmetryCount, CounterError> {
        SymmetryCount::from_classes(self.of_2, self.of_4, self.of_8)
            .ok_or(CounterError::Overflow { n })
    }
}

/// Which family of representatives a search enumerates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// Queen in the top-left corner; `bound` is the column of the row-1 queen.
    Corner,
    /// No corner queen; `bound` is the column of the first-row queen.
    Edge,
}

/// The row at which the parallel counter hands subtrees to worker threads.
const SPLIT_ROW: usize = 3;

/// The widest window of rows for the side-column queens
/// (`n - 2 * bound`) on which the edge family also fixes the last-row queen
/// first: on wider windows the copies of the upper rows searched once per
/// last-row column cost more than the pruning saves.
const NARROW: usize = 7;

/// The widest board, as an array length.
const ROWS: usize = MAX_N as usize;

/// A subtree of the search, shipped to a worker by the parallel counter.
#[derive(Debug, Clone, Copy)]
struct Task {
    family: Family,
    bound: u32,
    row: usize,
    masks: Masks,
    rows: [u32; ROWS],
}

/// One depth-first search for the representatives of one family and bound.
struct Search {
    n: usize,
    family: Family,
    /// Corner: column of the row-1 queen; edge: column of the first-row queen.
    bound: u32,
    /// Edge: the row `n - 1 - bound`, by which both side columns must be used.
    bound2: usize,
    /// The first and last columns.
    sides: u32,
    /// The squares of each row the family allows: no column 1 above row
    /// `bound` (corner); no side column above row `bound` and no last-row
    /// queen nearer than `bound` to a corner (edge).
    allowed: [u32; ROWS],
    /// The queen of each filled row, as a one-bit mask (edge family only).
    rows: [u32; ROWS],
    tally: Tally,
    tasks: Vec<Task>,
}

impl Search {
    fn new(n: u32, family: Family, bound: u32) -> Self {
        let all = full_mask(n);
        let sides = 1 | 1 << (n - 1);
        let (n, b) = (n as usize, bound as usize);
        let mut allowed = [all; ROWS];
        let bound2 = match family {
            Family::Corner => {
                allowed[2..b].iter_mut().for_each(|row| *row &= !2);
                usize::MAX
            }
            Family::Edge => {
                allowed[1..b].iter_mut().for_each(|row| *row &= !sides);
                let near = full_mask(bound);
                allowed[n - 1] &= !(near | near.reverse_bits() >> (ROWS - n));
                n - 1 - b
            }
        };
        Search {
            n,
            family,
            bound,
            bound2,
            sides,
            allowed,
            rows: [0; ROWS],
            tally: Tally::default(),
            tasks: Vec::new(),
        }
    }

    /// Places the given queens in the first rows and searches below them;
    /// with `SPLIT` the subtrees at [`SPLIT_ROW`] are collected as tasks.
    fn run<const SPLIT: bool>(&mut self, prefix: &[u32]) {
        let mut masks = Masks::with_columns(full_mask(self.n as u32));
        for (row, &bit) in self.rows.iter_mut().zip(prefix) {
            *row = bit;
            masks = masks.place(bit);
        }
        self.resume::<SPLIT>(prefix.len(), masks);
    }

    fn resume<const SPLIT: bool>(&mut self, row: usize, masks: Masks) {
        match self.family {
            Family::Corner => self.search::<false, SPLIT>(row, masks),
            Family::Edge if !SPLIT && row + 2 < self.n => self.edge_borders(row, masks),
            Family::Edge => self.search::<true, SPLIT>(row, masks),
        }
    }

    /// The squares of `row` that are neither attacked nor forbidden.
    #[inline(always)]
    fn free<const EDGE: bool>(&self, row: usize, cols: u32, ld: u32, rd: u32) -> u32 {
        let free = self.allowed[row & STACK_MASK] & !(cols | ld | rd);
        if EDGE && row == self.bound2 {
            // A side column still empty here would get its queen too close
            // to a bottom corner, unless it takes this very row.
            match cols & self.sides {
                0 => return 0,
                used if used != self.sides => return free & self.sides,
                _ => {}
            }
        }
        free
    }

    /// A complete board: every corner candidate is a representative, an
    /// edge candidate must be compared with its rotations.
    #[inline(always)]
    fn complete<const EDGE: bool>(&mut self) {
        if EDGE {
            self.classify();
        } else {
            self.tally.of_8 += 1;
        }
    }

    /// Depth-first search from `row`, iterative like
    /// [`Masks::completions`]: a frame is pushed only for a row with untried
    /// candidates and a child with no free square is never entered. Rows and
    /// depths are below [`MAX_N`], so indexing with `& STACK_MASK` (a no-op)
    /// spares the bounds checks.
    fn search<const EDGE: bool, const SPLIT: bool>(&mut self, row: usize, masks: Masks) {
        let last = self.n - 1;
        let Masks {
            mut cols,
            mut ld,
            mut rd,
            all,
        } = masks;
        let mut free = self.free::<EDGE>(row, cols, ld, rd);
        if row == last {
            if free != 0 {
                self.rows[row] = free;
                self.complete::<EDGE>();
            }
            return;
        }
        // Frames are pushed for distinct rows below `last`: at most 31.
        let mut stack = [[0u32; 5]; ROWS];
        let mut depth = 0;
        let mut row = row;
        loop {
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                let next = row + 1;
                let (next_cols, next_ld, next_rd) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
                let next_free = self.free::<EDGE>(next, next_cols, next_ld, next_rd);
                if next_free == 0 {
                    continue;
                }
                if EDGE {
                    self.rows[row & STACK_MASK] = bit;
                }
                if next == last {
                    self.rows[last] = next_free;
                    self.complete::<EDGE>();
                    continue;
                }
                if !EDGE && !SPLIT && next >= self.bound as usize {
                    // Below row `bound` a corner candidate has no restriction
                    // left: the plain bitboard kernel counts the completions.
                    self.tally.of_8 += completions(all, next_cols, next_ld, next_rd);
                    continue;
                }
                if SPLIT && next == SPLIT_ROW {
                    let masks = Masks {
                        all,
                        cols: next_cols,
                        ld: next_ld,
                        rd: next_rd,
                    };
                    self.tasks.push(Task {
                        family: self.family,
                        bound: self.bound,
                        row: next,
                        masks,
                        rows: self.rows,
                    });
                    continue;
                }
                if free != 0 {
                    stack[depth & STACK_MASK] = [free, cols, ld, rd, row as u32];
                    depth += 1;
                }
                (free, cols, ld, rd, row) = (next_free, next_cols, next_ld, next_rd, next);
            }
            if depth == 0 {
                return;
            }
            depth -= 1;
            let [f, c, l, r, w] = stack[depth & STACK_MASK];
            (free, cols, ld, rd, row) = (f, c, l, r, w as usize);
        }
    }

    /// The edge family below `row` (at most `n - 3`), border queens first:
    /// for each pair of rows for the side-column queens (within rows
    /// `bound..=n - 1 - bound` and not attacked by the queens above `row`),
    /// and on narrow windows (`n - 2 * bound <= NARROW`) also for each
    /// column of the last-row queen, those queens are fixed (their rows
    /// allow only their square, the rows above lose the squares they attack,
    /// every other row loses their columns) and [`Search::edge`] fills the
    /// rest. The same boards as [`Search::search`], pruned from the top.
    fn edge_borders(&mut self, row: usize, masks: Masks) {
        let top = self.n - 1;
        let b = self.bound as usize;
        if b == 1 {
            // The side columns may take any row but the first and the last,
            // which the first-row queen and the last row's mask already
            // forbid: nothing to fix, and fixing the side queens first
            // would not pay (as many nodes, in more searches).
            self.edge(row, masks);
            return;
        }
        let (left, right) = (1, 1 << top);
        // The squares of row `r >= row` attacked by the queens above `row`.
        let attacked = |r: usize| masks.cols | masks.ld << (r - row) | masks.rd >> (r - row);
        let window = row.max(b)..=self.bound2;
        // `None`: that queen is already placed (or, for the last row, left
        // to the search).
        let rows_for = |side: u32| -> Vec<Option<usize>> {
            if masks.cols & side != 0 {
                vec![None]
            } else {
                window
                    .clone()
                    .filter(|&r| attacked(r) & side == 0)
                    .map(Some)
                    .collect()
            }
        };
        let lefts = rows_for(left);
        let rights = rows_for(right);
        let lasts: Vec<Option<u32>> = if self.n - 2 * b <= NARROW {
            (b as u32..=(top - b) as u32)
                .filter(|&c| attacked(top) & 1 << c == 0)
                .map(Some)
                .collect()
        } else {
            vec![None]
        };
        let base = self.allowed;
        for &a in &lefts {
            for &r_side in &rights {
                if a.is_some() && a == r_side {
                    continue;
                }
                for &l in &lasts {
                    let mut allowed = base;
                    allowed[row..=top]
                        .iter_mut()
                        .for_each(|m| *m &= !(left | right));
                    for (queen_row, bit) in [(a, left), (r_side, right)] {
                        if let Some(q) = queen_row {
                            allowed[q] = bit;
                            for (r, m) in allowed.iter_mut().enumerate().take(q).skip(row) {
                                let d = (q - r) as u32;
                                *m &= !(bit << d | bit >> d);
                            }
                        }
                    }
                    if let Some(c) = l {
                        let bit = 1u32 << c;
                        allowed[top] &= bit;
                        for (r, m) in allowed.iter_mut().enumerate().take(top).skip(row) {
                            let d = (top - r) as u32;
                            *m &= !(bit | bit << d | bit >> d);
                        }
                    }
                    self.allowed = allowed;
                    self.edge(row, masks);
                }
            }
        }
        self.allowed = base;
    }

    /// The edge family's search from `row` (at most `n - 3`) to the end,
    /// like [`Search::search`] but with the last two rows filled together:
    /// once a queen is placed in row `n - 3`, two columns are left, and the
    /// two ways to put them in the last two rows are checked without a loop.
    /// A node is entered only with the candidates that pass a look-ahead
    /// on the two rows below it ([`Search::candidates`]).
    #[inline(never)]
    fn edge(&mut self, row: usize, masks: Masks) {
        let last = self.n - 1;
        let penultimate = last - 1;
        let Masks {
            mut cols,
            mut ld,
            mut rd,
            all,
        } = masks;
        let mut free = self.candidates(row, cols, ld, rd);
        let mut stack = [[0u32; 5]; ROWS];
        let mut depth = 0;
        let mut row = row;
        loop {
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                let next = row + 1;
                let (next_cols, next_ld, next_rd) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
                self.rows[row & STACK_MASK] = bit;
                if next == penultimate {
                    self.last_two(all, next_cols, next_ld, next_rd);
                    continue;
                }
                let next_free = self.candidates(next, next_cols, next_ld, next_rd);
                if next_free == 0 {
                    continue;
                }
                if free != 0 {
                    stack[depth & STACK_MASK] = [free, cols, ld, rd, row as u32];
                    depth += 1;
                }
                (free, cols, ld, rd, row) = (next_free, next_cols, next_ld, next_rd, next);
            }
            if depth == 0 {
                return;
            }
            depth -= 1;
            let [f, c, l, r, w] = stack[depth & STACK_MASK];
            (free, cols, ld, rd, row) = (f, c, l, r, w as usize);
        }
    }

    /// The candidates of `row` (at most `n - 3`) for the edge search, given
    /// its masks: its free squares whose queen leaves a free square in the
    /// next row, or none if the row after that has no free square left
    /// whatever the queens of the two rows. A cheap look-ahead that prunes a
    /// node before its candidates are tried.
    ///
    /// A queen in column `c` takes columns `c - 1..=c + 1` of the next row,
    /// so it empties the next row's free squares `below` exactly when they
    /// all lie within one column of `c`: when `c` is within one column of
    /// both the lowest and the highest of them.
    #[inline(always)]
    fn candidates(&self, row: usize, cols: u32, ld: u32, rd: u32) -> u32 {
        let free_in = |k: usize| self.allowed[(row + k) & STACK_MASK] & !(cols | ld << k | rd >> k);
        let (free, below) = (free_in(0), free_in(1));
        if free == 0 || below == 0 || free_in(2) == 0 {
            return 0;
        }
        let low = below & below.wrapping_neg();
        let high = 1 << (31 - below.leading_zeros());
        let spread = |x: u32| x | x << 1 | x >> 1;
        free & !(spread(low) & spread(high))
    }

    /// The last two rows of an edge candidate, given the masks of row
    /// `n - 2`: its free squares are among the two columns left, and each
    /// one leaves the other column to the last row.
    #[inline(always)]
    fn last_two(&mut self, all: u32, cols: u32, ld: u32, rd: u32) {
        let last = self.n - 1;
        let penultimate = last - 1;
        let free = self.free::<false>(penultimate, cols, ld, rd);
        if free == 0 {
            return;
        }
        let left = all & !cols;
        let low = free & free.wrapping_neg();
        let high = free ^ low;
        let allowed = self.allowed[last & STACK_MASK];
        let fits = |bit: u32| allowed & (left ^ bit) & !(((ld | bit) << 1) | ((rd | bit) >> 1));
        let low_fits = fits(low);
        let high_fits = if high != 0 { fits(high) } else { 0 };
        if low_fits | high_fits == 0 {
            return;
        }
        for (bit, fits) in [(low, low_fits), (high, high_fits)] {
            if fits != 0 {
                self.rows[penultimate & STACK_MASK] = bit;
                self.rows[last & STACK_MASK] = fits;
                self.classify();
            }
        }
    }
}

/// The searches that together visit every class once: the corner family for
/// each column of the row-1 queen, the edge family for each first-row column
/// nearer to the left side than to the right one.
fn searches(n: u32) -> impl Iterator<Item = (Family, u32, Vec<u32>)> {
    let corners = (2..n).map(|b| (Family::Corner, b, vec![1, 1 << b]));
    let edges = (1..).take_while(move |&b| b < n - 1 - b);
    corners.chain(edges.map(|b| (Family::Edge, b, vec![1 << b])))
}

/// Counts solutions and classes of solutions of the `n`-queens problem.
///
/// Errors when `n > MAX_N`.
///
/// ```
/// use nqueens::symmetry::count;
///
/// let ten = count(10)?;
/// assert_eq!((ten.total, ten.unique), (724, 92));
/// assert_eq!(ten.classes_of_2 + ten.classes_of_4 + ten.classes_of_8, ten.unique);
/// # Ok::<(), nqueens::bitboard::CounterError>(())
/// ```
pub fn count(n: u32) -> Result<SymmetryCount, CounterError> {
    check_size(n)?;
    if n < 4 {
        return Ok(count_small(n));
    }
    let mut tally = Tally::default();
    for (family, bound, prefix) in searches(n) {
        let mut search = Search::new(n, family, bound);
        search.run::<false>(&prefix);
        tally = tally.add(search.tally);
    }
    tally.finish(n)
}

/// Like [`count`], with the [`subtrees`] counted in parallel by rayon
/// (`threads` as in [`bitboard::count_parallel`](crate::bitboard::count_parallel)).
///
/// ```
/// use nqueens::symmetry::{count, count_parallel};
///
/// assert_eq!(count_parallel(9, Some(2))?.unique, 46);
/// # Ok::<(), nqueens::bitboard::CounterError>(())
/// ```
pub fn count_parallel(n: u32, threads: Option<usize>) -> Result<SymmetryCount, CounterError> {
    check_size(n)?;
    if n < 4 {
        return in_pool(threads, || count_small(n));
    }
    let subtrees = subtrees(n)?;
    let tally = in_pool(threads, || {
        // One stealable job per subtree: they are ordered by family and
        // bound, so rayon's default halving left one thread with the heavy
        // end (n = 16 on 2 threads: 1.5x instead of 1.9x).
        subtrees
            .par_iter()
            .with_max_len(1)
            .map(Subtree::tally)
            .reduce(Tally::default, Tally::add)
    })?;
    tally.finish(n)
}

#[cfg(test)]
mod tests {
    use super::small::images;
    use super::*;
    use crate::bitboard::tests::A000170;

    /// OEIS A002562 for n = 0..=17 (a(0) = 1: the empty board).
    const A002562: [u64; 18] = [
        1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955, 11977939,
    ];

    #[test]
    fn counts_match_oeis_up_to_13() {
        for n in 0..=13 {
            let c = count(n).unwrap();
            assert_eq!(c.total, A000170[n as usize], "total, n = {n}");
            assert_eq!(c.unique, A002562[n as usize], "unique, n = {n}");
        }
    }

    #[test]
    #[ignore = "slow: about half a minute in release; run with --ignored"]
    fn counts_match_oeis_from_14_to_17() {
        for n in 14..=17 {
            let c = count_parallel(n, None).unwrap();
            assert_eq!(c.total, A000170[n as usize], "total, n = {n}");
            assert_eq!(c.unique, A002562[n as usize], "unique, n = {n}");
        }
    }

    /// The edge family row by row, checking the side columns at row
    /// `n - 1 - bound` ([`Search::search`]), from `row` with the queens of
    /// `rows` above it.
    fn edge_row_by_row(n: u32, bound: u32, rows: &[u32], row: usize) -> Tally {
        let mut search = Search::new(n, Family::Edge, bound);
        let mut masks = Masks::with_columns(full_mask(n));
        for (r, &bit) in rows.iter().enumerate().take(row) {
            search.rows[r] = bit;
            masks = masks.place(bit);
        }
        search.search::<true, false>(row, masks);
        search.tally
    }

    #[test]
    fn edge_family_border_first_equals_row_by_row() {
        for n in 4..=13 {
            for (family, bound, prefix) in searches(n) {
                if family != Family::Edge {
                    continue;
                }
                // The whole family from row 1, as `count` runs it...
                let mut search = Search::new(n, family, bound);
                search.run::<false>(&prefix);
                assert_eq!(
                    search.tally,
                    edge_row_by_row(n, bound, &prefix, 1),
                    "n = {n}, first-row column {bound}"
                );
                // ...and each subtree below row 3, as the shares run them.
                let mut split = Search::new(n, family, bound);
                split.run::<true>(&prefix);
                for task in split.tasks {
                    let mut search = Search::new(n, family, bound);
                    search.rows = task.rows;
                    search.resume::<false>(task.row, task.masks);
                    assert_eq!(
                        search.tally,
                        edge_row_by_row(n, bound, &task.rows, task.row),
                        "n = {n}, first-row column {bound}, rows {:?}",
                        &task.rows[..task.row]
                    );
                }
            }
        }
    }

    #[test]
    fn families_agree_with_comparing_all_eight_images() {
        for n in 4..=10 {
            assert_eq!(count(n).unwrap(), count_small(n), "n = {n}");
        }
    }

    #[test]
    fn class_sizes_add_up_to_the_total() {
        for n in 2..=12 {
            let c = count(n).unwrap();
            assert_eq!(
                c,
                SymmetryCount::from_classes(c.classes_of_2, c.classes_of_4, c.classes_of_8)
                    .unwrap()
            );
        }
    }

    #[test]
    fn quarter_turn_symmetric_classes_need_n_mod_4_in_0_1() {
        for n in 4..=12 {
            let c = count(n).unwrap();
            if n % 4 > 1 {
                assert_eq!(c.classes_of_2, 0, "n = {n}");
            }
        }
        // ... and do occur, e.g. the single 4-queens class.
        assert_eq!(count(4).unwrap().classes_of_2, 1);
    }

    #[test]
    fn parallel_count_equals_sequential() {
        for n in 0..=12 {
            let sequential = count(n).unwrap();
            assert_eq!(count_parallel(n, None).unwrap(), sequential, "n = {n}");
            assert_eq!(count_parallel(n, Some(2)).unwrap(), sequential, "n = {n}");
        }
    }

    #[test]
    fn subtrees_add_up_to_the_whole_count() {
        for n in 0..=12 {
            let subtrees = subtrees(n).unwrap();
            let sum = subtrees
                .iter()
                .map(|s| s.count().unwrap())
                .try_fold(SymmetryCount::default(), SymmetryCount::checked_add)
                .unwrap();
            assert_eq!(sum, count(n).unwrap(), "n = {n}");
        }
        // Hundreds of subtrees from n = 12 on (276; 872 at n = 16): enough
        // to share among many jobs.
        assert!(subtrees(12).unwrap().len() > 250);
    }

    #[test]
    fn rejects_boards_wider_than_the_mask() {
        assert!(matches!(count(33), Err(CounterError::TooLarge { .. })));
        assert!(matches!(
            count_parallel(33, Some(1)),
            Err(CounterError::TooLarge { .. })
        ));
        assert!(matches!(
            count_parallel(8, Some(0)),
            Err(CounterError::ZeroThreads)
        ));
    }

    #[test]
    fn images_of_a_board_are_its_rotations_and_reflections() {
        let board = vec![1, 3, 0, 2];
        let images = images(&board);
        assert_eq!(images[1], board); // the quarter turn maps it to itself
        assert_eq!(images[4], vec![2, 0, 3, 1]);
    }
}
