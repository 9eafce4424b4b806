//! Lexicographic order between two sequences of variables.

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::{Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Value, VarId};

/// `xs <= ys` in lexicographic order: at the first position where they differ
/// `xs` is smaller, or they agree on the shorter length and `xs` is not longer
/// (a proper prefix is smaller, as in MiniZinc's `lex_lesseq`). The scope is
/// `xs` then `ys`.
///
/// Filtering (every level): skip the leading positions fixed to equal values;
/// at the first other position `i` enforce `x_i <= y_i` on the bounds, and
/// `x_i < y_i` when the rest cannot be lexicographically smaller or equal even
/// with the smallest `xs` and largest `ys`; repeat while that fixes position
/// `i`. This is generalised arc consistency when no variable repeats.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 2, 0..=1)?;
/// let ys = m.int_var_array("y", 2, 0..=1)?;
/// m.lex_less_eq(&xs, &ys)?;
/// // Pairs (a, b) of 2-bit words with a <= b: 4 * 5 / 2 = 10.
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 10);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexLessEq {
    scope: Vec<VarId>,
    nx: usize,
}

impl LexLessEq {
    /// `xs <=lex ys`; the lengths may differ.
    pub fn new(xs: &[VarId], ys: &[VarId]) -> Self {
        let mut scope = xs.to_vec();
        scope.extend_from_slice(ys);
        LexLessEq {
            scope,
            nx: xs.len(),
        }
    }

    fn ny(&self) -> usize {
        self.scope.len() - self.nx
    }

    fn x(&self, i: usize) -> VarId {
        self.scope[i]
    }

    fn y(&self, i: usize) -> VarId {
        self.scope[self.nx + i]
    }

    /// Whether the positions from `k` on can still be `<=` (smallest `xs`
    /// against largest `ys`: exact when no variable repeats).
    fn suffix_possible(&self, d: &Domains, k: usize) -> bool {
        let common = self.nx.min(self.ny());
        for i in k..common {
            let (a, b) = (d.min(self.x(i)), d.max(self.y(i)));
            if a != b {
                return a < b;
            }
        }
        self.nx <= self.ny()
    }
}

impl Constraint for LexLessEq {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        v[..self.nx] <= v[self.nx..]
    }

    fn name(&self) -> &str {
        "lex_less_eq"
    }

    fn promising(&self, d: &Domains) -> bool {
        self.suffix_possible(d, 0)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let common = self.nx.min(self.ny());
        let mut changed = false;
        let mut i = 0;
        loop {
            // Skip positions fixed to equal values.
            while i < common
                && ctx.is_fixed(self.x(i))
                && ctx.is_fixed(self.y(i))
                && ctx.min(self.x(i)) == ctx.min(self.y(i))
            {
                i += 1;
            }
            if i == common {
                return if self.nx <= self.ny() {
                    Ok(PropStatus::Entailed)
                } else {
                    Err(Conflict::infeasible())
                };
            }
            let (x, y) = (self.x(i), self.y(i));
            if ctx.max(x) < ctx.min(y) {
                return Ok(PropStatus::Entailed);
            }
            let strict = Value::from(!self.suffix_possible(ctx.domains(), i + 1));
            ctx.note_revision();
            let hi = ctx.max(y).saturating_sub(strict);
            changed |= ctx.remove_above(x, hi)?;
            let lo = ctx.min(x).saturating_add(strict);
            changed |= ctx.remove_below(y, lo)?;
            let fixed_equal = ctx.is_fixed(x) && ctx.is_fixed(y) && ctx.min(x) == ctx.min(y);
            if !fixed_equal {
                return Ok(if changed {
                    PropStatus::Changed
                } else {
                    PropStatus::Unchanged
                });
            }
        }
    }
}

impl Model {
    /// `xs <= ys` lexicographically (see [`LexLessEq`]).
    ///
    /// Fails if both lists are empty or on a variable of another model.
    pub fn lex_less_eq(&mut self, xs: &[VarId], ys: &[VarId]) -> Result<ConstraintId, CspError> {
        self.post(LexLessEq::new(xs, ys))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Solver};

    #[test]
    fn a_prefix_is_smaller() {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 2, 0..=1).unwrap();
        let ys = m.int_var_array("y", 1, 0..=1).unwrap();
        m.lex_less_eq(&xs, &ys).unwrap();
        // x0 < y0 strictly (x is longer): x0 = 0, y0 = 1, x1 free.
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::ArcConsistency)).unwrap();
        assert_eq!(s.domains().value(xs[0]), Some(0));
        assert_eq!(s.domains().value(ys[0]), Some(1));
        assert_eq!(
            Solver::new(&m, Config::textbook())
                .unwrap()
                .count()
                .solutions,
            2
        );
    }
}
