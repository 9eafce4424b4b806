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
//! use csp_core::local_search::{LocalSearchStatus, MinConflicts};
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

use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

use crate::model::Posted;
use crate::rng::SplitMix64;
use crate::{CancelFlag, Constraint, CspError, Domain, Model, Relation, Value};

/// The min-conflicts local search, configured by a builder.
///
/// Defaults: seed 0, at most 10 million repair steps, no time limit, 16 sampled
/// values per choice, a random-walk move with probability 0.02.
///
/// ```
/// use std::time::Duration;
/// use csp_core::{Model, Relation};
/// use csp_core::local_search::{LocalSearchStatus, MinConflicts};
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
    /// Fails only on an internal error: a solution that does not pass
    /// [`Model::is_solution`] is never returned. Without a solution the search
    /// proves nothing:
    ///
    /// ```
    /// use csp_core::Model;
    /// use csp_core::local_search::{LocalSearchStatus, MinConflicts};
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
        let mut search = Search::new(self, model, started)?;
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

/// One occurrence of a variable in a constraint, with what its evaluation needs.
#[derive(Clone, Copy, Debug)]
enum Occ {
    /// In all-different `c`, shifted by `offset`.
    AllDiff { c: u32, offset: Value },
    /// `x != other + offset` (`first`) or `other != x + offset`.
    NotEqual {
        other: u32,
        offset: Value,
        first: bool,
    },
    /// In linear `c` with coefficient `coef`.
    Linear { c: u32, coef: Value },
    /// Re-checked on its scope.
    Check { c: u32 },
}

/// The incremental state of one constraint.
enum Eval {
    AllDiff(Counter),
    Linear {
        sum: i128,
        relation: Relation,
        rhs: i128,
    },
    Check,
}

/// The variables on one shifted value of an all-different: how many, and the
/// XOR of their indices (which names the variable when there is one).
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    count: u32,
    xor: u32,
}

/// The values of a dense counter that no variable takes, as a sparse set:
/// `values`, and each value's position in it (`u32::MAX` if taken).
struct FreeList {
    values: Vec<u32>,
    pos: Vec<u32>,
}

/// The [`Slot`] of every shifted value of an all-different.
enum Counter {
    /// Shifted values `base..base + slots.len()`. When fewer than a third of
    /// them can be free (the range barely wider than the scope, like the columns
    /// of N-Queens) the free ones are also listed: a free value there is a
    /// strong candidate, drawn in O(1). A looser counter (the diagonals) keeps
    /// no list: a sampled value is often free anyway, and the upkeep would cost
    /// a cache miss or two per move.
    Dense {
        base: i128,
        slots: Vec<Slot>,
        free: Option<FreeList>,
    },
    /// Shifted ranges too wide for an array.
    Sparse(HashMap<i128, Slot>),
}

impl Counter {
    fn new(lo: i128, hi: i128, scope_len: usize) -> Self {
        let width = hi - lo + 1;
        let dense_limit = (8 * scope_len as i128).clamp(1 << 12, 1 << 28);
        if width > dense_limit {
            return Counter::Sparse(HashMap::new());
        }
        let w = width as u32;
        let tight = 2 * width < 3 * scope_len as i128;
        Counter::Dense {
            base: lo,
            slots: vec![Slot::default(); w as usize],
            free: tight.then(|| FreeList {
                values: (0..w).collect(),
                pos: (0..w).collect(),
            }),
        }
    }

    /// How many variables take shifted value `s`.
    #[inline]
    fn count(&self, s: i128) -> u32 {
        match self {
            Counter::Dense { base, slots, .. } => usize::try_from(s - base)
                .ok()
                .and_then(|i| slots.get(i))
                .map_or(0, |slot| slot.count),
            Counter::Sparse(map) => map.get(&s).map_or(0, |slot| slot.count),
        }
    }

    /// The variable that alone takes shifted value `s`, if exactly one does.
    #[inline]
    fn lone(&self, s: i128) -> Option<usize> {
        let slot = match self {
            Counter::Dense { base, slots, .. } => *slots.get(usize::try_from(s - base).ok()?)?,
            Counter::Sparse(map) => *map.get(&s)?,
        };
        (slot.count == 1).then_some(slot.xor as usize)
    }

    /// Variable `x` takes shifted value `s`.
    #[inline]
    fn inc(&mut self, s: i128, x: u32) {
        match self {
            Counter::Dense { base, slots, free } => {
                // In range: shifted values come from the declared domains.
                let i = (s - *base) as usize;
                let slot = &mut slots[i];
                slot.count += 1;
                slot.xor ^= x;
                if slot.count == 1
                    && let Some(free) = free
                {
                    let p = free.pos[i] as usize;
                    free.pos[i] = u32::MAX;
                    free.values.swap_remove(p);
                    if let Some(&moved) = free.values.get(p) {
                        free.pos[moved as usize] = p as u32;
                    }
                }
            }
            Counter::Sparse(map) => {
                let slot = map.entry(s).or_default();
                slot.count += 1;
                slot.xor ^= x;
            }
        }
    }

