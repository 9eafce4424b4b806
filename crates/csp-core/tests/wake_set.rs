//! Wake sets (`Constraint::wake_set`): a cleared position no longer wakes the
//! constraint at the propagators level, backtracking sets it again, and a set
//! that does not fit the layout is an error.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use csp_core::*;

/// `vars[0] != vars[1]`, watching also `vars[2..]` (which it ignores); its
/// wake set starts full and loses positions `2..` on the first call. It counts
/// its calls.
struct Watcher {
    vars: Vec<VarId>,
    set_len: usize,
    set: usize,
    calls: Arc<AtomicU64>,
}

impl Constraint for Watcher {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[Value]) -> bool {
        values[0] != values[1]
    }

    fn name(&self) -> &str {
        "watcher"
    }

    fn state_layout(&self, _: Pruning) -> StateLayout {
        StateLayout::new().bits(self.set_len, true)
    }

    fn wake_set(&self) -> Option<usize> {
        Some(self.set)
    }

    /// One call reaches its fixpoint: its own removals do not wake it.
    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        self.calls.fetch_add(1, Ordering::Relaxed);
        for pos in 2..self.vars.len() {
            ctx.clear_state_bit(0, pos);
        }
        let mut changed = false;
        for (a, b) in [(0, 1), (1, 0)] {
            if let Some(v) = ctx.value(self.vars[a]) {
                changed |= ctx.remove(self.vars[b], v)?;
            }
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

fn model(set_len: usize, set: usize) -> (Model, Vec<VarId>, Arc<AtomicU64>) {
    let mut m = Model::new();
    let xs = m.int_var_array("x", 4, 0..=2).unwrap();
    let calls = Arc::new(AtomicU64::new(0));
    m.post(Watcher {
        vars: xs.clone(),
        set_len,
        set,
        calls: calls.clone(),
    })
    .unwrap();
    (m, xs, calls)
}

#[test]
fn a_cleared_position_does_not_wake_the_constraint() {
    let (m, xs, calls) = model(4, 0);
    let config = Config::textbook().with_pruning(Pruning::Propagators);
    let mut s = Solver::new(&m, config).unwrap();
    // The root call clears positions 2 and 3.
    assert_eq!(calls.load(Ordering::Relaxed), 1);
    assert!(s.assume(&[(xs[2], 0), (xs[3], 1)]).unwrap());
    assert_eq!(calls.load(Ordering::Relaxed), 1);
    assert!(s.assume(&[(xs[0], 2)]).unwrap());
    assert_eq!(calls.load(Ordering::Relaxed), 2);
    assert_eq!(s.domains().values(xs[1]).collect::<Vec<_>>(), vec![0, 1]);
    // Every solution still found: 3 * 2 for the pair, 3 * 3 for the others.
    let (m, _, _) = model(4, 0);
    for pruning in Pruning::ALL {
        let config = Config::textbook().with_pruning(pruning);
        assert_eq!(Solver::new(&m, config).unwrap().count().solutions, 54);
    }
}

#[test]
fn without_the_set_every_change_wakes_it() {
    // The textbook levels ignore wake sets: arc consistency revises on every change.
    let (m, xs, calls) = model(4, 0);
    let config = Config::textbook().with_pruning(Pruning::ArcConsistency);
    let mut s = Solver::new(&m, config).unwrap();
    let before = calls.load(Ordering::Relaxed);
    assert!(s.assume(&[(xs[2], 0)]).unwrap());
    assert!(calls.load(Ordering::Relaxed) > before);
}

#[test]
fn a_set_that_does_not_fit_the_layout_is_an_error() {
    for (set_len, set) in [(3, 0), (5, 0), (4, 1)] {
        let (m, _, _) = model(set_len, set);
        let config = Config::textbook().with_pruning(Pruning::Propagators);
        let e = Solver::new(&m, config).err().expect("accepted");
        assert!(e.to_string().contains("wake set"), "{e}");
        // Below the propagators level the set is not used.
        let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
        assert!(Solver::new(&m, config).is_ok());
    }
}
