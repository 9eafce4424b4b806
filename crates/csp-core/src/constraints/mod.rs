//! The built-in constraints, one per file.
//!
//! Each implements [`Constraint`](crate::Constraint) with a fast `promising` and
//! `propagate`; post them with the [`Model`](crate::Model) methods of the same name.

mod all_different;
mod arithmetic;
mod binary;
mod circuit;
mod clause;
mod count;
mod count_var;
mod cumulative;
mod diffn;
pub(crate) mod disjunctive;
mod edge_finding;
mod element;
mod element_masks;
mod element_offset;
mod equality_channel;
mod function;
mod global_cardinality;
mod inverse;
mod lex_less_eq;
mod linear;
mod linear_reif;
mod linear_two;
mod matching;
mod min_max;
mod not_equal;
mod overload;
mod predicate;
mod pseudo_boolean;
mod ranges;
mod regular;
mod reified_compare;
mod small_matching;
mod sub_circuit;
mod table;
mod wide;

pub use all_different::AllDifferent;
pub use arithmetic::{ENUMERATION_LIMIT, Func, Function, PROPAGATORS_TIMES_LIMIT};
pub use binary::{BinaryRelation, PairFn};
pub use circuit::Circuit;
pub use clause::{BoolOr, Lit};
pub use count::Count;
pub use count_var::CountVar;
pub use cumulative::Cumulative;
pub use diffn::Diffn;
pub use disjunctive::Disjunctive;
pub use element::{Element, VarElement};
pub use element_offset::OffsetElement;
pub use equality_channel::EqualityChannel;
pub use global_cardinality::GlobalCardinality;
pub use inverse::Inverse;
pub use lex_less_eq::LexLessEq;
pub use linear::{Linear, Relation};
pub use linear_reif::ReifiedLinear;
pub(crate) use linear_two::Dense;
pub use min_max::MinMax;
pub use not_equal::NotEqual;
pub use predicate::Predicate;
pub use pseudo_boolean::PseudoBoolean;
pub use ranges::{ceil_div, divide_range, floor_div, scaled_range};
pub use regular::{Automaton, Regular};
pub use reified_compare::ReifiedCompare;
pub use sub_circuit::SubCircuit;
pub use table::{STAR, Table};
