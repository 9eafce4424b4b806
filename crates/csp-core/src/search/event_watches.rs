//! Watches grouped by event, at the propagators level: for each variable, the
//! watches that a change of exactly "the lower bound rose", "the upper bound
//! fell" or "a value left from inside" wakes, in the order of the variable's
//! full watch list. A sum `x - y <= c` watches `x`'s minimum and `y`'s
//! maximum only, so a change of one bound visits the watches that can wake,
//! not every watch on the variable (Gecode keeps one subscription list per
//! propagation condition for the same reason). Any other change (a fixing,
//! both bounds at once) walks the full list. The order within each list is
//! the full list's, so the queue receives the same constraints in the same
//! order as a walk of the full list that skips the others.

use super::Watch;
use crate::context::{EV_BOUNDS, EV_DOMAIN, EV_MAX, EV_MIN};

/// The event sets with a list of their own: one bound moved (and nothing
/// else), or values left from inside only.
const CLASSES: [u8; 3] = [
    EV_DOMAIN | EV_BOUNDS | EV_MIN,
    EV_DOMAIN | EV_BOUNDS | EV_MAX,
    EV_DOMAIN,
];

/// Per variable, the watches each class of [`CLASSES`] wakes, stored only
/// where that is fewer than all of them.
#[derive(Debug, Default)]
pub(super) struct EventWatches {
    /// The lists, one after another.
    lists: Vec<Watch>,
    /// Per variable and class: where its list starts in `lists` and its
    /// length, or `u32::MAX` as the start where the full list is needed.
    at: Vec<[(u32, u32); 3]>,
}

impl EventWatches {
    /// The lists for `watches` (one full list per variable).
    pub(super) fn new(watches: &[Vec<Watch>]) -> Self {
        let mut lists = Vec::new();
        let mut at = Vec::with_capacity(watches.len());
        for full in watches {
            let mut slots = [(u32::MAX, 0u32); 3];
            for (slot, &class) in slots.iter_mut().zip(&CLASSES) {
                let woken = full.iter().filter(|w| w.events & class != 0).count();
                if woken < full.len() {
                    let start = lists.len();
                    lists.extend(full.iter().filter(|w| w.events & class != 0).copied());
                    *slot = (start as u32, woken as u32);
                }
            }
            at.push(slots);
        }
        EventWatches { lists, at }
    }

    /// The watches a change of `events` on variable `v` wakes, if `events`
    /// is one of the classes and that list is shorter than `full`.
    #[inline]
    pub(super) fn get(&self, v: usize, events: u8) -> Option<&[Watch]> {
        let k = CLASSES.iter().position(|&c| c == events)?;
        let (start, len) = *self.at.get(v)?.get(k)?;
        if start == u32::MAX {
            return None;
        }
        let start = start as usize;
        Some(&self.lists[start..start + len as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::{EV_ALL, EV_FIXED};

    fn watch(cid: u32, events: u8) -> Watch {
        Watch {
            cid,
            pos: 0,
            var: 0,
            events,
            masked: false,
            report: false,
        }
    }

    #[test]
    fn each_class_keeps_the_watches_it_wakes_in_order() {
        let full = vec![
            watch(0, EV_MIN),
            watch(1, EV_MAX),
            watch(2, EV_BOUNDS),
            watch(3, EV_FIXED),
            watch(4, EV_DOMAIN | EV_BOUNDS | EV_FIXED),
            watch(5, EV_MIN),
        ];
        let ew = EventWatches::new(&[full.clone(), vec![watch(9, EV_ALL)]]);
        let cids = |l: &[Watch]| l.iter().map(|w| w.cid).collect::<Vec<_>>();
        // The walk of the full list that skips the others, for every
        // event set a change can raise.
        for events in 1..=EV_ALL {
            let want: Vec<u32> = full
                .iter()
                .filter(|w| w.events & events != 0)
                .map(|w| w.cid)
                .collect();
            match ew.get(0, events) {
                Some(list) => assert_eq!(cids(list), want, "events {events}"),
                None => assert!(!CLASSES.contains(&events) || want.len() == full.len()),
            }
        }
        assert_eq!(cids(ew.get(0, CLASSES[0]).unwrap()), vec![0, 2, 4, 5]);
        assert_eq!(cids(ew.get(0, CLASSES[1]).unwrap()), vec![1, 2, 4]);
        assert_eq!(cids(ew.get(0, EV_DOMAIN).unwrap()), vec![4]);
        // A fixing walks the full list; a variable whose watches all wake
        // on everything has no list of its own.
        assert!(ew.get(0, EV_ALL).is_none());
        assert!(ew.get(1, CLASSES[0]).is_none());
    }
}
