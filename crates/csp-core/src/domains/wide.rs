//! Wide variables: a declared span of more than
//! [`BITS_WIDTH_LIMIT`](super::BITS_WIDTH_LIMIT) values (up to the whole of
//! `i64`) never gets bits. Such a variable is an interval plus a sorted list
//! of *holes*, disjoint ranges of values that left from strictly inside its
//! bounds (and the gaps of a declared list of values). Memory is proportional
//! to the holes, not to the span.
//!
//! Invariants while the domain is not empty: neither bound lies in a hole,
//! and the size is the number of values between the bounds outside the holes
//! (saturated at `u64::MAX`: only the domain of all 2^64 values has more).
//! Bounds changes are undone by the variable's shape records (`interval.rs`);
//! each hole made during search has its own record, which takes it out again.

use super::{Domains, Shape, TrailEntry, Var, Wipeout};
use crate::Value;

/// The `word` of a record that undoes a hole (`old_bits` holds its value).
pub(super) const HOLE_WORD: u32 = u32::MAX - 1;

impl Domains {
    /// The holes of wide variable `d`.
    #[inline]
    pub(super) fn holes_of(&self, d: &Var) -> &[(Value, Value)] {
        &self.holes[d.first as usize]
    }

    /// Whether `value` lies in a hole of wide variable `d`.
    #[inline]
    pub(super) fn in_hole(&self, d: &Var, value: Value) -> bool {
        let holes = self.holes_of(d);
        let p = holes.partition_point(|r| r.1 < value);
        p < holes.len() && holes[p].0 <= value
    }

    /// The smallest value at or above `value` outside the holes of `d`
    /// (`None` past `i64::MAX`).
    pub(super) fn skip_up(&self, d: &Var, value: Value) -> Option<Value> {
        let holes = self.holes_of(d);
        let mut p = holes.partition_point(|r| r.1 < value);
        let mut c = value;
        while p < holes.len() && holes[p].0 <= c {
            c = holes[p].1.checked_add(1)?;
            p += 1;
        }
        Some(c)
    }

    /// The largest value at or below `value` outside the holes of `d`
    /// (`None` below `i64::MIN`).
    pub(super) fn skip_down(&self, d: &Var, value: Value) -> Option<Value> {
        let holes = self.holes_of(d);
        // The last hole starting at or below `value`.
        let mut p = holes.partition_point(|r| r.0 <= value);
        let mut c = value;
        while p > 0 && holes[p - 1].1 >= c {
            c = holes[p - 1].0.checked_sub(1)?;
            p -= 1;
        }
        Some(c)
    }

    /// The number of values of `a..=b` in the holes of `d` (`a <= b`).
    fn holes_within(&self, d: &Var, a: Value, b: Value) -> u128 {
        let holes = self.holes_of(d);
        let mut p = holes.partition_point(|r| r.1 < a);
        let mut n = 0u128;
        while p < holes.len() && holes[p].0 <= b {
            let (x, y) = (holes[p].0.max(a), holes[p].1.min(b));
            n += (i128::from(y) - i128::from(x) + 1) as u128;
            p += 1;
        }
        n
    }

    /// The true size of wide variable `d` (2^64 for the whole of `i64`).
    fn wide_size(&self, d: &Var) -> u128 {
        if d.now.size == u64::MAX
            && d.lo() == Value::MIN
            && d.hi() == Value::MAX
            && self.holes_within(d, Value::MIN, Value::MAX) == 0
        {
            1u128 << 64
        } else {
            u128::from(d.now.size)
        }
    }

