//! Domains as bit masks over a window of values: the union of several
//! domains in a few word operations (element's support for its result,
//! all-different's matching filter on one word).

use super::{Domains, WORD_BITS, word_mask};
use crate::{Value, VarId};

impl Domains {
    /// Sets, in `out`, bit `v - lo` (64 to a word) for every value `v` of
    /// `var` in `lo..lo + 64 * out.len()`; other bits are left as they are.
    pub(crate) fn or_values_into(&self, var: VarId, lo: Value, out: &mut [u64]) {
        let window = i128::from(lo) + (WORD_BITS * out.len()) as i128 - 1;
        let end = Value::try_from(window).unwrap_or(Value::MAX);
        let Some(&d) = self.vars.get(var.index()) else {
            return self.or_view_values_into(var, lo, end, out);
        };
        if d.now.size == 0 {
            return;
        }
        let (from, to) = (d.lo().max(lo), d.hi().min(end));
        if from > to {
            return;
        }
        if d.is_interval() {
            if d.is_wide() {
                for v in from..=to {
                    if !self.in_hole(&d, v) {
                        set_bit(out, (v - lo) as usize);
                    }
                }
                return;
            }
            // Bits `a..=b` of `out`, a word at a time.
            let (a, b) = ((from - lo) as usize, (to - lo) as usize);
            for (k, word) in out.iter_mut().enumerate().take(b / 64 + 1).skip(a / 64) {
                let (first, last) = (a.max(64 * k) - 64 * k, b.min(64 * k + 63) - 64 * k);
                *word |= (u64::MAX >> (63 - last)) & (u64::MAX << first);
            }
            return;
        }
        let (o_from, o_to) = ((from - d.base) as usize, (to - d.base) as usize);
        for k in o_from / WORD_BITS..=o_to / WORD_BITS {
            let word = (self.bits[d.first as usize + k] & word_mask(k, o_from, o_to)) as u64;
            if word == 0 {
                continue;
            }
            // Bit `b` of word `k` is the value `base + 64k + b`: bit
            // `shift + b` of `out`, at or above 0 for the bits kept.
            // In `i128`: the base may lie far from the window.
            let shift = i128::from(d.base) - i128::from(lo) + (k * WORD_BITS) as i128;
            if shift < 0 {
                out[0] |= word >> -shift;
                continue;
            }
            let (w, r) = (shift as usize / WORD_BITS, shift as usize % WORD_BITS);
            out[w] |= word << r;
            if r > 0 && w + 1 < out.len() {
                out[w + 1] |= word >> (WORD_BITS - r);
            }
        }
    }

    /// The values of `var` in `lo..=lo + 63` as one word (bit `v - lo` for
    /// value `v`): [`or_values_into`](Self::or_values_into) on one word,
    /// with a shorter path for a variable kept as bits (for `x` in
    /// `{3, 5, 70}` and `lo = 2`, bits 1 and 3).
    #[inline]
    pub(crate) fn values_word(&self, var: VarId, lo: Value) -> u64 {
        let mut word = 0;
        let Some(d) = self.vars.get(var.index()) else {
            self.or_values_into(var, lo, std::slice::from_mut(&mut word));
            return word;
        };
        // Bit 0 of the window is bit `off` of the variable's words.
        let off = lo.checked_sub(d.base);
        let (Some(off), false) = (off, d.is_interval() || d.now.size == 0) else {
            self.or_values_into(var, lo, std::slice::from_mut(&mut word));
            return word;
        };
        let span = d.span() as i64;
        if off >= span || off <= -(WORD_BITS as i64) {
            return 0;
        }
        let at = |k: i64| -> u64 {
            match k >= 0 && k < i64::from(d.words) {
                true => self.bits[d.first as usize + k as usize] as u64,
                false => 0,
            }
        };
        let (k, r) = (off.div_euclid(64), off.rem_euclid(64) as u32);
        word = match r {
            0 => at(k),
            _ => at(k) >> r | at(k + 1) << (64 - r),
        };
        // Only the values within the current bounds.
        let first = d.lo().saturating_sub(lo).max(0);
        let last = d.hi().saturating_sub(lo).min(63);
        if first > last {
            return 0;
        }
        word & (u64::MAX >> (63 - last)) & (u64::MAX << first)
    }

    /// [`or_values_into`](Self::or_values_into) for a view (`end`: the
    /// window's last value), out of the line of ordinary variables.
    #[cold]
    #[inline(never)]
    fn or_view_values_into(&self, var: VarId, lo: Value, end: Value, out: &mut [u64]) {
        if let Some(view) = self.view_of(var) {
            // `x + c`: the base's bits over the window moved by `c`.
            if view.scale == 1
                && let Some(base_lo) = lo.checked_sub(view.offset)
            {
                return self.or_values_into(view.base(), base_lo, out);
            }
            // `c - x` over one word: the base's bits over the mirrored
            // window, reversed (value `lo + k` is base value `c - lo - k`).
            if view.scale == -1
                && out.len() == 1
                && let Some(base_lo) = view
                    .offset
                    .checked_sub(lo)
                    .and_then(|top| top.checked_sub(WORD_BITS as Value - 1))
            {
                let mut word = 0u64;
                self.or_values_into(view.base(), base_lo, std::slice::from_mut(&mut word));
                out[0] |= word.reverse_bits();
                return;
            }
        }
        // Another view: value by value.
        let mut next = self.first_at_least(var, lo);
        while let Some(v) = next.filter(|&v| v <= end) {
            set_bit(out, (v - lo) as usize);
            next = self.next_value(var, v);
        }
    }

