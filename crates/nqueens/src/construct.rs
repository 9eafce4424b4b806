//! Explicit O(n) placements of n non-attacking queens, and an O(n) validator.
//!
//! The classic closed form (Hoffman, Loessi and Moore 1969; Bernhardsson
//! 1991), in 1-based columns listed row by row:
//!
//! * `n mod 6` is not 2 or 3: the even columns `2, 4, ..., ` then the odd
//!   columns `1, 3, ...`;
//! * `n mod 6 = 2`: the even columns, then the odd columns with 1 and 3
//!   swapped and 5 moved to the end: `3, 1, 7, 9, ..., 5`;
//! * `n mod 6 = 3`: the even columns with 2 moved to the end
//!   (`4, 6, ..., 2`), then the odd columns with 1 and 3 moved to the end
//!   (`5, 7, ..., 1, 3`).
//!
//! The functions here use 0-based columns: `columns[row]` is the column of
//! the queen in `row`.
//!
//! ```
//! use nqueens::construct::{construct, validate};
//!
//! let board = construct(8)?;
//! assert_eq!(board, [1, 3, 5, 7, 2, 0, 6, 4]);
//! assert_eq!(validate(&board), Ok(()));
//! # Ok::<(), nqueens::construct::ConstructError>(())
//! ```

/// Why no placement can be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ConstructError {
    /// The 2x2 and 3x3 boards have no solution.
    #[error("the {n}-queens problem has no solution")]
    NoSolution {
        /// The board size.
        n: usize,
    },
}

/// The line two attacking queens share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// The same column.
    Column,
    /// The same diagonal going down to the right (`row - column` constant).
    Diagonal,
    /// The same diagonal going down to the left (`row + column` constant).
    AntiDiagonal,
}

/// Why a placement is not a solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    /// A queen outside the board.
    #[error("row {row}: column {column} is outside a board of {n} columns")]
    OffBoard {
        /// The row of the queen.
        row: usize,
        /// Its column.
        column: usize,
        /// The board size (the number of rows given).
        n: usize,
    },
    /// Two queens attack each other; `first < second`, and `second` is the
    /// first row, top down, that attacks an earlier row.
    #[error("rows {first} and {second} attack each other along a {line:?}")]
    Attack {
        /// The earlier row.
        first: usize,
        /// The later row.
        second: usize,
        /// The line they share.
        line: Line,
    },
}

/// Places `n` non-attacking queens in O(n) time by the closed form above.
///
/// `n = 0` gives the empty board and `n = 1` the single queen; `n = 2` and
/// `n = 3` have no solution.
///
/// ```
/// use nqueens::construct::{construct, ConstructError};
///
/// assert_eq!(construct(1), Ok(vec![0]));
/// assert_eq!(construct(3), Err(ConstructError::NoSolution { n: 3 }));
/// assert_eq!(construct(9)?, [3, 5, 7, 1, 4, 6, 8, 0, 2]);
/// # Ok::<(), ConstructError>(())
/// ```
pub fn construct(n: usize) -> Result<Vec<usize>, ConstructError> {
    if n == 2 || n == 3 {
        return Err(ConstructError::NoSolution { n });
    }
    // 1-based even and odd columns, in order.
    let evens = (2..=n).step_by(2);
    let odds = (1..=n).step_by(2);
    let one_based: Vec<usize> = match n % 6 {
        2 => evens.chain([3, 1]).chain(odds.skip(3)).chain([5]).collect(),
        3 => evens
            .skip(1)
            .chain([2])
            .chain(odds.skip(2))
            .chain([1, 3])
            .collect(),
        _ => evens.chain(odds).collect(),
    };
    Ok(one_based.into_iter().map(|c| c - 1).collect())
}

