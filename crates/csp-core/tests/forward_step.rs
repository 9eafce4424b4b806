//! A constraint's forward-checking step given as data
//! (`Constraint::forward_step`): the engine runs it instead of calling
//! `propagate`, with the same tree and counts, and refuses a step that does
//! not fit the constraint's layout.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use csp_core::*;

/// `vars[i] + offsets[i]` pairwise different, written as a user would: forward
/// checking through `forward_check_shifted`, a plain check elsewhere. It
/// counts its triggered `propagate` calls.
struct Shifted {
    vars: Vec<VarId>,
    offsets: Vec<Value>,
    /// Whether to declare the forward step, and which one.
    step: Option<ForwardStep>,
    /// The shifted list's variables (the scope unless a test breaks it).
    list_vars: Vec<VarId>,
    /// The bit set's length (the scope's unless a test breaks it).
    set_len: usize,
    calls: Arc<AtomicU64>,
}

impl Shifted {
    fn new(vars: &[VarId], offsets: &[Value], step: bool) -> Self {
        Shifted {
            vars: vars.to_vec(),
            offsets: offsets.to_vec(),
            step: step.then_some(ForwardStep { list: 0, set: 0 }),
            list_vars: vars.to_vec(),
            set_len: vars.len(),
            calls: Arc::default(),
        }
    }
}

