//! Restarts: the policy ([`Restarts`]), its failure budgets, and going back to
//! the root between runs.

use std::fmt;

use super::Solver;
use crate::{Choice, CspError, SearchObserver, StopReason, ValueSelector, VariableSelector};

/// When the search gives up its current tree and starts again from the root
/// (see [`Config::with_restarts`](crate::Config::with_restarts)).
///
/// The search is a series of *runs*. Run `r` (counted from 0) ends after its
/// budget of failures (values rejected, [`SearchStats::rejected`](crate::SearchStats::rejected));
/// the search then backtracks to the root and starts run `r + 1`. What the
/// heuristics learned stays: [`DomOverWdeg`](crate::branching::DomOverWdeg)'s
/// constraint weights and a random order's generator carry over, so the next
/// run's tree differs. A run that exhausts its tree ends the search as without
/// restarts: it started from the root, so that is a proof (no solution, or the
/// optimum). The budgets of `Linear`, `Luby` and `Geometric` grow without
/// bound, so one run eventually has the budget to finish: the search stays
/// complete.
///
/// | policy | budget of run `r` |
/// |---|---|
/// | `Never` | unlimited (one run: the plain depth-first search) |
/// | `Constant { scale }` | `scale` |
/// | `Linear { scale }` | `scale · (r + 1)` |
/// | `Luby { scale }` | `scale · luby(r + 1)`: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, … times `scale` |
/// | `Geometric { base, factor }` | `base · factor^r`, rounded down |
///
/// `Constant` is not complete: on a problem whose tree needs more than
/// `scale` failures it may never end (MiniZinc's `restart_constant` is the
/// same); use it with a time limit.
///
/// ```
/// use csp_core::Restarts;
/// let luby = Restarts::Luby { scale: 100 };
/// let budgets: Vec<u64> = (0..7).map(|r| luby.budget(r)).collect();
/// assert_eq!(budgets, [100, 100, 200, 100, 100, 200, 400]);
/// let geometric = Restarts::Geometric { base: 100, factor: 1.5 };
/// assert_eq!(geometric.budget(2), 225);
/// assert_eq!(Restarts::Never.budget(5), u64::MAX);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Restarts {
    /// No restarts (the default).
    #[default]
    Never,
    /// Every run gets `scale` failures (incomplete: see above).
    Constant {
        /// Failures per run, at least 1.
        scale: u64,
    },
    /// Run `r` gets `scale · (r + 1)` failures.
    Linear {
        /// Failures of the first run, at least 1.
        scale: u64,
    },
    /// Run `r` gets `scale · luby(r + 1)` failures (Luby, Sinclair and
    /// Zuckerman 1993): the universal sequence 1, 1, 2, 1, 1, 2, 4, …
    Luby {
        /// The unit of the sequence, at least 1.
        scale: u64,
    },
    /// Run `r` gets `base · factor^r` failures (Walsh 1999).
    Geometric {
        /// Failures of the first run, at least 1.
        base: u64,
        /// Growth per run, finite and at least 1.0 (1.0 is `Constant`).
        factor: f64,
    },
}

impl Restarts {
    /// The failure budget of run `run` (counted from 0); `u64::MAX` for
    /// `Never`. Saturates instead of overflowing.
    pub fn budget(self, run: u64) -> u64 {
        match self {
            Restarts::Never => u64::MAX,
            Restarts::Constant { scale } => scale,
            Restarts::Linear { scale } => scale.saturating_mul(run.saturating_add(1)),
            Restarts::Luby { scale } => scale.saturating_mul(luby(run.saturating_add(1))),
            Restarts::Geometric { base, factor } => {
                let exp = i32::try_from(run).unwrap_or(i32::MAX);
                // `as` saturates: an infinite product becomes u64::MAX.
                (base as f64 * factor.powi(exp)).floor() as u64
            }
        }
    }

    /// `Err` for a scale or base of 0, or a factor below 1.0 or not finite.
    pub(crate) fn check(self) -> Result<(), CspError> {
        let bad = |message: &str| {
            Err(CspError::InvalidArgument {
                context: "restarts".into(),
                message: message.into(),
            })
        };
        match self {
            Restarts::Never => Ok(()),
            Restarts::Constant { scale: 0 }
            | Restarts::Linear { scale: 0 }
            | Restarts::Luby { scale: 0 } => bad("the scale must be at least 1"),
            Restarts::Geometric { base: 0, .. } => bad("the base must be at least 1"),
            Restarts::Geometric { factor, .. } if !(factor.is_finite() && factor >= 1.0) => {
                bad(&format!("the factor must be a number >= 1, not {factor}"))
            }
            _ => Ok(()),
        }
    }
}

