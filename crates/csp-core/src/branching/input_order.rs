//! `InputOrder`: the first undecided variable in declaration order.

use super::variable_selector::ranked;
use super::{SearchView, VariableSelector};
use crate::VarId;
use crate::observer::Candidate;

/// Decides variables in the order they were declared, like the classic programs
/// that place one queen per row, top to bottom.
#[derive(Clone, Copy, Debug, Default)]
pub struct InputOrder;

impl VariableSelector for InputOrder {
    #[inline]
    fn select(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        match view.decision {
            // The textbook levels: the first variable not decided.
            None if !view.skip_fixed => view.decided.iter().position(|d| !d).map(VarId::new),
            // Otherwise variables fixed by propagation count as decided too.
            _ => view.undecided().next(),
        }
    }

    fn candidates(&mut self, view: &SearchView<'_>, limit: usize, out: &mut Vec<Candidate>) {
        ranked(view, limit, out, |v| v.index() as f64);
    }

    fn name(&self) -> &str {
        "input"
    }

    fn builtin_order(&self) -> Option<crate::VarOrder> {
        Some(crate::VarOrder::Input)
    }

    fn reads_afc(&self) -> bool {
        false
    }
}
