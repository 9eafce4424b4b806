//! Non-overlapping rectangles (MiniZinc's `diffn`): placement and packing.

use crate::constraint::{Conflict, Events, PropCost, PropStatus, Propagation};
use crate::constraints::edge_finding::edge_find;
use crate::{
    Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Pruning, Value, VarId,
};

/// No two rectangles overlap: rectangle `i` has its lower-left corner at
/// `(x[i], y[i])` and size `dx[i]` by `dy[i]`, and for every pair `i != j`
/// `x[i] + dx[i] <= x[j]`, `x[j] + dx[j] <= x[i]`, `y[i] + dy[i] <= y[j]` or
/// `y[j] + dy[j] <= y[i]` (MiniZinc's `diffn`, sizes may be 0). The scope is
/// `x`, `y`, `dx`, `dy`; give constant sizes as fixed variables.
///
/// Filtering (every level, to a fixpoint, reading bounds only), pair by pair,
/// as Gecode's `nooverlap` does: a pair that can be separated in neither
/// direction fails; a pair that can be separated in one direction only is
/// separated there: if one order is impossible the other is enforced on the
/// bounds, otherwise each rectangle's start loses the values that would
/// overlap the other's compulsory part (the interval every placement of it
/// covers), holes included. Under [`Pruning::Propagators`], the rectangles
/// whose compulsory parts in one direction share a point must be apart in the
/// other, like tasks on one machine: edge finding (see
/// [`Disjunctive`](crate::constraints::Disjunctive)) runs on each such group
/// of fixed-size rectangles.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// // Two 2x1 tiles in a 3x2 box: x in 0..=1, y in 0..=1.
/// let x = m.int_var_array("x", 2, 0..=1)?;
/// let y = m.int_var_array("y", 2, 0..=1)?;
/// let (two, one) = (m.int_var(2..=2)?, m.int_var(1..=1)?);
/// m.diffn(&x, &y, &[two, two], &[one, one])?;
/// // Different rows, any columns: 2 (row order) * 2 * 2 (columns).
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 8);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diffn {
    scope: Vec<VarId>,
    n: usize,
}

/// One rectangle's extent in one direction: start bounds and smallest and
/// largest size.
#[derive(Clone, Copy, Debug)]
struct Side {
    start: VarId,
    size: VarId,
    est: i128,
    lst: i128,
    min_len: i128,
    max_len: i128,
}

impl Side {
    /// Whether this side can lie wholly before `other` (`start + size <= other.start`).
    fn may_precede(&self, other: &Side) -> bool {
        self.est + self.min_len <= other.lst
    }

    /// Whether it surely lies wholly before `other`.
    fn must_precede(&self, other: &Side) -> bool {
        self.lst + self.max_len <= other.est
    }
}

impl Diffn {
    /// Rectangles `i` at `(x[i], y[i])` of size `dx[i]` by `dy[i]`. Fails if the
    /// lists differ in length.
    pub fn new(x: &[VarId], y: &[VarId], dx: &[VarId], dy: &[VarId]) -> Result<Self, CspError> {
        for (what, list) in [("y", y), ("dx", dx), ("dy", dy)] {
            if list.len() != x.len() {
                return Err(CspError::LengthMismatch {
                    context: "diffn".into(),
                    what: what.into(),
                    expected: x.len(),
                    got: list.len(),
                });
            }
        }
        let mut scope = x.to_vec();
        scope.extend_from_slice(y);
        scope.extend_from_slice(dx);
        scope.extend_from_slice(dy);
        Ok(Diffn { scope, n: x.len() })
    }

    /// Rectangle `i`'s side in direction `k` (0: x, 1: y).
    fn side(&self, d: &Domains, i: usize, k: usize) -> Side {
        let start = self.scope[k * self.n + i];
        let size = self.scope[(2 + k) * self.n + i];
        Side {
            start,
            size,
            est: i128::from(d.min(start)),
            lst: i128::from(d.max(start)),
            min_len: i128::from(d.min(size)),
            max_len: i128::from(d.max(size)),
        }
    }

