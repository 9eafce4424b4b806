//! Exhaustive constraint harness (after Gecode's): every sub-domain combination of
//! tiny domains, every narrowing pruning level, every `propagate` call audited
//! against a brute-force enumeration of the constraint's solutions.
//!
//! The public API has no way to build a `PropagationContext`, so each constraint
//! under test is posted inside a [`Spy`]: a constraint that snapshots the domains,
//! calls the real `propagate` with the engine's context, snapshots again and
//! audits the call. The engine then drives the spy as usual:
//! - `Solver::new` runs the root propagation (forward checking without a
//!   trigger, or the AC-3 queue of `ArcConsistency` and `Propagators`);
//! - for forward checking *with* a trigger, the spy ignores the root call and a
//!   variable selector decides the chosen variable first, so the first triggered
//!   call sees exactly the sub-domains with that variable fixed;
//! - every search is run to the end, so deeper calls are audited too, and the
//!   count is compared with brute force.
//!
//! Each audited call must be sound (no solution of the constraint within the
//! input domains loses a value), report `Conflict` only without solutions and
//! `Entailed` only when every remaining combination satisfies the constraint,
//! say `Unchanged` only when nothing changed, and reach its documented strength
//! (for example generalised arc consistency for `Table` and `Element`).
//!
//! Shared by `tests/exhaustive.rs` (the original constraints) and
//! `tests/exhaustive_arith.rs` (arithmetic, counting, logic, element with an offset).

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use csp_core::branching::Ascending;
use csp_core::{
    Config, Constraint, Domains, Events, ForwardStep, Model, NoObserver, PropCost, PropStatus,
    Propagation, PropagationContext, Pruning, Relation, SearchView, Solver, StateLayout, Value,
    VarId, VariableSelector,
};

// ------------------------------------------------------------ sums' oracle

/// `s rel rhs`, written out here rather than taken from the engine.
pub fn compare(s: i128, rel: Relation, rhs: i128) -> bool {
    match rel {
        Relation::Eq => s == rhs,
        Relation::Ne => s != rhs,
        Relation::Le => s <= rhs,
        Relation::Lt => s < rhs,
        Relation::Ge => s >= rhs,
        Relation::Gt => s > rhs,
    }
}

/// Whether `sum coeffs[i] * values[i]  rel  rhs`, in `i128`.
pub fn sum_holds(coeffs: &[Value], values: &[Value], rel: Relation, rhs: Value) -> bool {
    let s: i128 = coeffs
        .iter()
        .zip(values)
        .map(|(&a, &v)| i128::from(a) * i128::from(v))
        .sum();
    compare(s, rel, i128::from(rhs))
}

// ------------------------------------------------------------------ the harness

/// When a `propagate` call happens, as far as the contract is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Forward checking at the root (no trigger).
    FcRoot,
    /// Forward checking after a decision on the trigger variable.
    FcTrigger,
    /// Maintaining arc consistency.
    Ac,
    /// Each constraint's strongest filtering.
    Propagators,
}

impl Level {
    pub const ALL: [Level; 4] = [
        Level::FcRoot,
        Level::FcTrigger,
        Level::Ac,
        Level::Propagators,
    ];

