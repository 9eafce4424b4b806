//! `b_i <-> (x = c_i)` for many constants of one variable, as one
//! propagator: the channel between an integer variable and the 0/1
//! variables that say which value it takes.

use crate::constraint::{Conflict, Events, PropCost, PropStatus, Propagation};

use crate::{
    Constraint, CspError, Domains, PropagationContext, Pruning, StateLayout, Value, VarId,
};

#[cfg(doc)]
use crate::ReifiedCompare;

/// The trailed bit set of scope positions still open (see
/// [`EqualityChannel`]); also the wake-up filter.
const OPEN: usize = 0;

/// `b_i <-> (x = c_i)` (or `b_i <-> (x != c_i)`) for every literal
/// `(c_i, b_i, equal_i)`, with one variable `x`, constants `c_i` and 0/1
/// variables `b_i`: the comparisons of one variable that a Boolean
/// decomposition makes (`sum(j)(bool2int(x[j] = v))` compares each `x[j]`
/// with every `v`), in one propagator (Gecode's `channel(bs, x)` for
/// Booleans and an integer; learning solvers keep the literals `[x = v]`
/// in the domain itself).
///
/// The filtering is that of one [`ReifiedCompare`] per literal, to the
/// common fixpoint: `b_i` is fixed as soon as `c_i` leaves `x` or `x` is
/// fixed, and a fixed `b_i` fixes `x` to `c_i` or removes `c_i` from it.
/// With the `b_i` all different variables this is domain consistency (the
/// literals only share `x`).
///
/// What it saves: a change of `x` wakes one propagator instead of one per
/// literal, and that call visits only the literals still open, not those
/// settled earlier on the path (a trailed set, which also stops the settled
/// `b_i` from waking it). On a decomposed self-counting sequence
/// (`bench/count/selfcount.mzn`) nearly every wake-up of the separate
/// comparisons finds nothing to do.
///
/// At every pruning level `propagate` filters as above; `promising` (the
/// `check` level) answers literal by literal, as the separate comparisons
/// would.
///
/// ```
/// use csp_core::{Config, Model, Pruning, Relation, Solver};
/// let mut m = Model::new();
/// let x = m.int_var(0..=3)?;
/// let is = [m.bool_var(), m.bool_var(), m.bool_var()];
/// // is[k] <-> x = k, for k = 0, 1, 2.
/// m.equality_channel(x, &[(0, is[0], true), (1, is[1], true), (2, is[2], true)])?;
/// m.linear(&[1, 1, 1], &is, Relation::Eq, 0)?; // none of them: x = 3
/// let config = Config::textbook().with_pruning(Pruning::Propagators);
/// let mut s = Solver::new(&m, config)?;
/// let all: Vec<_> = s.solutions().map(|v| v[x]).collect();
/// assert_eq!(all, vec![3]);
/// assert_eq!(s.stats().rejected, 0); // settled before any decision
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug)]
pub struct EqualityChannel {
    /// `[x, b_0, ..., b_{k-1}]`.
    scope: Vec<VarId>,
    /// `c_i`.
    values: Vec<Value>,
    /// Whether `b_i` says `x = c_i` (`true`) or `x != c_i`.
    equal: Vec<bool>,
    /// Whether some `b` serves two literals (fixing it for one may settle
    /// the other).
    shared: bool,
}

impl EqualityChannel {
    /// The channel of `x` with the literals `(c, b, equal)`: `b <-> x = c`
    /// when `equal`, `b <-> x != c` otherwise. Each `b` should be a 0/1
    /// variable: the solver treats any other value of `b` as a conflict
    /// ([`Model::equality_channel`](crate::Model::equality_channel) checks it).
    ///
    /// Fails if some `b` is `x` itself.
    pub fn new(x: VarId, literals: &[(Value, VarId, bool)]) -> Result<Self, CspError> {
        if literals.iter().any(|&(_, b, _)| b == x) {
            return Err(CspError::InvalidArgument {
                context: "equality-channel".into(),
                message: "a literal's 0/1 variable is the channelled variable itself".into(),
            });
        }
        let mut scope = Vec::with_capacity(literals.len() + 1);
        scope.push(x);
        scope.extend(literals.iter().map(|&(_, b, _)| b));
        let mut bs = scope[1..].to_vec();
        bs.sort_unstable();
        let shared = bs.windows(2).any(|w| w[0] == w[1]);
        Ok(EqualityChannel {
            scope,
            shared,
            values: literals.iter().map(|&(c, _, _)| c).collect(),
            equal: literals.iter().map(|&(_, _, e)| e).collect(),
        })
    }

    /// The channelled variable `x`.
    pub fn var(&self) -> VarId {
        self.scope[0]
    }

