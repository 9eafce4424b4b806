//! Interval arithmetic for bounds reasoning: scaled ranges and rounded
//! divisions (linear constraints and the FlatZinc front end use them).

/// The smallest and largest value of `a * x` for `x` in `[lo, hi]`: the
/// interval arithmetic of linear bounds reasoning (the FlatZinc front end's
/// bounds inference uses it too).
///
/// ```
/// use csp_core::constraints::scaled_range;
/// assert_eq!(scaled_range(3, -1, 2), (-3, 6));
/// assert_eq!(scaled_range(-3, -1, 2), (-6, 3));
/// ```
#[inline]
pub fn scaled_range(a: i128, lo: i128, hi: i128) -> (i128, i128) {
    if a >= 0 {
        (a * lo, a * hi)
    } else {
        (a * hi, a * lo)
    }
}

/// The integers `x` with `a * x` in `[lo, hi]` (`a != 0`), as the interval
/// `[first, last]` (empty when `first > last`).
///
/// ```
/// use csp_core::constraints::divide_range;
/// assert_eq!(divide_range(2, -3, 7), (-1, 3));
/// assert_eq!(divide_range(-2, -3, 7), (-3, 1));
/// ```
pub fn divide_range(a: i128, lo: i128, hi: i128) -> (i128, i128) {
    if a > 0 {
        (ceil_div(lo, a), floor_div(hi, a))
    } else {
        (ceil_div(hi, a), floor_div(lo, a))
    }
}

/// `a / b` rounded toward negative infinity (`b != 0`); stable Rust has no
/// signed `div_floor` yet. Bounds reasoning on `c * x <= s` needs it.
///
/// ```
/// use csp_core::constraints::{ceil_div, floor_div};
/// assert_eq!((floor_div(-7, 2), ceil_div(-7, 2)), (-4, -3));
/// assert_eq!((floor_div(7, -2), ceil_div(7, -2)), (-4, -3));
/// ```
pub fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `a / b` rounded toward positive infinity (`b != 0`); see [`floor_div`].
pub fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}