    /// Keeps the values of wide variable `v` within `lo..=hi`; returns the
    /// number removed (saturated).
    pub(super) fn wide_narrow(&mut self, v: usize, lo: Value, hi: Value) -> Result<u64, Wipeout> {
        let d = self.vars[v];
        let (old_lo, old_hi) = (d.lo(), d.hi());
        let (lo, hi) = (lo.max(old_lo), hi.min(old_hi));
        if (lo, hi) == (old_lo, old_hi) {
            return Ok(0);
        }
        self.save_shape(v);
        let size = self.wide_size(&d);
        if self.holes_of(&d).is_empty() {
            // No holes (the common case: a sum or a distance narrowed by its
            // bounds): the new bounds are values, the size their span.
            if lo > hi {
                self.vars[v].now.size = 0;
                return Err(Wipeout);
            }
            let left = (i128::from(hi) - i128::from(lo) + 1) as u128;
            self.vars[v].now = Shape {
                size: u64::try_from(left).unwrap_or(u64::MAX),
                lo: lo.wrapping_sub(d.base) as u64,
                hi: hi.wrapping_sub(d.base) as u64,
            };
            return Ok(u64::try_from(size - left).unwrap_or(u64::MAX));
        }
        let new_lo = if lo > hi { None } else { self.skip_up(&d, lo) };
        let new_hi = if lo > hi {
            None
        } else {
            self.skip_down(&d, hi)
        };
        let (Some(new_lo), Some(new_hi)) = (new_lo, new_hi) else {
            self.vars[v].now.size = 0;
            return Err(Wipeout);
        };
        if new_lo > new_hi {
            self.vars[v].now.size = 0;
            return Err(Wipeout);
        }
        let mut removed = 0u128;
        if new_lo > old_lo {
            let span = (i128::from(new_lo) - i128::from(old_lo)) as u128;
            removed += span - self.holes_within(&d, old_lo, new_lo - 1);
        }
        if new_hi < old_hi {
            let span = (i128::from(old_hi) - i128::from(new_hi)) as u128;
            removed += span - self.holes_within(&d, new_hi + 1, old_hi);
        }
        let left = size - removed;
        self.vars[v].now = Shape {
            size: u64::try_from(left).unwrap_or(u64::MAX),
            lo: new_lo.wrapping_sub(d.base) as u64,
            hi: new_hi.wrapping_sub(d.base) as u64,
        };
        Ok(u64::try_from(removed).unwrap_or(u64::MAX))
    }

    /// Adds the hole `a..=b` to wide variable `v`: strictly between its
    /// bounds, and disjoint from its holes (the caller checked). One undo
    /// record, which knows the hole by its first value.
    pub(super) fn wide_add_hole(&mut self, v: usize, a: Value, b: Value) {
        let d = self.vars[v];
        self.changed.note(v);
        self.trail.push(TrailEntry {
            word: HOLE_WORD,
            var: v as u32,
            old_bits: a as usize,
            old: d.now,
        });
        let gone = (i128::from(b) - i128::from(a) + 1) as u128;
        let size = self.wide_size(&d) - gone;
        let holes = &mut self.holes[d.first as usize];
        let p = holes.partition_point(|r| r.1 < a);
        holes.insert(p, (a, b));
        self.hole_count += 1;
        // Holes count against the memory budget as bits do: past it, the
        // search stops at its next check (the hole is kept, so the domain
        // stays exact until then).
        if self.bytes() > self.budget {
            self.over_budget = true;
        }
        self.vars[v].now.size = u64::try_from(size).unwrap_or(u64::MAX);
    }

    /// Removes the values `a..=b` (strictly between the bounds, `a <= b`) of
    /// wide variable `v`: a hole for each run of values left there. Returns
    /// the number removed.
    pub(super) fn wide_remove_inside(&mut self, v: usize, a: Value, b: Value) -> u64 {
        let mut removed = 0u128;
        let mut at = a;
        loop {
            let d = self.vars[v];
            // The next value left at or after `at`, and the end of its run.
            let Some(start) = self.skip_up(&d, at).filter(|&s| s <= b) else {
                break;
            };
            let holes = self.holes_of(&d);
            let p = holes.partition_point(|r| r.1 < start);
            let end = match holes.get(p) {
                Some(&(h, _)) if h <= b => h - 1,
                _ => b,
            };
            self.wide_add_hole(v, start, end);
            removed += (i128::from(end) - i128::from(start) + 1) as u128;
            match end.checked_add(1) {
                Some(next) if next <= b => at = next,
                _ => break,
            }
        }
        u64::try_from(removed).unwrap_or(u64::MAX)
    }

    /// The value of rank `rank` (0 for the smallest) of wide variable `d`.
    pub(super) fn wide_select(&self, d: &Var, rank: usize) -> Option<Value> {
        if (rank as u128) >= self.wide_size(d) {
            return None;
        }
        let holes = self.holes_of(d);
        let (lo, hi) = (d.lo(), d.hi());
        let mut p = holes.partition_point(|r| r.1 < lo);
        let mut at = i128::from(lo);
        let mut left = rank as i128;
        while p < holes.len() && holes[p].0 <= hi {
            let gap = i128::from(holes[p].0) - at;
            if left < gap {
                break;
            }
            left -= gap;
            at = i128::from(holes[p].1) + 1;
            p += 1;
        }
        Some((at + left) as Value)
    }
}

