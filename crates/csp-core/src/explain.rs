//! Why a model has no solution: a minimal set of its constraints (or named groups) that cannot all hold, found by QuickXplain.
//!
//! A model answers "unsatisfiable" and nothing more; the user wants to know
//! *which rules clash*. [`explain`] finds a **conflict**: a set of the
//! model's constraints that already has no solution, and that is
//! **minimal** (removing any one of them leaves a satisfiable set). It runs
//! Junker's QuickXplain (AAAI 2004): split the candidates in two, find
//! which of the second half are needed given the first, then which of the
//! first given those; each step asks a bounded search whether a subset is
//! satisfiable ([`Config::with_active_constraints`]). A conflict of `k` of
//! `n` candidates takes about `2k·log2(n/k) + 2k` such checks.
//!
//! **Candidates** are the model's constraints, except that the constraints of
//! a named group ([`Model::name_group`]) are one candidate, reported by the
//! group's name. The declared domains are never candidates: they always
//! hold (the *background*), as do the constraints given to
//! [`Explainer::with_background`].
//!
//! **Nothing unproven is claimed.** Each check is a search bounded by the
//! [`Config`]'s limits (nodes, failures, time per check, the cancel flag) and
//! by [`Explainer::with_time_budget`] for the whole explanation. A check that
//! stops at a limit counts as "maybe satisfiable": the conflict returned is
//! then still proven to have no solution, but it may not be minimal, and the
//! [`Verdict`] says so ([`Verdict::NotProvenMinimal`]). A model that has a
//! solution has nothing to explain: [`Verdict::Satisfiable`] gives the
//! solution. If the first check, of the whole model, stops at a limit, the
//! verdict is [`Verdict::Unknown`] and the conflict empty.
//!
//! ```
//! use csp_core::{Config, Model, explain};
//! let mut m = Model::new();
//! let x = m.named_int_var("x", 0..=9)?;
//! let y = m.named_int_var("y", 0..=9)?;
//! let small = m.post(x.le(8))?;
//! m.post(y.ge(2))?;
//! let big = m.post(x.ge(y + 5))?;
//! let ordered = m.post(y.ge(x))?;
//! m.name_group("x is small", &[small])?;
//! m.name_group("x is far above y", &[big])?;
//! let why = explain::explain(&m, &Config::default())?;
//! // x >= y + 5 and y >= x cannot both hold; the other two play no part.
//! assert!(why.verdict.is_minimal());
//! assert_eq!(why.names(&m), ["x is far above y", "c3 (linear)"]);
//! assert_eq!(why.constraints(), [big, ordered]);
//! assert!(why.effort.checks >= 3);
//! # Ok::<(), csp_core::CspError>(())
//! ```

use std::time::{Duration, Instant};

use crate::{Config, ConstraintId, CspError, Model, SearchStatus, Solution, Solver, StopReason};

/// One candidate of an explanation: a named group, or one constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The group's name ([`Model::name_group`]), `None` for a constraint in
    /// no group.
    pub group: Option<String>,
    /// Its constraints, in posting order.
    pub constraints: Vec<ConstraintId>,
}

impl Part {
    /// The group's name, or for a constraint in no group its id and name
    /// (`c3 (linear)`).
    pub fn name(&self, model: &Model) -> String {
        match (&self.group, self.constraints.first()) {
            (Some(name), _) => name.clone(),
            (None, Some(&id)) => {
                let kind = model.constraint(id).map_or("?", |c| c.name());
                format!("{id} ({kind})")
            }
            (None, None) => String::new(),
        }
    }
}

/// What an explanation found.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// The conflict has no solution, and removing any one of its parts
    /// leaves a satisfiable set: every check was complete.
    Minimal,
    /// The conflict has no solution (proved), but at least one check
    /// stopped at this limit, so it may hold more parts than it needs.
    NotProvenMinimal(StopReason),
    /// The model has a solution (this one): there is no conflict.
    Satisfiable(Solution),
    /// The check of the whole model stopped at this limit: whether it has a
    /// solution is not known, and there is no conflict.
    Unknown(StopReason),
}

impl Verdict {
    /// Whether the conflict is proved unsatisfiable and minimal.
    pub fn is_minimal(&self) -> bool {
        matches!(self, Verdict::Minimal)
    }

