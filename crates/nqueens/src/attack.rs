//! Which placed queen attacks a square: the lowest-index row, so explanations are deterministic.
//!
//! ```
//! use nqueens::attack::{first_attacker, Attack};
//! use nqueens::construct::Line;
//!
//! // Queens in row 0 (column 1) and row 1 (column 3) of a 4x4 board.
//! let board = [Some(1), Some(3), None, None];
//! // Row 2, column 3 is attacked by both; row 0 is named, the lower index.
//! assert_eq!(first_attacker(&board, 2, 3), Some(Attack { row: 0, line: Line::Diagonal }));
//! assert_eq!(first_attacker(&board, 2, 0), None);
//! ```

use csp_core::ConstraintId;

use crate::Queens;
pub use crate::construct::Line;

/// A placed queen attacking a square, and the line they share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attack {
    /// The row of the attacking queen.
    pub row: usize,
    /// The line: the same column, the same `row - column` diagonal, or the same
    /// `row + column` anti-diagonal.
    pub line: Line,
}

/// The lowest-index row of `board` (`board[r]` is the column of row `r`'s
/// queen, if placed) whose queen attacks `(row, col)`, ignoring `row` itself.
/// A column attack is reported before a diagonal one of the same row (a queen
/// cannot share both).
pub fn first_attacker(board: &[Option<usize>], row: usize, col: usize) -> Option<Attack> {
    board.iter().enumerate().find_map(|(r, &c)| {
        let line = line_of(r, c?, row, col)?;
        Some(Attack { row: r, line })
    })
}

/// Why a value was rejected, in the puzzle's words: two queens, by row (the
/// earlier one first when one of them is the queen tried), and the line they
/// share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clash {
    /// The rows of the two queens: `[earlier, tried]` when the queen tried is
    /// one of them, else in increasing order.
    pub rows: [usize; 2],
    /// The line they share.
    pub line: Line,
}

impl Clash {
    /// `↙ diagonal 0,2`: the line and the two rows, as the tree's labels show it.
    pub fn label(&self) -> String {
        format!("{} {},{}", line_name(self.line), self.rows[0], self.rows[1])
    }
}

/// The one rule for "why was this rejected", shared by the trace text, the
/// JSON trace, the SVG label and the SVG attack line: the engine names the
/// constraint that rejected the value; the clash is the pair of queens that
/// constraint sees in conflict, along a line it guards.
///
/// `board[r]` is the column of row `r`'s queen, the queen `tried = (row,
/// column)` included. Among the queens of the constraint's scope, the
/// lowest row that attacks the queen tried is named; if none does (a complete
/// assignment that fails elsewhere, under `none`), the first attacking pair
/// of the scope in row order. `None` without a constraint or a clash.
///
/// ```
/// use nqueens::attack::{rejection, Clash, Line};
/// use nqueens::{Queens, Variant};
///
/// // Queens in row 0 (column 0) and row 1 (column 2); row 2 tries column 2:
/// // the global model's first constraint (columns) rejects it.
/// let queens = Queens::new(4, Variant::Global)?;
/// let board = [Some(0), Some(2), Some(2), None];
/// let clash = rejection(&queens, &board, (2, 2), 0);
/// assert_eq!(clash, Some(Clash { rows: [1, 2], line: Line::Column }));
/// // Under the diagonal constraint (row − column constant) it is row 0.
/// assert_eq!(rejection(&queens, &board, (2, 2), 2).map(|c| c.rows), Some([0, 2]));
/// # Ok::<(), nqueens::Error>(())
/// ```
pub fn rejection(
    queens: &Queens,
    board: &[Option<usize>],
    tried: (usize, usize),
    constraint: usize,
) -> Option<Clash> {
    let c = queens.model().constraint(ConstraintId::new(constraint))?;
    let mut rows: Vec<usize> = c.scope().iter().filter_map(|&v| queens.row_of(v)).collect();
    rows.sort_unstable();
    let guarded = queens.constraint_line(constraint);
    let line_between = |a: usize, b: usize| {
        let (ca, cb) = ((*board.get(a)?)?, (*board.get(b)?)?);
        let line = line_of(a, ca, b, cb)?;
        guarded.is_none_or(|g| g == line).then_some(line)
    };
    let (row, _) = tried;
    if rows.contains(&row) {
        for &r in rows.iter().filter(|&&r| r != row) {
            if let Some(line) = line_between(r, row) {
                return Some(Clash {
                    rows: [r, row],
                    line,
                });
            }
        }
    }
    for (k, &a) in rows.iter().enumerate() {
        for &b in &rows[k + 1..] {
            if let Some(line) = line_between(a, b) {
                return Some(Clash { rows: [a, b], line });
            }
        }
    }
    None
}

/// The line queens at `(r1, c1)` and `(r2, c2)` share, if any (distinct rows).
fn line_of(r1: usize, c1: usize, r2: usize, c2: usize) -> Option<Line> {
    if r1 == r2 {
        None
    } else if c1 == c2 {
        Some(Line::Column)
    } else if r1.abs_diff(r2) != c1.abs_diff(c2) {
        None
    } else if (r1 < r2) == (c1 < c2) {
        Some(Line::Diagonal)
    } else {
        Some(Line::AntiDiagonal)
    }
}

/// The words for a line in explanations: `column`, `↘ diagonal` (row − column
/// constant), `↙ diagonal` (row + column constant); the arrows point down the
/// board as it is printed, row 0 on top.
pub fn line_name(line: Line) -> &'static str {
    match line {
        Line::Column => "column",
        Line::Diagonal => "↘ diagonal",
        Line::AntiDiagonal => "↙ diagonal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_lowest_row_among_several_attackers() {
        let board = [None, Some(0), Some(2), None];
        // (3, 0): row 1 shares the column, row 2 does not attack; row 1 wins.
        assert_eq!(
            first_attacker(&board, 3, 0),
            Some(Attack {
                row: 1,
                line: Line::Column
            })
        );
        // (3, 1): row 2 on the anti-diagonal (row + column = 4).
        assert_eq!(
            first_attacker(&board, 3, 1),
            Some(Attack {
                row: 2,
                line: Line::AntiDiagonal
            })
        );
    }

    #[test]
    fn attacks_from_below_are_found_too() {
        // Under first-fail rows are filled out of order.
        let board = [None, None, None, Some(3)];
        assert_eq!(
            first_attacker(&board, 0, 0),
            Some(Attack {
                row: 3,
                line: Line::Diagonal
            })
        );
        assert_eq!(first_attacker(&board, 3, 3), None);
    }
}
