//! A generic engine for constraint satisfaction problems, solved by backtracking.
//!
//! # Contents
//! 1. [What a CSP is](#what-a-csp-is)
//! 2. [The state-space tree, *promising* and *pruning*](#the-state-space-tree-promising-and-pruning)
//! 3. [Pruning levels](#pruning-levels)
//! 4. [Branching heuristics](#branching-heuristics)
//! 5. [Searching: first, all, count, optimise, limits](#searching)
//! 6. [Which search to use](#which-search-to-use)
//! 7. [Expressions](#expressions)
//! 8. [Statistics](#statistics)
//! 9. [Writing a constraint](#writing-a-constraint)
//! 10. [Observing the search](#observing-the-search)
//! 11. [Why is there no solution?](#why-is-there-no-solution)
//!
//! # What a CSP is
//! A *constraint satisfaction problem* has **variables**, each with a finite
//! **domain** of integer values, and **constraints**, each a rule over a few of
//! the variables (its *scope*). A **solution** gives every variable a value from its
//! domain so that every constraint holds.
//!
//! N-Queens is the classic example: place `n` queens on an `n × n` board so that
//! none attacks another. With one variable per row whose value is the queen's
//! column, rows differ by construction; the constraints say that columns and
//! diagonals differ too:
//!
//! ```
//! use csp_core::{Config, Model, Pruning, Solver};
//!
//! let n = 8;
//! let mut model = Model::new();
//! let q = model.int_var_array("q", n, 0..=(n as i64 - 1))?;
//! for i in 0..n {
//!     for j in i + 1..n {
//!         let d = (j - i) as i64;
//!         model.not_equal(q[i], q[j])?;             // different columns
//!         model.not_equal_offset(q[i], q[j], d)?;   // q_i != q_j + d
//!         model.not_equal_offset(q[i], q[j], -d)?;  // q_i != q_j - d
//!     }
//! }
//! let mut solver = Solver::new(&model, Config::textbook().with_pruning(Pruning::Check))?;
//! let count = solver.count();
//! assert_eq!(count.solutions, 92);
//! assert!(count.is_complete());
//! // The textbook figures for the pruned state-space tree of 8-queens:
//! assert_eq!((count.stats.tried, count.stats.accepted, count.stats.rejected), (15_720, 2_056, 13_664));
//! # Ok::<(), csp_core::CspError>(())
//! ```
//!
//! # The state-space tree, *promising* and *pruning*
//! Backtracking explores a tree: the root is the empty assignment, and each child
//! adds one value for the next variable. A depth-first walk visits it. A node is
//! **promising** if the partial assignment can still be extended to a solution as
//! far as the constraints can tell; a non-promising node is a dead end, and the
//! whole subtree below it is skipped (**pruned**). The earlier a dead end is
//! recognised, the smaller the tree: generate-and-test visits all `8^8` leaves of
//! 8-queens, the promising check visits 15,720 nodes.
//!
//! # Pruning levels
//! [`Pruning`] chooses how much work is done at each node; every level finds the
//! same solutions:
//! - [`Pruning::None`]: check constraints only on complete assignments;
//! - [`Pruning::Check`]: after `x = v`, ask every constraint on `x` whether the
//!   assignment is still [`promising`](Constraint::promising) — the `promising`
//!   function of the classic programs;
//! - [`Pruning::ForwardChecking`]: after `x = v`, remove from the unassigned
//!   neighbours of `x` every value that conflicts with it; a domain emptied is a
//!   dead end found *before* trying its values;
//! - [`Pruning::ArcConsistency`]: maintain arc consistency (MAC): after each
//!   decision, revise constraints (AC-3) until no domain changes, so that one
//!   removal cascades through the network;
//! - [`Pruning::Propagators`]: like MAC, but each constraint runs its strongest
//!   filtering (for example Régin's matching algorithm for [`AllDifferent`]),
//!   and a variable that propagation fixed is not branched on.
//!
//! What a level removes is each constraint's own (the table in [`Pruning`]).
//! The three [`NotEqual`]s per pair above can remove a value only once the
//! other queen is placed, so MAC on them is forward checking plus a cascade
//! (992 nodes for all 8-queens solutions); posting each pair's whole relation
//! with [`Model::binary_relation`] (a [`BinaryRelation`], revised by support)
//! makes MAC real arc consistency (768).
//!
//! # Branching heuristics
//! [`VarOrder`] chooses the next variable: [`InputOrder`](branching::InputOrder),
//! [`FirstFail`](branching::FirstFail) (smallest domain),
//! [`MrvDegree`](branching::MrvDegree), [`DomOverWdeg`](branching::DomOverWdeg),
//! or random from a seed. [`ValOrder`] orders its values: ascending, descending,
//! middle-out, least-constraining, or random. Implement
//! [`VariableSelector`] or [`ValueSelector`] for your own.
//!
//! # Searching
//! A [`Solver`] searches one [`Model`] with one [`Config`]:
//! [`first`](Solver::first), [`next_solution`](Solver::next_solution) and
//! [`solutions`](Solver::solutions) (lazily), [`count`](Solver::count) (without
//! storing solutions), [`for_each_solution`](Solver::for_each_solution) (stop with
//! `ControlFlow::Break`), and [`minimize`](Solver::minimize) /
//! [`maximize`](Solver::maximize) by branch and bound. [`Limits`] bound the nodes,
//! failures, solutions and time, and a [`CancelFlag`] stops a search from another
//! thread. The [`SearchStatus`] of every result says whether the search was
//! complete: a count stopped by a limit is never passed off as exact.
//! [`Config::with_restarts`] restarts the search from the root after each
//! run's budget of failures ([`Restarts`]: Luby, geometric, ...), keeping
//! dom/wdeg's weights.
//!
//! # Which search to use
//! [`Config::default`] is the strongest general-purpose search: the
//! [`Pruning::Propagators`] level, the learning variable order afc/size
//! ([`VarOrder::AfcSize`], Gecode's default), binary choices and no restarts
//! ([`DEFAULT_VAR_ORDER`], [`DEFAULT_RESTARTS`], measured in docs/search.md).
//! Use it for a model you want solved. [`Config::textbook`] is the classic
//! backtracking of the textbooks and of the N-Queens programs (the promising
//! check, input order, ascending values, one value at a time): use it, and the
//! levels between ([`Config::with_pruning`]), to see what pruning does. Every
//! figure in these docs that counts nodes names its strategy.
//!
//! ```
//! use csp_core::{Config, Solver};
//! let (m, q) = csp_core::models::queens(30)?;
//! // The default search places 30 queens at once; the textbook search would
//! // take far longer (its tree grows exponentially with n).
//! let sol = Solver::new(&m, Config::default())?.first().solution.unwrap();
//! assert_eq!(sol.values_of(&q).len(), 30);
//! # Ok::<(), csp_core::CspError>(())
//! ```
//!
//! # Expressions
//! Arithmetic on variables builds a [`LinExpr`] (`x + 2 * y - z`); a
//! comparison method (`le`, `lt`, `ge`, `gt`, `eq`, `ne`) makes a
//! [`LinRelation`] that [`Model::post`] posts as one linear constraint and
//! [`Model::post_reif`] reifies into a 0/1 variable; [`Solver::minimize`] and
//! [`Solver::maximize`] take a variable or an expression:
//!
//! ```
//! use csp_core::{Config, Model, Solver};
//! let mut m = Model::new();
//! let x = m.int_var(0..=9)?;
//! let y = m.int_var(0..=9)?;
//! let z = m.int_var(0..=9)?;
//! m.post((x + 2 * y - z).le(10))?;
//! m.post(x.ne(y + 3))?;
//! let best = Solver::new(&m, Config::default())?.maximize(x + y + z)?;
//! assert_eq!(best.objective, Some(23)); // x = 9, y = 5, z = 9: 9 + 10 - 9 = 10 <= 10
//! # Ok::<(), csp_core::CspError>(())
//! ```
//!
//! # Statistics
//! [`SearchStats`] defines every counter once (values *tried*, *accepted*,
//! *rejected*, backtracks, checks, propagator calls, revisions, values pruned,
//! peak depth, solutions, time) and maps them to MiniZinc's names
//! ([`SearchStats::mzn_stats`]).
//!
//! # Writing a constraint
//! Implement [`Constraint`]: give the scope and a `check` of complete assignments.
//! That is enough for every pruning level, thanks to the generic algorithms in
//! [`generic`]. Then, if you want speed, override
//! [`promising`](Constraint::promising) to reject partial assignments early and
//! [`propagate`](Constraint::propagate) to remove values directly:
//!
//! ```
//! use csp_core::*;
//!
//! /// The values of the scope sum to an even number.
//! struct EvenSum(Vec<VarId>);
//!
//! impl Constraint for EvenSum {
//!     fn scope(&self) -> &[VarId] { &self.0 }
//!     fn check(&self, values: &[Value]) -> bool { values.iter().sum::<Value>() % 2 == 0 }
//!     fn name(&self) -> &str { "even-sum" }
//!     // Filtering: once all but one variable are fixed, fix that one's parity.
//!     fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
//!         let open: Vec<VarId> = self.0.iter().copied().filter(|&v| !ctx.is_fixed(v)).collect();
//!         match open.as_slice() {
//!             [] => if self.promising(ctx.domains()) { Ok(PropStatus::Entailed) } else { Err(Conflict::infeasible()) },
//!             [last] => {
//!                 let fixed: Value = self.0.iter().filter_map(|&v| ctx.value(v)).sum();
//!                 let changed = ctx.retain(*last, |_, v| (fixed + v) % 2 == 0)?;
//!                 Ok(if changed { PropStatus::Changed } else { PropStatus::Unchanged })
//!             }
//!             _ => Ok(PropStatus::Unchanged),
//!         }
//!     }
//! }
//!
//! let mut m = Model::new();
//! let xs = m.int_var_array("x", 3, 0..=3)?;
//! m.post(EvenSum(xs.clone()))?;
//! for pruning in Pruning::ALL {
//!     let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning))?;
//!     assert_eq!(s.count().solutions, 32);
//! }
//! # Ok::<(), csp_core::CspError>(())
//! ```
//!
//! A conflict is a value ([`Conflict`]), not an error; errors ([`CspError`]) are
//! for misuse such as an empty domain or an unknown variable.
//!
//! # Observing the search
//! Attach a [`SearchObserver`] with [`Solver::with_observer`] to receive each
//! node tried, each value pruned and by which constraint, each failure and its
//! cause, each backtrack and each solution. Without one the search pays nothing.
//!
//! # Why is there no solution?
//! When a model has none, [`explain::explain`] names a minimal set of its
//! constraints that already has none (QuickXplain, Junker 2004), each check a
//! bounded search ([`Config::with_active_constraints`] leaves the other
//! constraints out). Name the rules of your model with
//! [`Model::name_group`], and the explanation speaks in those names:
//!
//! ```
//! use csp_core::{Config, Model, explain};
//! let mut m = Model::new();
//! let slot = m.int_var_array("slot", 3, 1..=3)?;
//! let apart = m.all_different(&slot)?;
//! let early = m.post(slot[0].le(2))?;
//! let late = [m.post(slot[1].ge(3))?, m.post(slot[2].ge(3))?];
//! m.name_group("one exam per slot", &[apart])?;
//! m.name_group("exam 0 early", &[early])?;
//! m.name_group("exams 1 and 2 late", &late)?;
//! let why = explain::explain(&m, &Config::default())?;
//! assert!(why.verdict.is_minimal());
//! assert_eq!(why.names(&m), ["one exam per slot", "exams 1 and 2 late"]);
//! # Ok::<(), csp_core::CspError>(())
//! ```

