//! Inverse: two arrays of variables that are inverse permutations.

use crate::constraint::PropCost;
use crate::constraint::Propagation;
use crate::constraints::global_cardinality::finish;
use crate::{
    AllDifferent, Conflict, Constraint, ConstraintId, CspError, Domains, Model, PropagationContext,
    Pruning, StateLayout, Value, VarId,
};

/// Trailed integer (propagators level): `1` once the first call has removed
/// every value without a partner. Integers `1 + p` then hold what scope
/// position `p`'s domain was when the constraint last dealt with it: with at
/// most [`WORD`] positions a side, its bits over the other side's positions
/// (bit `k`: it may point to position `k`), else its size. The last two
/// hold each side's total size when its matching filter last ran.
const READY: usize = 0;

/// The most positions a side may have for the domains kept as bits.
const WORD: usize = 64;

/// `f[i] = j` exactly when `g[j] = i`: `f` and `g` are inverse permutations of
/// `0..n` (or, with offsets, `f`'s values name `g`'s positions counted from
/// `g_offset` and `g`'s values name `f`'s positions counted from `f_offset`).
/// The scope is `f` then `g`.
///
/// Filtering (every level, to a fixpoint): arc consistency on the channelling
/// `f[i] = j <-> g[j] = i`: a value `j` stays in `f[i]` only if it names a
/// position of `g` whose domain still holds `i`, and the other way round.
/// Each side being a permutation, a fixed value is removed from the other
/// variables of its side, and under [`Pruning::Propagators`] each side also gets
/// all-different's matching filter, unless the constraint is built
/// [`values_only`](Inverse::values_only) (Gecode's default for its `channel`).
/// `promising` rejects a fixed value without its counterpart.
///
/// Under [`Pruning::Propagators`] the channelling is incremental: the
/// constraint keeps in trailed state the domain size each variable had when
/// it was last dealt with, and only a variable whose domain shrank since then
/// sends its missing values to their partners (O(n) each) and, once fixed,
/// its value to its side. The two matching filters run once per round, and a
/// call ends when a round of them removes nothing (idempotent), where the
/// textbook levels re-check every pair until nothing changes.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let f = m.int_var_array("f", 3, 0..=2)?;
/// let g = m.int_var_array("g", 3, 0..=2)?;
/// m.inverse(&f, &g)?;
/// // One solution per permutation f, g being its inverse.
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 6);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inverse {
    scope: Vec<VarId>,
    n: usize,
    f_offset: Value,
    g_offset: Value,
    /// Matching-based filtering of each side under `Propagators`.
    all_different: [AllDifferent; 2],
    /// Whether those matching filters run ([`Inverse::values_only`]).
    matching: bool,
    /// Whether the trailed state keeps domains as bits (at most [`WORD`]
    /// positions a side), else as sizes.
    bits: bool,
}

impl Inverse {
    /// `f[i] = j <-> g[j] = i`, positions and values from 0. Fails if `f` and `g`
    /// differ in length.
    pub fn new(f: &[VarId], g: &[VarId]) -> Result<Self, CspError> {
        Self::with_offsets(f, 0, g, 0)
    }

    /// `f[i] = g_offset + j <-> g[j] = f_offset + i`: `f`'s positions are named
    /// from `f_offset`, `g`'s from `g_offset` (MiniZinc's `inverse` over arrays
    /// indexed from those values).
    pub fn with_offsets(
        f: &[VarId],
        f_offset: Value,
        g: &[VarId],
        g_offset: Value,
    ) -> Result<Self, CspError> {
        if f.len() != g.len() {
            return Err(CspError::LengthMismatch {
                context: "inverse".into(),
                what: "g".into(),
                expected: f.len(),
                got: g.len(),
            });
        }
        let mut scope = f.to_vec();
        scope.extend_from_slice(g);
        Ok(Inverse {
            scope,
            n: f.len(),
            f_offset,
            g_offset,
            all_different: [AllDifferent::new(f), AllDifferent::new(g)],
            matching: true,
            bits: f.len() <= WORD,
        })
    }

