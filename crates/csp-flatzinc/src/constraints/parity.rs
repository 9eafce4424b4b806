//! `x_1 xor ... xor x_n = odd`: exclusive-or over Boolean variables.

use csp_core::{
    Conflict, Constraint, Domains, PropStatus, Propagation, PropagationContext, Value, VarId,
};

/// The number of true variables among `vars` is odd (or even).
///
/// `bool_xor(a, b, r)` is `a xor b xor r` even, `bool_eq_reif(a, b, r)` is it odd,
/// `bool_not(a, b)` is `a xor b` odd, and `array_bool_xor(as)` is `as` odd. When one
/// variable is left open its value is forced.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// use csp_flatzinc::constraints::Parity;
///
/// let mut m = Model::new();
/// let v: Vec<_> = (0..3).map(|_| m.bool_var()).collect();
/// m.post(Parity::new(&v, true))?;
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 4);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Parity {
    vars: Vec<VarId>,
    odd: bool,
}

impl Parity {
    /// `vars` has an odd number of true values if `odd`, else an even number.
    pub fn new(vars: &[VarId], odd: bool) -> Self {
        Parity {
            vars: vars.to_vec(),
            odd,
        }
    }

    /// The parity of the fixed variables, and the one open variable if exactly one is.
    fn state(&self, d: &Domains) -> (bool, usize, Option<VarId>) {
        let mut odd = false;
        let mut open = 0;
        let mut last = None;
        for &x in &self.vars {
            match d.value(x) {
                Some(v) => odd ^= v != 0,
                None => {
                    open += 1;
                    last = Some(x);
                }
            }
        }
        (odd, open, last)
    }
}

impl Constraint for Parity {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[Value]) -> bool {
        values.iter().filter(|&&v| v != 0).count() % 2 == usize::from(self.odd)
    }

    fn name(&self) -> &str {
        "parity"
    }

    fn promising(&self, d: &Domains) -> bool {
        let (odd, open, _) = self.state(d);
        open > 0 || odd == self.odd
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        ctx.note_revision();
        match self.state(ctx.domains()) {
            (odd, 0, _) if odd == self.odd => Ok(PropStatus::Entailed),
            (_, 0, _) => Err(Conflict::infeasible()),
            // A variable may occur twice; then fixing the "last" one is not forced.
            (odd, 1, Some(x)) if self.vars.iter().filter(|&&y| y == x).count() == 1 => {
                ctx.fix(x, Value::from(odd != self.odd))?;
                Ok(PropStatus::Entailed)
            }
            _ => Ok(PropStatus::Unchanged),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::testing::agrees_with_brute_force;
    use csp_core::Model;

    #[test]
    fn odd_and_even_parity_agree_with_brute_force() {
        for odd in [true, false] {
            let mut m = Model::new();
            let v: Vec<_> = (0..4).map(|_| m.bool_var()).collect();
            m.post(Parity::new(&v, odd)).unwrap();
            agrees_with_brute_force(&m);
        }
    }

    #[test]
    fn repeated_variable_cancels_out() {
        let mut m = Model::new();
        let a = m.bool_var();
        let b = m.bool_var();
        m.post(Parity::new(&[a, b, a], true)).unwrap();
        agrees_with_brute_force(&m);
    }
}
