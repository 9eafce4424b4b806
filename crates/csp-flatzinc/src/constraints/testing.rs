//! Test harness: a model's solutions at every pruning level equal those of brute-force enumeration.

use csp_core::{Config, Model, Pruning, Solver, Value, VarOrder};

/// Every assignment of the declared domains that satisfies every constraint.
fn brute_force(model: &Model) -> Vec<Vec<Value>> {
    let domains: Vec<Vec<Value>> = model
        .vars()
        .map(|v| model.domain(v).unwrap().values())
        .collect();
    let mut out = Vec::new();
    let mut index = vec![0usize; domains.len()];
    'tuples: loop {
        let values: Vec<Value> = index.iter().zip(&domains).map(|(&i, d)| d[i]).collect();
        if model.is_solution(&values) {
            out.push(values);
        }
        for k in (0..domains.len()).rev() {
            index[k] += 1;
            if index[k] < domains[k].len() {
                continue 'tuples;
            }
            index[k] = 0;
        }
        return out;
    }
}

/// Asserts that the solver finds exactly the brute-force solutions at every pruning
/// level and with two variable orders, so propagation never loses a solution and
/// never lets a non-solution through.
pub(crate) fn agrees_with_brute_force(model: &Model) {
    let expected = brute_force(model);
    for pruning in Pruning::ALL {
        for order in [VarOrder::Input, VarOrder::FirstFail] {
            let config = Config::textbook()
                .with_pruning(pruning)
                .with_var_order(order);
            let mut solver = Solver::new(model, config).unwrap();
            let mut found: Vec<Vec<Value>> = solver.solutions().map(|s| s.into_values()).collect();
            found.sort();
            assert!(solver.status().is_complete());
            assert_eq!(found, expected, "pruning {pruning}, order {order}");
        }
    }
}
