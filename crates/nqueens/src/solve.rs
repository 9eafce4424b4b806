//! Solving N-Queens with the csp-core engine: validated solutions, counts and outcomes.
//!
//! [`Queens`] holds a built model. Every solution it hands out has been checked
//! by [`construct::validate`], a validator that
//! shares no code with the engine, so a wrong board is reported as an error
//! instead of being printed.
//!
//! ```
//! use csp_core::{Config, Pruning};
//! use nqueens::{Queens, Variant};
//!
//! let queens = Queens::new(8, Variant::Global)?;
//! assert_eq!(queens.first(Config::textbook())?, Some(vec![0, 4, 7, 5, 2, 6, 1, 3]));
//! let count = queens.count(Config::textbook().with_pruning(Pruning::ForwardChecking))?;
//! assert_eq!(count.solutions, 92);
//! # Ok::<(), nqueens::Error>(())
//! ```

use std::ops::ControlFlow;

use csp_core::{
    Config, CountResult, Model, NoObserver, SearchObserver, SearchStats, SearchStatus, Solver,
    StopReason, Value, VarId,
};

use crate::{Error, Variant, construct, model};

/// An `n`-queens model ready to be searched with any strategy.
#[derive(Debug)]
pub struct Queens {
    n: usize,
    variant: Variant,
    model: Model,
    rows: Vec<VarId>,
}

/// How a search for solutions ended.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    /// Solutions handed to the caller.
    pub found: u64,
    /// `Complete` (the tree was exhausted), `Stopped(SolutionLimit)` (the
    /// requested number was found, or the caller stopped), or another
    /// `Stopped` reason (a node or time limit, or Ctrl-C).
    pub status: SearchStatus,
    /// The work done.
    pub stats: SearchStats,
}

impl Outcome {
    /// Whether the search did what was asked: explored the whole tree or found
    /// the requested number of solutions. `false` when a node or time limit or
    /// a cancel flag cut it short.
    pub fn is_complete(&self) -> bool {
        self.stop_reason().is_none()
    }

    /// The limit that cut the search short, if one did.
    pub fn stop_reason(&self) -> Option<StopReason> {
        match self.status {
            SearchStatus::Stopped(StopReason::SolutionLimit)
            | SearchStatus::Complete
            | SearchStatus::Paused => None,
            SearchStatus::Stopped(reason) => Some(reason),
        }
    }
}

impl Queens {
    /// Builds the model (see [`model`](crate::model())).
    pub fn new(n: usize, variant: Variant) -> Result<Self, Error> {
        let (model, rows) = model(n, variant)?;
        Ok(Queens {
            n,
            variant,
            model,
            rows,
        })
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The model variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The csp-core model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The row variables, row 0 first.
    pub fn rows(&self) -> &[VarId] {
        &self.rows
    }

    /// The line (column or diagonal) the constraint with index `constraint`
    /// guards (see [`constraint_line`](crate::model::constraint_line)).
    pub fn constraint_line(&self, constraint: usize) -> Option<crate::construct::Line> {
        crate::model::constraint_line(self.variant, self.n, constraint)
    }

    /// The row of a variable of this model, if it is one.
    pub fn row_of(&self, var: VarId) -> Option<usize> {
        self.rows.iter().position(|&v| v == var)
    }

    /// The columns by row of a solution given as values indexed by variable,
    /// after checking that it is one.
    ///
    /// ```
    /// let queens = nqueens::Queens::new(4, nqueens::Variant::Pairwise)?;
    /// assert_eq!(queens.columns(&[2, 0, 3, 1])?, vec![2, 0, 3, 1]);
    /// assert!(queens.columns(&[0, 1, 2, 3]).is_err());
    /// # Ok::<(), nqueens::Error>(())
    /// ```
    pub fn columns(&self, values: &[Value]) -> Result<Vec<usize>, Error> {
        let invalid = |reason: String| Error::InvalidSolution {
            columns: values.to_vec(),
            reason,
        };
        let columns = self
            .rows
            .iter()
            .map(|v| {
                values
                    .get(v.index())
                    .and_then(|&c| usize::try_from(c).ok())
                    .ok_or_else(|| invalid(format!("no valid column for row variable {v:?}")))
            })
            .collect::<Result<Vec<usize>, Error>>()?;
        construct::validate(&columns).map_err(|e| invalid(e.to_string()))?;
        Ok(columns)
    }

    /// A solver for this model reporting to `observer`.
    pub fn solver<O: SearchObserver>(
        &self,
        config: Config,
        observer: O,
    ) -> Result<Solver<'_, O>, Error> {
        Ok(Solver::with_observer(&self.model, config, observer)?)
    }

