//! The scope positions a constraint's watches saw change since its last call
//! ([`StateLayout::woken`](crate::StateLayout::woken)): kept by the
//! scheduler, handed out by [`PropagationContext::take_woken`](crate::PropagationContext::take_woken).

use smallvec::SmallVec;

use super::TrailedState;

/// The most changed positions kept for one constraint between two calls; past
/// that, the constraint is told to look at its whole scope.
pub const WOKEN_CAP: usize = 16;

/// The scope positions of one constraint changed since its last call, not
/// trailed: an entry left by a change that backtracking undid is read
/// against the current domains, which say that nothing changed there.
#[derive(Clone, Debug)]
pub(super) struct WokenList {
    pub(super) positions: SmallVec<[u32; WOKEN_CAP]>,
    /// More than [`WOKEN_CAP`] positions, or a start (the first call, a
    /// restored snapshot): every position may have changed.
    pub(super) all: bool,
}

/// The scope positions changed since a constraint's last call, in the order
/// of the changes, possibly repeated (see
/// [`PropagationContext::take_woken`](crate::PropagationContext::take_woken)).
///
/// ```
/// use csp_core::WokenPositions;
/// let none = WokenPositions::default();
/// assert!(none.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WokenPositions(SmallVec<[u32; WOKEN_CAP]>);

impl std::ops::Deref for WokenPositions {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        &self.0
    }
}

impl TrailedState {
    /// Constraint `cid`'s list of changed positions, if its layout asked
    /// for one.
    #[inline(always)]
    fn woken_list(&mut self, cid: usize) -> Option<&mut WokenList> {
        let &k = self.woken_slot.get(cid)?;
        self.woken.get_mut(k as usize)
    }

    /// Notes that position `pos` of constraint `cid`'s scope changed (for a
    /// constraint whose layout asked for it).
    #[inline]
    pub(crate) fn note_woken(&mut self, cid: usize, pos: u32) {
        let Some(w) = self.woken_list(cid) else {
            return;
        };
        if w.all {
            return;
        }
        if w.positions.len() == WOKEN_CAP {
            w.positions.clear();
            w.all = true;
        } else {
            w.positions.push(pos);
        }
    }

    /// The positions of constraint `cid`'s scope changed since the last
    /// take, or `None` when every position may have; either way the list
    /// starts again empty.
    #[inline]
    pub(crate) fn take_woken(&mut self, cid: usize) -> Option<WokenPositions> {
        let w = self.woken_list(cid)?;
        if std::mem::take(&mut w.all) {
            w.positions.clear();
            return None;
        }
        Some(WokenPositions(std::mem::take(&mut w.positions)))
    }
}
