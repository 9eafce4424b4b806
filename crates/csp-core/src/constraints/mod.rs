//! The built-in constraints, one per file.
//!
//! Each implements [`Constraint`](crate::Constraint) with a fast `promising` and
//! `propagate`; post them with the [`Model`](crate::Model) methods of the same name.

mod all_different;
mod binary;
mod element;
mod linear;
mod not_equal;
mod predicate;
mod table;

pub use all_different::AllDifferent;
pub use binary::{BinaryRelation, PairFn};
pub use element::{Element, VarElement};
pub use linear::{Linear, Relation, ceil_div, divide_range, floor_div, scaled_range};
pub use not_equal::NotEqual;
pub use predicate::Predicate;
pub use table::Table;
