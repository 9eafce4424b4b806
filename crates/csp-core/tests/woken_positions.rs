//! Woken positions (`Constraint::woken_positions`,
//! `PropagationContext::woken`): at the propagators level a constraint that
//! asks for them is told, at each call, the scope positions that changed since
//! its last call, and the list is complete: a constraint that counts its
//! fixed variables from the list alone never misses one, whatever the other
//! constraints, the decisions and the backtracking did meanwhile.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use csp_core::*;

/// At most `k` of `vars` (0/1 variables) are 1, counted incrementally: the
/// number of 1s among the fixed variables in trailed integer 0, the variables
/// not yet counted in trailed bit set 0. A call counts the positions it is
/// told of (or every variable at its first call, or when it is told nothing);
/// it then checks its count against a recount and counts the mismatches.
struct AtMostOnes {
    vars: Vec<VarId>,
    k: i64,
    /// Calls that read a list, and the mismatches found.
    listed: Arc<AtomicU64>,
    mismatches: Arc<AtomicU64>,
    /// Whether to ask for the positions (else every call walks).
    ask: bool,
}

const ONES: usize = 0;
const WALKED: usize = 1;
const OPEN: usize = 0;

impl Constraint for AtMostOnes {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[Value]) -> bool {
        values.iter().filter(|&&v| v == 1).count() as i64 <= self.k
    }

    fn name(&self) -> &str {
        "at most k ones"
    }

    fn state_layout(&self, _: Pruning) -> StateLayout {
        StateLayout::new().int(0).int(0).bits(self.vars.len(), true)
    }

    fn events(&self, _: usize) -> Events {
        Events::FIXED
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn woken_positions(&self) -> bool {
        self.ask
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let mut ones = ctx.state_int(ONES);
        let walked = ctx.state_int(WALKED) != 0;
        let close = |ctx: &mut PropagationContext<'_>, i: usize, ones: &mut i64| {
            if ctx.state_bit(OPEN, i)
                && let Some(v) = ctx.value(self.vars[i])
            {
                *ones += v;
                ctx.clear_state_bit(OPEN, i);
            }
        };
        match ctx.woken().filter(|_| walked) {
            Some(woken) => {
                self.listed.fetch_add(1, Ordering::Relaxed);
                for &i in woken {
                    close(ctx, i as usize, &mut ones);
                }
            }
            None => {
                for i in 0..self.vars.len() {
                    close(ctx, i, &mut ones);
                }
                ctx.set_state_int(WALKED, 1);
            }
        }
        // The recount: every fixed variable is counted.
        let missed = (0..self.vars.len())
            .filter(|&i| ctx.state_bit(OPEN, i) && ctx.value(self.vars[i]).is_some())
            .count();
        self.mismatches.fetch_add(missed as u64, Ordering::Relaxed);
        ctx.set_state_int(ONES, ones);
        if ones > self.k {
            return Err(Conflict::infeasible());
        }
        let mut changed = false;
        if ones == self.k {
            // The open variables take 0 (this call's own changes: closed here).
            for i in 0..self.vars.len() {
                if ctx.state_bit(OPEN, i) {
                    changed |= ctx.fix(self.vars[i], 0)?;
                    ctx.clear_state_bit(OPEN, i);
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

/// Sets of positions with their bound: `(scope, k)`.
type Bounded = Vec<(Vec<usize>, i64)>;

/// A random model: `n` 0/1 variables, some "at most k ones" over random
/// subsets, and sums and differences that fix variables by propagation.
fn random_model(
    rng: &mut u64,
    ask: bool,
    listed: &Arc<AtomicU64>,
    mismatches: &Arc<AtomicU64>,
) -> (Model, Vec<VarId>, Bounded, Bounded) {
    let mut next = |m: u64| {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng % m
    };
    let n = 4 + next(5) as usize;
    let mut m = Model::new();
    let xs = m.int_var_array("x", n, 0..=1).unwrap();
    let mut caps = Vec::new();
    let mut sums = Vec::new();
    for _ in 0..1 + next(3) {
        let scope: Vec<usize> = (0..n).filter(|_| next(3) != 0).collect();
        if scope.is_empty() {
            continue;
        }
        let k = next(scope.len() as u64 + 1) as i64;
        m.post(AtMostOnes {
            vars: scope.iter().map(|&i| xs[i]).collect(),
            k,
            listed: listed.clone(),
            mismatches: mismatches.clone(),
            ask,
        })
        .unwrap();
        caps.push((scope, k));
    }
    for _ in 0..next(3) {
        let scope: Vec<usize> = (0..n).filter(|_| next(2) == 0).collect();
        if scope.is_empty() {
            continue;
        }
        let k = next(scope.len() as u64 + 1) as i64;
        let vars: Vec<VarId> = scope.iter().map(|&i| xs[i]).collect();
        m.linear(&vec![1; vars.len()], &vars, Relation::Ge, k)
            .unwrap();
        sums.push((scope, k));
    }
    (m, xs, caps, sums)
}

fn brute_force(n: usize, caps: &[(Vec<usize>, i64)], sums: &[(Vec<usize>, i64)]) -> u64 {
    (0..1u64 << n)
        .filter(|bits| {
            let ones = |s: &[usize]| s.iter().filter(|&&i| bits >> i & 1 == 1).count() as i64;
            caps.iter().all(|(s, k)| ones(s) <= *k) && sums.iter().all(|(s, k)| ones(s) >= *k)
        })
        .count() as u64
}

#[test]
fn a_count_kept_from_the_woken_positions_never_misses_a_change() {
    // 300 random models, every solution enumerated at the propagators level
    // under several variable orders, and a first solution with restarts: the
    // counts from the lists match a recount at every call, and the solutions
    // are those of brute force.
    let listed = Arc::new(AtomicU64::new(0));
    let mismatches = Arc::new(AtomicU64::new(0));
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for trial in 0..300 {
        let (m, xs, caps, sums) = random_model(&mut rng, true, &listed, &mismatches);
        let expected = brute_force(xs.len(), &caps, &sums);
        for var in [VarOrder::Input, VarOrder::FirstFail, VarOrder::DomOverWdeg] {
            let config = Config::textbook()
                .with_pruning(Pruning::Propagators)
                .with_var_order(var);
            let mut solver = Solver::new(&m, config).unwrap();
            let count = solver.count();
            assert_eq!(count.solutions, expected, "trial {trial}, {var:?}");
            assert_eq!(solver.status(), SearchStatus::Complete);
        }
        // Restarts (a solution, if any).
        let config = Config::textbook()
            .with_pruning(Pruning::Propagators)
            .with_var_order(VarOrder::DomOverWdeg)
            .with_restarts(Restarts::Luby { scale: 1 });
        let mut solver = Solver::new(&m, config).unwrap();
        assert_eq!(
            solver.first().solution.is_some(),
            expected > 0,
            "trial {trial}"
        );
        assert_eq!(mismatches.load(Ordering::Relaxed), 0, "trial {trial}");
    }
    // The lists were read (not only first calls).
    assert!(listed.load(Ordering::Relaxed) > 1000, "{listed:?}");
}

#[test]
fn without_asking_or_below_the_propagators_level_no_list_is_given() {
    let listed = Arc::new(AtomicU64::new(0));
    let mismatches = Arc::new(AtomicU64::new(0));
    let mut rng = 12345u64;
    for _ in 0..50 {
        for ask in [false, true] {
            let (m, xs, caps, sums) = random_model(&mut rng, ask, &listed, &mismatches);
            let expected = brute_force(xs.len(), &caps, &sums);
            let levels: &[Pruning] = if ask {
                &[Pruning::ForwardChecking, Pruning::ArcConsistency]
            } else {
                &[Pruning::Propagators]
            };
            for &pruning in levels {
                let config = Config::textbook().with_pruning(pruning);
                let mut solver = Solver::new(&m, config).unwrap();
                assert_eq!(solver.count().solutions, expected);
            }
        }
    }
    assert_eq!(listed.load(Ordering::Relaxed), 0);
    assert_eq!(mismatches.load(Ordering::Relaxed), 0);
}