/// Checks that `columns` (one queen per row, `columns[row]` its column) is a
/// solution on an `columns.len()`-square board, in O(n) time and memory.
///
/// Rows are checked top down; the error names the first row that attacks an
/// earlier one, the row it attacks and the line they share.
///
/// ```
/// use nqueens::construct::{validate, Invalid, Line};
///
/// assert_eq!(validate(&[1, 3, 0, 2]), Ok(()));
/// assert_eq!(
///     validate(&[0, 2, 1, 3]),
///     Err(Invalid::Attack { first: 1, second: 2, line: Line::AntiDiagonal })
/// );
/// assert_eq!(validate(&[0, 4, 1]), Err(Invalid::OffBoard { row: 1, column: 4, n: 3 }));
/// ```
pub fn validate(columns: &[usize]) -> Result<(), Invalid> {
    /// Marks a free line.
    const NONE: usize = usize::MAX;
    let n = columns.len();
    // The row holding each column and diagonal, if any.
    let mut column_row = vec![NONE; n];
    let mut diagonal_row = vec![NONE; 2 * n];
    let mut anti_diagonal_row = vec![NONE; 2 * n];
    for (row, &column) in columns.iter().enumerate() {
        if column >= n {
            return Err(Invalid::OffBoard { row, column, n });
        }
        // row - column + n - 1 is in 0..2n-1 for row, column < n.
        let lines = [
            (&mut column_row[column], Line::Column),
            (&mut diagonal_row[row + n - 1 - column], Line::Diagonal),
            (&mut anti_diagonal_row[row + column], Line::AntiDiagonal),
        ];
        for (owner, line) in lines {
            if *owner != NONE {
                return Err(Invalid::Attack {
                    first: *owner,
                    second: row,
                    line,
                });
            }
            *owner = row;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructs_a_solution_for_every_n_from_4_to_2000() {
        for n in 4..=2000 {
            let board = construct(n).unwrap();
            assert_eq!(board.len(), n);
            assert_eq!(validate(&board), Ok(()), "n = {n}");
        }
    }

    #[test]
    fn constructs_solutions_for_huge_boards() {
        for n in [100_000, 100_001, 100_002, 100_003, 1_000_000] {
            let board = construct(n).unwrap();
            assert_eq!(board.len(), n);
            assert_eq!(validate(&board), Ok(()), "n = {n}");
        }
    }

    #[test]
    fn tiny_boards_have_trivial_or_no_solutions() {
        assert_eq!(construct(0), Ok(vec![]));
        assert_eq!(construct(1), Ok(vec![0]));
        assert_eq!(construct(2), Err(ConstructError::NoSolution { n: 2 }));
        assert_eq!(construct(3), Err(ConstructError::NoSolution { n: 3 }));
    }

    #[test]
    fn construction_covers_every_residue_mod_6() {
        // n = 8 (mod 6 = 2) and n = 9 (mod 6 = 3) are the special cases.
        assert_eq!(construct(8).unwrap(), [1, 3, 5, 7, 2, 0, 6, 4]);
        assert_eq!(construct(9).unwrap(), [3, 5, 7, 1, 4, 6, 8, 0, 2]);
        assert_eq!(construct(6).unwrap(), [1, 3, 5, 0, 2, 4]);
        assert_eq!(construct(7).unwrap(), [1, 3, 5, 0, 2, 4, 6]);
    }

    #[test]
    fn validate_accepts_empty_and_single_queen() {
        assert_eq!(validate(&[]), Ok(()));
        assert_eq!(validate(&[0]), Ok(()));
    }

    #[test]
    fn validate_names_the_attacking_rows_and_line() {
        assert_eq!(
            validate(&[2, 0, 3, 2]),
            Err(Invalid::Attack {
                first: 0,
                second: 3,
                line: Line::Column
            })
        );
        assert_eq!(
            validate(&[0, 2, 4, 1, 3]),
            Ok(()) // a genuine 5-queens solution, as a control
        );
        assert_eq!(validate(&[0, 3, 1, 4, 2]), Ok(()));
        assert_eq!(
            validate(&[1, 3, 0, 4, 2, 5]),
            Err(Invalid::Attack {
                first: 0,
                second: 3,
                line: Line::Diagonal
            })
        );
        assert_eq!(
            validate(&[0, 1]),
            Err(Invalid::Attack {
                first: 0,
                second: 1,
                line: Line::Diagonal
            })
        );
    }

    #[test]
    fn validate_rejects_queens_off_the_board() {
        assert_eq!(
            validate(&[0, 2]),
            Err(Invalid::OffBoard {
                row: 1,
                column: 2,
                n: 2
            })
        );
    }

    #[test]
    fn validate_agrees_with_pairwise_checks_on_all_small_placements() {
        // Every placement of 5 queens in 5 columns, including repeats.
        for code in 0..5usize.pow(5) {
            let board: Vec<usize> = (0..5).map(|i| code / 5usize.pow(i) % 5).collect();
            let attacking = (0..5).any(|a| {
                (a + 1..5).any(|b| board[a] == board[b] || b - a == board[a].abs_diff(board[b]))
            });
            assert_eq!(validate(&board).is_err(), attacking, "{board:?}");
        }
    }
}