    /// Variable `x` leaves shifted value `s`.
    #[inline]
    fn dec(&mut self, s: i128, x: u32) {
        match self {
            Counter::Dense { base, slots, free } => {
                let i = (s - *base) as usize;
                let slot = &mut slots[i];
                slot.count -= 1;
                slot.xor ^= x;
                if slot.count == 0
                    && let Some(free) = free
                {
                    free.pos[i] = free.values.len() as u32;
                    free.values.push(i as u32);
                }
            }
            Counter::Sparse(map) => {
                if let Some(slot) = map.get_mut(&s) {
                    slot.count -= 1;
                    slot.xor ^= x;
                    if slot.count == 0 {
                        map.remove(&s);
                    }
                }
            }
        }
    }

    /// A random shifted value no variable takes, if this counter lists them.
    #[inline]
    fn random_free(&self, rng: &mut SplitMix64) -> Option<i128> {
        match self {
            Counter::Dense {
                base,
                free: Some(free),
                ..
            } if !free.values.is_empty() => {
                let i = free.values[rng.below(free.values.len() as u64) as usize];
                Some(base + i128::from(i))
            }
            _ => None,
        }
    }

    /// Pairs of variables with equal shifted values.
    fn pairs(&self) -> u128 {
        let pairs = |s: &Slot| u128::from(s.count) * u128::from(s.count.saturating_sub(1)) / 2;
        match self {
            Counter::Dense { slots, .. } => slots.iter().map(pairs).sum(),
            Counter::Sparse(map) => map.values().map(pairs).sum(),
        }
    }
}

/// An error for a bug in this module (never a wrong solution instead).
fn internal(what: &str) -> CspError {
    CspError::InvalidArgument {
        context: "min-conflicts".into(),
        message: format!("internal error: {what}"),
    }
}

fn linear_violation(sum: i128, relation: Relation, rhs: i128) -> u128 {
    let d = match relation {
        Relation::Eq => (sum - rhs).abs(),
        Relation::Ne => i128::from(sum == rhs),
        Relation::Le => (sum - rhs).max(0),
        Relation::Lt => (sum - rhs + 1).max(0),
        Relation::Ge => (rhs - sum).max(0),
        Relation::Gt => (rhs - sum + 1).max(0),
    };
    d as u128
}

fn sample(domain: &Domain, rng: &mut SplitMix64) -> Value {
    match domain {
        Domain::Range(lo, hi) => {
            let width = (i128::from(*hi) - i128::from(*lo) + 1) as u64;
            (i128::from(*lo) + i128::from(rng.below(width))) as Value
        }
        Domain::Set(values) => values[rng.below(values.len() as u64) as usize],
    }
}

/// The best value seen so far, with reservoir sampling among ties.
#[derive(Default)]
struct Best {
    value: Option<(Value, u128)>,
    ties: u64,
}

impl Best {
    #[inline]
    fn offer(&mut self, v: Value, cost: u128, rng: &mut SplitMix64) {
        match self.value {
            Some((_, b)) if cost > b => {}
            Some((_, b)) if cost == b => {
                self.ties += 1;
                if rng.below(self.ties) == 0 {
                    self.value = Some((v, cost));
                }
            }
            _ => {
                self.value = Some((v, cost));
                self.ties = 1;
            }
        }
    }
}

/// The state of one run.
struct Search<'m> {
    posted: &'m [Posted],
    domains: Vec<&'m Domain>,
    /// `occ[occ_start[x]..occ_start[x + 1]]`: the constraints on variable `x`.
    occ_start: Vec<usize>,
    occ: Vec<Occ>,
    evals: Vec<Eval>,
    /// Per constraint, the largest variable index of its scope: during the
    /// greedy start (in index order) it is evaluated when that variable is placed.
    last: Vec<u32>,
    values: Vec<Value>,
    /// Variables that may be in conflict (checked when picked).
    suspects: Vec<u32>,
    is_suspect: Vec<bool>,
    rng: SplitMix64,
    scratch: Vec<Value>,
    started: Instant,
    settings: &'m MinConflicts,
}

/// Why the loop stopped early.
enum Stop {
    Time,
    Cancelled,
}

