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

/// How a value was rejected, as a trace records it: the kind of failure
/// (`not_promising`, `check_failed`, `conflict`, ...), the constraint that
/// rejected it, and the variable left without values, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeadEnd<'a> {
    /// The failure's kind, as in the JSON trace.
    pub kind: &'a str,
    /// The constraint (by index) that rejected the value, if one did.
    pub constraint: Option<usize>,
    /// The variable (by index) left without values, if any.
    pub wiped_out: Option<usize>,
}

/// The one sentence for a dead end, shared by the trace text, the tree's
/// labels and tooltips, the JSON trace and the explorer: `same ↘ diagonal as
/// row 0`, `rows 1 and 3 share a column`, `the column constraint leaves row 3
/// no column`.
///
/// `board[r]` is the column of row `r`'s queen, the queen `tried = (row,
/// column)` included; the clash is [`rejection`]'s.
///
/// ```
/// use nqueens::attack::{dead_end, DeadEnd};
/// use nqueens::{Queens, Variant};
/// let queens = Queens::new(4, Variant::Global)?;
/// let board = [Some(0), Some(2), Some(2), None];
/// let end = DeadEnd { kind: "not_promising", constraint: Some(0), wiped_out: None };
/// assert_eq!(dead_end(&queens, &board, (2, 2), end), "same column as row 1");
/// let wiped = DeadEnd { kind: "conflict", constraint: Some(0), wiped_out: Some(3) };
/// assert_eq!(dead_end(&queens, &board, (2, 2), wiped), "the column constraint leaves row 3 no column");
/// # Ok::<(), nqueens::Error>(())
/// ```
pub fn dead_end(
    queens: &Queens,
    board: &[Option<usize>],
    tried: (usize, usize),
    end: DeadEnd<'_>,
) -> String {
    let (row, _) = tried;
    match end.kind {
        "not_promising" | "check_failed" => {
            match end
                .constraint
                .and_then(|c| rejection(queens, board, tried, c))
            {
                Some(k) if end.kind == "not_promising" && k.rows[1] == row => {
                    format!("same {} as row {}", line_name(k.line), k.rows[0])
                }
                Some(k) => format!(
                    "rows {} and {} share a {}",
                    k.rows[0],
                    k.rows[1],
                    line_name(k.line)
                ),
                None => format!("{} failed", constraint_words(queens, end.constraint)),
            }
        }
        "conflict" => match end.wiped_out {
            Some(v) => format!(
                "{} leaves row {} no column",
                constraint_words(queens, end.constraint),
                queens.row_of(csp_core::VarId::new(v)).unwrap_or(v)
            ),
            None => format!(
                "{} cannot be satisfied",
                constraint_words(queens, end.constraint)
            ),
        },
        other => other.replace('_', " "),
    }
}

/// `the column constraint`, `the ↘ diagonal constraint`, `the no-attack
/// constraint of rows 1 and 2` (pairwise), or `propagation`.
fn constraint_words(queens: &Queens, constraint: Option<usize>) -> String {
    let Some(c) = constraint else {
        return "propagation".to_string();
    };
    if let Some(l) = queens.constraint_line(c) {
        return format!("the {} constraint", line_name(l));
    }
    let rows: Option<Vec<usize>> = queens
        .model()
        .constraint(ConstraintId::new(c))
        .map(|k| k.scope().iter().filter_map(|&v| queens.row_of(v)).collect());
    match rows.as_deref() {
        Some([i, j]) => format!("the no-attack constraint of rows {i} and {j}"),
        _ => "propagation".to_string(),
    }
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
