//! The integer functions of [`Func`](super::Func) themselves: their values
//! with MiniZinc's semantics, and the bounds of their results.

use crate::Value;

/// An integer function with MiniZinc's semantics: `div` rounds towards zero, `mod`
/// takes the sign of the dividend, and both are undefined for a zero divisor;
/// `pow` with a negative exponent is `1 div pow(x, -y)` (undefined for `x = 0`).
/// A result that overflows 64 bits is undefined too: where a function is
/// undefined, no value of the result satisfies the constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Function {
    /// `x * y` (`int_times`)
    Times,
    /// `x div y` (`int_div`)
    Div,
    /// `x mod y` (`int_mod`)
    Mod,
    /// `x ^ y` (`int_pow`)
    Pow,
    /// `min(x, y)` (`int_min`)
    Min,
    /// `max(x, y)` (`int_max`)
    Max,
    /// `|x|` (`int_abs`, one argument)
    Abs,
    /// `|x - y|`
    Distance,
}

impl Function {
    /// The function's value, or `None` where it is undefined.
    ///
    /// ```
    /// use csp_core::constraints::Function;
    /// assert_eq!(Function::Div.apply(-7, 2), Some(-3));
    /// assert_eq!(Function::Mod.apply(-7, 2), Some(-1));
    /// assert_eq!(Function::Mod.apply(i64::MIN, -1), Some(0)); // only the quotient overflows
    /// assert_eq!(Function::Div.apply(i64::MIN, -1), None);
    /// assert_eq!(Function::Pow.apply(-2, 3), Some(-8));
    /// assert_eq!(Function::Pow.apply(2, -1), Some(0));
    /// assert_eq!(Function::Div.apply(1, 0), None);
    /// assert_eq!(Function::Distance.apply(2, 7), Some(5));
    /// ```
    pub fn apply(self, x: Value, y: Value) -> Option<Value> {
        match self {
            Function::Times => x.checked_mul(y),
            Function::Div => x.checked_div(y),
            // MIN mod -1 is 0: only the quotient overflows (checked_rem says None).
            Function::Mod if y == -1 => Some(0),
            Function::Mod => x.checked_rem(y),
            Function::Pow => pow(x, y),
            Function::Min => Some(x.min(y)),
            Function::Max => Some(x.max(y)),
            Function::Abs => x.checked_abs(),
            Function::Distance => x.checked_sub(y).and_then(Value::checked_abs),
        }
    }

    /// Whether the function takes one argument.
    pub fn is_unary(self) -> bool {
        self == Function::Abs
    }

    /// The constraint's name in traces and messages.
    pub fn name(self) -> &'static str {
        match self {
            Function::Times => "times",
            Function::Div => "div",
            Function::Mod => "modulo",
            Function::Pow => "pow",
            Function::Min => "min",
            Function::Max => "max",
            Function::Abs => "abs",
            Function::Distance => "distance",
        }
    }

    /// Bounds of the result over `x in [xl, xh]`, `y in [yl, yh]`, when the
    /// function is monotone enough for its corners to bound it.
    pub(super) fn interval(
        self,
        (xl, xh): (i128, i128),
        (yl, yh): (i128, i128),
    ) -> Option<(i128, i128)> {
        match self {
            Function::Times => {
                let c = [xl * yl, xl * yh, xh * yl, xh * yh];
                Some((c.iter().copied().min()?, c.iter().copied().max()?))
            }
            Function::Min => Some((xl.min(yl), xh.min(yh))),
            Function::Max => Some((xl.max(yl), xh.max(yh))),
            Function::Abs => Some(abs_interval(xl, xh)),
            Function::Distance => Some(abs_interval(xl - yh, xh - yl)),
            Function::Div | Function::Mod | Function::Pow => None,
        }
    }
}

/// The bounds of `|v|` for `v` in `[lo, hi]`.
fn abs_interval(lo: i128, hi: i128) -> (i128, i128) {
    if lo >= 0 {
        (lo, hi)
    } else if hi <= 0 {
        (-hi, -lo)
    } else {
        (0, hi.max(-lo))
    }
}

fn pow(x: Value, y: Value) -> Option<Value> {
    if y >= 0 {
        let e = u32::try_from(y).ok();
        return match (x, e) {
            (0 | 1, _) => Some(if y == 0 { 1 } else { x }),
            (-1, _) => Some(if y % 2 == 0 { 1 } else { -1 }),
            (_, Some(e)) => x.checked_pow(e),
            (_, None) => None,
        };
    }
    match x {
        0 => None,
        1 => Some(1),
        -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
        _ => Some(0),
    }
}