    /// The directions in which pair `(i, j)` may still be separated (bit `k`).
    fn separable(&self, d: &Domains, i: usize, j: usize) -> u8 {
        let mut dirs = 0;
        for k in 0..2 {
            let (a, b) = (self.side(d, i, k), self.side(d, j, k));
            if a.may_precede(&b) || b.may_precede(&a) {
                dirs |= 1 << k;
            }
        }
        dirs
    }

    /// Separates `a` and `b` in their direction, the only one left.
    fn separate(ctx: &mut PropagationContext<'_>, a: Side, b: Side) -> Result<bool, Conflict> {
        match (a.may_precede(&b), b.may_precede(&a)) {
            (true, true) => {
                // Either order: keep each start off the other's compulsory part.
                let one = Self::avoid(ctx, a, b)?;
                let two = Self::avoid(ctx, b, a)?;
                Ok(one || two)
            }
            (true, false) => Self::order(ctx, a, b),
            (false, true) => Self::order(ctx, b, a),
            (false, false) => Err(Conflict::infeasible()),
        }
    }

    /// Edge finding in direction `k` on each group of rectangles whose
    /// compulsory parts in the other direction share a point.
    fn machines(&self, ctx: &mut PropagationContext<'_>, k: usize) -> Result<bool, Conflict> {
        let o = 1 - k;
        let d = ctx.domains();
        // Per rectangle: its compulsory part in direction o, if any.
        let parts: Vec<Option<(i128, i128)>> = (0..self.n)
            .map(|i| {
                let s = self.side(d, i, o);
                (s.lst < s.est + s.min_len).then_some((s.lst, s.est + s.min_len))
            })
            .collect();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for &(p, _) in parts.iter().flatten() {
            let group: Vec<usize> = (0..self.n)
                .filter(|&i| parts[i].is_some_and(|(lo, hi)| lo <= p && p < hi))
                .filter(|&i| {
                    d.value(self.scope[(2 + k) * self.n + i])
                        .is_some_and(|l| l > 0)
                })
                .collect();
            let known = groups.iter().any(|g| group.iter().all(|i| g.contains(i)));
            if group.len() >= 2 && !known {
                groups.retain(|g| !g.iter().all(|i| group.contains(i)));
                groups.push(group);
            }
        }
        let mut changed = false;
        for group in groups {
            let d = ctx.domains();
            let tasks: Vec<(VarId, i128, i128, i128)> = group
                .iter()
                .map(|&i| {
                    let s = self.side(d, i, k);
                    (s.start, s.est, s.lst + s.min_len, s.min_len)
                })
                .collect();
            changed |= edge_find(&tasks, ctx)?;
        }
        Ok(changed)
    }

    /// Enforces `first.start + first.size <= then.start` on the bounds.
    fn order(ctx: &mut PropagationContext<'_>, first: Side, then: Side) -> Result<bool, Conflict> {
        let mut changed = ctx.remove_below(then.start, clamp(first.est + first.min_len))?;
        changed |= ctx.remove_above(first.start, clamp(then.lst - first.min_len))?;
        changed |= ctx.remove_above(first.size, clamp(then.lst - first.est))?;
        Ok(changed)
    }

    /// Removes from `a`'s start the values at which `a` would overlap `b`'s
    /// compulsory part `[b.lst, b.est + b.min_len)`.
    fn avoid(ctx: &mut PropagationContext<'_>, a: Side, b: Side) -> Result<bool, Conflict> {
        let (lo, hi) = (b.lst, b.est + b.min_len);
        if lo >= hi {
            return Ok(false);
        }
        // a covers [s, s + a.min_len) at least: it meets [lo, hi) when
        // lo - a.min_len < s < hi (an empty a, of size 0, only inside).
        let first = (lo - a.min_len + 1).max(a.est);
        let last = (hi - 1).min(a.lst);
        if first > last {
            return Ok(false);
        }
        if first <= a.est {
            return ctx.remove_below(a.start, clamp(last + 1));
        }
        if last >= a.lst {
            return ctx.remove_above(a.start, clamp(first - 1));
        }
        let mut changed = false;
        let mut v = ctx.next_value(a.start, clamp(first - 1));
        while let Some(w) = v {
            if i128::from(w) > last {
                break;
            }
            changed |= ctx.remove(a.start, w)?;
            v = ctx.next_value(a.start, w);
        }
        Ok(changed)
    }
}

