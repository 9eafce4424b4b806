//! Table constraints: the scope must take one of the listed tuples.

use smallvec::SmallVec;

use crate::constraint::{Conflict, PropCost, PropStatus, Propagation};
use crate::{Constraint, CspError, Domains, PropagationContext, Value, VarId};

/// The values of the scope form one of the allowed tuples (an *extensional*
/// constraint).
///
/// `promising` looks for one tuple that fits the current domains; `propagate`
/// keeps exactly the values that occur in such a tuple (generalised arc
/// consistency by scanning the table).
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let x = m.int_var(0..=3)?;
/// let y = m.int_var(0..=3)?;
/// m.table(&[x, y], vec![vec![0, 1], vec![1, 2], vec![2, 3]])?;
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 3);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    vars: Vec<VarId>,
    /// Allowed tuples, sorted and without duplicates.
    tuples: Vec<Vec<Value>>,
    /// For each position, an earlier position holding the same variable.
    same_as: Vec<Option<usize>>,
}

impl Table {
    /// The scope `vars` must equal one of `tuples`; every tuple must have one value
    /// per variable.
    pub fn new(vars: &[VarId], mut tuples: Vec<Vec<Value>>) -> Result<Self, CspError> {
        if let Some(bad) = tuples.iter().find(|t| t.len() != vars.len()) {
            return Err(CspError::LengthMismatch {
                context: "table".into(),
                what: "a tuple".into(),
                expected: vars.len(),
                got: bad.len(),
            });
        }
        tuples.sort_unstable();
        tuples.dedup();
        let same_as = vars
            .iter()
            .enumerate()
            .map(|(i, v)| vars[..i].iter().position(|u| u == v))
            .collect();
        Ok(Table {
            vars: vars.to_vec(),
            tuples,
            same_as,
        })
    }

    /// The allowed tuples (sorted).
    pub fn tuples(&self) -> &[Vec<Value>] {
        &self.tuples
    }

    fn fits(&self, t: &[Value], d: &Domains) -> bool {
        t.iter()
            .enumerate()
            .all(|(i, &v)| d.contains(self.vars[i], v) && self.same_as[i].is_none_or(|j| t[j] == v))
    }
}

impl Constraint for Table {
    fn cost(&self) -> PropCost {
        PropCost::Expensive
    }

    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[Value]) -> bool {
        self.tuples
            .binary_search_by(|t| t.as_slice().cmp(values))
            .is_ok()
    }

    fn name(&self) -> &str {
        "table"
    }

    fn promising(&self, d: &Domains) -> bool {
        self.tuples.iter().any(|t| self.fits(t, d))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let mut supported: SmallVec<[SmallVec<[Value; 16]>; 8]> =
            SmallVec::from_elem(SmallVec::new(), self.vars.len());
        let mut fitting = 0usize;
        for t in &self.tuples {
            if self.fits(t, ctx.domains()) {
                fitting += 1;
                for (i, &v) in t.iter().enumerate() {
                    supported[i].push(v);
                }
            }
        }
        if fitting == 0 {
            return Err(Conflict::infeasible());
        }
        let mut changed = false;
        for (i, &x) in self.vars.iter().enumerate() {
            if self.same_as[i].is_some() {
                continue;
            }
            ctx.note_revision();
            let s = &mut supported[i];
            s.sort_unstable();
            s.dedup();
            if s.len() < ctx.len(x) {
                let s = s.clone();
                changed |= ctx.retain(x, |_, v| s.binary_search(&v).is_ok())?;
            }
        }
        let product: u128 = self
            .vars
            .iter()
            .enumerate()
            .filter(|(i, _)| self.same_as[*i].is_none())
            .map(|(_, &x)| ctx.len(x) as u128)
            .product();
        Ok(if product == fitting as u128 && !changed {
            PropStatus::Entailed
        } else if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}
