//! Random small CSPs decoded from bytes, a brute-force oracle, and the
//! differential checks shared by `tests/random_csps.rs` and `fuzz/`.
//!
//! One byte decoder feeds both proptest (which shrinks the bytes) and the fuzzer
//! (which mutates them), so a failing input from either replays in the other.
//! Bytes past the end read as zero, so any byte string is a valid model and
//! shorter strings give smaller models.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::fmt::Write as _;

use csp_core::{
    Backjumping, Config, Constraint, CspError, Model, Pruning, Relation, Restarts, SearchStats,
    SearchStatus, Solver, ValOrder, Value, VarId, VarOrder,
};

/// Reads decisions from a byte string; zeros once it runs out.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }

    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.byte() as usize % n
    }

    /// A number in `lo..=hi` (a small range).
    pub fn int(&mut self, lo: Value, hi: Value) -> Value {
        lo + (self.byte() as Value).rem_euclid(hi - lo + 1)
    }

    /// A small number in `lo..=hi`, or, one time in 32, a value near the ends of
    /// the `i64` range (to exercise overflow handling).
    pub fn value(&mut self, lo: Value, hi: Value) -> Value {
        let b = self.byte();
        if b >= 248 {
            extreme(b)
        } else {
            lo + (b as Value).rem_euclid(hi - lo + 1)
        }
    }
}

fn extreme(b: u8) -> Value {
    match b % 4 {
        0 => Value::MAX,
        1 => Value::MIN,
        2 => Value::MAX - 1,
        _ => Value::MIN + 1,
    }
}

/// A rule for predicates and check-only constraints; evaluated in `i128` so that
/// extreme values cannot overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The sum is `r` modulo `m`.
    SumMod { m: i128, r: i128 },
    /// Strictly increasing.
    Increasing,
    /// `|first - last| = k`.
    EndsDifferBy(i128),
    /// `max - min <= k`.
    Spread(i128),
}

impl Rule {
    pub fn holds(self, v: &[Value]) -> bool {
        let w: Vec<i128> = v.iter().map(|&x| i128::from(x)).collect();
        match self {
            Rule::SumMod { m, r } => w.iter().sum::<i128>().rem_euclid(m) == r,
            Rule::Increasing => w.windows(2).all(|p| p[0] < p[1]),
            Rule::EndsDifferBy(k) => (w[0] - w[w.len() - 1]).abs() == k,
            Rule::Spread(k) => w.iter().max().unwrap() - w.iter().min().unwrap() <= k,
        }
    }

    fn decode(b: &mut Bytes<'_>) -> Rule {
        match b.below(4) {
            0 => {
                let m = b.int(2, 3) as i128;
                Rule::SumMod {
                    m,
                    r: b.int(0, m as Value - 1) as i128,
                }
            }
            1 => Rule::Increasing,
            2 => Rule::EndsDifferBy(b.int(0, 3) as i128),
            _ => Rule::Spread(b.int(0, 2) as i128),
        }
    }
}

/// One constraint of a random CSP, over variable indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConSpec {
    /// `x != y + offset`.
    NotEqual { x: usize, y: usize, offset: Value },
    /// `sum coeffs * vars  rel  rhs`.
    Linear {
        coeffs: Vec<Value>,
        vars: Vec<usize>,
        rel: Relation,
        rhs: Value,
    },
    /// The scope takes one of the tuples.
    Table {
        vars: Vec<usize>,
        tuples: Vec<Vec<Value>>,
    },
    /// A `Predicate` (closure) constraint.
    Predicate { vars: Vec<usize>, rule: Rule },
    /// A user constraint implementing only `scope` and `check`.
    CheckOnly { vars: Vec<usize>, rule: Rule },
    /// `vars[i] + offsets[i]` pairwise different.
    AllDifferent {
        vars: Vec<usize>,
        offsets: Vec<Value>,
    },
    /// `result = array[index]`.
    Element {
        index: usize,
        array: Vec<Value>,
        result: usize,
    },
    /// `result = items[index]` over variables.
    VarElement {
        index: usize,
        items: Vec<usize>,
        result: usize,
    },
}

