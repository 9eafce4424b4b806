//! The positions the kernel lists between two calls of a constraint
//! (`StateLayout::woken`, `PropagationContext::take_woken`): a constraint
//! that keeps the size of each variable of its scope in trailed state, and
//! updates only the listed positions, must find every other position
//! unchanged at each call, whatever the search does in between (binary
//! choices, failures, restarts, branch and bound, a variable twice in the
//! scope, views of one base).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use csp_core::*;

/// Keeps `|D(vars[p])|` in trailed integer `p` from the listed positions
/// alone and checks the others against the domains; changes nothing.
struct Sizes {
    vars: Vec<VarId>,
    /// Calls, calls told to look at everything, and positions listed.
    calls: Arc<[AtomicU64; 3]>,
}

impl Constraint for Sizes {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, _: &[Value]) -> bool {
        true
    }

    fn name(&self) -> &str {
        "sizes"
    }

    fn state_layout(&self, pruning: Pruning) -> StateLayout {
        let layout = (0..self.vars.len()).fold(StateLayout::new(), |l, _| l.int(-1));
        match pruning {
            Pruning::Propagators => layout.woken(),
            _ => layout,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        self.calls[0].fetch_add(1, Ordering::Relaxed);
        let n = self.vars.len();
        let mut listed = vec![false; n];
        match ctx.take_woken() {
            None => {
                self.calls[1].fetch_add(1, Ordering::Relaxed);
                listed.iter_mut().for_each(|l| *l = true);
            }
            Some(at) => {
                self.calls[2].fetch_add(at.len() as u64, Ordering::Relaxed);
                for &p in at.iter() {
                    let p = p as usize;
                    assert!(p < n, "position {p} is past the scope");
                    // A variable twice in the scope is listed at its first
                    // position: the others share its changes.
                    for (q, l) in listed.iter_mut().enumerate() {
                        if self.vars[q] == self.vars[p] {
                            *l = true;
                        }
                    }
                }
            }
        }
        for (p, &x) in self.vars.iter().enumerate() {
            let size = ctx.domains().len(x) as i64;
            if listed[p] {
                if ctx.state_int(p) != size {
                    ctx.set_state_int(p, size);
                }
            } else {
                assert_eq!(
                    ctx.state_int(p),
                    size,
                    "position {p} changed since the last call and is not listed"
                );
            }
        }
        Ok(PropStatus::Unchanged)
    }
}

/// A small scheduling-like model: all different, sums, an order, with the
/// spy over some of the variables, one of them twice and two views.
fn model(seed: u64, spy: &Arc<[AtomicU64; 3]>) -> (Model, VarId) {
    let mut m = Model::new();
    let xs = m.int_var_array("x", 7, 0..=8).unwrap();
    let cost = m.int_var(0..=60).unwrap();
    let plus = m.offset_view(xs[1], 3).unwrap();
    let scaled = m.view(xs[2], -2, 1).unwrap();
    m.all_different(&xs[..5]).unwrap();
    let k = (seed % 5) as Value;
    m.linear(&[1, 2, -1], &[xs[0], xs[3], xs[5]], Relation::Le, 6 + k)
        .unwrap();
    m.linear(
        &[1, 1, 1, -1],
        &[xs[4], xs[5], xs[6], cost],
        Relation::Eq,
        0,
    )
    .unwrap();
    m.linear(&[1, -1], &[xs[6], plus], Relation::Ne, k).unwrap();
    m.linear(&[1, 1], &[scaled, xs[0]], Relation::Ge, -12)
        .unwrap();
    let mut watched = vec![xs[0], xs[2], xs[0], plus, scaled, xs[5], cost];
    watched.rotate_left((seed % 7) as usize);
    m.post(Sizes {
        vars: watched,
        calls: spy.clone(),
    })
    .unwrap();
    (m, cost)
}

#[test]
fn every_change_between_two_calls_is_listed() {
    let mut listed_calls = 0;
    for seed in 0..8u64 {
        let spy: Arc<[AtomicU64; 3]> = Arc::default();
        let (m, cost) = model(seed, &spy);
        let base = Config::textbook()
            .with_pruning(Pruning::Propagators)
            .with_binary_branching(seed % 2 == 0)
            .with_var_order(VarOrder::Random(seed));
        // Counting (every failure and backtrack), restarts, and branch and
        // bound with a bound that tightens between solutions.
        let count = Solver::new(&m, base.clone()).unwrap().count();
        assert!(count.is_complete());
        let restarted = Solver::new(
            &m,
            base.clone()
                .with_binary_branching(true)
                .with_restarts(Restarts::Luby { scale: 1 }),
        )
        .unwrap()
        .count();
        assert_eq!(restarted.solutions, count.solutions, "seed {seed}");
        let best = Solver::new(&m, base).unwrap().minimize(cost).unwrap();
        assert_eq!(best.status, SearchStatus::Complete, "seed {seed}");
        let [calls, all, positions] = &*spy;
        let (calls, all) = (calls.load(Ordering::Relaxed), all.load(Ordering::Relaxed));
        assert!(calls > all, "seed {seed}: the lists were never used");
        assert!(positions.load(Ordering::Relaxed) > 0, "seed {seed}");
        listed_calls += calls - all;
    }
    assert!(listed_calls > 1_000);
}
