//! The N-Queens models of the crate docs, shared by tests, benchmarks and examples.
//!
//! One variable per row, whose value is the queen's column; rows differ by
//! construction. The two ways of saying that columns and diagonals differ:
//! [`queens`] with three all-different constraints (over `q_i`, `q_i + i` and
//! `q_i - i`), and [`pairwise_queens`] with three disequalities per pair of
//! rows, the constraints of the classic `promising` function. Both visit the
//! same tree under [`Pruning::Check`](crate::Pruning::Check).

use crate::{CspError, Model, Value, VarId};

/// N-Queens with three all-different constraints over `q_i`, `q_i + i` and
/// `q_i - i`; returns the model and the row variables `q`.
///
/// ```
/// use csp_core::{models, Config, Solver};
/// let (m, q) = models::queens(8)?;
/// assert_eq!((q.len(), m.num_constraints()), (8, 3));
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 92);
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub fn queens(n: usize) -> Result<(Model, Vec<VarId>), CspError> {
    let (mut m, q) = rows(n)?;
    if n > 0 {
        let up: Vec<Value> = (0..n as Value).collect();
        let down: Vec<Value> = up.iter().map(|r| -r).collect();
        m.all_different(&q)?;
        m.all_different_offsets(&q, &up)?;
        m.all_different_offsets(&q, &down)?;
    }
    Ok((m, q))
}

/// N-Queens with three disequalities per pair of rows `i < j`:
/// `q_i != q_j`, `q_i != q_j + (j - i)` and `q_i != q_j - (j - i)`.
///
/// ```
/// use csp_core::{models, Config, Pruning, Solver};
/// let (m, q) = models::pairwise_queens(4)?;
/// assert_eq!(m.num_constraints(), 3 * 6);
/// let mut s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Check))?;
/// assert_eq!(s.first().solution.map(|s| s.values_of(&q)), Some(vec![1, 3, 0, 2]));
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub fn pairwise_queens(n: usize) -> Result<(Model, Vec<VarId>), CspError> {
    let (mut m, q) = rows(n)?;
    for i in 0..n {
        for j in i + 1..n {
            let d = (j - i) as Value;
            m.not_equal(q[i], q[j])?;
            m.not_equal_offset(q[i], q[j], d)?;
            m.not_equal_offset(q[i], q[j], -d)?;
        }
    }
    Ok((m, q))
}

/// The row variables `q[0..n]` with the columns `0..n`; `n = 0` gives a model
/// with no variable (one solution: the empty board).
fn rows(n: usize) -> Result<(Model, Vec<VarId>), CspError> {
    let mut m = Model::new();
    // Columns are below n, which a Value holds wherever the model fits in memory.
    let last = n as Value - 1;
    let q = m.int_var_array("q", n, 0..=last)?;
    Ok((m, q))
}
