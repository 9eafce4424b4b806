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

#[path = "exhaustive/globals.rs"]
mod globals;

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use csp_core::branching::Ascending;
use csp_core::generic::SUPPORT_SEARCH_LIMIT;
use csp_core::{
    AllDifferent, Config, Constraint, Domains, Element, Linear, Model, NoObserver, NotEqual,
    Predicate, PropStatus, Propagation, PropagationContext, Pruning, Relation, SearchView, Solver,
    Table, Value, VarElement, VarId, VariableSelector,
};

// ------------------------------------------------------------------ the harness

/// When a `propagate` call happens, as far as the contract is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
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
    const ALL: [Level; 4] = [
        Level::FcRoot,
        Level::FcTrigger,
        Level::Ac,
        Level::Propagators,
    ];

    fn of(pruning: Pruning, trigger: Option<(VarId, usize)>) -> Level {
        match (pruning, trigger) {
            (Pruning::ForwardChecking, None) => Level::FcRoot,
            (Pruning::ForwardChecking, Some(_)) => Level::FcTrigger,
            (Pruning::ArcConsistency, _) => Level::Ac,
            (Pruning::Propagators, _) => Level::Propagators,
            (p, _) => panic!("propagate called under {p}"),
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// What a successful `propagate` call must achieve beyond soundness.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Strength {
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
type Spec = dyn Fn(&[Value]) -> bool + Send + Sync;

/// A constraint under test, with its reference semantics and tiny domains.
struct Case {
    name: String,
    constraint: Arc<dyn Constraint>,
    /// The domain of each model variable `VarId(0..n)`; every one is in the scope.
    domains: Vec<Vec<Value>>,
    /// Reference semantics over scope-ordered tuples, written independently of
    /// the constraint's `check`.
    spec: Box<Spec>,
    /// The strength each level must reach.
    strength: [Strength; 4],
    /// Most sub-domain combinations to visit (a deterministic sample above it).
    max_combos: usize,
}

fn case(
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
    fn strength(mut self, fc_root: Strength, fc: Strength, ac: Strength, prop: Strength) -> Self {
        self.strength = [fc_root, fc, ac, prop];
        self
    }

    fn everywhere(self, s: Strength) -> Self {
        self.strength(s.clone(), s.clone(), s.clone(), s)
    }

    fn n(&self) -> usize {
        self.domains.len()
    }

    fn scope_tuple(&self, assignment: &[Value]) -> Vec<Value> {
        self.constraint
            .scope()
            .iter()
            .map(|v| assignment[v.index()])
            .collect()
    }

    fn holds(&self, assignment: &[Value]) -> bool {
        self.constraint.check(&self.scope_tuple(assignment))
    }

    /// The assignments (one value per model variable) within `doms` that satisfy
    /// the constraint.
    fn solutions(&self, doms: &[Vec<Value>]) -> Vec<Vec<Value>> {
        assignments(doms).filter(|a| self.holds(a)).collect()
    }
}

/// Every assignment of the cartesian product of `doms`, in odometer order.
fn assignments(doms: &[Vec<Value>]) -> impl Iterator<Item = Vec<Value>> + '_ {
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
fn subsets(d: &[Value]) -> Vec<Vec<Value>> {
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
fn combos(domains: &[Vec<Value>], limit: usize) -> Vec<Vec<Vec<Value>>> {
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

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn snapshot(d: &Domains, n: usize) -> Vec<Vec<Value>> {
    (0..n).map(|i| d.values(VarId::new(i)).collect()).collect()
}

/// Violations and call counts of one case.
#[derive(Default)]
struct Report {
    calls: [usize; 4],
    promising_checks: usize,
    violations: Vec<String>,
}

/// The shared state between a case's spies and the test.
struct Harness {
    case: Case,
    report: Mutex<Report>,
}

impl Harness {
    fn violation(&self, text: String) {
        self.report.lock().unwrap().violations.push(text);
    }

    /// Audits one `propagate` call.
    fn audit(
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

    fn strength(
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
    fn audit_promising(&self, doms: &[Vec<Value>], domains: &Domains) {
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
struct Spy {
    harness: Arc<Harness>,
    /// Skip calls without a trigger, so that the first triggered call sees the
    /// sub-domains exactly as declared.
    skip_untriggered: bool,
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

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if self.skip_untriggered && ctx.trigger().is_none() {
            return Ok(PropStatus::Unchanged);
        }
        let level = Level::of(ctx.pruning(), ctx.trigger());
        let n = self.harness.case.n();
        let before = snapshot(ctx.domains(), n);
        let result = self.harness.case.constraint.propagate(ctx);
        let after = snapshot(ctx.domains(), n);
        self.harness
            .audit(level, ctx.trigger(), &before, result, &after);
        result
    }
}

/// Decides one chosen variable first, then the others in input order.
struct Prefer(VarId);

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

fn model_with(harness: &Arc<Harness>, doms: &[Vec<Value>], skip_untriggered: bool) -> Model {
    let mut m = Model::new();
    for d in doms {
        m.int_var(d.clone()).unwrap();
    }
    m.post(Spy {
        harness: Arc::clone(harness),
        skip_untriggered,
    })
    .unwrap();
    m
}

/// Runs every check of the harness on one case and returns its report.
fn run(case: Case) -> Report {
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
        let s = Solver::new(&m, Config::default().with_pruning(Pruning::None)).unwrap();
        harness.audit_promising(doms, s.domains());
        // Root propagation (and the search below it) at each narrowing level.
        for pruning in [
            Pruning::ForwardChecking,
            Pruning::ArcConsistency,
            Pruning::Propagators,
        ] {
            let mut s = Solver::new(&m, Config::default().with_pruning(pruning)).unwrap();
            let r = s.count();
            if !r.is_complete() || r.solutions != want as u64 {
                mismatch(pruning.as_str(), doms, r.solutions, want);
            }
        }
        // Forward checking triggered by each variable, on exactly these domains.
        let m = model_with(&harness, doms, true);
        for t in 0..n {
            let config = Config::default().with_pruning(Pruning::ForwardChecking);
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
fn assert_trustworthy(case: Case) {
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

fn x(i: usize) -> VarId {
    VarId::new(i)
}

// ------------------------------------------------------------------ the cases

const SPARSE: &[Value] = &[-2, 0, 1, 3];
const NEG: &[Value] = &[-1, 0, 2];
const SMALL: &[Value] = &[0, 1, 2, 3];

#[test]
fn not_equal_with_offsets_is_sound_and_arc_consistent() {
    for offset in [0, 1, -3, 2] {
        let c = NotEqual::new(x(0), x(1), offset);
        assert_trustworthy(
            case(
                format!("x0 != x1 + {offset}"),
                c,
                &[SPARSE, &[-1, 0, 2, 3]],
                move |v| v[0] != v[1] + offset,
            )
            .everywhere(Strength::Gac),
        );
    }
}

#[test]
fn not_equal_on_one_variable_twice_is_sound() {
    for offset in [0, 1] {
        let c = NotEqual::new(x(0), x(0), offset);
        assert_trustworthy(case(format!("x0 != x0 + {offset}"), c, &[NEG], move |v| {
            v[0] != v[1] + offset
        }));
    }
}

fn distinct_after_offsets(offsets: Vec<Value>) -> impl Fn(&[Value]) -> bool + Send + Sync {
    move |v: &[Value]| {
        (0..v.len()).all(|i| (i + 1..v.len()).all(|j| v[i] + offsets[i] != v[j] + offsets[j]))
    }
}

/// Pairwise AC from the root and MAC, only the trigger's value under forward
/// checking, GAC (Régin) under propagators.
fn all_different_case(name: &str, vars: &[VarId], offsets: &[Value], doms: &[&[Value]]) -> Case {
    let c = AllDifferent::with_offsets(vars, offsets).unwrap();
    let pairwise = Strength::PairwiseAc(offsets.to_vec());
    case(name, c, doms, distinct_after_offsets(offsets.to_vec())).strength(
        pairwise.clone(),
        Strength::Sound,
        pairwise,
        Strength::Gac,
    )
}

#[test]
fn all_different_is_sound_and_regin_filtering_is_gac() {
    let xs: Vec<VarId> = (0..4).map(x).collect();
    assert_trustworthy(all_different_case(
        "alldiff(x0..x2) sparse",
        &xs[..3],
        &[0, 0, 0],
        &[&[-1, 0, 2, 3], &[0, 2, 3], &[-1, 0, 3]],
    ));
    assert_trustworthy(all_different_case(
        "alldiff(x0..x2) hall sets",
        &xs[..3],
        &[0, 0, 0],
        &[&[0, 1, 2], &[0, 1, 2], &[0, 1, 2]],
    ));
    // 15^4 combinations: a sample of 4,000.
    assert_trustworthy(all_different_case(
        "alldiff(x0..x3) sampled",
        &xs,
        &[0, 0, 0, 0],
        &[&[-1, 0, 1, 3], SMALL, &[0, 1, 2, 4], SPARSE],
    ));
    assert_trustworthy(all_different_case(
        "alldiff(x0..x3) pigeons",
        &xs,
        &[0, 0, 0, 0],
        &[&[0, 1, 2], &[0, 1, 2], &[0, 1, 2], &[0, 1, 2]],
    ));
}

#[test]
fn all_different_with_offsets_is_sound_and_regin_filtering_is_gac() {
    let xs: Vec<VarId> = (0..4).map(x).collect();
    assert_trustworthy(all_different_case(
        "alldiff(x0, x1+1, x2-2)",
        &xs[..3],
        &[0, 1, -2],
        &[SPARSE, &[-1, 0, 1], &[0, 2, 3]],
    ));
    assert_trustworthy(all_different_case(
        "alldiff(x0, x1-1, x2+1, x3)",
        &xs,
        &[0, -1, 1, 0],
        &[&[0, 1, 2], &[0, 1, 3], &[-1, 0, 1], &[0, 2]],
    ));
}

#[test]
fn all_different_with_a_repeated_variable_is_sound() {
    // x0 != x1, x1 != x0 + 1, x0 != x0 + 1 (always true).
    let c = AllDifferent::with_offsets(&[x(0), x(1), x(0)], &[0, 0, 1]).unwrap();
    assert_trustworthy(case(
        "alldiff(x0, x1, x0+1)",
        c,
        &[&[-1, 0, 1, 2], &[0, 1, 2]],
        distinct_after_offsets(vec![0, 0, 1]),
    ));
    // Positions 2 and 3 pair x0 + 1 with x1 - 1; neither is a first position.
    let c = AllDifferent::with_offsets(&[x(0), x(1), x(0), x(1)], &[0, 0, 1, -1]).unwrap();
    assert_trustworthy(case(
        "alldiff(x0, x1, x0+1, x1-1)",
        c,
        &[&[-1, 0, 1, 2], &[0, 1, 2, 3]],
        distinct_after_offsets(vec![0, 0, 1, -1]),
    ));
    // x0 - 1 twice: never true, though x0 differs from both.
    let c = AllDifferent::with_offsets(&[x(0), x(0), x(0)], &[0, -1, -1]).unwrap();
    assert_trustworthy(case(
        "alldiff(x0, x0-1, x0-1)",
        c,
        &[SPARSE],
        distinct_after_offsets(vec![0, -1, -1]),
    ));
    // x0 != x0: never true.
    let c = AllDifferent::new(&[x(0), x(0)]);
    assert_trustworthy(case("alldiff(x0, x0)", c, &[NEG], |v| v[0] != v[1]));
}

const RELATIONS: [Relation; 6] = [
    Relation::Eq,
    Relation::Ne,
    Relation::Le,
    Relation::Lt,
    Relation::Ge,
    Relation::Gt,
];

fn compare(s: i128, rel: Relation, rhs: Value) -> bool {
    let r = i128::from(rhs);
    match rel {
        Relation::Eq => s == r,
        Relation::Ne => s != r,
        Relation::Le => s <= r,
        Relation::Lt => s < r,
        Relation::Ge => s >= r,
        Relation::Gt => s > r,
    }
}

fn linear_case(
    coeffs: &[Value],
    vars: &[VarId],
    rel: Relation,
    rhs: Value,
    doms: &[&[Value]],
) -> Case {
    let c = Linear::new(coeffs, vars, rel, rhs).unwrap();
    let a = coeffs.to_vec();
    let spec = move |v: &[Value]| {
        let s: i128 = a.iter().zip(v).map(|(&a, &v)| i128::from(a * v)).sum();
        compare(s, rel, rhs)
    };
    let terms: Vec<String> = coeffs
        .iter()
        .zip(vars)
        .map(|(a, v)| format!("{a}*x{}", v.index()))
        .collect();
    let name = format!("{} {rel} {rhs}", terms.join(" + "));
    let repeated = vars.iter().enumerate().any(|(i, v)| vars[..i].contains(v));
    let c = case(name, c, doms, spec);
    if rel == Relation::Ne {
        // One open variable: its one forbidden value goes.
        if repeated {
            c
        } else {
            c.everywhere(Strength::GacWhenOneOpen)
        }
    } else if repeated {
        c
    } else {
        let b = Strength::BoundsR(coeffs.to_vec(), rel, rhs);
        c.strength(Strength::Sound, Strength::Sound, b.clone(), b)
    }
}

#[test]
fn linear_with_negative_coefficients_is_sound_for_every_relation() {
    for rel in RELATIONS {
        assert_trustworthy(linear_case(
            &[2, -3, 1],
            &[x(0), x(1), x(2)],
            rel,
            1,
            &[SPARSE, NEG, SMALL],
        ));
        assert_trustworthy(linear_case(
            &[3, -2],
            &[x(0), x(1)],
            rel,
            -1,
            &[&[-2, -1, 1, 2], &[-3, 0, 1, 4]],
        ));
        assert_trustworthy(linear_case(&[-2], &[x(0)], rel, 2, &[&[-3, -1, 0, 2]]));
        // Four variables: a sample of the 15 * 7 * 15 * 7 combinations.
        let mut k = linear_case(
            &[1, -2, 3, -1],
            &[x(0), x(1), x(2), x(3)],
            rel,
            2,
            &[SPARSE, NEG, SMALL, &[-3, 1, 2]],
        );
        k.max_combos = 1_500;
        assert_trustworthy(k);
    }
}

#[test]
fn linear_with_a_zero_coefficient_is_sound_for_every_relation() {
    for rel in RELATIONS {
        assert_trustworthy(linear_case(
            &[1, 0, -1],
            &[x(0), x(1), x(2)],
            rel,
            0,
            &[NEG, &[-1, 1, 5], &[0, 1, 2]],
        ));
    }
}

#[test]
fn linear_with_a_repeated_variable_is_sound_for_every_relation() {
    for rel in RELATIONS {
        assert_trustworthy(linear_case(
            &[1, -2, 1],
            &[x(0), x(1), x(0)],
            rel,
            1,
            &[SPARSE, &[-1, 0, 1, 2]],
        ));
    }
}

fn table_case(vars: &[VarId], tuples: Vec<Vec<Value>>, doms: &[&[Value]]) -> Case {
    let name = format!("table{:?} of {} tuples", vars, tuples.len());
    let allowed = tuples.clone();
    let c = Table::new(vars, tuples).unwrap();
    case(name, c, doms, move |v| allowed.iter().any(|t| t == v)).everywhere(Strength::Gac)
}

#[test]
fn table_is_sound_and_gac() {
    // Some tuples lie outside the domains.
    assert_trustworthy(table_case(
        &[x(0), x(1)],
        vec![
            vec![-1, 0],
            vec![0, 1],
            vec![2, 1],
            vec![3, 3],
            vec![2, 0],
            vec![5, 5],
            vec![0, -7],
        ],
        &[&[-1, 0, 2, 3], &[0, 1, 3]],
    ));
    let doms: [&[Value]; 3] = [SPARSE, NEG, &[0, 1, 3]];
    let tuples: Vec<Vec<Value>> = assignments(&doms.map(<[Value]>::to_vec))
        .filter(|t| (3 * t[0] + 5 * t[1] + 7 * t[2]).rem_euclid(4) == 1)
        .collect();
    assert_trustworthy(table_case(&[x(0), x(1), x(2)], tuples, &doms));
}

#[test]
fn table_with_a_repeated_variable_is_sound_and_gac() {
    assert_trustworthy(table_case(
        &[x(0), x(1), x(0)],
        vec![
            vec![0, 1, 0],
            vec![1, 1, 2],
            vec![2, 0, 2],
            vec![1, 2, 1],
            vec![-1, 0, -1],
            vec![3, 3, 0],
        ],
        &[&[-1, 0, 1, 2], &[0, 1, 2]],
    ));
}

#[test]
fn empty_table_always_conflicts() {
    assert_trustworthy(table_case(&[x(0), x(1)], vec![], &[&[0, 1], &[-1, 1]]));
}

fn element_spec(array: Vec<Value>) -> impl Fn(&[Value]) -> bool + Send + Sync {
    move |v: &[Value]| (0..array.len() as Value).contains(&v[0]) && array[v[0] as usize] == v[1]
}

#[test]
fn element_is_sound_and_gac_including_out_of_range_indices() {
    let array = vec![3, -2, 3, 0];
    let c = Element::new(x(0), &array, x(1));
    assert_trustworthy(
        case(
            "x1 = [3,-2,3,0][x0]",
            c,
            &[&[-1, 0, 1, 3], &[-2, 0, 3, 5]],
            element_spec(array),
        )
        .everywhere(Strength::Gac),
    );
    let array = vec![1, 1, 2, -1];
    let c = Element::new(x(0), &array, x(1));
    assert_trustworthy(
        case("x1 = [1,1,2,-1][x0]", c, &[SMALL, NEG], element_spec(array))
            .everywhere(Strength::Gac),
    );
}

#[test]
fn element_with_index_as_result_is_sound() {
    // x0 = array[x0]: only x0 = 2.
    let array = vec![1, 2, 2, 0];
    let c = Element::new(x(0), &array, x(0));
    assert_trustworthy(case("x0 = [1,2,2,0][x0]", c, &[SMALL], element_spec(array)));
}

fn var_element_spec(v: &[Value]) -> bool {
    let items = &v[2..];
    (0..items.len() as Value).contains(&v[0]) && items[v[0] as usize] == v[1]
}

#[test]
fn var_element_is_sound_and_filters_the_last_open_variable() {
    let c = VarElement::new(x(0), &[x(2), x(3)], x(1));
    assert_trustworthy(
        case(
            "x1 = [x2, x3][x0]",
            c,
            &[&[-1, 0, 1, 2], &[0, 1, 2], &[0, 2], &[1, 2, 3]],
            var_element_spec,
        )
        .everywhere(Strength::GacWhenOneOpen),
    );
}

#[test]
fn var_element_with_repeated_variables_is_sound() {
    // The index is also an item; the result is also an item.
    let c = VarElement::new(x(0), &[x(0), x(1)], x(2));
    assert_trustworthy(case(
        "x2 = [x0, x1][x0]",
        c,
        &[&[0, 1, 2], &[0, 1], &[-1, 0, 1, 2]],
        var_element_spec,
    ));
    let c = VarElement::new(x(0), &[x(1), x(2)], x(1));
    assert_trustworthy(case(
        "x1 = [x1, x2][x0]",
        c,
        &[&[-1, 0, 1], &[0, 1, 2], &[0, 2]],
        var_element_spec,
    ));
}

/// Generic filtering: forward checking by probing, GAC by support search.
const GENERIC: [Strength; 4] = [
    Strength::GacWhenOneOpen,
    Strength::GacWhenOneOpen,
    Strength::Gac,
    Strength::Gac,
];

#[test]
fn predicate_gets_sound_generic_filtering() {
    let rule = |v: &[Value]| (v[0] - v[1]).abs() == v[2];
    let c = Predicate::new("|x0 - x1| = x2", &[x(0), x(1), x(2)], rule);
    let mut k = case("|x0 - x1| = x2", c, &[SPARSE, NEG, &[0, 1, 3]], rule);
    k.strength = GENERIC;
    assert_trustworthy(k);
    // A repeated variable: x0 * x1 = x0 + 1.
    let rule = |v: &[Value]| v[0] * v[1] == v[2] + 1;
    let c = Predicate::new("x0 * x1 = x0 + 1", &[x(0), x(1), x(0)], rule);
    let mut k = case("x0 * x1 = x0 + 1", c, &[&[-1, 0, 1, 2], SPARSE], rule);
    k.strength = GENERIC;
    assert_trustworthy(k);
}

/// A user constraint with only the two required methods: every other behaviour
/// comes from the defaults in `generic`.
struct CheckOnly {
    scope: Vec<VarId>,
    rule: fn(&[Value]) -> bool,
}

impl Constraint for CheckOnly {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        (self.rule)(values)
    }
}

fn check_only(name: &str, scope: &[VarId], rule: fn(&[Value]) -> bool, doms: &[&[Value]]) -> Case {
    let c = CheckOnly {
        scope: scope.to_vec(),
        rule,
    };
    let mut k = case(name, c, doms, rule);
    k.strength = GENERIC;
    k
}

#[test]
fn check_only_constraint_gets_sound_generic_filtering() {
    assert_trustworthy(check_only(
        "x0 < x1^2",
        &[x(0), x(1)],
        |v| v[0] < v[1] * v[1],
        &[&[-1, 0, 2, 4], &[-2, 0, 1]],
    ));
    assert_trustworthy(check_only(
        "x0 * x1 + x2 odd",
        &[x(0), x(1), x(2)],
        |v| (v[0] * v[1] + v[2]).rem_euclid(2) == 1,
        &[&[-1, 0, 1, 2], &[0, 1, 2], &[-2, 1, 3]],
    ));
    assert_trustworthy(check_only(
        "x0 + x1 = x2 * x3",
        &[x(0), x(1), x(2), x(3)],
        |v| v[0] + v[1] == v[2] * v[3],
        &[&[0, 1, 2], &[0, 1, 2], &[0, 1, 2], &[0, 1, 2]],
    ));
    assert_trustworthy(check_only(
        "x0 - x1 + x0 = 1",
        &[x(0), x(1), x(0)],
        |v| v[0] - v[1] + v[2] == 1,
        &[SPARSE, &[-1, 0, 1, 3]],
    ));
}

#[test]
fn support_search_above_the_tuple_limit_falls_back_to_sound_forward_checking() {
    // 257 * 256 tuples > SUPPORT_SEARCH_LIMIT: arc consistency does not enumerate
    // them, and keeps every value while two variables are open.
    let wide: Vec<Value> = (0..=256).collect();
    let narrow: Vec<Value> = (0..=255).collect();
    assert!((wide.len() * narrow.len()) as u64 > SUPPORT_SEARCH_LIMIT);
    let mut k = check_only(
        "x0 + x1 = x2",
        &[x(0), x(1), x(2)],
        |v| v[0] + v[1] == v[2],
        &[&wide[..], &narrow[..], &[3]],
    );
    k.strength = std::array::from_fn(|_| Strength::Sound);
    let harness = Arc::new(Harness {
        case: k,
        report: Mutex::new(Report::default()),
    });
    let m = model_with(&harness, &harness.case.domains.clone(), false);
    let s = Solver::new(&m, Config::default().with_pruning(Pruning::ArcConsistency)).unwrap();
    assert_eq!(s.domains().len(x(0)), 257, "fell back to forward checking");
    let m2 = {
        // Below the limit the same constraint is filtered to GAC.
        let mut m = Model::new();
        let a = m.int_var(0..=255).unwrap();
        let b = m.int_var(0..=255).unwrap();
        let c = m.int_var([3]).unwrap();
        m.post(CheckOnly {
            scope: vec![a, b, c],
            rule: |v| v[0] + v[1] == v[2],
        })
        .unwrap();
        m
    };
    let s2 = Solver::new(&m2, Config::default().with_pruning(Pruning::ArcConsistency)).unwrap();
    assert_eq!(
        s2.domains().values(x(0)).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    drop(s);
    drop(m);
    let report = Arc::into_inner(harness)
        .unwrap()
        .report
        .into_inner()
        .unwrap();
    assert_eq!(report.calls[Level::Ac.index()], 1);
    assert!(report.violations.is_empty(), "{:?}", report.violations);
}

#[test]
fn extreme_values_and_offsets_do_not_overflow() {
    const MAX: Value = Value::MAX;
    const MIN: Value = Value::MIN;
    for offset in [MAX, MIN, MAX - 1] {
        let c = NotEqual::new(x(0), x(1), offset);
        assert_trustworthy(
            case(
                format!("x0 != x1 + {offset}"),
                c,
                &[&[MAX - 2, MAX - 1, MAX], &[-1, 0, 1]],
                move |v| i128::from(v[0]) != i128::from(v[1]) + i128::from(offset),
            )
            .everywhere(Strength::Gac),
        );
    }
    let offsets = [MAX - 1, 0, MIN, 0];
    let c = AllDifferent::with_offsets(&[x(0), x(1), x(2), x(3)], &offsets).unwrap();
    let spec = move |v: &[Value]| {
        let s: Vec<i128> = v
            .iter()
            .zip(offsets)
            .map(|(&v, o)| i128::from(v) + i128::from(o))
            .collect();
        (0..s.len()).all(|i| (i + 1..s.len()).all(|j| s[i] != s[j]))
    };
    assert_trustworthy(
        case(
            "alldiff with extreme offsets",
            c,
            &[&[-1, 0, 1], &[MAX - 1, MAX], &[MAX - 1, MAX], &[-1, 0]],
            spec,
        )
        .strength(
            Strength::Sound,
            Strength::Sound,
            Strength::Sound,
            Strength::Gac,
        ),
    );
    for rel in RELATIONS {
        for rhs in [MAX, MIN, 0] {
            let c = Linear::new(&[3, -2], &[x(0), x(1)], rel, rhs).unwrap();
            let spec =
                move |v: &[Value]| compare(3 * i128::from(v[0]) - 2 * i128::from(v[1]), rel, rhs);
            let doms: [&[Value]; 2] = [&[MAX - 2, MAX - 1, MAX], &[MIN, MIN + 1, MIN + 3]];
            let k = case(format!("3*x0 - 2*x1 {rel} {rhs}"), c, &doms, spec);
            assert_trustworthy(if rel == Relation::Ne {
                k.everywhere(Strength::GacWhenOneOpen)
            } else {
                let b = Strength::BoundsR(vec![3, -2], rel, rhs);
                k.strength(Strength::Sound, Strength::Sound, b.clone(), b)
            });
        }
    }
    let array = vec![MIN, MAX, 0];
    let c = Element::new(x(0), &array, x(1));
    assert_trustworthy(
        case(
            "x1 = [MIN, MAX, 0][x0]",
            c,
            &[&[-1, 0, 1, 2], &[MAX - 1, MAX]],
            element_spec(array),
        )
        .everywhere(Strength::Gac),
    );
}

// ------------------------------------------------- the harness can fail (mutants)

/// `x0 != x1` with one deliberate defect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Defect {
    /// Removes the largest value of x1 whatever happens.
    RemovesASupportedValue,
    /// Reports a conflict as soon as x0 is fixed.
    FalseConflict,
    /// Reports `Entailed` at once.
    FalseEntailment,
    /// `promising` rejects x0 = 0 while x1 is open.
    ImpatientPromising,
    /// Never filters, yet claims GAC.
    NoFiltering,
    /// Filters correctly but reports `Unchanged`.
    HidesChanges,
    /// No defect: the control.
    None,
}

struct Mutant {
    scope: [VarId; 2],
    defect: Defect,
}

impl Constraint for Mutant {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        v[0] != v[1]
    }

    fn promising(&self, d: &Domains) -> bool {
        match (d.value(self.scope[0]), d.value(self.scope[1])) {
            (Some(a), Some(b)) => a != b,
            (Some(0), None) => self.defect != Defect::ImpatientPromising,
            _ => true,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let [a, b] = self.scope;
        match self.defect {
            Defect::RemovesASupportedValue if ctx.len(b) > 1 => {
                ctx.remove(b, ctx.max(b))?;
                return Ok(PropStatus::Changed);
            }
            Defect::FalseConflict if ctx.is_fixed(a) => {
                return Err(csp_core::Conflict::infeasible());
            }
            Defect::FalseEntailment => return Ok(PropStatus::Entailed),
            Defect::NoFiltering => return Ok(PropStatus::Unchanged),
            _ => {}
        }
        let mut changed = false;
        if let Some(v) = ctx.value(a) {
            changed |= ctx.remove(b, v)?;
        }
        if let Some(v) = ctx.value(b) {
            changed |= ctx.remove(a, v)?;
        }
        Ok(if changed && self.defect != Defect::HidesChanges {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

#[test]
fn harness_reports_each_kind_of_defect() {
    for defect in [
        Defect::RemovesASupportedValue,
        Defect::FalseConflict,
        Defect::FalseEntailment,
        Defect::ImpatientPromising,
        Defect::NoFiltering,
        Defect::HidesChanges,
    ] {
        let c = Mutant {
            scope: [x(0), x(1)],
            defect,
        };
        let k =
            case(format!("{defect:?}"), c, &[NEG, NEG], |v| v[0] != v[1]).everywhere(Strength::Gac);
        let report = run(k);
        assert!(
            !report.violations.is_empty(),
            "the harness missed {defect:?}"
        );
    }
    // The control, without a defect, passes.
    let c = Mutant {
        scope: [x(0), x(1)],
        defect: Defect::None,
    };
    let k = case("control", c, &[NEG, NEG], |v| v[0] != v[1]).everywhere(Strength::Gac);
    assert_eq!(run(k).violations, Vec::<String>::new());
}

#[test]
fn sub_domain_enumeration_visits_every_combination() {
    let doms = vec![vec![-1, 0, 2], vec![5, 7]];
    let all = combos(&doms, 1_000);
    assert_eq!(all.len(), 7 * 3);
    assert!(all.contains(&vec![vec![-1, 2], vec![7]]));
    let sample = combos(&doms, 10);
    assert_eq!(sample.len(), 11);
    assert!(sample.contains(&doms));
}