impl ConSpec {
    /// The reference semantics, written from the documentation, independent of
    /// the engine's `check`.
    pub fn holds(&self, a: &[Value]) -> bool {
        let big = |v: Value| i128::from(v);
        match self {
            ConSpec::NotEqual { x, y, offset } => big(a[*x]) != big(a[*y]) + big(*offset),
            ConSpec::Linear {
                coeffs,
                vars,
                rel,
                rhs,
            } => {
                let s: i128 = coeffs
                    .iter()
                    .zip(vars)
                    .map(|(&c, &v)| big(c) * big(a[v]))
                    .sum();
                let r = big(*rhs);
                match rel {
                    Relation::Eq => s == r,
                    Relation::Ne => s != r,
                    Relation::Le => s <= r,
                    Relation::Lt => s < r,
                    Relation::Ge => s >= r,
                    Relation::Gt => s > r,
                }
            }
            ConSpec::Table { vars, tuples } => {
                let t: Vec<Value> = vars.iter().map(|&v| a[v]).collect();
                tuples.contains(&t)
            }
            ConSpec::Predicate { vars, rule } | ConSpec::CheckOnly { vars, rule } => {
                let t: Vec<Value> = vars.iter().map(|&v| a[v]).collect();
                rule.holds(&t)
            }
            ConSpec::AllDifferent { vars, offsets } => {
                let s: Vec<i128> = vars
                    .iter()
                    .zip(offsets)
                    .map(|(&v, &o)| big(a[v]) + big(o))
                    .collect();
                (0..s.len()).all(|i| (i + 1..s.len()).all(|j| s[i] != s[j]))
            }
            ConSpec::Element {
                index,
                array,
                result,
            } => usize::try_from(a[*index])
                .ok()
                .and_then(|i| array.get(i))
                .is_some_and(|&v| v == a[*result]),
            ConSpec::VarElement {
                index,
                items,
                result,
            } => usize::try_from(a[*index])
                .ok()
                .and_then(|i| items.get(i))
                .is_some_and(|&v| a[v] == a[*result]),
        }
    }
}

/// A user constraint with only the required methods.
pub struct CheckOnly {
    scope: Vec<VarId>,
    rule: Rule,
}

impl Constraint for CheckOnly {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        self.rule.holds(values)
    }
}

/// A random CSP: one domain per variable (sorted, distinct), and constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CspSpec {
    pub domains: Vec<Vec<Value>>,
    pub constraints: Vec<ConSpec>,
}

/// Limits of the generator.
pub const MAX_VARS: usize = 6;
pub const MAX_DOMAIN: usize = 5;
pub const MAX_CONSTRAINTS: usize = 6;

impl CspSpec {
    /// Decodes a CSP: up to 6 variables with 1 to 5 values (small, negative or
    /// sparse, now and then near the ends of `i64`), and up to 6 constraints.
    pub fn from_bytes(data: &[u8]) -> CspSpec {
        let mut b = Bytes::new(data);
        // Sizes lean towards the larger ones: tiny models say little.
        let n = [1, 2, 3, 4, 5, 6, 6, 5][b.below(8)];
        let domains: Vec<Vec<Value>> = (0..n)
            .map(|_| {
                // Mostly around zero; sometimes at an end of the i64 range.
                let base = match b.byte() {
                    0..=239 => 0,
                    x => extreme(x).clamp(Value::MIN + 4, Value::MAX - 4),
                };
                let size = [1, 2, 3, 4, 5, 5, 4, 3][b.below(8)];
                // `size` distinct values of -4..=4 (a partial shuffle).
                let mut pool: Vec<Value> = (-4..=4).collect();
                for i in 0..size {
                    let j = i + b.below(pool.len() - i);
                    pool.swap(i, j);
                }
                let mut d: Vec<Value> = pool[..size].iter().map(|v| base + v).collect();
                d.sort_unstable();
                d
            })
            .collect();
        let count = b.below(MAX_CONSTRAINTS + 1);
        let mut constraints = Vec::with_capacity(count);
        for _ in 0..count {
            let c = Self::decode_constraint(&mut b, &domains);
            constraints.push(c);
        }
        CspSpec {
            domains,
            constraints,
        }
    }

