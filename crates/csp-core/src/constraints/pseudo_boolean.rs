//! `sum a_i * x_i  REL  c` where most `x_i` are 0/1: the pseudo-boolean
//! specialisation of linear constraints.

use smallvec::SmallVec;

use super::linear::Relation;
use super::ranges::{ceil_div, floor_div};
use super::wide::term;
use crate::constraint::{Conflict, Events, PropCost, PropStatus, Propagation};
use crate::{Constraint, CspError, Domains, PropagationContext, StateLayout, Value, VarId};

/// A linear constraint `sum coeffs[i] * vars[i]  relation  rhs` (`relation`
/// not `!=`) whose variables are mostly 0/1, propagated incrementally.
///
/// The 0/1 terms are kept in decreasing order of `|coeff|` with, in trailed
/// state, the set of those not yet fixed and the sum of the fixed ones. A call
/// visits the open terms only: it moves the newly fixed ones into the sum,
/// then fixes each open term whose `|coeff|` exceeds the slack (to the value
/// that keeps the sum within the bound), stopping at the first that fits,
/// since all the later ones are smaller. The other terms (for example the
/// total of a knapsack, `sum w_i * x_i - load = 0`) get the bounds reasoning
/// of [`Linear`](crate::Linear). The result is the bounds consistency of
/// `Linear`, reached in one call; it wakes on fixed 0/1 variables and on
/// bounds changes of the others.
///
/// [`Model::linear`](crate::Model::linear) uses it by itself at the
/// [`Pruning::Propagators`](crate::Pruning::Propagators) level when at least
/// two terms are 0/1, at most two are not, and no variable repeats; the
/// textbook levels keep the generic sum.
///
/// ```
/// use csp_core::{Config, Model, PseudoBoolean, Relation, Solver};
/// let mut m = Model::new();
/// let x: Vec<_> = (0..4).map(|_| m.int_var(0..=1)).collect::<Result<_, _>>()?;
/// let bounds = [(0, 1); 4];
/// // 5a + 4b + 3c + 2d <= 6: 7 of the 16 assignments.
/// m.post(PseudoBoolean::new(&[5, 4, 3, 2], &x, Relation::Le, 6, &bounds)?)?;
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 7);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PseudoBoolean {
    vars: Vec<VarId>,
    coeffs: Vec<Value>,
    relation: Relation,
    rhs: Value,
    /// The 0/1 terms of the normal form `sum <= bound` (or `= bound`), by
    /// decreasing `|coeff|`; zero coefficients left out.
    bools: Vec<(VarId, i64)>,
    /// The other terms of the normal form.
    others: Vec<(VarId, i64)>,
    bound: i64,
    eq: bool,
    /// Whether scope position `i` is a 0/1 term.
    is_bool: Vec<bool>,
}

/// Trailed integer 0: the sum of the 0/1 terms no longer in the open set.
const FIXED_SUM: usize = 0;
/// Trailed bit set 0: the open 0/1 terms (positions in `bools`).
const OPEN: usize = 0;