    /// The literals `(c, b, equal)`, in the order given.
    pub fn literals(&self) -> impl Iterator<Item = (Value, VarId, bool)> + '_ {
        (0..self.values.len()).map(|i| (self.values[i], self.scope[i + 1], self.equal[i]))
    }

    /// Literal `i`'s relation as it stands: `Some(true)` if `x = c_i` holds
    /// for every value left, `Some(false)` if for none (an empty `x`
    /// included), `None` otherwise.
    #[inline]
    fn equality(&self, d: &Domains, i: usize) -> Option<bool> {
        let x = self.scope[0];
        if !d.contains(x, self.values[i]) {
            Some(false)
        } else if d.is_fixed(x) {
            Some(true)
        } else {
            None
        }
    }

    /// Of the open scope positions `live` of chunk `chunk` (bit `j` is
    /// position `64 * chunk + j`), those whose literal [`settle`](Self::settle)
    /// would settle now.
    #[inline]
    fn ready(&self, d: &Domains, chunk: usize, mut live: u64) -> u64 {
        let x = self.scope[0];
        let members = d.members(x);
        let fixed = d.is_fixed(x);
        let mut ready = 0;
        while live != 0 {
            let bit = live & live.wrapping_neg();
            live ^= bit;
            let pos = chunk * 64 + bit.trailing_zeros() as usize;
            if fixed || d.is_fixed(self.scope[pos]) || !members.contains(self.values[pos - 1]) {
                ready |= bit;
            }
        }
        ready
    }

    /// Settles literal `i` if its `b` is fixed or its relation is known:
    /// `Some(changed)` when it holds for good on this path (`changed`: a
    /// domain had to change for it), `None` while it is open.
    #[inline]
    fn settle(&self, ctx: &mut PropagationContext<'_>, i: usize) -> Result<Option<bool>, Conflict> {
        let x = self.scope[0];
        let b = self.scope[i + 1];
        match ctx.value(b) {
            Some(v @ (0 | 1)) => {
                ctx.note_revision();
                // b = 1 with `=`, or b = 0 with `!=`: x = c_i.
                let changed = if (v == 1) == self.equal[i] {
                    ctx.fix(x, self.values[i])?
                } else {
                    ctx.remove(x, self.values[i])?
                };
                Ok(Some(changed))
            }
            Some(_) => Err(Conflict::wipeout(b)),
            None => match self.equality(ctx.domains(), i) {
                Some(eq) => {
                    ctx.note_revision();
                    ctx.fix(b, Value::from(eq == self.equal[i]))?;
                    Ok(Some(true))
                }
                None => Ok(None),
            },
        }
    }
}

