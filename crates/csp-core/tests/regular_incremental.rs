//! Regular keeps its layered graph between calls in the trailed state and
//! only takes out what the domains lost. That must change nothing: at every
//! call, the removals (and the failures) are those of the full recomputation
//! Regular did before, kept here as a reference; on random automata
//! (nondeterministic ones too) over random small domains, with repeated
//! variables and views sharing a base, searched at every pruning level with
//! several orders (one probing values), with backjumping and with restarts,
//! the counts equal brute force and the search trees are those of the
//! reference.

use csp_core::constraints::{Automaton, Regular};
use csp_core::rng::SplitMix64;
use csp_core::{
    Backjumping, Config, Constraint, Domains, Model, Propagation, PropagationContext, Pruning,
    Restarts, SearchStats, Solver, StateLayout, ValOrder, Value, VarId, VarOrder,
};
use csp_core::{Conflict, PropStatus};

/// An automaton as data: states, start, accepting states, transitions.
#[derive(Clone, Debug)]
struct Spec {
    states: usize,
    start: usize,
    accepting: Vec<usize>,
    transitions: Vec<(usize, Value, usize)>,
}

impl Spec {
    fn automaton(&self) -> Automaton {
        Automaton::new(self.states, self.start, &self.accepting, &self.transitions).unwrap()
    }
}

/// Regular as it filtered before it kept its graph: the whole layered graph
/// from the domains at every call (forward, then backward), then each
/// position keeps its supported symbols, in scope order, when it has fewer
/// than its domain's size.
struct Reference {
    scope: Vec<VarId>,
    spec: Spec,
    automaton: Automaton,
}

impl Reference {
    fn new(scope: &[VarId], spec: &Spec) -> Self {
        Reference {
            scope: scope.to_vec(),
            spec: spec.clone(),
            automaton: spec.automaton(),
        }
    }

    /// Each position's supported symbols (sorted), or `None` when the start
    /// has no path to acceptance.
    fn supports(&self, d: &Domains) -> Option<Vec<Vec<Value>>> {
        let (n, states) = (self.scope.len(), self.spec.states);
        let mut layers = vec![vec![false; states]; n + 1];
        layers[0][self.spec.start] = true;
        for i in 0..n {
            for &(from, s, to) in &self.spec.transitions {
                if layers[i][from] && d.contains(self.scope[i], s) {
                    layers[i + 1][to] = true;
                }
            }
        }
        let mut alive: Vec<bool> = (0..states)
            .map(|q| layers[n][q] && self.spec.accepting.contains(&q))
            .collect();
        let mut supports = vec![Vec::new(); n];
        for i in (0..n).rev() {
            let mut live = vec![false; states];
            for &(from, s, to) in &self.spec.transitions {
                if layers[i][from] && alive[to] && d.contains(self.scope[i], s) {
                    live[from] = true;
                    supports[i].push(s);
                }
            }
            supports[i].sort_unstable();
            supports[i].dedup();
            alive = live;
        }
        alive[self.spec.start].then_some(supports)
    }
}

