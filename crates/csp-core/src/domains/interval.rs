//! Intervals without bits: a variable declared as a wide range keeps only its
//! bounds until a value strictly inside them has to leave; then it gets words
//! for its whole declared span, set exactly for its current interval, and
//! keeps them (the rest of the store's code treats it as any other variable
//! from then on).
//!
//! While a variable is an interval its changes are undone by *shape records*
//! (its size and bounds, no word). If it gets its bits later, at a deeper
//! level, popping such a record widens the interval again: the values between
//! the old and the new bounds were all in the domain (it was an interval), so
//! their bits are set back.

use super::{Domains, Shape, TrailEntry, Var, WORD_BITS, Wipeout, word_mask};
use crate::Value;

/// The `word` of a shape record (nothing but the variable's shape to restore).
pub(super) const NO_WORD: u32 = u32::MAX;

impl Domains {
    /// Saves variable `v`'s shape on the trail (an interval's changes), the
    /// first time it changes at this level (a stamp per variable, as for words).
    #[inline]
    pub(super) fn save_shape(&mut self, v: usize) {
        self.changed.note(v);
        if self.shape_saved_at[v] != self.stamp {
            self.shape_saved_at[v] = self.stamp;
            self.trail.push(TrailEntry {
                word: NO_WORD,
                var: v as u32,
                old_bits: 0,
                old: self.vars[v].now,
            });
        }
    }

    /// Sets interval `v` to `lo..=hi` (offsets), or empty if `lo > hi`;
    /// returns the number of values removed.
    fn set_interval(&mut self, v: usize, lo: i64, hi: i64) -> Result<u64, Wipeout> {
        self.save_shape(v);
        let before = self.vars[v].now.size;
        if lo > hi {
            self.vars[v].now.size = 0;
            return Err(Wipeout);
        }
        let size = (hi - lo + 1) as u64;
        self.vars[v].now = Shape {
            size,
            lo: lo as u64,
            hi: hi as u64,
        };
        Ok(before - size)
    }

    /// Keeps the values of interval `v` within `lo..=hi`.
    pub(super) fn interval_narrow(
        &mut self,
        v: usize,
        lo: Value,
        hi: Value,
    ) -> Result<u64, Wipeout> {
        let d = self.vars[v];
        if d.is_wide() {
            return self.wide_narrow(v, lo, hi);
        }
        let lo = i128::from(lo.max(d.lo())) - i128::from(d.base);
        let hi = i128::from(hi.min(d.hi())) - i128::from(d.base);
        // Both within the current bounds unless empty, so they fit.
        if lo > hi {
            return self.set_interval(v, 1, 0);
        }
        self.set_interval(v, lo as i64, hi as i64)
    }

    /// Reduces interval `v` to `value`.
    pub(super) fn interval_assign(&mut self, v: usize, value: Value) -> Result<u64, Wipeout> {
        self.interval_narrow(v, value, value)
    }

    /// Removes `value` (within the bounds) from interval `v`: a bound moves,
    /// or the variable gets its bits and loses one.
    pub(super) fn interval_remove(&mut self, v: usize, value: Value) -> Result<bool, Wipeout> {
        let d = self.vars[v];
        if d.is_wide() {
            if value == d.lo() && value == d.hi() {
                // The last value (possibly i64::MIN or MAX, with no
                // neighbour to narrow to).
                self.save_shape(v);
                self.vars[v].now.size = 0;
                return Err(Wipeout);
            } else if value == d.lo() {
                self.wide_narrow(v, value + 1, d.hi())?;
            } else if value == d.hi() {
                self.wide_narrow(v, d.lo(), value - 1)?;
            } else if self.in_hole(&d, value) {
                return Ok(false);
            } else {
                self.wide_add_hole(v, value, value);
            }
            return Ok(true);
        }
        let (lo, hi) = (d.now.lo as i64, d.now.hi as i64);
        if value == d.lo() {
            self.set_interval(v, lo + 1, hi)?;
        } else if value == d.hi() {
            self.set_interval(v, lo, hi - 1)?;
        } else {
            if !self.give_bits(v) {
                // Past the memory budget: refused; the search stops.
                return Err(Wipeout);
            }
            return self.remove(crate::VarId::new(v), value);
        }
        Ok(true)
    }

