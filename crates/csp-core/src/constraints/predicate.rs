//! A constraint given by a closure over its scope: a custom rule in one line.

use std::fmt;

use crate::{Constraint, Value, VarId};

/// The test a [`Predicate`] runs on the values of its scope.
pub type PredicateFn = dyn Fn(&[Value]) -> bool + Send + Sync;

/// A constraint defined by a closure that tests a complete assignment of the scope.
///
/// It gets every pruning level from the generic algorithms: promising once the
/// scope is assigned, forward checking by probing, arc consistency by support
/// search (see [`generic`](crate::generic)).
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let a = m.int_var(1..=5)?;
/// let b = m.int_var(1..=5)?;
/// m.predicate("next to", &[a, b], |v| (v[0] - v[1]).abs() == 1)?;
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 8);
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub struct Predicate {
    name: String,
    vars: Vec<VarId>,
    test: Box<PredicateFn>,
}

impl Predicate {
    /// A predicate named `name` over `vars`.
    pub fn new(
        name: impl Into<String>,
        vars: &[VarId],
        test: impl Fn(&[Value]) -> bool + Send + Sync + 'static,
    ) -> Self {
        Predicate {
            name: name.into(),
            vars: vars.to_vec(),
            test: Box::new(test),
        }
    }
}

impl fmt::Debug for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Predicate")
            .field("name", &self.name)
            .field("vars", &self.vars)
            .finish_non_exhaustive()
    }
}

impl Constraint for Predicate {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[Value]) -> bool {
        (self.test)(values)
    }

    fn name(&self) -> &str {
        &self.name
    }
}
