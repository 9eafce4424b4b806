//! `a * x + b * y <= c`: the commonest sum (`x - y <= c`, `x <= y`, precedences),
//! filtered at the propagators level without the general sum's loops, and the
//! dense records the engine runs two- and three-term sums from.

use super::linear::ThreeTerms;
use super::wide::{Wide, term};
use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::{Domains, PropagationContext, Value, VarId};

/// `a * x + b * y <= bound`, `a` and `b` not zero and within `i32`, every
/// quantity within `i64` (the sum's post-time check proved it). Removes what the general bounds
/// filter removes, counts the same revisions and says the same about
/// entailment; one pass is the fixpoint, since only maxima of `a * x` and
/// `b * y` fall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TwoTerms {
    x: VarId,
    y: VarId,
    a: i32,
    b: i32,
    bound: Value,
}

impl TwoTerms {
    /// The two-term form of `sum norm[i] * vars[i] <= bound`, if it has
    /// exactly two terms over two variables, neither with coefficient 0,
    /// both within `i32` (so that the engine's dense record stays at 40
    /// bytes).
    pub(super) fn new(vars: &[VarId], norm: &[Value], bound: Value) -> Option<Self> {
        match (vars, norm) {
            (&[x, y], &[a, b]) if a != 0 && b != 0 && x != y => Some(TwoTerms {
                x,
                y,
                a: i32::try_from(a).ok()?,
                b: i32::try_from(b).ok()?,
                bound,
            }),
            _ => None,
        }
    }

    /// `a * x + b * y > bound` in the same form (`-a * x - b * y <= -bound - 1`),
    /// if that fits in `i64`.
    pub(crate) fn negated(&self) -> Option<Self> {
        Some(TwoTerms {
            x: self.x,
            y: self.y,
            a: self.a.checked_neg()?,
            b: self.b.checked_neg()?,
            bound: self.bound.checked_neg()?.checked_sub(1)?,
        })
    }

    /// Whether the bounds decide the sum: `Some(true)` if every remaining
    /// assignment satisfies it, `Some(false)` if none does.
    #[inline]
    fn decided(&self, d: &Domains) -> Option<bool> {
        let (xl, xh) = term(Value::from(self.a), d, self.x);
        let (yl, yh) = term(Value::from(self.b), d, self.y);
        if xh + yh <= self.bound {
            Some(true)
        } else if xl + yl > self.bound {
            Some(false)
        } else {
            None
        }
    }

