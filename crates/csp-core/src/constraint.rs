//! The `Constraint` trait: a scope, a check, and defaulted promising and propagation.

use crate::context::PropagationContext;
use crate::generic;
use crate::{Domains, ForwardStep, Pruning, StateLayout, Value, VarId};

/// What a propagation call did when it did not fail.
///
/// Modelled on Gecode's execution status: the engine uses it to skip work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PropStatus {
    /// No domain changed.
    Unchanged,
    /// Some domain changed; the constraint may be called again.
    Changed,
    /// The constraint holds for every combination of the values left: the engine
    /// stops calling it until the search backtracks above this point.
    Entailed,
}

/// A dead end found by a constraint: the current domains admit no solution of it.
///
/// A conflict is an ordinary search event, not an error: the engine backtracks,
/// counts it, and tells observers which constraint found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Conflict {
    /// The variable whose domain became empty, when there is one.
    pub var: Option<VarId>,
}

impl Conflict {
    /// A conflict because `var` has no value left.
    pub fn wipeout(var: VarId) -> Self {
        Conflict { var: Some(var) }
    }

    /// A conflict not tied to one variable (for example an infeasible sum).
    pub fn infeasible() -> Self {
        Conflict { var: None }
    }
}

/// Which changes of a variable wake a constraint at the
/// [`Pruning::Propagators`] level (Gecode's *propagation conditions*).
///
/// Every change raises [`Events::DOMAIN`]; a change of the smallest or largest
/// value also raises [`Events::BOUNDS`], and [`Events::MIN`] when the smallest
/// rose, [`Events::MAX`] when the largest fell; a change that leaves one value
/// also raises [`Events::FIXED`]. A constraint is woken when a raised event is
/// one it asked for, so a bounds-reasoning constraint asks for `BOUNDS` and is
/// not called when a value inside the domain goes, and `x + y <= c`, which
/// only a rising minimum can tighten, asks for `MIN` on both.
///
/// ```
/// use csp_core::Events;
/// assert!(Events::BOUNDS.union(Events::FIXED).contains(Events::FIXED));
/// assert!(!Events::FIXED.contains(Events::BOUNDS));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Events(u8);

impl Events {
    /// The variable has one value left.
    pub const FIXED: Events = Events(1);
    /// The smallest or the largest value changed (fixing always does).
    pub const BOUNDS: Events = Events(2);
    /// Any value left the domain.
    pub const DOMAIN: Events = Events(4);
    /// The smallest value rose (a decision may raise it with `MAX`
    /// without having moved it).
    pub const MIN: Events = Events(8);
    /// The largest value fell (a decision may raise it with `MIN` without
    /// having moved it).
    pub const MAX: Events = Events(16);
    /// Every change (the same as `DOMAIN`, which every change raises).
    pub const ANY: Events = Events(7);

    /// Both sets of events.
    pub const fn union(self, other: Events) -> Events {
        Events(self.0 | other.0)
    }

    /// Whether every event of `other` is in `self`.
    pub const fn contains(self, other: Events) -> bool {
        self.0 & other.0 == other.0
    }

    /// The raw bits (1 fixed, 2 bounds, 4 domain, 8 min, 16 max).
    pub const fn bits(self) -> u8 {
        self.0
    }
}

/// How expensive one call of a constraint's propagation is, for the order of
/// the [`Pruning::Propagators`] queue: cheaper constraints run first, so the
/// expensive ones (Régin's matching, tables, schedules) see domains that the
/// cheap ones have already narrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PropCost {
    /// Constant time: unary and binary constraints, clauses.
    Cheap = 0,
    /// Linear in the scope: sums, counts, element.
    Linear = 1,
    /// More than linear: matchings, tables, automata, scheduling.
    Expensive = 2,
}

/// The result of [`Constraint::propagate`]: a status, or a conflict.
pub type Propagation = Result<PropStatus, Conflict>;

