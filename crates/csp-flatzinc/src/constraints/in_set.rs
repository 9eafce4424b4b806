//! `x in S` and `r <-> x in S` for a constant set `S`.

use csp_core::{
    Constraint, Domain, Domains, PropStatus, Propagation, PropagationContext, Value, VarId,
};

/// `x in set`, or `r <-> x in set` when reified (`set_in`, `set_in_reif`).
///
/// ```
/// use csp_core::{Config, Domain, Model, Solver};
/// use csp_flatzinc::constraints::InSet;
///
/// let mut m = Model::new();
/// let x = m.int_var(0..=9)?;
/// m.post(InSet::new(x, Domain::from(vec![1, 3, 5, 12])))?;
/// let mut solver = Solver::new(&m, Config::textbook())?;
/// assert_eq!(solver.solutions().map(|s| s[x]).collect::<Vec<_>>(), vec![1, 3, 5]);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug)]
pub struct InSet {
    /// `x`, then `r` if reified.
    scope: Vec<VarId>,
    set: Domain,
}

impl InSet {
    /// `x in set`.
    pub fn new(x: VarId, set: Domain) -> Self {
        InSet {
            scope: vec![x],
            set,
        }
    }

    /// `r <-> x in set`, with `r` a 0/1 variable.
    pub fn reified(x: VarId, set: Domain, r: VarId) -> Self {
        InSet {
            scope: vec![x, r],
            set,
        }
    }

    /// `Some(true)` if every value left is in the set, `Some(false)` if none is.
    fn decided(&self, d: &Domains) -> Option<bool> {
        let x = self.scope[0];
        let (lo, hi) = (d.min(x), d.max(x));
        if let Domain::Range(a, b) = self.set {
            if a <= lo && hi <= b {
                return Some(true);
            }
            if hi < a || lo > b {
                return Some(false);
            }
        }
        let mut inside = false;
        let mut outside = false;
        for v in d.values(x) {
            if self.set.contains(v) {
                inside = true;
            } else {
                outside = true;
            }
            if inside && outside {
                return None;
            }
        }
        Some(inside)
    }
}

impl Constraint for InSet {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        let inside = self.set.contains(values[0]);
        match values.get(1) {
            None => inside,
            Some(&r) => (r != 0) == inside,
        }
    }

    fn name(&self) -> &str {
        "in-set"
    }

    fn promising(&self, d: &Domains) -> bool {
        let required = match self.scope.get(1) {
            None => Some(true),
            Some(&r) => d.value(r).map(|v| v != 0),
        };
        match (required, self.decided(d)) {
            (Some(want), Some(is)) => want == is,
            _ => true,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        ctx.note_revision();
        let x = self.scope[0];
        let required = match self.scope.get(1) {
            None => Some(true),
            Some(&r) => ctx.value(r).map(|v| v != 0),
        };
        match required {
            Some(want) => {
                ctx.retain(x, |_, v| self.set.contains(v) == want)?;
                Ok(PropStatus::Entailed)
            }
            None => match self.decided(ctx.domains()) {
                Some(is) => {
                    ctx.fix(self.scope[1], Value::from(is))?;
                    Ok(PropStatus::Entailed)
                }
                None => Ok(PropStatus::Unchanged),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::testing::agrees_with_brute_force;
    use csp_core::Model;

    #[test]
    fn membership_in_a_sparse_set_and_a_range_agree_with_brute_force() {
        for set in [Domain::from(vec![-1, 2, 3, 7]), Domain::from(1..=3)] {
            let mut m = Model::new();
            let x = m.int_var(-2..=4).unwrap();
            m.post(InSet::new(x, set.clone())).unwrap();
            agrees_with_brute_force(&m);
            let mut m = Model::new();
            let x = m.int_var(-2..=4).unwrap();
            let r = m.bool_var();
            m.post(InSet::reified(x, set, r)).unwrap();
            agrees_with_brute_force(&m);
        }
    }

    #[test]
    fn empty_set_is_never_entered() {
        let mut m = Model::new();
        let x = m.int_var(0..=2).unwrap();
        let r = m.bool_var();
        m.post(InSet::reified(x, Domain::from(vec![]), r)).unwrap();
        agrees_with_brute_force(&m);
    }
}
