//! Domains as masks over an element's result span, and the walks an
//! [`OffsetElement`](crate::constraints::OffsetElement) makes over two
//! domains: its supports found in a few word operations.

use crate::constraint::Conflict;
use crate::{Domains, PropagationContext, Value, VarId};

/// Words of the masks over the result's span that find its supports at once
/// (a wider result looks for an entry value by value).
pub(super) const COVER_WORDS: usize = 4;

/// A value in both `x` and `r`, if any: a leapfrog walk over the two
/// domains, from the larger minimum up to the smaller maximum.
pub(super) fn common_value(d: &Domains, x: VarId, r: VarId) -> Option<Value> {
    let hi = d.max(x).min(d.max(r));
    let mut v = d.min(x).max(d.min(r));
    let (mut a, mut b) = (x, r);
    while v <= hi {
        if !d.contains(a, v) {
            v = d.next_value(a, v)?;
        }
        if d.contains(b, v) {
            return Some(v);
        }
        std::mem::swap(&mut a, &mut b);
    }
    None
}

/// Removes from `var` the values `lo + k` whose bit `k` is set in `want` but
/// not in `have`, where `want` holds all of `var`'s values (its window covers
/// `var`'s bounds): each gap between two values kept goes as one range.
pub(super) fn remove_missing(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    lo: Value,
    want: &[u64],
    have: &[u64],
) -> Result<bool, Conflict> {
    let bits = 64 * want.len();
    // The first bit at or after `k` set in `word(i)` for its word `i`.
    let next = |k: usize, word: &dyn Fn(usize) -> u64| -> usize {
        let mut i = k / 64;
        let mut w = word(i) & (u64::MAX << (k % 64));
        while w == 0 {
            i += 1;
            if i == want.len() {
                return bits;
            }
            w = word(i);
        }
        64 * i + w.trailing_zeros() as usize
    };
    let gone = |i: usize| want[i] & !have[i];
    let kept = |i: usize| want[i] & have[i];
    let mut changed = false;
    let mut k = 0;
    while k < bits {
        let start = next(k, &gone);
        if start == bits {
            break;
        }
        let end = next(start, &kept);
        changed |= if end == start + 1 {
            ctx.remove(var, lo + start as Value)?
        } else {
            ctx.remove_range(var, lo + start as Value, lo + (end - 1) as Value)?
        };
        k = end;
    }
    Ok(changed)
}

/// Keeps the values of `x` that `y` has: by word masks over `x`'s span when
/// it is at most `64 * COVER_WORDS` values, value by value otherwise.
pub(super) fn keep_shared(
    ctx: &mut PropagationContext<'_>,
    x: VarId,
    y: VarId,
) -> Result<bool, Conflict> {
    let lo = ctx.min(x);
    let span = i128::from(ctx.max(x)) - i128::from(lo) + 1;
    if span > 64 * COVER_WORDS as i128 {
        return ctx.retain(x, |d, v| d.contains(y, v));
    }
    let words = (span as usize).div_ceil(64);
    let (mut want, mut have) = ([0u64; COVER_WORDS], [0u64; COVER_WORDS]);
    let d = ctx.domains();
    d.or_values_into(x, lo, &mut want[..words]);
    d.or_values_into(y, lo, &mut have[..words]);
    remove_missing(ctx, x, lo, &want[..words], &have[..words])
}

/// The values of a domain spanning at most `64 * COVER_WORDS` values, from a
/// copy of its bits: walked without holding the store.
pub(super) struct SmallValues {
    lo: Value,
    words: [u64; COVER_WORDS],
    word: usize,
}

impl SmallValues {
    pub(super) fn of(d: &Domains, var: VarId) -> Option<Self> {
        let lo = d.min(var);
        let span = i128::from(d.max(var)) - i128::from(lo) + 1;
        if d.len(var) == 0 || span > 64 * COVER_WORDS as i128 {
            return None;
        }
        let mut words = [0; COVER_WORDS];
        match span <= 64 {
            true => words[0] = d.values_word(var, lo),
            false => d.or_values_into(var, lo, &mut words[..(span as usize).div_ceil(64)]),
        }
        Some(SmallValues { lo, words, word: 0 })
    }
}

impl Iterator for SmallValues {
    type Item = Value;

    #[inline]
    fn next(&mut self) -> Option<Value> {
        while self.word < COVER_WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.lo + (self.word * 64 + w.trailing_zeros() as usize) as Value);
            }
            self.word += 1;
        }
        None
    }
}
