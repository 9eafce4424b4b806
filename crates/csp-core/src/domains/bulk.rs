//! Bulk removals: forward checking's step of taking one shifted value out of
//! many variables, in one tight loop over the store's words.

use super::{Domains, WORD_BITS, Wipeout};
use crate::{Value, VarId};

/// One variable of a prepared shifted list (see
/// [`StateLayout::shifted`](crate::StateLayout::shifted)): where its bits live,
/// and `offset + base`, so that the shifted value `s` is bit `s - bias`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShiftedEntry {
    bias: Value,
    first: u32,
    span: u32,
    var: u32,
}

/// Magnitude below which shifted values and biases keep `s - bias` exact.
pub(crate) const SHIFT_SAFE: Value = 1 << 61;

impl Domains {
    /// Removes `value - offsets[j]` from `vars[j]` for every `j` but `skip` (the
    /// forward-checking step of a value-based constraint, in one tight loop). Returns the
    /// number of values removed, or the variable emptied with the number removed
    /// before. The caller guarantees that `value - offsets[j]` cannot overflow.
    #[inline]
    pub(crate) fn remove_shifted(
        &mut self,
        vars: &[VarId],
        offsets: &[Value],
        value: Value,
        skip: usize,
    ) -> Result<u32, (VarId, u32)> {
        let mut removed = 0;
        let skip = skip.min(vars.len());
        self.strip(&vars[..skip], &offsets[..skip], value, &mut removed)?;
        let rest = (skip + 1).min(vars.len());
        self.strip(&vars[rest..], &offsets[rest..], value, &mut removed)?;
        Ok(removed)
    }

    #[inline(always)]
    fn strip(
        &mut self,
        vars: &[VarId],
        offsets: &[Value],
        value: Value,
        removed: &mut u32,
    ) -> Result<(), (VarId, u32)> {
        for (&var, &o) in vars.iter().zip(offsets) {
            self.strip_one(var, value.wrapping_sub(o), removed)?;
        }
        Ok(())
    }

    /// Prepares `vars[j]` shifted by `offsets[j]` for [`Domains::remove_shifted_at`];
    /// `None` if some `offset + base` is too large for exact arithmetic.
    /// Intervals among them get their bits now (the list will make holes).
    pub(crate) fn shifted_entries(
        &mut self,
        vars: &[VarId],
        offsets: &[Value],
    ) -> Option<Vec<ShiftedEntry>> {
        // A view `x + c` is its base shifted by `c` more; other views have
        // no place in the list.
        let mut resolved = Vec::with_capacity(vars.len());
        for (&var, &offset) in vars.iter().zip(offsets) {
            resolved.push(match self.view_of(var) {
                None => (var, offset),
                Some(w) if w.scale == 1 => (w.base(), offset.checked_add(w.offset)?),
                Some(_) => return None,
            });
        }
        for &(var, _) in &resolved {
            if self.vars[var.index()].is_interval() && !self.give_bits(var.index()) {
                return None;
            }
        }
        resolved
            .iter()
            .map(|&(var, offset)| {
                let lay = self.vars[var.index()];
                let bias = offset.checked_add(lay.base)?;
                (-2 * SHIFT_SAFE..2 * SHIFT_SAFE)
                    .contains(&bias)
                    .then_some(ShiftedEntry {
                        bias,
                        first: lay.first,
                        // At most `MAX_DOMAIN_WIDTH` rounded up to whole words.
                        span: u32::try_from(lay.span()).unwrap_or(u32::MAX),
                        var: var.index() as u32,
                    })
            })
            .collect()
    }

    /// Removes `shifted - offset_j` from variable `j` of a prepared list for
    /// every position `j` whose bit is set in `positions` (64 to a word), in
    /// increasing order: forward checking's bulk step for a constraint that
    /// keeps, in its trailed state, the positions still worth visiting. Returns
    /// the number of values removed and of positions visited, or the variable
    /// emptied with the number removed before. `|shifted|` must be below
    /// [`SHIFT_SAFE`].
    #[inline(always)]
    pub(crate) fn remove_shifted_at(
        &mut self,
        entries: &[ShiftedEntry],
        positions: &[u64],
        shifted: Value,
    ) -> Result<(u32, u32), (VarId, u32)> {
        let mut removed = 0;
        let mut visited = 0;
        for (chunk, &word) in positions.iter().enumerate() {
            let mut live = word;
            while live != 0 {
                let k = chunk * 64 + live.trailing_zeros() as usize;
                live &= live - 1;
                visited += 1;
                let e = entries[k];
                let offset = shifted.wrapping_sub(e.bias) as u64;
                if offset >= u64::from(e.span) {
                    continue;
                }
                let i = e.first as usize + (offset / WORD_BITS as u64) as usize;
                let bit = 1usize << (offset % WORD_BITS as u64);
                let old = self.bits[i];
                if old & bit == 0 {
                    continue;
                }
                removed += 1;
                let v = VarId::new(e.var as usize);
                if let Err(Wipeout) = self.take_bit(v, i, old, bit, offset) {
                    return Err((v, removed));
                }
            }
        }
        Ok((removed, visited))
    }

    /// Removes `value` from `var` if it is there, counting it in `removed`.
    #[inline(always)]
    fn strip_one(
        &mut self,
        var: VarId,
        value: Value,
        removed: &mut u32,
    ) -> Result<(), (VarId, u32)> {
        match self.remove(var, value) {
            Ok(gone) => {
                *removed += u32::from(gone);
                Ok(())
            }
            Err(Wipeout) => Err((var, *removed + 1)),
        }
    }
}
