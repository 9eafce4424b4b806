//! `sum a_i * x_i  REL  c`: linear constraints with bounds reasoning.

use std::fmt;

use super::linear_two::TwoTerms;
use super::pseudo_boolean::PseudoBoolean;
use super::wide::{Wide, exact_quotient, term};
use crate::constraint::{Conflict, Events, PropCost, PropStatus, Propagation};
use crate::{
    Constraint, CspError, Domains, PropagationContext, Pruning, StateLayout, Value, VarId,
};

/// The comparison of a [`Linear`] constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<=`
    Le,
    /// `<`
    Lt,
    /// `>=`
    Ge,
    /// `>`
    Gt,
}

impl Relation {
    /// Every relation, in declaration order.
    ///
    /// ```
    /// use csp_core::Relation;
    /// assert_eq!(Relation::ALL.len(), 6);
    /// assert_eq!(Relation::ALL[2], Relation::Le);
    /// ```
    pub const ALL: [Relation; 6] = [
        Relation::Eq,
        Relation::Ne,
        Relation::Le,
        Relation::Lt,
        Relation::Ge,
        Relation::Gt,
    ];
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::Eq => "=",
            Relation::Ne => "!=",
            Relation::Le => "<=",
            Relation::Lt => "<",
            Relation::Ge => ">=",
            Relation::Gt => ">",
        })
    }
}

/// The normal form the filtering works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Eq,
    Ne,
    Le,
}

/// `sum coeffs[i] * vars[i]  relation  rhs`.
///
/// Sums are computed in `i128`, and [`Model::linear`](crate::Model::linear) refuses a
/// constraint whose extreme sums could overflow even that, so the arithmetic never
/// wraps. `promising` compares the bounds of the sum with `rhs`; `propagate`
/// narrows every variable's bounds (to a fixpoint under arc consistency and
/// propagators), and for `!=` removes the one value left to avoid.
///
/// ```
/// use csp_core::{Config, Model, Relation, Solver};
/// let mut m = Model::new();
/// let x = m.int_var(0..=9)?;
/// let y = m.int_var(0..=9)?;
/// m.linear(&[2, 3], &[x, y], Relation::Eq, 12)?; // 2x + 3y = 12
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 3);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Linear {
    vars: Vec<VarId>,
    coeffs: Vec<Value>,
    relation: Relation,
    rhs: Value,
    /// Normal form: `sum norm[i] * x_i  kind  bound`.
    norm: Vec<i128>,
    kind: Kind,
    bound: i128,
    /// The normal form in `i64`, when the post-time check proved that no sum
    /// or difference the filtering takes can leave `i64` (the usual case).
    small: Option<(Vec<i64>, i64)>,
    /// The [`PseudoBoolean`] form used at the propagators level, when the
    /// post-time check found the sum mostly over 0/1 variables.
    pb: Option<Box<PseudoBoolean>>,
    /// `a * x + b * y <= c` in `i64`, the coefficients within `i32`:
    /// filtered without loops at the propagators level.
    two: Option<TwoTerms>,
    /// A sum `<=` or `==` of three terms in `i64`: run by the engine from
    /// its dense array at the propagators level.
    three: Option<ThreeTerms>,
    /// No variable occurs twice: narrowing one term then never moves another
    /// term's bounds, so one pass of `<=` is the fixpoint.
    distinct: bool,
}

impl Linear {
    /// The two-term form that filters this sum at the propagators level
    /// (what [`propagate`](Constraint::propagate) runs there), if it has one.
    #[inline]
    pub(crate) fn two_terms(&self) -> Option<TwoTerms> {
        self.two
    }

    /// The record the engine runs this sum from at the propagators level
    /// (the same filtering as [`propagate`](Constraint::propagate) there):
    /// a two-term `<=`, a three-term `<=` or `==`, or a two-term `!=`.
    pub(crate) fn dense(&self) -> Option<super::Dense> {
        if let Some(two) = self.two {
            return Some(super::Dense::sum(two));
        }
        if let Some(three) = self.three {
            return Some(super::Dense::three((three, self.kind == Kind::Eq)));
        }
        match (&self.small, self.kind, &self.pb) {
            (Some((norm, bound)), Kind::Ne, None) if self.distinct => {
                TwoTerms::new(&self.vars, norm, *bound).map(super::Dense::not_equal)
            }
            _ => None,
        }
    }