fn clamp(v: i128) -> Value {
    v.clamp(i128::from(Value::MIN), i128::from(Value::MAX)) as Value
}

impl Constraint for Diffn {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        let n = self.n;
        let at = |k: usize, i: usize| i128::from(v[k * n + i]);
        (0..n).all(|i| {
            (i + 1..n).all(|j| {
                (0..2).any(|k| {
                    at(k, i) + at(2 + k, i) <= at(k, j) || at(k, j) + at(2 + k, j) <= at(k, i)
                })
            })
        })
    }

    fn name(&self) -> &str {
        "diffn"
    }

    fn promising(&self, d: &Domains) -> bool {
        (0..self.n).all(|i| (i + 1..self.n).all(|j| self.separable(d, i, j) != 0))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let n = self.n;
        let mut changed = false;
        loop {
            let mut again = false;
            let mut all_apart = true;
            for i in 0..n {
                if ctx.should_stop() {
                    return Ok(if changed {
                        PropStatus::Changed
                    } else {
                        PropStatus::Unchanged
                    });
                }
                for j in i + 1..n {
                    let apart = (0..2).any(|k| {
                        let (a, b) = (
                            self.side(ctx.domains(), i, k),
                            self.side(ctx.domains(), j, k),
                        );
                        a.must_precede(&b) || b.must_precede(&a)
                    });
                    if apart {
                        continue;
                    }
                    all_apart = false;
                    let k = match self.separable(ctx.domains(), i, j) {
                        0 => return Err(Conflict::infeasible()),
                        1 => 0,
                        2 => 1,
                        _ => continue,
                    };
                    ctx.note_revision();
                    let (a, b) = (
                        self.side(ctx.domains(), i, k),
                        self.side(ctx.domains(), j, k),
                    );
                    again |= Self::separate(ctx, a, b)?;
                }
            }
            if all_apart {
                return Ok(PropStatus::Entailed);
            }
            if ctx.pruning() == Pruning::Propagators {
                again |= self.machines(ctx, 0)?;
                again |= self.machines(ctx, 1)?;
            }
            changed |= again;
            if !again {
                break;
            }
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }

    /// Only bounds are read.
    fn events(&self, _pos: usize) -> Events {
        Events::BOUNDS
    }

    fn cost(&self) -> PropCost {
        PropCost::Expensive
    }

    fn idempotent(&self) -> bool {
        true
    }
}

impl Model {
    /// Posts [`Diffn`]: the rectangles at `(x[i], y[i])` of size `dx[i]` by
    /// `dy[i]` do not overlap.
    ///
    /// Fails if the lists differ in length or on a variable of another model.
    pub fn diffn(
        &mut self,
        x: &[VarId],
        y: &[VarId],
        dx: &[VarId],
        dy: &[VarId],
    ) -> Result<ConstraintId, CspError> {
        self.post(Diffn::new(x, y, dx, dy)?)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Solver};

    #[test]
    fn a_fixed_square_punches_a_hole_in_the_other_start() {
        // Two unit squares on one row (y fixed at 0): x1 = 3 leaves x0 without 3.
        let mut m = Model::new();
        let x0 = m.int_var(0..=6).unwrap();
        let x1 = m.int_var(3..=3).unwrap();
        let y = m.int_var(0..=0).unwrap();
        let one = m.int_var(1..=1).unwrap();
        m.diffn(&[x0, x1], &[y, y], &[one, one], &[one, one])
            .unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        let left: Vec<_> = s.domains().values(x0).collect();
        assert_eq!(left, [0, 1, 2, 4, 5, 6]);
    }

    #[test]
    fn rectangles_on_separate_rows_do_not_constrain_each_other() {
        let mut m = Model::new();
        let x = m.int_var_array("x", 2, 0..=2).unwrap();
        let y0 = m.int_var(0..=0).unwrap();
        let y1 = m.int_var(1..=1).unwrap();
        let one = m.int_var(1..=1).unwrap();
        m.diffn(&x, &[y0, y1], &[one, one], &[one, one]).unwrap();
        let mut s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        assert_eq!(s.count().solutions, 9);
    }
}
