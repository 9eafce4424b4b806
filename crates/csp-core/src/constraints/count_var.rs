//! Counting with a variable value and any relation: `|{i : vars[i] = value}|
//! relation result`, `value` and `result` variables.

use smallvec::SmallVec;

use super::global_cardinality::finish;
use crate::constraint::{Conflict, Propagation};
use crate::{
    Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Relation, Value, VarId,
};

/// The number of `vars` equal to the variable `value` stands in `relation` to
/// `result`: `|{i : vars[i] = value}| relation result` (MiniZinc's `count_eq`,
/// `count_leq`, ... with a variable value; for `count_leq(x, y, c)`, which
/// says `c <= count`, the relation is `>=`). Posted by [`Model::count_var`].
/// The scope is `vars`, then `value`, then `result`.
///
/// Filtering, the same at every level and run to a fixpoint: for each value
/// `v` left to `value`, `sure(v)` variables are fixed to `v` and `possible(v)`
/// can take it, so with `value = v` the count lies in `[sure(v), possible(v)]`.
/// A `v` for which no count of that interval stands in `relation` to a value
/// of `result` leaves `value`; `result` keeps the values that some interval
/// allows (for `=`, every value outside all intervals goes; for the
/// inequalities, the bound; for `!=`, the one count every `v` forces). A value
/// `w` leaves an open variable when neither `value = w` (one more sure
/// occurrence of `w`) nor any other `value = v` (one fewer possible occurrence
/// of `v`) is then allowed. With `value` fixed this is [`Count`](super::Count)'s
/// filtering; it is generalised arc consistency when the variables are
/// distinct, and stays sound when they are not (a variable counted twice, or
/// `value` or `result` among `vars`). Gecode's count with a variable value only
/// prunes once `result` is fixed at one of its extremes; this prunes `value`
/// and `result` from the start.
///
/// ```
/// use csp_core::{Config, Model, Relation, Solver};
/// use csp_core::constraints::CountVar;
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 3, 1..=3)?;
/// let v = m.int_var(1..=3)?;
/// let c = m.constant(3)?;
/// m.post(CountVar::new(&xs, v, Relation::Eq, c))?;
/// // All three equal to v: 111, 222, 333.
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 3);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountVar {
    /// `vars`, then `value`, then `result`.
    scope: Vec<VarId>,
    /// Number of `vars`.
    n: usize,
    relation: Relation,
}

/// The candidates of one round, on the stack up to 16 values of `value`.
type Candidates = SmallVec<[Candidate; 16]>;

/// One candidate of `value` and the counts it allows.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    value: Value,
    /// Variables fixed to the value.
    sure: Value,
    /// Variables that contain it.
    possible: Value,
}

impl CountVar {
    /// `|{i : vars[i] = value}| relation result`.
    pub fn new(vars: &[VarId], value: VarId, relation: Relation, result: VarId) -> Self {
        let mut scope = vars.to_vec();
        scope.push(value);
        scope.push(result);
        CountVar {
            scope,
            n: vars.len(),
            relation,
        }
    }

    fn vars(&self) -> &[VarId] {
        &self.scope[..self.n]
    }

    pub(super) fn value(&self) -> VarId {
        self.scope[self.n]
    }

    fn result(&self) -> VarId {
        self.scope[self.n + 1]
    }

    /// Whether some count in `lo..=hi` stands in the relation to a value of
    /// the result.
    fn allows(&self, d: &Domains, lo: Value, hi: Value) -> bool {
        allows(self.relation, d, self.result(), lo, hi)
    }

