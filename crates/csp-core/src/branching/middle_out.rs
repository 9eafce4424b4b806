//! `MiddleOut`: the median value first, then alternately above and below it.

use super::{Sweep, ValueContext, ValueSelector};
use crate::{Value, VarId};

/// Tries the median of the current domain first, then its neighbours in the
/// domain alternately (below first): for `0..=7`, `3 4 2 5 1 6 0 7`. Good for
/// N-Queens on large boards, where central columns conflict least.
#[derive(Clone, Copy, Debug, Default)]
pub struct MiddleOut;

impl ValueSelector for MiddleOut {
    fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>) {
        let start = out.len();
        out.extend(ctx.domains().values(var));
        let sorted: Vec<Value> = out[start..].to_vec();
        let n = sorted.len();
        let mid = (n - 1) / 2;
        let mut k = start;
        out[k] = sorted[mid];
        k += 1;
        for step in 1..=n {
            if mid + step < n {
                out[k] = sorted[mid + step];
                k += 1;
            }
            if step <= mid {
                out[k] = sorted[mid - step];
                k += 1;
            }
        }
    }

    /// The search walks the ranks lazily (no list of values per decision).
    fn sweep(&self, _var: VarId) -> Option<Sweep> {
        Some(Sweep::Middle)
    }

    fn name(&self) -> &str {
        "middle"
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Solver, ValOrder};

    #[test]
    fn middle_out_orders_from_the_median_outwards() {
        let mut m = Model::new();
        m.int_var(0..=7).unwrap();
        let mut s =
            Solver::new(&m, Config::textbook().with_val_order(ValOrder::MiddleOut)).unwrap();
        let order: Vec<i64> = s.solutions().map(|sol| sol.values()[0]).collect();
        assert_eq!(order, vec![3, 4, 2, 5, 1, 6, 0, 7]);
    }

    #[test]
    fn the_lazy_walk_matches_the_listed_order_on_a_domain_with_holes() {
        let vals = [-9, -4, 0, 2, 3, 64, 65, 130, 200];
        let mut m = Model::new();
        m.int_var(vals).unwrap();
        let mut s =
            Solver::new(&m, Config::textbook().with_val_order(ValOrder::MiddleOut)).unwrap();
        let walked: Vec<i64> = s.solutions().map(|sol| sol.values()[0]).collect();
        // Ranks 4, 5, 3, 6, 2, 7, 1, 8, 0.
        assert_eq!(walked, vec![3, 64, 2, 65, 0, 130, -4, 200, -9]);
    }
}