    /// Whether the model was proved unsatisfiable (the conflict is one,
    /// minimal or not).
    pub fn is_unsatisfiable(&self) -> bool {
        matches!(self, Verdict::Minimal | Verdict::NotProvenMinimal(_))
    }
}

/// The search an explanation cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Satisfiability checks run (one search each).
    pub checks: u64,
    /// Of those, the checks a limit stopped before they decided.
    pub undecided: u64,
    /// Nodes visited by all the checks ([`SearchStats::tried`](crate::SearchStats::tried)).
    pub nodes: u64,
    /// Failed nodes of all the checks ([`SearchStats::rejected`](crate::SearchStats::rejected)).
    pub failures: u64,
    /// Wall-clock time of the whole explanation.
    pub time: Duration,
}

/// The answer of [`explain`]: the conflict, what is proved about it, and
/// the effort.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// Parts that cannot all hold, in the order of the model (empty unless
    /// the verdict [`is_unsatisfiable`](Verdict::is_unsatisfiable); empty
    /// then too if the background alone has no solution).
    pub conflict: Vec<Part>,
    /// What is proved.
    pub verdict: Verdict,
    /// What it cost.
    pub effort: Effort,
}

impl Explanation {
    /// The conflict's parts by name ([`Part::name`]).
    pub fn names(&self, model: &Model) -> Vec<String> {
        self.conflict.iter().map(|p| p.name(model)).collect()
    }

    /// The conflict's constraints, in posting order.
    pub fn constraints(&self) -> Vec<ConstraintId> {
        let mut all: Vec<ConstraintId> = self
            .conflict
            .iter()
            .flat_map(|p| p.constraints.iter().copied())
            .collect();
        all.sort_unstable();
        all
    }
}

/// Explains `model` with the searches of `config` (see the [module
/// docs](self)): every constraint is a candidate, the constraints of a
/// named group one candidate together.
///
/// Fails only where [`Solver::new`] would (a memory limit, a mask of the
/// wrong length in `config`, which is replaced here anyway).
pub fn explain(model: &Model, config: &Config) -> Result<Explanation, CspError> {
    Explainer::new(model, config.clone()).run()
}

/// An explanation with options: constraints that always hold, and a time
/// budget for the whole explanation.
///
/// ```
/// use std::time::Duration;
/// use csp_core::{Config, Model, explain::Explainer};
/// let mut m = Model::new();
/// let x = m.int_var(0..=9)?;
/// let physics = m.post(x.ge(4))?;
/// let wish = m.post(x.le(2))?;
/// let why = Explainer::new(&m, Config::default())
///     .with_background(&[physics])?
///     .with_time_budget(Duration::from_secs(10))
///     .run()?;
/// // Only the wish is blamed: the background always holds.
/// assert_eq!(why.constraints(), [wish]);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Debug)]
pub struct Explainer<'m> {
    model: &'m Model,
    config: Config,
    background: Vec<bool>,
    budget: Option<Duration>,
}

/// The answer of one check.
enum Check {
    Sat(Solution),
    Unsat,
    Undecided(StopReason),
}

impl<'m> Explainer<'m> {
    /// An explainer of `model` whose checks search with `config` (its limits
    /// bound each check).
    pub fn new(model: &'m Model, config: Config) -> Self {
        Explainer {
            model,
            config,
            background: vec![false; model.num_constraints()],
            budget: None,
        }
    }

    /// Makes `constraints` background: they always hold and are never
    /// blamed. A group with a background constraint is background as a
    /// whole. Fails on an id that is not one of the model's constraints.
    pub fn with_background(mut self, constraints: &[ConstraintId]) -> Result<Self, CspError> {
        for &c in constraints {
            let slot =
                self.background
                    .get_mut(c.index())
                    .ok_or_else(|| CspError::InvalidArgument {
                        context: "explain background".into(),
                        message: format!(
                            "unknown constraint {c} (the model has {} constraints)",
                            self.model.num_constraints()
                        ),
                    })?;
            *slot = true;
        }
        Ok(self)
    }

    /// Bounds the whole explanation to `time`: once it is spent, the checks
    /// left count as undecided (the conflict so far stands, not proved
    /// minimal).
    pub fn with_time_budget(mut self, time: Duration) -> Self {
        self.budget = Some(time);
        self
    }