    /// The channelling and the removal of fixed values alone, without the
    /// matching filters of each side: the filtering of Gecode's default
    /// `channel` (value propagation), as [`AllDifferent::values_only`] is of
    /// its `distinct`. `fzn-csp --all-different value` posts MiniZinc's
    /// `inverse` this way.
    ///
    /// ```
    /// use csp_core::constraints::Inverse;
    /// use csp_core::{Config, Model, Pruning, Solver};
    /// // f[0], f[1] in {0, 1} leave f[2] and f[3] only 2 and 3, but only the
    /// // matching filter sees it (g[0] and g[1] may still name any position).
    /// for values_only in [false, true] {
    ///     let mut m = Model::new();
    ///     let mut f = m.int_var_array("f", 2, 0..=1)?;
    ///     f.extend(m.int_var_array("f", 2, 0..=3)?);
    ///     let g = m.int_var_array("g", 4, 0..=3)?;
    ///     let c = Inverse::new(&f, &g)?;
    ///     m.post(if values_only { c.values_only() } else { c })?;
    ///     let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators))?;
    ///     assert_eq!(s.domains().len(f[2]), if values_only { 4 } else { 2 });
    /// }
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn values_only(mut self) -> Self {
        self.matching = false;
        self
    }

    /// Whether this constraint leaves the matching filters out
    /// ([`values_only`](Inverse::values_only)).
    pub fn is_values_only(&self) -> bool {
        !self.matching
    }

    /// Scope position `p` as `(i, mine, theirs, base)`: its index `i` in its
    /// side, the offset naming its side's positions, the offset naming the
    /// other side's, and the scope position of the other side's first
    /// variable (`f[i] = g_offset + k <-> g[k] = f_offset + i`, and the other
    /// way round).
    fn side(&self, p: usize) -> (usize, Value, Value, usize) {
        if p < self.n {
            (p, self.f_offset, self.g_offset, self.n)
        } else {
            (p - self.n, self.g_offset, self.f_offset, 0)
        }
    }

    /// Position `p` of the scope (in `f` if `p < n`, else in `g`): the scope
    /// position its value `v` points to, and the value that variable must hold.
    fn partner(&self, p: usize, v: Value) -> Option<(usize, Value)> {
        let (i, mine, theirs, base) = self.side(p);
        let k = usize::try_from(i128::from(v) - i128::from(theirs))
            .ok()
            .filter(|&k| k < self.n)?;
        let back = Value::try_from(i128::from(mine) + i as i128).ok()?;
        Some((base + k, back))
    }

    fn supported(&self, d: &Domains, p: usize, v: Value) -> bool {
        self.partner(p, v)
            .is_some_and(|(q, w)| d.contains(self.scope[q], w))
    }

    /// Scope position `p`'s missing values leave their partners: for each
    /// position `k` of the other side, if `p` cannot point to `k`, `k` cannot
    /// point back to `p`.
    fn send_missing(&self, ctx: &mut PropagationContext<'_>, p: usize) -> Result<(), Conflict> {
        let (i, mine, theirs, base) = self.side(p);
        // `p` names no position of the other side: nothing points back to it.
        let Ok(back) = Value::try_from(i128::from(mine) + i as i128) else {
            return Ok(());
        };
        let x = self.scope[p];
        for k in 0..self.n {
            let missing = Value::try_from(i128::from(theirs) + k as i128)
                .map_or(true, |v| !ctx.domains().contains(x, v));
            if missing {
                ctx.remove(self.scope[base + k], back)?;
            }
        }
        Ok(())
    }

    /// Position `p`'s domain as bits over the other side's positions (bit
    /// `k`: it holds the value naming position `k`); `n` is at most [`WORD`].
    fn domain_bits(&self, ctx: &PropagationContext<'_>, p: usize) -> u64 {
        let (_, _, theirs, _) = self.side(p);
        let mut w = 0u64;
        ctx.domains()
            .or_values_into(self.scope[p], theirs, std::slice::from_mut(&mut w));
        w & all_bits(self.n)
    }

    /// The positions `gone` (bits) that scope position `p` can no longer
    /// point to cannot point back to it.
    fn send_gone(
        &self,
        ctx: &mut PropagationContext<'_>,
        p: usize,
        mut gone: u64,
    ) -> Result<(), Conflict> {
        let (i, mine, _, base) = self.side(p);
        let Ok(back) = Value::try_from(i128::from(mine) + i as i128) else {
            return Ok(());
        };
        while gone != 0 {
            let k = gone.trailing_zeros() as usize;
            gone &= gone - 1;
            ctx.remove(self.scope[base + k], back)?;
        }
        Ok(())
    }

