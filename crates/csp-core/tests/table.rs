//! Networks of table constraints (allowed, short, negative) searched at every
//! pruning level against an independent enumeration; Compact-Table's trailed
//! state checked through backtracking, binary choices and recomputation.

use csp_core::{
    Config, Constraint, Model, Propagation, PropagationContext, Pruning, STAR, Solver, Value,
    VarId, VarOrder, generic,
};

/// SplitMix64: deterministic random numbers without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Clone, Debug)]
struct Spec {
    vars: Vec<usize>,
    rows: Vec<Vec<Option<Value>>>,
    negative: bool,
}

fn matches(row: &[Option<Value>], values: &[Value]) -> bool {
    row.iter()
        .zip(values)
        .all(|(e, &v)| e.is_none_or(|e| e == v))
}

impl Spec {
    fn holds(&self, a: &[Value]) -> bool {
        let t: Vec<Value> = self.vars.iter().map(|&v| a[v]).collect();
        self.rows.iter().any(|r| matches(r, &t)) != self.negative
    }

    fn has_star(&self) -> bool {
        self.rows.iter().flatten().any(Option::is_none)
    }
}

/// A random network: domains with holes over `palette` (sparse values), and
/// `n_cons` tables of arity 2..=4 (a variable may repeat), each allowed or
/// forbidden, with `*` when `stars`.
fn network(
    rng: &mut Rng,
    n_vars: usize,
    n_cons: usize,
    stars: bool,
    palette: &[Value],
) -> (Vec<Vec<Value>>, Vec<Spec>) {
    let doms: Vec<Vec<Value>> = (0..n_vars)
        .map(|_| {
            let mut d: Vec<Value> = palette
                .iter()
                .copied()
                .filter(|_| rng.below(3) != 0)
                .collect();
            if d.is_empty() {
                d.push(palette[rng.below(palette.len())]);
            }
            d
        })
        .collect();
    let specs = (0..n_cons)
        .map(|_| {
            let arity = 2 + rng.below(3);
            let vars: Vec<usize> = (0..arity).map(|_| rng.below(n_vars)).collect();
            let negative = rng.below(3) == 0;
            let n_rows = if negative {
                4 + rng.below(20)
            } else {
                6 + rng.below(40)
            };
            let rows = (0..n_rows)
                .map(|_| {
                    vars.iter()
                        .map(|&v| {
                            if stars && rng.below(5) == 0 {
                                STAR
                            } else if rng.below(9) == 0 {
                                // A value outside every domain.
                                Some(palette[palette.len() - 1] + 1)
                            } else {
                                Some(doms[v][rng.below(doms[v].len())])
                            }
                        })
                        .collect()
                })
                .collect();
            Spec {
                vars,
                rows,
                negative,
            }
        })
        .collect();
    (doms, specs)
}

/// The reference: a spec with the engine's generic support search, which
/// reaches generalised arc consistency without any state.
struct Reference {
    scope: Vec<VarId>,
    spec: Spec,
}

impl Constraint for Reference {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        self.spec.rows.iter().any(|r| matches(r, values)) != self.spec.negative
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        generic::support_search(self, ctx)
    }
}

fn model(doms: &[Vec<Value>], specs: &[Spec]) -> Model {
    build(doms, specs, false)
}

fn build(doms: &[Vec<Value>], specs: &[Spec], reference: bool) -> Model {
    let mut m = Model::new();
    let xs: Vec<VarId> = doms.iter().map(|d| m.int_var(d.clone()).unwrap()).collect();
    for s in specs {
        let vars: Vec<VarId> = s.vars.iter().map(|&v| xs[v]).collect();
        if reference {
            m.post(Reference {
                scope: vars,
                spec: s.clone(),
            })
            .unwrap();
        } else if s.negative {
            m.negative_table(&vars, s.rows.clone()).unwrap();
        } else {
            m.short_table(&vars, s.rows.clone()).unwrap();
        }
    }
    m
}

/// The solutions by enumerating every assignment.
fn brute_force(doms: &[Vec<Value>], specs: &[Spec]) -> u64 {
    let total: usize = doms.iter().map(Vec::len).product();
    let mut a = vec![0; doms.len()];
    (0..total)
        .filter(|&k| {
            let mut k = k;
            for (i, d) in doms.iter().enumerate() {
                a[i] = d[k % d.len()];
                k /= d.len();
            }
            specs.iter().all(|s| s.holds(&a))
        })
        .count() as u64
}

const PALETTE: [Value; 5] = [-3, 0, 1, 4, 7];
/// Far apart, so that values cannot be numbered by offset in a small array.
const SPARSE_PALETTE: [Value; 5] = [-10_000, -5, 0, 999, 10_000];

#[test]
fn random_networks_count_like_brute_force_at_every_level() {
    let mut rng = Rng(30);
    let mut solved = 0;
    for round in 0..60 {
        let stars = round % 2 == 1;
        let palette: &[Value] = if round % 3 == 0 {
            &SPARSE_PALETTE
        } else {
            &PALETTE
        };
        let (doms, specs) = network(&mut rng, 5 + round % 2, 3 + round % 3, stars, palette);
        let want = brute_force(&doms, &specs);
        solved += u64::from(want > 0);
        let m = model(&doms, &specs);
        for pruning in Pruning::ALL {
            for binary in [false, true] {
                let config = Config::textbook()
                    .with_pruning(pruning)
                    .with_var_order(VarOrder::FirstFail)
                    .with_binary_branching(binary);
                let r = Solver::new(&m, config).unwrap().count();
                assert!(r.is_complete());
                assert_eq!(
                    r.solutions, want,
                    "round {round}, {pruning}, binary {binary}: {specs:?} on {doms:?}"
                );
            }
        }
    }
    // The networks are neither all empty nor all trivial.
    assert!(
        (10..60).contains(&solved),
        "{solved} networks had solutions"
    );
}