impl Constraint for EqualityChannel {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        values.len() == self.scope.len()
            && self
                .literals()
                .enumerate()
                .all(|(i, (c, _, equal))| values[i + 1] == Value::from((values[0] == c) == equal))
    }

    fn name(&self) -> &str {
        "equality-channel"
    }

    /// Literal by literal, as a [`ReifiedCompare`] answers.
    fn promising(&self, d: &Domains) -> bool {
        (0..self.values.len()).all(|i| {
            let b = self.scope[i + 1];
            let holds = |v: bool| self.equality(d, i).map(|eq| eq == self.equal[i]) != Some(!v);
            match d.value(b) {
                Some(1) => holds(true),
                Some(0) => d.len(self.scope[0]) > 0 && holds(false),
                Some(_) => false,
                None => true,
            }
        })
    }

    /// Settles every open literal, again while `x` changes; then entailed
    /// once none is left open. Each 64 literals are read first (which can
    /// be settled: a fixed `b`, a `c` gone from `x`, `x` fixed) with one
    /// lookup of `x`, then settled one by one.
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let x = self.scope[0];
        let words = ctx.state_bits(OPEN).len();
        let mut changed = false;
        loop {
            let before = ctx.len(x);
            let mut open = 0;
            let mut settled = false;
            for chunk in 0..words {
                // Position 0 (x) stays set while a literal is open.
                let live = ctx.state_bits(OPEN)[chunk] & if chunk == 0 { !1 } else { !0 };
                let mut ready = self.ready(ctx.domains(), chunk, live);
                open += (live & !ready).count_ones();
                while ready != 0 {
                    let pos = chunk * 64 + ready.trailing_zeros() as usize;
                    ready &= ready - 1;
                    match self.settle(ctx, pos - 1)? {
                        Some(change) => {
                            ctx.clear_state_bit(OPEN, pos);
                            changed |= change;
                            settled |= change;
                        }
                        None => open += 1,
                    }
                }
            }
            if open == 0 {
                return Ok(PropStatus::Entailed);
            }
            // A literal settled after another one was visited may have
            // changed x, or fixed that one's b: visit the open ones again.
            if ctx.len(x) == before && !(self.shared && settled) {
                break;
            }
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }

    /// One bit per scope position, all set: a literal's bit is cleared once
    /// it is settled, so that its `b` no longer wakes the channel.
    fn state_layout(&self, _pruning: Pruning) -> StateLayout {
        StateLayout::new().bits(self.scope.len(), true)
    }

    fn wake_set(&self) -> Option<usize> {
        Some(OPEN)
    }

    /// Any change of `x` (a value leaving it may settle a literal); a `b`
    /// once fixed.
    fn events(&self, pos: usize) -> Events {
        if pos == 0 {
            Events::DOMAIN
        } else {
            Events::FIXED
        }
    }

    /// With the sums, as the comparisons it replaces (see [`ReifiedCompare`]).
    fn cost(&self) -> PropCost {
        PropCost::Linear
    }

    fn idempotent(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::{Config, Model, Relation, Solver};

    /// Random channels (repeated constants, constants outside x, `=` and
    /// `!=`, a `b` shared by two literals) under random sums: the same
    /// solutions as one comparison per literal, at every level, and at the
    /// propagators level the same tree.
    #[test]
    fn the_channel_solves_as_one_comparison_per_literal() {
        let mut rng = SplitMix64::new(7);
        for case in 0..300 {
            let span = 1 + rng.next_u64() % 5;
            let lo = rng.next_u64() as i64 % 3;
            let k = 1 + (rng.next_u64() % 5) as usize;
            let literals: Vec<(Value, usize, bool)> = (0..k)
                .map(|i| {
                    let c = lo - 1 + (rng.next_u64() % (span + 2)) as i64;
                    // Now and then a literal shares the previous one's b.
                    let b = if i > 0 && rng.next_u64() % 6 == 0 {
                        i - 1
                    } else {
                        i
                    };
                    (c, b, rng.next_u64() % 4 != 0)
                })
                .collect();
            let target = (rng.next_u64() % (k as u64 + 1)) as i64;
            let build = |channel: bool| {
                let mut m = Model::new();
                let x = m.int_var(lo..=lo + span as i64 - 1).unwrap();
                let bs: Vec<VarId> = (0..k).map(|_| m.bool_var()).collect();
                let lits: Vec<(Value, VarId, bool)> =
                    literals.iter().map(|&(c, b, e)| (c, bs[b], e)).collect();
                if channel {
                    m.equality_channel(x, &lits).unwrap();
                } else {
                    for &(c, b, e) in &lits {
                        let rel = if e { Relation::Eq } else { Relation::Ne };
                        m.linear_reif(&[1], &[x], rel, c, b).unwrap();
                    }
                }
                m.linear(&vec![1; k], &bs, Relation::Le, target).unwrap();
                m
            };
            let (grouped, separate) = (build(true), build(false));
            for pruning in Pruning::ALL {
                let config = Config::textbook().with_pruning(pruning);
                let mut a = Solver::new(&grouped, config.clone()).unwrap();
                let mut b = Solver::new(&separate, config).unwrap();
                let got: Vec<Vec<Value>> = a.solutions().map(|s| s.values().to_vec()).collect();
                let want: Vec<Vec<Value>> = b.solutions().map(|s| s.values().to_vec()).collect();
                assert_eq!(
                    got, want,
                    "case {case}: {literals:?} <= {target}, {pruning:?}"
                );
                if pruning == Pruning::Propagators {
                    assert_eq!(
                        a.stats().tried,
                        b.stats().tried,
                        "case {case}: {literals:?} <= {target} span {span} lo {lo}"
                    );
                }
            }
        }
    }

    /// During the search y = 0 takes 2 out of the middle of x's domain (a
    /// table), which must wake the channel and settle both literals on 2
    /// before their b are decided (woken on bounds only, the channel would
    /// leave them open, and the wrong value of each would be tried).
    #[test]
    fn a_value_leaving_the_middle_of_x_during_search_settles_its_literals() {
        let mut m = Model::new();
        let y = m.int_var(0..=1).unwrap();
        let b = [m.bool_var(), m.bool_var()];
        let x = m.int_var(0..=4).unwrap();
        let rows = [[0, 0], [0, 1], [0, 3], [0, 4], [1, 2]];
        m.table(&[y, x], rows.iter().map(|r| r.to_vec()).collect())
            .unwrap();
        m.equality_channel(x, &[(2, b[0], true), (2, b[1], false)])
            .unwrap();
        let config = Config::textbook().with_pruning(Pruning::Propagators);
        let result = Solver::new(&m, config).unwrap().count();
        assert_eq!(result.solutions, 5);
        assert_eq!(result.stats.rejected, 0);
    }

    #[test]
    fn a_literal_on_x_itself_is_refused() {
        let x = VarId::new(0);
        assert!(EqualityChannel::new(x, &[(1, x, true)]).is_err());
    }

    /// `!=` literals and a value outside x: b is settled at the root.
    #[test]
    fn literals_are_settled_before_any_decision() {
        let mut m = Model::new();
        let x = m.int_var([1, 3]).unwrap();
        let b = [m.bool_var(), m.bool_var(), m.bool_var()];
        m.equality_channel(x, &[(2, b[0], true), (2, b[1], false), (3, b[2], false)])
            .unwrap();
        m.linear(&[1], &[b[2]], Relation::Eq, 0).unwrap();
        let config = Config::textbook().with_pruning(Pruning::Propagators);
        let mut s = Solver::new(&m, config).unwrap();
        let all: Vec<Vec<Value>> = s.solutions().map(|s| s.values().to_vec()).collect();
        assert_eq!(all, vec![vec![3, 0, 1, 0]]);
        assert_eq!(s.stats().tried, 0);
    }
}
