//! Work the engine does itself with a constraint's trailed state:
//! forward-checking steps given as data and wake sets.

use super::{TrailedState, clear_position};
use crate::context::{Changes, count_bits};
use crate::domains::SHIFT_SAFE;
use crate::{Domains, Value, VarId};

/// A constraint's forward-checking step as data (see
/// [`Constraint::forward_step`](crate::Constraint::forward_step)): shifted
/// list `list` and bit set `set` of its [`StateLayout`](crate::StateLayout).
///
/// This is all-different's fast path, not a general extension point: the one
/// step the engine knows how to run is shifted-value elimination ("the
/// decided variable's value plus its offset leaves every other variable still
/// waiting, at its own offset"). A constraint of yours whose forward-checking
/// step is exactly that, an all-different over shifted values under another
/// name, may declare it too (`crates/csp-core/tests/forward_step.rs` does);
/// any other step belongs in [`propagate`](crate::Constraint::propagate).
///
/// ```
/// use csp_core::ForwardStep;
/// let step = ForwardStep { list: 0, set: 0 };
/// assert_eq!(step, ForwardStep::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ForwardStep {
    /// The shifted list: the constraint's scope with its offsets.
    pub list: usize,
    /// The bit set of the positions still worth visiting.
    pub set: usize,
}

/// A checked [`ForwardStep`], placed: its list's entries and offsets at
/// `start..start + len` of `TrailedState::step_entries` and `step_offsets`
/// (copied there, so that a step reaches them in one load fewer), and the
/// set's cells.
#[derive(Clone, Copy, Debug)]
pub(super) struct StepRef {
    start: u32,
    /// The scope's length, which is also the bit set's.
    len: u32,
    first: u32,
}

impl TrailedState {
    /// Takes constraint `cid`'s forward-checking step, after checking that it
    /// fits the constraint's layout and `scope`; the reason if not.
    pub(crate) fn add_step(
        &mut self,
        cid: usize,
        step: ForwardStep,
        scope: &[VarId],
    ) -> Result<(), String> {
        let slot = self.slots[cid];
        if step.list >= slot.n_lists as usize || step.set >= slot.n_sets as usize {
            return Err(format!(
                "its forward step names shifted list {} and bit set {}, which its state layout lacks",
                step.list, step.set
            ));
        }
        let list = slot.lists as usize + step.list;
        let b = self.bitsets[slot.sets as usize + step.set];
        let mut distinct = scope.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        if self.lists[list].vars != scope
            || self.lists[list].offsets.len() != scope.len()
            || b.len as usize != scope.len()
            || distinct.len() != scope.len()
        {
            return Err(
                "its forward step's shifted list and bit set must be its scope, without repeats"
                    .into(),
            );
        }
        // Without exact arithmetic for the list, the step is the constraint's
        // own propagation.
        if let Some(entries) = &self.lists[list].entries {
            self.step_of[cid] = self.steps.len() as u32;
            self.steps.push(StepRef {
                start: self.step_entries.len() as u32,
                len: entries.len() as u32,
                first: b.first,
            });
            self.step_entries.extend_from_slice(entries);
            self.step_offsets
                .extend_from_slice(&self.lists[list].offsets);
        }
        Ok(())
    }

    /// Takes bit set `set` of constraint `cid` as its wake set, after checking
    /// that the layout has it with one position per scope position (`len`).
    pub(crate) fn add_wake_set(
        &mut self,
        cid: usize,
        set: usize,
        len: usize,
    ) -> Result<(), String> {
        let slot = self.slots[cid];
        let fits = set < slot.n_sets as usize
            && self.bitsets[slot.sets as usize + set].len as usize == len;
        if !fits {
            return Err(format!(
                "its wake set {set} must be a bit set of its state layout with one position per scope variable"
            ));
        }
        self.wake[cid] = self.bitsets[slot.sets as usize + set].first;
        Ok(())
    }

    /// Whether a change of scope position `pos` wakes constraint `cid`, which
    /// has a wake set.
    #[inline(always)]
    pub(crate) fn wakes(&self, cid: usize, pos: usize) -> bool {
        self.cells[self.wake[cid] as usize + pos / 64] >> (pos % 64) & 1 == 1
    }

    /// Runs constraint `cid`'s forward-checking step for scope position `pos`
    /// just fixed to `value`, exactly as
    /// [`PropagationContext::forward_check_shifted`](crate::PropagationContext::forward_check_shifted)
    /// would, counting revisions and removals in `changes`: `Ok` or the
    /// variable emptied. `None` if the constraint has no step or must be
    /// called instead (no exact arithmetic for this value).
    #[inline(always)]
    pub(crate) fn run_step(
        &mut self,
        cid: usize,
        pos: usize,
        value: Value,
        domains: &mut Domains,
        changes: &mut Changes,
    ) -> Option<Result<(), VarId>> {
        let step = *self.steps.get(self.step_of[cid] as usize)?;
        let start = step.start as usize;
        let shifted = value.checked_add(self.step_offsets[start + pos])?;
        if !(-SHIFT_SAFE..SHIFT_SAFE).contains(&shifted) {
            return None;
        }
        let first = step.first as usize;
        clear_position(&mut self.cells, &mut self.trail, first, pos);
        let positions = &self.cells[first..first + step.len.div_ceil(64) as usize];
        Some(
            match domains.remove_shifted_at(
                &self.step_entries[start..start + step.len as usize],
                positions,
                shifted,
            ) {
                Ok((removed, visited)) => {
                    changes.revisions += u64::from(visited);
                    changes.pruned += u64::from(removed);
                    Ok(())
                }
                Err((var, removed)) => {
                    changes.revisions += count_bits(positions);
                    changes.pruned += u64::from(removed);
                    Err(var)
                }
            },
        )
    }
}
