//! `Changes`: what the engine collects while a constraint narrows domains
//! (the values removed, the variables changed and their events, the
//! limits polled on the way).

use std::time::Instant;

use crate::{CancelFlag, StopReason, Value, VarId};

/// The events a change raises (the bits of [`Events`](crate::Events)).
pub(crate) const EV_FIXED: u8 = 1;
pub(crate) const EV_BOUNDS: u8 = 2;
pub(crate) const EV_DOMAIN: u8 = 4;
pub(crate) const EV_MIN: u8 = 8;
pub(crate) const EV_MAX: u8 = 16;
/// Every event: what a decision raises on its variable.
pub(crate) const EV_ALL: u8 = EV_FIXED | EV_BOUNDS | EV_DOMAIN | EV_MIN | EV_MAX;

/// How many polls pass between two readings of the clock.
const POLL_INTERVAL: u32 = 64;

/// What the engine collects while a constraint narrows domains.
#[derive(Debug, Default)]
pub(crate) struct Changes {
    /// Values removed in total.
    pub pruned: u64,
    /// Arc revisions reported by constraints.
    pub revisions: u64,
    /// Whether to list changed variables (for the propagation queue).
    pub track_changed: bool,
    /// Variables whose domain changed since the list was last drained.
    pub changed: Vec<VarId>,
    /// Per variable: already in `changed`.
    pub in_changed: Vec<bool>,
    /// Per variable: the events raised since it entered `changed` (bits of
    /// [`Events`](crate::Events)).
    pub events: Vec<u8>,
    /// Whether to list every removed value (for observers).
    pub record: bool,
    /// The removed values, when recording.
    pub removed: Vec<(VarId, Value)>,
    /// Scratch for saving a domain while probing.
    pub scratch: Vec<usize>,
    /// When the running search must stop (time limit), if ever.
    pub deadline: Option<Instant>,
    /// The search's cancel flag.
    pub cancel: Option<CancelFlag>,
    /// Why propagation was cut short, once a poll found a limit reached.
    pub interrupted: Option<StopReason>,
    /// Polls since the clock was last read.
    polls: u32,
}

impl Changes {
    pub(crate) fn new(vars: usize) -> Self {
        Changes {
            in_changed: vec![false; vars],
            events: vec![0; vars],
            ..Changes::default()
        }
    }

    /// Whether the search must stop: the cancel flag is set or the deadline
    /// passed. Reads the clock once every [`POLL_INTERVAL`] calls, so that a
    /// propagation loop can ask at every step.
    #[inline]
    pub(crate) fn poll(&mut self) -> bool {
        if self.interrupted.is_some() {
            return true;
        }
        self.polls += 1;
        if self.polls < POLL_INTERVAL {
            return false;
        }
        self.polls = 0;
        self.check_now()
    }

    /// [`poll`](Changes::poll) without waiting for the interval.
    pub(crate) fn check_now(&mut self) -> bool {
        if self.cancel.as_ref().is_some_and(CancelFlag::is_cancelled) {
            self.interrupted = Some(StopReason::Cancelled);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.interrupted = Some(StopReason::TimeLimit);
        }
        self.interrupted.is_some()
    }

    #[inline]
    pub(super) fn note(&mut self, var: VarId, removed: u64, events: u8) {
        self.pruned = self.pruned.saturating_add(removed);
        if self.track_changed {
            let v = var.index();
            self.events[v] |= events;
            if !self.in_changed[v] {
                self.in_changed[v] = true;
                self.changed.push(var);
            }
        }
    }
}