impl fmt::Display for Restarts {
    /// `none`, `constant(S)`, `linear(S)`, `luby(S)`, `geometric(B,F)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Restarts::Never => f.write_str("none"),
            Restarts::Constant { scale } => write!(f, "constant({scale})"),
            Restarts::Linear { scale } => write!(f, "linear({scale})"),
            Restarts::Luby { scale } => write!(f, "luby({scale})"),
            Restarts::Geometric { base, factor } => write!(f, "geometric({base},{factor})"),
        }
    }
}

/// The Luby sequence, `i >= 1`: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, …
/// (`luby(i) = 2^(k-1)` if `i = 2^k - 1`, else `luby(i - 2^(k-1) + 1)` for the
/// `k` with `2^(k-1) <= i < 2^k - 1`).
fn luby(mut i: u64) -> u64 {
    loop {
        // The smallest k with 2^k - 1 >= i.
        let k = 64 - i.leading_zeros();
        let full = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
        if i == full {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

impl<'m, O: SearchObserver, V: VariableSelector, L: ValueSelector> Solver<'m, O, V, L> {
    /// The number of failures at which the search must look up (the failure
    /// limit or the end of the run, whichever comes first).
    pub(super) fn update_fail_mark(&mut self) {
        self.fail_mark = self
            .limits
            .failures
            .unwrap_or(u64::MAX)
            .min(self.restart_at);
    }

    /// Called when the failures reach `fail_mark`: the failure limit (`Some`:
    /// stop), or the end of the run (restart, `None`).
    #[cold]
    pub(super) fn fail_mark_reached(&mut self) -> Option<StopReason> {
        if self
            .limits
            .failures
            .is_some_and(|f| self.stats.rejected >= f)
        {
            return Some(StopReason::FailureLimit);
        }
        if self.stats.rejected >= self.restart_at {
            self.restart();
        }
        None
    }

    /// Goes back to the root (the state after the root propagation and any
    /// assumptions) and starts the next run. Weights, random generators and
    /// the objective's bound stay.
    fn restart(&mut self) {
        // The branch's nogoods, read before its frames go.
        self.record_nogoods();
        let mut levels = 0;
        for i in 0..self.frames.len() {
            let frame = self.frames[i];
            if let Some(node) = frame.open {
                levels += 1;
                if frame.assigns() {
                    self.set_decided(node.var, false);
                }
                if frame.assigns() || frame.choice != Choice::Equal {
                    // A split counts until its frame is popped.
                    self.num_decided -= 1;
                }
            }
        }
        for _ in 0..levels {
            if !self.pop_records() {
                // The older levels' records were dropped: the snapshot is the root.
                self.restore_root();
                break;
            }
        }
        if let Some(lb) = self.lookback.as_deref_mut() {
            lb.reset();
        }
        self.frames.clear();
        self.values.clear();
        // A root that the new nogoods fail has nothing left to search: with
        // no frame and none to push, the loop ends the search complete.
        self.need_frame = self.add_fresh_nogoods();
        self.stats.restarts += 1;
        self.restart_at = self
            .stats
            .rejected
            .saturating_add(self.restart_policy.budget(self.stats.restarts));
        self.update_fail_mark();
    }

    /// No more restarts in this search (after the first solution of a
    /// satisfaction search, so that the solutions after it are enumerated
    /// once each, and while splitting).
    pub(super) fn stop_restarting(&mut self) {
        self.restart_at = u64::MAX;
        self.update_fail_mark();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Goal, Model, Pruning, Relation, SearchStatus, VarOrder};

    fn queens_config(pruning: Pruning, restarts: Restarts) -> Config {
        Config::textbook()
            .with_pruning(pruning)
            .with_var_order(VarOrder::DomOverWdeg)
            .with_restarts(restarts)
    }

    #[test]
    fn solver_refuses_a_bad_policy() {
        let (m, _) = crate::models::queens(4).unwrap();
        let config = Config::textbook().with_restarts(Restarts::Luby { scale: 0 });
        let err = Solver::new(&m, config).err().unwrap();
        assert_eq!(err.to_string(), "restarts: the scale must be at least 1");
    }

    #[test]
    fn restarts_with_and_without_undo_records_agree() {
        // Undo records kept (levels popped), dropped at every level (back to
        // the snapshot), and no snapshot at all: the same runs.
        let (m, _) = crate::models::queens(9).unwrap();
        let mut seen = Vec::new();
        for budget in [None, Some(1), Some(crate::DEFAULT_TRAIL_BUDGET)] {
            for pruning in [Pruning::ForwardChecking, Pruning::Propagators] {
                let config =
                    queens_config(pruning, Restarts::Luby { scale: 2 }).with_trail_budget(budget);
                let mut s = Solver::new(&m, config).unwrap();
                let first = s.first();
                assert!(first.stats.restarts > 0);
                let count = s.count();
                assert_eq!(count.solutions, 352);
                let mut stats = count.stats;
                stats.elapsed = Default::default();
                seen.push((pruning, first.solution, stats));
            }
        }
        for (pruning, solution, stats) in &seen[2..] {
            let same = seen.iter().find(|(p, _, _)| p == pruning).unwrap();
            assert_eq!((&same.1, &same.2), (solution, stats), "{pruning}");
        }
    }

    #[test]
    fn branch_and_bound_keeps_its_bound_across_restarts() {
        // Minimise the sum of four variables that must differ pairwise by at
        // least 2 (|x_i - x_j| != 0, 1): 0 + 2 + 4 + 6 = 12.
        let mut m = Model::new();
        let x = m.int_var_array("x", 4, 0..=9).unwrap();
        for i in 0..4 {
            for j in i + 1..4 {
                for d in -1..=1 {
                    m.not_equal_offset(x[i], x[j], d).unwrap();
                }
            }
        }
        let total = m.int_var(0..=36).unwrap();
        let sum = [x[0], x[1], x[2], x[3], total];
        m.linear(&[1, 1, 1, 1, -1], &sum, Relation::Eq, 0).unwrap();
        for pruning in [Pruning::ForwardChecking, Pruning::Propagators] {
            let plain = Solver::new(&m, queens_config(pruning, Restarts::Never))
                .unwrap()
                .optimize(total, Goal::Minimize)
                .unwrap();
            let config = queens_config(pruning, Restarts::Luby { scale: 1 });
            let o = Solver::new(&m, config)
                .unwrap()
                .optimize(total, Goal::Minimize)
                .unwrap();
            assert_eq!((plain.objective, o.objective), (Some(12), Some(12)));
            assert_eq!(o.status, SearchStatus::Complete);
            assert!(o.stats.restarts > 0, "{pruning}");
            assert!(o.improvements.windows(2).all(|w| w[1] < w[0]));
        }
    }

    #[test]
    fn luby_sequence_starts_as_published() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        assert_eq!(luby(31), 16);
        assert_eq!(luby(u64::MAX), 1 << 63);
    }

    #[test]
    fn budgets_grow_without_bound_and_saturate() {
        assert_eq!(Restarts::Linear { scale: 10 }.budget(3), 40);
        assert_eq!(Restarts::Constant { scale: 7 }.budget(1000), 7);
        let g = Restarts::Geometric {
            base: 10,
            factor: 2.0,
        };
        assert_eq!(g.budget(0), 10);
        assert_eq!(g.budget(10), 10_240);
        assert_eq!(g.budget(10_000), u64::MAX);
        assert_eq!(Restarts::Luby { scale: u64::MAX }.budget(2), u64::MAX);
        assert_eq!(Restarts::Linear { scale: 2 }.budget(u64::MAX), u64::MAX);
    }

    #[test]
    fn bad_parameters_are_refused() {
        for bad in [
            Restarts::Luby { scale: 0 },
            Restarts::Constant { scale: 0 },
            Restarts::Linear { scale: 0 },
            Restarts::Geometric {
                base: 0,
                factor: 2.0,
            },
            Restarts::Geometric {
                base: 1,
                factor: 0.5,
            },
            Restarts::Geometric {
                base: 1,
                factor: f64::NAN,
            },
            Restarts::Geometric {
                base: 1,
                factor: f64::INFINITY,
            },
        ] {
            let err = bad.check().unwrap_err().to_string();
            assert!(err.starts_with("restarts: the "), "{bad}: {err}");
        }
        assert!(Restarts::Never.check().is_ok());
        assert!(
            Restarts::Geometric {
                base: 1,
                factor: 1.0
            }
            .check()
            .is_ok()
        );
    }

    #[test]
    fn display_names_the_policy() {
        assert_eq!(Restarts::Luby { scale: 50 }.to_string(), "luby(50)");
        assert_eq!(
            Restarts::Geometric {
                base: 100,
                factor: 1.5
            }
            .to_string(),
            "geometric(100,1.5)"
        );
        assert_eq!(Restarts::Never.to_string(), "none");
    }
}
