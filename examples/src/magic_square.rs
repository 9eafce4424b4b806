//! Magic squares: 1..n² in an n × n grid with equal row, column and diagonal sums.

use csp_core::{CspError, Model, Relation, Value, VarId};

/// The model of the normal magic squares of order `n`: the numbers `1..=n²`, all
/// different, every row, column and both diagonals summing to the magic constant
/// `n (n² + 1) / 2`.
///
/// With `frenicle`, only squares in Frénicle's standard form are kept (the
/// smallest corner top left, and its right neighbour smaller than the one below),
/// which picks one square from each class of the 8 rotations and reflections.
///
/// | n | magic squares | in standard form |
/// |---|---|---|
/// | 3 | 8 | 1 (the Lo Shu) |
/// | 4 | 7,040 | 880 (Frénicle, 1693) |
///
/// ```
/// use csp_core::{Config, Solver, Pruning};
/// use csp_examples::magic_square::MagicSquare;
/// let sq = MagicSquare::new(3, false)?;
/// let config = Config::textbook().with_pruning(Pruning::Propagators);
/// assert_eq!(Solver::new(&sq.model, config.clone())?.count().solutions, 8);
/// let one = MagicSquare::new(3, true)?;
/// let lo_shu = Solver::new(&one.model, config)?.first().solution.unwrap();
/// assert_eq!(one.show(lo_shu.values()), "2 7 6\n9 5 1\n4 3 8");
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Debug)]
pub struct MagicSquare {
    /// The model.
    pub model: Model,
    /// The cells, `cells[row][column]`.
    pub cells: Vec<Vec<VarId>>,
    /// The magic constant.
    pub magic: Value,
}

impl MagicSquare {
    /// Order `n` (at least 1), all squares or only those in standard form.
    pub fn new(n: usize, frenicle: bool) -> Result<Self, CspError> {
        if n == 0 || n > 1000 {
            return Err(CspError::InvalidArgument {
                context: "magic square".into(),
                message: format!("order {n} is not between 1 and 1000"),
            });
        }
        let mut model = Model::new();
        let nn = (n * n) as Value;
        let magic = n as Value * (nn + 1) / 2;
        let mut cells = Vec::with_capacity(n);
        for r in 0..n {
            cells.push(model.int_var_array(&format!("row{}", r + 1), n, 1..=nn)?);
        }
        let all: Vec<VarId> = cells.iter().flatten().copied().collect();
        model.all_different(&all)?;
        let ones = vec![1; n];
        let mut lines: Vec<Vec<VarId>> = cells.clone();
        lines.extend((0..n).map(|c| cells.iter().map(|row| row[c]).collect()));
        lines.push((0..n).map(|i| cells[i][i]).collect());
        lines.push((0..n).map(|i| cells[i][n - 1 - i]).collect());
        for line in &lines {
            model.linear(&ones, line, Relation::Eq, magic)?;
        }
        if frenicle && n > 1 {
            let corner = cells[0][0];
            for other in [cells[0][n - 1], cells[n - 1][0], cells[n - 1][n - 1]] {
                model.less_than(corner, other)?;
            }
            model.less_than(cells[0][1], cells[1][0])?;
        }
        Ok(MagicSquare {
            model,
            cells,
            magic,
        })
    }

    /// The square of a solution's `values`, one text row per line.
    pub fn show(&self, values: &[Value]) -> String {
        let width = self.cells.len().pow(2).to_string().len();
        self.cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|v| format!("{:>width$}", values[v.index()]))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Whether `square` holds `1..=n²` once each with every line summing alike,
/// checked directly.
pub fn is_magic(square: &[Vec<Value>]) -> bool {
    let n = square.len();
    let mut all: Vec<Value> = square.iter().flatten().copied().collect();
    all.sort_unstable();
    if square.iter().any(|r| r.len() != n) || all != (1..=(n * n) as Value).collect::<Vec<_>>() {
        return false;
    }
    let magic = n as Value * ((n * n) as Value + 1) / 2;
    let rows = square.iter().all(|r| r.iter().sum::<Value>() == magic);
    let cols = (0..n).all(|c| square.iter().map(|r| r[c]).sum::<Value>() == magic);
    let diag = (0..n).map(|i| square[i][i]).sum::<Value>() == magic;
    let anti = (0..n).map(|i| square[i][n - 1 - i]).sum::<Value>() == magic;
    rows && cols && diag && anti
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{Config, Pruning, Solver, VarOrder};

    #[test]
    fn order_four_square_found_is_magic() {
        let sq = MagicSquare::new(4, true).unwrap();
        assert_eq!(sq.magic, 34);
        let config = Config::textbook()
            .with_pruning(Pruning::Propagators)
            .with_var_order(VarOrder::FirstFail);
        let s = Solver::new(&sq.model, config)
            .unwrap()
            .first()
            .solution
            .unwrap();
        let rows: Vec<Vec<Value>> = sq.cells.iter().map(|r| s.values_of(r)).collect();
        assert!(is_magic(&rows));
    }

    #[test]
    fn order_two_has_no_magic_square() {
        let sq = MagicSquare::new(2, false).unwrap();
        let r = Solver::new(&sq.model, Config::textbook()).unwrap().count();
        assert_eq!((r.solutions, r.is_complete()), (0, true));
    }

    #[test]
    fn order_zero_is_refused() {
        assert!(MagicSquare::new(0, false).is_err());
    }
}
