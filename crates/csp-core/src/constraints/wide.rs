//! The integer types sums compute in (`i64` where the post-time check proves
//! it exact, `i128` otherwise), and a term's bounds.

use super::ranges::{ceil_div, floor_div};
use crate::{Domains, Value, VarId};

/// The integer types the linear filtering computes in.
pub(crate) trait Wide:
    Copy
    + Ord
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Neg<Output = Self>
    + std::ops::AddAssign
{
    const ZERO: Self;
    const ONE: Self;
    fn of(v: Value) -> Self;
    fn floor_div(self, b: Self) -> Self;
    fn ceil_div(self, b: Self) -> Self;
    /// Clamped into `Value`'s range.
    fn value(self) -> Value;
}

impl Wide for i128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    #[inline]
    fn of(v: Value) -> Self {
        i128::from(v)
    }
    #[inline]
    fn floor_div(self, b: Self) -> Self {
        floor_div(self, b)
    }
    #[inline]
    fn ceil_div(self, b: Self) -> Self {
        ceil_div(self, b)
    }
    #[inline]
    fn value(self) -> Value {
        clamp(self)
    }
}

impl Wide for i64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    #[inline]
    fn of(v: Value) -> Self {
        v
    }
    #[inline]
    fn floor_div(self, b: Self) -> Self {
        let q = self / b;
        if self % b != 0 && ((self < 0) != (b < 0)) {
            q - 1
        } else {
            q
        }
    }
    #[inline]
    fn ceil_div(self, b: Self) -> Self {
        let q = self / b;
        if self % b != 0 && ((self < 0) == (b < 0)) {
            q + 1
        } else {
            q
        }
    }
    #[inline]
    fn value(self) -> Value {
        self
    }
}

#[inline]
pub(crate) fn term<W: Wide>(a: W, d: &Domains, x: VarId) -> (W, W) {
    let (lo, hi) = (W::of(d.min(x)), W::of(d.max(x)));
    if a >= W::ZERO {
        (a * lo, a * hi)
    } else {
        (a * hi, a * lo)
    }
}

/// `n / a` if `a` divides `n` exactly (`a != 0`): the one value of a unit term
/// `a * x` that makes a sum reach its bound. A unit coefficient is answered
/// without the 128-bit division, which was 9% of a search over `x != y`
/// (`search_stress`, `perf`).
#[inline]
pub(crate) fn exact_quotient(n: i128, a: i128) -> Option<i128> {
    match a {
        1 => Some(n),
        -1 => Some(-n),
        _ => (n % a == 0).then(|| n / a),
    }
}

/// `v` clamped into `Value`'s range.
fn clamp(v: i128) -> Value {
    v.clamp(i128::from(Value::MIN), i128::from(Value::MAX)) as Value
}

#[cfg(test)]
mod tests {
    use super::exact_quotient;

    #[test]
    fn exact_quotient_is_the_division_when_it_is_exact() {
        let big = i128::from(i64::MAX) * 3;
        for n in [-7, -6, 0, 5, 6, big, -big, i128::from(i64::MIN)] {
            for a in [1, -1, 2, -3, 7] {
                let want = (n % a == 0).then(|| n / a);
                assert_eq!(exact_quotient(n, a), want, "{n} / {a}");
            }
        }
    }
}
