//! The symmetry counter's search cut into independent subtrees (for the
//! parallel counter, shares and checkpoints).

use super::small::count_small;
use super::{Search, SymmetryCount, Tally, Task, searches};
use crate::bitboard::{CounterError, check_size};

/// An independent part of the symmetry counter's search: the representatives
/// below one node of the first three rows (or, first in the list, those the
/// split itself completed). Counting every subtree of [`subtrees`] and adding
/// up gives [`count`](super::count); share `I` of `K` of `nqueens count
/// --part I/K --method symmetry` is every `K`-th subtree from the `I`-th.
#[derive(Debug, Clone)]
pub struct Subtree {
    n: u32,
    part: Part,
}

#[derive(Debug, Clone)]
enum Part {
    /// A board too small for the families (`n < 4`), counted whole.
    Small(SymmetryCount),
    /// Classes already counted while splitting.
    Done(Tally),
    /// A subtree left to search.
    Task(Box<Task>),
}

impl Subtree {
    pub(super) fn tally(&self) -> Tally {
        match &self.part {
            Part::Small(c) => Tally {
                of_2: c.classes_of_2,
                of_4: c.classes_of_4,
                of_8: c.classes_of_8,
            },
            Part::Done(tally) => *tally,
            Part::Task(task) => {
                let mut search = Search::new(self.n, task.family, task.bound);
                search.rows = task.rows;
                search.resume::<false>(task.row, task.masks);
                search.tally
            }
        }
    }

    /// Counts the solutions and classes of solutions of this subtree.
    ///
    /// ```
    /// use nqueens::symmetry::{count, subtrees, SymmetryCount};
    ///
    /// let mut sum = SymmetryCount::default();
    /// for subtree in subtrees(10)? {
    ///     sum = sum.checked_add(subtree.count()?).unwrap();
    /// }
    /// assert_eq!(sum, count(10)?);
    /// # Ok::<(), nqueens::bitboard::CounterError>(())
    /// ```
    pub fn count(&self) -> Result<SymmetryCount, CounterError> {
        match &self.part {
            Part::Small(c) => Ok(*c),
            _ => self.tally().finish(self.n),
        }
    }
}

/// The subtrees of the symmetry counter's search for `n` queens, in a fixed
/// order that depends only on `n`. Errors when `n > MAX_N`.
pub fn subtrees(n: u32) -> Result<Vec<Subtree>, CounterError> {
    check_size(n)?;
    let subtree = |part| Subtree { n, part };
    if n < 4 {
        return Ok(vec![subtree(Part::Small(count_small(n)))]);
    }
    let mut top = Tally::default();
    let mut tasks = Vec::new();
    for (family, bound, prefix) in searches(n) {
        let mut search = Search::new(n, family, bound);
        search.run::<true>(&prefix);
        top = top.add(search.tally);
        tasks.append(&mut search.tasks);
    }
    let tasks = tasks.into_iter().map(|t| subtree(Part::Task(Box::new(t))));
    Ok(std::iter::once(subtree(Part::Done(top)))
        .chain(tasks)
        .collect())
}
