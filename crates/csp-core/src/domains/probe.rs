//! Probing: a variable fixed for a moment without trailing (the generic
//! forward checking asks `promising` about each value this way), and put back.

use super::{Domains, Shape, WORD_BITS};
use crate::{Value, VarId};

impl Domains {
    /// Copies `var`'s words (to restore them later with `restore_words`).
    pub(crate) fn save_words(&self, var: VarId, out: &mut Vec<usize>) {
        out.clear();
        out.extend_from_slice(self.words(var));
    }

    /// The size and bounds of `var` (to restore them with `restore_words`).
    pub(crate) fn shape(&self, var: VarId) -> Shape {
        self.vars[var.index()].now
    }

    /// Writes back words saved by `save_words`, with the size and bounds saved
    /// by `shape`, without trailing.
    pub(crate) fn restore_words(&mut self, var: VarId, saved: &[usize], shape: Shape) {
        let d = &mut self.vars[var.index()];
        d.now = shape;
        if saved.is_empty() {
            // An interval (a wide one's `first` indexes its holes).
            return;
        }
        let first = d.first as usize;
        self.bits[first..first + saved.len()].copy_from_slice(saved);
    }

    /// Temporarily reduces `var` to `value` without trailing (for probing); the
    /// caller restores with `restore_words`.
    pub(crate) fn overwrite_fixed(&mut self, var: VarId, value: Value) {
        let d = &mut self.vars[var.index()];
        let offset = value.wrapping_sub(d.base) as u64 as usize;
        let first = d.first as usize;
        d.now = Shape {
            size: 1,
            lo: offset as u64,
            hi: offset as u64,
        };
        for k in 0..d.words as usize {
            self.bits[first + k] = if k == offset / WORD_BITS {
                1usize << (offset % WORD_BITS)
            } else {
                0
            };
        }
    }
}