    /// The propagators level (see the type's documentation).
    fn propagate_incremental(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let n = self.n;
        let size = |ctx: &PropagationContext<'_>| -> usize {
            self.scope.iter().map(|&x| ctx.len(x)).sum()
        };
        let before = size(ctx);
        if ctx.state_int(READY) == 0 {
            for (p, &x) in self.scope.iter().enumerate() {
                ctx.note_revision();
                ctx.retain(x, |d, v| self.supported(d, p, v))?;
            }
            ctx.set_state_int(READY, 1);
        }
        loop {
            // Channel and eliminate from every position that shrank, until none did.
            loop {
                let mut dealt = false;
                for p in 0..2 * n {
                    let x = self.scope[p];
                    if self.bits {
                        // Every value lies in the window since the first
                        // call: the same size is the same domain.
                        let last = ctx.state_int(1 + p) as u64;
                        if ctx.len(x) == last.count_ones() as usize {
                            continue;
                        }
                        let now = self.domain_bits(ctx, p);
                        ctx.set_state_int(1 + p, now as i64);
                        ctx.note_revision();
                        self.send_gone(ctx, p, last & !now)?;
                    } else {
                        let len = ctx.len(x) as i64;
                        if ctx.state_int(1 + p) == len {
                            continue;
                        }
                        ctx.set_state_int(1 + p, len);
                        ctx.note_revision();
                        self.send_missing(ctx, p)?;
                    }
                    dealt = true;
                    if let Some(v) = ctx.value(x) {
                        let side = if p < n { 0..n } else { n..2 * n };
                        for q in side {
                            if q != p {
                                ctx.remove(self.scope[q], v)?;
                            }
                        }
                    }
                }
                if !dealt {
                    break;
                }
            }
            if !self.matching {
                break;
            }
            // Each side's fixed values have left it: the matching filters alone
            // (side 0's removals change nothing on side 1 before the next
            // round), each skipped while its side is as its last run left it.
            let mut changed = false;
            for side in 0..2 {
                let at = 1 + 2 * n + side;
                let vars = &self.scope[side * n..(side + 1) * n];
                let sum = |ctx: &PropagationContext<'_>| -> i64 {
                    vars.iter().map(|&x| ctx.len(x) as i64).sum()
                };
                let before = sum(ctx);
                if before == ctx.state_int(at) {
                    continue;
                }
                self.all_different[side].matching_embedded(ctx)?;
                let after = sum(ctx);
                ctx.set_state_int(at, after);
                changed |= after != before;
            }
            if !changed {
                break;
            }
        }
        finish(self, ctx, size(ctx) != before)
    }
}

impl Constraint for Inverse {
    fn cost(&self) -> PropCost {
        if self.matching {
            PropCost::Expensive
        } else {
            PropCost::Linear
        }
    }

    fn state_layout(&self, pruning: Pruning) -> StateLayout {
        if pruning == Pruning::Propagators {
            // Every position starts as if it held every value: the first
            // pass sends all that are missing.
            let first = if self.bits {
                all_bits(self.n) as i64
            } else {
                0
            };
            (0..self.scope.len())
                .fold(StateLayout::new().int(0), |l, _| l.int(first))
                .int(-1)
                .int(-1)
        } else {
            StateLayout::new()
        }
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        (0..2 * self.n).all(|p| self.partner(p, v[p]).is_some_and(|(q, w)| v[q] == w))
    }

    fn name(&self) -> &str {
        "inverse"
    }

    fn promising(&self, d: &Domains) -> bool {
        self.scope
            .iter()
            .enumerate()
            .all(|(p, &x)| match d.value(x) {
                Some(v) => self.supported(d, p, v),
                None => true,
            })
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if ctx.pruning() == Pruning::Propagators {
            self.propagate_incremental(ctx)
        } else {
            self.propagate_whole(ctx, false)
        }
    }
}

impl Inverse {
    /// The textbook levels' filtering, every pair checked again until nothing
    /// changes (with the matching filters if `matching`).
    fn propagate_whole(&self, ctx: &mut PropagationContext<'_>, matching: bool) -> Propagation {
        let size = |ctx: &PropagationContext<'_>| -> usize {
            self.scope.iter().map(|&x| ctx.len(x)).sum()
        };
        let before = size(ctx);
        let n = self.n;
        loop {
            let round = size(ctx);
            for (p, &x) in self.scope.iter().enumerate() {
                ctx.note_revision();
                ctx.retain(x, |d, v| self.supported(d, p, v))?;
            }
            // Each side is a permutation: a fixed value leaves its neighbours.
            for side in [&self.scope[..n], &self.scope[n..]] {
                for (i, &x) in side.iter().enumerate() {
                    if let Some(v) = ctx.value(x) {
                        for (j, &y) in side.iter().enumerate() {
                            if i != j {
                                ctx.remove(y, v)?;
                            }
                        }
                    }
                }
            }
            if matching {
                self.all_different[0].propagate_embedded(ctx)?;
                self.all_different[1].propagate_embedded(ctx)?;
            }
            if size(ctx) == round {
                break;
            }
        }
        finish(self, ctx, size(ctx) != before)
    }
}

/// The low `n` bits (`n` at most 64).
fn all_bits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

