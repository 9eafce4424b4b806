//! The constraints FlatZinc needs beyond csp-core's built-ins, each implementing `csp_core::Constraint`.

mod clause;
mod functional;
mod in_set;
mod parity;
pub(crate) mod reified_linear;
#[cfg(test)]
pub(crate) mod testing;

pub use clause::{BoolOr, Lit};
pub use functional::{ENUMERATION_LIMIT, Func, Function};
pub use in_set::InSet;
pub use parity::Parity;
pub use reified_linear::ReifiedLinear;
