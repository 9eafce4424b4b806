//! Element with an index offset: `result = array[index - offset]`, for arrays
//! indexed from 1 (MiniZinc) or from any other number.

use smallvec::SmallVec;

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::constraints::element_masks::{
    COVER_WORDS, SmallValues, common_value, keep_shared, remove_missing,
};
use crate::{
    Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Pruning, StateLayout,
    Value, VarId,
};

/// `result = array[index - offset]`, over constants or variables: the array's
/// first entry has index `offset`. Posted by [`Model::element_offset`] and
/// [`Model::element_var_offset`]; with `offset = 0` those post
/// [`Element`](crate::Element) and [`VarElement`](crate::VarElement).
///
/// The scope is `[index, result]`, then the array's variables if any.
/// `promising` looks for an index whose entry can still be the result;
/// propagation (the same at every level from forward checking up) keeps the
/// indices whose entry is a possible result and the results some possible
/// index gives (generalised arc consistency over constants), and once the index
/// is fixed, makes its variable and the result agree.
///
/// When the index is neither the result nor in the array (the result may
/// be in it, as in `x[i] = x[k]`) one call reaches the fixpoint, and the constraint keeps in trailed
/// state the total size of the domains that matter (the index, the result,
/// the entries the index can still select): a call that finds it unchanged
/// returns at once, since nothing it reads has moved. Over variables it
/// also keeps a *residue* for each entry (a value its variable shares with
/// the result, checked in O(1) before any search for a new one, as Gecode
/// and Choco do), and at the propagators level a wake set
/// ([`Constraint::wake_set`]): an entry the index can no longer select does
/// not wake it (there the wake set replaces the unchanged-size test). The
/// results an entry can give are found as the union of the entries' domains
/// in a few word operations when the result spans at most 256 values. Over
/// variables, the constraint is entailed once the index, its entry and the
/// result are fixed and agree.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// use csp_core::constraints::OffsetElement;
/// let mut m = Model::new();
/// let day = m.int_var(1..=7)?; // 1 = Monday
/// let open = m.int_var(1..=1)?;
/// m.post(OffsetElement::new(day, &[1, 1, 0, 1, 1, 0, 0], 1, open))?;
/// let days: Vec<_> = Solver::new(&m, Config::textbook())?.solutions().map(|s| s[day]).collect();
/// assert_eq!(days, vec![1, 2, 4, 5]);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffsetElement {
    /// `[index, result]`, then the array's variables.
    scope: Vec<VarId>,
    /// The constant array, or `None` for the variables of the scope.
    array: Option<Vec<Value>>,
    offset: Value,
    /// The index is neither the result nor in the array: one call reaches
    /// the fixpoint (the unchanged-call test and, over variables, the
    /// residues apply). The result may be in the array (`x[i] = x[k]`, or a
    /// constant the array shares): narrowing the result keeps a value of
    /// every entry the index can select, and while the index can select the
    /// result's own entry the result is not narrowed at all.
    plain: bool,
}

/// Trailed integer 0: the total domain size of the last call's fixpoint.
const SEEN: usize = 0;

/// Trailed bit set 0 (over plain variables): the scope positions whose
/// changes wake the constraint, cleared for an entry the index can no
/// longer select ([`Constraint::wake_set`]).
const WAKE: usize = 0;

/// One entry of the array: a constant or a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    Const(Value),
    Var(VarId),
}

impl OffsetElement {
    /// `result = array[index - offset]` over a constant array.
    pub fn new(index: VarId, array: &[Value], offset: Value, result: VarId) -> Self {
        OffsetElement {
            scope: vec![index, result],
            array: Some(array.to_vec()),
            offset,
            plain: index != result,
        }
    }

    /// `result = vars[index - offset]` over variables.
    pub fn with_vars(index: VarId, vars: &[VarId], offset: Value, result: VarId) -> Self {
        let mut scope = vec![index, result];
        scope.extend_from_slice(vars);
        let plain = index != result && !vars.contains(&index);
        OffsetElement {
            scope,
            array: None,
            offset,
            plain,
        }
    }

