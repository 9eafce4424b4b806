//! `Ascending`: smallest value first.

use super::{Sweep, ValueContext, ValueSelector};
use crate::{Value, VarId};

/// Tries values from the smallest up, like the classic `for (col = 0; col < n; col++)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ascending;

impl ValueSelector for Ascending {
    #[inline]
    fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>) {
        out.extend(ctx.domains().values(var));
    }

    fn sweep(&self, _var: VarId) -> Option<Sweep> {
        Some(Sweep::Up)
    }

    fn name(&self) -> &str {
        "asc"
    }
}