/// Compact-Table and the reference (the generic support search) both filter
/// every table to generalised arc consistency (allowed tables, and forbidden
/// ones without `*`), so at the same level they reach the same fixpoint at
/// every node: the trees must be identical. Compact-Table keeps its rows in
/// the trailed state, the reference has no state: a row not restored on
/// backtracking shows as a different tree.
#[test]
fn compact_table_walks_the_same_tree_as_arc_consistency() {
    let mut rng = Rng(2016);
    let mut nodes = 0;
    for round in 0..40 {
        let palette: &[Value] = if round % 2 == 0 {
            &SPARSE_PALETTE
        } else {
            &PALETTE
        };
        let (doms, specs) = network(&mut rng, 6, 4, round % 4 == 1, palette);
        let specs: Vec<Spec> = specs
            .into_iter()
            .filter(|s| !(s.negative && s.has_star()))
            .collect();
        let m = model(&doms, &specs);
        let reference = build(&doms, &specs, true);
        for var in [VarOrder::Input, VarOrder::FirstFail] {
            for binary in [false, true] {
                let run = |m: &Model, budget| {
                    let config = Config::textbook()
                        .with_pruning(Pruning::Propagators)
                        .with_var_order(var)
                        .with_binary_branching(binary)
                        .with_trail_budget(budget);
                    let mut s = Solver::new(m, config).unwrap();
                    let sols: Vec<Vec<Value>> =
                        s.solutions().map(|s| s.values().to_vec()).collect();
                    (sols, s.stats().tried, s.stats().rejected)
                };
                let want = run(&reference, None);
                let ct = run(&m, None);
                assert_eq!(
                    ct, want,
                    "round {round}, {var}, binary {binary}: {specs:?} on {doms:?}"
                );
                // A one-byte trail budget recomputes from snapshots instead of undoing.
                assert_eq!(run(&m, Some(1)), want, "round {round}, recomputed");
                nodes += want.1;
            }
        }
    }
    assert!(
        nodes > 1_000,
        "the searches were too small to test backtracking: {nodes} nodes"
    );
}

/// A chain of tables over many values, searched deep enough that the valid
/// rows shrink and grow back many times (several words per bit set).
#[test]
fn large_tables_count_like_their_rows() {
    let n = 6;
    let mut m = Model::new();
    let xs: Vec<VarId> = (0..n).map(|_| m.int_var(0..=19).unwrap()).collect();
    // (a, b) allowed when (a + 3b) mod 7 is 0 or 1, or a row with `*` says so.
    let pairs: Vec<Vec<Value>> = (0..20)
        .flat_map(|a| (0..20).map(move |b| vec![a, b]))
        .filter(|t| (t[0] + 3 * t[1]) % 7 <= 1)
        .collect();
    for w in xs.windows(2) {
        m.table(w, pairs.clone()).unwrap();
    }
    let forbidden: Vec<Vec<Option<Value>>> =
        vec![vec![Some(0), STAR, STAR], vec![STAR, Some(5), Some(5)]];
    m.negative_table(&[xs[0], xs[2], xs[4]], forbidden.clone())
        .unwrap();
    // Counted by dynamic programming over the chain, then the triple filter by brute force.
    let allowed = |a: Value, b: Value| (a + 3 * b) % 7 <= 1;
    let mut want = 0u64;
    for x0 in 0..20 {
        for x2 in 0..20 {
            for x4 in 0..20 {
                if x0 == 0 || (x2 == 5 && x4 == 5) {
                    continue;
                }
                let pairs_between = |a: Value, c: Value| {
                    (0..20).filter(|&b| allowed(a, b) && allowed(b, c)).count() as u64
                };
                let tail = (0..20).filter(|&x5| allowed(x4, x5)).count() as u64;
                want += pairs_between(x0, x2) * pairs_between(x2, x4) * tail;
            }
        }
    }
    for pruning in [Pruning::ArcConsistency, Pruning::Propagators] {
        let r = Solver::new(&m, Config::textbook().with_pruning(pruning))
            .unwrap()
            .count();
        assert_eq!(r.solutions, want, "{pruning}");
    }
}

#[test]
fn rows_of_the_wrong_length_are_an_error() {
    let mut m = Model::new();
    let x = m.int_var(0..=3).unwrap();
    let y = m.int_var(0..=3).unwrap();
    for e in [
        m.short_table(&[x, y], vec![vec![STAR]]).unwrap_err(),
        m.negative_table(&[x, y], vec![vec![Some(1), STAR, STAR]])
            .unwrap_err(),
        m.table(&[x, y], vec![vec![1, 2], vec![3]]).unwrap_err(),
    ] {
        assert!(e.to_string().contains("a tuple has length"), "{e}");
    }
}
