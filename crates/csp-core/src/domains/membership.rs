//! Membership: whether a value is in a domain, for one value, many values
//! of one variable in a row, or counting's three-way test.

use super::{Domains, WORD_BITS};
use crate::{Value, VarId};

/// One variable's membership test ([`Domains::members`]).
pub(crate) enum Members<'a> {
    /// A variable kept as bits: bit `i` of `words` is the value `base + i`.
    Bits { base: Value, words: &'a [usize] },
    /// Any other variable (an interval, a wide variable, a view).
    Other(&'a Domains, VarId),
}

impl Members<'_> {
    /// Whether `value` is in the domain.
    #[inline(always)]
    pub(crate) fn contains(&self, value: Value) -> bool {
        match *self {
            Members::Bits { base, words } => match value.checked_sub(base) {
                Some(offset) if offset >= 0 => {
                    let offset = offset as u64;
                    let i = offset / WORD_BITS as u64;
                    i < words.len() as u64
                        && words[i as usize] >> (offset % WORD_BITS as u64) & 1 == 1
                }
                _ => false,
            },
            Members::Other(d, var) => d.contains(var, value),
        }
    }
}

impl Domains {
    /// A reader of `var`'s membership for many values in a row: for a
    /// variable kept as bits, the lookup of [`Domains::contains`] without
    /// finding the variable's record again at each value.
    #[inline]
    pub(crate) fn members(&self, var: VarId) -> Members<'_> {
        match self.vars.get(var.index()) {
            Some(d) if !d.is_interval() => Members::Bits {
                base: d.base,
                words: self.words(var),
            },
            _ => Members::Other(self, var),
        }
    }

    /// Whether `value` is still in `var`'s domain.
    #[inline]
    pub fn contains(&self, var: VarId, value: Value) -> bool {
        let Some(d) = self.vars.get(var.index()) else {
            return self.view_contains(var, value);
        };
        if d.is_interval() {
            return d.now.size > 0
                && d.lo() <= value
                && value <= d.hi()
                && !(d.is_wide() && self.in_hole(d, value));
        }
        let Some(offset) = value.checked_sub(d.base) else {
            return false;
        };
        if offset < 0 || offset as u64 >= d.span() {
            return false;
        }
        let offset = offset as usize;
        let w = self.bits[d.first as usize + offset / WORD_BITS];
        w >> (offset % WORD_BITS) & 1 == 1
    }

    /// Whether `var` takes `value` for sure (`Some(true)`: fixed to it),
    /// cannot (`Some(false)`), or may (`None`: it has `value` and another),
    /// from one read of the variable's record: counting's test (Gecode's
    /// `holds`).
    #[inline]
    pub(crate) fn takes(&self, var: VarId, value: Value) -> Option<bool> {
        let Some(d) = self.vars.get(var.index()) else {
            return match self.contains(var, value) {
                false => Some(false),
                true => self.is_fixed(var).then_some(true),
            };
        };
        if d.now.size == 0 || value < d.lo() || value > d.hi() {
            return Some(false);
        }
        if d.now.size == 1 {
            return Some(true);
        }
        if d.is_interval() {
            return (d.is_wide() && self.in_hole(d, value)).then_some(false);
        }
        // Within the bounds, so within the bits.
        let offset = value.wrapping_sub(d.base) as u64 as usize;
        let w = self.bits[d.first as usize + offset / WORD_BITS];
        (w >> (offset % WORD_BITS) & 1 == 0).then_some(false)
    }
}

#[cfg(test)]
mod tests {
    use crate::domains::Domains;
    use crate::{Value, VarId};

    /// `takes` against `contains` and `is_fixed` on every kind of variable
    /// (bits, an interval without bits, a wide one with holes), near the
    /// ends of `i64` too, as values leave them one by one.
    #[test]
    fn takes_says_what_contains_and_is_fixed_say() {
        let small: Vec<Value> = vec![-3, 0, 2, 5, 64, 65, 130];
        let specs = [
            (-3, 130, Some(&small[..])),
            (0, 1_000, None),
            (-1_000_000, 1_000_000, None),
            (Value::MAX - 5, Value::MAX, None),
            (Value::MIN, Value::MIN + 3, None),
        ];
        // Lazy bits above 64 values: the second and third start as
        // intervals; the second gets bits at its first hole, the third is
        // wide and keeps its holes in a list.
        let mut d = Domains::with_lazy_bits_above(specs.iter().copied(), 64);
        let probes = |lo: Value, hi: Value| {
            let mut p = vec![lo.saturating_sub(2), lo, hi, hi.saturating_add(2)];
            p.extend((lo..=hi).take(140));
            p.extend([Value::MIN, Value::MAX, 0, 1, -1]);
            p
        };
        for step in 0..8 {
            for (i, &(lo, hi, _)) in specs.iter().enumerate() {
                let x = VarId::new(i);
                for v in probes(lo, hi) {
                    let want = match (d.contains(x, v), d.is_fixed(x)) {
                        (false, _) => Some(false),
                        (true, true) => Some(true),
                        (true, false) => None,
                    };
                    assert_eq!(d.takes(x, v), want, "step {step} {x} value {v}");
                }
            }
            // Remove a value from inside (a hole) and the bounds move in.
            for i in 0..specs.len() {
                let x = VarId::new(i);
                if d.is_fixed(x) {
                    continue;
                }
                let (a, b) = (d.min(x), d.max(x));
                let mid = a + (b - a) / 2;
                let _ = d.remove(x, mid);
                if step % 2 == 1 && !d.is_fixed(x) {
                    let _ = d.remove(x, d.min(x));
                }
            }
        }
    }
}
