//! `LeastConstrainingValue`: the value that removes the fewest values elsewhere.

use super::{ValueContext, ValueSelector};
use crate::{Value, VarId};

/// Tries first the value that leaves the most options to the other variables:
/// each value is probed with forward checking and the values it would remove
/// are counted (Russell and Norvig's least-constraining-value). Values that
/// would empty a domain go last; ties keep ascending order.
#[derive(Clone, Debug, Default)]
pub struct LeastConstrainingValue {
    scored: Vec<(u64, Value)>,
}

impl ValueSelector for LeastConstrainingValue {
    fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>) {
        self.scored.clear();
        let values: Vec<Value> = ctx.domains().values(var).collect();
        for v in values {
            // Past a limit the search stops once the order is returned: the
            // values left go last, unprobed.
            let cost = if ctx.should_stop() {
                u64::MAX
            } else {
                ctx.conflicts(var, v).unwrap_or(u64::MAX)
            };
            self.scored.push((cost, v));
        }
        self.scored.sort_unstable();
        out.extend(self.scored.iter().map(|&(_, v)| v));
    }

    fn name(&self) -> &str {
        "lcv"
    }
}