    /// The smallest value of `var` at or above `v`.
    fn first_at_least(&self, var: VarId, v: Value) -> Option<Value> {
        if self.len(var) == 0 || v > self.max(var) {
            return None;
        }
        if v <= self.min(var) {
            return Some(self.min(var));
        }
        match self.contains(var, v) {
            true => Some(v),
            false => self.next_value(var, v),
        }
    }
}

fn set_bit(out: &mut [u64], k: usize) {
    out[k / 64] |= 1 << (k % 64);
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Solver, Value};

    #[test]
    fn the_mask_holds_exactly_the_values_in_the_window() {
        let mut m = Model::new();
        let domains: [Vec<Value>; 5] = [
            vec![-70, -3, 0, 1, 63, 64, 65, 130, 200],
            (-100..=300).collect(),
            vec![5],
            (0..64).map(|i| i * 3 - 50).collect(),
            vec![-1000, 1000],
        ];
        let mut vars: Vec<_> = domains
            .iter()
            .map(|d| m.int_var(d.clone()).unwrap())
            .collect();
        // A wide range starts as an interval without bits; views go value by
        // value; a domain far from the window must not overflow.
        vars.push(m.int_var(-500..=500).unwrap());
        vars.push(m.int_var([Value::MIN, Value::MIN + 5]).unwrap());
        vars.push(m.int_var([Value::MAX - 3, Value::MAX]).unwrap());
        let base = vars[0];
        vars.push(m.offset_view(base, 7).unwrap());
        vars.push(m.minus_view(base).unwrap());
        // Views of ±1 read their base's bits (moved, or mirrored for one
        // word); others and windows that overflow go value by value.
        vars.push(m.view(base, -1, 45).unwrap());
        vars.push(m.view(base, 2, -3).unwrap());
        vars.push(m.view(vars[1], -1, -64).unwrap());
        vars.push(m.view(vars[3], 1, -130).unwrap());
        vars.push(m.offset_view(vars[6], 3).unwrap());
        vars.push(m.view(vars[7], -1, -1).unwrap());
        let s = Solver::new(&m, Config::textbook()).unwrap();
        let d = s.domains();
        for &x in &vars {
            for lo in [
                -200,
                -71,
                -70,
                -3,
                0,
                1,
                60,
                64,
                190,
                Value::MIN,
                Value::MAX - 200,
            ] {
                let word = d.values_word(x, lo);
                for k in 0..64 {
                    let want = lo.checked_add(k).is_some_and(|v| d.contains(x, v));
                    assert_eq!(word >> k & 1 == 1, want, "{x} lo {lo} bit {k} (one word)");
                }
                for words in 1..=3 {
                    let mut out = vec![0u64; words];
                    d.or_values_into(x, lo, &mut out);
                    for k in 0..64 * words {
                        let want = d.contains(x, lo + k as Value);
                        assert_eq!(
                            out[k / 64] >> (k % 64) & 1 == 1,
                            want,
                            "{x} lo {lo} bit {k}"
                        );
                    }
                }
            }
        }
    }

    /// One word read from variables with bits whose bounds moved inside them
    /// (the bits beyond the bounds stay in the words), over every window
    /// from below the base to past the end, against `contains`.
    #[test]
    fn one_word_holds_the_values_within_the_bounds() {
        use crate::VarId;
        use crate::domains::Domains;
        let vals: Vec<Value> = (-70..=200).filter(|v| v % 3 != 0 || v % 7 == 0).collect();
        let specs = [
            (-70, 200, Some(&vals[..])),
            (5, 9, Some(&[5, 7, 9][..])),
            (0, 63, None),
        ];
        // Lazy bits above 0: every range gets its bits at once.
        let mut d = Domains::with_lazy_bits_above(specs.iter().copied(), 0);
        for step in 0..4 {
            for i in 0..3 {
                let x = VarId::new(i);
                for lo in -140..=270 {
                    let word = d.values_word(x, lo);
                    for k in 0..64 {
                        let want = d.contains(x, lo + k);
                        assert_eq!(word >> k & 1 == 1, want, "step {step} {x} lo {lo} bit {k}");
                    }
                }
            }
            // Bounds move in, a value goes from the middle.
            for i in 0..3 {
                let x = VarId::new(i);
                let (lo, hi) = (d.min(x), d.max(x));
                if hi - lo >= 4 {
                    d.remove_below(x, lo + 1 + step).unwrap();
                    d.remove_above(x, hi - 1 - step).unwrap();
                    let mid = (d.min(x) + d.max(x)) / 2;
                    let _ = d.remove(x, mid);
                }
            }
        }
    }
}
