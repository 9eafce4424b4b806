//! Rendering solutions in the formats of the classic programs: list, positions, board.
//!
//! A solution is `columns[row]`, the 0-based column of the queen in each row.
//!
//! ```
//! use nqueens::board::{render, Format};
//!
//! let s = [1, 3, 0, 2];
//! assert_eq!(render(Format::List, &s), "[1, 3, 0, 2]");        // the Java program
//! assert_eq!(render(Format::Positions, &s), " 1 3 0 2");       // printf("%2d") in C
//! assert_eq!(render(Format::Board, &s), ".Q..\n...Q\nQ...\n..Q.");
//! ```

use std::fmt::Write as _;
use std::io::{self, Write};
use std::str::FromStr;

/// The mark of a square holding a queen.
pub const QUEEN: char = 'Q';
/// The mark of an empty square.
pub const EMPTY: char = '.';

/// How to print a solution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// `[1, 3, 0, 2]`: the columns by row, like `List.toString()` in Java.
    #[default]
    List,
    /// ` 1 3 0 2`: each column as `printf("%2d")`, like the C program (wider
    /// fields from `n = 11`, see [`positions_width`]).
    Positions,
    /// One line per row, one character per square: `Q` a queen, `.` empty.
    Board,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 3] = [Format::List, Format::Positions, Format::Board];

    /// The name used on command lines: `list`, `positions`, `board`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::List => "list",
            Format::Positions => "positions",
            Format::Board => "board",
        }
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| format!("unknown format '{s}' (expected list, positions or board)"))
    }
}

/// One solution in `format`, without a final newline.
pub fn render(format: Format, columns: &[usize]) -> String {
    let mut s = String::new();
    match format {
        Format::List => {
            s.push('[');
            for (i, c) in columns.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                let _ = write!(s, "{c}");
            }
            s.push(']');
        }
        Format::Positions => {
            let width = positions_width(columns.len());
            for c in columns {
                let _ = write!(s, "{c:width$}");
            }
        }
        Format::Board => {
            let n = columns.len();
            for (row, &col) in columns.iter().enumerate() {
                if row > 0 {
                    s.push('\n');
                }
                s.extend((0..n).map(|c| if c == col { QUEEN } else { EMPTY }));
            }
        }
    }
    s
}

/// The field width of `positions` on an `n`-column board: 2, as `printf("%2d")`,
/// up to `n = 10`; beyond, one more than the digits of the largest column, so
/// that two-digit columns stay apart (C's `%2d` would print `10 3` as `10 3`
/// but `11` and `12` as `1112`).
///
/// ```
/// use nqueens::board::positions_width;
/// assert_eq!((positions_width(8), positions_width(10), positions_width(11), positions_width(1000)), (2, 2, 3, 4));
/// ```
pub fn positions_width(n: usize) -> usize {
    let largest = n.saturating_sub(1);
    let digits = largest.checked_ilog10().map_or(1, |d| d as usize + 1);
    (digits + 1).max(2)
}

/// Writes solutions one after another: one line each for `list` and
/// `positions`, boards separated by an empty line.
#[derive(Debug)]
pub struct SolutionWriter<W> {
    out: W,
    format: Format,
    written: u64,
}

impl<W: Write> SolutionWriter<W> {
    /// A writer of `format` to `out`.
    pub fn new(out: W, format: Format) -> Self {
        SolutionWriter {
            out,
            format,
            written: 0,
        }
    }

    /// Writes one solution.
    pub fn write(&mut self, columns: &[usize]) -> io::Result<()> {
        if self.format == Format::Board && self.written > 0 {
            writeln!(self.out)?;
        }
        self.written += 1;
        writeln!(self.out, "{}", render(self.format, columns))
    }

    /// How many solutions were written.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Flushes and returns the output.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_use_two_columns_per_queen_like_printf() {
        assert_eq!(
            render(Format::Positions, &[0, 4, 7, 5, 2, 6, 1, 3]),
            " 0 4 7 5 2 6 1 3"
        );
        // From n = 11 on the field widens so that columns never run together.
        let eleven = [0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9];
        assert_eq!(
            render(Format::Positions, &eleven),
            "  0  2  4  6  8 10  1  3  5  7  9"
        );
    }

    #[test]
    fn boards_are_separated_by_an_empty_line() {
        let mut w = SolutionWriter::new(Vec::new(), Format::Board);
        w.write(&[0]).unwrap();
        w.write(&[0]).unwrap();
        assert_eq!(w.written(), 2);
        assert_eq!(w.finish().unwrap(), b"Q\n\nQ\n");
    }

    #[test]
    fn the_empty_board_renders_as_empty() {
        assert_eq!(render(Format::List, &[]), "[]");
        assert_eq!(render(Format::Positions, &[]), "");
        assert_eq!(render(Format::Board, &[]), "");
    }

    #[test]
    fn format_names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.as_str().parse(), Ok(f));
        }
        assert!("grid".parse::<Format>().is_err());
    }
}