    /// Counts the solutions with the engine.
    pub fn count(&self, config: Config) -> Result<CountResult, Error> {
        self.count_observed(config, NoObserver)
    }

    /// Counts the solutions, reporting every event to `observer` (for example
    /// a progress display).
    pub fn count_observed<O: SearchObserver>(
        &self,
        config: Config,
        observer: O,
    ) -> Result<CountResult, Error> {
        Ok(self.solver(config, observer)?.count())
    }

    /// The first solution in the order of `config`'s heuristics, or `None` if
    /// there is none or a limit stopped the search first.
    pub fn first(&self, config: Config) -> Result<Option<Vec<usize>>, Error> {
        let mut first = None;
        self.solve(config, NoObserver, Some(1), |c| {
            first = Some(c.to_vec());
            ControlFlow::Break(())
        })?;
        Ok(first)
    }

    /// Every solution (stops early only on `config`'s limits).
    pub fn all(&self, config: Config) -> Result<Vec<Vec<usize>>, Error> {
        let mut all = Vec::new();
        self.solve(config, NoObserver, None, |c| {
            all.push(c.to_vec());
            ControlFlow::Continue(())
        })?;
        Ok(all)
    }

    /// Calls `each` with the columns of every solution, validated, until `limit`
    /// solutions were found, `each` breaks, or `config`'s limits stop the search.
    pub fn solve<O: SearchObserver>(
        &self,
        config: Config,
        observer: O,
        limit: Option<u64>,
        mut each: impl FnMut(&[usize]) -> ControlFlow<()>,
    ) -> Result<Outcome, Error> {
        let mut solver = self.solver(config, observer)?;
        let mut found = 0;
        let mut invalid = None;
        let status = if limit == Some(0) {
            SearchStatus::Stopped(StopReason::SolutionLimit)
        } else {
            solver.for_each_solution(|values| match self.columns(values) {
                Ok(columns) => {
                    found += 1;
                    if limit.is_some_and(|l| found >= l) {
                        let _ = each(&columns);
                        return ControlFlow::Break(());
                    }
                    each(&columns)
                }
                Err(e) => {
                    invalid = Some(e);
                    ControlFlow::Break(())
                }
            })
        };
        if let Some(e) = invalid {
            return Err(e);
        }
        Ok(Outcome {
            found,
            status,
            stats: *solver.stats(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::Pruning;

    #[test]
    fn four_queens_has_two_solutions_in_lexicographic_order() {
        let q = Queens::new(4, Variant::Pairwise).unwrap();
        assert_eq!(
            q.all(Config::textbook()).unwrap(),
            vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]
        );
    }

    #[test]
    fn a_node_limit_is_reported_as_incomplete() {
        let q = Queens::new(10, Variant::Global).unwrap();
        let out = q
            .solve(
                Config::textbook().with_node_limit(50),
                NoObserver,
                None,
                |_| ControlFlow::Continue(()),
            )
            .unwrap();
        assert!(!out.is_complete());
        assert_eq!(out.stop_reason(), Some(StopReason::NodeLimit));
    }

    #[test]
    fn reaching_the_requested_number_is_complete() {
        let q = Queens::new(6, Variant::Global).unwrap();
        let cfg = Config::textbook().with_pruning(Pruning::ArcConsistency);
        let out = q
            .solve(cfg, NoObserver, Some(3), |_| ControlFlow::Continue(()))
            .unwrap();
        assert_eq!(out.found, 3);
        assert!(out.is_complete());
    }

    #[test]
    fn the_empty_board_has_one_empty_solution() {
        let q = Queens::new(0, Variant::Global).unwrap();
        assert_eq!(
            q.all(Config::textbook()).unwrap(),
            vec![Vec::<usize>::new()]
        );
        assert_eq!(q.count(Config::textbook()).unwrap().solutions, 1);
    }
}
