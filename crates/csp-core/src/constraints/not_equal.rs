//! `x != y + c`: the binary disequality with an offset (queens' diagonals).

use crate::constraint::{Events, PropCost, PropStatus, Propagation};
use crate::{Constraint, Domains, PropagationContext, Value, VarId};

/// `x != y + offset`.
///
/// With `offset = 0` it says two variables differ; with `offset = ±(j - i)` it says
/// queens in rows `i` and `j` are not on one diagonal.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let x = m.int_var(0..=2)?;
/// let y = m.int_var(0..=2)?;
/// m.not_equal_offset(x, y, 1)?; // x != y + 1
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 7);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotEqual {
    vars: [VarId; 2],
    offset: Value,
}

impl NotEqual {
    /// `x != y + offset`.
    pub fn new(x: VarId, y: VarId, offset: Value) -> Self {
        NotEqual {
            vars: [x, y],
            offset,
        }
    }

    /// The offset `c` in `x != y + c`.
    pub fn offset(&self) -> Value {
        self.offset
    }
}

impl Constraint for NotEqual {
    fn events(&self, _pos: usize) -> Events {
        Events::FIXED
    }

    fn cost(&self) -> PropCost {
        PropCost::Cheap
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    #[inline]
    fn check(&self, v: &[Value]) -> bool {
        i128::from(v[0]) != i128::from(v[1]) + i128::from(self.offset)
    }

    fn name(&self) -> &str {
        "not-equal"
    }

    #[inline]
    fn promising(&self, d: &Domains) -> bool {
        match (d.value(self.vars[0]), d.value(self.vars[1])) {
            (Some(a), Some(b)) => self.check(&[a, b]),
            _ => true,
        }
    }

    #[inline]
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let [x, y] = self.vars;
        if let Some(a) = ctx.value(x) {
            // One revision: the other side's domain is filtered (a check
            // when both sides are fixed).
            if !ctx.is_fixed(y) {
                ctx.note_revision();
            }
            if let Some(b) = a.checked_sub(self.offset) {
                ctx.remove(y, b)?;
            }
            return Ok(PropStatus::Entailed);
        }
        if let Some(b) = ctx.value(y) {
            ctx.note_revision();
            if let Some(a) = b.checked_add(self.offset) {
                ctx.remove(x, a)?;
            }
            return Ok(PropStatus::Entailed);
        }
        Ok(PropStatus::Unchanged)
    }
}
