//! Element constraints: `result = array[index]`, over constants or variables.

use smallvec::SmallVec;

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::{Constraint, Domains, PropagationContext, Value, VarId};

/// `result = array[index]` for a constant array, with `index` counted from 0.
///
/// Filtering keeps the indices whose entry is still a possible result, and the
/// results that some possible index gives (generalised arc consistency).
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let i = m.int_var(0..=4)?;
/// let r = m.int_var(5..=9)?;
/// m.element(i, &[3, 5, 7, 5, 11], r)?;
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 3);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    scope: [VarId; 2],
    array: Vec<Value>,
}

impl Element {
    /// `result = array[index]`.
    pub fn new(index: VarId, array: &[Value], result: VarId) -> Self {
        Element {
            scope: [index, result],
            array: array.to_vec(),
        }
    }

    fn entry(&self, index: Value) -> Option<Value> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.array.get(i).copied())
    }
}

impl Constraint for Element {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        self.entry(v[0]) == Some(v[1])
    }

    fn name(&self) -> &str {
        "element"
    }

    fn promising(&self, d: &Domains) -> bool {
        let [index, result] = self.scope;
        d.values(index)
            .any(|i| self.entry(i).is_some_and(|r| d.contains(result, r)))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let [index, result] = self.scope;
        if index == result {
            // `x = array[x]`: the two-sided filtering below would pair different
            // values of the one variable.
            ctx.note_revision();
            ctx.retain(index, |_, i| self.entry(i) == Some(i))?;
            return Ok(PropStatus::Entailed);
        }
        ctx.note_revision();
        let a = ctx.retain(index, |d, i| {
            self.entry(i).is_some_and(|r| d.contains(result, r))
        })?;
        ctx.note_revision();
        let b = ctx.retain(result, |d, r| {
            d.values(index).any(|i| self.entry(i) == Some(r))
        })?;
        if let Some(i) = ctx.value(index) {
            // With the index fixed the result is its entry. (Where index and
            // result are views of one variable, narrowing the result above
            // may have fixed the index at a value whose entry the result no
            // longer holds: entailed only once the result is that entry.)
            let entry = self.entry(i);
            ctx.retain(result, |_, r| Some(r) == entry)?;
            if ctx.value(index) == Some(i) {
                return Ok(PropStatus::Entailed);
            }
            return Err(Conflict::infeasible());
        }
        Ok(if a || b {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

/// `result = vars[index]` for an array of variables, with `index` counted from 0.
///
/// The scope is `[index, result, vars...]`.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 2, 0..=1)?;
/// let i = m.int_var(0..=1)?;
/// let r = m.int_var(1..=1)?;
/// m.element_var(i, &xs, r)?;
/// // x[i] = 1: 2 choices of i, the chosen x is 1, the other free.
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 4);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarElement {
    scope: Vec<VarId>,
}

impl VarElement {
    /// `result = vars[index]`.
    pub fn new(index: VarId, vars: &[VarId], result: VarId) -> Self {
        let mut scope = vec![index, result];
        scope.extend_from_slice(vars);
        VarElement { scope }
    }

    fn item(&self, index: Value) -> Option<VarId> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.scope[2..].get(i).copied())
    }
}

impl Constraint for VarElement {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        usize::try_from(v[0])
            .ok()
            .and_then(|i| v[2..].get(i))
            .is_some_and(|&x| x == v[1])
    }

    fn name(&self) -> &str {
        "element"
    }

    fn promising(&self, d: &Domains) -> bool {
        let (index, result) = (self.scope[0], self.scope[1]);
        d.values(index)
            .any(|i| self.item(i).is_some_and(|x| d.may_share_value(x, result)))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let (index, result) = (self.scope[0], self.scope[1]);
        ctx.note_revision();
        let mut changed = ctx.retain(index, |d, i| {
            self.item(i).is_some_and(|x| d.may_share_value(x, result))
        })?;
        ctx.note_revision();
        let items: SmallVec<[VarId; 16]> = ctx.values(index).filter_map(|i| self.item(i)).collect();
        changed |= ctx.retain(result, |d, r| items.iter().any(|&x| d.contains(x, r)))?;
        if let Some(i) = ctx.value(index)
            && let Some(x) = self.item(i)
        {
            ctx.note_revision();
            changed |= ctx.retain(x, |d, v| d.contains(result, v))?;
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Solver};

    #[test]
    fn index_that_is_also_the_result_keeps_only_fixed_points() {
        // x = [1, 2, 2, 0][x] holds only for x = 2.
        let mut m = Model::new();
        let x = m.int_var([0, 1, 3]).unwrap();
        m.element(x, &[1, 2, 2, 0], x).unwrap();
        for pruning in Pruning::ALL {
            let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
            assert_eq!(s.count().solutions, 0, "{pruning}");
        }
        let mut m = Model::new();
        let x = m.int_var(0..=3).unwrap();
        m.element(x, &[1, 2, 2, 0], x).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::ArcConsistency)).unwrap();
        assert_eq!(s.domains().value(x), Some(2));
    }
}
