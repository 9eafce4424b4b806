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

/// A random binary CSP of *model B* (Smith & Dyer 1996; Prosser 1996):
/// `n` variables with the values `0..d`, exactly `round(density * n(n-1)/2)`
/// constrained pairs drawn without repetition, and in each exactly
/// `round(tightness * d²)` forbidden pairs of values, all drawn from `seed`
/// (the same arguments give the same model). Each constraint is a
/// [`BinaryRelation`](crate::BinaryRelation) named `c<i>_<j>`. Around
/// the *phase transition* (the tightness at which half of the instances have
/// a solution) these are the hardest for backtracking, and the class on
/// which the look-back algorithms are compared in the literature.
///
/// ```
/// use csp_core::{models, Config, Solver};
/// let (m, x) = models::random_binary(10, 5, 0.5, 0.3, 7)?;
/// assert_eq!((x.len(), m.num_constraints()), (10, 23)); // round(0.5 * 45)
/// let count = Solver::new(&m, Config::textbook())?.count();
/// assert!(count.is_complete());
/// # Ok::<(), csp_core::CspError>(())
/// ```
///
/// A density or tightness outside `0..=1` is an error.
pub fn random_binary(
    n: usize,
    d: usize,
    density: f64,
    tightness: f64,
    seed: u64,
) -> Result<(Model, Vec<VarId>), CspError> {
    for (what, p) in [("density", density), ("tightness", tightness)] {
        if !(0.0..=1.0).contains(&p) {
            return Err(CspError::InvalidArgument {
                context: "random_binary".into(),
                message: format!("{what} {p} is not between 0 and 1"),
            });
        }
    }
    if d == 0 {
        return Err(CspError::InvalidArgument {
            context: "random_binary".into(),
            message: "a domain needs at least one value".into(),
        });
    }
    let mut rng = crate::rng::SplitMix64::new(seed);
    let mut m = Model::new();
    let x = m.int_var_array("x", n, 0..=d as Value - 1)?;
    let mut pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let wanted = (density * pairs.len() as f64).round() as usize;
    let forbidden = (tightness * (d * d) as f64).round() as usize;
    // A partial Fisher-Yates shuffle draws `wanted` pairs without repetition.
    for k in 0..wanted {
        let r = k + rng.below((pairs.len() - k) as u64) as usize;
        pairs.swap(k, r);
    }
    let mut chosen = pairs[..wanted].to_vec();
    chosen.sort_unstable();
    for (i, j) in chosen {
        let mut tuples: Vec<usize> = (0..d * d).collect();
        for k in 0..forbidden {
            let r = k + rng.below((tuples.len() - k) as u64) as usize;
            tuples.swap(k, r);
        }
        let mut bad = vec![false; d * d];
        for &t in &tuples[..forbidden] {
            bad[t] = true;
        }
        m.binary_relation(format!("c{i}_{j}"), x[i], x[j], move |a, b| {
            !bad[a as usize * d + b as usize]
        })?;
    }
    Ok((m, x))
}
