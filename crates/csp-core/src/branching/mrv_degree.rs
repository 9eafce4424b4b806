//! `MrvDegree`: smallest domain, ties broken by the largest degree.

use super::variable_selector::ranked;
use super::{SearchView, VariableSelector};
use crate::VarId;
use crate::observer::Candidate;

/// Smallest domain first; among equals, the variable constrained with the most
/// undecided variables (Brélaz's rule); then the earliest declared.
#[derive(Clone, Copy, Debug, Default)]
pub struct MrvDegree;

impl VariableSelector for MrvDegree {
    fn select(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        let d = view.domains();
        let mut best: Option<(usize, usize, VarId)> = None;
        for v in view.undecided() {
            let size = d.len(v);
            match best {
                Some((s, _, _)) if size > s => {}
                Some((s, deg, _)) if size == s => {
                    let dv = view.degree(v);
                    if dv > deg {
                        best = Some((size, dv, v));
                    }
                }
                _ => best = Some((size, view.degree(v), v)),
            }
        }
        best.map(|(_, _, v)| v)
    }

    fn candidates(&mut self, view: &SearchView<'_>, limit: usize, out: &mut Vec<Candidate>) {
        // Score: size, minus a fraction that grows with the degree.
        ranked(view, limit, out, |v| {
            view.domains().len(v) as f64 - view.degree(v) as f64 / (1.0 + view.decided.len() as f64)
        });
    }

    fn name(&self) -> &str {
        "mrv-degree"
    }

    fn builtin_order(&self) -> Option<crate::VarOrder> {
        Some(crate::VarOrder::MrvDegree)
    }

    fn reads_afc(&self) -> bool {
        false
    }
}
