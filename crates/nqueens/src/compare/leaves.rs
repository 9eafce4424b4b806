//! The columns-only model: all-different on the columns, the diagonals checked only on complete boards.

use csp_core::{
    Conflict, Constraint, Domains, Model, PropStatus, Propagation, PropagationContext, Value, VarId,
};

use crate::{Error, Variant};

/// The diagonal rule checked only on complete boards: no two queens share a
/// diagonal (`|q_i - q_j| != j - i`).
///
/// Its [`promising`](Constraint::promising) test says "yes" until every row
/// has a queen, and its [`propagate`](Constraint::propagate) does nothing
/// until then, so under every pruning level (even `mac`) it acts only at the
/// leaves of the search tree.
#[derive(Clone, Debug)]
pub struct DiagonalsAtLeaves {
    rows: Vec<VarId>,
}

impl DiagonalsAtLeaves {
    /// The rule over `rows` (the queen of row `i` is `rows[i]`).
    pub fn new(rows: &[VarId]) -> Self {
        DiagonalsAtLeaves {
            rows: rows.to_vec(),
        }
    }

    /// Whether the queens `value(0), value(1), ...` share no diagonal.
    fn no_shared_diagonal(n: usize, value: impl Fn(usize) -> Value) -> bool {
        (0..n).all(|i| (i + 1..n).all(|j| (value(i) - value(j)).abs() != (j - i) as Value))
    }
}

impl Constraint for DiagonalsAtLeaves {
    fn scope(&self) -> &[VarId] {
        &self.rows
    }

    fn check(&self, values: &[Value]) -> bool {
        Self::no_shared_diagonal(values.len(), |i| values[i])
    }

    fn name(&self) -> &str {
        "diagonals at the leaves"
    }

    // The default semantics (yes until complete, then `check`), without
    // collecting the values into a vector at every node.
    fn promising(&self, domains: &Domains) -> bool {
        let mut values = self.rows.iter().map(|&v| domains.value(v));
        if values.any(|v| v.is_none()) {
            return true;
        }
        Self::no_shared_diagonal(self.rows.len(), |i| {
            domains.value(self.rows[i]).unwrap_or_default()
        })
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if self.rows.iter().any(|&v| !ctx.is_fixed(v)) {
            Ok(PropStatus::Unchanged)
        } else if self.promising(ctx.domains()) {
            Ok(PropStatus::Entailed)
        } else {
            Err(Conflict::infeasible())
        }
    }
}

/// The columns-only model: one all-different over the rows' columns, and the
/// diagonals as one [`DiagonalsAtLeaves`] constraint.
///
/// ```
/// use csp_core::{Config, Pruning, Solver};
/// use nqueens::compare::columns_then_leaves;
///
/// let (m, _) = columns_then_leaves(6)?;
/// let mut solver = Solver::new(&m, Config::textbook().with_pruning(Pruning::Check))?;
/// let count = solver.count();
/// assert_eq!(count.solutions, 4);
/// // All 6 columns are tried below every permutation of 0 to 5 rows:
/// // 6 * (1 + 6 + 6*5 + ... + 6!) = 7422 nodes (pairwise check: 894).
/// assert_eq!(count.stats.tried, 7422);
/// # Ok::<(), nqueens::Error>(())
/// ```
pub fn columns_then_leaves(n: usize) -> Result<(Model, Vec<VarId>), Error> {
    // The global model's bounds apply (n^2 bits of domains).
    if n > Variant::Global.max_n() {
        return crate::model(n, Variant::Global);
    }
    let mut m = Model::new();
    let q = m.int_var_array("q", n, 0..=(n as Value - 1))?;
    if n > 0 {
        m.all_different(&q)?;
        m.post(DiagonalsAtLeaves::new(&q))?;
    }
    Ok((m, q))
}
