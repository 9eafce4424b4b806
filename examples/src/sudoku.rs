//! Sudoku: reading puzzles, the 81-variable model, and solving with a uniqueness check.

use std::fmt;
use std::str::FromStr;

use csp_core::{Config, CspError, Model, SearchStats, SearchStatus, Solver, StopReason, VarId};

use crate::InputError;

pub mod explore;

/// A Sudoku grid: 81 cells, row by row, `0` for a blank.
///
/// Read one from 81 characters, `1`-`9` for a given and `.` or `0` for a blank;
/// spaces and the separators `|`, `-`, `+` are ignored, so a pretty-printed grid
/// reads back:
///
/// ```
/// use csp_examples::sudoku::Sudoku;
/// let line = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
/// let puzzle: Sudoku = line.parse()?;
/// assert_eq!(puzzle.givens(), 21);
/// assert_eq!(puzzle.to_string().parse::<Sudoku>()?, puzzle);
/// assert_eq!(puzzle.to_line(), line);
/// # Ok::<(), csp_examples::InputError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sudoku {
    cells: [u8; 81],
}

/// A puzzle read from a file, with where it starts and its comment, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleEntry {
    /// The line (from 1) where the puzzle's first cell is.
    pub line: usize,
    /// The text after `#` on that line.
    pub label: Option<String>,
    /// The puzzle.
    pub puzzle: Sudoku,
}

impl Sudoku {
    /// A grid from 81 cell values (0 for blank); `None` if a value is above 9.
    pub fn from_cells(cells: [u8; 81]) -> Option<Self> {
        cells.iter().all(|&c| c <= 9).then_some(Sudoku { cells })
    }

    /// The cells, row by row (0 for a blank).
    pub fn cells(&self) -> &[u8; 81] {
        &self.cells
    }

    /// The value at `row`, `col` (from 0), 0 if blank.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * 9 + col]
    }

    /// Number of given (non-blank) cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&c| c != 0).count()
    }

    /// The 81-character form, `.` for blanks.
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|&c| if c == 0 { '.' } else { char::from(b'0' + c) })
            .collect()
    }

    /// Whether `self` is a complete grid obeying the rules and agreeing with
    /// every given of `puzzle`. Checked directly, without the engine.
    ///
    /// ```
    /// use csp_examples::sudoku::Sudoku;
    /// let grid: Sudoku = "534678912672195348198342567859761423426853791713924856961537284287419635345286179".parse()?;
    /// let puzzle: Sudoku = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse()?;
    /// assert!(grid.solves(&puzzle));
    /// assert!(!puzzle.solves(&puzzle));
    /// # Ok::<(), csp_examples::InputError>(())
    /// ```
    pub fn solves(&self, puzzle: &Sudoku) -> bool {
        let agrees = (0..81).all(|i| puzzle.cells[i] == 0 || puzzle.cells[i] == self.cells[i]);
        let units_ok = units().iter().all(|unit| {
            let mut seen = 0u16;
            unit.iter().all(|&i| {
                let bit = 1u16 << self.cells[i];
                let fresh = self.cells[i] != 0 && seen & bit == 0;
                seen |= bit;
                fresh
            })
        });
        agrees && units_ok
    }
}

/// The 27 units (rows, columns, boxes) as lists of cell indices.
pub fn units() -> Vec<[usize; 9]> {
    let mut units = Vec::with_capacity(27);
    for r in 0..9 {
        units.push(std::array::from_fn(|c| r * 9 + c));
    }
    for c in 0..9 {
        units.push(std::array::from_fn(|r| r * 9 + c));
    }
    for b in 0..9 {
        let (r0, c0) = (b / 3 * 3, b % 3 * 3);
        units.push(std::array::from_fn(|k| (r0 + k / 3) * 9 + c0 + k % 3));
    }
    units
}

impl fmt::Debug for Sudoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sudoku({})", self.to_line())
    }
}