    /// What the candidates say about the count: `Some(false)` if no value of
    /// `value` leaves a count that stands in the relation to a value of
    /// `result`, `Some(true)` if none leaves a count that does not (asked
    /// only when `entailment` is set), `None` otherwise. Both answers are
    /// sound (counts between the sure and the possible occurrences are
    /// taken as reachable, which over-approximates when a variable is
    /// counted twice). [`ReifiedCount`](super::ReifiedCount)'s test, and with
    /// `entailment` unset this constraint's `promising`.
    pub(super) fn truth(&self, d: &Domains, entailment: bool) -> Option<bool> {
        let mut cands = Candidates::new();
        self.candidates(d, &mut cands);
        let r = self.result();
        let some = |relation| {
            cands
                .iter()
                .any(|c| allows(relation, d, r, c.sure, c.possible))
        };
        if !some(self.relation) {
            Some(false)
        } else if entailment && !some(self.relation.negated()) {
            Some(true)
        } else {
            None
        }
    }

    /// The sure and possible occurrences of every value left to `value`, into
    /// `out` (cleared first). The variables are read once: the fixed ones are
    /// counted by comparing their values, and only the open ones are asked
    /// whether they contain each candidate.
    fn candidates(&self, d: &Domains, out: &mut Candidates) {
        out.clear();
        let mut fixed: SmallVec<[Value; 16]> = SmallVec::new();
        let mut open: SmallVec<[VarId; 16]> = SmallVec::new();
        for &x in self.vars() {
            match d.value(x) {
                Some(w) => fixed.push(w),
                None => open.push(x),
            }
        }
        for v in d.values(self.value()) {
            let sure = fixed.iter().filter(|&&w| w == v).count() as Value;
            let maybe = open.iter().filter(|&&x| d.contains(x, v)).count() as Value;
            out.push(Candidate {
                value: v,
                sure,
                possible: sure + maybe,
            });
        }
    }

    /// Narrows `result` to what the candidates allow; whether it changed.
    fn filter_result(
        &self,
        ctx: &mut PropagationContext<'_>,
        cands: &[Candidate],
    ) -> Result<bool, Conflict> {
        let r = self.result();
        let lo = cands.iter().map(|c| c.sure).min().unwrap_or(0);
        let hi = cands.iter().map(|c| c.possible).max().unwrap_or(0);
        ctx.note_revision();
        Ok(match self.relation {
            Relation::Eq => {
                let mut changed = ctx.remove_below(r, lo)?;
                changed |= ctx.remove_above(r, hi)?;
                let left: SmallVec<[Value; 32]> = ctx.values(r).collect();
                for c in left {
                    if !cands.iter().any(|k| (k.sure..=k.possible).contains(&c)) {
                        changed |= ctx.remove(r, c)?;
                    }
                }
                changed
            }
            Relation::Le => ctx.remove_below(r, lo)?,
            Relation::Lt => ctx.remove_below(r, lo.saturating_add(1))?,
            Relation::Ge => ctx.remove_above(r, hi)?,
            Relation::Gt => ctx.remove_above(r, hi.saturating_sub(1))?,
            Relation::Ne => match cands.first() {
                Some(&k)
                    if cands
                        .iter()
                        .all(|c| c.sure == k.sure && c.possible == k.sure) =>
                {
                    ctx.remove(r, k.sure)?
                }
                _ => false,
            },
        })
    }

