//! Golomb rulers: the shortest ruler with n marks measuring every distance once.

use csp_core::{
    Config, CspError, Model, Relation, SearchStats, SearchStatus, Solver, Value, VarId,
};

use crate::custom_constraint::{DistinctDifferences, Stage};

/// The most marks [`GolombRuler::new`] accepts (the domains span `2^(n-1)` values).
pub const MAX_MARKS: usize = 16;

/// The model of a Golomb ruler with `n` marks: `0 = x_1 < x_2 < ... < x_n`, all
/// distances `x_j - x_i` different (the custom [`DistinctDifferences`]), and
/// `x_n`, the length, to minimise. The marks `0, 1, 3, 7, ..., 2^(n-1) - 1` form
/// a ruler, so the domains stop there; `x_2 - x_1 < x_n - x_(n-1)` removes the
/// mirror image.
///
/// Optimal lengths (OEIS A003022): 0, 1, 3, 6, 11, 17, 25, 34, 44, 55, 72 for
/// 1 to 11 marks.
///
/// ```
/// use csp_core::{Config, Pruning, Solver};
/// use csp_examples::{custom_constraint::Stage, golomb::GolombRuler};
/// let ruler = GolombRuler::new(5, Stage::Propagate)?;
/// let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
/// let best = Solver::new(&ruler.model, config)?.minimize(ruler.length())?;
/// assert_eq!(best.objective, Some(11));
/// assert!(best.status.is_complete());
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Debug)]
pub struct GolombRuler {
    /// The model.
    pub model: Model,
    /// The marks, left to right.
    pub marks: Vec<VarId>,
}

impl GolombRuler {
    /// `n` marks (1 to [`MAX_MARKS`]), with the distance constraint implemented up
    /// to `stage`.
    pub fn new(n: usize, stage: Stage) -> Result<Self, CspError> {
        if n == 0 || n > MAX_MARKS {
            return Err(CspError::InvalidArgument {
                context: "golomb ruler".into(),
                message: format!("{n} marks is not between 1 and {MAX_MARKS}"),
            });
        }
        let mut model = Model::new();
        let top = (1 << (n - 1)) - 1;
        let mut marks = vec![model.named_int_var("x1", 0..=0)?];
        for i in 2..=n {
            marks.push(model.named_int_var(format!("x{i}"), 1..=top)?);
        }
        for w in marks.windows(2) {
            model.less_than(w[0], w[1])?;
        }
        model.post(DistinctDifferences::new(&marks, stage))?;
        if n >= 3 {
            let (a, b, y, z) = (marks[0], marks[1], marks[n - 2], marks[n - 1]);
            // (b - a) < (z - y)
            model.linear(&[1, -1, 1, -1], &[b, a, y, z], Relation::Lt, 0)?;
        }
        Ok(GolombRuler { model, marks })
    }

    /// The last mark, whose value is the ruler's length.
    pub fn length(&self) -> VarId {
        self.marks[self.marks.len() - 1]
    }
}

/// The best ruler a search found.
#[derive(Clone, Debug)]
pub struct RulerReport {
    /// The marks of the shortest ruler found, left to right.
    pub marks: Option<Vec<Value>>,
    /// `Complete` when no shorter ruler exists, else the limit that stopped the search.
    pub status: SearchStatus,
    /// The work done.
    pub stats: SearchStats,
}

impl RulerReport {
    /// The length of the ruler found.
    pub fn length(&self) -> Option<Value> {
        self.marks.as_ref().and_then(|m| m.last().copied())
    }
}

/// Searches for the shortest ruler with `n` marks by branch and bound.
///
/// ```
/// use csp_core::{Config, Pruning};
/// use csp_examples::{custom_constraint::Stage, golomb::shortest};
/// let r = shortest(6, Stage::Propagate, Config::textbook().with_pruning(Pruning::ForwardChecking))?;
/// assert_eq!(r.length(), Some(17));
/// assert!(r.status.is_complete());
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub fn shortest(n: usize, stage: Stage, config: Config) -> Result<RulerReport, CspError> {
    let ruler = GolombRuler::new(n, stage)?;
    let mut solver = Solver::new(&ruler.model, config)?;
    let best = solver.minimize(ruler.length())?;
    Ok(RulerReport {
        marks: best.best.map(|s| s.values_of(&ruler.marks)),
        status: best.status,
        stats: best.stats,
    })
}

/// Whether `marks` measure every distance at most once, checked directly.
pub fn is_golomb(marks: &[Value]) -> bool {
    let mut d: Vec<Value> = Vec::new();
    for (i, &a) in marks.iter().enumerate() {
        for &b in &marks[i + 1..] {
            d.push((a - b).abs());
        }
    }
    d.sort_unstable();
    d.first() != Some(&0) && d.windows(2).all(|w| w[0] != w[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{Config, Pruning, Solver};

    #[test]
    fn every_stage_finds_the_optimal_four_mark_ruler() {
        for stage in [Stage::Check, Stage::Promising, Stage::Propagate] {
            let r = GolombRuler::new(4, stage).unwrap();
            let best = Solver::new(&r.model, Config::textbook().with_pruning(Pruning::Check))
                .unwrap()
                .minimize(r.length())
                .unwrap();
            assert_eq!(best.objective, Some(6), "{stage}");
            assert!(is_golomb(&best.best.unwrap().values_of(&r.marks)));
        }
    }

    #[test]
    fn mark_counts_out_of_range_are_refused() {
        assert!(GolombRuler::new(0, Stage::Check).is_err());
        assert!(GolombRuler::new(MAX_MARKS + 1, Stage::Check).is_err());
    }
}