/// A constraint over a fixed list of variables (its *scope*).
///
/// Only two methods are required: [`scope`](Constraint::scope) and
/// [`check`](Constraint::check), a pure test of a complete assignment. With those
/// alone a constraint works under every [`Pruning`] level:
///
/// - [`promising`](Constraint::promising) defaults to "consistent until every
///   variable of the scope has a value, then `check`". Override it to reject a
///   partial assignment early (all-different rejects two equal values at once).
/// - [`propagate`](Constraint::propagate) defaults to the generic algorithms of
///   [`generic`]: forward checking by probing `promising`, and arc consistency by
///   searching supports over the scope. Override it with fast, specific code.
///
/// Values are passed to `check` in scope order. The engine guarantees that `check`
/// is only called with values from the variables' declared domains.
///
/// # Writing a constraint
/// ```
/// use csp_core::{Constraint, Config, Model, Pruning, Solver, VarId, Value};
///
/// /// `x + y` is even.
/// struct EvenSum([VarId; 2]);
///
/// impl Constraint for EvenSum {
///     fn scope(&self) -> &[VarId] { &self.0 }
///     fn check(&self, v: &[Value]) -> bool { (v[0] + v[1]) % 2 == 0 }
///     fn name(&self) -> &str { "even-sum" }
/// }
///
/// let mut m = Model::new();
/// let x = m.int_var(0..=3)?;
/// let y = m.int_var(0..=3)?;
/// m.post(EvenSum([x, y]))?;
/// for pruning in Pruning::ALL {
///     let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning))?;
///     assert_eq!(s.count().solutions, 8);
/// }
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub trait Constraint: Send + Sync {
    /// The variables the constraint is about, in the order `check` receives them.
    fn scope(&self) -> &[VarId];

    /// Whether a complete assignment of the scope satisfies the constraint.
    fn check(&self, values: &[Value]) -> bool;

    /// A short name for traces, statistics and error messages.
    fn name(&self) -> &str {
        "constraint"
    }

    /// Whether the current partial assignment can still be extended to satisfy the
    /// constraint. A variable counts as assigned when its domain holds one value
    /// ([`Domains::value`]); the others still have their current domains.
    ///
    /// Must return `check`'s answer when the whole scope is assigned. The default
    /// says "yes" until then.
    fn promising(&self, domains: &Domains) -> bool {
        generic::promising(self, domains)
    }

    /// Removes values that cannot be part of a solution of this constraint, given
    /// the current domains. [`PropagationContext::pruning`] tells how hard to try:
    /// under [`Pruning::ForwardChecking`] it is called after a decision on
    /// [`PropagationContext::trigger`]; under [`Pruning::ArcConsistency`] and
    /// [`Pruning::Propagators`] whenever a domain in the scope changed, until no
    /// domain changes.
    ///
    /// Must never remove a value that belongs to a solution of the constraint.
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        match ctx.pruning() {
            Pruning::ForwardChecking => generic::forward_check(self, ctx),
            _ => generic::support_search(self, ctx),
        }
    }

    /// The backtrackable state this constraint keeps between `propagate` calls
    /// when searched at level `pruning` (see [`StateLayout`] and
    /// [`TrailedState`](crate::TrailedState)). Asked once per solver; the
    /// default is none. `propagate` reads and writes it through the
    /// [`PropagationContext`]'s `state_*` methods, at any level (a value
    /// heuristic may probe with forward checking under another level).
    ///
    /// The state belongs to the constraint the engine is running: a wrapper
    /// that forwards `propagate` must forward `state_layout` too, and a
    /// constraint that embeds others calls their stateless entry points
    /// (for example [`AllDifferent::propagate_embedded`](crate::AllDifferent::propagate_embedded)).
    fn state_layout(&self, pruning: Pruning) -> StateLayout {
        let _ = pruning;
        StateLayout::new()
    }

    /// Forward checking's step of this constraint as data, for a constraint
    /// whose step is "the decided variable's shifted value leaves the other
    /// variables still waiting" (all-different with offsets is one).
    /// `Some(step)` names a shifted list of this constraint's
    /// [`state_layout`](Constraint::state_layout) that is its scope, in order
    /// and without repeats (position `j` of the list is scope variable `j`), and
    /// a bit set of the same length: the positions still worth visiting.
    ///
    /// Under [`Pruning::ForwardChecking`], when the search assigns scope
    /// variable `i` the value `v`, the engine then runs
    /// [`PropagationContext::forward_check_shifted`]`(step.list, step.set, i, v + offsets[i])`
    /// itself instead of calling `propagate`, which saves the call. So
    /// `propagate`, given that trigger, must do exactly that: the engine still
    /// calls it when an observer wants each removal reported, or when the
    /// shifted value is too large for exact arithmetic. `Solver::new` returns
    /// `Err` for a step that does not fit the layout. The default is `None`.
    ///
    /// This is all-different's fast path, the only step the engine runs as
    /// data (see [`ForwardStep`]); it saves a call per decision and
    /// constraint on forward checking's hot path.
    fn forward_step(&self) -> Option<ForwardStep> {
        None
    }

    /// At the [`Pruning::Propagators`] level, a bit set of this constraint's
    /// [`state_layout`](Constraint::state_layout), one position per scope
    /// position, that filters its wake-ups: a change of scope variable `j`
    /// wakes the constraint only while position `j` is set (Gecode's advisors
    /// do this job). The constraint clears a position, through
    /// [`PropagationContext::clear_state_bit`], once changes there cannot
    /// matter until the search backtracks (an element's entry that the index
    /// can no longer select); backtracking sets it again. A variable at two
    /// adjacent scope positions wakes the constraint whatever the set says.
    /// `Solver::new` returns `Err` if the set is not in the layout or its
    /// length is not the scope's. The textbook levels ignore it. The default
    /// is `None`: every change named by [`events`](Constraint::events) wakes.
    fn wake_set(&self) -> Option<usize> {
        None
    }

    /// At the [`Pruning::Propagators`] level, the changes of scope variable
    /// `pos` that wake this constraint (see [`Events`]). The default,
    /// [`Events::DOMAIN`], wakes it on every change and is always safe; ask for
    /// less only if `propagate` cannot remove anything more after the other
    /// changes (a bounds-reasoning sum asks for [`Events::BOUNDS`], a
    /// constraint that only acts on fixed variables for [`Events::FIXED`]).
    /// The textbook levels ignore it: arc consistency revises on every change.
    fn events(&self, pos: usize) -> Events {
        let _ = pos;
        Events::DOMAIN
    }

    /// At the [`Pruning::Propagators`] level, how expensive a call is (the
    /// queue runs cheaper constraints first). The default is
    /// [`PropCost::Linear`].
    fn cost(&self) -> PropCost {
        PropCost::Linear
    }

    /// Whether one `propagate` call at the [`Pruning::Propagators`] level
    /// always reaches this constraint's own fixpoint, so that the changes it
    /// made itself need not wake it again (Gecode's idempotent propagators).
    /// The default, `false`, is always safe.
    fn idempotent(&self) -> bool {
        false
    }

    /// For look-back ([`Backjumping`](crate::Backjumping)): `Some` for a
    /// constraint that is a conjunction of binary constraints between pairs
    /// of its scope positions, as all-different is (`x_i + o_i ≠ x_j + o_j`
    /// for every pair), told through [`Pairwise::conflict`].
    ///
    /// Backjumping then explains this constraint's failures by single
    /// variables, as it does for a model posted pair by pair: a value that
    /// fails the promising check is blamed on the earliest decided variable
    /// it conflicts with (Prosser's CBJ checks the past variables in order),
    /// and under forward checking the values `propagate` removes when woken
    /// by a decision are blamed on that decision, a wiped-out domain on the
    /// decisions that emptied it. With the default, `None`, every variable
    /// of the scope is blamed, which is always sound but jumps less.
    ///
    /// Returning `Some` promises: a complete assignment fails
    /// [`check`](Constraint::check) exactly when some pair of positions
    /// conflicts; and under [`Pruning::ForwardChecking`], `propagate` woken
    /// by [`trigger`](PropagationContext::trigger) position `i` removes only
    /// values that conflict with position `i`'s value alone, and fails only
    /// by emptying a domain.
    ///
    /// ```
    /// use csp_core::{Backjumping, Config, Constraint, Model, Pruning, Solver};
    /// // 6-queens with three all-different constraints: each explains a
    /// // dead end by the queens that attack, so CBJ jumps as it does on the
    /// // model posted pair by pair.
    /// let n = 6;
    /// let mut m = Model::new();
    /// let q = m.int_var_array("q", n, 0..=(n as i64 - 1))?;
    /// let up: Vec<i64> = (0..n as i64).collect();
    /// let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
    /// m.all_different(&q)?;
    /// m.all_different_offsets(&q, &up)?;
    /// m.all_different_offsets(&q, &down)?;
    /// assert!(m.posted()[0].pairwise().is_some());
    /// let config = Config::textbook()
    ///     .with_pruning(Pruning::Check)
    ///     .with_backjumping(Backjumping::Cbj);
    /// let result = Solver::new(&m, config)?.count();
    /// assert_eq!(result.solutions, 4);
    /// assert!(result.stats.backjumps > 0);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    fn pairwise(&self) -> Option<&dyn Pairwise> {
        None
    }
}