    pub fn of(pruning: Pruning, trigger: Option<(VarId, usize)>) -> Level {
        match (pruning, trigger) {
            (Pruning::ForwardChecking, None) => Level::FcRoot,
            (Pruning::ForwardChecking, Some(_)) => Level::FcTrigger,
            (Pruning::ArcConsistency, _) => Level::Ac,
            (Pruning::Propagators, _) => Level::Propagators,
            (p, _) => panic!("propagate called under {p}"),
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// What a successful `propagate` call must achieve beyond soundness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Soundness only.
    Sound,
    /// Generalised arc consistency: every value left has a support.
    Gac,
    /// GAC whenever at most one variable of the scope was open (the forward
    /// checking guarantee).
    GacWhenOneOpen,
    /// Arc consistency of the pairwise decomposition of all-different with these
    /// offsets: no value left equals (after shifting) a fixed variable's value.
    PairwiseAc(Vec<Value>),
    /// Bounds(R) consistency of `sum coeffs * scope  relation  rhs`: the smallest
    /// and largest value of every variable have a support over the real
    /// relaxation of the other variables' bounds. For scopes without repeats.
    BoundsR(Vec<Value>, Relation, Value),
}

/// Reference semantics of a constraint over scope-ordered tuples.
pub type Spec = dyn Fn(&[Value]) -> bool + Send + Sync;

/// A constraint under test, with its reference semantics and tiny domains.
pub struct Case {
    pub name: String,
    pub constraint: Arc<dyn Constraint>,
    /// The domain of each model variable `VarId(0..n)`; every one is in the scope.
    pub domains: Vec<Vec<Value>>,
    /// Reference semantics over scope-ordered tuples, written independently of
    /// the constraint's `check`.
    pub spec: Box<Spec>,
    /// The strength each level must reach.
    pub strength: [Strength; 4],
    /// Most sub-domain combinations to visit (a deterministic sample above it).
    pub max_combos: usize,
}

pub fn case(
    name: impl Into<String>,
    constraint: impl Constraint + 'static,
    domains: &[&[Value]],
    spec: impl Fn(&[Value]) -> bool + Send + Sync + 'static,
) -> Case {
    Case {
        name: name.into(),
        constraint: Arc::new(constraint),
        domains: domains.iter().map(|d| d.to_vec()).collect(),
        spec: Box::new(spec),
        strength: std::array::from_fn(|_| Strength::Sound),
        max_combos: 4_000,
    }
}

impl Case {
    /// Strengths for forward checking at the root, after a trigger, MAC, propagators.
    pub fn strength(
        mut self,
        fc_root: Strength,
        fc: Strength,
        ac: Strength,
        prop: Strength,
    ) -> Self {
        self.strength = [fc_root, fc, ac, prop];
        self
    }

    pub fn everywhere(self, s: Strength) -> Self {
        self.strength(s.clone(), s.clone(), s.clone(), s)
    }

    pub fn n(&self) -> usize {
        self.domains.len()
    }

    pub fn scope_tuple(&self, assignment: &[Value]) -> Vec<Value> {
        self.constraint
            .scope()
            .iter()
            .map(|v| assignment[v.index()])
            .collect()
    }

    pub fn holds(&self, assignment: &[Value]) -> bool {
        self.constraint.check(&self.scope_tuple(assignment))
    }

    /// The assignments (one value per model variable) within `doms` that satisfy
    /// the constraint.
    pub fn solutions(&self, doms: &[Vec<Value>]) -> Vec<Vec<Value>> {
        assignments(doms).filter(|a| self.holds(a)).collect()
    }
}

/// Every assignment of the cartesian product of `doms`, in odometer order.
pub fn assignments(doms: &[Vec<Value>]) -> impl Iterator<Item = Vec<Value>> + '_ {
    let total: usize = doms.iter().map(Vec::len).product();
    (0..total).map(move |mut k| {
        let mut a = vec![0; doms.len()];
        for (i, d) in doms.iter().enumerate().rev() {
            a[i] = d[k % d.len()];
            k /= d.len();
        }
        a
    })
}

/// The non-empty subsets of `d`.
pub fn subsets(d: &[Value]) -> Vec<Vec<Value>> {
    (1u32..1 << d.len())
        .map(|mask| {
            d.iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &v)| v)
                .collect()
        })
        .collect()
}

/// Every combination of non-empty sub-domains, or a deterministic sample of
/// `limit` of them (always with the full domains and the first combinations).
pub fn combos(domains: &[Vec<Value>], limit: usize) -> Vec<Vec<Vec<Value>>> {
    let subs: Vec<Vec<Vec<Value>>> = domains.iter().map(|d| subsets(d)).collect();
    let counts: Vec<Vec<Value>> = subs
        .iter()
        .map(|s| (0..s.len() as Value).collect())
        .collect();
    let total: usize = subs.iter().map(Vec::len).product();
    let pick = |idx: Vec<Value>| -> Vec<Vec<Value>> {
        idx.iter()
            .zip(&subs)
            .map(|(&i, s)| s[i as usize].clone())
            .collect()
    };
    if total <= limit {
        return assignments(&counts).map(pick).collect();
    }
    // A fixed stride coprime with the total visits a spread-out sample.
    let mut stride = total / limit + 1;
    while gcd(stride, total) != 1 {
        stride += 1;
    }
    let all: Vec<Vec<Value>> = assignments(&counts).collect();
    let mut out: Vec<Vec<Vec<Value>>> = (0..limit)
        .map(|k| pick(all[(k * stride) % total].clone()))
        .collect();
    out.push(domains.to_vec());
    out
}