#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod backjumping;
pub mod branching;
mod changelog;
mod constraint;
pub mod constraints;
mod context;
mod domains;
mod error;
pub mod explain;
mod expr;
pub mod generic;
mod limits;
mod model;
pub mod models;
mod observer;
#[cfg(feature = "parallel")]
pub mod parallel;
mod progress;
mod pruning;
pub mod rng;
mod search;
mod state;
mod stats;
mod strategy;
mod var;

/// The type of variable values.
pub type Value = i64;

pub use backjumping::{Backjumping, PruningToken};
pub use branching::{
    SearchView, ValOrder, ValueContext, ValueSelector, VarOrder, VariableSelector,
};
pub use constraint::{Conflict, Constraint, Events, Pairwise, PropCost, PropStatus, Propagation};
pub use constraints::{
    AllDifferent, BinaryRelation, BoolOr, Count, CountVar, Element, EqualityChannel, Func,
    Function, Linear, Lit, MinMax, NotEqual, OffsetElement, Predicate, PseudoBoolean,
    ReifiedCompare, ReifiedCount, ReifiedLinear, Relation, STAR, Table, VarElement,
};
pub use constraints::{
    Automaton, Circuit, Cumulative, Diffn, Disjunctive, GlobalCardinality, Inverse, LexLessEq,
    Regular,
};
pub use context::{PropagationContext, WIDE_BOUND_STEPS};
pub use domains::{DEFAULT_LAZY_BITS_ABOVE, DomainValues, Domains};
pub use error::CspError;
pub use expr::{LinExpr, LinRelation, Post};
pub use limits::{CancelFlag, Limits, SearchStatus, StopReason};
pub use model::{MAX_DOMAIN_WIDTH, Model, Posted};
pub use observer::{
    Backjump, Candidate, Choice, Failure, FailureKind, NoObserver, Node, PruneCause, SearchObserver,
};
pub use progress::{Progress, ProgressHook};
pub use pruning::{Pruning, UnknownName};
pub use search::{
    Config, CountResult, DEFAULT_MEMORY_LIMIT, DEFAULT_NOGOOD_LIMIT, DEFAULT_RESTARTS,
    DEFAULT_TRAIL_BUDGET, DEFAULT_VAR_ORDER, Goal, Optimum, Restarts, Solution, Solutions,
    SolveResult, Solver,
};
pub use state::{ForwardStep, SparseBits, StateLayout, TrailedState, WOKEN_CAP, WokenPositions};
pub use stats::SearchStats;
pub use strategy::Strategy;
pub use var::{ConstraintId, Domain, VarId};