    fn decode_constraint(b: &mut Bytes<'_>, domains: &[Vec<Value>]) -> ConSpec {
        let n = domains.len();
        let vars = |b: &mut Bytes<'_>, lo: usize, hi: usize| -> Vec<usize> {
            let k = lo + b.below(hi - lo + 1);
            (0..k).map(|_| b.below(n)).collect()
        };
        match b.below(8) {
            0 => ConSpec::NotEqual {
                x: b.below(n),
                y: b.below(n),
                offset: b.value(-2, 2),
            },
            1 => {
                let vars = vars(b, 1, 3);
                ConSpec::Linear {
                    coeffs: vars.iter().map(|_| b.value(-3, 3)).collect(),
                    vars,
                    rel: Relation::ALL[b.below(6)],
                    rhs: b.value(-6, 6),
                }
            }
            2 => {
                let vars = vars(b, 1, 3);
                // Now and then an empty table, which nothing satisfies.
                let count = match b.below(16) {
                    15 => 0,
                    k => 1 + k,
                };
                let tuples = (0..count)
                    .map(|_| {
                        vars.iter()
                            .map(|&v| {
                                // Mostly values of the domain, sometimes not.
                                if b.byte() < 200 {
                                    domains[v][b.below(domains[v].len())]
                                } else {
                                    b.value(-5, 5)
                                }
                            })
                            .collect()
                    })
                    .collect();
                ConSpec::Table { vars, tuples }
            }
            3 => ConSpec::Predicate {
                vars: vars(b, 1, 3),
                rule: Rule::decode(b),
            },
            4 => ConSpec::CheckOnly {
                vars: vars(b, 1, 3),
                rule: Rule::decode(b),
            },
            5 => {
                // Mostly distinct variables: with one repeated (and equal
                // offsets) nothing satisfies it.
                let vars = if b.below(8) == 0 {
                    vars(b, 2, 4)
                } else {
                    let mut pool: Vec<usize> = (0..n).collect();
                    let k = (2 + b.below(3)).min(n);
                    for i in 0..k {
                        let j = i + b.below(n - i);
                        pool.swap(i, j);
                    }
                    pool.truncate(k);
                    pool
                };
                let shifted = b.byte() % 2 == 1;
                let offsets = vars
                    .iter()
                    .map(|_| if shifted { b.value(-2, 2) } else { 0 })
                    .collect();
                ConSpec::AllDifferent { vars, offsets }
            }
            6 => {
                let index = b.below(n);
                let len = 1 + b.below(5);
                ConSpec::Element {
                    index,
                    array: (0..len).map(|_| b.value(-4, 4)).collect(),
                    result: b.below(n),
                }
            }
            _ => ConSpec::VarElement {
                index: b.below(n),
                items: vars(b, 1, 3),
                result: b.below(n),
            },
        }
    }

    /// The model, and the constraints it holds: a linear constraint whose sums
    /// could overflow is refused by the model (an expected error) and left out.
    pub fn build(&self) -> Result<(Model, Vec<ConSpec>), String> {
        let mut m = Model::new();
        let xs: Vec<VarId> = self
            .domains
            .iter()
            .map(|d| m.int_var(d.clone()))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("declaring a variable: {e}"))?;
        let ids = |vs: &[usize]| -> Vec<VarId> { vs.iter().map(|&v| xs[v]).collect() };
        let mut posted = Vec::new();
        for c in &self.constraints {
            let r = match c {
                ConSpec::NotEqual { x, y, offset } => m.not_equal_offset(xs[*x], xs[*y], *offset),
                ConSpec::Linear {
                    coeffs,
                    vars,
                    rel,
                    rhs,
                } => m.linear(coeffs, &ids(vars), *rel, *rhs),
                ConSpec::Table { vars, tuples } => m.table(&ids(vars), tuples.clone()),
                ConSpec::Predicate { vars, rule } => {
                    let rule = *rule;
                    m.predicate("rule", &ids(vars), move |v| rule.holds(v))
                }
                ConSpec::CheckOnly { vars, rule } => m.post(CheckOnly {
                    scope: ids(vars),
                    rule: *rule,
                }),
                ConSpec::AllDifferent { vars, offsets } => {
                    m.all_different_offsets(&ids(vars), offsets)
                }
                ConSpec::Element {
                    index,
                    array,
                    result,
                } => m.element(xs[*index], array, xs[*result]),
                ConSpec::VarElement {
                    index,
                    items,
                    result,
                } => m.element_var(xs[*index], &ids(items), xs[*result]),
            };
            match r {
                Ok(_) => posted.push(c.clone()),
                Err(CspError::Overflow { .. }) if matches!(c, ConSpec::Linear { .. }) => {}
                Err(e) => return Err(format!("posting {c:?}: {e}")),
            }
        }
        Ok((m, posted))
    }
}