impl PseudoBoolean {
    /// `sum coeffs[i] * vars[i]  relation  rhs`, where `bounds[i]` are the
    /// declared bounds of `vars[i]`: those within `[0, 1]` are the 0/1 terms.
    ///
    /// Fails if the lists differ in length, for `!=`, for a variable listed
    /// twice, or if a sum over the bounds could overflow 64 bits.
    pub fn new(
        coeffs: &[Value],
        vars: &[VarId],
        relation: Relation,
        rhs: Value,
        bounds: &[(Value, Value)],
    ) -> Result<Self, CspError> {
        for (what, len) in [("coefficients", coeffs.len()), ("bounds", bounds.len())] {
            if len != vars.len() {
                return Err(CspError::LengthMismatch {
                    context: "pseudo-boolean".into(),
                    what: what.into(),
                    expected: vars.len(),
                    got: len,
                });
            }
        }
        let invalid = |message: &str| CspError::InvalidArgument {
            context: "pseudo-boolean".into(),
            message: message.into(),
        };
        let mut sorted = vars.to_vec();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(invalid("a variable is listed twice"));
        }
        // Every quantity the filtering computes is bounded by four times the
        // sum of the bound and the largest terms: within that, i64 is exact.
        let mut total = i128::from(rhs).abs() + 1;
        for (&a, &(lo, hi)) in coeffs.iter().zip(bounds) {
            // At least |a| itself: a coefficient is negated for `>=` even on
            // a variable fixed to 0.
            let m = i128::from(lo).abs().max(i128::from(hi).abs()).max(1);
            total += i128::from(a).abs() * m;
        }
        if total * 4 >= i128::from(i64::MAX) {
            return Err(CspError::Overflow {
                context: "pseudo-boolean".into(),
                detail: "the sum's extreme values do not fit in 64 bits".into(),
            });
        }
        let (sign, bound, eq) = match relation {
            Relation::Eq => (1, rhs, true),
            Relation::Le => (1, rhs, false),
            Relation::Lt => (1, rhs - 1, false),
            Relation::Ge => (-1, -rhs, false),
            Relation::Gt => (-1, -rhs - 1, false),
            Relation::Ne => return Err(invalid("`!=` has no pseudo-boolean form")),
        };
        let is_bool: Vec<bool> = bounds.iter().map(|&(lo, hi)| lo >= 0 && hi <= 1).collect();
        let mut bools = Vec::new();
        let mut others = Vec::new();
        for ((&a, &x), &b) in coeffs.iter().zip(vars).zip(&is_bool) {
            match (a, b) {
                (0, _) => {}
                (_, true) => bools.push((x, sign * a)),
                (_, false) => others.push((x, sign * a)),
            }
        }
        bools.sort_by_key(|&(_, a)| std::cmp::Reverse(a.abs()));
        Ok(PseudoBoolean {
            vars: vars.to_vec(),
            coeffs: coeffs.to_vec(),
            relation,
            rhs,
            bools,
            others,
            bound,
            eq,
            is_bool,
        })
    }

    /// Number of 0/1 terms (nonzero coefficients only).
    pub(crate) fn num_bools(&self) -> usize {
        self.bools.len()
    }

    /// Number of other terms (nonzero coefficients only).
    pub(crate) fn num_others(&self) -> usize {
        self.others.len()
    }

    /// The smallest and largest value of the sum over the current domains.
    fn sum_bounds(&self, d: &Domains) -> (i64, i64) {
        let (mut lo, mut hi) = (0, 0);
        for &(x, a) in self.bools.iter().chain(&self.others) {
            let (l, h) = term(a, d, x);
            lo += l;
            hi += h;
        }
        (lo, hi)
    }
}

/// The sum's current bounds and the bound, with the slack tests.
struct Window {
    lo: i64,
    hi: i64,
    bound: i64,
    eq: bool,
}

impl Window {
    /// How far a term may rise above its minimum.
    #[inline]
    fn up(&self) -> i64 {
        self.bound - self.lo
    }

    /// How far a term may fall below its maximum.
    #[inline]
    fn down(&self) -> i64 {
        if self.eq {
            self.hi - self.bound
        } else {
            i64::MAX
        }
    }

    #[inline]
    fn check(&self) -> Result<(), Conflict> {
        if self.lo > self.bound || (self.eq && self.hi < self.bound) {
            Err(Conflict::infeasible())
        } else {
            Ok(())
        }
    }
}