pub fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

pub fn snapshot(d: &Domains, n: usize) -> Vec<Vec<Value>> {
    (0..n).map(|i| d.values(VarId::new(i)).collect()).collect()
}

/// Violations and call counts of one case.
#[derive(Default)]
pub struct Report {
    pub calls: [usize; 4],
    pub promising_checks: usize,
    pub violations: Vec<String>,
}

/// The shared state between a case's spies and the test.
pub struct Harness {
    pub case: Case,
    pub report: Mutex<Report>,
}

impl Harness {
    pub fn violation(&self, text: String) {
        self.report.lock().unwrap().violations.push(text);
    }

    /// Audits one `propagate` call.
    pub fn audit(
        &self,
        level: Level,
        trigger: Option<(VarId, usize)>,
        before: &[Vec<Value>],
        result: Propagation,
        after: &[Vec<Value>],
    ) {
        let c = &self.case;
        let scope = c.constraint.scope();
        let mut bad: Vec<String> = Vec::new();
        if let Some((var, pos)) = trigger {
            if scope.get(pos) != Some(&var) || scope[..pos].contains(&var) {
                bad.push(format!(
                    "trigger {var:?} at {pos} is not its first scope position"
                ));
            }
            if before[var.index()].len() != 1 {
                bad.push("the trigger variable is not fixed".into());
            }
        }
        let sols = c.solutions(before);
        match result {
            Err(_) => {
                if let Some(s) = sols.first() {
                    bad.push(format!("conflict, but {s:?} is a solution"));
                }
            }
            Ok(status) => {
                for (k, (b, a)) in before.iter().zip(after).enumerate() {
                    if a.iter().any(|v| !b.contains(v)) {
                        bad.push(format!("x{k} gained values"));
                    }
                }
                if let Some(s) = sols
                    .iter()
                    .find(|s| s.iter().zip(after).any(|(v, d)| !d.contains(v)))
                {
                    bad.push(format!("removed a value of the solution {s:?}"));
                }
                match status {
                    PropStatus::Unchanged if after != before => {
                        bad.push("said Unchanged but changed a domain".into())
                    }
                    PropStatus::Changed if after == before => {
                        bad.push("said Changed but changed nothing".into())
                    }
                    PropStatus::Entailed => {
                        if let Some(a) = assignments(after).find(|a| !c.holds(a)) {
                            bad.push(format!("said Entailed, but {a:?} violates it"));
                        }
                    }
                    _ => {}
                }
                self.strength(level, before, after, &mut bad);
            }
        }
        let mut report = self.report.lock().unwrap();
        report.calls[level.index()] += 1;
        if !bad.is_empty() {
            report.violations.push(format!(
                "{}: {level:?}, trigger {trigger:?}\n  before {before:?}\n  after  {after:?}\n  result {result:?}\n  {}",
                c.name,
                bad.join("; ")
            ));
        }
    }