/// Every solution, by enumerating the cartesian product of the domains and
/// calling each posted constraint's `check`. Also compares `check` with the
/// reference semantics on every tuple it evaluates.
pub fn brute_force(spec: &CspSpec) -> Result<BTreeSet<Vec<Value>>, String> {
    let (model, posted) = spec.build()?;
    let doms = &spec.domains;
    let total: usize = doms.iter().map(Vec::len).product();
    let mut out = BTreeSet::new();
    let mut tuple = Vec::new();
    for mut k in 0..total {
        let mut a = vec![0; doms.len()];
        for (i, d) in doms.iter().enumerate().rev() {
            a[i] = d[k % d.len()];
            k /= d.len();
        }
        let mut all = true;
        for ((_, c), reference) in model.constraints().zip(&posted) {
            tuple.clear();
            tuple.extend(c.scope().iter().map(|v| a[v.index()]));
            let ok = c.check(&tuple);
            if ok != reference.holds(&a) {
                return Err(format!(
                    "check of {reference:?} says {ok} on {a:?}, the reference says {}",
                    !ok
                ));
            }
            all &= ok;
        }
        if all {
            out.insert(a);
        }
    }
    Ok(out)
}

/// Variable orders, with a seed for the random one.
pub fn var_orders(seed: u64) -> [VarOrder; 6] {
    [
        VarOrder::Input,
        VarOrder::FirstFail,
        VarOrder::MrvDegree,
        VarOrder::DomOverWdeg,
        VarOrder::Random(seed),
        VarOrder::AfcSize,
    ]
}

/// Value orders, with a seed for the random one.
pub fn val_orders(seed: u64) -> [ValOrder; 5] {
    [
        ValOrder::Ascending,
        ValOrder::Descending,
        ValOrder::MiddleOut,
        ValOrder::LeastConstraining,
        ValOrder::Random(seed),
    ]
}

/// Every pruning level x variable order (6) x value order (5, and the two
/// splitting orders), plus per level a tiny trail budget and restarts
/// (Luby with dom/wdeg, geometric with a random order, each also
/// recomputing); at the propagators level split choices also with
/// recomputation, intervals and restarts.
pub fn every_config(seed: u64) -> Vec<Config> {
    let mut out = Vec::new();
    for pruning in Pruning::ALL {
        for var in var_orders(seed) {
            let splits = [ValOrder::Split, ValOrder::ReverseSplit];
            for val in val_orders(seed.wrapping_add(1)).into_iter().chain(splits) {
                let config = Config::textbook()
                    .with_pruning(pruning)
                    .with_var_order(var)
                    .with_val_order(val);
                if pruning == Pruning::Propagators {
                    out.push(config.clone().with_binary_branching(true));
                }
                out.push(config);
            }
        }
        // Undo records dropped at every level: backtracking recomputes.
        let tiny = Config::textbook()
            .with_pruning(pruning)
            .with_trail_budget(Some(1));
        if pruning == Pruning::Propagators {
            out.push(tiny.clone().with_binary_branching(true));
        }
        out.push(tiny.clone());
        // Every range an interval until its first hole, with and without
        // recomputation.
        for lazy in [Config::textbook().with_pruning(pruning), tiny] {
            let lazy = lazy.with_lazy_bits_above(0);
            if pruning == Pruning::Propagators {
                out.push(lazy.clone().with_binary_branching(true));
            }
            out.push(lazy);
        }
        // Restarts after very few failures: many runs on these small trees.
        for (restarts, var) in [
            (Restarts::Luby { scale: 1 }, VarOrder::DomOverWdeg),
            (
                Restarts::Geometric {
                    base: 1,
                    factor: 1.5,
                },
                VarOrder::Random(seed),
            ),
        ] {
            let config = Config::textbook()
                .with_pruning(pruning)
                .with_var_order(var)
                .with_restarts(restarts);
            if pruning == Pruning::Propagators {
                out.push(config.clone().with_binary_branching(true));
            }
            out.push(config.clone().with_trail_budget(Some(1)));
            out.push(config);
        }
    }
    // Look-back: every combination, with a static and a dynamic order, and
    // with recomputation and restarts (user constraints explained by scope).
    for (pruning, backjumping) in [
        (Pruning::Check, Backjumping::Gbj),
        (Pruning::Check, Backjumping::Cbj),
        (Pruning::ForwardChecking, Backjumping::Cbj),
        (Pruning::ArcConsistency, Backjumping::Cbj),
    ] {
        let lb = Config::textbook()
            .with_pruning(pruning)
            .with_backjumping(backjumping);
        out.push(lb.clone());
        out.push(
            lb.clone()
                .with_var_order(VarOrder::FirstFail)
                .with_val_order(ValOrder::Random(seed)),
        );
        out.push(
            lb.with_var_order(VarOrder::DomOverWdeg)
                .with_restarts(Restarts::Luby { scale: 1 })
                .with_trail_budget(Some(1)),
        );
    }
    // Split choices (`x <= m | x > m`) replayed by recomputation, on
    // intervals, and across restarts.
    for val in [ValOrder::Split, ValOrder::ReverseSplit] {
        let split = Config::textbook()
            .with_pruning(Pruning::Propagators)
            .with_binary_branching(true)
            .with_val_order(val);
        out.push(split.clone().with_trail_budget(Some(1)));
        out.push(split.clone().with_lazy_bits_above(0));
        out.push(
            split
                .with_var_order(VarOrder::DomOverWdeg)
                .with_restarts(Restarts::Luby { scale: 1 })
                .with_trail_budget(Some(1)),
        );
    }
    out
}