impl fmt::Display for Sudoku {
    /// Nine rows with box separators, `.` for blanks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..9 {
            if r == 3 || r == 6 {
                writeln!(f, "------+-------+------")?;
            }
            let mut line = String::new();
            for c in 0..9 {
                if c == 3 || c == 6 {
                    line.push_str("| ");
                }
                let v = self.get(r, c);
                line.push(if v == 0 { '.' } else { char::from(b'0' + v) });
                line.push(' ');
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

impl FromStr for Sudoku {
    type Err = InputError;

    /// Exactly one puzzle. On a one-line input, errors give the column only.
    fn from_str(s: &str) -> Result<Self, InputError> {
        let one_line = !s.trim_end().contains('\n');
        let strip = |mut e: InputError| {
            if one_line {
                e.line = None;
            }
            e
        };
        let entries = parse_puzzles(s).map_err(strip)?;
        match entries.as_slice() {
            [only] => Ok(only.puzzle),
            [_, second, ..] => Err(strip(InputError::on_line(
                second.line,
                "expected one puzzle, found more",
            ))),
            [] => Err(InputError::new("no puzzle found")),
        }
    }
}

/// Reads every puzzle of a text: 81 cells each, starting on a new line, any number
/// per file. `#` starts a comment; blank lines are skipped; a grid may span lines.
///
/// ```
/// use csp_examples::sudoku::parse_puzzles;
/// let text = "# two puzzles\n8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.. # Inkala\n\
///             1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..\n";
/// let entries = parse_puzzles(text)?;
/// assert_eq!(entries.len(), 2);
/// assert_eq!((entries[0].line, entries[0].label.as_deref()), (2, Some("Inkala")));
/// let err = parse_puzzles("12x").unwrap_err();
/// assert_eq!(err.to_string(), "line 1, column 3: unexpected character 'x' (a cell is 1-9, or '.' or '0' for a blank)");
/// # Ok::<(), csp_examples::InputError>(())
/// ```
pub fn parse_puzzles(text: &str) -> Result<Vec<PuzzleEntry>, InputError> {
    let mut entries = Vec::new();
    let mut cells = [0u8; 81];
    let mut filled = 0;
    let mut start = (0, None);
    let mut last_line = 0;
    for (li, raw) in text.lines().enumerate() {
        let line_no = li + 1;
        last_line = line_no;
        let (content, comment) = match raw.split_once('#') {
            Some((c, rest)) => (c, Some(rest.trim()).filter(|r| !r.is_empty())),
            None => (raw, None),
        };
        for (ci, ch) in content.chars().enumerate() {
            let value = match ch {
                '1'..='9' => ch as u8 - b'0',
                '.' | '0' => 0,
                c if c.is_whitespace() || matches!(c, '|' | '-' | '+') => continue,
                c => {
                    return Err(InputError::at(
                        line_no,
                        ci + 1,
                        format!(
                            "unexpected character {c:?} (a cell is 1-9, or '.' or '0' for a blank)"
                        ),
                    ));
                }
            };
            if filled == 81 {
                return Err(InputError::at(
                    line_no,
                    ci + 1,
                    "a puzzle has 81 cells; this line has more (start the next puzzle on a new line)",
                ));
            }
            if filled == 0 {
                start = (line_no, comment.map(str::to_string));
            }
            cells[filled] = value;
            filled += 1;
        }
        if filled == 81 {
            entries.push(PuzzleEntry {
                line: start.0,
                label: start.1.take(),
                puzzle: Sudoku { cells },
            });
            filled = 0;
        }
    }
    if filled > 0 {
        return Err(InputError::on_line(
            last_line,
            format!(
                "the puzzle starting on line {} has {filled} cells, expected 81",
                start.0
            ),
        ));
    }
    if entries.is_empty() {
        return Err(InputError::new("no puzzle found (expected 81 cells)"));
    }
    Ok(entries)
}

/// The constraint model of one puzzle: a variable per cell, 1..=9 (the given
/// value for a given), and all-different on each row, column and box.
#[derive(Debug)]
pub struct SudokuModel {
    /// The model.
    pub model: Model,
    /// The cell variables, row by row.
    pub cells: Vec<VarId>,
}

impl SudokuModel {
    /// Builds the model of `puzzle`.
    ///
    /// ```
    /// use csp_core::{Config, Solver};
    /// use csp_examples::sudoku::{Sudoku, SudokuModel};
    /// let empty: Sudoku = ".".repeat(81).parse()?;
    /// let m = SudokuModel::new(&empty)?;
    /// assert_eq!((m.model.num_vars(), m.model.num_constraints()), (81, 27));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(puzzle: &Sudoku) -> Result<Self, CspError> {
        let mut model = Model::new();
        let mut cells = Vec::with_capacity(81);
        for (i, &given) in puzzle.cells.iter().enumerate() {
            let name = format!("r{}c{}", i / 9 + 1, i % 9 + 1);
            let domain = if given == 0 {
                1..=9
            } else {
                given.into()..=given.into()
            };
            cells.push(model.named_int_var(name, domain)?);
        }
        for unit in units() {
            let vars: Vec<VarId> = unit.iter().map(|&i| cells[i]).collect();
            model.all_different(&vars)?;
        }
        Ok(SudokuModel { model, cells })
    }
}

/// Whether a puzzle has one solution, as far as the search got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// No solution: the givens contradict each other.
    NoSolution,
    /// Exactly one solution (the search proved there is no second).
    Unique,
    /// At least two solutions.
    Multiple,
    /// A limit stopped the search before it could tell.
    Unknown(StopReason),
}

impl fmt::Display for Uniqueness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Uniqueness::NoSolution => f.write_str("no solution"),
            Uniqueness::Unique => f.write_str("unique solution"),
            Uniqueness::Multiple => f.write_str("more than one solution"),
            Uniqueness::Unknown(r) => write!(f, "unknown (stopped: {r})"),
        }
    }
}

/// What solving one puzzle found.
#[derive(Clone, Debug)]
pub struct SudokuReport {
    /// The first solution, if any.
    pub solution: Option<Sudoku>,
    /// Whether it is the only one.
    pub uniqueness: Uniqueness,
    /// The work done (for both solutions).
    pub stats: SearchStats,
    /// How the search ended.
    pub status: SearchStatus,
}