    fn position(&self, index: Value) -> Option<usize> {
        index
            .checked_sub(self.offset)
            .and_then(|i| usize::try_from(i).ok())
    }

    fn entry(&self, index: Value) -> Option<Entry> {
        let i = self.position(index)?;
        match &self.array {
            Some(a) => a.get(i).map(|&v| Entry::Const(v)),
            None => self.scope[2..].get(i).map(|&x| Entry::Var(x)),
        }
    }

    /// Whether the entry at `index` can equal `result`'s value `r`.
    fn can_give(d: &Domains, entry: Entry, r: Value) -> bool {
        match entry {
            Entry::Const(v) => v == r,
            Entry::Var(x) => d.contains(x, r),
        }
    }

    /// Whether the entry at `index` can equal some value of `result`.
    fn supported(&self, d: &Domains, index: Value) -> bool {
        let [i, r] = [self.scope[0], self.scope[1]];
        match self.entry(index) {
            None => false,
            // `x = array[x - offset]` pairs the index with itself.
            Some(Entry::Const(v)) if i == r => v == index,
            Some(Entry::Const(v)) => d.contains(r, v),
            Some(Entry::Var(x)) if i == r => d.contains(x, index),
            Some(Entry::Var(x)) => d.may_share_value(x, r),
        }
    }
}

impl OffsetElement {
    /// The total size of the domains the filtering reads (see the type's
    /// documentation); it only falls along a branch while any of them shrinks.
    fn seen(&self, d: &Domains) -> i64 {
        let [index, result] = [self.scope[0], self.scope[1]];
        let items = &self.scope[2..];
        let mut total = d.len(index) + d.len(result);
        if self.array.is_some() {
            return total as i64;
        }
        for i in d.values(index) {
            if let Some(k) = self.position(i).filter(|&k| k < items.len()) {
                total += d.len(items[k]);
            }
        }
        total as i64
    }

    /// Keeps the results that an entry the index can select can give.
    fn filter_result(&self, ctx: &mut PropagationContext<'_>) -> Result<bool, Conflict> {
        let [index, result] = [self.scope[0], self.scope[1]];
        let lo = ctx.min(result);
        let span = i128::from(ctx.max(result)) - i128::from(lo) + 1;
        if span <= 64 * COVER_WORDS as i128 {
            // The union of the entries' values, as masks over the result's
            // span, until it covers the result.
            let words = (span as usize).div_ceil(64);
            let (mut want, mut have) = ([0u64; COVER_WORDS], [0u64; COVER_WORDS]);
            let d = ctx.domains();
            d.or_values_into(result, lo, &mut want[..words]);
            for i in d.values(index) {
                match self.entry(i) {
                    None => continue,
                    Some(Entry::Const(v)) => {
                        if let Some(k) = v
                            .checked_sub(lo)
                            .filter(|&k| (0..span as Value).contains(&k))
                        {
                            have[k as usize / 64] |= 1 << (k % 64);
                        }
                    }
                    Some(Entry::Var(x)) if words == 1 => have[0] |= d.values_word(x, lo),
                    Some(Entry::Var(x)) => d.or_values_into(x, lo, &mut have[..words]),
                }
                if (0..words).all(|k| want[k] & !have[k] == 0) {
                    return Ok(false);
                }
            }
            return remove_missing(ctx, result, lo, &want[..words], &have[..words]);
        }
        let entries: SmallVec<[Entry; 32]> =
            ctx.values(index).filter_map(|i| self.entry(i)).collect();
        ctx.retain(result, |d, r| {
            entries.iter().any(|&e| Self::can_give(d, e, r))
        })
    }

    /// Over variables, trailed integer `1 + entries` (after the residues):
    /// the index's size when the wake set was last updated.
    fn last_index(&self) -> usize {
        self.scope.len() - 1
    }