    /// Bounds filtering: `a * x <= bound - min(b * y)` and
    /// `b * y <= bound - min(a * x)`.
    #[inline]
    pub(crate) fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let (xl, xh) = term(Value::from(self.a), ctx.domains(), self.x);
        let (yl, yh) = term(Value::from(self.b), ctx.domains(), self.y);
        if xl + yl > self.bound {
            return Err(Conflict::infeasible());
        }
        if xh + yl <= self.bound && yh + xl <= self.bound {
            return Ok(if xh + yh <= self.bound {
                PropStatus::Entailed
            } else {
                PropStatus::Unchanged
            });
        }
        self.prune(ctx, (xl, xh), (yl, yh))
    }

    /// `a * x + b * y != bound`, as the general sum filters `!=`: nothing
    /// while both sides are open; once one is fixed, the other loses the one
    /// value that would complete the sum (a revision if there is one), and
    /// the constraint is entailed.
    #[inline]
    fn propagate_ne(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let (a, b) = (Value::from(self.a), Value::from(self.b));
        // Within `i64`: the post-time check bounds every term and the bound.
        let (open, c, rest) = match (ctx.value(self.x), ctx.value(self.y)) {
            (None, None) => return Ok(PropStatus::Unchanged),
            (Some(vx), Some(vy)) if a * vx + b * vy == self.bound => {
                return Err(Conflict::infeasible());
            }
            (Some(_), Some(_)) => return Ok(PropStatus::Entailed),
            (Some(vx), None) => (self.y, b, self.bound - a * vx),
            (None, Some(vy)) => (self.x, a, self.bound - b * vy),
        };
        // Without a division for the usual unit coefficients.
        let value = match c {
            1 => Some(rest),
            -1 => Some(-rest),
            _ => (rest % c == 0).then(|| rest / c),
        };
        if let Some(w) = value {
            ctx.note_revision();
            ctx.remove(open, w)?;
        }
        Ok(PropStatus::Entailed)
    }

    #[inline(never)]
    fn prune(
        &self,
        ctx: &mut PropagationContext<'_>,
        (xl, xh): (Value, Value),
        (yl, yh): (Value, Value),
    ) -> Propagation {
        let mut changed = false;
        let xh = match prune_side(ctx, self.x, Value::from(self.a), xh, self.bound - yl)? {
            Some(h) => {
                changed = true;
                h
            }
            None => xh,
        };
        let yh = match prune_side(ctx, self.y, Value::from(self.b), yh, self.bound - xl)? {
            Some(h) => {
                changed = true;
                h
            }
            None => yh,
        };
        Ok(if xh + yh <= self.bound {
            PropStatus::Entailed
        } else if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

/// What a two-term sum, reified or not, a two-term `!=` or a three-term sum runs at the
/// propagators level; the engine keeps one per constraint in a dense array
/// (40 bytes each) and runs it without reading the posted constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dense {
    /// The two-term sum (for a reified one: the relation that `b = 1`
    /// asserts; for a three-term one: its first two terms and its bound).
    sum: TwoTerms,
    /// The 0/1 variable of a reified sum, the third variable of a
    /// three-term one.
    other: VarId,
    /// The third coefficient of a three-term sum.
    c: i32,
    kind: DenseKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DenseKind {
    /// `sum`.
    Sum,
    /// `b <-> sum`.
    Reified,
    /// `b -> sum`.
    Implied,
    /// A three-term `<=`.
    ThreeLe,
    /// A three-term `==`.
    ThreeEq,
    /// A two-term `!=`.
    NotEqual,
}

impl Dense {
    /// A plain two-term sum.
    pub(crate) fn sum(sum: TwoTerms) -> Self {
        Dense {
            sum,
            other: sum.x,
            c: 0,
            kind: DenseKind::Sum,
        }
    }

    /// `a * x + b * y != bound` (the form's bound).
    pub(crate) fn not_equal(sum: TwoTerms) -> Self {
        Dense {
            sum,
            other: sum.x,
            c: 0,
            kind: DenseKind::NotEqual,
        }
    }

    /// A three-term sum, `==` if `eq`, else `<=`.
    pub(crate) fn three((three, eq): (ThreeTerms, bool)) -> Self {
        let ([x, y, z], [a, b, c]) = (three.vars, three.coeffs);
        Dense {
            sum: TwoTerms {
                x,
                y,
                a,
                b,
                bound: three.bound,
            },
            other: z,
            c,
            kind: if eq {
                DenseKind::ThreeEq
            } else {
                DenseKind::ThreeLe
            },
        }
    }

    /// `b <-> holds` (`b -> holds` if `implication`), where `fails` is the
    /// form its negation takes; `None` unless `fails` is exactly `holds`
    /// negated (so that running `holds` negated is running `fails`).
    pub(crate) fn reified(
        holds: TwoTerms,
        fails: TwoTerms,
        b: VarId,
        implication: bool,
    ) -> Option<Self> {
        (holds.negated()? == fails).then_some(Dense {
            sum: holds,
            other: b,
            c: 0,
            kind: if implication {
                DenseKind::Implied
            } else {
                DenseKind::Reified
            },
        })
    }

    /// The filtering of [`Linear`](super::Linear) or
    /// [`ReifiedLinear`](super::ReifiedLinear) at the propagators level, step
    /// for step (the same removals, revisions and statuses).
    #[inline]
    pub(crate) fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if self.kind == DenseKind::Sum {
            return self.sum.propagate(ctx);
        }
        self.propagate_other(ctx)
    }

    /// [`propagate`](Self::propagate) for the kinds other than a two-term sum.
    #[inline(never)]
    fn propagate_other(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let (sum, b) = (&self.sum, self.other);
        match self.kind {
            DenseKind::Sum => sum.propagate(ctx),
            DenseKind::ThreeLe | DenseKind::ThreeEq => ThreeTerms {
                vars: [sum.x, sum.y, self.other],
                coeffs: [sum.a, sum.b, self.c],
                bound: sum.bound,
            }
            .propagate(ctx, self.kind == DenseKind::ThreeEq),
            DenseKind::NotEqual => sum.propagate_ne(ctx),
            DenseKind::Reified => Self::propagate_reified(sum, b, false, ctx),
            DenseKind::Implied => Self::propagate_reified(sum, b, true, ctx),
        }
    }

    /// `b <-> sum` or `b -> sum` (`implied`): the sum or its negation once
    /// `b` is fixed, else `b` fixed once the bounds decide the sum.
    #[inline(never)]
    fn propagate_reified(
        sum: &TwoTerms,
        b: VarId,
        implied: bool,
        ctx: &mut PropagationContext<'_>,
    ) -> Propagation {
        match ctx.value(b) {
            Some(1) => return sum.propagate(ctx),
            Some(0) if implied => return Ok(PropStatus::Entailed),
            Some(0) => {
                // Checked when the form was made: the negation fits.
                let fails = sum.negated().ok_or_else(Conflict::infeasible)?;
                return fails.propagate(ctx);
            }
            _ => {}
        }
        match sum.decided(ctx.domains()) {
            Some(true) if implied => Ok(PropStatus::Entailed),
            Some(truth) => {
                ctx.note_revision();
                ctx.fix(b, Value::from(truth))?;
                Ok(PropStatus::Entailed)
            }
            None => Ok(PropStatus::Unchanged),
        }
    }
}

/// Makes `c * v <= room` given that `c * v`'s maximum is `hi`; the new maximum
/// if a value went.
#[inline]
fn prune_side(
    ctx: &mut PropagationContext<'_>,
    v: VarId,
    c: Value,
    hi: Value,
    room: Value,
) -> Result<Option<Value>, Conflict> {
    if hi <= room {
        return Ok(None);
    }
    ctx.note_revision();
    let did = if c > 0 {
        let m = if c == 1 { room } else { room.floor_div(c) };
        ctx.remove_above(v, m)?
    } else {
        let m = if c == -1 { -room } else { room.ceil_div(c) };
        ctx.remove_below(v, m)?
    };
    Ok(did.then(|| term(c, ctx.domains(), v).1))
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Relation, Solver, Value};

    /// `m` counted at the propagators level with binary choices, to the
    /// end: the solutions, the values tried, the removals and the revisions.
    fn count_tree(m: &Model) -> (u64, u64, u64, u64) {
        let config = Config::textbook()
            .with_pruning(Pruning::Propagators)
            .with_binary_branching(true);
        let r = Solver::new(m, config).unwrap().count();
        assert!(r.status.is_complete());
        (
            r.solutions,
            r.stats.tried,
            r.stats.pruned,
            r.stats.revisions,
        )
    }

    /// The engine's dense array takes 40 bytes a constraint (a larger
    /// record made `prop_stress/0200`, 20,501 sums, slower).
    #[test]
    fn a_dense_record_takes_40_bytes() {
        assert_eq!(std::mem::size_of::<Option<super::Dense>>(), 40);
    }

    /// Three-term sums `a * x + b * y + c * z` with `<=`, `>=` and `==`
    /// (the engine runs them from its dense array) give at the propagators
    /// level the solutions of the brute force, and the same tree, removals
    /// and revisions as the general sum (posted with a zero fourth term,
    /// which has no dense form). Coefficients beyond `i32` keep the general
    /// form. Fails if the dense form filters differently or runs in another
    /// constraint's place.
    #[test]
    fn three_term_sums_agree_with_brute_force_and_the_general_filter() {
        let mut rng = crate::rng::SplitMix64::new(0x51ed_270b_2f7a_4c3d);
        let mut next = |k: u64| rng.below(k);
        let doms: [&[i64]; 4] = [&[-2, -1, 0, 1, 2, 3], &[0, 2, 5, 7], &[-4, 4], &[0, 1]];
        let coeffs = [-3, -2, -1, 0, 1, 2, 5, 1 << 33];
        let relations = [Relation::Le, Relation::Ge, Relation::Eq];
        for round in 0..400 {
            let d: Vec<&[i64]> = (0..3).map(|_| doms[next(4) as usize]).collect();
            let k: Vec<i64> = (0..3).map(|_| coeffs[next(8) as usize]).collect();
            let rel = relations[next(3) as usize];
            let rhs = next(15) as i64 - 7;
            let holds = |s: i128| match rel {
                Relation::Le => s <= i128::from(rhs),
                Relation::Ge => s >= i128::from(rhs),
                _ => s == i128::from(rhs),
            };
            // The brute force, with the second constraint `x != y`.
            let mut expected = 0u64;
            for &x in d[0] {
                for &y in d[1] {
                    for &z in d[2] {
                        let s = i128::from(k[0]) * i128::from(x)
                            + i128::from(k[1]) * i128::from(y)
                            + i128::from(k[2]) * i128::from(z);
                        expected += u64::from(x != y && holds(s));
                    }
                }
            }
            let mut runs = Vec::new();
            for general in [false, true] {
                let mut m = Model::new();
                let x = m.int_var(d[0].to_vec()).unwrap();
                let y = m.int_var(d[1].to_vec()).unwrap();
                let z = m.int_var(d[2].to_vec()).unwrap();
                // A second constraint, so that a sum run in its place shows.
                m.not_equal(x, y).unwrap();
                if general {
                    let w = m.int_var(0..=0).unwrap();
                    m.linear(&[k[0], k[1], k[2], 0], &[x, y, z, w], rel, rhs)
                        .unwrap();
                } else {
                    m.linear(&k, &[x, y, z], rel, rhs).unwrap();
                }
                runs.push(count_tree(&m));
            }
            assert_eq!(runs[0].0, expected, "round {round}: {k:?} {rel:?} {rhs}");
            assert_eq!(runs[0], runs[1], "round {round}: {k:?} {rel:?} {rhs} {d:?}");
        }
    }

    /// Two-term `a * x + b * y != c` (the engine runs them from its dense
    /// array) give at the propagators level the solutions of the brute
    /// force, and the same tree, removals and revisions as the general sum
    /// (posted with a zero third term, which has no dense form), with small
    /// domains with holes and with domains near `±2^56` (where the dense
    /// form still applies) and at the ends of `i64` (where the general
    /// `i128` form takes over). Coefficients beyond `i32` keep the general
    /// form. Fails if the dense form removes the wrong value, from the
    /// wrong side, or runs in another constraint's place.
    #[test]
    fn two_term_not_equals_agree_with_brute_force_and_the_general_filter() {
        let mut rng = crate::rng::SplitMix64::new(0x0dd5_1a2e_77c1_9e03);
        let mut next = |k: u64| rng.below(k);
        let far = 1i64 << 56;
        let doms: [Vec<i64>; 8] = [
            vec![-2, -1, 0, 1, 2, 3],
            vec![0, 2, 5, 7],
            vec![-4, 4],
            vec![0, 1],
            (far..=far + 3).collect(),
            (-far - 2..=-far).collect(),
            (i64::MAX - 3..=i64::MAX).collect(),
            (i64::MIN..=i64::MIN + 2).collect(),
        ];
        let coeffs = [-3, -2, -1, 1, 2, 5, 1 << 33];
        for round in 0..600 {
            let d: Vec<&Vec<i64>> = (0..3).map(|_| &doms[next(8) as usize]).collect();
            let k: Vec<i64> = (0..2).map(|_| coeffs[next(7) as usize]).collect();
            // Near the value of the sum at some assignment, so that both
            // outcomes occur.
            let pick = |v: &Vec<i64>, r: u64| v[r as usize % v.len()];
            let at = |x: i64, y: i64| {
                i128::from(k[0]) * i128::from(x) + i128::from(k[1]) * i128::from(y)
            };
            let sample =
                at(pick(d[0], next(8)), pick(d[1], next(8))) + i128::from(next(3) as i64 - 1);
            let Ok(rhs) = i64::try_from(sample) else {
                continue;
            };
            // The brute force, with the second constraint `y <= z`.
            let mut expected = 0u64;
            for &x in d[0] {
                for &y in d[1] {
                    for &z in d[2] {
                        expected += u64::from(y <= z && at(x, y) != i128::from(rhs));
                    }
                }
            }
            let mut runs = Vec::new();
            for general in [false, true] {
                let mut m = Model::new();
                let x = m.int_var(d[0].clone()).unwrap();
                let y = m.int_var(d[1].clone()).unwrap();
                let z = m.int_var(d[2].clone()).unwrap();
                // A second constraint, so that one run in its place shows.
                m.linear(&[1, -1], &[y, z], Relation::Le, 0).unwrap();
                if general {
                    let w = m.int_var(0..=0).unwrap();
                    m.linear(&[k[0], k[1], 0], &[x, y, w], Relation::Ne, rhs)
                        .unwrap();
                } else {
                    m.linear(&k, &[x, y], Relation::Ne, rhs).unwrap();
                }
                runs.push(count_tree(&m));
            }
            assert_eq!(runs[0].0, expected, "round {round}: {k:?} {rhs} {d:?}");
            assert_eq!(runs[0], runs[1], "round {round}: {k:?} {rhs} {d:?}");
        }
    }

    /// Three-term sums near the ends of `i64`: at `±2^61`, where the `i64`
    /// form (and so the dense record) still applies, and at `i64::MIN` and
    /// `i64::MAX`, where the general `i128` form takes over. The
    /// propagators level counts what an `i128` brute force counts.
    #[test]
    fn three_term_sums_near_the_ends_of_i64_agree_with_brute_force() {
        let edges: [i64; 4] = [1 << 61, -(1 << 61), i64::MAX - 3, i64::MIN];
        let relations = [Relation::Le, Relation::Ge, Relation::Eq];
        for (round, &base) in edges.iter().enumerate() {
            for rel in relations {
                for k in [[1, -1, 1], [1, 1, -2], [-1, 2, 1]] {
                    let d: [Vec<i64>; 3] = [
                        (base..=base + 3).collect(),
                        (base..=base + 2).collect(),
                        vec![0, 1, 2],
                    ];
                    // The sum at the smallest values, shifted a little:
                    // some assignments satisfy the relation, some do not.
                    let at = |x: i64, y: i64, z: i64| {
                        i128::from(k[0]) * i128::from(x)
                            + i128::from(k[1]) * i128::from(y)
                            + i128::from(k[2]) * i128::from(z)
                    };
                    let Ok(rhs) = i64::try_from(at(base, base, 0) + 2) else {
                        continue;
                    };
                    let holds = |s: i128| match rel {
                        Relation::Le => s <= i128::from(rhs),
                        Relation::Ge => s >= i128::from(rhs),
                        _ => s == i128::from(rhs),
                    };
                    let mut expected = 0u64;
                    for &x in &d[0] {
                        for &y in &d[1] {
                            for &z in &d[2] {
                                expected += u64::from(holds(at(x, y, z)));
                            }
                        }
                    }
                    let mut m = Model::new();
                    let x = m.int_var(d[0].clone()).unwrap();
                    let y = m.int_var(d[1].clone()).unwrap();
                    let z = m.int_var(d[2].clone()).unwrap();
                    m.linear(&k, &[x, y, z], rel, rhs).unwrap();
                    let config = Config::textbook()
                        .with_pruning(Pruning::Propagators)
                        .with_binary_branching(true);
                    let mut s = Solver::new(&m, config).unwrap();
                    let r = s.count();
                    assert!(r.status.is_complete(), "round {round}");
                    assert_eq!(r.solutions, expected, "round {round}: {k:?} {rel:?} {rhs}");
                }
            }
        }
    }

    /// Every `a * x + b * y <= c` over small domains (holes included) gives at
    /// the propagators level exactly the solutions of the brute force, and
    /// the same tree as the general sum (posted with two zero terms more, which
    /// takes the general filter).
    #[test]
    fn two_term_sums_agree_with_brute_force_and_the_general_filter() {
        let doms: [&[i64]; 3] = [&[-2, -1, 0, 1, 2, 3], &[0, 2, 5, 7], &[-4, 4]];
        for a in [-3, -1, 1, 2] {
            for b in [-2, -1, 1, 3] {
                for c in [-7, -1, 0, 4, 9] {
                    for dx in doms {
                        for dy in doms {
                            let expected = dx
                                .iter()
                                .flat_map(|&x| dy.iter().map(move |&y| (x, y)))
                                .filter(|&(x, y)| a * x + b * y <= c)
                                .count() as u64;
                            let mut runs = Vec::new();
                            for general in [false, true] {
                                let mut m = Model::new();
                                let x = m.int_var(dx.to_vec()).unwrap();
                                let y = m.int_var(dy.to_vec()).unwrap();
                                if general {
                                    let z = m.int_var(0..=0).unwrap();
                                    let w = m.int_var(0..=0).unwrap();
                                    m.linear(&[a, b, 0, 0], &[x, y, z, w], Relation::Le, c)
                                        .unwrap();
                                } else {
                                    m.linear(&[a, b], &[x, y], Relation::Le, c).unwrap();
                                }
                                let config = Config::textbook()
                                    .with_pruning(Pruning::Propagators)
                                    .with_binary_branching(true);
                                let r = Solver::new(&m, config).unwrap().count();
                                assert_eq!(r.solutions, expected, "{a}x + {b}y <= {c}");
                                runs.push((r.stats.tried, r.stats.pruned, r.stats.revisions));
                            }
                            assert_eq!(runs[0], runs[1], "{a}x + {b}y <= {c} {dx:?} {dy:?}");
                        }
                    }
                }
            }
        }
    }

    /// Two-term sums among other constraints (the engine runs them from its
    /// own dense array, indexed by constraint): random models count at the
    /// propagators level what the promising check counts. Fails if a sum
    /// runs in another constraint's place.
    #[test]
    fn two_term_sums_among_other_constraints_count_what_checking_counts() {
        let mut rng = crate::rng::SplitMix64::new(0x2545_f491_4f6c_dd1d);
        let mut next = |k: u64| rng.below(k);
        for round in 0..300 {
            let mut m = Model::new();
            let n = 3 + next(3) as usize;
            let vars: Vec<_> = (0..n)
                .map(|_| m.int_var(-2..=(1 + next(3) as i64)).unwrap())
                .collect();
            for _ in 0..2 + next(5) {
                let x = vars[next(n as u64) as usize];
                let y = vars[next(n as u64) as usize];
                let z = vars[next(n as u64) as usize];
                let a = next(5) as i64 - 2;
                let b = next(5) as i64 - 2;
                let c = next(7) as i64 - 3;
                match next(4) {
                    0 | 1 if x != y && a != 0 && b != 0 => {
                        m.linear(&[a, b], &[x, y], Relation::Le, c).unwrap();
                    }
                    2 if x != y && y != z && x != z => {
                        m.linear(&[a, b, 1], &[x, y, z], Relation::Le, c).unwrap();
                    }
                    _ if x != y => {
                        m.not_equal(x, y).unwrap();
                    }
                    _ => {}
                }
            }
            let count = |pruning| {
                let config = Config::textbook()
                    .with_pruning(pruning)
                    .with_binary_branching(pruning == Pruning::Propagators);
                Solver::new(&m, config).unwrap().count().solutions
            };
            assert_eq!(
                count(Pruning::Propagators),
                count(Pruning::Check),
                "round {round}"
            );
        }
    }

    /// Reified and implied two-term sums (`Model::linear_reif`,
    /// `Model::linear_imp`, which the engine runs from its dense array) give
    /// the solutions and, at the propagators level, the tree of the same
    /// constraints posted as user constraints (`ReifiedLinear` through
    /// `Model::post`, which takes the general sum's filtering). Fails if the
    /// negation used when `b = 0` or the entailment test is off by one.
    #[test]
    fn reified_two_term_sums_filter_as_the_general_reified_sum() {
        use crate::constraints::ReifiedLinear;
        let mut rng = crate::rng::SplitMix64::new(0x9e37_79b9_7f4a_7c15);
        let mut next = |k: u64| rng.below(k);
        let relations = [Relation::Le, Relation::Lt, Relation::Ge, Relation::Gt];
        for round in 0..400 {
            let n = 3 + next(2) as usize;
            let doms: Vec<Vec<i64>> = (0..n)
                .map(|_| {
                    let d: Vec<i64> = (-3..=3).filter(|_| next(3) != 0).collect();
                    if d.is_empty() { vec![0] } else { d }
                })
                .collect();
            let mut items = Vec::new();
            for _ in 0..1 + next(4) {
                let (x, y) = (next(n as u64) as usize, next(n as u64) as usize);
                let a = [-2, -1, 1, 3][next(4) as usize];
                let c = [-3, -1, 1, 2][next(4) as usize];
                let rhs = next(9) as i64 - 4;
                let rel = relations[next(4) as usize];
                items.push((x, y, a, c, rhs, rel, next(2) == 0));
            }
            let run = |general: bool, pruning: Pruning| {
                let mut m = Model::new();
                // The Booleans first: the search decides them before the
                // sums' variables, so `b = 0` and `b = 1` meet open sums.
                let bs: Vec<_> = items.iter().map(|_| m.bool_var()).collect();
                let xs: Vec<_> = doms.iter().map(|d| m.int_var(d.clone()).unwrap()).collect();
                for (&(x, y, a, c, rhs, rel, implied), &b) in items.iter().zip(&bs) {
                    if x == y {
                        continue;
                    }
                    let (coeffs, vars) = ([a, c], [xs[x], xs[y]]);
                    if general {
                        let r = if implied {
                            ReifiedLinear::implied(&coeffs, &vars, rel, rhs, b)
                        } else {
                            ReifiedLinear::new(&coeffs, &vars, rel, rhs, b)
                        };
                        m.post(r.unwrap()).unwrap();
                    } else if implied {
                        m.linear_imp(&coeffs, &vars, rel, rhs, b).unwrap();
                    } else {
                        m.linear_reif(&coeffs, &vars, rel, rhs, b).unwrap();
                    }
                }
                let config = Config::textbook()
                    .with_pruning(pruning)
                    .with_binary_branching(pruning == Pruning::Propagators);
                let r = Solver::new(&m, config).unwrap().count();
                (
                    r.solutions,
                    r.stats.tried,
                    r.stats.pruned,
                    r.stats.revisions,
                )
            };
            let dense = run(false, Pruning::Propagators);
            assert_eq!(dense, run(true, Pruning::Propagators), "round {round}");
            assert_eq!(dense.0, run(false, Pruning::Check).0, "round {round}");
        }
    }

    /// Reified two-term sums with values near the ends of `i64`: where the
    /// sum's post-time check leaves room (around `±2^59`) they take the
    /// dense form, beyond it (at `MIN` and `MAX`) the general filtering;
    /// either way the propagators level counts what brute force counts, and
    /// the tree is the general reified sum's.
    #[test]
    fn reified_two_term_sums_at_the_ends_of_i64_agree_with_brute_force() {
        use crate::constraints::ReifiedLinear;
        let e = 1i64 << 59;
        let bases = [e, -e, i64::MAX - 2, i64::MIN];
        for &bx in &bases {
            for &by in &bases {
                let dx = [bx, bx + 1, bx + 2];
                let dy = [by, by + 1, by + 2];
                for (a, c) in [(1, -1), (1, 1), (-1, 1), (-1, -1)] {
                    // Constants at the middle of the sum's range (both truth
                    // values occur) and at and beyond its ends (decided at once).
                    let mid = a as i128 * i128::from(bx + 1) + c as i128 * i128::from(by + 1);
                    for rhs in [-3i128, -2, 0, 2].map(|d| Value::try_from(mid + d)) {
                        let Ok(rhs) = rhs else { continue };
                        for rel in [Relation::Le, Relation::Lt, Relation::Ge, Relation::Gt] {
                            for implied in [false, true] {
                                let expected = dx
                                    .iter()
                                    .flat_map(|&x| dy.iter().map(move |&y| (x, y)))
                                    .map(|(x, y)| {
                                        let sum =
                                            a as i128 * i128::from(x) + c as i128 * i128::from(y);
                                        let holds = rel.holds(sum, i128::from(rhs));
                                        if implied { 1 + u64::from(holds) } else { 1 }
                                    })
                                    .sum::<u64>();
                                let run = |general: bool| {
                                    let mut m = Model::new();
                                    let b = m.bool_var();
                                    let x = m.int_var(dx.to_vec()).unwrap();
                                    let y = m.int_var(dy.to_vec()).unwrap();
                                    let (coeffs, vars) = ([a, c], [x, y]);
                                    if general {
                                        let r = if implied {
                                            ReifiedLinear::implied(&coeffs, &vars, rel, rhs, b)
                                        } else {
                                            ReifiedLinear::new(&coeffs, &vars, rel, rhs, b)
                                        };
                                        m.post(r.unwrap()).unwrap();
                                    } else if implied {
                                        m.linear_imp(&coeffs, &vars, rel, rhs, b).unwrap();
                                    } else {
                                        m.linear_reif(&coeffs, &vars, rel, rhs, b).unwrap();
                                    }
                                    let config = Config::textbook()
                                        .with_pruning(Pruning::Propagators)
                                        .with_binary_branching(true);
                                    let r = Solver::new(&m, config).unwrap().count();
                                    (
                                        r.solutions,
                                        r.stats.tried,
                                        r.stats.pruned,
                                        r.stats.revisions,
                                    )
                                };
                                let dense = run(false);
                                let what =
                                    format!("{a}x + {c}y {rel:?} {rhs}, x from {bx}, y from {by}");
                                assert_eq!(dense.0, expected, "{what}");
                                assert_eq!(dense, run(true), "{what}");
                            }
                        }
                    }
                }
            }
        }
    }
}
