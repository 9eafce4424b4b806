//! The search phases as csp-core heuristics: a `VariableSelector` and a `ValueSelector` that follow the annotations.

use csp_core::branching::{AnyValueSelector, AnyVariableSelector, Sweep};
use csp_core::{Choice, Domains, VariableSelector};
use csp_core::{SearchView, ValOrder, Value, ValueContext, ValueSelector, VarId, VarOrder};

use crate::strategy::{Phase, VarChoice};

/// Decides the variables of each phase in turn, each phase with its own choice;
/// then every other variable with the fallback order (the `--var` option).
///
/// Every variable must be decided for csp-core to report a solution, so variables
/// no annotation mentions are decided last rather than never.
#[derive(Clone, Debug)]
pub struct PhasedVariables {
    phases: Vec<(Vec<VarId>, VarChoice)>,
    rest: AnyVariableSelector,
}

impl PhasedVariables {
    /// Follows `phases`, then `rest`.
    pub fn new(phases: &[Phase], rest: VarOrder) -> Self {
        PhasedVariables {
            phases: phases
                .iter()
                .map(|p| (p.vars.clone(), p.var_choice))
                .collect(),
            rest: rest.selector(),
        }
    }
}

impl VariableSelector for PhasedVariables {
    fn select(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        for (vars, choice) in &self.phases {
            if let Some(v) = pick(*choice, vars, view) {
                return Some(v);
            }
        }
        self.rest.select(view)
    }

    fn name(&self) -> &str {
        "annotated"
    }

    /// The phases choose by their own rules; the variables they leave out
    /// follow `rest`, which may read the failure counts.
    fn reads_afc(&self) -> bool {
        self.rest.reads_afc()
    }

    /// Without phases this is `rest`: its order, kept incrementally.
    fn builtin_order(&self) -> Option<VarOrder> {
        match self.phases.is_empty() {
            true => self.rest.builtin_order(),
            false => None,
        }
    }
}

/// The best undecided variable of `vars` for `choice` (ties: the earliest).
fn pick(choice: VarChoice, vars: &[VarId], view: &SearchView<'_>) -> Option<VarId> {
    let d = view.domains();
    let mut open = vars.iter().copied().filter(|&v| !view.is_decided(v));
    if choice == VarChoice::InputOrder {
        return open.next();
    }
    if choice == VarChoice::FirstFail {
        // The commonest annotation, on every node: sizes compared as they
        // are kept, without the general key.
        // No undecided variable is smaller than `least`: the first one
        // this small wins (ties go to the earliest).
        let least = view.least_open_size();
        let mut best: Option<(usize, VarId)> = None;
        for v in open {
            let size = d.len(v);
            if best.is_none_or(|(bs, _)| size < bs) {
                best = Some((size, v));
                if size <= least {
                    break;
                }
            }
        }
        return best.map(|(_, v)| v);
    }
    if choice == VarChoice::DomWDeg {
        // size / w < best_size / best_w, compared without division.
        let mut best: Option<(u128, u128, VarId)> = None;
        for v in open {
            let size = d.len(v) as u128;
            let w = u128::from(view.weighted_degree(v).max(1));
            if best.is_none_or(|(bs, bw, _)| size * bw < bs * w) {
                best = Some((size, w, v));
            }
        }
        return best.map(|(_, _, v)| v);
    }
    // Lower keys are better.
    let key = |v: VarId| -> (i128, i128) {
        let size = d.len(v) as i128;
        match choice {
            VarChoice::FirstFail => (size, 0),
            VarChoice::AntiFirstFail => (-size, 0),
            VarChoice::Smallest => (i128::from(d.min(v)), 0),
            VarChoice::Largest => (-i128::from(d.max(v)), 0),
            VarChoice::Occurrence => (-(view.degree(v) as i128), 0),
            VarChoice::MostConstrained => (size, -(view.degree(v) as i128)),
            VarChoice::MaxRegret => (-regret(d, v), 0),
            VarChoice::InputOrder | VarChoice::DomWDeg => (0, 0),
        }
    };
    let mut best: Option<((i128, i128), VarId)> = None;
    for v in open {
        let k = key(v);
        if best.is_none_or(|(bk, _)| k < bk) {
            best = Some((k, v));
        }
    }
    best.map(|(_, v)| v)
}

/// The gap between the two smallest values left (0 for a fixed variable).
fn regret(d: &Domains, v: VarId) -> i128 {
    let min = d.min(v);
    d.next_value(v, min)
        .map_or(0, |next| i128::from(next) - i128::from(min))
}

/// Orders each variable's values by the value choice of the first phase that
/// lists it, and the others by the fallback order (the `--val` option).
#[derive(Clone, Debug)]
pub struct PhasedValues {
    /// Per variable index: the phase whose order applies, if any.
    phase_of: Vec<Option<usize>>,
    orders: Vec<AnyValueSelector>,
    rest: AnyValueSelector,
}

impl PhasedValues {
    /// For a model of `num_vars` variables: `phases`, then `rest`; `seed` seeds
    /// `indomain_random`.
    pub fn new(num_vars: usize, phases: &[Phase], rest: ValOrder, seed: u64) -> Self {
        let mut phase_of = vec![None; num_vars];
        for (k, phase) in phases.iter().enumerate() {
            for v in &phase.vars {
                if let Some(slot @ None) = phase_of.get_mut(v.index()) {
                    *slot = Some(k);
                }
            }
        }
        PhasedValues {
            phase_of,
            orders: phases
                .iter()
                .enumerate()
                .map(|(k, p)| p.val_choice.order(seed.wrapping_add(k as u64)).selector())
                .collect(),
            rest: rest.selector(),
        }
    }
}