impl Constraint for Reference {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        self.automaton.accepts(v)
    }

    fn promising(&self, d: &Domains) -> bool {
        // Fixed everywhere: the word; else the reachability of acceptance.
        let n = self.scope.len();
        let mut now = vec![false; self.spec.states];
        now[self.spec.start] = true;
        for i in 0..n {
            let mut next = vec![false; self.spec.states];
            for &(from, s, to) in &self.spec.transitions {
                if now[from] && d.contains(self.scope[i], s) {
                    next[to] = true;
                }
            }
            now = next;
        }
        self.spec.accepting.iter().any(|&q| now[q])
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let Some(supports) = self.supports(ctx.domains()) else {
            return Err(Conflict::infeasible());
        };
        let mut changed = false;
        for (i, &x) in self.scope.iter().enumerate() {
            if supports[i].len() < ctx.len(x) {
                changed |= ctx.retain_sorted(x, &supports[i])?;
            }
        }
        if self.scope.iter().all(|&x| ctx.is_fixed(x)) {
            return if self.promising(ctx.domains()) {
                Ok(PropStatus::Entailed)
            } else {
                Err(Conflict::infeasible())
            };
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

/// Regular, checked at every call against the reference: the domains after
/// the call must be what the reference's removals give (the same failure
/// too). Positions are `(base, offset)`: scope variable `i` is `base + offset`.
struct CrossChecked {
    regular: Regular,
    reference: Reference,
    bases: Vec<(VarId, Value)>,
}

impl Constraint for CrossChecked {
    fn scope(&self) -> &[VarId] {
        self.regular.scope()
    }

    fn check(&self, v: &[Value]) -> bool {
        self.regular.check(v)
    }

    fn promising(&self, d: &Domains) -> bool {
        self.regular.promising(d)
    }

    fn state_layout(&self, pruning: Pruning) -> StateLayout {
        self.regular.state_layout(pruning)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let d = ctx.domains();
        // The reference's result on the domains before the call: each base's
        // values after the removals, or the failure: a domain wiped out
        // (`true`) or no accepted word (`false`).
        let expected: Result<Vec<Vec<Value>>, bool> =
            self.reference.supports(d).ok_or(false).and_then(|sup| {
                let mut base: Vec<Vec<Value>> = self
                    .bases
                    .iter()
                    .map(|&(b, _)| d.values(b).collect())
                    .collect();
                for (i, &(b, o)) in self.bases.iter().enumerate() {
                    if sup[i].len() < base[i].len() {
                        let kept: Vec<Value> = base[i]
                            .iter()
                            .copied()
                            .filter(|v| sup[i].binary_search(&(v + o)).is_ok())
                            .collect();
                        if kept.is_empty() {
                            return Err(true);
                        }
                        for (j, &(c, _)) in self.bases.iter().enumerate() {
                            if c == b {
                                base[j] = kept.clone();
                            }
                        }
                    }
                }
                // All fixed: the constraint holds or fails on the word.
                if base.iter().all(|d| d.len() == 1) {
                    let word: Vec<Value> = self
                        .bases
                        .iter()
                        .zip(&base)
                        .map(|(&(_, o), d)| d[0] + o)
                        .collect();
                    if !self.reference.automaton.accepts(&word) {
                        return Err(false);
                    }
                }
                Ok(base)
            });
        let before: Vec<Vec<Value>> = self
            .bases
            .iter()
            .map(|&(b, _)| d.values(b).collect())
            .collect();
        let result = self.regular.propagate(ctx);
        match (&result, &expected) {
            (Err(c), Err(wipeout)) if c.var.is_some() == *wipeout => {}
            (Ok(_), Ok(want)) => {
                for (i, &(b, _)) in self.bases.iter().enumerate() {
                    let got: Vec<Value> = ctx.domains().values(b).collect();
                    assert_eq!(
                        got, want[i],
                        "position {i}: domains {before:?} before the call, positions {:?}, \
                         automaton {:?}",
                        self.bases, self.reference.spec
                    );
                }
            }
            _ => panic!(
                "regular says {result:?}, the reference {}; domains before {before:?}, \
                 positions {:?}, automaton {:?}",
                match expected {
                    Ok(_) => "keeps going",
                    Err(true) => "wipes a domain out",
                    Err(false) => "finds no word",
                },
                self.bases,
                self.reference.spec
            ),
        }
        result
    }
}

/// A random automaton over symbols 0..=2 with 1 to 4 states; a state has 0, 1
/// or 2 transitions on a symbol (nondeterministic when 2).
fn random_spec(rng: &mut SplitMix64) -> Spec {
    let states = 1 + rng.below(4) as usize;
    let mut transitions = Vec::new();
    for from in 0..states {
        for s in 0..=2 {
            for _ in 0..[0, 1, 1, 1, 2][rng.below(5) as usize] {
                transitions.push((from, s, rng.below(states as u64) as usize));
            }
        }
    }
    let mut accepting: Vec<usize> = (0..states).filter(|_| rng.below(2) == 0).collect();
    if accepting.is_empty() {
        accepting.push(rng.below(states as u64) as usize);
    }
    Spec {
        states,
        start: rng.below(states as u64) as usize,
        accepting,
        transitions,
    }
}

/// A random automaton with 65 to 130 states (layers of two or three words)
/// whose transitions go one to three states ahead (mod the number of
/// states), so a layer holds few of them; a third of the states accept.
fn random_wide_spec(rng: &mut SplitMix64) -> Spec {
    let states = 65 + rng.below(66) as usize;
    let mut transitions = Vec::new();
    for from in 0..states {
        for s in 0..=2 {
            for _ in 0..[0, 1, 1, 2][rng.below(4) as usize] {
                transitions.push((from, s, (from + 1 + rng.below(3) as usize) % states));
            }
        }
    }
    let accepting: Vec<usize> = (0..states).filter(|_| rng.below(3) == 0).collect();
    Spec {
        states,
        start: rng.below(states as u64) as usize,
        accepting,
        transitions,
    }
}

/// A random model: variables over subsets of -1..=3, one or two regular
/// constraints over positions that may repeat a variable or use its view
/// `x + 1`; the same model with the reference; and each constraint's
/// positions as `(variable number, offset)` for brute force.
struct Case {
    checked: Model,
    reference: Model,
    domains: Vec<Vec<Value>>,
    constraints: Vec<(Vec<(usize, Value)>, Automaton)>,
}

fn random_case(rng: &mut SplitMix64, wide: bool) -> Case {
    let nv = 1 + rng.below(5) as usize;
    let domains: Vec<Vec<Value>> = (0..nv)
        .map(|_| {
            let mut d: Vec<Value> = (-1..=3).filter(|_| rng.below(3) > 0).collect();
            if d.is_empty() {
                d.push(rng.below(3) as Value);
            }
            d
        })
        .collect();
    let mut checked = Model::new();
    let mut reference = Model::new();
    let build = |m: &mut Model| -> (Vec<VarId>, Vec<VarId>) {
        let xs: Vec<VarId> = domains
            .iter()
            .map(|d| m.int_var(d.clone()).unwrap())
            .collect();
        let plus: Vec<VarId> = xs.iter().map(|&x| m.offset_view(x, 1).unwrap()).collect();
        (xs, plus)
    };
    let (cx, cplus) = build(&mut checked);
    let (rx, rplus) = build(&mut reference);
    let mut constraints = Vec::new();
    for _ in 0..1 + rng.below(2) {
        let n = if wide {
            4 + rng.below(5)
        } else {
            1 + rng.below(6)
        } as usize;
        let positions: Vec<(usize, Value)> = (0..n)
            .map(|_| {
                let v = rng.below(nv as u64) as usize;
                (v, if rng.below(5) == 0 { 1 } else { 0 })
            })
            .collect();
        let spec = if wide {
            random_wide_spec(rng)
        } else {
            random_spec(rng)
        };
        let pick = |xs: &[VarId], plus: &[VarId]| -> Vec<VarId> {
            positions
                .iter()
                .map(|&(v, o)| if o == 0 { xs[v] } else { plus[v] })
                .collect()
        };
        let scope = pick(&cx, &cplus);
        checked
            .post(CrossChecked {
                regular: Regular::new(&scope, &spec.automaton()),
                reference: Reference::new(&scope, &spec),
                bases: positions.iter().map(|&(v, o)| (cx[v], o)).collect(),
            })
            .unwrap();
        reference
            .post(Reference::new(&pick(&rx, &rplus), &spec))
            .unwrap();
        constraints.push((positions, spec.automaton()));
    }
    Case {
        checked,
        reference,
        domains,
        constraints,
    }
}

fn brute_force(case: &Case) -> u64 {
    fn go(i: usize, case: &Case, v: &mut Vec<Value>) -> u64 {
        if i == case.domains.len() {
            let ok = case.constraints.iter().all(|(positions, a)| {
                let word: Vec<Value> = positions.iter().map(|&(j, o)| v[j] + o).collect();
                a.accepts(&word)
            });
            return u64::from(ok);
        }
        let mut count = 0;
        for &x in &case.domains[i] {
            v.push(x);
            count += go(i + 1, case, v);
            v.pop();
        }
        count
    }
    go(0, case, &mut Vec::new())
}

/// The statistics but the time and the revisions (the reference counts one
/// per position and call, the kept graph one per position it filters).
fn search(model: &Model, config: Config) -> SearchStats {
    let mut stats = Solver::new(model, config).unwrap().count().stats;
    stats.elapsed = Default::default();
    stats.revisions = 0;
    stats
}

#[test]
fn kept_graph_filters_as_the_full_recomputation() {
    compare_on_random_cases(0x05e9_0a7e, 400, false);
}

/// Layers of several words (more than 64 states), symbols with many
/// transitions, narrow layers.
#[test]
fn kept_graph_filters_as_the_full_recomputation_on_wide_layers() {
    compare_on_random_cases(0x0003_a1de, 150, true);
}

fn compare_on_random_cases(seed: u64, rounds: usize, wide: bool) {
    let mut rng = SplitMix64::new(seed);
    let orders = [
        (VarOrder::Input, ValOrder::Ascending),
        (VarOrder::FirstFail, ValOrder::LeastConstraining),
        (VarOrder::DomOverWdeg, ValOrder::Descending),
        (VarOrder::Input, ValOrder::Split),
    ];
    let mut deep = 0;
    let mut restarted = 0;
    for round in 0..rounds {
        let case = random_case(&mut rng, wide);
        let expected = brute_force(&case);
        for pruning in [
            Pruning::ForwardChecking,
            Pruning::ArcConsistency,
            Pruning::Propagators,
        ] {
            for (var, val) in orders {
                let config = Config::textbook()
                    .with_pruning(pruning)
                    .with_var_order(var)
                    .with_val_order(val);
                let got = search(&case.checked, config.clone());
                let want = search(&case.reference, config);
                assert_eq!(
                    got.solutions, expected,
                    "round {round}, {pruning:?} {var:?} {val:?}: count"
                );
                assert_eq!(
                    got, want,
                    "round {round}, {pruning:?} {var:?} {val:?}: tree"
                );
                if got.peak_depth > 2 {
                    deep += 1;
                }
            }
        }
        // Backjumping pops several levels at once; restarts go back to the root.
        let cbj = Config::textbook()
            .with_pruning(Pruning::ForwardChecking)
            .with_backjumping(Backjumping::Cbj);
        let got = search(&case.checked, cbj.clone());
        assert_eq!(got.solutions, expected, "round {round}, cbj: count");
        assert_eq!(
            got,
            search(&case.reference, cbj),
            "round {round}, cbj: tree"
        );
        let restarts = Config::textbook()
            .with_pruning(Pruning::Propagators)
            .with_binary_branching(true)
            .with_var_order(VarOrder::DomOverWdeg)
            .with_restarts(Restarts::Linear { scale: 1 });
        let first = |m: &Model| {
            let found = Solver::new(m, restarts.clone()).unwrap().first();
            let mut stats = found.stats;
            stats.elapsed = Default::default();
            stats.revisions = 0;
            (found.solution.is_some(), stats)
        };
        let (found, got) = first(&case.checked);
        assert_eq!(found, expected > 0, "round {round}, restarts: found");
        assert_eq!(
            got,
            first(&case.reference).1,
            "round {round}, restarts: tree"
        );
        restarted += u64::from(got.restarts > 0);
    }
    // The kept graph was updated below the root, not only built.
    assert!(deep > rounds, "only {deep} searches went deeper than 2");
    assert!(restarted > 0, "no search restarted");
}

/// A longer word over a bigger automaton, where updates run through many
/// layers: counting binary words of length 14 with at most three blocks of
/// 1s whose lengths are below 4 (a nonogram line's shape, deterministic),
/// against the reference and brute force.
#[test]
fn kept_graph_on_a_long_line() {
    // State (blocks done, run length, in a run): numbered densely.
    let mut transitions = Vec::new();
    let id = |b: usize, r: usize| b * 4 + r;
    for b in 0..=3 {
        for r in 0..4 {
            // Read 0: a run ends (counts a block) or stays out.
            if r == 0 {
                transitions.push((id(b, 0), 0, id(b, 0)));
            } else {
                transitions.push((id(b, r), 0, id(b, 0)));
            }
            // Read 1: start a run (a new block) or extend it.
            if r == 0 && b < 3 {
                transitions.push((id(b, 0), 1, id(b + 1, 1)));
            } else if r > 0 && r < 3 {
                transitions.push((id(b, r), 1, id(b, r + 1)));
            }
        }
    }
    let spec = Spec {
        states: 16,
        start: 0,
        accepting: (0..16).collect(),
        transitions,
    };
    let n = 14;
    let mut checked = Model::new();
    let xs = checked.int_var_array("x", n, 0..=1).unwrap();
    checked
        .post(CrossChecked {
            regular: Regular::new(&xs, &spec.automaton()),
            reference: Reference::new(&xs, &spec),
            bases: xs.iter().map(|&x| (x, 0)).collect(),
        })
        .unwrap();
    let mut reference = Model::new();
    let ys = reference.int_var_array("x", n, 0..=1).unwrap();
    reference.post(Reference::new(&ys, &spec)).unwrap();
    let a = spec.automaton();
    let expected = (0..1u32 << n)
        .filter(|w| a.accepts(&(0..n).map(|i| Value::from(w >> i & 1)).collect::<Vec<_>>()))
        .count() as u64;
    for pruning in [Pruning::ForwardChecking, Pruning::Propagators] {
        for val in [ValOrder::Ascending, ValOrder::Descending] {
            let config = Config::textbook().with_pruning(pruning).with_val_order(val);
            let got = search(&checked, config.clone());
            assert_eq!(got.solutions, expected);
            assert_eq!(got, search(&reference, config));
        }
    }
}
