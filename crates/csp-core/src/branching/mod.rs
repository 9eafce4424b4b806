//! Branching heuristics: which variable to decide next, and in which order to try
//! its values. One heuristic per file.

mod afc_size;
mod ascending;
mod descending;
mod dom_over_wdeg;
mod first_fail;
mod input_order;
mod least_constraining;
mod middle_out;
mod mrv_degree;
mod random_value;
mod random_var;
mod split;
mod value_selector;
mod variable_selector;

pub(crate) use afc_size::Afc;
pub use afc_size::{AFC_DECAY, AfcSize};
pub use ascending::Ascending;
pub use descending::Descending;
pub use dom_over_wdeg::DomOverWdeg;
pub use first_fail::FirstFail;
pub use input_order::InputOrder;
pub use least_constraining::LeastConstrainingValue;
pub use middle_out::MiddleOut;
pub use mrv_degree::MrvDegree;
pub use random_value::RandomValue;
pub use random_var::RandomVar;
pub(crate) use split::split_point;
pub use split::{ReverseSplit, Split};
pub use value_selector::{AnyValueSelector, Sweep, ValOrder, ValueContext, ValueSelector};
pub use variable_selector::{AnyVariableSelector, SearchView, VarOrder, VariableSelector};
