//! The `SearchObserver` hook: every event of the search, for traces and tools.

use crate::{ConstraintId, Pruning, Value, VarId};

/// What a node decides about its variable: `var = value` (every node of the
/// textbook levels), or one half of a split domain (binary branching with a
/// splitting value order, [`ValOrder::Split`](crate::ValOrder::Split)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Choice {
    /// `var = value`; its refutation is `var != value`.
    #[default]
    Equal,
    /// `var <= value`; its refutation is `var > value`.
    LessEqual,
    /// `var >= value`; its refutation is `var < value`.
    GreaterEqual,
}

impl Choice {
    /// The relation of the node and of its refutation, as symbols: `("=", "!=")`,
    /// `("<=", ">")` or `(">=", "<")`.
    ///
    /// ```
    /// use csp_core::Choice;
    /// assert_eq!(Choice::LessEqual.symbols(), ("<=", ">"));
    /// ```
    pub fn symbols(self) -> (&'static str, &'static str) {
        match self {
            Choice::Equal => ("=", "!="),
            Choice::LessEqual => ("<=", ">"),
            Choice::GreaterEqual => (">=", "<"),
        }
    }
}

/// A node of the state-space tree: the value `value` tried for `var` (or, for a
/// split, the bound `value` put on `var`: see [`Choice`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// Number of the node in visit order, from 1 (0 is the root).
    pub id: u64,
    /// The node this one was generated from (0 for the root).
    pub parent: u64,
    /// Number of decisions including this one (1 for the root's children).
    pub depth: usize,
    /// The variable.
    pub var: VarId,
    /// The value tried (the bound, for a split).
    pub value: Value,
    /// `var = value`, or a split's `var <= value` / `var >= value`.
    pub choice: Choice,
}

/// Why a value was removed from a domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PruneCause {
    /// The constraint whose propagation removed it; `None` for the objective bound
    /// of an optimisation.
    pub constraint: Option<ConstraintId>,
    /// The pruning level that ran the constraint.
    pub pruning: Pruning,
    /// The decision that started this propagation (`None` at the root): its
    /// variable and value (a split's bound).
    pub decision: Option<(VarId, Value)>,
}

/// What made a tried value fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// A constraint's `promising` said no (pruning level `Check`).
    NotPromising,
    /// A complete assignment failed a constraint's `check` (pruning level `None`).
    CheckFailed,
    /// Propagation emptied a domain or found the constraint infeasible.
    Conflict,
    /// The objective bound of an optimisation excluded the value.
    ObjectiveBound,
}

/// A failed node's cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Failure {
    /// How it failed.
    pub kind: FailureKind,
    /// The constraint that failed, if one did.
    pub constraint: Option<ConstraintId>,
    /// The variable whose domain became empty, if one did.
    pub var: Option<VarId>,
}

/// A backjump ([`Backjumping`](crate::Backjumping)): the variable decided at
/// level `from` ran out of values, and the search returns to level `to`
/// (`to < from - 1`; 0 is the root, where the search ends), skipping the
/// decisions in between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backjump<'a> {
    /// The dead end's level (its variable's depth: 1 for the first decision).
    pub from: usize,
    /// The variable without values left.
    pub var: VarId,
    /// The node whose child `var` was (0 for the root): where the dead end is.
    pub dead_end: u64,
    /// The level the search returns to (0: the root).
    pub to: usize,
    /// The node at level `to` whose value is undone next (0 for the root).
    pub target: u64,
    /// The dead end's conflict set, as the variables decided at its levels,
    /// lowest level first (empty when the search returns to the root).
    pub conflict: &'a [VarId],
}

/// A candidate considered by a variable heuristic, with its score (lower is
/// better; the heuristic says what the score means).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The variable.
    pub var: VarId,
    /// Its score.
    pub score: f64,
}

/// Receives the events of a search, in order. Every method does nothing by default.
///
/// The search is generic over its observer, so the default [`NoObserver`] costs
/// nothing: its empty methods vanish when compiled. Events for one node come in
/// this order: `on_select` (when a variable is chosen), `on_try`, any number of
/// `on_prune`, then `on_accept` or `on_reject`; `on_solution` follows an accepted
/// node that completes an assignment; `on_backtrack` when a variable runs out of
/// values.
pub trait SearchObserver {
    /// Whether the engine should report removed values ([`on_prune`]) and
    /// heuristic candidates ([`on_select`]). Collecting them costs time; the
    /// default observer says no.
    ///
    /// [`on_prune`]: SearchObserver::on_prune
    /// [`on_select`]: SearchObserver::on_select
    fn wants_details(&self) -> bool {
        true
    }

