//! Walking a domain's values in increasing order: [`DomainValues`].

use super::{Domains, WORD_BITS};
use crate::{Value, VarId};

impl Domains {
    /// The values left in `var`'s domain, in increasing order.
    pub fn values(&self, var: VarId) -> DomainValues<'_> {
        let Some(&d) = self.vars.get(var.index()) else {
            return self.view_values(var);
        };
        let words = self.words(var);
        let interval = d.is_interval();
        let holes = if d.is_wide() {
            let holes = self.holes_of(&d);
            &holes[holes.partition_point(|r| r.1 < d.lo())..]
        } else {
            &[]
        };
        DomainValues {
            words,
            base: if interval { d.lo() } else { d.base },
            index: 0,
            current: words.first().copied().unwrap_or(0),
            interval_left: if interval { d.now.size } else { 0 },
            holes,
            view: None,
        }
    }
}

/// Iterator over the values of one domain, in increasing order.
#[derive(Clone, Debug)]
pub struct DomainValues<'a> {
    pub(super) words: &'a [usize],
    pub(super) base: Value,
    pub(super) current: usize,
    /// The word read last (at most 2^18 words: see `MAX_DOMAIN_WIDTH`).
    pub(super) index: u32,
    /// For an interval without bits: how many values are left, the next
    /// being `base` or the first after the holes.
    pub(super) interval_left: u64,
    /// For a wide variable: its holes from `base` on.
    pub(super) holes: &'a [(Value, Value)],
    /// For a view (`view.rs`): the store to walk it in, while values are
    /// left (the next being `base`; `index` is the view's id).
    pub(super) view: Option<&'a Domains>,
}

impl Iterator for DomainValues<'_> {
    type Item = Value;

    #[inline]
    fn next(&mut self) -> Option<Value> {
        while self.current == 0 {
            self.index += 1;
            if self.index as usize >= self.words.len() {
                // An interval has no words: its values are counted from `base`.
                if self.interval_left == 0 {
                    return self.view.and_then(|_| self.view_step());
                }
                self.interval_left -= 1;
                while let Some(&(a, b)) = self.holes.first() {
                    if a > self.base {
                        break;
                    }
                    // Values are left, so one lies past this hole.
                    self.base = self.base.max(b.wrapping_add(1));
                    self.holes = &self.holes[1..];
                }
                let v = self.base;
                self.base = v.wrapping_add(1);
                return Some(v);
            }
            self.current = self.words[self.index as usize];
        }
        let bit = self.current.trailing_zeros() as usize;
        self.current &= self.current - 1;
        Some(self.base + (self.index as usize * WORD_BITS + bit) as Value)
    }
}
