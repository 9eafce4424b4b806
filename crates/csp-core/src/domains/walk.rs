//! Walking a domain in order: the next and previous values, the value of a
//! rank, and the value orders' lazy sweeps.

use super::{Domains, WORD_BITS};
use crate::branching::Sweep;
use crate::{Value, VarId};

impl Domains {
    /// The smallest value left that is greater than `value`, if any.
    #[inline]
    pub fn next_value(&self, var: VarId, value: Value) -> Option<Value> {
        let Some(&d) = self.vars.get(var.index()) else {
            return self.view_next_value(var, value);
        };
        if value >= d.hi() {
            return None;
        }
        if value < d.lo() {
            return Some(d.lo());
        }
        if d.is_interval() {
            if d.is_wide() {
                // `hi` is not in a hole: a value up to it is left.
                return self.skip_up(&d, value + 1);
            }
            return Some(value + 1);
        }
        // lo <= value < hi: the next value is in the domain; most often in
        // the same word.
        let start = (value - d.base) as usize + 1;
        let w =
            self.bits[d.first as usize + start / WORD_BITS] & (usize::MAX << (start % WORD_BITS));
        if w != 0 {
            return Some(
                d.base + (start - start % WORD_BITS + w.trailing_zeros() as usize) as Value,
            );
        }
        self.next_value_scan(var, value)
    }

    #[inline(never)]
    fn next_value_scan(&self, var: VarId, value: Value) -> Option<Value> {
        let lay = self.vars[var.index()];
        let width = lay.words as usize * WORD_BITS;
        let start = if value < lay.base {
            0
        } else {
            let offset = value as i128 - lay.base as i128 + 1;
            if offset >= width as i128 {
                return None;
            }
            offset as usize
        };
        let words = self.words(var);
        let mut i = start / WORD_BITS;
        let mut w = words[i] & (usize::MAX << (start % WORD_BITS));
        loop {
            if w != 0 {
                return Some(lay.base + (i * WORD_BITS + w.trailing_zeros() as usize) as Value);
            }
            i += 1;
            if i == words.len() {
                return None;
            }
            w = words[i];
        }
    }

    /// The largest value left that is smaller than `value`, if any.
    pub fn prev_value(&self, var: VarId, value: Value) -> Option<Value> {
        let Some(&lay) = self.vars.get(var.index()) else {
            return self.view_prev_value(var, value);
        };
        if lay.is_interval() {
            if !(lay.now.size > 0 && value > lay.lo()) {
                return None;
            }
            let below = (value - 1).min(lay.hi());
            if lay.is_wide() {
                // `lo` is not in a hole: a value down to it is left.
                return self.skip_down(&lay, below);
            }
            return Some(below);
        }
        if value <= lay.base {
            return None;
        }
        let width = lay.words as usize * WORD_BITS;
        // The last offset to look at: value - 1 - base, capped at the span.
        let last = (value as i128 - lay.base as i128 - 1).min(width as i128 - 1) as usize;
        let words = self.words(var);
        let mut i = last / WORD_BITS;
        let shift = WORD_BITS - 1 - last % WORD_BITS;
        let mut w = words[i] & (usize::MAX >> shift);
        loop {
            if w != 0 {
                let bit = WORD_BITS - 1 - w.leading_zeros() as usize;
                return Some(lay.base + (i * WORD_BITS + bit) as Value);
            }
            if i == 0 {
                return None;
            }
            i -= 1;
            w = words[i];
        }
    }

    /// Whether `x` and `y` may share a value: the smaller domain is walked
    /// (within the other's bounds); if both have more than
    /// [`MAX_DOMAIN_WIDTH`](crate::MAX_DOMAIN_WIDTH) values, overlapping
    /// bounds count as sharing one. So a support test that asks it may say
    /// yes too often, never no wrongly.
    pub(crate) fn may_share_value(&self, x: VarId, y: VarId) -> bool {
        let (small, other) = if self.len(x) <= self.len(y) {
            (x, y)
        } else {
            (y, x)
        };
        if self.len(small) == 0
            || self.min(small) > self.max(other)
            || self.max(small) < self.min(other)
        {
            return false;
        }
        if self.too_many_to_walk(small) {
            return true;
        }
        let mut at = self.next_value(small, self.min(other).saturating_sub(1));
        if self.min(other) == Value::MIN {
            at = Some(self.min(small));
        }
        while let Some(v) = at.filter(|&v| v <= self.max(other)) {
            if self.contains(other, v) {
                return true;
            }
            at = self.next_value(small, v);
        }
        false
    }

    /// The value of rank `rank` (0 for the smallest) in `var`'s domain.
    pub(crate) fn select(&self, var: VarId, rank: usize) -> Option<Value> {
        let Some(&lay) = self.vars.get(var.index()) else {
            return self.view_select(var, rank);
        };
        if lay.is_wide() {
            return self.wide_select(&lay, rank);
        }
        if lay.is_interval() {
            return (rank < lay.now.size as usize).then(|| lay.lo() + rank as Value);
        }
        let mut left = rank;
        for (i, &w) in self.words(var).iter().enumerate() {
            let c = w.count_ones() as usize;
            if left < c {
                let mut w = w;
                for _ in 0..left {
                    w &= w - 1;
                }
                return Some(lay.base + (i * WORD_BITS + w.trailing_zeros() as usize) as Value);
            }
            left -= c;
        }
        None
    }

    /// The value a sweep tries after `last` (the first one if `None`), when
    /// `tried` values were tried already.
    #[inline]
    pub(crate) fn sweep_next(
        &self,
        var: VarId,
        sweep: Sweep,
        last: Option<Value>,
        tried: usize,
    ) -> Option<Value> {
        match (sweep, last) {
            (Sweep::Up, None) => (self.len(var) > 0).then(|| self.min(var)),
            (Sweep::Up, Some(v)) => self.next_value(var, v),
            (Sweep::Down, None) => (self.len(var) > 0).then(|| self.max(var)),
            (Sweep::Down, Some(v)) => self.prev_value(var, v),
            (Sweep::Middle, _) => self.middle_next(var, tried),
        }
    }

    /// Middle-out's `tried`-th value: ranks mid, mid + 1, mid - 1, mid + 2, ...
    /// of the domain as it was when the frame was pushed (it is again, after
    /// each pop). Out of the ascending sweep's way.
    #[inline(never)]
    fn middle_next(&self, var: VarId, tried: usize) -> Option<Value> {
        let n = self.len(var);
        if tried >= n {
            return None;
        }
        let mid = (n - 1) / 2;
        let rank = if tried % 2 == 1 {
            mid + tried.div_ceil(2)
        } else {
            mid - tried / 2
        };
        self.select(var, rank)
    }
}
