//! `Descending`: largest value first.

use super::{Sweep, ValueContext, ValueSelector};
use crate::{Value, VarId};

/// Tries values from the largest down.
#[derive(Clone, Copy, Debug, Default)]
pub struct Descending;

impl ValueSelector for Descending {
    fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>) {
        out.extend(ctx.domains().values(var));
        out.reverse();
    }

    fn sweep(&self, _var: VarId) -> Option<Sweep> {
        Some(Sweep::Down)
    }

    fn name(&self) -> &str {
        "desc"
    }
}