    pub fn strength(
        &self,
        level: Level,
        before: &[Vec<Value>],
        after: &[Vec<Value>],
        bad: &mut Vec<String>,
    ) {
        let c = &self.case;
        let scope = c.constraint.scope();
        let gac = |bad: &mut Vec<String>| {
            let sols = c.solutions(after);
            for (k, d) in after.iter().enumerate() {
                for &v in d {
                    if !sols.iter().any(|s| s[k] == v) {
                        bad.push(format!("not GAC: x{k} = {v} has no support"));
                    }
                }
            }
        };
        match &c.strength[level.index()] {
            Strength::Sound => {}
            Strength::Gac => gac(bad),
            Strength::GacWhenOneOpen => {
                if before.iter().filter(|d| d.len() > 1).count() <= 1 {
                    gac(bad);
                }
            }
            Strength::PairwiseAc(offsets) => {
                for (p, &x) in scope.iter().enumerate() {
                    for (q, &y) in scope.iter().enumerate() {
                        if x == y {
                            continue;
                        }
                        for &a in &after[x.index()] {
                            let supported = after[y.index()]
                                .iter()
                                .any(|&b| a + offsets[p] != b + offsets[q]);
                            if !supported {
                                bad.push(format!(
                                    "not pairwise AC: x{} = {a} has no support on x{}",
                                    x.index(),
                                    y.index()
                                ));
                            }
                        }
                    }
                }
            }
            Strength::BoundsR(coeffs, rel, rhs) => {
                let range = |p: usize, fixed: Option<Value>| -> (i128, i128) {
                    let d = &after[scope[p].index()];
                    let (lo, hi) = match fixed {
                        Some(v) => (v, v),
                        None => (d[0], d[d.len() - 1]),
                    };
                    let (a, b) = (
                        i128::from(coeffs[p]) * i128::from(lo),
                        i128::from(coeffs[p]) * i128::from(hi),
                    );
                    (a.min(b), a.max(b))
                };
                let rhs = i128::from(*rhs);
                for (p, &x) in scope.iter().enumerate() {
                    let d = &after[x.index()];
                    for v in [d[0], d[d.len() - 1]] {
                        let (mut lo, mut hi) = (0, 0);
                        for q in 0..scope.len() {
                            let (l, h) = range(q, (q == p).then_some(v));
                            lo += l;
                            hi += h;
                        }
                        let ok = match rel {
                            Relation::Eq => lo <= rhs && rhs <= hi,
                            Relation::Le => lo <= rhs,
                            Relation::Lt => lo < rhs,
                            Relation::Ge => hi >= rhs,
                            Relation::Gt => hi > rhs,
                            Relation::Ne => true,
                        };
                        if !ok {
                            bad.push(format!("not bounds(R): x{} = {v}", x.index()));
                        }
                    }
                }
            }
        }
    }

    /// (d): `promising` equals `check` on complete assignments and never rejects
    /// domains that hold a solution.
    pub fn audit_promising(&self, doms: &[Vec<Value>], domains: &Domains) {
        let c = &self.case;
        let said = c.constraint.promising(domains);
        let mut bad = None;
        if doms.iter().all(|d| d.len() == 1) {
            let a: Vec<Value> = doms.iter().map(|d| d[0]).collect();
            if said != c.holds(&a) {
                bad = Some(format!("promising says {said} but check says {}", !said));
            }
        } else if !said && let Some(s) = c.solutions(doms).first() {
            bad = Some(format!("promising says no, but {s:?} is a solution"));
        }
        let mut report = self.report.lock().unwrap();
        report.promising_checks += 1;
        if let Some(b) = bad {
            report
                .violations
                .push(format!("{}: promising on {doms:?}: {b}", c.name));
        }
    }
}

/// Posts the constraint under test and audits each of its `propagate` calls.
///
/// It forwards everything the engine asks of a constraint (`events`,
/// `idempotent`, `wake_set`, `forward_step`, `cost`, `state_layout`), so the
/// kernel drives the constraint exactly as it would drive it alone, unless
/// `wake_all`: then it asks to be woken by every change (`Events::DOMAIN`
/// everywhere, no wake set, not idempotent), the reference run against which
/// the subscriptions are checked.
pub struct Spy {
    pub harness: Arc<Harness>,
    /// Skip calls without a trigger, so that the first triggered call sees the
    /// sub-domains exactly as declared.
    pub skip_untriggered: bool,
    /// Woken by every change instead of by the constraint's subscriptions.
    pub wake_all: bool,
}

impl Constraint for Spy {
    fn scope(&self) -> &[VarId] {
        self.harness.case.constraint.scope()
    }

    fn check(&self, values: &[Value]) -> bool {
        self.harness.case.constraint.check(values)
    }

    fn name(&self) -> &str {
        self.harness.case.constraint.name()
    }

