//! What a search returns: solutions, counts, optima, and the lazy iterator.

use std::ops::Index;

use super::Solver;
use crate::{
    SearchObserver, SearchStats, SearchStatus, Value, ValueSelector, VarId, VariableSelector,
};

/// A solution: one value per variable of the model.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    pub(super) values: Vec<Value>,
}

impl Solution {
    /// The values, indexed by variable index.
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// The value of `var`.
    pub fn value(&self, var: VarId) -> Value {
        self.values[var.index()]
    }

    /// The values of `vars`, in order.
    pub fn values_of(&self, vars: &[VarId]) -> Vec<Value> {
        vars.iter().map(|&v| self.value(v)).collect()
    }

    /// Consumes the solution, giving its values.
    pub fn into_values(self) -> Vec<Value> {
        self.values
    }
}

impl Index<VarId> for Solution {
    type Output = Value;

    fn index(&self, var: VarId) -> &Value {
        &self.values[var.index()]
    }
}

/// The result of [`Solver::first`].
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// The solution, if one was found.
    pub solution: Option<Solution>,
    /// `Paused` when a solution was found; `Complete` when there is none (a
    /// proof); `Stopped` when a limit ended the search first.
    pub status: SearchStatus,
    /// The work done.
    pub stats: SearchStats,
}

/// The result of [`Solver::count`].
#[derive(Clone, Debug)]
pub struct CountResult {
    /// Solutions found. Exact only if `status` is `Complete`.
    pub solutions: u64,
    /// `Complete`, or the limit that stopped the count.
    pub status: SearchStatus,
    /// The work done.
    pub stats: SearchStats,
}

impl CountResult {
    /// Whether `solutions` is the exact count.
    pub fn is_complete(&self) -> bool {
        self.status.is_complete()
    }
}

/// Minimise or maximise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Smallest value of the objective.
    Minimize,
    /// Largest value of the objective.
    Maximize,
}

/// The result of [`Solver::optimize`].
#[derive(Clone, Debug)]
pub struct Optimum {
    /// The best solution found.
    pub best: Option<Solution>,
    /// Its objective value.
    pub objective: Option<Value>,
    /// Every improving solution's objective value, in the order found.
    pub improvements: Vec<Value>,
    /// `Complete`: `best` is optimal (or, if `None`, there is no solution).
    /// `Stopped`: a limit ended the search; `best` is the best found.
    pub status: SearchStatus,
    /// The work done.
    pub stats: SearchStats,
}

/// Iterator over the solutions of a [`Solver`], from [`Solver::solutions`].
pub struct Solutions<'s, 'm, O, V, L> {
    pub(super) solver: &'s mut Solver<'m, O, V, L>,
}

impl<O: SearchObserver, V: VariableSelector, L: ValueSelector> Iterator
    for Solutions<'_, '_, O, V, L>
{
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        self.solver.next_solution()
    }
}
