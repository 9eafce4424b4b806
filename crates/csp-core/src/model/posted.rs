//! [`Posted`]: the constraints of a model as the engine stores them.

use crate::constraints::{
    AllDifferent, Element, EqualityChannel, Linear, NotEqual, ReifiedCompare, Table, VarElement,
};
use crate::context::PropagationContext;
use crate::{Constraint, Domains, Propagation, Value, VarId};

/// A posted constraint: built-ins are stored by value so that the search calls
/// them without dynamic dispatch; user constraints are boxed. Searches built on
/// the engine (local search) look at the built-ins' parameters through it
/// ([`Model::posted`](super::Model::posted)).
#[non_exhaustive]
pub enum Posted {
    /// [`Model::not_equal`](super::Model::not_equal) and [`Model::not_equal_offset`](super::Model::not_equal_offset).
    NotEqual(NotEqual),
    /// [`Model::all_different`](super::Model::all_different) and [`Model::all_different_offsets`](super::Model::all_different_offsets).
    AllDifferent(AllDifferent),
    /// [`Model::linear`](super::Model::linear).
    Linear(Linear),
    /// [`Model::table`](super::Model::table), [`Model::short_table`](super::Model::short_table) and [`Model::negative_table`](super::Model::negative_table).
    Table(Table),
    /// [`Model::element`](super::Model::element).
    Element(Element),
    /// [`Model::element_var`](super::Model::element_var).
    VarElement(VarElement),
    /// [`Model::linear_reif`](super::Model::linear_reif) and [`Model::linear_imp`](super::Model::linear_imp) of one variable
    /// compared with a constant.
    ReifiedCompare(ReifiedCompare),
    /// [`Model::equality_channel`](super::Model::equality_channel).
    EqualityChannel(EqualityChannel),
    /// [`Model::linear_reif`](super::Model::linear_reif) and [`Model::linear_imp`](super::Model::linear_imp) of a sum (not one
    /// variable compared with a constant).
    ReifiedLinear(Box<crate::ReifiedLinear>),
    /// Any other constraint ([`Model::post`](super::Model::post)).
    Custom(Box<dyn Constraint>),
}

macro_rules! dispatch {
    ($self:ident, $c:ident => $e:expr) => {
        match $self {
            Posted::NotEqual($c) => $e,
            Posted::AllDifferent($c) => $e,
            Posted::Linear($c) => $e,
            Posted::Table($c) => $e,
            Posted::Element($c) => $e,
            Posted::VarElement($c) => $e,
            Posted::ReifiedCompare($c) => $e,
            Posted::EqualityChannel($c) => $e,
            Posted::ReifiedLinear($c) => $e,
            Posted::Custom($c) => $e,
        }
    };
}

impl Posted {
    /// A small sum's form (`a * x + b * y <= c`, reified or not, a two-term
    /// `!=`, a three-term `<=` or `==`): the engine keeps these in one dense
    /// array and runs them at the propagators level without reading the
    /// (larger) posted constraint.
    #[inline]
    pub(crate) fn dense(&self) -> Option<crate::constraints::Dense> {
        match self {
            Posted::Linear(c) => c.dense(),
            Posted::ReifiedLinear(c) => c.dense(),
            _ => None,
        }
    }
}

impl Constraint for Posted {
    #[inline]
    fn scope(&self) -> &[VarId] {
        dispatch!(self, c => c.scope())
    }
    #[inline]
    fn check(&self, values: &[Value]) -> bool {
        dispatch!(self, c => c.check(values))
    }
    #[inline]
    fn name(&self) -> &str {
        dispatch!(self, c => c.name())
    }
    #[inline]
    fn promising(&self, domains: &Domains) -> bool {
        dispatch!(self, c => c.promising(domains))
    }
    #[inline]
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        dispatch!(self, c => c.propagate(ctx))
    }
    fn state_layout(&self, pruning: crate::Pruning) -> crate::StateLayout {
        dispatch!(self, c => c.state_layout(pruning))
    }
    fn forward_step(&self) -> Option<crate::ForwardStep> {
        dispatch!(self, c => c.forward_step())
    }
    fn wake_set(&self) -> Option<usize> {
        dispatch!(self, c => c.wake_set())
    }
    fn events(&self, pos: usize) -> crate::Events {
        dispatch!(self, c => c.events(pos))
    }
    fn cost(&self) -> crate::PropCost {
        dispatch!(self, c => c.cost())
    }
    fn idempotent(&self) -> bool {
        dispatch!(self, c => c.idempotent())
    }
    fn pairwise(&self) -> Option<&dyn crate::constraint::Pairwise> {
        dispatch!(self, c => c.pairwise())
    }
}