impl ValueSelector for PhasedValues {
    fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>) {
        let phase = self.phase_of.get(var.index()).copied().flatten();
        match phase.and_then(|k| self.orders.get_mut(k)) {
            Some(order) => order.order(var, ctx, out),
            None => self.rest.order(var, ctx, out),
        }
    }

    fn sweep(&self, var: VarId) -> Option<Sweep> {
        let phase = self.phase_of.get(var.index()).copied().flatten();
        match phase.and_then(|k| self.orders.get(k)) {
            Some(order) => order.sweep(var),
            None => self.rest.sweep(var),
        }
    }

    fn split(&self, var: VarId) -> Option<Choice> {
        let phase = self.phase_of.get(var.index()).copied().flatten();
        match phase.and_then(|k| self.orders.get(k)) {
            Some(order) => order.split(var),
            None => self.rest.split(var),
        }
    }

    fn name(&self) -> &str {
        "annotated"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::ValChoice;
    use csp_core::{Config, Model, NoObserver, Solver};

    /// The order in which a search with these phases assigns (var, value) first.
    fn first_path(phases: &[Phase], m: &Model) -> Vec<Value> {
        let vars = PhasedVariables::new(phases, VarOrder::Input);
        let vals = PhasedValues::new(m.num_vars(), phases, ValOrder::Ascending, 0);
        let mut s = Solver::with_selectors(m, Config::textbook(), vars, vals, NoObserver).unwrap();
        s.first().solution.unwrap().into_values()
    }

    #[test]
    fn value_choice_of_the_phase_applies_to_its_variables_only() {
        let mut m = Model::new();
        let _a = m.int_var(1..=3).unwrap();
        let b = m.int_var(1..=3).unwrap();
        let c = m.int_var(1..=3).unwrap();
        let phases = [
            Phase {
                vars: vec![b],
                var_choice: VarChoice::InputOrder,
                val_choice: ValChoice::Max,
            },
            Phase {
                vars: vec![c],
                var_choice: VarChoice::InputOrder,
                val_choice: ValChoice::Median,
            },
        ];
        assert_eq!(first_path(&phases, &m), vec![1, 3, 2]);
    }

    #[test]
    fn min_max_and_median_phases_walk_the_domain_instead_of_listing_it() {
        let mut m = Model::new();
        let a = m.int_var(0..=(1 << 24) - 1).unwrap();
        let b = m.int_var(0..=(1 << 24) - 1).unwrap();
        let c = m.int_var(1..=3).unwrap();
        let phase = |v, val_choice| Phase {
            vars: vec![v],
            var_choice: VarChoice::InputOrder,
            val_choice,
        };
        let phases = [
            phase(a, ValChoice::Min),
            phase(b, ValChoice::Max),
            phase(c, ValChoice::Median),
        ];
        let vals = PhasedValues::new(m.num_vars(), &phases, ValOrder::Ascending, 0);
        assert_eq!(vals.sweep(a), Some(Sweep::Up));
        assert_eq!(vals.sweep(b), Some(Sweep::Down));
        // indomain_median walks the ranks lazily too.
        assert_eq!(vals.sweep(c), Some(Sweep::Middle));
        // Two 2^24-wide domains searched without listing their values.
        assert_eq!(first_path(&phases, &m), vec![0, (1 << 24) - 1, 2]);
    }

    #[test]
    fn variable_choices_pick_as_named() {
        let mut m = Model::new();
        let wide = m.int_var(0..=9).unwrap();
        let narrow = m.int_var(5..=6).unwrap();
        let low = m.int_var(-3..=8).unwrap();
        let vars = [wide, narrow, low];
        let mut order = Vec::new();
        for (choice, expected) in [
            (VarChoice::InputOrder, wide),
            (VarChoice::FirstFail, narrow),
            (VarChoice::AntiFirstFail, low),
            (VarChoice::Smallest, low),
            (VarChoice::Largest, wide),
            (VarChoice::MaxRegret, wide),
        ] {
            let phases = [Phase {
                vars: vars.to_vec(),
                var_choice: choice,
                val_choice: ValChoice::Min,
            }];
            let selector = PhasedVariables::new(&phases, VarOrder::Input);
            let values = PhasedValues::new(m.num_vars(), &phases, ValOrder::Ascending, 0);
            let recorder = FirstDecision::default();
            let mut s =
                Solver::with_selectors(&m, Config::textbook(), selector, values, recorder).unwrap();
            s.first();
            order.push((choice, s.observer().0 == Some(expected)));
        }
        assert!(order.iter().all(|(_, ok)| *ok), "{order:?}");
    }

    /// Records the first variable the search decides.
    #[derive(Default)]
    struct FirstDecision(Option<VarId>);

    impl csp_core::SearchObserver for FirstDecision {
        fn wants_details(&self) -> bool {
            false
        }
        fn on_try(&mut self, node: &csp_core::Node) {
            self.0.get_or_insert(node.var);
        }
    }
}
