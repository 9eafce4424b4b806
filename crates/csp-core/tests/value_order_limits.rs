//! A limit reached while the value order probes values (least-constraining
//! value, issue 29): the search stops within a few probes, not after
//! scoring every value of the node.
//!
//! Deterministic: a constraint sets the cancel flag the first time a probe
//! wakes it, so no test depends on the machine's speed.

use csp_core::{
    CancelFlag, Config, Constraint, Model, PropStatus, Propagation, PropagationContext, Pruning,
    SearchStatus, Solver, StopReason, ValOrder, Value, VarId, VarOrder,
};

/// Holds always; sets `flag` the first time forward checking wakes it (a
/// probe of the value order, or a decision).
struct CancelWhenWoken {
    scope: [VarId; 2],
    flag: CancelFlag,
}

impl Constraint for CancelWhenWoken {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn check(&self, _: &[Value]) -> bool {
        true
    }
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if ctx.trigger().is_some() {
            self.flag.cancel();
        }
        Ok(PropStatus::Unchanged)
    }
}

/// `n` variables over `0..n`, pairwise different (one constraint a pair), and
/// the canceller on the first two: probing one value of the first variable
/// wakes `n` constraints, scoring all its values `n * n`.
fn model(n: usize, flag: &CancelFlag) -> Model {
    let mut m = Model::new();
    let x = m.int_var_array("x", n, 0..=(n as Value - 1)).unwrap();
    m.post(CancelWhenWoken {
        scope: [x[0], x[1]],
        flag: flag.clone(),
    })
    .unwrap();
    for i in 0..n {
        for j in i + 1..n {
            m.not_equal(x[i], x[j]).unwrap();
        }
    }
    m
}

#[test]
fn a_cancel_during_lcv_scoring_stops_within_a_few_probes() {
    let n = 300;
    let flag = CancelFlag::new();
    let m = model(n, &flag);
    let config = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_var_order(VarOrder::Input)
        .with_val_order(ValOrder::LeastConstraining)
        .with_cancel_flag(flag.clone());
    let mut solver = Solver::new(&m, config).unwrap();
    let result = solver.first();
    assert_eq!(
        solver.status(),
        SearchStatus::Stopped(StopReason::Cancelled)
    );
    assert!(result.solution.is_none());
    // Stopped before the first node was tried, and after at most a few
    // polls' worth of probing propagations (64 a clock reading) past the
    // root's (one a constraint), not after the n * n = 90,000 that scoring
    // every value of x0 takes.
    assert_eq!(result.stats.tried, 0);
    let probing = result.stats.propagations - m.num_constraints() as u64;
    assert!(probing < 1_000, "{probing} probing propagations");
}

#[test]
fn a_custom_order_may_ask_should_stop() {
    use csp_core::{ValueContext, ValueSelector};

    /// Probes every value unless told to stop.
    struct Probing {
        probed: usize,
    }
    impl ValueSelector for Probing {
        fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>) {
            let values: Vec<Value> = ctx.domains().values(var).collect();
            for &v in &values {
                if !ctx.should_stop() {
                    self.probed += 1;
                    let _ = ctx.conflicts(var, v);
                }
            }
            out.extend(values);
        }
        fn name(&self) -> &str {
            "probing"
        }
    }

    let n = 300;
    let flag = CancelFlag::new();
    let m = model(n, &flag);
    let config = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_cancel_flag(flag.clone());
    let mut solver = Solver::with_selectors(
        &m,
        config,
        csp_core::branching::InputOrder,
        Probing { probed: 0 },
        csp_core::NoObserver,
    )
    .unwrap();
    let result = solver.first();
    assert_eq!(
        solver.status(),
        SearchStatus::Stopped(StopReason::Cancelled)
    );
    assert_eq!(result.stats.tried, 0);
    let probing = result.stats.propagations - m.num_constraints() as u64;
    assert!(probing < 1_000, "{probing} probing propagations");
}

#[test]
fn without_a_limit_lcv_still_scores_every_value() {
    // The polls change nothing when no limit is set: the same first solution
    // as before the polls (4-queens-like all-different, lcv picks values
    // removing the fewest, ties ascending).
    let flag = CancelFlag::new();
    let mut m = Model::new();
    let x = m.int_var_array("x", 4, 0..=3).unwrap();
    for i in 0..4 {
        for j in i + 1..4 {
            m.not_equal(x[i], x[j]).unwrap();
        }
    }
    let config = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_val_order(ValOrder::LeastConstraining)
        .with_cancel_flag(flag);
    let mut solver = Solver::new(&m, config).unwrap();
    let count = solver.count();
    assert_eq!(solver.status(), SearchStatus::Complete);
    assert_eq!(count.solutions, 24);
}