impl<'m> Search<'m> {
    fn new(
        settings: &'m MinConflicts,
        model: &'m Model,
        started: Instant,
    ) -> Result<Self, CspError> {
        let n = model.num_vars();
        let domains: Vec<&Domain> = model
            .vars()
            .map(|v| model.domain(v))
            .collect::<Result<_, _>>()?;
        let posted = model.posted();
        // A stamp per variable finds repeated variables in a scope in O(scope).
        let mut stamp = vec![u32::MAX; n];
        let mut repeated = vec![false; posted.len()];
        let mut degree = vec![0usize; n + 1];
        let mut last = vec![0u32; posted.len()];
        for (ci, c) in posted.iter().enumerate() {
            for x in c.scope() {
                let i = x.index();
                if stamp[i] == ci as u32 {
                    repeated[ci] = true;
                } else {
                    stamp[i] = ci as u32;
                    degree[i + 1] += 1;
                }
                last[ci] = last[ci].max(i as u32);
            }
        }
        let mut occ_start = degree;
        for i in 0..n {
            occ_start[i + 1] += occ_start[i];
        }
        let mut fill = occ_start.clone();
        let mut occ = vec![Occ::Check { c: 0 }; occ_start[n]];
        let mut evals = Vec::with_capacity(posted.len());
        stamp.fill(u32::MAX);
        for (ci, c) in posted.iter().enumerate() {
            let c32 = ci as u32;
            let mut put = |i: usize, o: Occ| {
                if stamp[i] != c32 {
                    stamp[i] = c32;
                    occ[fill[i]] = o;
                    fill[i] += 1;
                }
            };
            let eval = match c {
                Posted::AllDifferent(a) if !repeated[ci] => {
                    let (mut lo, mut hi) = (i128::MAX, i128::MIN);
                    for (x, &o) in a.scope().iter().zip(a.offsets()) {
                        if let Some((dl, dh)) = domains[x.index()].bounds() {
                            lo = lo.min(i128::from(dl) + i128::from(o));
                            hi = hi.max(i128::from(dh) + i128::from(o));
                        }
                        put(x.index(), Occ::AllDiff { c: c32, offset: o });
                    }
                    Eval::AllDiff(Counter::new(lo, hi.max(lo), a.scope().len()))
                }
                Posted::NotEqual(ne) if !repeated[ci] => {
                    let [x, y] = [ne.scope()[0], ne.scope()[1]];
                    let offset = ne.offset();
                    put(
                        x.index(),
                        Occ::NotEqual {
                            other: y.index() as u32,
                            offset,
                            first: true,
                        },
                    );
                    put(
                        y.index(),
                        Occ::NotEqual {
                            other: x.index() as u32,
                            offset,
                            first: false,
                        },
                    );
                    Eval::Check
                }
                Posted::Linear(l) if !repeated[ci] => {
                    for (x, &coef) in l.scope().iter().zip(l.coeffs()) {
                        put(x.index(), Occ::Linear { c: c32, coef });
                    }
                    Eval::Linear {
                        sum: 0,
                        relation: l.relation(),
                        rhs: i128::from(l.rhs()),
                    }
                }
                _ => {
                    for x in c.scope() {
                        put(x.index(), Occ::Check { c: c32 });
                    }
                    Eval::Check
                }
            };
            evals.push(eval);
        }
        Ok(Search {
            posted,
            domains,
            occ_start,
            occ,
            evals,
            last,
            values: vec![0; n],
            suspects: Vec::new(),
            is_suspect: vec![false; n],
            rng: SplitMix64::new(settings.seed),
            scratch: Vec::new(),
            started,
            settings,
        })
    }

    fn stop(&self) -> Option<Stop> {
        if self
            .settings
            .cancel
            .as_ref()
            .is_some_and(CancelFlag::is_cancelled)
        {
            return Some(Stop::Cancelled);
        }
        match self.settings.time_limit {
            Some(limit) if self.started.elapsed() >= limit => Some(Stop::Time),
            _ => None,
        }
    }

    /// Fills `scratch` with the scope values of constraint `c`, `x` taking `v`.
    fn scope_values(&mut self, c: usize, x: usize, v: Value) {
        self.scratch.clear();
        for y in self.posted[c].scope() {
            let i = y.index();
            self.scratch.push(if i == x { v } else { self.values[i] });
        }
    }

    /// The violation of the constraints on `x` if `x` took `v`, the others keeping
    /// their values. During the greedy start (`placing`) only variables with a
    /// smaller index are placed, and `x` is not counted in any all-different.
    fn cost(&mut self, x: usize, v: Value, placing: bool) -> u128 {
        self.cost_but(x, v, placing, usize::MAX)
    }

    /// [`cost`](Self::cost), leaving out occurrence `known_free` (an
    /// all-different where `v` is known to be free: one cache miss less).
    #[inline]
    fn cost_but(&mut self, x: usize, v: Value, placing: bool, known_free: usize) -> u128 {
        let mut total: u128 = 0;
        for k in self.occ_start[x]..self.occ_start[x + 1] {
            if k != known_free {
                total = total.saturating_add(self.occ_cost(k, x, v, placing));
            }
        }
        total
    }