    /// Gives interval `v` its words: the whole declared span, set exactly
    /// for its current values. `false` (and nothing allocated) if that would
    /// pass the memory budget.
    #[inline(never)]
    pub(super) fn give_bits(&mut self, v: usize) -> bool {
        let d = self.vars[v];
        debug_assert!(d.is_interval());
        if d.is_wide() {
            // Never: a wide variable keeps its holes in a list.
            return false;
        }
        let words = (d.width as usize).div_ceil(WORD_BITS);
        let added = words * 2 * std::mem::size_of::<usize>();
        if self.bytes().saturating_add(added) > self.budget {
            self.over_budget = true;
            return false;
        }
        let first = self.bits.len();
        self.bits.resize(first + words, 0);
        self.saved_at.resize(first + words, 0);
        self.vars[v].first = first as u32;
        self.vars[v].words = words as u32;
        if d.now.size > 0 {
            self.set_bits(v, d.now.lo as u32, d.now.hi as u32);
        }
        true
    }

    /// Sets the bits of offsets `from..=to` of `v`, without trailing.
    fn set_bits(&mut self, v: usize, from: u32, to: u32) {
        set_bits(&mut self.bits, self.vars[v].first as usize, from, to);
    }

    /// After the words were copied back from a snapshot of `len` words: the
    /// variables that got their bits since are set exactly for their shape
    /// (an interval, at the time of the snapshot).
    pub(super) fn refill_since(&mut self, len: usize) {
        for v in 0..self.vars.len() {
            let d = self.vars[v];
            if !d.is_interval() && d.first as usize >= len {
                let first = d.first as usize;
                self.bits[first..first + d.words as usize].fill(0);
                if d.now.size > 0 {
                    self.set_bits(v, d.now.lo as u32, d.now.hi as u32);
                }
            }
        }
    }
}

/// Sets the bits of offsets `from..=to` of the variable whose words start
/// at `first`, without trailing.
fn set_bits(bits: &mut [usize], first: usize, from: u32, to: u32) {
    let (from, to) = (from as usize, to as usize);
    for k in from / WORD_BITS..=to / WORD_BITS {
        bits[first + k] |= word_mask(k, from, to);
    }
}

/// Undoes a shape record of variable `d`: if it got its bits since, the
/// values between the record's bounds and the current ones come back.
#[inline(never)]
pub(super) fn undo_shape(bits: &mut [usize], d: &mut Var, old: Shape) {
    let now = d.now;
    if !d.is_interval() && old.size > 0 && now.size > 0 {
        if old.lo < now.lo {
            set_bits(bits, d.first as usize, old.lo as u32, now.lo as u32 - 1);
        }
        if now.hi < old.hi {
            set_bits(bits, d.first as usize, now.hi as u32 + 1, old.hi as u32);
        }
    }
    d.now = old;
}

#[cfg(test)]
mod tests {
    use super::super::Domains;
    use crate::VarId;

    fn interval(lo: i64, hi: i64) -> Domains {
        Domains::with_lazy_bits_above(std::iter::once((lo, hi, None)), 0)
    }

    fn values(d: &Domains) -> Vec<i64> {
        d.values(VarId::new(0)).collect()
    }

