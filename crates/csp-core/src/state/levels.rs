//! Levels of the trailed state: opening and undoing them, snapshots for
//! recomputation, and dropping the undo records of old levels.

use super::{LevelMark, TrailedState};

/// The trailed state at one moment (for recomputation).
#[derive(Clone, Debug)]
pub(crate) struct StateSnapshot {
    cells: Vec<u64>,
    entailed: Vec<bool>,
}

impl TrailedState {
    /// A copy of the current cells and entailment flags.
    pub(crate) fn snapshot(&self) -> StateSnapshot {
        StateSnapshot {
            cells: self.cells.clone(),
            entailed: self.entailed.clone(),
        }
    }

    /// Goes back to `snap` with one open level that cannot be popped.
    pub(crate) fn restore(&mut self, snap: &StateSnapshot) {
        self.cells.copy_from_slice(&snap.cells);
        self.entailed.copy_from_slice(&snap.entailed);
        self.entailment_changed.note_all();
        for w in &mut self.woken {
            w.positions.clear();
            w.all = true;
        }
        self.trail.clear();
        self.entailed_trail.clear();
        self.marks.clear();
        self.marks.push(LevelMark {
            trail_len: 0,
            entailed_len: 0,
        });
        self.forgotten = 1;
    }

    /// Bytes held by the undo records.
    pub(crate) fn trail_bytes(&self) -> usize {
        self.trail.len() * std::mem::size_of::<(u32, u64)>() + self.entailed_trail.len() * 4
    }

    /// Drops the undo records of every level but the newest `keep`.
    pub(crate) fn forget_levels(&mut self, keep: usize) {
        let first_kept = self.marks.len().saturating_sub(keep);
        if first_kept <= self.forgotten {
            return;
        }
        let (cut, cut_e) = self
            .marks
            .get(first_kept)
            .map_or((self.trail.len(), self.entailed_trail.len()), |m| {
                (m.trail_len, m.entailed_len)
            });
        self.trail.drain(..cut);
        self.entailed_trail.drain(..cut_e);
        for m in &mut self.marks[first_kept..] {
            m.trail_len -= cut;
            m.entailed_len -= cut_e;
        }
        for m in &mut self.marks[..first_kept] {
            *m = LevelMark {
                trail_len: 0,
                entailed_len: 0,
            };
        }
        self.forgotten = first_kept;
    }

    /// Whether the newest level still has its undo records.
    pub(crate) fn can_pop(&self) -> bool {
        self.marks.len() > self.forgotten
    }

    /// Opens a new level: changes from now on are undone by the matching `pop_level`.
    #[inline]
    pub(crate) fn push_level(&mut self) {
        self.marks.push(LevelMark {
            trail_len: self.trail.len(),
            entailed_len: self.entailed_trail.len(),
        });
    }

    /// Clears the entailments recorded past `len` on the entailment trail.
    #[inline(never)]
    fn pop_entailed(&mut self, len: usize) {
        for &c in self.entailed_trail[len..].iter().rev() {
            self.entailed[c as usize] = false;
            self.entailment_changed.note(c as usize);
        }
        self.entailed_trail.truncate(len);
    }

    /// Undoes every change since the matching `push_level`.
    #[inline]
    pub(crate) fn pop_level(&mut self) {
        let Some(mark) = self.marks.pop() else {
            return;
        };
        // Newest first: a cell saved twice gets its oldest contents back.
        let (cells, start) = (&mut self.cells, mark.trail_len.min(self.trail.len()));
        for &(cell, old) in self.trail[start..].iter().rev() {
            cells[cell as usize] = old;
        }
        self.trail.truncate(mark.trail_len);
        if self.entailed_trail.len() > mark.entailed_len {
            self.pop_entailed(mark.entailed_len);
        }
    }
}