    /// The candidates: groups (whole, unless one of their constraints is
    /// background) and the constraints in no group, in posting order.
    fn parts(&mut self) -> Vec<Part> {
        let m = self.model;
        let groups: Vec<(&str, &[ConstraintId])> = m.groups().collect();
        for (_, members) in &groups {
            if members.iter().any(|c| self.background[c.index()]) {
                for c in members.iter() {
                    self.background[c.index()] = true;
                }
            }
        }
        let mut seen = vec![false; groups.len()];
        let mut parts = Vec::new();
        for (id, _) in m.constraints() {
            if self.background[id.index()] {
                continue;
            }
            match m.group_of(id).and_then(|name| {
                groups
                    .iter()
                    .position(|(n, _)| *n == name)
                    .map(|g| (g, name))
            }) {
                Some((g, name)) => {
                    if !std::mem::replace(&mut seen[g], true) {
                        let mut constraints = groups[g].1.to_vec();
                        constraints.sort_unstable();
                        parts.push(Part {
                            group: Some(name.to_string()),
                            constraints,
                        });
                    }
                }
                None => parts.push(Part {
                    group: None,
                    constraints: vec![id],
                }),
            }
        }
        parts
    }

    /// Runs QuickXplain.
    pub fn run(mut self) -> Result<Explanation, CspError> {
        let started = Instant::now();
        let parts = self.parts();
        let mut run = Run {
            explainer: &self,
            parts: &parts,
            deadline: self.budget.map(|b| started + b),
            effort: Effort::default(),
            stopped: None,
        };
        let all: Vec<usize> = (0..parts.len()).collect();
        let verdict_of = |run: &Run<'_, '_>| match run.stopped {
            None => Verdict::Minimal,
            Some(reason) => Verdict::NotProvenMinimal(reason),
        };
        let (conflict, verdict) = match run.check(&all)? {
            Check::Sat(solution) => (Vec::new(), Verdict::Satisfiable(solution)),
            Check::Undecided(reason) => (Vec::new(), Verdict::Unknown(reason)),
            Check::Unsat => {
                let background_fails =
                    self.background.iter().any(|&b| b) && matches!(run.check(&[])?, Check::Unsat);
                let found = match background_fails || parts.is_empty() {
                    true => Vec::new(),
                    false => run.quickxplain(&mut Vec::new(), false, &all)?,
                };
                let mut found: Vec<Part> = found.into_iter().map(|i| parts[i].clone()).collect();
                found.sort_by_key(|p| p.constraints.first().copied());
                (found, verdict_of(&run))
            }
        };
        let mut effort = run.effort;
        effort.time = started.elapsed();
        Ok(Explanation {
            conflict,
            verdict,
            effort,
        })
    }
}

/// The state of one explanation.
struct Run<'e, 'm> {
    explainer: &'e Explainer<'m>,
    parts: &'e [Part],
    deadline: Option<Instant>,
    effort: Effort,
    /// The limit of the first undecided check, if any.
    stopped: Option<StopReason>,
}