    /// The violation of the constraint at occurrence `k` (of variable `x`) if
    /// `x` took `v`; while placing, 0 for a constraint not yet complete.
    #[inline]
    fn occ_cost(&mut self, k: usize, x: usize, v: Value, placing: bool) -> u128 {
        let current = self.values[x];
        match self.occ[k] {
            Occ::AllDiff { c, offset } => {
                let Eval::AllDiff(counter) = &self.evals[c as usize] else {
                    return 0;
                };
                let k = counter.count(i128::from(v) + i128::from(offset));
                u128::from(if !placing && v == current {
                    k.saturating_sub(1)
                } else {
                    k
                })
            }
            Occ::NotEqual {
                other,
                offset,
                first,
            } => {
                if placing && other as usize > x {
                    return 0;
                }
                let w = i128::from(self.values[other as usize]);
                let (a, b) = if first {
                    (i128::from(v), w)
                } else {
                    (w, i128::from(v))
                };
                u128::from(a == b + i128::from(offset))
            }
            Occ::Linear { c, coef } => {
                let c = c as usize;
                let Eval::Linear { sum, relation, rhs } = self.evals[c] else {
                    return 0;
                };
                let sum = if placing {
                    if self.last[c] as usize != x {
                        return 0;
                    }
                    self.scope_values(c, x, v);
                    let Posted::Linear(l) = &self.posted[c] else {
                        return 0;
                    };
                    l.coeffs()
                        .iter()
                        .zip(&self.scratch)
                        .map(|(&a, &w)| i128::from(a) * i128::from(w))
                        .sum()
                } else {
                    sum + i128::from(coef) * (i128::from(v) - i128::from(current))
                };
                linear_violation(sum, relation, rhs)
            }
            Occ::Check { c } => {
                let c = c as usize;
                if placing && self.last[c] as usize != x {
                    return 0;
                }
                self.scope_values(c, x, v);
                u128::from(!self.posted[c].check(&self.scratch))
            }
        }
    }

    /// A random free value for `x` of the all-different at occurrence `k`, if
    /// that is an all-different listing its free values and the value is in
    /// `x`'s domain.
    #[inline]
    fn free_value(&mut self, x: usize, k: usize) -> Option<Value> {
        let Occ::AllDiff { c, offset } = self.occ[k] else {
            return None;
        };
        let Eval::AllDiff(counter) = &self.evals[c as usize] else {
            return None;
        };
        let s = counter.random_free(&mut self.rng)?;
        let v = Value::try_from(s - i128::from(offset)).ok()?;
        self.domains[x].contains(v).then_some(v)
    }

    /// The value of least cost for `x` (ties broken at random), with its cost,
    /// `skip` left out. A domain of at most `candidates` values is scanned whole;
    /// from a larger one come first the values that meet each linear constraint
    /// on `x`, then `candidates` rounds of one free value per tight
    /// all-different on `x` and one sampled value, stopping at the first value
    /// of cost 0.
    fn choose(&mut self, x: usize, placing: bool, skip: Option<Value>) -> Option<(Value, u128)> {
        let domain = self.domains[x];
        let wanted = self.settings.candidates;
        let mut best = Best::default();
        if domain.len() <= wanted as u128 {
            let offer = |s: &mut Self, best: &mut Best, v: Value| {
                if Some(v) != skip {
                    let c = s.cost(x, v, placing);
                    best.offer(v, c, &mut s.rng);
                }
            };
            match domain {
                Domain::Range(lo, hi) => (*lo..=*hi).for_each(|v| offer(self, &mut best, v)),
                Domain::Set(values) => values.iter().for_each(|&v| offer(self, &mut best, v)),
            }
            return best.value;
        }
        let (from, to) = (self.occ_start[x], self.occ_start[x + 1]);
        // The values that bring each linear constraint on `x` to its bound.
        for k in from..to {
            for v in self.linear_targets(x, k, placing).into_iter().flatten() {
                if self.try_value(&mut best, x, v, placing, skip, usize::MAX) {
                    return best.value;
                }
            }
        }
        for _ in 0..wanted {
            for k in from..to {
                if let Some(v) = self.free_value(x, k)
                    && self.try_value(&mut best, x, v, placing, skip, k)
                {
                    return best.value;
                }
            }
            let v = sample(domain, &mut self.rng);
            if self.try_value(&mut best, x, v, placing, skip, usize::MAX) {
                return best.value;
            }
        }
        best.value
    }

    /// Offers `x = v` to `best` unless `v` is `skip`; whether its cost is 0.
    #[inline]
    fn try_value(
        &mut self,
        best: &mut Best,
        x: usize,
        v: Value,
        placing: bool,
        skip: Option<Value>,
        known_free: usize,
    ) -> bool {
        if Some(v) == skip {
            return false;
        }
        let c = self.cost_but(x, v, placing, known_free);
        best.offer(v, c, &mut self.rng);
        c == 0
    }

    /// For a linear constraint at occurrence `k`, the two values of `x` (rounded
    /// down and up, within the domain's bounds) that bring the sum closest to
    /// the right-hand side, the other variables keeping their values. While
    /// placing, only if `x` is the last variable of the constraint.
    fn linear_targets(&mut self, x: usize, k: usize, placing: bool) -> [Option<Value>; 2] {
        let Occ::Linear { c, coef } = self.occ[k] else {
            return [None; 2];
        };
        let c = c as usize;
        let Eval::Linear { sum, relation, rhs } = self.evals[c] else {
            return [None; 2];
        };
        let rhs = match relation {
            Relation::Lt => rhs - 1,
            Relation::Gt => rhs + 1,
            _ => rhs,
        };
        let a = i128::from(coef);
        if a == 0 {
            return [None; 2];
        }
        let rest = if placing {
            if self.last[c] as usize != x {
                return [None; 2];
            }
            self.scope_values(c, x, 0);
            let Posted::Linear(l) = &self.posted[c] else {
                return [None; 2];
            };
            l.coeffs()
                .iter()
                .zip(&self.scratch)
                .map(|(&a, &w)| i128::from(a) * i128::from(w))
                .sum()
        } else {
            sum - a * i128::from(self.values[x])
        };
        let (num, den) = if a > 0 {
            (rhs - rest, a)
        } else {
            (rest - rhs, -a)
        };
        let down = num.div_euclid(den);
        let up = down + i128::from(num.rem_euclid(den) != 0);
        let domain = self.domains[x];
        let Some((lo, hi)) = domain.bounds() else {
            return [None; 2];
        };
        let fit = |t: i128| {
            let v = t.clamp(i128::from(lo), i128::from(hi)) as Value;
            domain.contains(v).then_some(v)
        };
        [fit(down), if up == down { None } else { fit(up) }]
    }

