//! `DomOverWdeg`: smallest ratio of domain size to weighted degree.

use super::variable_selector::ranked;
use super::{SearchView, VariableSelector};
use crate::VarId;
use crate::observer::Candidate;

/// Boussemart et al.'s dom/wdeg (2004): each constraint weighs 1 plus the number
/// of conflicts it has caused; the variable with the smallest
/// `domain size / sum of weights of its live constraints` goes first (ties: the
/// earliest declared). Learns from failures, so it shines on structured problems.
#[derive(Clone, Copy, Debug, Default)]
pub struct DomOverWdeg;

impl VariableSelector for DomOverWdeg {
    fn select(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        let d = view.domains();
        let mut best: Option<(u128, u128, VarId)> = None;
        for v in view.undecided() {
            let size = d.len(v) as u128;
            let w = view.weighted_degree(v).max(1) as u128;
            // size / w < best_size / best_w  <=>  size * best_w < best_size * w
            if best.is_none_or(|(bs, bw, _)| size * bw < bs * w) {
                best = Some((size, w, v));
            }
        }
        best.map(|(_, _, v)| v)
    }

    fn candidates(&mut self, view: &SearchView<'_>, limit: usize, out: &mut Vec<Candidate>) {
        ranked(view, limit, out, |v| {
            view.domains().len(v) as f64 / view.weighted_degree(v).max(1) as f64
        });
    }

    fn name(&self) -> &str {
        "dom-wdeg"
    }

    fn builtin_order(&self) -> Option<crate::VarOrder> {
        Some(crate::VarOrder::DomOverWdeg)
    }

    fn reads_afc(&self) -> bool {
        false
    }
}
