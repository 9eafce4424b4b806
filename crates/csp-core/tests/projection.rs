//! Enumeration projected on some variables ([`Config::with_projection`])
//! against a brute force: random CSPs (the harness of `random_csps.rs`), a
//! random subset of their variables as the projection, every configuration
//! of the harness. Each projected solution is reported exactly once, each
//! reported solution is a solution, and the search ends complete. A
//! decision list that puts the other variables first exercises the rule
//! that the projection is decided first.

mod common;

use std::collections::BTreeSet;

use common::{every_config, spec_and_model};
use csp_core::{Config, CspError, Model, Pruning, SearchStatus, Solver, Value, VarId};
use proptest::collection::vec;
use proptest::prelude::*;

const MAX_BYTES: usize = 160;

/// The projected solutions `config` reports, checked one by one against
/// the full solutions `expected`.
fn projected_run(
    model: &Model,
    config: Config,
    projection: &[VarId],
    expected: &BTreeSet<Vec<Value>>,
) -> Result<BTreeSet<Vec<Value>>, String> {
    let what = format!("{config:?}");
    let mut solver = Solver::new(model, config.with_projection(projection))
        .map_err(|e| format!("{what}: {e}"))?;
    let mut found = BTreeSet::new();
    while let Some(s) = solver.next_solution() {
        let v = s.into_values();
        if !expected.contains(&v) {
            return Err(format!("{v:?} is not a solution ({what})"));
        }
        let p: Vec<Value> = projection.iter().map(|x| v[x.index()]).collect();
        if !found.insert(p.clone()) {
            return Err(format!("{p:?} reported twice ({what})"));
        }
    }
    if solver.status() != SearchStatus::Complete {
        return Err(format!("ended {} ({what})", solver.status()));
    }
    if solver.stats().solutions != found.len() as u64 {
        return Err(format!(
            "stats count {} solutions for {} ({what})",
            solver.stats().solutions,
            found.len()
        ));
    }
    Ok(found)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn projected_enumerations_report_each_projection_once(
        bytes in vec(any::<u8>(), 0..MAX_BYTES),
        mask in any::<u64>(),
        seed in any::<u64>(),
    ) {
        let (_, model, expected) = spec_and_model(&bytes);
        let n = model.num_vars();
        let projection: Vec<VarId> = (0..n)
            .filter(|i| mask >> (i % 64) & 1 == 1)
            .map(VarId::new)
            .collect();
        let wanted: BTreeSet<Vec<Value>> = expected
            .iter()
            .map(|s| projection.iter().map(|x| s[x.index()]).collect())
            .collect();
        // The other variables listed first: the search must still decide
        // the projection first.
        let others_first: Vec<VarId> = (0..n)
            .map(VarId::new)
            .filter(|v| !projection.contains(v))
            .chain(projection.iter().copied())
            .collect();
        let mut configs = every_config(seed);
        for pruning in Pruning::ALL {
            let c = Config::textbook().with_pruning(pruning).with_decision_vars(&others_first);
            if pruning == Pruning::Propagators {
                configs.push(c.clone().with_binary_branching(true));
            }
            configs.push(c);
        }
        configs.push(Config::default());
        for config in configs {
            let found = projected_run(&model, config, &projection, &expected);
            prop_assert_eq!(found.as_ref(), Ok(&wanted), "projection {:?}", projection);
        }
    }
}

#[test]
fn a_half_reified_boolean_does_not_repeat_solutions() {
    // x < y < z over 1..=4 (4 solutions) and, for each pair, r -> (x + 1 = y):
    // free r's multiply the full solutions.
    let mut m = Model::new();
    let x = m.int_var_array("x", 3, 1..=4).unwrap();
    m.less_than(x[0], x[1]).unwrap();
    m.less_than(x[1], x[2]).unwrap();
    let mut rs = Vec::new();
    for i in 0..2 {
        let r = m.bool_var();
        m.linear_imp(&[1, -1], &[x[i], x[i + 1]], csp_core::Relation::Eq, -1, r)
            .unwrap();
        rs.push(r);
    }
    let full = Solver::new(&m, Config::default()).unwrap().count();
    assert!(full.solutions > 4, "{}", full.solutions);
    for config in [
        Config::default(),
        Config::textbook(),
        Config::textbook().with_pruning(Pruning::ForwardChecking),
    ] {
        let mut s = Solver::new(&m, config.with_projection(&x)).unwrap();
        let count = s.count();
        assert_eq!(count.solutions, 4);
        assert_eq!(count.status, SearchStatus::Complete);
    }
    // Projected on the Booleans too: every full solution.
    let all: Vec<VarId> = x.iter().chain(&rs).copied().collect();
    let mut s = Solver::new(&m, Config::default().with_projection(&all)).unwrap();
    assert_eq!(s.count().solutions, full.solutions);
}

/// `x < y` over `1..=3` and a Boolean `r` with `r -> (x + 1 = y)`: three
/// solutions `(x, y)`, five with `r`.
fn pairs_with_r() -> (Model, VarId, VarId, VarId) {
    let mut m = Model::new();
    let x = m.int_var(1..=3).unwrap();
    let y = m.int_var(1..=3).unwrap();
    let r = m.bool_var();
    m.less_than(x, y).unwrap();
    m.linear_imp(&[1, -1], &[x, y], csp_core::Relation::Eq, -1, r)
        .unwrap();
    (m, x, y, r)
}

#[test]
fn branch_and_bound_ignores_the_projection() {
    // maximise r: the optimum needs r = 1.
    let (m, x, y, r) = pairs_with_r();
    let config = Config::default().with_projection(&[x, y]);
    let mut s = Solver::new(&m, config).unwrap();
    let best = s.optimize(r, csp_core::Goal::Maximize).unwrap();
    assert_eq!(best.objective, Some(1));
    assert_eq!(best.status, SearchStatus::Complete);
}

#[test]
fn misuse_is_an_error() {
    let mut m = Model::new();
    let x = m.int_var(1..=3).unwrap();
    let e = Solver::new(&m, Config::default().with_projection(&[VarId::new(5)]));
    assert!(e.is_err());
    let config = Config::textbook().with_projection(&[x]);
    let e = csp_core::parallel::split(&m, &config, 1).unwrap_err();
    assert!(matches!(e, CspError::InvalidArgument { .. }), "{e}");
    assert!(e.to_string().contains("projection"), "{e}");
}

#[test]
fn a_split_covers_every_solution_whatever_the_projection() {
    // Paths at depth 3 reach the solutions, r included.
    let (m, x, y, _) = pairs_with_r();
    let plain = Solver::new(&m, Config::textbook()).unwrap().split(3);
    let mut s = Solver::new(&m, Config::textbook().with_projection(&[x, y])).unwrap();
    assert_eq!(s.split(3), plain);
    assert_eq!(plain.len(), 5);
}