impl Run<'_, '_> {
    /// Whether the background and the parts `chosen` have a solution.
    fn check(&mut self, chosen: &[usize]) -> Result<Check, CspError> {
        let e = self.explainer;
        let mut active = e.background.clone();
        for &p in chosen {
            for c in &self.parts[p].constraints {
                active[c.index()] = true;
            }
        }
        let mut config = e.config.clone().with_active_constraints(active);
        if let Some(deadline) = self.deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            config.limits.time = Some(config.limits.time.map_or(left, |t| t.min(left)));
        }
        self.effort.checks += 1;
        let cancelled = config
            .limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.is_cancelled());
        let out_of_time = config.limits.time == Some(Duration::ZERO);
        let result = if cancelled || out_of_time {
            let reason = match cancelled {
                true => StopReason::Cancelled,
                false => StopReason::TimeLimit,
            };
            (None, SearchStatus::Stopped(reason))
        } else {
            let mut solver = Solver::new(e.model, config)?;
            let r = solver.first();
            self.effort.nodes += r.stats.tried;
            self.effort.failures += r.stats.rejected;
            (r.solution, r.status)
        };
        Ok(match result {
            (Some(solution), _) => Check::Sat(solution),
            (None, SearchStatus::Stopped(reason)) => {
                self.effort.undecided += 1;
                self.stopped.get_or_insert(reason);
                Check::Undecided(reason)
            }
            (None, _) => Check::Unsat,
        })
    }

    /// QuickXplain's recursion (Junker 2004, `QXP(B, Δ, C)`): given that
    /// `base ∪ candidates` has no solution (or may have none, after an
    /// undecided check), the parts of `candidates` that, with `base`, have
    /// none. `delta` says whether `base` grew since it was last checked.
    fn quickxplain(
        &mut self,
        base: &mut Vec<usize>,
        delta: bool,
        candidates: &[usize],
    ) -> Result<Vec<usize>, CspError> {
        if delta && matches!(self.check(base)?, Check::Unsat) {
            return Ok(Vec::new());
        }
        if candidates.len() == 1 {
            return Ok(candidates.to_vec());
        }
        let (first, second) = candidates.split_at(candidates.len() / 2);
        let mark = base.len();
        base.extend_from_slice(first);
        let needed_second = self.quickxplain(base, !first.is_empty(), second)?;
        base.truncate(mark);
        base.extend_from_slice(&needed_second);
        let needed_first = self.quickxplain(base, !needed_second.is_empty(), first)?;
        base.truncate(mark);
        let mut out = needed_first;
        out.extend(needed_second);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Relation;

    /// x in 0..=9 and the unary constraints `x <= a` / `x >= b` given.
    fn bounds_model(uppers: &[i64], lowers: &[i64]) -> (Model, Vec<ConstraintId>) {
        let mut m = Model::new();
        let x = m.int_var(0..=9).unwrap();
        let mut ids = Vec::new();
        for &a in uppers {
            ids.push(m.linear(&[1], &[x], Relation::Le, a).unwrap());
        }
        for &b in lowers {
            ids.push(m.linear(&[1], &[x], Relation::Ge, b).unwrap());
        }
        (m, ids)
    }

    #[test]
    fn every_pruning_level_honours_the_active_mask() {
        let (m, ids) = bounds_model(&[3], &[5]);
        for pruning in crate::Pruning::ALL {
            let config = Config::textbook().with_pruning(pruning);
            for (mask, count) in [([true, true], 0), ([false, true], 5), ([true, false], 4)] {
                let c = config.clone().with_active_constraints(mask.to_vec());
                let r = Solver::new(&m, c).unwrap().count();
                assert_eq!(
                    (r.solutions, r.is_complete()),
                    (count, true),
                    "{pruning:?} {mask:?}"
                );
            }
        }
        let e = Solver::new(&m, Config::default().with_active_constraints(vec![true]))
            .err()
            .unwrap();
        assert_eq!(
            e.to_string(),
            "active constraints: the mask has length 1, expected 2"
        );
        assert_eq!(ids.len(), 2);
    }

    #[test]
    fn finds_the_one_pair_that_clashes() {
        // x <= 8, x <= 7, x <= 2, x >= 1, x >= 5: the tightest pair clashes.
        let (m, ids) = bounds_model(&[8, 7, 2], &[1, 5]);
        let why = explain(&m, &Config::default()).unwrap();
        assert!(why.verdict.is_minimal());
        assert_eq!(why.constraints(), [ids[2], ids[4]]);
    }

    #[test]
    fn a_satisfiable_model_has_no_conflict_and_gives_its_solution() {
        let (m, _) = bounds_model(&[7], &[5]);
        let why = explain(&m, &Config::default()).unwrap();
        let Verdict::Satisfiable(s) = &why.verdict else {
            panic!("{:?}", why.verdict)
        };
        assert!(m.is_solution(s.values()));
        assert!(why.conflict.is_empty());
        assert_eq!(why.effort.checks, 1);
    }

    #[test]
    fn a_group_is_blamed_whole_and_by_name() {
        let (mut m, ids) = bounds_model(&[2, 9], &[5]);
        m.name_group("caps", &[ids[0], ids[1]]).unwrap();
        let why = explain(&m, &Config::default()).unwrap();
        assert_eq!(why.names(&m), ["caps", "c2 (linear)"]);
        assert_eq!(why.constraints(), [ids[0], ids[1], ids[2]]);
    }

    #[test]
    fn background_is_never_blamed() {
        let (m, ids) = bounds_model(&[2], &[5]);
        let why = Explainer::new(&m, Config::default())
            .with_background(&[ids[1]])
            .unwrap()
            .run()
            .unwrap();
        assert_eq!(why.constraints(), [ids[0]]);
        // Background that fails alone: nothing to blame.
        let why = Explainer::new(&m, Config::default())
            .with_background(&ids)
            .unwrap()
            .run()
            .unwrap();
        assert!(why.verdict.is_unsatisfiable());
        assert!(why.conflict.is_empty());
        let e = Explainer::new(&m, Config::default())
            .with_background(&[ConstraintId::new(7)])
            .unwrap_err();
        assert!(e.to_string().contains("unknown constraint c7"), "{e}");
    }

    /// Pigeons: n + 1 pigeons in n holes, pairwise different, plus a
    /// satisfiable extra; the checks need search.
    fn pigeons(n: usize) -> (Model, Vec<ConstraintId>) {
        let mut m = Model::new();
        let p = m.int_var_array("p", n + 1, 0..=(n as i64 - 1)).unwrap();
        let mut ids = Vec::new();
        for i in 0..=n {
            for j in i + 1..=n {
                ids.push(m.not_equal(p[i], p[j]).unwrap());
            }
        }
        (m, ids)
    }

    #[test]
    fn a_limit_on_the_whole_model_is_unknown_never_unsatisfiable() {
        let (m, _) = pigeons(7);
        let config = Config::textbook().with_node_limit(50);
        let why = explain(&m, &config).unwrap();
        assert!(
            matches!(why.verdict, Verdict::Unknown(StopReason::NodeLimit)),
            "{:?}",
            why.verdict
        );
        assert!(why.conflict.is_empty());
        assert_eq!(why.effort.undecided, 1);
    }

    #[test]
    fn a_cancelled_explanation_claims_nothing() {
        let (m, _) = pigeons(4);
        let flag = crate::CancelFlag::new();
        flag.cancel();
        let why = explain(&m, &Config::default().with_cancel_flag(flag)).unwrap();
        assert!(matches!(
            why.verdict,
            Verdict::Unknown(StopReason::Cancelled)
        ));
    }

    #[test]
    fn the_pigeonhole_conflict_is_all_of_it_and_minimal() {
        // Every disequality is needed: with one gone, two pigeons share.
        let (m, ids) = pigeons(4);
        let why = explain(
            &m,
            &Config::textbook().with_pruning(crate::Pruning::ForwardChecking),
        )
        .unwrap();
        assert!(why.verdict.is_minimal());
        assert_eq!(why.constraints(), ids);
    }

    #[test]
    fn a_limited_check_inside_makes_the_conflict_unproven_yet_unsatisfiable() {
        // Two clashing bounds inside a pigeonhole that a 40-node check
        // cannot refute: the pigeons' checks stop, the bounds' do not.
        let (mut m, _) = pigeons(6);
        let x = m.int_var(0..=9).unwrap();
        let lo = m.post(x.ge(5)).unwrap();
        let hi = m.post(x.le(2)).unwrap();
        let config = Config::textbook()
            .with_pruning(crate::Pruning::ForwardChecking)
            .with_node_limit(40);
        let why = explain(&m, &config).unwrap();
        assert!(why.verdict.is_unsatisfiable(), "{:?}", why.verdict);
        // The bounds are found, but the checks of the pigeons stopped, so
        // minimality is not claimed.
        assert!(
            matches!(
                why.verdict,
                Verdict::NotProvenMinimal(StopReason::NodeLimit)
            ),
            "{:?}",
            why.verdict
        );
        assert!(why.effort.undecided > 0);
        assert_eq!(why.constraints(), [lo, hi]);
        let mut active = vec![false; m.num_constraints()];
        for c in why.constraints() {
            active[c.index()] = true;
        }
        // What was returned has no solution (a complete search says so).
        let r = Solver::new(&m, Config::default().with_active_constraints(active))
            .unwrap()
            .first();
        assert!(r.solution.is_none() && r.status.is_complete());
    }
}