impl Constraint for Shifted {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[Value]) -> bool {
        let mut s: Vec<Value> = values
            .iter()
            .zip(&self.offsets)
            .map(|(v, o)| v + o)
            .collect();
        s.sort_unstable();
        s.windows(2).all(|w| w[0] != w[1])
    }

    fn name(&self) -> &str {
        "shifted"
    }

    fn state_layout(&self, _: Pruning) -> StateLayout {
        StateLayout::new()
            .bits(self.set_len, true)
            .shifted(&self.list_vars, &self.offsets)
    }

    fn forward_step(&self) -> Option<ForwardStep> {
        self.step
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if ctx.pruning() == Pruning::ForwardChecking
            && let Some((x, i)) = ctx.trigger()
            && let Some(v) = ctx.value(x)
        {
            self.calls.fetch_add(1, Ordering::Relaxed);
            let changed = ctx.forward_check_shifted(0, 0, i, v + self.offsets[i])?;
            return Ok(if changed {
                PropStatus::Changed
            } else {
                PropStatus::Unchanged
            });
        }
        // Elsewhere: every fixed value leaves the others.
        let mut changed = false;
        for (i, &x) in self.vars.iter().enumerate() {
            if let Some(v) = ctx.value(x) {
                for (j, &y) in self.vars.iter().enumerate() {
                    if j != i {
                        changed |= ctx.remove(y, v + self.offsets[i] - self.offsets[j])?;
                    }
                }
            }
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

/// N-Queens with three `Shifted` constraints; the counter of triggered calls.
fn queens(n: usize, step: bool) -> (Model, Arc<AtomicU64>) {
    let mut m = Model::new();
    let q = m.int_var_array("q", n, 0..=n as Value - 1).unwrap();
    let calls = Arc::new(AtomicU64::new(0));
    let up: Vec<Value> = (0..n as Value).collect();
    let down: Vec<Value> = (0..n as Value).map(|i| -i).collect();
    for offsets in [vec![0; n], up, down] {
        let mut c = Shifted::new(&q, &offsets, step);
        c.calls = calls.clone();
        m.post(c).unwrap();
    }
    (m, calls)
}

fn untimed(mut stats: SearchStats) -> SearchStats {
    stats.elapsed = Duration::ZERO;
    stats
}

#[test]
fn the_engine_runs_the_step_with_the_same_tree_and_counts() {
    for n in 1..=8 {
        for var in [VarOrder::Input, VarOrder::FirstFail, VarOrder::DomOverWdeg] {
            let config = Config::textbook()
                .with_pruning(Pruning::ForwardChecking)
                .with_var_order(var);
            let (with, with_calls) = queens(n, true);
            let (without, without_calls) = queens(n, false);
            let a = Solver::new(&with, config.clone()).unwrap().count();
            let b = Solver::new(&without, config).unwrap().count();
            assert_eq!(a.solutions, [1, 0, 0, 2, 10, 4, 40, 92][n - 1], "n = {n}");
            assert_eq!(untimed(a.stats), untimed(b.stats), "n = {n}, {var}");
            // With the step, the engine never called `propagate` with a trigger.
            assert_eq!(with_calls.load(Ordering::Relaxed), 0, "n = {n}, {var}");
            assert!(n < 2 || without_calls.load(Ordering::Relaxed) > 0);
        }
    }
}

#[test]
fn a_detailed_observer_gets_the_calls_and_the_same_counts() {
    struct Detailed;
    impl SearchObserver for Detailed {
        fn wants_details(&self) -> bool {
            true
        }
    }
    let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
    let (m, calls) = queens(7, true);
    let fast = Solver::new(&m, config.clone()).unwrap().count();
    let slow = Solver::with_observer(&m, config, Detailed).unwrap().count();
    assert_eq!(untimed(fast.stats), untimed(slow.stats));
    assert!(calls.load(Ordering::Relaxed) > 0);
}

/// A change that makes a constraint's step not fit its layout.
type Breakage = fn(&mut Shifted, &[VarId]);

#[test]
fn a_step_that_does_not_fit_the_layout_is_an_error() {
    let model = || {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 3, 0..=2).unwrap();
        (m, xs)
    };
    let (_, xs) = model();
    let breakages: [(&str, Breakage); 4] = [
        ("no such list", |c, _| {
            c.step = Some(ForwardStep { list: 1, set: 0 })
        }),
        ("no such set", |c, _| {
            c.step = Some(ForwardStep { list: 0, set: 3 })
        }),
        ("the list is not the scope", |c, xs| {
            c.list_vars = vec![xs[1], xs[0], xs[2]]
        }),
        ("the set is shorter", |c, _| c.set_len = 2),
    ];
    for (what, breakage) in breakages {
        let (mut m, _) = model();
        let mut c = Shifted::new(&xs, &[0, 0, 0], true);
        breakage(&mut c, &xs);
        m.post(c).unwrap();
        for pruning in Pruning::ALL {
            let e = Solver::new(&m, Config::textbook().with_pruning(pruning))
                .err()
                .unwrap_or_else(|| panic!("{what}: accepted"));
            assert!(e.to_string().contains("forward step"), "{what}: {e}");
        }
    }
    // A scope with a repeat cannot have a step.
    let (mut m, _) = model();
    m.post(Shifted::new(&[xs[0], xs[1], xs[0]], &[0, 1, 2], true))
        .unwrap();
    assert!(Solver::new(&m, Config::textbook()).is_err());
    // The same constraint without the breakage is accepted.
    let (mut m, _) = model();
    m.post(Shifted::new(&xs, &[0, 0, 0], true)).unwrap();
    assert_eq!(
        Solver::new(&m, Config::textbook())
            .unwrap()
            .count()
            .solutions,
        6
    );
}

/// Two positions of a step's list that are views of one variable, shifted so
/// that they name the same value of it: the engine's step gives the same tree
/// and counts as `propagate`, and the brute-force count where the views do
/// not collide. (That the value leaves once, with the right size, is
/// `remove_shifted_at_takes_a_value_named_twice_once` in the domains' tests.)
#[test]
fn two_views_of_one_variable_in_a_step_take_a_value_once() {
    let model = |step: bool| {
        let mut m = Model::new();
        let a = m.int_var(0..=5).unwrap();
        let b = m.int_var(0..=5).unwrap();
        let x = m.int_var(0..=3).unwrap();
        let c = m.int_var(0..=5).unwrap();
        let y = m.offset_view(x, 1).unwrap();
        let z = m.offset_view(x, 2).unwrap();
        // y + 1 and z + 0 are both x + 2, whatever x: no solution, which the
        // step must find with the same tree as `propagate`.
        m.post(Shifted::new(&[a, y, b, z, c], &[0, 1, 0, 0, 0], step))
            .unwrap();
        let w = m.offset_view(x, 3).unwrap();
        // A second list where the views do not collide: x + 3 and x + 2.
        m.post(Shifted::new(&[w, a, z], &[0, 0, 0], step)).unwrap();
        m
    };
    for var in [VarOrder::Input, VarOrder::FirstFail] {
        let config = Config::textbook()
            .with_pruning(Pruning::ForwardChecking)
            .with_var_order(var);
        let with = Solver::new(&model(true), config.clone()).unwrap().count();
        let without = Solver::new(&model(false), config).unwrap().count();
        assert_eq!(with.solutions, 0, "{var}");
        assert_eq!(untimed(with.stats), untimed(without.stats), "{var}");
    }
    // Without the collision (offset 0 for y), the brute-force count.
    let mut m = Model::new();
    let a = m.int_var(0..=5).unwrap();
    let x = m.int_var(0..=3).unwrap();
    let y = m.offset_view(x, 1).unwrap();
    let z = m.offset_view(x, 2).unwrap();
    m.post(Shifted::new(&[a, y, z], &[0, 0, 0], true)).unwrap();
    let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
    let brute = (0..=5)
        .flat_map(|a| (0..=3).map(move |x| (a, x)))
        .filter(|&(a, x)| a != x + 1 && a != x + 2)
        .count() as u64;
    assert_eq!(Solver::new(&m, config).unwrap().count().solutions, brute);
}