/// Undoes a hole record: takes the hole that starts at `value` out of `holes`.
pub(super) fn undo_hole(holes: &mut Vec<(Value, Value)>, value: Value) {
    let p = holes.partition_point(|r| r.1 < value);
    debug_assert_eq!(holes.get(p).map(|r| r.0), Some(value));
    holes.remove(p);
}

#[cfg(test)]
mod tests {
    use super::super::{Domains, Wipeout};
    use crate::rng::SplitMix64;
    use crate::{Value, VarId};
    use std::collections::BTreeSet;

    /// A reference domain: the values of `lo..=hi` but the holes (a small
    /// window of values is all a test touches).
    #[derive(Clone, Debug)]
    struct Reference {
        lo: Value,
        hi: Value,
        holes: BTreeSet<Value>,
        empty: bool,
    }

    impl Reference {
        fn contains(&self, v: Value) -> bool {
            !self.empty && self.lo <= v && v <= self.hi && !self.holes.contains(&v)
        }
        fn remove(&mut self, v: Value) {
            if self.contains(v) {
                self.holes.insert(v);
                self.settle();
            }
        }
        fn narrow(&mut self, lo: Value, hi: Value) {
            self.lo = self.lo.max(lo);
            self.hi = self.hi.min(hi);
            self.settle();
        }
        /// Moves the bounds off holes; empty once they cross.
        fn settle(&mut self) {
            while !self.empty && self.lo <= self.hi && self.holes.contains(&self.lo) {
                self.lo += 1;
            }
            while !self.empty && self.lo <= self.hi && self.holes.contains(&self.hi) {
                self.hi -= 1;
            }
            if self.lo > self.hi {
                self.empty = true;
            }
        }
        fn len(&self) -> u128 {
            if self.empty {
                return 0;
            }
            let span = (i128::from(self.hi) - i128::from(self.lo) + 1) as u128;
            span - self.holes.range(self.lo..=self.hi).count() as u128
        }
    }

    fn check(d: &Domains, r: &Reference, probes: &[Value]) {
        let x = VarId::new(0);
        if r.empty {
            return;
        }
        assert_eq!((d.min(x), d.max(x)), (r.lo, r.hi));
        assert_eq!(d.len(x) as u128, r.len().min(u128::from(u64::MAX)));
        assert_eq!(d.is_fixed(x), r.len() == 1);
        for &p in probes {
            assert_eq!(d.contains(x, p), r.contains(p), "contains {p}");
            let next = if p < r.lo {
                Some(r.lo)
            } else if p >= r.hi {
                None
            } else {
                (p + 1..=r.hi).find(|&v| r.contains(v))
            };
            assert_eq!(d.next_value(x, p), next, "next after {p}");
            let prev = if p > r.hi {
                Some(r.hi)
            } else if p <= r.lo {
                None
            } else {
                (r.lo..p).rev().find(|&v| r.contains(v))
            };
            assert_eq!(d.prev_value(x, p), prev, "prev before {p}");
        }
        // The first values in order, and the value of each of their ranks.
        let want: Vec<Value> = (r.lo..=r.hi).filter(|&v| r.contains(v)).take(40).collect();
        let got: Vec<Value> = d.values(x).take(40).collect();
        assert_eq!(got, want);
        for (rank, &v) in want.iter().enumerate() {
            assert_eq!(d.select(x, rank), Some(v));
        }
    }