    /// Whether the engine should gather the values of each solution for
    /// [`on_solution`](SearchObserver::on_solution). Default: yes.
    fn wants_solutions(&self) -> bool {
        true
    }

    /// The memory the observer holds, about, in bytes (a trace recorder's
    /// events): it counts toward the search's memory limit
    /// ([`Config::with_memory_limit`](crate::Config::with_memory_limit)),
    /// read when the search reads its clock (about once a millisecond).
    /// Default: 0.
    fn memory_bytes(&self) -> usize {
        0
    }

    /// A variable was chosen for branching at `depth` (the number of decisions
    /// made so far); `candidates` lists what the heuristic weighed, best first,
    /// when [`wants_details`](SearchObserver::wants_details) is true and the
    /// heuristic explains itself.
    fn on_select(&mut self, _depth: usize, _var: VarId, _candidates: &[Candidate]) {}

    /// A value is being tried.
    fn on_try(&mut self, _node: &Node) {}

    /// Propagation after `node` (the root for `None`) removed `value` from `var`.
    fn on_prune(&mut self, _node: Option<&Node>, _var: VarId, _value: Value, _cause: &PruneCause) {}

    /// The tried value passed.
    fn on_accept(&mut self, _node: &Node) {}

    /// The tried value failed.
    fn on_reject(&mut self, _node: &Node, _failure: &Failure) {}

    /// Binary branching ([`Config::with_binary_branching`](crate::Config::with_binary_branching)):
    /// the second branch of a choice, `node.var != node.value`, after the
    /// subtree of `node.var = node.value` was explored (for a split,
    /// [`node.choice`](Node::choice), the opposite half: `var > value` after
    /// `var <= value`, `var < value` after `var >= value`), with the propagation's
    /// failure if it failed. `node` has an id of its own; the nodes below the
    /// branch have it as their parent.
    fn on_refute(&mut self, _node: &Node, _failure: Option<&Failure>) {}

    /// A solution: `values[i]` is the value of variable `i`. `node` is the last
    /// decision (`None` if the model needed no decision).
    fn on_solution(&mut self, _node: Option<&Node>, _values: &[Value]) {}

    /// `var`, decided at `depth`, has no value left to try: the search goes back
    /// to the previous decision.
    fn on_backtrack(&mut self, _depth: usize, _var: VarId) {}

    /// After the dead end's `on_backtrack`, a backjump over at least one
    /// decision ([`Backjumping`](crate::Backjumping)). The skipped levels
    /// raise no `on_backtrack` of their own: the next events are the tries
    /// at level `jump.to`.
    fn on_backjump(&mut self, _jump: &Backjump<'_>) {}
}

/// The observer that observes nothing (the default).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl SearchObserver for NoObserver {
    #[inline(always)]
    fn wants_details(&self) -> bool {
        false
    }
    #[inline(always)]
    fn wants_solutions(&self) -> bool {
        false
    }
}

impl<O: SearchObserver + ?Sized> SearchObserver for &mut O {
    fn wants_details(&self) -> bool {
        (**self).wants_details()
    }
    fn wants_solutions(&self) -> bool {
        (**self).wants_solutions()
    }
    fn memory_bytes(&self) -> usize {
        (**self).memory_bytes()
    }
    fn on_select(&mut self, depth: usize, var: VarId, candidates: &[Candidate]) {
        (**self).on_select(depth, var, candidates)
    }
    fn on_try(&mut self, node: &Node) {
        (**self).on_try(node)
    }
    fn on_prune(&mut self, node: Option<&Node>, var: VarId, value: Value, cause: &PruneCause) {
        (**self).on_prune(node, var, value, cause)
    }
    fn on_accept(&mut self, node: &Node) {
        (**self).on_accept(node)
    }
    fn on_reject(&mut self, node: &Node, failure: &Failure) {
        (**self).on_reject(node, failure)
    }
    fn on_refute(&mut self, node: &Node, failure: Option<&Failure>) {
        (**self).on_refute(node, failure)
    }
    fn on_solution(&mut self, node: Option<&Node>, values: &[Value]) {
        (**self).on_solution(node, values)
    }
    fn on_backtrack(&mut self, depth: usize, var: VarId) {
        (**self).on_backtrack(depth, var)
    }
    fn on_backjump(&mut self, jump: &Backjump<'_>) {
        (**self).on_backjump(jump)
    }
}