/// Solves `puzzle`, looking for a second solution to decide uniqueness (the
/// search stops at two).
///
/// ```
/// use csp_core::{Config, Pruning, VarOrder};
/// use csp_examples::sudoku::{solve, Sudoku, Uniqueness};
/// let puzzle: Sudoku = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse()?;
/// let config = Config::textbook().with_pruning(Pruning::Propagators).with_var_order(VarOrder::FirstFail);
/// let report = solve(&puzzle, config)?;
/// assert_eq!(report.uniqueness, Uniqueness::Unique);
/// assert!(report.solution.unwrap().solves(&puzzle));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(puzzle: &Sudoku, mut config: Config) -> Result<SudokuReport, CspError> {
    let m = SudokuModel::new(puzzle)?;
    config.limits.solutions = Some(2);
    let mut solver = Solver::new(&m.model, config)?;
    let mut first = None;
    let mut found = 0;
    while let Some(s) = solver.next_solution() {
        found += 1;
        if first.is_none() {
            let mut cells = [0u8; 81];
            for (cell, &v) in cells.iter_mut().zip(&m.cells) {
                // Values are 1..=9 by construction of the domains.
                *cell = u8::try_from(s[v]).unwrap_or(0);
            }
            first = Some(Sudoku { cells });
        }
    }
    let status = solver.status();
    let uniqueness = match (found, status) {
        (0, SearchStatus::Complete) => Uniqueness::NoSolution,
        (1, SearchStatus::Complete) => Uniqueness::Unique,
        (n, _) if n >= 2 => Uniqueness::Multiple,
        (_, SearchStatus::Stopped(r)) => Uniqueness::Unknown(r),
        // `Paused` cannot follow a loop that ran to `None`.
        (_, _) => Uniqueness::Unknown(StopReason::SolutionLimit),
    };
    Ok(SudokuReport {
        solution: first,
        uniqueness,
        stats: *solver.stats(),
        status,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::Pruning;

    const CLASSIC: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn pretty_grid_reads_back_and_has_box_separators() {
        let p: Sudoku = CLASSIC.parse().unwrap();
        let shown = p.to_string();
        assert!(shown.starts_with("5 3 . | . 7 . | . . .\n"));
        assert_eq!(shown.lines().count(), 11);
        assert_eq!(shown.parse::<Sudoku>().unwrap(), p);
    }

    #[test]
    fn short_argument_names_the_cell_count() {
        let e = "123".parse::<Sudoku>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "the puzzle starting on line 1 has 3 cells, expected 81"
        );
    }

    #[test]
    fn bad_character_in_an_argument_gives_its_column() {
        let mut s = CLASSIC.to_string();
        s.replace_range(10..11, "x");
        let e = s.parse::<Sudoku>().unwrap_err();
        assert_eq!((e.line, e.column), (None, Some(11)));
        assert_eq!(
            e.to_string(),
            "column 11: unexpected character 'x' (a cell is 1-9, or '.' or '0' for a blank)"
        );
    }

    #[test]
    fn too_many_cells_on_a_line_is_an_error() {
        let e = parse_puzzles(&format!("{CLASSIC}5")).unwrap_err();
        assert_eq!((e.line, e.column), (Some(1), Some(82)));
        assert_eq!(
            e.to_string(),
            "line 1, column 82: a puzzle has 81 cells; this line has more (start the next puzzle on a new line)"
        );
    }

    #[test]
    fn two_puzzles_where_one_is_expected_is_an_error() {
        let e = format!("{CLASSIC}\n{CLASSIC}\n")
            .parse::<Sudoku>()
            .unwrap_err();
        assert_eq!(e.to_string(), "line 2: expected one puzzle, found more");
        assert_eq!(
            "".parse::<Sudoku>().unwrap_err().to_string(),
            "no puzzle found (expected 81 cells)"
        );
    }

    #[test]
    fn contradicting_givens_have_no_solution() {
        let mut s = CLASSIC.to_string();
        s.replace_range(2..3, "5"); // a second 5 in row 1
        let p: Sudoku = s.parse().unwrap();
        for pruning in [Pruning::Check, Pruning::Propagators] {
            let r = solve(&p, Config::textbook().with_pruning(pruning)).unwrap();
            assert_eq!(r.uniqueness, Uniqueness::NoSolution);
            assert!(r.solution.is_none());
        }
    }

    #[test]
    fn empty_grid_has_more_than_one_solution() {
        let p: Sudoku = ".".repeat(81).parse().unwrap();
        let r = solve(
            &p,
            Config::textbook().with_pruning(Pruning::ForwardChecking),
        )
        .unwrap();
        assert_eq!(r.uniqueness, Uniqueness::Multiple);
        assert!(r.solution.unwrap().solves(&p));
    }

    #[test]
    fn units_cover_every_cell_three_times() {
        let mut seen = [0; 81];
        for u in units() {
            for i in u {
                seen[i] += 1;
            }
        }
        assert!(seen.iter().all(|&k| k == 3));
    }
}
