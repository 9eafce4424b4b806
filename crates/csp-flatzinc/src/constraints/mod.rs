//! The constraints FlatZinc needs beyond csp-core's built-ins, each implementing `csp_core::Constraint`.
//!
//! The integer functions, clauses and reified linear constraints live in
//! csp-core (where the Rust API reaches them too) and are re-exported here.

mod in_set;
mod parity;
#[cfg(test)]
pub(crate) mod testing;

pub use csp_core::constraints::{BoolOr, ENUMERATION_LIMIT, Func, Function, Lit, ReifiedLinear};
pub use in_set::InSet;
pub use parity::Parity;
