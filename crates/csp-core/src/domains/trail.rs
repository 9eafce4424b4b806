//! The undo trail: levels, saved words, and the snapshots and forgetting that
//! bound its memory (see [`Config::with_trail_budget`](crate::Config::with_trail_budget)).

use super::interval::{NO_WORD, undo_shape};
use super::wide::{HOLE_WORD, undo_hole};
use super::{Domains, Shape};
use crate::Value;

/// One undo record: a word's previous contents and its variable's previous
/// size and bounds (`word` is `NO_WORD` for an interval's shape alone).
#[derive(Clone, Copy, Debug)]
pub(super) struct TrailEntry {
    pub(super) word: u32,
    pub(super) var: u32,
    pub(super) old_bits: usize,
    pub(super) old: Shape,
}

/// A mark on the trail: where a search level starts and the stamp it replaced.
#[derive(Clone, Copy, Debug)]
pub(super) struct LevelMark {
    trail_len: usize,
    previous_stamp: u64,
}

/// The domains at one moment (the search recomputes from it when it has
/// dropped undo records: see [`Config::with_trail_budget`](crate::Config::with_trail_budget)).
#[derive(Clone, Debug)]
pub(crate) struct DomainSnapshot {
    bits: Vec<usize>,
    shapes: Vec<Shape>,
    holes: Vec<Vec<(Value, Value)>>,
}

impl Domains {
    /// Saves word `i` (of variable index `v`, holding `old`) on the trail, the
    /// first time it changes at this level.
    #[inline(always)]
    pub(super) fn save_word(&mut self, i: usize, v: usize, old: usize) {
        self.changed.note(v);
        if self.saved_at[i] != self.stamp {
            self.saved_at[i] = self.stamp;
            self.trail.push(TrailEntry {
                word: i as u32,
                var: v as u32,
                old_bits: old,
                old: self.vars[v].now,
            });
        }
    }

    /// Opens a new level: changes from now on are undone by the matching `pop_level`.
    #[inline]
    pub(crate) fn push_level(&mut self) {
        self.marks.push(LevelMark {
            trail_len: self.trail.len(),
            previous_stamp: self.stamp,
        });
        self.stamp = self.next_stamp;
        self.next_stamp += 1;
    }

    /// Undoes every change since the matching `push_level`.
    #[inline(always)]
    pub(crate) fn pop_level(&mut self) {
        let Some(mark) = self.marks.pop() else {
            return;
        };
        if self.changed.is_on() {
            for e in &self.trail[mark.trail_len..] {
                self.changed.note(e.var as usize);
            }
        }
        let (bits, vars) = (&mut self.bits, &mut self.vars);
        for e in self.trail.drain(mark.trail_len..).rev() {
            let d = &mut vars[e.var as usize];
            if e.word < HOLE_WORD {
                bits[e.word as usize] = e.old_bits;
                d.now = e.old;
            } else if e.word == NO_WORD {
                undo_shape(bits, d, e.old);
            } else {
                undo_hole(&mut self.holes[d.first as usize], e.old_bits as Value);
                self.hole_count -= 1;
                d.now = e.old;
            }
        }
        self.stamp = mark.previous_stamp;
    }

    /// A copy of the current domains.
    pub(crate) fn snapshot(&self) -> DomainSnapshot {
        DomainSnapshot {
            bits: self.bits.clone(),
            shapes: self.vars.iter().map(|d| d.now).collect(),
            holes: self.holes.clone(),
        }
    }

    /// Goes back to `snap` with one open level and an empty trail; that level
    /// cannot be popped.
    pub(crate) fn restore(&mut self, snap: &DomainSnapshot) {
        let len = snap.bits.len();
        self.bits[..len].copy_from_slice(&snap.bits);
        for (d, &shape) in self.vars.iter_mut().zip(&snap.shapes) {
            d.now = shape;
        }
        self.refill_since(len);
        self.holes.clone_from(&snap.holes);
        self.hole_count = self.holes.iter().map(Vec::len).sum();
        self.changed.note_all();
        self.trail.clear();
        self.marks.clear();
        self.marks.push(LevelMark {
            trail_len: 0,
            previous_stamp: 0,
        });
        self.stamp = self.next_stamp;
        self.next_stamp += 1;
        self.forgotten = 1;
    }

    /// Bytes held by the undo records.
    pub(crate) fn trail_bytes(&self) -> usize {
        self.trail.len() * std::mem::size_of::<TrailEntry>()
    }

    /// How many of the newest levels hold at most `bytes` of undo records
    /// (at least one).
    pub(crate) fn levels_within(&self, bytes: usize) -> usize {
        let entry = std::mem::size_of::<TrailEntry>();
        let end = self.trail.len();
        let mut keep = 1;
        while keep < self.marks.len() - self.forgotten.min(self.marks.len())
            && (end - self.marks[self.marks.len() - 1 - keep].trail_len) * entry <= bytes
        {
            keep += 1;
        }
        keep
    }

    /// Drops the undo records of every level but the newest `keep`: popping
    /// one of those older levels is then impossible (`can_pop` says so).
    pub(crate) fn forget_levels(&mut self, keep: usize) {
        let first_kept = self.marks.len().saturating_sub(keep);
        if first_kept <= self.forgotten {
            return;
        }
        let cut = self
            .marks
            .get(first_kept)
            .map_or(self.trail.len(), |m| m.trail_len);
        self.trail.drain(..cut);
        for m in &mut self.marks[first_kept..] {
            m.trail_len -= cut;
        }
        for m in &mut self.marks[..first_kept] {
            m.trail_len = 0;
        }
        self.forgotten = first_kept;
    }

    /// Whether the newest level still has its undo records.
    pub(crate) fn can_pop(&self) -> bool {
        self.marks.len() > self.forgotten
    }
}