    /// Moves `x` from its value to `v` (or, `placing`, gives it `v`), updating
    /// counts and sums. Every other variable this move puts in conflict becomes
    /// a suspect, so that the suspects always include every conflicted variable
    /// (`x` itself is the caller's business).
    fn assign(&mut self, x: usize, v: Value, placing: bool) {
        let w = self.values[x];
        let xi = x as u32;
        let posted = self.posted;
        for k in self.occ_start[x]..self.occ_start[x + 1] {
            let occ = self.occ[k];
            match occ {
                Occ::AllDiff { c, offset } => {
                    let Eval::AllDiff(counter) = &mut self.evals[c as usize] else {
                        continue;
                    };
                    let to = i128::from(v) + i128::from(offset);
                    if !placing {
                        counter.dec(i128::from(w) + i128::from(offset), xi);
                    }
                    // A lone variable there is now in conflict; two or more
                    // already were.
                    let partner = counter.lone(to);
                    counter.inc(to, xi);
                    if let Some(y) = partner {
                        self.suspect(y);
                    }
                }
                Occ::NotEqual { other, .. } if placing && other as usize > x => {}
                Occ::NotEqual {
                    other,
                    offset,
                    first,
                } => {
                    let u = i128::from(self.values[other as usize]);
                    let (a, b) = if first {
                        (i128::from(v), u)
                    } else {
                        (u, i128::from(v))
                    };
                    if a == b + i128::from(offset) {
                        self.suspect(other as usize);
                    }
                }
                Occ::Linear { c, coef } if !placing => {
                    let Eval::Linear { sum, relation, rhs } = &mut self.evals[c as usize] else {
                        continue;
                    };
                    let was = linear_violation(*sum, *relation, *rhs);
                    *sum += i128::from(coef) * (i128::from(v) - i128::from(w));
                    if was == 0 && linear_violation(*sum, *relation, *rhs) > 0 {
                        for y in posted[c as usize].scope() {
                            self.suspect(y.index());
                        }
                    }
                }
                Occ::Check { c } if !placing => {
                    let c = c as usize;
                    self.scope_values(c, x, w);
                    let was = posted[c].check(&self.scratch);
                    self.scope_values(c, x, v);
                    if was && !posted[c].check(&self.scratch) {
                        for y in posted[c].scope() {
                            self.suspect(y.index());
                        }
                    }
                }
                // Placing the last variable of a scope completes it.
                Occ::Linear { c, .. } | Occ::Check { c }
                    if self.last[c as usize] as usize == x && self.occ_cost(k, x, v, true) > 0 =>
                {
                    for y in posted[c as usize].scope() {
                        self.suspect(y.index());
                    }
                }
                _ => {}
            }
        }
        self.values[x] = v;
    }

    /// Test builds, small models: every conflicted variable is a suspect, and
    /// the incremental total is the total from scratch.
    #[cfg(test)]
    fn check_suspects(&mut self) {
        if self.values.len() <= 64 {
            for x in 0..self.values.len() {
                let c = self.cost(x, self.values[x], false);
                assert!(
                    c == 0 || self.is_suspect[x],
                    "x{x} is in conflict, not a suspect"
                );
            }
        }
    }

    fn suspect(&mut self, x: usize) {
        if !self.is_suspect[x] {
            self.is_suspect[x] = true;
            self.suspects.push(x as u32);
        }
    }

    /// The total violation from scratch (after the greedy start), computing the
    /// linear sums on the way.
    fn total_violation(&mut self) -> u128 {
        let mut total: u128 = 0;
        for c in 0..self.posted.len() {
            let part = match &self.evals[c] {
                Eval::AllDiff(counter) => counter.pairs(),
                Eval::Linear { .. } => {
                    let Posted::Linear(l) = &self.posted[c] else {
                        continue;
                    };
                    let s: i128 = l
                        .coeffs()
                        .iter()
                        .zip(l.scope())
                        .map(|(&a, x)| i128::from(a) * i128::from(self.values[x.index()]))
                        .sum();
                    if let Eval::Linear { sum, relation, rhs } = &mut self.evals[c] {
                        *sum = s;
                        linear_violation(s, *relation, *rhs)
                    } else {
                        0
                    }
                }
                Eval::Check => {
                    self.scratch.clear();
                    for y in self.posted[c].scope() {
                        self.scratch.push(self.values[y.index()]);
                    }
                    u128::from(!self.posted[c].check(&self.scratch))
                }
            };
            total = total.saturating_add(part);
        }
        total
    }

