//! Min-conflicts local search: a seeded, incomplete solver for large satisfiable models.
//!
//! # Background
//! Backtracking proves things (every solution, or that there is none) but its
//! domains are bitsets, one bit per value: a million queens would need 10^12
//! bits. *Local search* proves nothing; it keeps one complete assignment and
//! repairs it. Minton, Johnston, Philips and Laird (1992) showed that the
//! *min-conflicts* heuristic places a million queens with few repairs:
//!
//! 1. **greedy start**: give each variable, in order, a value that conflicts least
//!    with the variables already placed;
//! 2. **repair**: pick a random variable that is in conflict and move it to the
//!    value of least conflict (ties broken at random), until no conflict is left.
//!
//! The choices made here:
//! - *the conflicts* of `x = v` are the violations of the constraints on `x`:
//!   for an all-different the other variables on the same shifted value, for a
//!   linear constraint the distance to the right-hand side, else 1 per violated
//!   constraint; their sum over the model is 0 exactly on a solution;
//! - *candidate values*: a domain of at most [`with_candidates`] values is scanned
//!   whole; from a larger one the search tries the values that meet each linear
//!   constraint, free values of the tight all-differents (those that list them,
//!   like the columns of N-Queens) and uniform samples, and stops at the first
//!   value without conflict;
//! - *moves*: the best candidate is taken if it is no worse than the current
//!   value (sideways moves cross plateaus); with a small probability
//!   ([`with_noise`]) the variable takes a random value instead (a random walk
//!   out of local minima);
//! - *the conflicted variables* are kept as a list that includes every one of
//!   them (an all-different slot keeps the XOR of its variables, so the one it
//!   held alone is known when a second arrives); a variable found without
//!   conflict when drawn leaves the list.
//!
//! [`with_candidates`]: MinConflicts::with_candidates
//! [`with_noise`]: MinConflicts::with_noise
//!
//! [`MinConflicts`] works on any [`Model`]. It never builds a bitset: it reads the
//! declared [`Domain`]s (ranges or sets) and samples values from
//! them. The built-in constraints are evaluated incrementally — an all-different
//! keeps a count per shifted value, so the conflicts of `x = v` cost O(1); a
//! not-equal is O(1); a linear constraint keeps its running sum — and every other
//! constraint is re-checked on its scope. A solution is checked with
//! [`Model::is_solution`] before it is returned; a search that runs out of steps
//! or time returns no solution, which proves nothing.
//!
//! ```
//! use csp_core::Model;
//! use csp_local::{LocalSearchStatus, MinConflicts};
//!
//! let n = 50;
//! let mut m = Model::new();
//! let q = m.int_var_array("q", n, 0..=(n as i64 - 1))?;
//! let up: Vec<i64> = (0..n as i64).collect();
//! let down: Vec<i64> = up.iter().map(|i| -i).collect();
//! m.all_different(&q)?;
//! m.all_different_offsets(&q, &up)?;
//! m.all_different_offsets(&q, &down)?;
//!
//! let result = MinConflicts::new().with_seed(7).with_max_steps(100_000).solve(&m)?;
//! assert_eq!(result.status, LocalSearchStatus::Found);
//! assert!(m.is_solution(&result.solution.unwrap()));
//! # Ok::<(), csp_core::CspError>(())
//! ```

#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod eval;
mod search;
#[cfg(test)]
mod tests;

use std::fmt;
use std::time::{Duration, Instant};

use eval::internal;
use search::Search;

use csp_core::{CancelFlag, CspError, Model, Posted, Value};

/// The min-conflicts local search, configured by a builder.
///
/// Defaults: seed 0, at most 10 million repair steps, no time limit, 16 sampled
/// values per choice, a random-walk move with probability 0.02.
///
/// ```
/// use std::time::Duration;
/// use csp_core::{Model, Relation};
/// use csp_local::{LocalSearchStatus, MinConflicts};
///
/// let mut m = Model::new();
/// let x = m.int_var(0..=1_000_000)?;
/// let y = m.int_var([2, 4, 8])?;
/// m.linear(&[1, 3], &[x, y], Relation::Eq, 999_999)?; // x + 3y = 999999
/// let search = MinConflicts::new()
///     .with_seed(1)
///     .with_max_steps(100_000)
///     .with_time_limit(Duration::from_secs(10));
/// let result = search.solve(&m)?;
/// assert_eq!(result.status, LocalSearchStatus::Found);
/// let s = result.solution.unwrap();
/// assert_eq!(s[x.index()] + 3 * s[y.index()], 999_999);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug)]
pub struct MinConflicts {
    seed: u64,
    max_steps: u64,
    time_limit: Option<Duration>,
    cancel: Option<CancelFlag>,
    candidates: usize,
    noise: f64,
}

