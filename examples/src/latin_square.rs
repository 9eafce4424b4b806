//! Latin squares of order n: every symbol once in each row and each column.

use csp_core::{CspError, Model, Value, VarId};

/// The model of the Latin squares of order `n` with symbols `1..=n`: all-different
/// on each row and each column. A *reduced* square has its first row and first
/// column in natural order; every square is a reduced one with its rows and its
/// columns (but the first) permuted, so `L(n) = n! (n-1)! R(n)`.
///
/// | n | Latin squares `L(n)` | reduced `R(n)` (OEIS A000315) |
/// |---|---|---|
/// | 3 | 12 | 1 |
/// | 4 | 576 | 4 |
/// | 5 | 161,280 | 56 |
/// | 6 | 812,851,200 | 9,408 |
///
/// ```
/// use csp_core::{Config, Solver};
/// use csp_examples::latin_square::LatinSquare;
/// let sq = LatinSquare::new(4, false)?;
/// assert_eq!(Solver::new(&sq.model, Config::textbook())?.count().solutions, 576);
/// let reduced = LatinSquare::new(5, true)?;
/// assert_eq!(Solver::new(&reduced.model, Config::textbook())?.count().solutions, 56);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Debug)]
pub struct LatinSquare {
    /// The model.
    pub model: Model,
    /// The cells, `cells[row][column]`.
    pub cells: Vec<Vec<VarId>>,
}

impl LatinSquare {
    /// All Latin squares of order `n` (at least 1), or only the reduced ones.
    pub fn new(n: usize, reduced: bool) -> Result<Self, CspError> {
        if n == 0 {
            return Err(CspError::InvalidArgument {
                context: "latin square".into(),
                message: "the order must be at least 1".into(),
            });
        }
        let mut model = Model::new();
        let top = n as Value;
        let mut cells = Vec::with_capacity(n);
        for r in 0..n {
            let mut row = Vec::with_capacity(n);
            for c in 0..n {
                let name = format!("x[{},{}]", r + 1, c + 1);
                let fixed = if !reduced {
                    None
                } else if r == 0 {
                    Some(c as Value + 1)
                } else if c == 0 {
                    Some(r as Value + 1)
                } else {
                    None
                };
                let var = match fixed {
                    Some(v) => model.named_int_var(name, v..=v)?,
                    None => model.named_int_var(name, 1..=top)?,
                };
                row.push(var);
            }
            cells.push(row);
        }
        for r in 0..n {
            model.all_different(&cells[r])?;
            let column: Vec<VarId> = cells.iter().map(|row| row[r]).collect();
            model.all_different(&column)?;
        }
        Ok(LatinSquare { model, cells })
    }

    /// The square of a solution's `values`, one text row per line.
    pub fn show(&self, values: &[Value]) -> String {
        self.cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|v| values[v.index()].to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Whether `square` (rows of symbols `1..=n`) is a Latin square, checked directly.
pub fn is_latin(square: &[Vec<Value>]) -> bool {
    let n = square.len();
    let ok = |line: Vec<Value>| {
        let mut s = line;
        s.sort_unstable();
        s == (1..=n as Value).collect::<Vec<_>>()
    };
    square.iter().all(|row| row.len() == n && ok(row.clone()))
        && (0..n).all(|c| ok(square.iter().map(|row| row[c]).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{Config, Pruning, Solver};

    #[test]
    fn every_solution_is_latin() {
        let sq = LatinSquare::new(3, false).unwrap();
        let mut s = Solver::new(
            &sq.model,
            Config::textbook().with_pruning(Pruning::ForwardChecking),
        )
        .unwrap();
        for sol in s.solutions() {
            let rows: Vec<Vec<Value>> = sq.cells.iter().map(|r| sol.values_of(r)).collect();
            assert!(is_latin(&rows));
        }
    }

    #[test]
    fn order_zero_is_refused() {
        assert!(LatinSquare::new(0, false).is_err());
    }

    #[test]
    fn show_prints_rows() {
        let sq = LatinSquare::new(2, true).unwrap();
        let sol = Solver::new(&sq.model, Config::textbook())
            .unwrap()
            .first()
            .solution
            .unwrap();
        assert_eq!(sq.show(sol.values()), "1 2\n2 1");
    }
}
