//! Views: variables `scale · x + offset` of a base variable `x`, with no
//! bits, no record and no trail of their own (see [`Model::view`](crate::Model::view)).
//!
//! A model declares its views after its variables, so the views' ids follow
//! the records in `vars`: the public methods' bounds check on `vars` is also
//! the test for a view, and a model without views pays nothing for them.
//! The methods here are the misses: a view is translated to its base, and
//! every change of a view is a change of the base (its removals counted,
//! its events raised, its undo records kept, as the base's).

use super::{DomainValues, Domains, Wipeout};
use crate::{Value, VarId};

/// A view `scale · base + offset` (`scale != 0`; the model checked that the
/// image of the base's declared domain fits in a [`Value`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct View {
    /// The base variable's id (never itself a view).
    pub(crate) base: u32,
    /// The factor `a` (nonzero).
    pub(crate) scale: i64,
    /// The constant `c`.
    pub(crate) offset: i64,
}

impl DomainValues<'_> {
    /// A view's next value: `base`, and the one after it found.
    #[cold]
    #[inline(never)]
    pub(super) fn view_step(&mut self) -> Option<Value> {
        let d = self.view?;
        // `next` counted one more word: the id stays.
        self.index -= 1;
        let v = self.base;
        match d.next_value(VarId::new(self.index as usize), v) {
            Some(next) => self.base = next,
            None => self.view = None,
        }
        Some(v)
    }
}

impl View {
    /// The base variable.
    #[inline]
    pub(crate) fn base(self) -> VarId {
        VarId::new(self.base as usize)
    }

    /// A change of the view raising `events` (bits of
    /// [`Events`](crate::Events)), as events of the base: the same, with the
    /// rising minimum and the falling maximum exchanged for a negative scale.
    #[inline]
    pub(crate) fn base_events(self, events: u8) -> u8 {
        use crate::context::{EV_MAX, EV_MIN};
        if self.scale > 0 {
            return events;
        }
        let min = if events & EV_MIN != 0 { EV_MAX } else { 0 };
        let max = if events & EV_MAX != 0 { EV_MIN } else { 0 };
        (events & !(EV_MIN | EV_MAX)) | min | max
    }

    /// `a · x + c` for a value `x` of the base (in range: the model checked
    /// the declared image, and domains only shrink).
    #[inline]
    pub(crate) fn image(self, x: Value) -> Value {
        self.scale.wrapping_mul(x).wrapping_add(self.offset)
    }

    /// The base value `x` with `a · x + c = v`, if there is one.
    pub(crate) fn preimage(self, v: Value) -> Option<Value> {
        let d = i128::from(v) - i128::from(self.offset);
        let a = i128::from(self.scale);
        if d % a != 0 {
            return None;
        }
        Value::try_from(d / a).ok()
    }

    /// `(bound - c) / a`, rounded down and up.
    fn quotients(self, bound: Value) -> (i128, i128) {
        let n = i128::from(bound) - i128::from(self.offset);
        let a = i128::from(self.scale);
        let q = n / a;
        let exact = n % a == 0;
        // `q` is rounded towards zero: down when the exact quotient is positive.
        let positive = (n < 0) == (a < 0);
        match (exact, positive) {
            (true, _) => (q, q),
            (false, true) => (q, q + 1),
            (false, false) => (q - 1, q),
        }
    }
}

impl Domains {
    /// The view `var` stands for, if it is one.
    #[inline]
    pub(crate) fn view_of(&self, var: VarId) -> Option<View> {
        let i = var.index().checked_sub(self.vars.len())?;
        self.views.get(i).copied()
    }

    /// The id whose changes `var`'s changes are: its base for a view,
    /// itself otherwise.
    #[inline]
    pub(crate) fn base_of(&self, var: VarId) -> VarId {
        match self.vars.get(var.index()) {
            Some(_) => var,
            None => self.view_at(var).base(),
        }
    }

    /// The view of id `var` (past the variables' records).
    #[inline]
    fn view_at(&self, var: VarId) -> View {
        self.views[var.index() - self.vars.len()]
    }

    #[cold]
    #[inline(never)]
    pub(super) fn view_len(&self, var: VarId) -> usize {
        self.len(self.view_at(var).base())
    }

    #[cold]
    #[inline(never)]
    pub(super) fn view_value(&self, var: VarId) -> Option<Value> {
        let w = self.view_at(var);
        self.value(w.base()).map(|x| w.image(x))
    }

    #[cold]
    #[inline(never)]
    pub(super) fn view_min(&self, var: VarId) -> Value {
        let w = self.view_at(var);
        w.image(if w.scale > 0 {
            self.min(w.base())
        } else {
            self.max(w.base())
        })
    }

    #[cold]
    #[inline(never)]
    pub(super) fn view_max(&self, var: VarId) -> Value {
        let w = self.view_at(var);
        w.image(if w.scale > 0 {
            self.max(w.base())
        } else {
            self.min(w.base())
        })
    }

