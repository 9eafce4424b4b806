//! `DistinctDifferences`: a constraint written from scratch, in three stages of speed.

use std::fmt;

use csp_core::{
    Conflict, Constraint, Domains, PropStatus, Propagation, PropagationContext, Value, VarId,
};

/// How much of [`Constraint`] a [`DistinctDifferences`] implements: each stage
/// adds one method to the one before, so the same model can be searched with each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Stage {
    /// Only `check`: the engine's defaults do the rest (a partial assignment is
    /// promising until every mark is placed).
    Check,
    /// `check` and `promising`: two marks placed already at a repeated distance
    /// reject the node at once.
    Promising,
    /// `check`, `promising` and `propagate`: each placed mark removes from the
    /// other marks' domains the positions that would repeat a distance.
    #[default]
    Propagate,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Check => "check",
            Stage::Promising => "promising",
            Stage::Propagate => "propagate",
        })
    }
}

/// The marks take different values and the distances between any two marks are
/// all different: the defining property of a Golomb ruler.
///
/// ```
/// use csp_core::{Config, Constraint, Model, Pruning, Solver};
/// use csp_examples::custom_constraint::{DistinctDifferences, Stage};
/// // Three marks in 0..=3: the rulers {0, 1, 3} and {0, 2, 3}, each in 3! orders.
/// let c = DistinctDifferences::new(&[], Stage::Check);
/// assert!(c.check(&[0, 1, 3]) && !c.check(&[0, 1, 2]) && !c.check(&[1, 1, 3]));
/// for stage in [Stage::Check, Stage::Promising, Stage::Propagate] {
///     let mut m = Model::new();
///     let xs = m.int_var_array("x", 3, 0..=3)?;
///     m.post(DistinctDifferences::new(&xs, stage))?;
///     for pruning in Pruning::ALL {
///         let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning))?;
///         assert_eq!(s.count().solutions, 12, "{stage} {pruning}");
///     }
/// }
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug)]
pub struct DistinctDifferences {
    marks: Vec<VarId>,
    stage: Stage,
}

impl DistinctDifferences {
    /// The constraint over `marks`, implemented up to `stage`.
    pub fn new(marks: &[VarId], stage: Stage) -> Self {
        DistinctDifferences {
            marks: marks.to_vec(),
            stage,
        }
    }

    /// The placed marks' values, or `None` if two of them clash already.
    fn placed(&self, domains: &Domains) -> Option<Vec<Value>> {
        let fixed: Vec<Value> = self
            .marks
            .iter()
            .filter_map(|&m| domains.value(m))
            .collect();
        self.check(&fixed).then_some(fixed)
    }
}

/// Whether `values` are pairwise different with pairwise different distances.
fn distinct_differences(values: &[Value]) -> bool {
    let mut distances = Vec::with_capacity(values.len() * values.len() / 2);
    for (i, &a) in values.iter().enumerate() {
        for &b in &values[i + 1..] {
            distances.push(a.abs_diff(b));
        }
    }
    distances.sort_unstable();
    distances.first() != Some(&0) && distances.windows(2).all(|w| w[0] != w[1])
}

impl Constraint for DistinctDifferences {
    fn scope(&self) -> &[VarId] {
        &self.marks
    }

    fn check(&self, values: &[Value]) -> bool {
        distinct_differences(values)
    }

    fn name(&self) -> &str {
        "distinct-differences"
    }

    fn promising(&self, domains: &Domains) -> bool {
        if self.stage == Stage::Check {
            return csp_core::generic::promising(self, domains);
        }
        // A subset of a ruler is a ruler: the placed marks must already be one.
        self.placed(domains).is_some()
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if self.stage < Stage::Propagate {
            // The engine's default: probe `promising` value by value.
            return match ctx.pruning() {
                csp_core::Pruning::ForwardChecking => csp_core::generic::forward_check(self, ctx),
                _ => csp_core::generic::support_search(self, ctx),
            };
        }
        let mut changed = false;
        // A mark whose domain shrinks to one value is placed too: repeat until
        // no more marks get placed.
        let open = loop {
            let fixed = self.placed(ctx.domains()).ok_or(Conflict::infeasible())?;
            let mut used: Vec<u64> = Vec::new();
            for (i, &a) in fixed.iter().enumerate() {
                for &b in &fixed[i + 1..] {
                    used.push(a.abs_diff(b));
                }
            }
            used.sort_unstable();
            let mut open = 0;
            let mut newly_placed = false;
            for &y in &self.marks {
                if ctx.is_fixed(y) {
                    continue;
                }
                open += 1;
                ctx.note_revision();
                // Placing y at w adds the distances |w - f| for each placed f:
                // they must be new and different from each other (w not midway
                // between two placed marks), and w must not be a placed mark.
                changed |= ctx.retain(y, |_, w| {
                    let mut fresh: Vec<u64> = fixed.iter().map(|&f| w.abs_diff(f)).collect();
                    fresh.sort_unstable();
                    fresh.first() != Some(&0)
                        && fresh.windows(2).all(|p| p[0] != p[1])
                        && fresh.iter().all(|d| used.binary_search(d).is_err())
                })?;
                newly_placed |= ctx.is_fixed(y);
            }
            if !newly_placed {
                break open;
            }
        };
        Ok(if open == 0 {
            PropStatus::Entailed
        } else if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{Config, Model, Pruning, Solver};

    fn three_marks(stage: Stage) -> Model {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 3, 0..=6).unwrap();
        m.post(DistinctDifferences::new(&xs, stage)).unwrap();
        m
    }

    #[test]
    fn propagate_removes_repeated_distances_of_placed_marks() {
        // Marks at 0 and 2: the third may not be 0 or 2 (taken), 1 (midway) or 4
        // (distance 2 again), so it is in {3, 5, 6}.
        let mut m = Model::new();
        let a = m.int_var(0..=0).unwrap();
        let b = m.int_var(2..=2).unwrap();
        let c = m.int_var(0..=6).unwrap();
        m.post(DistinctDifferences::new(&[a, b, c], Stage::Propagate))
            .unwrap();
        let s = Solver::new(
            &m,
            Config::textbook().with_pruning(Pruning::ForwardChecking),
        )
        .unwrap();
        let left: Vec<Value> = s.domains().values(c).collect();
        assert_eq!(left, [3, 5, 6]);
    }

    #[test]
    fn stages_agree_on_every_pruning_level() {
        let mut counts = Vec::new();
        for stage in [Stage::Check, Stage::Promising, Stage::Propagate] {
            for pruning in Pruning::ALL {
                let m = three_marks(stage);
                let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
                counts.push(s.count().solutions);
            }
        }
        // Brute force over 7^3 assignments.
        let mut expected = 0;
        for a in 0..=6 {
            for b in 0..=6 {
                for c in 0..=6 {
                    expected += u64::from(distinct_differences(&[a, b, c]));
                }
            }
        }
        assert!(
            counts.iter().all(|&c| c == expected),
            "{counts:?} vs {expected}"
        );
    }

    #[test]
    fn promising_rejects_a_clash_before_all_marks_are_placed() {
        let mut m = Model::new();
        let xs = [
            m.int_var(0..=0).unwrap(),
            m.int_var(0..=0).unwrap(),
            m.int_var(0..=9).unwrap(),
        ];
        let early = DistinctDifferences::new(&xs, Stage::Promising);
        let late = DistinctDifferences::new(&xs, Stage::Check);
        m.post(early.clone()).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::None)).unwrap();
        assert!(!early.promising(s.domains()));
        assert!(late.promising(s.domains()));
    }
}