/// A constraint made of binary constraints between pairs of its scope
/// positions (see [`Constraint::pairwise`]).
pub trait Pairwise {
    /// Whether scope positions `i` and `j` (`i != j`) taking the values `vi`
    /// and `vj` violate the constraint.
    fn conflict(&self, i: usize, vi: Value, j: usize, vj: Value) -> bool;
}

impl<C: Constraint + ?Sized> Constraint for Box<C> {
    fn scope(&self) -> &[VarId] {
        (**self).scope()
    }
    fn check(&self, values: &[Value]) -> bool {
        (**self).check(values)
    }
    fn name(&self) -> &str {
        (**self).name()
    }
    fn promising(&self, domains: &Domains) -> bool {
        (**self).promising(domains)
    }
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        (**self).propagate(ctx)
    }
    fn state_layout(&self, pruning: Pruning) -> StateLayout {
        (**self).state_layout(pruning)
    }
    fn forward_step(&self) -> Option<ForwardStep> {
        (**self).forward_step()
    }
    fn wake_set(&self) -> Option<usize> {
        (**self).wake_set()
    }
    fn events(&self, pos: usize) -> Events {
        (**self).events(pos)
    }
    fn cost(&self) -> PropCost {
        (**self).cost()
    }
    fn idempotent(&self) -> bool {
        (**self).idempotent()
    }
    fn pairwise(&self) -> Option<&dyn Pairwise> {
        (**self).pairwise()
    }
}