impl Constraint for PseudoBoolean {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[Value]) -> bool {
        let s: i128 = self
            .coeffs
            .iter()
            .zip(values)
            .map(|(&a, &v)| i128::from(a) * i128::from(v))
            .sum();
        self.relation.holds(s, i128::from(self.rhs))
    }

    fn name(&self) -> &str {
        "pseudo-boolean"
    }

    fn promising(&self, d: &Domains) -> bool {
        let (lo, hi) = self.sum_bounds(d);
        lo <= self.bound && (!self.eq || hi >= self.bound)
    }

    fn state_layout(&self, _pruning: crate::Pruning) -> StateLayout {
        StateLayout::new().int(0).bits(self.bools.len(), true)
    }

    /// A 0/1 term only matters once fixed; the others by their bounds.
    fn events(&self, pos: usize) -> Events {
        if self.is_bool.get(pos).copied().unwrap_or(false) {
            Events::FIXED
        } else {
            Events::BOUNDS
        }
    }

    fn cost(&self) -> PropCost {
        super::linear::sum_cost(self.vars.len())
    }

    /// One call reaches the bounds fixpoint.
    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        // Move the newly fixed 0/1 terms into the trailed sum, out of the
        // open set (kept in `open` too, a local copy for the filtering).
        let mut fixed = ctx.state_int(FIXED_SUM);
        let fixed_before = fixed;
        let (mut lo, mut hi) = (0i64, 0i64);
        let mut open: SmallVec<[u64; 4]> = SmallVec::from_slice(ctx.state_bits(OPEN));
        for w in 0..open.len() {
            let mut bits = open[w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (x, a) = self.bools[w * 64 + b];
                if let Some(v) = ctx.value(x) {
                    fixed += a * v;
                    open[w] &= !(1 << b);
                    ctx.clear_state_bit(OPEN, w * 64 + b);
                } else if a > 0 {
                    hi += a;
                } else {
                    lo += a;
                }
            }
        }
        for &(y, a) in &self.others {
            let (l, h) = term(a, ctx.domains(), y);
            lo += l;
            hi += h;
        }
        let mut win = Window {
            lo: fixed + lo,
            hi: fixed + hi,
            bound: self.bound,
            eq: self.eq,
        };
        let result = self.filter(ctx, &mut win, &mut open, &mut fixed);
        if fixed != fixed_before {
            ctx.set_state_int(FIXED_SUM, fixed);
        }
        let changed = result?;
        Ok(if win.hi <= win.bound && (!win.eq || win.lo >= win.bound) {
            PropStatus::Entailed
        } else if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

impl PseudoBoolean {
    /// Narrows to the fixpoint, given the sum's bounds in `win` and the open
    /// 0/1 terms (positions in `bools`, so by decreasing `|coeff|`). Whether
    /// anything changed.
    fn filter(
        &self,
        ctx: &mut PropagationContext<'_>,
        win: &mut Window,
        open: &mut [u64],
        fixed: &mut i64,
    ) -> Result<bool, Conflict> {
        win.check()?;
        let mut changed = false;
        loop {
            let mut slack = win.up().min(win.down());
            'scan: for (w, word) in open.iter_mut().enumerate() {
                let mut bits = *word;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let (x, a) = self.bools[w * 64 + b];
                    let size = a.abs();
                    if size <= slack {
                        break 'scan;
                    }
                    ctx.note_revision();
                    // Too big to rise: the term stays at its minimum; else it
                    // cannot fall, so it takes its maximum.
                    let at_min = size > win.up();
                    let v = Value::from(at_min == (a < 0));
                    ctx.fix(x, v)?;
                    *fixed += a * v;
                    *word &= !(1 << b);
                    ctx.clear_state_bit(OPEN, w * 64 + b);
                    if at_min {
                        win.hi -= size;
                    } else {
                        win.lo += size;
                    }
                    win.check()?;
                    changed = true;
                    slack = win.up().min(win.down());
                }
            }
            let mut again = false;
            for &(y, a) in &self.others {
                let (l, h) = term(a, ctx.domains(), y);
                let width = h - l;
                let (up, down) = (win.up(), win.down());
                if width <= up && width <= down {
                    continue;
                }
                ctx.note_revision();
                let mut did = false;
                if width > up {
                    // a * y <= l + up
                    let cap = i128::from(l + up);
                    let a = i128::from(a);
                    did |= if a > 0 {
                        ctx.remove_above(y, floor_div(cap, a) as Value)?
                    } else {
                        ctx.remove_below(y, ceil_div(cap, a) as Value)?
                    };
                }
                if width > down {
                    // a * y >= h - down
                    let floor = i128::from(h - down);
                    let a = i128::from(a);
                    did |= if a > 0 {
                        ctx.remove_below(y, ceil_div(floor, a) as Value)?
                    } else {
                        ctx.remove_above(y, floor_div(floor, a) as Value)?
                    };
                }
                if did {
                    let (l2, h2) = term(a, ctx.domains(), y);
                    win.lo += l2 - l;
                    win.hi += h2 - h;
                    win.check()?;
                    again = true;
                }
            }
            changed |= again;
            if !again {
                return Ok(changed);
            }
        }
    }
}
