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
        let c = c?;
        let line = if r == row {
            return None;
        } else if c == col {
            Line::Column
        } else if r.abs_diff(row) != c.abs_diff(col) {
            return None;
        } else if (r < row) == (c < col) {
            Line::Diagonal
        } else {
            Line::AntiDiagonal
        };
        Some(Attack { row: r, line })
    })
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