    /// One round of filtering; whether anything changed.
    fn round(
        &self,
        ctx: &mut PropagationContext<'_>,
        cands: &mut Candidates,
    ) -> Result<bool, Conflict> {
        let y = self.value();
        let mut changed = false;
        // The values of `value` whose counts no result allows.
        self.candidates(ctx.domains(), cands);
        ctx.note_revision();
        let d = ctx.domains();
        let dead: SmallVec<[Value; 8]> = cands
            .iter()
            .filter(|c| !self.allows(d, c.sure, c.possible))
            .map(|c| c.value)
            .collect();
        for &v in &dead {
            changed |= ctx.remove(y, v)?;
        }
        cands.retain(|c| !dead.contains(&c.value));
        changed |= self.filter_result(ctx, cands)?;
        if changed {
            // The result moved: judge the candidates again before the variables.
            return Ok(true);
        }
        // The candidates whose counts no result allows once an open variable
        // that can take them avoids them ("critical"), and those that allow
        // one more sure occurrence.
        let d = ctx.domains();
        let critical: SmallVec<[Value; 8]> = cands
            .iter()
            .filter(|c| c.possible > c.sure && !self.allows(d, c.sure, c.possible - 1))
            .map(|c| c.value)
            .collect();
        let open = cands.len();
        for &x in self.vars() {
            if ctx.is_fixed(x) || ctx.too_many_to_walk(x) {
                continue;
            }
            // Candidates that x avoiding them would kill.
            let killed = critical.iter().filter(|&&v| ctx.contains(x, v)).count();
            if open - killed >= 2 {
                // Whatever x takes, some other candidate survives.
                continue;
            }
            ctx.note_revision();
            let values: SmallVec<[Value; 32]> = ctx.values(x).collect();
            for w in values {
                let supported = match cands.iter().find(|c| c.value == w) {
                    // x = w != value: some candidate must survive x avoiding it.
                    None => open > killed,
                    Some(k) => {
                        let take = self.allows(ctx.domains(), k.sure + 1, k.possible);
                        let w_survives = !critical.contains(&w);
                        take || open - killed - usize::from(w_survives) > 0
                    }
                };
                if !supported {
                    changed |= ctx.remove(x, w)?;
                }
            }
        }
        Ok(changed)
    }
}

/// Whether some count in `lo..=hi` stands in `relation` to a value of `r`.
fn allows(relation: Relation, d: &Domains, r: VarId, lo: Value, hi: Value) -> bool {
    if lo > hi {
        return false;
    }
    match relation {
        Relation::Eq => {
            // The bounds answer most calls without a walk.
            let (min, max) = (d.min(r), d.max(r));
            if hi < min || lo > max {
                false
            } else if lo <= min || hi >= max {
                true
            } else {
                d.next_value(r, lo - 1).is_some_and(|c| c <= hi)
            }
        }
        Relation::Ne => !(lo == hi && d.value(r) == Some(lo)),
        Relation::Le => lo <= d.max(r),
        Relation::Lt => lo < d.max(r),
        Relation::Ge => hi >= d.min(r),
        Relation::Gt => hi > d.min(r),
    }
}

impl Constraint for CountVar {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        let (v, r) = (values[self.n], values[self.n + 1]);
        let count = values[..self.n].iter().filter(|&&x| x == v).count() as Value;
        match self.relation {
            Relation::Eq => count == r,
            Relation::Ne => count != r,
            Relation::Le => count <= r,
            Relation::Lt => count < r,
            Relation::Ge => count >= r,
            Relation::Gt => count > r,
        }
    }

    fn name(&self) -> &str {
        "count-var"
    }

    fn promising(&self, d: &Domains) -> bool {
        self.truth(d, false) != Some(false)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        if ctx.too_many_to_walk(self.value()) {
            // A value too wide to walk (a wide variable's): nothing until it
            // narrows (it is fixed before a solution is accepted).
            return Ok(crate::PropStatus::Unchanged);
        }
        let mut changed = false;
        let mut cands = Candidates::new();
        while self.round(ctx, &mut cands)? {
            changed = true;
        }
        finish(self, ctx, changed)
    }
}

impl Model {
    /// `|{i : vars[i] = value}| relation result`, with `value` a variable (see
    /// [`CountVar`]; [`Model::count`] takes a constant value).
    ///
    /// ```
    /// use csp_core::{Config, Model, Relation, Solver};
    /// let mut m = Model::new();
    /// let xs = m.int_var_array("x", 3, 0..=1)?;
    /// let v = m.int_var(0..=1)?;
    /// let two = m.constant(2)?;
    /// // At least two of the three equal v.
    /// m.count_var(&xs, v, Relation::Ge, two)?;
    /// // v = 0: 4 arrays with at least two 0s; v = 1: 4 with at least two 1s.
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 8);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    ///
    /// Fails on a variable of another model.
    pub fn count_var(
        &mut self,
        vars: &[VarId],
        value: VarId,
        relation: Relation,
        result: VarId,
    ) -> Result<ConstraintId, CspError> {
        self.post(CountVar::new(vars, value, relation, result))
    }
}