    /// `sum coeffs[i] * vars[i]  relation  rhs`. Fails if the lists differ in length.
    pub fn new(
        coeffs: &[Value],
        vars: &[VarId],
        relation: Relation,
        rhs: Value,
    ) -> Result<Self, CspError> {
        if coeffs.len() != vars.len() {
            return Err(CspError::LengthMismatch {
                context: "linear".into(),
                what: "coefficients".into(),
                expected: vars.len(),
                got: coeffs.len(),
            });
        }
        let c: Vec<i128> = coeffs.iter().map(|&a| i128::from(a)).collect();
        let r = i128::from(rhs);
        let (norm, kind, bound) = match relation {
            Relation::Eq => (c, Kind::Eq, r),
            Relation::Ne => (c, Kind::Ne, r),
            Relation::Le => (c, Kind::Le, r),
            Relation::Lt => (c, Kind::Le, r - 1),
            Relation::Ge => (c.iter().map(|a| -a).collect(), Kind::Le, -r),
            Relation::Gt => (c.iter().map(|a| -a).collect(), Kind::Le, -r - 1),
        };
        Ok(Linear {
            vars: vars.to_vec(),
            coeffs: coeffs.to_vec(),
            relation,
            rhs,
            norm,
            kind,
            bound,
            small: None,
            pb: None,
            two: None,
            three: None,
            // Known by `check_range`, which is told the views' bases.
            distinct: false,
        })
    }

    /// The coefficients, as given.
    pub fn coeffs(&self) -> &[Value] {
        &self.coeffs
    }

    /// The relation, as given.
    pub fn relation(&self) -> Relation {
        self.relation
    }

    /// The right-hand side, as given.
    pub fn rhs(&self) -> Value {
        self.rhs
    }

    /// Drops the pseudo-Boolean filtering, the only one that keeps trailed
    /// state, for a `Linear` used inside another constraint (a reified
    /// linear) that reserves no state of its own.
    pub(crate) fn without_trailed_state(&mut self) {
        self.pb = None;
    }

    /// Checks that no sum over values within `[min_i, max_i]` can overflow `i128`
    /// (called by the model with the declared bounds, and `bases`: each
    /// variable, or a view's base variable, which changes with it).
    pub(crate) fn check_range(
        &mut self,
        bounds: &[(Value, Value)],
        bases: &[VarId],
    ) -> Result<(), CspError> {
        let mut sorted = bases.to_vec();
        sorted.sort_unstable();
        self.distinct = bases.len() == self.vars.len() && sorted.windows(2).all(|w| w[0] != w[1]);
        let mut total: i128 = self.bound.checked_abs().ok_or_else(overflow)?;
        for (a, &(lo, hi)) in self.norm.iter().zip(bounds) {
            let m = i128::from(lo).abs().max(i128::from(hi).abs());
            let term = a
                .checked_abs()
                .and_then(|a| a.checked_mul(m))
                .ok_or_else(overflow)?;
            total = total.checked_add(term).ok_or_else(overflow)?;
        }
        // Keep headroom for the differences taken during propagation.
        let headroom = total.checked_mul(4).ok_or_else(overflow)?;
        // Every quantity the filtering computes is bounded by `headroom` (sums
        // of terms, the bound, their differences) or is a coefficient, negated
        // for `>=`: within that, i64 is exact. (A coefficient of i64::MIN on
        // a variable fixed to 0 adds nothing to the sum but cannot be negated.)
        let widest = self.norm.iter().map(|a| a.abs()).max().unwrap_or(0);
        self.small = (headroom.max(widest * 4) < i128::from(i64::MAX)).then(|| {
            let norm = self.norm.iter().map(|&a| a as i64).collect();
            (norm, self.bound as i64)
        });
        self.pb = PseudoBoolean::new(&self.coeffs, &self.vars, self.relation, self.rhs, bounds)
            .ok()
            .filter(|pb| pb.num_bools() >= 2 && pb.num_others() <= 2)
            .map(Box::new);
        self.two = match (&self.small, self.kind, &self.pb) {
            (Some((norm, bound)), Kind::Le, None) if self.distinct => {
                TwoTerms::new(&self.vars, norm, *bound)
            }
            _ => None,
        };
        self.three = match (&self.small, self.kind, &self.pb) {
            (Some((norm, bound)), Kind::Le | Kind::Eq, None) if self.distinct => {
                ThreeTerms::new(&self.vars, norm, *bound)
            }
            _ => None,
        };
        Ok(())
    }