impl Model {
    /// `f[i] = j` exactly when `g[j] = i`, from 0 (see [`Inverse`]).
    ///
    /// Fails if `f` and `g` differ in length, are empty, or on a variable of
    /// another model.
    pub fn inverse(&mut self, f: &[VarId], g: &[VarId]) -> Result<ConstraintId, CspError> {
        self.post(Inverse::new(f, g)?)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Solver};

    #[test]
    fn fixing_f_fixes_g() {
        let mut m = Model::new();
        let f = m.int_var_array("f", 3, 0..=2).unwrap();
        let g = m.int_var_array("g", 3, 0..=2).unwrap();
        m.linear(&[1], &[f[0]], crate::Relation::Eq, 2).unwrap();
        m.inverse(&f, &g).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::ArcConsistency)).unwrap();
        assert_eq!(s.domains().value(g[2]), Some(0));
        assert!(!s.domains().contains(g[0], 0));
    }

    #[derive(Clone, Copy)]
    enum Mode {
        Whole,
        Bits,
        Sizes,
    }

    /// The same filtering without trailed state: every pair checked again
    /// at every call (the propagators level's fixpoint, the slow way).
    struct Whole(super::Inverse);

    impl crate::Constraint for Whole {
        fn scope(&self) -> &[crate::VarId] {
            self.0.scope()
        }
        fn check(&self, v: &[crate::Value]) -> bool {
            self.0.check(v)
        }
        fn propagate(&self, ctx: &mut crate::PropagationContext<'_>) -> crate::Propagation {
            let matching = ctx.pruning() == Pruning::Propagators && self.0.matching;
            self.0.propagate_whole(ctx, matching)
        }
    }

    /// Random domains (values around the range, with offsets), with an
    /// all-different over `f[i] + i` beside: every level counts the
    /// solutions that plain checking counts, and under the propagators level
    /// the incremental channelling tries as many values as the whole one, so
    /// it loses nothing across backtracking.
    #[test]
    fn random_inverses_count_what_checking_counts() {
        let mut rng = crate::rng::SplitMix64::new(29);
        for case in 0..150 {
            let n = 2 + (rng.next_u64() % 4) as usize;
            let (fo, go) = ((rng.next_u64() % 3) as i64 - 1, (rng.next_u64() % 3) as i64);
            let mut dom = |o: i64| {
                let d: Vec<i64> = (o - 1..o + n as i64 + 1)
                    .filter(|_| rng.next_u64() % 4 != 0)
                    .collect();
                if d.is_empty() { vec![o] } else { d }
            };
            let doms: Vec<Vec<i64>> = (0..2 * n)
                .map(|p| dom(if p < n { go } else { fo }))
                .collect();
            // Every other case without the matching filters.
            let values_only = case % 4 >= 2;
            let build = |mode: Mode| {
                let mut m = Model::new();
                let xs: Vec<_> = doms.iter().map(|d| m.int_var(d.clone()).unwrap()).collect();
                let (f, g) = xs.split_at(n);
                let mut c = super::Inverse::with_offsets(f, fo, g, go).unwrap();
                if values_only {
                    c = c.values_only();
                }
                match mode {
                    Mode::Whole => {
                        m.post(Whole(c)).unwrap();
                    }
                    Mode::Bits => {
                        m.post(c).unwrap();
                    }
                    Mode::Sizes => {
                        // The state of more than 64 positions a side.
                        c.bits = false;
                        m.post(c).unwrap();
                    }
                }
                if case % 2 == 0 {
                    let offsets: Vec<i64> = (0..n as i64).collect();
                    m.all_different_offsets(f, &offsets).unwrap();
                }
                m
            };
            let (m, whole, sizes) = (build(Mode::Bits), build(Mode::Whole), build(Mode::Sizes));
            let count = |m: &Model, p: Pruning| {
                let r = Solver::new(m, Config::textbook().with_pruning(p))
                    .unwrap()
                    .count();
                (r.solutions, r.stats.tried)
            };
            let checked = count(&m, Pruning::Check).0;
            for p in [
                Pruning::ForwardChecking,
                Pruning::ArcConsistency,
                Pruning::Propagators,
            ] {
                assert_eq!(count(&m, p).0, checked, "case {case}, {p:?}");
            }
            // The incremental filtering prunes as much as the whole one,
            // with domains kept as bits or as sizes.
            let reference = count(&whole, Pruning::Propagators);
            assert_eq!(count(&m, Pruning::Propagators), reference, "case {case}");
            assert_eq!(
                count(&sizes, Pruning::Propagators),
                reference,
                "case {case}"
            );
        }
    }
}