    #[test]
    fn wide_domains_follow_a_reference_through_removals_and_backtracking() {
        // Spans of 2^24 + 1 values, 2^40 and all of i64, each with a window
        // of values (near a bound or in the middle) where the test works.
        let cases: [(Value, Value, Value); 4] = [
            (0, 1 << 24, 0),
            (-(1 << 39), 1 << 39, -20),
            (Value::MIN, Value::MAX, Value::MIN),
            (Value::MIN, Value::MAX, Value::MAX - 60),
        ];
        for (seed, &(lo, hi, window)) in cases.iter().enumerate() {
            let mut rng = SplitMix64::new(seed as u64 + 7);
            let mut d = Domains::new(std::iter::once((lo, hi, None)));
            assert!(d.vars[0].is_wide());
            let x = VarId::new(0);
            let start = Reference {
                lo,
                hi,
                holes: BTreeSet::new(),
                empty: false,
            };
            // Every change is made above a first level, popped at the end.
            d.push_level();
            let mut stack = vec![start.clone()];
            let pick = |rng: &mut SplitMix64| window + (rng.next_u64() % 60) as Value;
            for step in 0..400 {
                let r = stack.last().unwrap().clone();
                let mut next = r.clone();
                let op = rng.next_u64() % 12;
                let result = match op {
                    0..=3 => {
                        let v = pick(&mut rng);
                        next.remove(v);
                        d.remove(x, v).map(|_| ())
                    }
                    4 => {
                        let v = pick(&mut rng);
                        next.narrow(v, Value::MAX);
                        d.remove_below(x, v).map(|_| ())
                    }
                    5 => {
                        let v = pick(&mut rng).saturating_add(30);
                        next.narrow(Value::MIN, v);
                        d.remove_above(x, v).map(|_| ())
                    }
                    6 => {
                        let v = pick(&mut rng);
                        if next.contains(v) {
                            next.narrow(v, v);
                        } else {
                            next.empty = true;
                        }
                        d.assign(x, v).map(|_| ())
                    }
                    10 | 11 => {
                        let a = pick(&mut rng);
                        let b = a.saturating_add((rng.next_u64() % 12) as Value);
                        for v in a..=b {
                            next.remove(v);
                        }
                        d.remove_range(x, a, b).map(|_| ())
                    }
                    7 | 8 => {
                        d.push_level();
                        stack.push(r.clone());
                        continue;
                    }
                    _ => {
                        if stack.len() > 1 {
                            d.pop_level();
                            stack.pop();
                            check(&d, stack.last().unwrap(), &[window, window + 31]);
                        }
                        continue;
                    }
                };
                assert_eq!(result.is_err(), next.empty, "step {step} op {op}");
                if result == Err(Wipeout) {
                    // A wipe-out ends the level: back to where it was.
                    if stack.len() > 1 {
                        d.pop_level();
                        stack.pop();
                    } else {
                        break;
                    }
                    continue;
                }
                *stack.last_mut().unwrap() = next.clone();
                let probes: Vec<Value> = (0..8).map(|_| pick(&mut rng)).chain([lo, hi]).collect();
                check(&d, &next, &probes);
            }
            while stack.len() > 1 {
                d.pop_level();
                stack.pop();
            }
            d.pop_level();
            check(&d, &start, &[window, lo, hi]);
            assert_eq!(d.hole_count, 0);
        }
    }

    #[test]
    fn removing_the_last_value_at_either_end_of_i64_empties_the_domain() {
        for end in [Value::MIN, Value::MAX] {
            let mut d = Domains::new(std::iter::once((Value::MIN, Value::MAX, None)));
            let x = VarId::new(0);
            d.push_level();
            assert_eq!(d.assign(x, end), Ok(u64::MAX));
            assert_eq!(d.remove(x, end), Err(Wipeout));
            assert_eq!(d.len(x), 0);
            d.pop_level();
            assert_eq!(d.len(x), usize::MAX);
            d.push_level();
            assert_eq!(d.clear(x), Err(Wipeout));
            assert_eq!(d.len(x), 0);
            d.pop_level();
            assert_eq!((d.min(x), d.max(x)), (Value::MIN, Value::MAX));
        }
    }

    #[test]
    fn a_declared_list_over_a_wide_span_keeps_its_gaps_as_holes() {
        let vals = [Value::MIN, -5, -4, 0, 1 << 30, Value::MAX];
        let mut d = Domains::new(std::iter::once((Value::MIN, Value::MAX, Some(&vals[..]))));
        let x = VarId::new(0);
        assert_eq!(d.values(x).collect::<Vec<_>>(), vals);
        assert_eq!(d.len(x), 6);
        assert_eq!(d.next_value(x, -3), Some(0));
        assert_eq!(d.prev_value(x, -1), Some(-4));
        d.push_level();
        assert_eq!(d.remove_below(x, -6), Ok(1));
        assert_eq!(d.min(x), -5);
        assert_eq!(d.remove(x, 0), Ok(true));
        assert_eq!(d.remove_above(x, 1 << 29), Ok(2));
        assert_eq!((d.min(x), d.max(x), d.len(x)), (-5, -4, 2));
        assert_eq!(d.assign(x, 3), Err(Wipeout));
        d.pop_level();
        assert_eq!(d.values(x).collect::<Vec<_>>(), vals);
        // A snapshot brings the holes back too.
        let snap = d.snapshot();
        d.push_level();
        d.remove(x, -5).unwrap();
        d.restore(&snap);
        assert!(d.contains(x, -5) && !d.contains(x, -3));
    }
}