fn describe(config: &Config) -> String {
    format!(
        "{}{} / {} / {}{}{}{}{}",
        config.pruning,
        match config.backjumping {
            Backjumping::None => String::new(),
            b => format!("-{b}"),
        },
        config.var_order,
        config.val_order,
        if config.binary_branching {
            " / binary"
        } else {
            ""
        },
        if config.trail_budget == Some(1) {
            " / recomputing"
        } else {
            ""
        },
        if config.lazy_bits_above == 0 {
            " / intervals"
        } else {
            ""
        },
        if config.restarts == Restarts::Never {
            String::new()
        } else {
            format!(" / restarts {}", config.restarts)
        }
    )
}

/// Runs `config` to the end and compares its solutions with `expected`: the same
/// set, each once, and a complete search.
pub fn check_config(
    model: &Model,
    config: Config,
    expected: &BTreeSet<Vec<Value>>,
) -> Result<(), String> {
    let what = describe(&config);
    let mut solver = Solver::new(model, config).map_err(|e| format!("{what}: {e}"))?;
    let mut found = BTreeSet::new();
    while let Some(s) = solver.next_solution() {
        let v = s.into_values();
        if !expected.contains(&v) {
            return Err(format!("{what}: {v:?} is not a solution"));
        }
        if !found.insert(v.clone()) {
            return Err(format!("{what}: {v:?} found twice"));
        }
    }
    if solver.status() != SearchStatus::Complete {
        return Err(format!("{what}: ended {}", solver.status()));
    }
    if found.len() != expected.len() {
        let missing = expected.difference(&found).next();
        return Err(format!(
            "{what}: found {} of {} solutions, missing {missing:?}",
            found.len(),
            expected.len()
        ));
    }
    if solver.stats().solutions != expected.len() as u64 {
        return Err(format!(
            "{what}: stats count {} solutions",
            solver.stats().solutions
        ));
    }
    Ok(())
}

/// Every configuration finds exactly the brute-force solutions.
pub fn check_every_config(spec: &CspSpec, configs: &[Config]) -> Result<(), String> {
    let expected = brute_force(spec)?;
    let (model, _) = spec.build()?;
    let mut errors = String::new();
    for config in configs {
        if let Err(e) = check_config(&model, config.clone(), &expected) {
            writeln!(errors, "{e}").unwrap();
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} solutions by brute force; disagreements:\n{errors}",
            expected.len()
        ))
    }
}

/// What the fuzz target checks for one input: byte 0 picks the variable and
/// value orders (and the random seed), the rest decodes the model; every pruning
/// level runs with those orders and with the default ones.
pub fn fuzz_case(data: &[u8]) -> (CspSpec, Vec<Config>) {
    let (head, rest) = data.split_first().map_or((0, data), |(&h, r)| (h, r));
    let spec = CspSpec::from_bytes(rest);
    let seed = u64::from(head);
    let var = var_orders(seed)[usize::from(head) % 6];
    let val = val_orders(seed)[usize::from(head) / 5 % 5];
    let mut configs = Vec::new();
    for pruning in Pruning::ALL {
        configs.push(Config::textbook().with_pruning(pruning));
        configs.push(
            Config::textbook()
                .with_pruning(pruning)
                .with_var_order(var)
                .with_val_order(val),
        );
    }
    (spec, configs)
}

/// The statistics without the elapsed time (which differs from run to run).
pub fn without_time(mut s: SearchStats) -> SearchStats {
    s.elapsed = Default::default();
    s
}

/// The spec decoded from `bytes`, its model, and its solutions by brute force.
pub fn spec_and_model(bytes: &[u8]) -> (CspSpec, Model, BTreeSet<Vec<Value>>) {
    let spec = CspSpec::from_bytes(bytes);
    let expected = brute_force(&spec).unwrap();
    let (model, _) = spec.build().unwrap();
    (spec, model, expected)
}