    fn promising(&self, domains: &Domains) -> bool {
        self.harness.case.constraint.promising(domains)
    }

    fn state_layout(&self, pruning: Pruning) -> StateLayout {
        self.harness.case.constraint.state_layout(pruning)
    }

    fn events(&self, pos: usize) -> Events {
        if self.wake_all {
            Events::DOMAIN
        } else {
            self.harness.case.constraint.events(pos)
        }
    }

    fn idempotent(&self) -> bool {
        !self.wake_all && self.harness.case.constraint.idempotent()
    }

    fn wake_set(&self) -> Option<usize> {
        if self.wake_all {
            None
        } else {
            self.harness.case.constraint.wake_set()
        }
    }

    fn forward_step(&self) -> Option<ForwardStep> {
        // Under forward checking the engine runs the step itself when it can,
        // so such calls are not audited; skipping it audits them all.
        if self.skip_untriggered || self.wake_all {
            None
        } else {
            self.harness.case.constraint.forward_step()
        }
    }

    fn cost(&self) -> PropCost {
        self.harness.case.constraint.cost()
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if self.skip_untriggered && ctx.trigger().is_none() {
            return Ok(PropStatus::Unchanged);
        }
        let level = Level::of(ctx.pruning(), ctx.trigger());
        let n = self.harness.case.n();
        let before = snapshot(ctx.domains(), n);
        let c = &self.harness.case.constraint;
        let result = c.propagate(ctx);
        let after = snapshot(ctx.domains(), n);
        self.harness
            .audit(level, ctx.trigger(), &before, result, &after);
        // An idempotent constraint is at its own fixpoint after one call.
        if level == Level::Propagators && c.idempotent() && result.is_ok() {
            let again = c.propagate(ctx);
            let twice = snapshot(ctx.domains(), n);
            if again.is_err() || twice != after {
                self.harness.violation(format!(
                    "{}: claims to be idempotent, but a second call on {after:?} gave {again:?} and {twice:?}",
                    self.harness.case.name
                ));
                return again.and(result);
            }
        }
        result
    }
}

/// Decides one chosen variable first, then the others in input order.
pub struct Prefer(VarId);

impl VariableSelector for Prefer {
    fn select(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        if view.is_decided(self.0) {
            view.undecided().next()
        } else {
            Some(self.0)
        }
    }

    fn name(&self) -> &str {
        "prefer"
    }
}

pub fn model_with(harness: &Arc<Harness>, doms: &[Vec<Value>], skip_untriggered: bool) -> Model {
    spy_model(harness, doms, skip_untriggered, false)
}

pub fn spy_model(
    harness: &Arc<Harness>,
    doms: &[Vec<Value>],
    skip_untriggered: bool,
    wake_all: bool,
) -> Model {
    let mut m = Model::new();
    for d in doms {
        m.int_var(d.clone()).unwrap();
    }
    m.post(Spy {
        harness: Arc::clone(harness),
        skip_untriggered,
        wake_all,
    })
    .unwrap();
    m
}