impl Default for MinConflicts {
    fn default() -> Self {
        MinConflicts {
            seed: 0,
            max_steps: 10_000_000,
            time_limit: None,
            cancel: None,
            candidates: 16,
            noise: 0.02,
        }
    }
}

/// How a local search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LocalSearchStatus {
    /// A solution was found (and validated).
    Found,
    /// The step limit was reached first. This proves nothing: the model may be
    /// satisfiable.
    StepLimit,
    /// The time limit ran out.
    TimeLimit,
    /// The [`CancelFlag`] was set.
    Cancelled,
}

impl fmt::Display for LocalSearchStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LocalSearchStatus::Found => "found",
            LocalSearchStatus::StepLimit => "step limit",
            LocalSearchStatus::TimeLimit => "time limit",
            LocalSearchStatus::Cancelled => "cancelled",
        })
    }
}

/// What [`MinConflicts::solve`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalSearchResult {
    /// One value per variable in declaration order, a checked solution; `None`
    /// unless `status` is [`Found`](LocalSearchStatus::Found).
    pub solution: Option<Vec<Value>>,
    /// Repair steps taken (each picks one conflicted variable); the greedy start
    /// is not counted.
    pub steps: u64,
    /// The violation left after the greedy start: the sum over constraints of
    /// pairs of equal values (all-different), distance to the right-hand side
    /// (linear), or 1 (any other violated constraint).
    pub initial_conflicts: u64,
    /// The same measure at the end: 0 when a solution was found. (A search
    /// stopped during the greedy start reports, for both, the conflicts among
    /// the variables placed so far, with 0 steps.)
    pub conflicts_left: u64,
    /// How the search ended.
    pub status: LocalSearchStatus,
    /// Wall-clock time, greedy start and the final check included.
    pub elapsed: Duration,
}

impl MinConflicts {
    /// A search with the default settings.
    pub fn new() -> Self {
        MinConflicts::default()
    }

    /// The seed of the random choices: the same seed on the same model gives the
    /// same result.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Stop after this many repair steps.
    pub fn with_max_steps(mut self, steps: u64) -> Self {
        self.max_steps = steps;
        self
    }

    /// Stop after this much wall-clock time.
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = Some(limit);
        self
    }

    /// Stop when `flag` is set (checked every few hundred steps).
    pub fn with_cancel_flag(mut self, flag: CancelFlag) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// How many values to sample from a variable's domain at each choice (at
    /// least 1); a domain this small or smaller is scanned whole. Each tight
    /// all-different on the variable (one that lists its free values) adds as
    /// many of its free values.
    pub fn with_candidates(mut self, candidates: usize) -> Self {
        self.candidates = candidates.max(1);
        self
    }

    /// The probability (clamped to `0..=1`) of a random-walk move: the picked
    /// variable takes a random value of its domain, even a worse one, to escape
    /// plateaus and local minima.
    pub fn with_noise(mut self, probability: f64) -> Self {
        self.noise = if probability.is_nan() {
            0.0
        } else {
            probability.clamp(0.0, 1.0)
        };
        self
    }

    /// Searches `model` for one solution.
    ///
    /// A view ([`Model::view`]) gets a value of its own like any variable,
    /// and the equality `view = a * base + c` is one more constraint to
    /// repair. Fails on an internal error: a solution that does not pass
    /// [`Model::is_solution`] is never returned. Without a solution the search
    /// proves nothing:
    ///
    /// ```
    /// use csp_core::Model;
    /// use csp_local::{LocalSearchStatus, MinConflicts};
    ///
    /// let mut pigeons = Model::new();
    /// let holes = pigeons.int_var_array("p", 4, 0..=2)?;
    /// pigeons.all_different(&holes)?;
    /// let result = MinConflicts::new().with_max_steps(1_000).solve(&pigeons)?;
    /// assert_eq!(result.status, LocalSearchStatus::StepLimit);
    /// assert_eq!((result.solution, result.steps), (None, 1_000));
    /// assert!(result.conflicts_left > 0);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn solve(&self, model: &Model) -> Result<LocalSearchResult, CspError> {
        let started = Instant::now();
        let equalities = search::view_equalities(model)?;
        let posted: Vec<&Posted> = model.posted().iter().chain(&equalities).collect();
        let mut search = Search::new(self, model, &posted, started)?;
        let mut result = search.run()?;
        if let Some(solution) = &result.solution
            && !model.is_solution(solution)
        {
            return Err(internal("the assignment reached is not a solution"));
        }
        result.elapsed = started.elapsed();
        Ok(result)
    }
}