    #[test]
    fn bounds_changes_keep_an_interval_without_bits() {
        let mut d = interval(-5, 1000);
        let x = VarId::new(0);
        d.push_level();
        assert_eq!(d.remove_below(x, 10), Ok(15));
        assert_eq!(d.remove_above(x, 20), Ok(980));
        assert_eq!(d.remove(x, 10), Ok(true));
        assert_eq!(d.remove(x, 20), Ok(true));
        assert!(d.vars[0].is_interval());
        assert_eq!((d.min(x), d.max(x), d.len(x)), (11, 19, 9));
        assert_eq!(values(&d), (11..=19).collect::<Vec<_>>());
        assert_eq!(d.next_value(x, 14), Some(15));
        assert_eq!(d.prev_value(x, 14), Some(13));
        assert_eq!(d.prev_value(x, 100), Some(19));
        assert_eq!(d.select(x, 3), Some(14));
        assert!(d.contains(x, 11) && !d.contains(x, 10) && !d.contains(x, 20));
        d.pop_level();
        assert_eq!((d.min(x), d.max(x), d.len(x)), (-5, 1000, 1006));
        d.push_level();
        assert_eq!(d.assign(x, 2000), Err(super::Wipeout));
        d.pop_level();
        assert_eq!(d.assign(x, 7), Ok(1005));
        assert_eq!(values(&d), [7]);
    }

    #[test]
    fn an_interval_is_saved_once_per_level() {
        let mut d = interval(0, 10_000);
        let x = VarId::new(0);
        d.push_level();
        for b in 1..=100 {
            d.remove_below(x, b).unwrap();
        }
        assert_eq!(d.trail.len(), 1);
        d.push_level();
        d.remove_above(x, 5000).unwrap();
        d.remove_above(x, 4000).unwrap();
        assert_eq!(d.trail.len(), 2);
        d.pop_level();
        assert_eq!((d.min(x), d.max(x)), (100, 10_000));
        d.pop_level();
        assert_eq!((d.min(x), d.max(x), d.len(x)), (0, 10_000, 10_001));
    }

    #[test]
    fn a_hole_gives_bits_and_backtracking_widens_them_again() {
        let mut d = interval(0, 300);
        let x = VarId::new(0);
        // Level 1: bounds only (shape records). Level 2: a hole, so bits,
        // set for 50..=250 alone.
        d.push_level();
        d.remove_below(x, 50).unwrap();
        d.remove_above(x, 250).unwrap();
        d.push_level();
        assert_eq!(d.remove(x, 100), Ok(true));
        assert!(!d.vars[0].is_interval());
        assert_eq!((d.min(x), d.max(x), d.len(x)), (50, 250, 200));
        assert!(!d.contains(x, 100) && d.contains(x, 101));
        d.pop_level();
        assert_eq!(values(&d), (50..=250).collect::<Vec<_>>());
        // Popping the shape records sets the bits outside 50..=250 back.
        d.pop_level();
        assert_eq!(values(&d), (0..=300).collect::<Vec<_>>());
        assert_eq!((d.min(x), d.max(x), d.len(x)), (0, 300, 301));
        // From now on the variable has bits: bounds changes clear words.
        d.push_level();
        assert_eq!(d.remove_above(x, 63), Ok(237));
        assert_eq!(d.remove(x, 0), Ok(true));
        assert_eq!((d.min(x), d.max(x), d.len(x)), (1, 63, 63));
        d.pop_level();
        assert_eq!(values(&d), (0..=300).collect::<Vec<_>>());
    }

    #[test]
    fn restoring_a_snapshot_resets_bits_given_after_it() {
        let mut d = interval(0, 200);
        let x = VarId::new(0);
        d.push_level();
        d.remove_below(x, 10).unwrap();
        let snap = d.snapshot();
        d.push_level();
        d.remove_above(x, 150).unwrap();
        d.remove(x, 77).unwrap();
        d.restore(&snap);
        assert_eq!(values(&d), (10..=200).collect::<Vec<_>>());
        assert_eq!((d.min(x), d.max(x), d.len(x)), (10, 200, 191));
        assert_eq!(d.remove(x, 77), Ok(true));
        assert_eq!(d.len(x), 190);
    }
}