    /// Clears, in the wake set, the entries the index can no longer select.
    fn unwatch(&self, ctx: &mut PropagationContext<'_>) {
        let index = self.scope[0];
        // The index only shrinks along a branch, so the same size means the
        // same domain, and nothing to clear.
        let size = ctx.len(index) as i64;
        if ctx.state_int(self.last_index()) == size {
            return;
        }
        ctx.set_state_int(self.last_index(), size);
        let words: SmallVec<[u64; 4]> = ctx.state_bits(WAKE).into();
        for (chunk, &word) in words.iter().enumerate() {
            // Positions 0 and 1 (the index and the result) always wake.
            let mut live = if chunk == 0 { word & !3 } else { word };
            while live != 0 {
                let pos = chunk * 64 + live.trailing_zeros() as usize;
                live &= live - 1;
                let selectable = (pos as Value - 2)
                    .checked_add(self.offset)
                    .is_some_and(|i| ctx.contains(index, i));
                if !selectable {
                    ctx.clear_state_bit(WAKE, pos);
                }
            }
        }
    }

    /// Keeps the indices whose variable shares a value with the result,
    /// through the residues (trailed integers `1 + k` for entry `k`).
    fn filter_index(&self, ctx: &mut PropagationContext<'_>) -> Result<bool, Conflict> {
        let index = self.scope[0];
        let mut changed = false;
        match SmallValues::of(ctx.domains(), index) {
            Some(candidates) => {
                for i in candidates {
                    if !self.index_supported(ctx, i) {
                        changed |= ctx.remove(index, i)?;
                    }
                }
            }
            None => {
                let candidates: SmallVec<[Value; 32]> = ctx.values(index).collect();
                for i in candidates {
                    if !self.index_supported(ctx, i) {
                        changed |= ctx.remove(index, i)?;
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Both filters in one pass over the index, when the result spans at
    /// most `64 * COVER_WORDS` values and the index fits [`SmallValues`]:
    /// each entry's values as a mask over the result's span; an entry whose
    /// mask misses the result loses its index, and the others' masks make up
    /// the results kept. The same values go as with [`filter_index`] then
    /// [`filter_result`], without the residues. `None`: the domains are
    /// too wide for it.
    ///
    /// [`filter_index`]: Self::filter_index
    /// [`filter_result`]: Self::filter_result
    fn filter_both(&self, ctx: &mut PropagationContext<'_>) -> Option<Result<bool, Conflict>> {
        let [index, result] = [self.scope[0], self.scope[1]];
        let items = &self.scope[2..];
        let lo = ctx.min(result);
        let span = i128::from(ctx.max(result)) - i128::from(lo) + 1;
        if span > 64 * COVER_WORDS as i128 {
            return None;
        }
        let candidates = SmallValues::of(ctx.domains(), index)?;
        let words = (span as usize).div_ceil(64);
        let (mut want, mut have) = ([0u64; COVER_WORDS], [0u64; COVER_WORDS]);
        let d = ctx.domains();
        d.or_values_into(result, lo, &mut want[..words]);
        // The indices left without support (at most the index's span).
        let mut dead: SmallVec<[Value; 16]> = SmallVec::new();
        for i in candidates {
            let Some(&x) = self.position(i).and_then(|k| items.get(k)) else {
                dead.push(i);
                continue;
            };
            if words == 1 {
                let shared = d.values_word(x, lo) & want[0];
                have[0] |= shared;
                if shared == 0 {
                    dead.push(i);
                }
                continue;
            }
            let mut mask = [0u64; COVER_WORDS];
            d.or_values_into(x, lo, &mut mask[..words]);
            let mut meets = false;
            for k in 0..words {
                let shared = mask[k] & want[k];
                meets |= shared != 0;
                have[k] |= shared;
            }
            if !meets {
                dead.push(i);
            }
        }
        Some(self.apply_both(ctx, &dead, lo, &want[..words], &have[..words]))
    }

    /// [`filter_both`](Self::filter_both)'s removals: the `dead` indices,
    /// then the results outside `have` (masks from `lo`).
    fn apply_both(
        &self,
        ctx: &mut PropagationContext<'_>,
        dead: &[Value],
        lo: Value,
        want: &[u64],
        have: &[u64],
    ) -> Result<bool, Conflict> {
        let [index, result] = [self.scope[0], self.scope[1]];
        let mut changed = false;
        for &i in dead {
            changed |= ctx.remove(index, i)?;
        }
        // A fixed result is supported by every index left (one revision
        // for the index, counted by the caller, and one for the result).
        if !ctx.is_fixed(result) {
            ctx.note_revision();
            changed |= remove_missing(ctx, result, lo, want, have)?;
        }
        Ok(changed)
    }

    /// Whether index `i`'s variable shares a value with the result: its
    /// residue first, then a search that renews it.
    #[inline]
    fn index_supported(&self, ctx: &mut PropagationContext<'_>, i: Value) -> bool {
        let result = self.scope[1];
        let items = &self.scope[2..];
        let Some(k) = self.position(i).filter(|&k| k < items.len()) else {
            return false;
        };
        let (d, x) = (ctx.domains(), items[k]);
        let res = ctx.state_int(1 + k);
        if d.contains(x, res) && d.contains(result, res) {
            return true;
        }
        match common_value(d, x, result) {
            Some(v) => {
                ctx.set_state_int(1 + k, v);
                true
            }
            None => false,
        }
    }
}

impl Constraint for OffsetElement {
    /// Over plain variables: the residues and the size seen at the last
    /// fixpoint (at every level: the same filtering runs at all of them).
    fn state_layout(&self, _pruning: Pruning) -> StateLayout {
        let mut layout = StateLayout::new();
        if self.plain {
            layout = layout.int(-1);
            for _ in 2..self.scope.len() {
                layout = layout.int(Value::MIN);
            }
            if self.array.is_none() {
                // The wake set, and the index's size when it was last updated.
                layout = layout.bits(self.scope.len(), true).int(-1);
            }
        }
        layout
    }

    /// Over plain variables, an entry the index can no longer select does not
    /// wake the constraint.
    fn wake_set(&self) -> Option<usize> {
        (self.plain && self.array.is_none()).then_some(WAKE)
    }

    /// Over plain variables one call reaches the fixpoint.
    fn idempotent(&self) -> bool {
        self.plain
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        let Some(i) = self.position(v[0]) else {
            return false;
        };
        let entry = match &self.array {
            Some(a) => a.get(i),
            None => v[2..].get(i),
        };
        entry == Some(&v[1])
    }

    fn name(&self) -> &str {
        "element"
    }

    fn promising(&self, d: &Domains) -> bool {
        d.values(self.scope[0]).any(|i| self.supported(d, i))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let [index, result] = [self.scope[0], self.scope[1]];
        // At the propagators level, a plain element over variables is woken
        // only by the entries the index can select (its wake set): the
        // unchanged-size test would cost more than it saves.
        let masked = self.plain && self.array.is_none() && ctx.pruning() == Pruning::Propagators;
        if self.plain && !masked && self.seen(ctx.domains()) == ctx.state_int(SEEN) {
            return Ok(PropStatus::Unchanged);
        }
        ctx.note_revision();
        let both = match self.plain && self.array.is_none() {
            true => self.filter_both(ctx),
            false => None,
        };
        let mut changed = match both {
            Some(changed) => changed?,
            None => {
                let mut changed = if self.plain && self.array.is_none() {
                    self.filter_index(ctx)?
                } else {
                    ctx.retain(index, |d, i| self.supported(d, i))?
                };
                // A fixed result is supported by every index left.
                if index != result && !(self.plain && ctx.is_fixed(result)) {
                    ctx.note_revision();
                    changed |= self.filter_result(ctx)?;
                }
                changed
            }
        };
        if let Some(i) = ctx.value(index)
            && let Some(Entry::Var(x)) = self.entry(i)
            && x != result
        {
            ctx.note_revision();
            changed |= keep_shared(ctx, x, result)?;
        }
        let settled = match (ctx.value(index), &self.array) {
            // The result is the entry's value (narrowing the result may have
            // fixed the index, where both are views of one variable).
            (Some(i), Some(_)) => {
                let want = self.entry(i).and_then(|e| match e {
                    Entry::Const(v) => Some(v),
                    Entry::Var(_) => None,
                });
                changed |= ctx.retain(result, |_, r| Some(r) == want)?;
                if ctx.value(index) != Some(i) {
                    return Err(Conflict::infeasible());
                }
                true
            }
            // The selected entry and the result fixed to one value: the
            // other entries no longer matter.
            (Some(i), None) => match self.entry(i) {
                Some(Entry::Var(x)) => ctx.value(x).is_some() && ctx.value(x) == ctx.value(result),
                _ => false,
            },
            (None, _) => false,
        };
        if self.plain && !settled {
            if masked {
                self.unwatch(ctx);
            } else {
                let seen = self.seen(ctx.domains());
                ctx.set_state_int(SEEN, seen);
            }
        }
        Ok(if settled {
            PropStatus::Entailed
        } else if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

fn non_empty(len: usize) -> Result<(), CspError> {
    if len == 0 {
        return Err(CspError::InvalidArgument {
            context: "element".into(),
            message: "the array is empty".into(),
        });
    }
    Ok(())
}

/// Element with an index offset.
impl Model {
    /// `result = array[index - offset]`: the array's first entry has index
    /// `offset` (1 for MiniZinc's arrays). See [`OffsetElement`].
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let i = m.int_var(1..=4)?;
    /// let r = m.int_var(0..=9)?;
    /// m.element_offset(i, &[10, 4, 7, 4], 1, r)?;
    /// let pairs: Vec<_> = Solver::new(&m, Config::textbook())?.solutions().map(|s| (s[i], s[r])).collect();
    /// assert_eq!(pairs, vec![(2, 4), (3, 7), (4, 4)]);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn element_offset(
        &mut self,
        index: VarId,
        array: &[Value],
        offset: Value,
        result: VarId,
    ) -> Result<ConstraintId, CspError> {
        if offset == 0 {
            return self.element(index, array, result);
        }
        non_empty(array.len())?;
        self.post(OffsetElement::new(index, array, offset, result))
    }

    /// `result = vars[index - offset]` over variables. See [`OffsetElement`].
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let xs = m.int_var_array("x", 3, 0..=1)?;
    /// let i = m.int_var(1..=3)?;
    /// let one = m.constant(1)?;
    /// m.element_var_offset(i, &xs, 1, one)?;
    /// // i picks a 1 among the x: 4 + 4 + 4 = 12 (x, i) pairs.
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 12);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn element_var_offset(
        &mut self,
        index: VarId,
        vars: &[VarId],
        offset: Value,
        result: VarId,
    ) -> Result<ConstraintId, CspError> {
        if offset == 0 {
            return self.element_var(index, vars, result);
        }
        non_empty(vars.len())?;
        self.post(OffsetElement::with_vars(index, vars, offset, result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Pruning, Solver};

    #[test]
    fn indices_outside_the_shifted_range_have_no_entry() {
        let mut m = Model::new();
        let i = m.int_var(-5..=5).unwrap();
        let r = m.int_var(0..=9).unwrap();
        m.element_offset(i, &[3, 4], -2, r).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        assert_eq!(s.domains().values(i).collect::<Vec<_>>(), vec![-2, -1]);
        assert_eq!(s.domains().values(r).collect::<Vec<_>>(), vec![3, 4]);
    }

    #[test]
    fn an_empty_array_is_refused() {
        let mut m = Model::new();
        let i = m.int_var(0..=1).unwrap();
        assert_eq!(
            m.element_var_offset(i, &[], 1, i).unwrap_err().to_string(),
            "element: the array is empty"
        );
    }
}
