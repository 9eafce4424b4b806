//! `Split` and `ReverseSplit`: halve the domain instead of trying one value.

use super::{Sweep, ValueContext, ValueSelector};
use crate::{Choice, Value, VarId};

/// Splits the domain in two, lower half first: with binary branching at the
/// [`Propagators`](crate::Pruning::Propagators) level a choice is
/// `x <= m | x > m`, where `m = ⌊(min + max) / 2⌋` of the current domain
/// (Gecode's `INT_VAL_SPLIT_MIN`, MiniZinc's `indomain_split`). Where a node must
/// assign a value (the textbook levels, and d-way branching) it tries the values
/// smallest first, as [`Ascending`](super::Ascending) does: the order in which
/// halving reaches them.
///
/// ```
/// use csp_core::{Config, Model, Pruning, Relation, Solver, ValOrder};
/// let mut m = Model::new();
/// let x = m.int_var(0..=1000)?;
/// let y = m.int_var(0..=1000)?;
/// m.linear(&[3, 2], &[x, y], Relation::Eq, 1999)?;
/// let config = Config::textbook()
///     .with_pruning(Pruning::Propagators)
///     .with_binary_branching(true)
///     .with_val_order(ValOrder::Split);
/// let r = Solver::new(&m, config)?.first();
/// let s = r.solution.unwrap();
/// assert_eq!(3 * s.value(x) + 2 * s.value(y), 1999);
/// assert!(r.stats.tried < 60); // halving: about log2(1000) levels
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Split;

impl ValueSelector for Split {
    #[inline]
    fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>) {
        out.extend(ctx.domains().values(var));
    }

    fn sweep(&self, _var: VarId) -> Option<Sweep> {
        Some(Sweep::Up)
    }

    fn split(&self, _var: VarId) -> Option<Choice> {
        Some(Choice::LessEqual)
    }

    fn name(&self) -> &str {
        "split"
    }
}

/// Splits the domain in two, upper half first: a binary choice is
/// `x > m | x <= m` (written `x >= m + 1 | x < m + 1`), `m` as for [`Split`]
/// (Gecode's `INT_VAL_SPLIT_MAX`, MiniZinc's `indomain_reverse_split`). Where a
/// node must assign a value it tries them largest first, as
/// [`Descending`](super::Descending) does.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReverseSplit;

impl ValueSelector for ReverseSplit {
    #[inline]
    fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>) {
        let start = out.len();
        out.extend(ctx.domains().values(var));
        out[start..].reverse();
    }

    fn sweep(&self, _var: VarId) -> Option<Sweep> {
        Some(Sweep::Down)
    }

    fn split(&self, _var: VarId) -> Option<Choice> {
        Some(Choice::GreaterEqual)
    }

    fn name(&self) -> &str {
        "reverse-split"
    }
}

/// The split point of a domain `min..=max` (`min < max`): `⌊(min + max) / 2⌋`,
/// computed without overflow. `x <= m` and `x > m` are both non-empty.
#[inline]
pub(crate) fn split_point(min: Value, max: Value) -> Value {
    min + (max - min) / 2
}

#[cfg(test)]
mod tests {
    use super::split_point;

    #[test]
    fn the_split_point_leaves_two_non_empty_halves() {
        for (lo, hi, m) in [(0, 1, 0), (0, 2, 1), (-3, -2, -3), (-3, 4, 0), (-5, -1, -3)] {
            assert_eq!(split_point(lo, hi), m, "{lo}..={hi}");
            assert!(lo <= m && m < hi);
        }
        let (lo, hi) = (i64::MIN / 2, i64::MAX / 2);
        let m = split_point(lo, hi);
        assert!(lo <= m && m < hi);
    }
}
