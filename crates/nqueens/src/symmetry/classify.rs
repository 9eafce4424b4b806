//! Whether a complete edge candidate is the smallest board of its symmetry
//! class, and the size of that class.

use super::Search;
use crate::bitboard::MAX_N;

impl Search {
    /// Tallies a complete edge candidate if it is the smallest board of its
    /// class (rows compared as column numbers, top row first).
    #[inline(never)]
    pub(super) fn classify(&mut self) {
        let (n, b) = (self.n as u32, self.bound);
        let top = n - 1;
        // The rotations whose first row ties with ours (queen in column b).
        let quarter_ties = self.rows[self.bound2] == 1;
        let half_ties = self.rows[top as usize] == 1 << (top - b);
        let three_quarter_ties = self.rows[b as usize] == 1 << top;
        if !(quarter_ties || half_ties || three_quarter_ties) {
            self.tally.of_8 += 1;
            return;
        }
        let mut col = [0u32; MAX_N as usize];
        let mut inv = [0u32; MAX_N as usize];
        for (r, (&bit, c)) in (0..n).zip(self.rows.iter().zip(col.iter_mut())) {
            *c = bit.trailing_zeros();
            inv[*c as usize] = r;
        }
        let col = &col[..n as usize];
        let inv = &inv[..n as usize];
        // Quarter turn (r, c) -> (c, n-1-r): row i holds column n-1-inv[i].
        if quarter_ties {
            match compare(col, |i| top - inv[i]) {
                std::cmp::Ordering::Greater => return,
                std::cmp::Ordering::Equal => {
                    self.tally.of_2 += 1;
                    return;
                }
                std::cmp::Ordering::Less => {}
            }
        }
        // Half turn (r, c) -> (n-1-r, n-1-c).
        if half_ties {
            match compare(col, |i| top - col[n as usize - 1 - i]) {
                std::cmp::Ordering::Greater => return,
                std::cmp::Ordering::Equal => {
                    self.tally.of_4 += 1;
                    return;
                }
                std::cmp::Ordering::Less => {}
            }
        }
        // Three-quarter turn (r, c) -> (n-1-c, r): row i holds column inv[n-1-i].
        if three_quarter_ties && compare(col, |i| inv[n as usize - 1 - i]).is_gt() {
            return;
        }
        self.tally.of_8 += 1;
    }
}

/// Compares a board with a transformed board given row by row.
fn compare(col: &[u32], other: impl Fn(usize) -> u32) -> std::cmp::Ordering {
    col.iter()
        .enumerate()
        .map(|(i, c)| c.cmp(&other(i)))
        .find(|o| o.is_ne())
        .unwrap_or(std::cmp::Ordering::Equal)
}
