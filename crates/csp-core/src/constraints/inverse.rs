//! Inverse: two arrays of variables that are inverse permutations.

use crate::constraint::PropCost;
use crate::constraint::Propagation;
use crate::constraints::global_cardinality::finish;
use crate::{
    AllDifferent, Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Pruning,
    Value, VarId,
};

/// `f[i] = j` exactly when `g[j] = i`: `f` and `g` are inverse permutations of
/// `0..n` (or, with offsets, `f`'s values name `g`'s positions counted from
/// `g_offset` and `g`'s values name `f`'s positions counted from `f_offset`).
/// The scope is `f` then `g`.
///
/// Filtering (every level, to a fixpoint): arc consistency on the channelling
/// `f[i] = j <-> g[j] = i`: a value `j` stays in `f[i]` only if it names a
/// position of `g` whose domain still holds `i`, and the other way round.
/// Each side being a permutation, a fixed value is removed from the other
/// variables of its side, and under [`Pruning::Propagators`] each side also gets
/// all-different's matching filter. `promising` rejects a fixed value without
/// its counterpart.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let f = m.int_var_array("f", 3, 0..=2)?;
/// let g = m.int_var_array("g", 3, 0..=2)?;
/// m.inverse(&f, &g)?;
/// // One solution per permutation f, g being its inverse.
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 6);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inverse {
    scope: Vec<VarId>,
    n: usize,
    f_offset: Value,
    g_offset: Value,
    /// Matching-based filtering of each side under `Propagators`.
    all_different: [AllDifferent; 2],
}

impl Inverse {
    /// `f[i] = j <-> g[j] = i`, positions and values from 0. Fails if `f` and `g`
    /// differ in length.
    pub fn new(f: &[VarId], g: &[VarId]) -> Result<Self, CspError> {
        Self::with_offsets(f, 0, g, 0)
    }

    /// `f[i] = g_offset + j <-> g[j] = f_offset + i`: `f`'s positions are named
    /// from `f_offset`, `g`'s from `g_offset` (MiniZinc's `inverse` over arrays
    /// indexed from those values).
    pub fn with_offsets(
        f: &[VarId],
        f_offset: Value,
        g: &[VarId],
        g_offset: Value,
    ) -> Result<Self, CspError> {
        if f.len() != g.len() {
            return Err(CspError::LengthMismatch {
                context: "inverse".into(),
                what: "g".into(),
                expected: f.len(),
                got: g.len(),
            });
        }
        let mut scope = f.to_vec();
        scope.extend_from_slice(g);
        Ok(Inverse {
            scope,
            n: f.len(),
            f_offset,
            g_offset,
            all_different: [AllDifferent::new(f), AllDifferent::new(g)],
        })
    }

    /// Position `p` of the scope (in `f` if `p < n`, else in `g`): the scope
    /// position its value `v` points to, and the value that variable must hold.
    fn partner(&self, p: usize, v: Value) -> Option<(usize, Value)> {
        let n = self.n;
        // f[i] = g_offset + k  <->  g[k] = f_offset + i, and the other way round.
        let (i, mine, theirs, base) = if p < n {
            (p, self.f_offset, self.g_offset, n)
        } else {
            (p - n, self.g_offset, self.f_offset, 0)
        };
        let k = usize::try_from(i128::from(v) - i128::from(theirs))
            .ok()
            .filter(|&k| k < n)?;
        let back = Value::try_from(i128::from(mine) + i as i128).ok()?;
        Some((base + k, back))
    }

    fn supported(&self, d: &Domains, p: usize, v: Value) -> bool {
        self.partner(p, v)
            .is_some_and(|(q, w)| d.contains(self.scope[q], w))
    }
}

impl Constraint for Inverse {
    fn cost(&self) -> PropCost {
        PropCost::Expensive
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        (0..2 * self.n).all(|p| self.partner(p, v[p]).is_some_and(|(q, w)| v[q] == w))
    }

    fn name(&self) -> &str {
        "inverse"
    }

    fn promising(&self, d: &Domains) -> bool {
        self.scope
            .iter()
            .enumerate()
            .all(|(p, &x)| match d.value(x) {
                Some(v) => self.supported(d, p, v),
                None => true,
            })
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let size = |ctx: &PropagationContext<'_>| -> usize {
            self.scope.iter().map(|&x| ctx.len(x)).sum()
        };
        let before = size(ctx);
        let n = self.n;
        loop {
            let round = size(ctx);
            for (p, &x) in self.scope.iter().enumerate() {
                ctx.note_revision();
                ctx.retain(x, |d, v| self.supported(d, p, v))?;
            }
            // Each side is a permutation: a fixed value leaves its neighbours.
            for side in [&self.scope[..n], &self.scope[n..]] {
                for (i, &x) in side.iter().enumerate() {
                    if let Some(v) = ctx.value(x) {
                        for (j, &y) in side.iter().enumerate() {
                            if i != j {
                                ctx.remove(y, v)?;
                            }
                        }
                    }
                }
            }
            if ctx.pruning() == Pruning::Propagators {
                self.all_different[0].propagate_embedded(ctx)?;
                self.all_different[1].propagate_embedded(ctx)?;
            }
            if size(ctx) == round {
                break;
            }
        }
        finish(self, ctx, size(ctx) != before)
    }
}

impl Model {
    /// `f[i] = j` exactly when `g[j] = i`, from 0 (see [`Inverse`]).
    ///
    /// Fails if `f` and `g` differ in length, are empty, or on a variable of
    /// another model.
    pub fn inverse(&mut self, f: &[VarId], g: &[VarId]) -> Result<ConstraintId, CspError> {
        self.post(Inverse::new(f, g)?)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Solver};

    #[test]
    fn fixing_f_fixes_g() {
        let mut m = Model::new();
        let f = m.int_var_array("f", 3, 0..=2).unwrap();
        let g = m.int_var_array("g", 3, 0..=2).unwrap();
        m.linear(&[1], &[f[0]], crate::Relation::Eq, 2).unwrap();
        m.inverse(&f, &g).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::ArcConsistency)).unwrap();
        assert_eq!(s.domains().value(g[2]), Some(0));
        assert!(!s.domains().contains(g[0], 0));
    }
}
