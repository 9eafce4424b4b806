//! `FirstFail`: the undecided variable with the fewest values left (MRV).

use super::variable_selector::ranked;
use super::{SearchView, VariableSelector};
use crate::VarId;
use crate::observer::Candidate;

/// Chooses the undecided variable with the smallest domain ("minimum remaining
/// values", "fail first"); ties go to the earliest declared.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstFail;

impl VariableSelector for FirstFail {
    fn select(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        let d = view.domains();
        let mut best: Option<(usize, VarId)> = None;
        for v in view.undecided() {
            let size = d.len(v);
            if best.is_none_or(|(s, _)| size < s) {
                best = Some((size, v));
                if size <= view.least_open_size() {
                    break;
                }
            }
        }
        best.map(|(_, v)| v)
    }

    fn candidates(&mut self, view: &SearchView<'_>, limit: usize, out: &mut Vec<Candidate>) {
        ranked(view, limit, out, |v| view.domains().len(v) as f64);
    }

    fn name(&self) -> &str {
        "first-fail"
    }

    fn builtin_order(&self) -> Option<crate::VarOrder> {
        Some(crate::VarOrder::FirstFail)
    }

    fn reads_afc(&self) -> bool {
        false
    }
}