/// Runs every check of the harness on one case and returns its report.
pub fn run(case: Case) -> Report {
    let n = case.n();
    let scope_vars: Vec<usize> = case.constraint.scope().iter().map(|v| v.index()).collect();
    assert!(
        (0..n).all(|i| scope_vars.contains(&i)) && scope_vars.iter().all(|&i| i < n),
        "{}: the scope must cover exactly the case's variables",
        case.name
    );
    // The constraint's check against the independent reference.
    for a in assignments(&case.domains) {
        let t = case.scope_tuple(&a);
        assert_eq!(
            case.constraint.check(&t),
            (case.spec)(&t),
            "{}: check disagrees with the reference on {t:?}",
            case.name
        );
    }
    let all = combos(&case.domains, case.max_combos);
    let harness = Arc::new(Harness {
        case,
        report: Mutex::new(Report::default()),
    });
    let mismatch = |what: &str, doms: &[Vec<Value>], got: u64, want: usize| {
        harness.violation(format!(
            "{}: {what} on {doms:?} counted {got} solutions, brute force {want}",
            harness.case.name
        ));
    };
    for doms in &all {
        let want = harness.case.solutions(doms).len();
        // (d) promising, on the untouched domains.
        let m = model_with(&harness, doms, false);
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::None)).unwrap();
        harness.audit_promising(doms, s.domains());
        // Root propagation (and the search below it) at each narrowing level.
        for pruning in [
            Pruning::ForwardChecking,
            Pruning::ArcConsistency,
            Pruning::Propagators,
        ] {
            let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
            let r = s.count();
            if !r.is_complete() || r.solutions != want as u64 {
                mismatch(pruning.as_str(), doms, r.solutions, want);
            }
        }
        // Binary choices (x = v, then x != v with propagation), first-fail.
        let config = Config::textbook()
            .with_pruning(Pruning::Propagators)
            .with_var_order(csp_core::VarOrder::FirstFail)
            .with_binary_branching(true);
        let r = Solver::new(&m, config.clone()).unwrap().count();
        if !r.is_complete() || r.solutions != want as u64 {
            mismatch("propagators, binary", doms, r.solutions, want);
        }
        // The subscriptions (events, wake set, idempotence): woken by every
        // change instead, the constraint must filter no more, so the tree is
        // the same. (A change it does not subscribe to would otherwise have
        // let it remove a value, and some node would differ.)
        let everything = spy_model(&harness, doms, false, true);
        for config in [
            config,
            Config::textbook().with_pruning(Pruning::Propagators),
        ] {
            let tree = |m: &Model| {
                let mut s = Solver::new(m, config.clone()).unwrap();
                let sols: Vec<Vec<Value>> = s.solutions().map(|s| s.values().to_vec()).collect();
                (sols, s.stats().tried)
            };
            let (subscribed, all) = (tree(&m), tree(&everything));
            if subscribed != all {
                harness.violation(format!(
                    "{}: on {doms:?}, woken as subscribed: {} solutions in {} nodes; woken by every change: {} in {}",
                    harness.case.name,
                    subscribed.0.len(),
                    subscribed.1,
                    all.0.len(),
                    all.1
                ));
            }
        }
        // Forward checking triggered by each variable, on exactly these domains.
        let m = model_with(&harness, doms, true);
        for t in 0..n {
            let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
            let mut s =
                Solver::with_selectors(&m, config, Prefer(VarId::new(t)), Ascending, NoObserver)
                    .unwrap();
            let r = s.count();
            if !r.is_complete() || r.solutions != want as u64 {
                mismatch(&format!("fc after x{t}"), doms, r.solutions, want);
            }
        }
    }
    let harness = Arc::into_inner(harness).expect("solvers dropped");
    harness.report.into_inner().unwrap()
}

/// Runs the case and fails with the first violations; also fails if a level was
/// never exercised (a harness that audits nothing cannot fail).
pub fn assert_trustworthy(case: Case) {
    let name = case.name.clone();
    let report = run(case);
    // Visible with --nocapture: how much each case exercised.
    eprintln!(
        "{name}: {} promising checks, propagate calls {:?} (fc root, fc trigger, mac, propagators)",
        report.promising_checks, report.calls
    );
    let mut text = String::new();
    for v in report.violations.iter().take(8) {
        writeln!(text, "{v}").unwrap();
    }
    assert!(
        report.violations.is_empty(),
        "{name}: {} violations, the first ones:\n{text}",
        report.violations.len()
    );
    for level in Level::ALL {
        assert!(
            report.calls[level.index()] > 0,
            "{name}: propagate was never called at {level:?}"
        );
    }
    assert!(report.promising_checks > 0);
}

pub fn x(i: usize) -> VarId {
    VarId::new(i)
}

/// SplitMix64: deterministic random numbers without a dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn int(&mut self, lo: Value, hi: Value) -> Value {
        lo + (self.next() % (hi - lo + 1) as u64) as Value
    }

    /// A non-empty random subset of `lo..=hi`.
    pub fn domain(&mut self, lo: Value, hi: Value) -> Vec<Value> {
        let mut d: Vec<Value> = (lo..=hi).filter(|_| self.next() % 3 != 0).collect();
        if d.is_empty() {
            d.push(self.int(lo, hi));
        }
        d
    }
}