    /// Rebuilds the suspect list from every variable's conflicts.
    fn rescan(&mut self) {
        for &x in &self.suspects {
            self.is_suspect[x as usize] = false;
        }
        self.suspects.clear();
        for x in 0..self.values.len() {
            if self.cost(x, self.values[x], false) > 0 {
                self.suspect(x);
            }
        }
    }

    fn result(
        &self,
        status: LocalSearchStatus,
        steps: u64,
        initial: u128,
        left: u128,
    ) -> LocalSearchResult {
        let clip = |c: u128| u64::try_from(c).unwrap_or(u64::MAX);
        LocalSearchResult {
            solution: (status == LocalSearchStatus::Found).then(|| self.values.clone()),
            steps,
            initial_conflicts: clip(initial),
            conflicts_left: clip(left),
            status,
            elapsed: Duration::ZERO,
        }
    }

    fn stopped(&self, stop: Stop, steps: u64, initial: u128, left: u128) -> LocalSearchResult {
        let status = match stop {
            Stop::Time => LocalSearchStatus::TimeLimit,
            Stop::Cancelled => LocalSearchStatus::Cancelled,
        };
        self.result(status, steps, initial, left)
    }

    fn run(&mut self) -> Result<LocalSearchResult, CspError> {
        // Greedy start, in index order.
        let mut placed_violation: u128 = 0;
        for x in 0..self.values.len() {
            if x % 1024 == 0
                && let Some(stop) = self.stop()
            {
                return Ok(self.stopped(stop, 0, placed_violation, placed_violation));
            }
            if let Some((v, c)) = self.choose(x, true, None) {
                placed_violation = placed_violation.saturating_add(c);
                self.assign(x, v, true);
                if c > 0 {
                    self.suspect(x);
                }
            }
        }
        let initial = self.total_violation();
        let mut total = initial;
        #[cfg(test)]
        self.check_suspects();
        // Repair.
        let mut steps = 0u64;
        let rescan_every = (4 * self.occ.len() as u64).max(1 << 16);
        let mut since_rescan = 0;
        while total > 0 {
            if steps >= self.settings.max_steps {
                return Ok(self.result(LocalSearchStatus::StepLimit, steps, initial, total));
            }
            if steps % 256 == 0
                && let Some(stop) = self.stop()
            {
                return Ok(self.stopped(stop, steps, initial, total));
            }
            // The suspects include every conflicted variable (see `assign`); a
            // full rescan now and then is a safety net.
            if self.suspects.is_empty() || since_rescan >= rescan_every {
                self.rescan();
                since_rescan = 0;
                if self.suspects.is_empty() {
                    // No variable is in conflict: the incremental total drifted.
                    total = self.total_violation();
                    if total > 0 {
                        return Err(internal(
                            "a violated constraint has no variable in conflict",
                        ));
                    }
                    continue;
                }
            }
            let at = self.rng.below(self.suspects.len() as u64) as usize;
            let x = self.suspects[at] as usize;
            let current = self.values[x];
            let now = self.cost(x, current, false);
            if now == 0 {
                self.suspects.swap_remove(at);
                self.is_suspect[x] = false;
                continue;
            }
            steps += 1;
            since_rescan += 1;
            let walk = self.settings.noise > 0.0
                && (self.rng.next_u64() as f64) < self.settings.noise * (u64::MAX as f64);
            let (v, c) = if walk {
                // A random value of the domain other than the current one.
                let v = sample(self.domains[x], &mut self.rng);
                if v == current {
                    continue;
                }
                (v, self.cost(x, v, false))
            } else {
                match self.choose(x, false, Some(current)) {
                    Some((v, c)) if c <= now => (v, c),
                    _ => continue,
                }
            };
            self.assign(x, v, false);
            total = total.saturating_sub(now).saturating_add(c);
            if c == 0 {
                self.suspects.swap_remove(at);
                self.is_suspect[x] = false;
            }
            #[cfg(test)]
            self.check_suspects();
        }
        Ok(self.result(LocalSearchStatus::Found, steps, initial, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Solver, VarId};

    use crate::test_models::{pairwise_queens, queens};

    /// Checks the placement without the model: no two queens share a column or
    /// a diagonal.
    fn no_attack(cols: &[Value]) -> bool {
        (0..cols.len()).all(|i| {
            (i + 1..cols.len()).all(|j| {
                let d = (cols[i] - cols[j]).abs();
                d != 0 && d != (j - i) as Value
            })
        })
    }

    fn run(m: &Model, seed: u64, steps: u64) -> LocalSearchResult {
        MinConflicts::new()
            .with_seed(seed)
            .with_max_steps(steps)
            .solve(m)
            .unwrap()
    }

    #[test]
    fn places_queens_on_boards_of_8_50_and_1000() {
        for n in [8, 50, 1000] {
            let m = queens(n);
            for seed in 0..3 {
                let r = run(&m, seed, 1_000_000);
                assert_eq!(
                    r.status,
                    LocalSearchStatus::Found,
                    "n = {n}, seed {seed}: {r:?}"
                );
                assert_eq!(r.conflicts_left, 0);
                let cols = r.solution.unwrap();
                assert!(
                    m.is_solution(&cols) && no_attack(&cols),
                    "n = {n}: {cols:?}"
                );
            }
        }
    }

    #[test]
    fn places_queens_with_the_pairwise_not_equal_model() {
        for n in [8, 30] {
            let m = pairwise_queens(n);
            let r = run(&m, 3, 1_000_000);
            assert_eq!(r.status, LocalSearchStatus::Found, "n = {n}: {r:?}");
            assert!(no_attack(&r.solution.unwrap()));
        }
    }

    #[test]
    fn same_seed_gives_same_result() {
        let m = queens(200);
        let strip = |mut r: LocalSearchResult| {
            r.elapsed = Duration::ZERO;
            r
        };
        let a = strip(run(&m, 42, 1_000_000));
        assert_eq!(a, strip(run(&m, 42, 1_000_000)));
        // Another seed gives another placement.
        assert!((43..48).any(|s| run(&m, s, 1_000_000).solution != a.solution));
    }

    #[test]
    fn unsatisfiable_models_end_at_the_step_limit_without_a_solution() {
        let mut pigeons = Model::new();
        let xs = pigeons.int_var_array("x", 4, 0..=2).unwrap();
        pigeons.all_different(&xs).unwrap();
        for m in [queens(2), queens(3), pigeons] {
            let r = run(&m, 1, 5_000);
            assert_eq!(r.status, LocalSearchStatus::StepLimit);
            assert_eq!((r.solution, r.steps), (None, 5_000));
            assert!(r.conflicts_left > 0);
        }
    }

    #[test]
    fn time_limit_and_cancel_flag_stop_the_search() {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 6, 0..=4).unwrap();
        m.all_different(&xs).unwrap();
        let r = MinConflicts::new()
            .with_max_steps(u64::MAX)
            .with_time_limit(Duration::from_millis(20))
            .solve(&m)
            .unwrap();
        assert_eq!((r.status, r.solution), (LocalSearchStatus::TimeLimit, None));
        let flag = CancelFlag::new();
        flag.cancel();
        let r = MinConflicts::new()
            .with_cancel_flag(flag)
            .solve(&m)
            .unwrap();
        assert_eq!((r.status, r.solution), (LocalSearchStatus::Cancelled, None));
    }

    #[test]
    fn empty_model_has_the_empty_solution() {
        let r = run(&Model::new(), 0, 10);
        assert_eq!(
            (r.status, r.solution),
            (LocalSearchStatus::Found, Some(vec![]))
        );
    }

    #[test]
    fn wide_domains_are_sampled_not_materialised() {
        // 2000 variables of 2^24 values each: 32 Gbit as bitsets.
        let mut m = Model::new();
        let xs = m.int_var_array("x", 2000, 0..=((1 << 24) - 1)).unwrap();
        m.all_different(&xs).unwrap();
        m.less_than(xs[0], xs[1]).unwrap();
        let ys = m.int_var_array("y", 5, [3, 1_000_000, -7, 12, 99]).unwrap();
        m.all_different(&ys).unwrap();
        let r = run(&m, 5, 100_000);
        assert_eq!(r.status, LocalSearchStatus::Found, "{r:?}");
        assert!(m.is_solution(&r.solution.unwrap()));
    }

    #[test]
    fn every_kind_of_constraint_is_satisfied() {
        let mut m = Model::new();
        let x = m.int_var(0..=9).unwrap();
        let y = m.int_var(0..=9).unwrap();
        let z = m.int_var([1, 3, 5, 7]).unwrap();
        let i = m.int_var(0..=3).unwrap();
        m.linear(&[1, 2, 1], &[x, y, z], Relation::Eq, 15).unwrap();
        m.linear(&[1, -1], &[x, y], Relation::Ne, 0).unwrap();
        m.table(&[x, z], vec![vec![2, 5], vec![4, 7], vec![9, 1]])
            .unwrap();
        m.element(i, &[7, 5, 3, 1], z).unwrap();
        m.element_var(i, &[x, y, z, x], y).unwrap();
        m.predicate("x even", &[x], |v| v[0] % 2 == 0).unwrap();
        let r = run(&m, 9, 100_000);
        assert_eq!(r.status, LocalSearchStatus::Found, "{r:?}");
        assert!(m.is_solution(&r.solution.unwrap()));
    }

    #[test]
    fn a_variable_repeated_in_a_scope_is_checked_on_the_whole_scope() {
        let mut m = Model::new();
        let x = m.int_var(0..=9).unwrap();
        m.linear(&[1, 1], &[x, x], Relation::Eq, 4).unwrap();
        m.all_different_offsets(&[x, x], &[0, 1]).unwrap();
        assert_eq!(run(&m, 0, 1_000).solution, Some(vec![2]));
        m.all_different(&[x, x]).unwrap();
        assert_eq!(run(&m, 0, 1_000).status, LocalSearchStatus::StepLimit);
    }

    #[test]
    fn linear_constraints_over_wide_domains_are_repaired_directly() {
        let mut m = Model::new();
        let x = m.int_var(0..=1_000_000).unwrap();
        let y = m.int_var([2, 4, 8]).unwrap();
        m.linear(&[1, 3], &[x, y], Relation::Eq, 999_999).unwrap();
        let zs = m.int_var_array("z", 100, 0..=1_000).unwrap();
        m.linear(&[1; 100], &zs, Relation::Eq, 12_345).unwrap();
        m.linear(&[2, -1], &[zs[0], zs[1]], Relation::Gt, 1_500)
            .unwrap();
        let r = run(&m, 1, 1_000);
        assert_eq!(r.status, LocalSearchStatus::Found, "{r:?}");
        assert!(m.is_solution(&r.solution.unwrap()));
    }

    /// A random small model: 2 to 5 variables, 1 to 5 constraints of every kind.
    fn random_model(rng: &mut SplitMix64) -> Model {
        let mut m = Model::new();
        let n = 2 + rng.below(4) as usize;
        let pick = |rng: &mut SplitMix64, hi: u64| rng.below(hi) as Value;
        let vars: Vec<VarId> = (0..n)
            .map(|_| {
                match pick(rng, 3) {
                    0 => m.int_var(vec![pick(rng, 5) - 1, pick(rng, 5), pick(rng, 7) - 2]),
                    _ => {
                        let lo = pick(rng, 3) - 1;
                        m.int_var(lo..=lo + pick(rng, 4))
                    }
                }
                .unwrap()
            })
            .collect();
        let some = |rng: &mut SplitMix64, k: usize| -> Vec<VarId> {
            (0..k).map(|_| vars[rng.below(n as u64) as usize]).collect()
        };
        for _ in 0..1 + rng.below(5) {
            let _ = match rng.below(6) {
                0 => {
                    let v = some(rng, 2);
                    m.not_equal_offset(v[0], v[1], pick(rng, 5) - 2)
                }
                1 => {
                    let k = 2 + rng.below(n as u64 - 1) as usize;
                    let v = some(rng, k);
                    let offsets: Vec<Value> = (0..k).map(|_| pick(rng, 3) - 1).collect();
                    m.all_different_offsets(&v, &offsets)
                }
                2 => {
                    let k = 1 + rng.below(3) as usize;
                    let v = some(rng, k);
                    let coeffs: Vec<Value> = (0..k).map(|_| pick(rng, 5) - 2).collect();
                    let rel = [
                        Relation::Eq,
                        Relation::Ne,
                        Relation::Le,
                        Relation::Lt,
                        Relation::Ge,
                        Relation::Gt,
                    ][rng.below(6) as usize];
                    m.linear(&coeffs, &v, rel, pick(rng, 9) - 3)
                }
                3 => {
                    let v = some(rng, 2);
                    let tuples = (0..1 + rng.below(6))
                        .map(|_| vec![pick(rng, 5) - 1, pick(rng, 5) - 1])
                        .collect();
                    m.table(&v, tuples)
                }
                4 => {
                    let v = some(rng, 3);
                    m.element_var(v[0], &v[1..2], v[2])
                }
                _ => {
                    let v = some(rng, 2);
                    let array: Vec<Value> = (0..3).map(|_| pick(rng, 5) - 1).collect();
                    m.element(v[0], &array, v[1])
                }
            };
        }
        m
    }

    #[test]
    fn random_small_csps_agree_with_exhaustive_search() {
        const CASES: u64 = 300;
        let mut rng = SplitMix64::new(2024);
        let (mut satisfiable, mut unsatisfiable) = (0, 0);
        for case in 0..CASES {
            let m = random_model(&mut rng);
            let count = Solver::new(&m, Config::default()).unwrap().count();
            assert!(count.is_complete());
            if count.solutions > 0 {
                satisfiable += 1;
            } else {
                unsatisfiable += 1;
            }
            // Whole domains scanned, and (2 candidates) sampled with free values.
            for candidates in [16, 2] {
                let r = MinConflicts::new()
                    .with_seed(case)
                    .with_max_steps(5_000)
                    .with_candidates(candidates)
                    .solve(&m)
                    .unwrap();
                if let Some(s) = &r.solution {
                    assert!(m.is_solution(s), "case {case}: {s:?} is not a solution");
                }
                let expected = if count.solutions > 0 {
                    LocalSearchStatus::Found
                } else {
                    LocalSearchStatus::StepLimit
                };
                assert_eq!(
                    r.status, expected,
                    "case {case}, {candidates} candidates: {r:?}"
                );
            }
        }
        // The generator makes both kinds.
        assert!(
            satisfiable > 50 && unsatisfiable > 50,
            "{satisfiable} / {unsatisfiable}"
        );
    }
}
