//! Helpers shared by the integration tests.
#![allow(dead_code)]

use csp_core::{Config, Model, Pruning, Solver};

/// The pruning levels every known answer is checked under (generate-and-test is
/// too slow for most models; the cheap models add it themselves).
pub const LEVELS: [Pruning; 3] = [
    Pruning::Check,
    Pruning::ForwardChecking,
    Pruning::Propagators,
];

/// The exact number of solutions of `model` under `pruning`.
pub fn count(model: &Model, pruning: Pruning) -> u64 {
    let mut s = Solver::new(model, Config::textbook().with_pruning(pruning)).unwrap();
    let r = s.count();
    assert!(r.is_complete(), "count under {pruning} did not finish");
    r.solutions
}