    fn sum_bounds(&self, d: &Domains) -> (i128, i128) {
        if let Some((norm, _)) = &self.small {
            let (lo, hi) = sum_with(&self.vars, norm, d);
            return (i128::from(lo), i128::from(hi));
        }
        sum_with(&self.vars, &self.norm, d)
    }

    /// One pass of bounds narrowing for `sum <= bound` (sign = 1) or
    /// `sum >= bound` (sign = -1, by negation): in `i64` when the post-time
    /// check allows it, in `i128` otherwise.
    fn narrow(&self, ctx: &mut PropagationContext<'_>, sign: i64) -> Result<bool, Conflict> {
        match &self.small {
            Some((norm, bound)) => narrow_with(&self.vars, norm, *bound, ctx, sign),
            None => narrow_with(&self.vars, &self.norm, self.bound, ctx, i128::from(sign)),
        }
    }
}

/// The smallest and largest value of `sum norm[i] * vars[i]`.
#[inline]
fn sum_with<W: Wide>(vars: &[VarId], norm: &[W], d: &Domains) -> (W, W) {
    let mut lo = W::ZERO;
    let mut hi = W::ZERO;
    for (&a, &x) in norm.iter().zip(vars) {
        let (l, h) = term(a, d, x);
        lo += l;
        hi += h;
    }
    (lo, hi)
}

/// Bounds filtering of `sum norm[i] * vars[i] <= bound` (and `>= bound` too
/// when `eq`) to the fixpoint, both sides in one pass per round, terms whose
/// whole range fits in the slack skipped without a division. Returns whether
/// a domain changed and whether the constraint is now entailed.
#[inline]
fn filter_with<W: Wide>(
    vars: &[VarId],
    norm: &[W],
    bound: W,
    ctx: &mut PropagationContext<'_>,
    eq: bool,
    distinct: bool,
) -> Result<(bool, bool), Conflict> {
    let one_pass = !eq && distinct;
    let mut changed = false;
    loop {
        let (mut lo, mut hi) = sum_with(vars, norm, ctx.domains());
        if lo > bound || (eq && hi < bound) {
            return Err(Conflict::infeasible());
        }
        let mut again = false;
        for (&a, &x) in norm.iter().zip(vars) {
            if a == W::ZERO {
                continue;
            }
            let (l, h) = term(a, ctx.domains(), x);
            let width = h - l;
            let up = bound - lo; // a*x may rise this far above its minimum
            let down = if eq { hi - bound } else { width }; // ... and fall below its maximum
            if width <= up && width <= down {
                continue;
            }
            ctx.note_revision();
            let mut did = false;
            if width > up {
                // a * x <= l + up
                let cap = l + up;
                did |= if a > W::ZERO {
                    let m = if a == W::ONE { cap } else { cap.floor_div(a) };
                    ctx.remove_above(x, m.value())?
                } else {
                    let m = if a == -W::ONE { -cap } else { cap.ceil_div(a) };
                    ctx.remove_below(x, m.value())?
                };
            }
            if width > down {
                // a * x >= h - down
                let floor = h - down;
                did |= if a > W::ZERO {
                    let m = if a == W::ONE {
                        floor
                    } else {
                        floor.ceil_div(a)
                    };
                    ctx.remove_below(x, m.value())?
                } else {
                    let m = if a == -W::ONE {
                        -floor
                    } else {
                        floor.floor_div(a)
                    };
                    ctx.remove_above(x, m.value())?
                };
            }
            if did {
                again = true;
                let (l2, h2) = term(a, ctx.domains(), x);
                lo += l2 - l;
                hi += h2 - h;
            }
        }
        changed |= again;
        // For `<=` over distinct variables one pass is the fixpoint: it lowers
        // maxima only, so `lo` (the sum of the minima) and every term's room
        // stay as they were. (A variable in two terms is not: lowering its
        // maximum raises the minimum of its negative term.)
        if !again || one_pass {
            let entailed = if eq { lo == hi } else { hi <= bound };
            return Ok((changed, entailed));
        }
    }
}