    #[cold]
    #[inline(never)]
    pub(super) fn view_contains(&self, var: VarId, value: Value) -> bool {
        let w = self.view_at(var);
        w.preimage(value)
            .is_some_and(|x| self.contains(w.base(), x))
    }

    /// The values of a view, in increasing order: a walk with
    /// `next_value` (see `DomainValues::view_step`), nothing to allocate or
    /// drop, so that a variable's [`DomainValues`] stays a plain value.
    #[cold]
    #[inline(never)]
    pub(super) fn view_values(&self, var: VarId) -> DomainValues<'_> {
        let first = (self.len(var) > 0).then(|| self.min(var));
        DomainValues {
            words: &[],
            base: first.unwrap_or(0),
            index: var.index() as u32,
            current: 0,
            interval_left: 0,
            holes: &[],
            view: first.map(|_| self),
        }
    }

    /// The smallest value of view `w` greater than `value`.
    #[cold]
    #[inline(never)]
    pub(super) fn view_next_value(&self, var: VarId, value: Value) -> Option<Value> {
        let w = self.view_at(var);
        let (down, up) = w.quotients(value);
        let x = if w.scale > 0 {
            // a·x + c > value  <=>  x > (value - c) / a.
            match Value::try_from(down) {
                Ok(q) => self.next_value(w.base(), q),
                Err(_) if down < 0 => self.values(w.base()).next(),
                Err(_) => None,
            }
        } else {
            // a·x + c > value  <=>  x < (value - c) / a.
            match Value::try_from(up) {
                Ok(q) => self.prev_value(w.base(), q),
                Err(_) if up > 0 => self.values(w.base()).last(),
                Err(_) => None,
            }
        };
        x.map(|x| w.image(x))
    }

    /// The largest value of view `w` smaller than `value`.
    #[cold]
    #[inline(never)]
    pub(super) fn view_prev_value(&self, var: VarId, value: Value) -> Option<Value> {
        let w = self.view_at(var);
        let (down, up) = w.quotients(value);
        let x = if w.scale > 0 {
            // a·x + c < value  <=>  x < (value - c) / a.
            match Value::try_from(up) {
                Ok(q) => self.prev_value(w.base(), q),
                Err(_) if up > 0 => self.values(w.base()).last(),
                Err(_) => None,
            }
        } else {
            match Value::try_from(down) {
                Ok(q) => self.next_value(w.base(), q),
                Err(_) if down < 0 => self.values(w.base()).next(),
                Err(_) => None,
            }
        };
        x.map(|x| w.image(x))
    }

    /// The value of rank `rank` of view `w`.
    #[cold]
    #[inline(never)]
    pub(super) fn view_select(&self, var: VarId, rank: usize) -> Option<Value> {
        let w = self.view_at(var);
        let n = self.len(w.base());
        let rank = if w.scale > 0 {
            rank
        } else {
            n.checked_sub(rank + 1)?
        };
        self.select(w.base(), rank).map(|x| w.image(x))
    }

    // ----- changes: the base's changes -----

    #[cold]
    #[inline(never)]
    pub(super) fn view_remove(&mut self, var: VarId, value: Value) -> Result<bool, Wipeout> {
        let w = self.view_at(var);
        match w.preimage(value) {
            Some(x) => self.remove(w.base(), x),
            None => Ok(false),
        }
    }

    /// `assign` on a view.
    #[cold]
    #[inline(never)]
    pub(super) fn view_assign(&mut self, var: VarId, value: Value) -> Result<u64, Wipeout> {
        let w = self.view_at(var);
        match w.preimage(value) {
            Some(x) => self.assign(w.base(), x),
            None => self.wipe(w.base()),
        }
    }

    /// `remove_below` on a view.
    #[cold]
    #[inline(never)]
    pub(super) fn view_remove_below(&mut self, var: VarId, bound: Value) -> Result<u64, Wipeout> {
        let w = self.view_at(var);
        let (down, up) = w.quotients(bound);
        if w.scale > 0 {
            // Keep a·x + c >= bound: x >= ceil((bound - c) / a).
            self.base_below(w.base(), up)
        } else {
            // Keep x <= floor((bound - c) / a).
            self.base_above(w.base(), down)
        }
    }

    /// `remove_above` on a view.
    #[cold]
    #[inline(never)]
    pub(super) fn view_remove_above(&mut self, var: VarId, bound: Value) -> Result<u64, Wipeout> {
        let w = self.view_at(var);
        let (down, up) = w.quotients(bound);
        if w.scale > 0 {
            self.base_above(w.base(), down)
        } else {
            self.base_below(w.base(), up)
        }
    }

    /// Keeps the values of base `x` at or above `bound` (any integer).
    fn base_below(&mut self, x: VarId, bound: i128) -> Result<u64, Wipeout> {
        match Value::try_from(bound) {
            Ok(b) => self.remove_below(x, b),
            Err(_) if bound < 0 => Ok(0),
            Err(_) => self.wipe(x),
        }
    }

    /// Keeps the values of base `x` at or below `bound` (any integer).
    fn base_above(&mut self, x: VarId, bound: i128) -> Result<u64, Wipeout> {
        match Value::try_from(bound) {
            Ok(b) => self.remove_above(x, b),
            Err(_) if bound > 0 => Ok(0),
            Err(_) => self.wipe(x),
        }
    }

    /// Empties base `x` (a view's value that no value of the base maps to
    /// was assigned).
    fn wipe(&mut self, x: VarId) -> Result<u64, Wipeout> {
        self.clear(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store_with_views(specs: &[(Value, Value)], views: &[View]) -> Domains {
        let declared = specs.iter().map(|&(a, b)| (a, b, None));
        Domains::with_views(declared, views.to_vec(), 64)
    }

    fn view(base: u32, scale: i64, offset: i64) -> View {
        View {
            base,
            scale,
            offset,
        }
    }

    #[test]
    fn quotients_round_down_and_up_for_every_sign() {
        for a in [-3, -2, -1, 1, 2, 3] {
            let w = view(0, a, 5);
            for bound in -20..=20 {
                let exact = (bound - 5) as f64 / a as f64;
                assert_eq!(
                    w.quotients(bound),
                    (exact.floor() as i128, exact.ceil() as i128),
                    "a = {a}, bound = {bound}"
                );
            }
        }
    }

    #[test]
    fn reads_translate_with_negative_scale_and_holes() {
        // x in 0..=4; y = -3x + 1: {-11, -8, -5, -2, 1}; z = 2x: {0, 2, 4, 6, 8}.
        let d = store_with_views(&[(0, 4)], &[view(0, -3, 1), view(0, 2, 0)]);
        let (y, z) = (VarId::new(1), VarId::new(2));
        assert_eq!(d.num_vars(), 3);
        assert_eq!((d.min(y), d.max(y), d.len(y)), (-11, 1, 5));
        assert_eq!(d.values(y).collect::<Vec<_>>(), [-11, -8, -5, -2, 1]);
        assert!(d.contains(y, -8) && !d.contains(y, -7) && !d.contains(y, 4));
        assert_eq!(d.next_value(y, -8), Some(-5));
        assert_eq!(d.next_value(y, -9), Some(-8));
        assert_eq!(d.next_value(y, 1), None);
        assert_eq!(d.next_value(y, Value::MIN), Some(-11));
        assert_eq!(d.prev_value(y, -8), Some(-11));
        assert_eq!(d.prev_value(y, Value::MAX), Some(1));
        assert_eq!(d.prev_value(y, -11), None);
        assert_eq!(d.select(y, 1), Some(-8));
        assert_eq!(d.values(z).collect::<Vec<_>>(), [0, 2, 4, 6, 8]);
        assert_eq!(d.next_value(z, 3), Some(4));
        assert_eq!(d.prev_value(z, 3), Some(2));
        assert_eq!(d.value(z), None);
    }

    #[test]
    fn changes_round_bounds_and_land_on_the_base() {
        let mut d = store_with_views(&[(0, 10)], &[view(0, -3, 1), view(0, 2, 0)]);
        let (x, y, z) = (VarId::new(0), VarId::new(1), VarId::new(2));
        d.push_level();
        // y >= -14: -3x + 1 >= -14, x <= 5.
        assert_eq!(d.remove_below(y, -14), Ok(5));
        assert_eq!(d.max(x), 5);
        // y <= -3 (rounded): x >= 4/3, x >= 2.
        assert_eq!(d.remove_above(y, -3), Ok(2));
        assert_eq!((d.min(x), d.max(x)), (2, 5));
        assert_eq!((d.min(y), d.max(y)), (-14, -5));
        // z = 2x: odd values are not there; 8 is x = 4.
        assert_eq!(d.remove(z, 7), Ok(false));
        assert_eq!(d.remove(z, 8), Ok(true));
        assert!(!d.contains(x, 4));
        // z <= 9 keeps x <= 4; z >= 5 keeps x >= 3.
        assert_eq!(d.remove_above(z, 9), Ok(1));
        assert_eq!(d.remove_below(z, 5), Ok(1));
        assert_eq!(d.values(x).collect::<Vec<_>>(), [3]);
        assert_eq!(d.value(y), Some(-8));
        d.pop_level();
        assert_eq!(d.len(x), 11);
        d.push_level();
        assert_eq!(d.assign(z, 6), Ok(10));
        assert_eq!(d.value(x), Some(3));
        d.pop_level();
        d.push_level();
        // No x gives 2x = 5: the base empties.
        assert_eq!(d.assign(z, 5), Err(Wipeout));
        d.pop_level();
        // Bounds past the engine's range remove everything or nothing.
        d.push_level();
        assert_eq!(d.remove_below(y, Value::MIN), Ok(0));
        assert_eq!(d.remove_above(z, Value::MAX), Ok(0));
        assert_eq!(d.remove_below(z, Value::MAX), Err(Wipeout));
        d.pop_level();
        assert_eq!(d.len(x), 11);
    }
}
