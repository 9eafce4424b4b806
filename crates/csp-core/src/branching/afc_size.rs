//! `AfcSize`: largest accumulated failure count over domain size (Gecode's
//! default for FlatZinc, `afc_size_max` with decay 0.99).

use super::variable_selector::ranked;
use super::{SearchView, VariableSelector};
use crate::VarId;
use crate::observer::Candidate;

/// The accumulated failure count of the constraints, with decay: every
/// constraint starts at 1; when one fails, every count is multiplied by
/// [`AFC_DECAY`] and the failing one's is raised by 1 (kept as counts scaled
/// by `1 / AFC_DECAY^failures`, so a failure touches one count). Gecode's
/// "AFC" (Michel and Van Hentenryck's weighted degree with ageing).
#[derive(Clone, Debug)]
pub(crate) struct Afc {
    counts: Vec<f64>,
    /// The scaled value of one failure now.
    inc: f64,
    /// Whether the counts are kept (the variable order reads them,
    /// [`VariableSelector::reads_afc`]); a failure costs a test otherwise.
    kept: bool,
    /// How many times the counts were rescaled.
    rescales: u64,
}

/// How much the older failures count after each new one.
pub const AFC_DECAY: f64 = 0.99;

impl Afc {
    /// `m` constraints, each at 1; `kept`: whether failures count.
    pub(crate) fn new(m: usize, kept: bool) -> Self {
        Afc {
            counts: vec![1.0; m],
            inc: 1.0,
            kept,
            rescales: 0,
        }
    }

    /// Constraint `c` failed.
    #[inline(always)]
    pub(crate) fn bump(&mut self, c: usize) {
        if self.kept {
            self.age(c);
        }
    }

    #[inline(never)]
    fn age(&mut self, c: usize) {
        self.inc /= AFC_DECAY;
        self.counts[c] += self.inc;
        if self.inc > 1e100 {
            // Rescale before the counts leave f64's range (the order is kept).
            for x in &mut self.counts {
                *x *= 1e-100;
            }
            self.inc *= 1e-100;
            self.rescales += 1;
        }
    }

    /// How many times the counts were rescaled (each rescaling changes every
    /// count, not their order).
    pub(crate) fn rescales(&self) -> u64 {
        self.rescales
    }

    /// The (scaled) counts, per constraint.
    pub(crate) fn counts(&self) -> &[f64] {
        &self.counts
    }
}

/// Chooses the undecided variable with the largest ratio of its accumulated
/// failure count (the sum of the counts of the constraints on it that are not
/// entailed, see [`SearchView::afc`]) to its domain size; ties go to the
/// earliest declared. Gecode's default order for FlatZinc (`afc_size_max`,
/// decay 0.99). Unlike [`DomOverWdeg`](super::DomOverWdeg), old failures
/// fade, and every constraint on the variable counts, linking it to an
/// undecided variable or not.
///
/// ```
/// use csp_core::{Config, Model, Pruning, Solver, VarOrder};
/// let (m, _) = csp_core::models::queens(8)?;
/// let config = Config::textbook()
///     .with_pruning(Pruning::Propagators)
///     .with_var_order(VarOrder::AfcSize);
/// assert_eq!(Solver::new(&m, config)?.count().solutions, 92);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct AfcSize;

impl VariableSelector for AfcSize {
    fn select(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        let d = view.domains();
        let mut best: Option<(f64, VarId)> = None;
        for v in view.undecided() {
            let score = view.afc(v) / d.len(v) as f64;
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, v));
            }
        }
        best.map(|(_, v)| v)
    }

    fn candidates(&mut self, view: &SearchView<'_>, limit: usize, out: &mut Vec<Candidate>) {
        ranked(view, limit, out, |v| {
            -(view.afc(v) / view.domains().len(v) as f64)
        });
    }

    fn name(&self) -> &str {
        "afc-size"
    }

    fn builtin_order(&self) -> Option<crate::VarOrder> {
        Some(crate::VarOrder::AfcSize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_ages_every_count_and_rescaling_keeps_the_order() {
        let mut afc = Afc::new(3, true);
        afc.bump(0);
        afc.bump(1);
        // True values: c0 = 0.99^2 + 0.99, c1 = 0.99^2 + 1, c2 = 0.99^2.
        let scale = AFC_DECAY * AFC_DECAY;
        let truth: Vec<f64> = afc.counts().iter().map(|x| x * scale).collect();
        let expected = [scale + AFC_DECAY, scale + 1.0, scale];
        for (t, e) in truth.iter().zip(expected) {
            assert!((t - e).abs() < 1e-12, "{truth:?}");
        }
        for _ in 0..30_000 {
            afc.bump(2);
        }
        let c = afc.counts();
        assert!(c.iter().all(|x| x.is_finite()));
        assert!(c[2] > c[1] && c[1] >= c[0], "{c:?}");
    }
}