/// `a * x + b * y + c * z <= bound` (or `== bound`) over three distinct
/// variables, every quantity within `i64` (the sum's post-time check proved
/// it): the sum's filtering at the propagators level, step for step, from
/// one record without loops over vectors. The engine keeps it in its dense
/// array (the commonest sums of decomposed models: `x = y + z`, `t = d + c * b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ThreeTerms {
    pub(super) vars: [VarId; 3],
    pub(super) coeffs: [i32; 3],
    pub(super) bound: Value,
}

impl ThreeTerms {
    /// The form of `sum norm[i] * vars[i] <= bound` (`== bound` if `eq`), if
    /// it has three terms (the caller knows they are distinct variables)
    /// and every coefficient fits in `i32`.
    fn new(vars: &[VarId], norm: &[Value], bound: Value) -> Option<Self> {
        let (&[x, y, z], &[a, b, c]) = (vars, norm) else {
            return None;
        };
        let coeffs = [
            i32::try_from(a).ok()?,
            i32::try_from(b).ok()?,
            i32::try_from(c).ok()?,
        ];
        Some(ThreeTerms {
            vars: [x, y, z],
            coeffs,
            bound,
        })
    }

    /// Bounds filtering to the fixpoint, as [`Linear`]'s at the propagators
    /// level: the same removals, revisions and status.
    #[inline]
    pub(crate) fn propagate(&self, ctx: &mut PropagationContext<'_>, eq: bool) -> Propagation {
        let norm = self.coeffs.map(Value::from);
        let (did, entailed) = filter_with(&self.vars, &norm, self.bound, ctx, eq, true)?;
        Ok(if entailed {
            PropStatus::Entailed
        } else if did {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

/// Narrows every variable of `sum sign * norm[i] * vars[i] <= sign * bound`.
#[inline]
fn narrow_with<W: Wide>(
    vars: &[VarId],
    norm: &[W],
    bound: W,
    ctx: &mut PropagationContext<'_>,
    sign: W,
) -> Result<bool, Conflict> {
    let bound = sign * bound;
    let mut lo = W::ZERO;
    for (&a, &x) in norm.iter().zip(vars) {
        lo += term(sign * a, ctx.domains(), x).0;
    }
    if lo > bound {
        return Err(Conflict::infeasible());
    }
    let mut changed = false;
    for (&a, &x) in norm.iter().zip(vars) {
        let a = sign * a;
        if a == W::ZERO {
            continue;
        }
        ctx.note_revision();
        let (own_lo, own_hi) = term(a, ctx.domains(), x);
        // The term's whole range fits in the slack: nothing to remove (the
        // common case, tested without a division, as Gecode does).
        if own_hi - own_lo <= bound - lo {
            continue;
        }
        let slack = bound - (lo - own_lo); // a * x <= slack
        let did = if a == W::ONE {
            ctx.remove_above(x, slack.value())?
        } else if a == -W::ONE {
            ctx.remove_below(x, (-slack).value())?
        } else if a > W::ZERO {
            ctx.remove_above(x, slack.floor_div(a).value())?
        } else {
            ctx.remove_below(x, slack.ceil_div(a).value())?
        };
        if did {
            changed = true;
            lo += term(a, ctx.domains(), x).0 - own_lo;
        }
    }
    Ok(changed)
}

fn overflow() -> CspError {
    CspError::Overflow {
        context: "linear".into(),
        detail: "the sum's extreme values do not fit in 128 bits".into(),
    }
}

/// The cost class of a sum of `terms` terms: a binary one is cheap.
pub(crate) fn sum_cost(terms: usize) -> PropCost {
    if terms <= 2 {
        PropCost::Cheap
    } else {
        PropCost::Linear
    }
}

impl Constraint for Linear {
    /// A sum reasons on bounds (`!=` waits for fixed variables).
    fn events(&self, pos: usize) -> Events {
        if let Some(pb) = &self.pb {
            pb.events(pos)
        } else if self.kind == Kind::Ne {
            Events::FIXED
        } else if self.kind == Kind::Le {
            // `<=` is tightened only by a term's minimum rising: the
            // variable's minimum for a positive coefficient, its maximum for
            // a negative one.
            if self.norm[pos] >= 0 {
                Events::MIN
            } else {
                Events::MAX
            }
        } else {
            Events::BOUNDS
        }
    }

    fn cost(&self) -> PropCost {
        sum_cost(self.vars.len())
    }

    /// Under the propagators level `propagate` narrows to its own fixpoint.
    fn idempotent(&self) -> bool {
        true
    }

    fn state_layout(&self, pruning: Pruning) -> StateLayout {
        match &self.pb {
            Some(pb) if pruning == Pruning::Propagators => pb.state_layout(pruning),
            _ => StateLayout::new(),
        }
    }

    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[Value]) -> bool {
        let s: i128 = self
            .norm
            .iter()
            .zip(values)
            .map(|(&a, &v)| a * i128::from(v))
            .sum();
        match self.kind {
            Kind::Eq => s == self.bound,
            Kind::Ne => s != self.bound,
            Kind::Le => s <= self.bound,
        }
    }

    fn name(&self) -> &str {
        "linear"
    }

    fn promising(&self, d: &Domains) -> bool {
        let (lo, hi) = self.sum_bounds(d);
        match self.kind {
            Kind::Eq => lo <= self.bound && self.bound <= hi,
            Kind::Le => lo <= self.bound,
            Kind::Ne => !(lo == hi && lo == self.bound),
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if let Some(two) = &self.two
            && ctx.pruning() == Pruning::Propagators
        {
            return two.propagate(ctx);
        }
        let fixpoint = ctx.pruning() != Pruning::ForwardChecking;
        let mut changed = false;
        match self.kind {
            Kind::Ne => {
                let mut open = None;
                let mut sum = 0i128;
                for (&a, &x) in self.norm.iter().zip(&self.vars) {
                    match ctx.value(x) {
                        // A zero term never changes the sum, fixed or not.
                        _ if a == 0 => {}
                        Some(v) => sum += a * i128::from(v),
                        None if open.is_none() => open = Some((a, x)),
                        None => return Ok(PropStatus::Unchanged),
                    }
                }
                match open {
                    None if sum == self.bound => return Err(Conflict::infeasible()),
                    None => return Ok(PropStatus::Entailed),
                    Some((a, x)) => {
                        if let Some(w) = exact_quotient(self.bound - sum, a) {
                            ctx.note_revision();
                            if let Ok(w) = Value::try_from(w) {
                                ctx.remove(x, w)?;
                            }
                        }
                        return Ok(PropStatus::Entailed);
                    }
                }
            }
            Kind::Le | Kind::Eq if ctx.pruning() == Pruning::Propagators => {
                if let Some(pb) = &self.pb {
                    return pb.propagate(ctx);
                }
                // Both sides in one pass per round, to the fixpoint; the
                // sum's final bounds decide entailment.
                let eq = self.kind == Kind::Eq;
                let (did, entailed) = match &self.small {
                    Some((norm, bound)) => {
                        filter_with(&self.vars, norm, *bound, ctx, eq, self.distinct)?
                    }
                    None => {
                        filter_with(&self.vars, &self.norm, self.bound, ctx, eq, self.distinct)?
                    }
                };
                return Ok(if entailed {
                    PropStatus::Entailed
                } else if did {
                    PropStatus::Changed
                } else {
                    PropStatus::Unchanged
                });
            }
            Kind::Le => loop {
                let did = self.narrow(ctx, 1)?;
                changed |= did;
                if !did || !fixpoint {
                    break;
                }
            },
            Kind::Eq => loop {
                let a = self.narrow(ctx, 1)?;
                let b = self.narrow(ctx, -1)?;
                changed |= a || b;
                if !(a || b) || !fixpoint {
                    break;
                }
            },
        }
        let (lo, hi) = self.sum_bounds(ctx.domains());
        let entailed = match self.kind {
            Kind::Le => hi <= self.bound,
            Kind::Eq => lo == hi && lo == self.bound,
            Kind::Ne => false,
        };
        Ok(if entailed {
            PropStatus::Entailed
        } else if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::ranges::{ceil_div, floor_div};

    #[test]
    fn floor_and_ceil_division_round_toward_the_right_side() {
        assert_eq!((floor_div(7, 2), ceil_div(7, 2)), (3, 4));
        assert_eq!((floor_div(-7, 2), ceil_div(-7, 2)), (-4, -3));
        assert_eq!((floor_div(7, -2), ceil_div(7, -2)), (-4, -3));
        assert_eq!((floor_div(-8, -2), ceil_div(-8, -2)), (4, 4));
    }

    #[test]
    fn not_equal_sum_ignores_an_open_variable_with_zero_coefficient() {
        // x + 0*y != 0 with x = 0 has no solution, whatever y is.
        use crate::{Config, Model, Pruning, Solver};
        let mut m = Model::new();
        let x = m.int_var([0]).unwrap();
        let y = m.int_var([-1, 1]).unwrap();
        m.linear(&[1, 0], &[x, y], Relation::Ne, 0).unwrap();
        for pruning in Pruning::ALL {
            let mut s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
            assert_eq!(s.count().solutions, 0, "{pruning}");
        }
    }

    #[test]
    fn mostly_zero_one_sums_get_the_pseudo_boolean_form() {
        let v: Vec<VarId> = (0..4).map(VarId::new).collect();
        let bools = [(0, 1); 4];
        let one_int = [(0, 1), (0, 1), (0, 1), (-5, 9)];
        let two_ints = [(0, 1), (0, 1), (-5, 9), (0, 3)];
        let specialised = |coeffs: &[Value], rel, bounds: &[(Value, Value)], vars: &[VarId]| {
            let mut c = Linear::new(coeffs, vars, rel, 3).unwrap();
            c.check_range(bounds, vars).unwrap();
            c.pb.is_some()
        };
        assert!(specialised(&[1, -2, 3, 4], Relation::Le, &bools, &v));
        assert!(specialised(&[1, -2, 3, 4], Relation::Eq, &one_int, &v));
        assert!(specialised(&[1, -2, 3, 4], Relation::Gt, &two_ints, &v));
        // `!=`, a repeated variable, one 0/1 term, or three integer terms: generic.
        assert!(!specialised(&[1, -2, 3, 4], Relation::Ne, &bools, &v));
        assert!(!specialised(
            &[1, 1, 1, 1],
            Relation::Le,
            &bools,
            &[v[0], v[1], v[2], v[0]]
        ));
        assert!(!specialised(&[0, 1, 1, 1], Relation::Le, &two_ints, &v));
        let three_ints = [(0, 1), (0, 1), (-5, 9), (0, 3), (-1, 2)];
        let v5: Vec<VarId> = (0..5).map(VarId::new).collect();
        assert!(!specialised(&[1; 5], Relation::Le, &three_ints, &v5));
    }

    #[test]
    fn strict_and_reversed_relations_normalise_to_less_or_equal() {
        let x = VarId::new(0);
        for (rel, v, ok) in [
            (Relation::Lt, 3, false),
            (Relation::Lt, 2, true),
            (Relation::Gt, 3, false),
            (Relation::Gt, 4, true),
            (Relation::Ge, 3, true),
            (Relation::Ne, 3, false),
        ] {
            let c = Linear::new(&[1], &[x], rel, 3).unwrap();
            assert_eq!(c.check(&[v]), ok, "{rel} with {v}");
        }
    }
}
