//! Expressions over the instance's variables: `intension` trees and the
//! operands of global constraints, with their XCSP3 meaning ([`Expr::eval`]).

use xcsp3_serde::SimpleRef;
use xcsp3_serde::expression::{BoolExp, Exp, IntExp, SetExp};

use crate::error::{Error, Result};
use crate::names::Names;

/// An operator of XCSP3-core's functional syntax (Booleans are 0 and 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Op {
    Neg,
    Abs,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Sqr,
    Pow,
    Min,
    Max,
    Dist,
    If,
    Not,
    And,
    Or,
    Xor,
    Iff,
    Imp,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    /// Whether the operator's value is a Boolean (0 or 1).
    pub fn is_boolean(self) -> bool {
        matches!(
            self,
            Op::Not
                | Op::And
                | Op::Or
                | Op::Xor
                | Op::Iff
                | Op::Imp
                | Op::Eq
                | Op::Ne
                | Op::Lt
                | Op::Le
                | Op::Gt
                | Op::Ge
        )
    }
}

/// An integer (or Boolean, as 0/1) expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A constant.
    Const(i64),
    /// A variable, by its number in [`Names::vars`].
    Var(usize),
    /// An operator applied to its arguments.
    Call(Op, Vec<Expr>),
    /// `in(x, set(...))` (`negated`: `notin`): whether `x` is one of the values.
    In(Box<Expr>, Vec<Expr>),
}

impl Expr {
    /// The value under `values` (indexed by variable); `None` when undefined
    /// (a division by zero, an overflow).
    pub fn eval(&self, values: &[i64]) -> Option<i64> {
        let b = |x: bool| Some(i64::from(x));
        Some(match self {
            Expr::Const(c) => *c,
            Expr::Var(v) => *values.get(*v)?,
            Expr::In(x, set) => {
                let x = x.eval(values)?;
                let mut found = false;
                for e in set {
                    found |= e.eval(values)? == x;
                }
                i64::from(found)
            }
            Expr::Call(op, args) => {
                if *op == Op::If {
                    let c = args.first()?.eval(values)?;
                    return args.get(if c != 0 { 1 } else { 2 })?.eval(values);
                }
                let a: Option<Vec<i64>> = args.iter().map(|e| e.eval(values)).collect();
                let a = a?;
                let x = *a.first()?;
                let y = a.get(1).copied();
                match op {
                    Op::Neg => x.checked_neg()?,
                    Op::Abs => x.checked_abs()?,
                    Op::Add => a.iter().try_fold(0i64, |s, &v| s.checked_add(v))?,
                    Op::Sub => x.checked_sub(y?)?,
                    Op::Mul => a.iter().try_fold(1i64, |s, &v| s.checked_mul(v))?,
                    Op::Div => x.checked_div(y?)?,
                    Op::Mod => x.checked_rem(y?)?,
                    Op::Sqr => x.checked_mul(x)?,
                    Op::Pow => x.checked_pow(u32::try_from(y?).ok()?)?,
                    Op::Min => *a.iter().min()?,
                    Op::Max => *a.iter().max()?,
                    Op::Dist => x.checked_sub(y?)?.checked_abs()?,
                    Op::If => unreachable!("handled above"),
                    Op::Not => return b(x == 0),
                    Op::And => return b(a.iter().all(|&v| v != 0)),
                    Op::Or => return b(a.iter().any(|&v| v != 0)),
                    Op::Xor => return b(a.iter().filter(|&&v| v != 0).count() % 2 == 1),
                    Op::Iff => return b(a.iter().all(|&v| (v != 0) == (x != 0))),
                    Op::Imp => return b(x == 0 || y? != 0),
                    Op::Eq => return b(a.iter().all(|&v| v == x)),
                    Op::Ne => return b(x != y?),
                    Op::Lt => return b(x < y?),
                    Op::Le => return b(x <= y?),
                    Op::Gt => return b(x > y?),
                    Op::Ge => return b(x >= y?),
                }
            }
        })
    }

    /// The variables the expression reads, in order of first appearance.
    pub fn vars(&self, out: &mut Vec<usize>) {
        match self {
            Expr::Const(_) => {}
            Expr::Var(v) => {
                if !out.contains(v) {
                    out.push(*v)
                }
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.vars(out)),
            Expr::In(x, set) => {
                x.vars(out);
                set.iter().for_each(|a| a.vars(out));
            }
        }
    }

    /// The constant, if the expression is one.
    pub fn as_const(&self) -> Option<i64> {
        match self {
            Expr::Const(c) => Some(*c),
            _ => None,
        }
    }
}

/// Converts `xcsp3-serde`'s expressions to [`Expr`], looking variables up in
/// `names`.
pub(crate) struct Convert<'a> {
    pub(crate) names: &'a Names,
}

fn unsupported(what: &str) -> Error {
    Error::Unsupported(format!("{what} (set expressions are not in XCSP3-core)"))
}

impl Convert<'_> {
    pub(crate) fn var(&self, r: &SimpleRef<String>) -> Result<Expr> {
        Ok(Expr::Var(self.names.var(r)?))
    }

    pub(crate) fn int(&self, e: &IntExp<SimpleRef<String>>) -> Result<Expr> {
        let call = |op: Op, args: Vec<Expr>| Ok(Expr::Call(op, args));
        let all = |es: &[IntExp<SimpleRef<String>>]| {
            es.iter().map(|e| self.int(e)).collect::<Result<Vec<_>>>()
        };
        match e {
            IntExp::Const(c) => Ok(Expr::Const(*c)),
            IntExp::Var(r) => self.var(r),
            IntExp::Neg(a) => call(Op::Neg, vec![self.int(a)?]),
            IntExp::Abs(a) => call(Op::Abs, vec![self.int(a)?]),
            IntExp::Add(v) => call(Op::Add, all(v)?),
            IntExp::Sub(a, b) => call(Op::Sub, vec![self.int(a)?, self.int(b)?]),
            IntExp::Mul(v) => call(Op::Mul, all(v)?),
            IntExp::Div(a, b) => call(Op::Div, vec![self.int(a)?, self.int(b)?]),
            IntExp::Mod(a, b) => call(Op::Mod, vec![self.int(a)?, self.int(b)?]),
            IntExp::Sqr(a) => call(Op::Sqr, vec![self.int(a)?]),
            IntExp::Pow(a, b) => call(Op::Pow, vec![self.int(a)?, self.int(b)?]),
            IntExp::Min(v) => call(Op::Min, all(v)?),
            IntExp::Max(v) => call(Op::Max, all(v)?),
            IntExp::Dist(a, b) => call(Op::Dist, vec![self.int(a)?, self.int(b)?]),
            IntExp::If(c, a, b) => call(Op::If, vec![self.boolean(c)?, self.int(a)?, self.int(b)?]),
            IntExp::Bool(b) => self.boolean(b),
            IntExp::Card(_) => Err(unsupported("card")),
        }
    }

    pub(crate) fn boolean(&self, e: &BoolExp<SimpleRef<String>>) -> Result<Expr> {
        let call = |op: Op, args: Vec<Expr>| Ok(Expr::Call(op, args));
        let all = |es: &[BoolExp<SimpleRef<String>>]| {
            es.iter()
                .map(|e| self.boolean(e))
                .collect::<Result<Vec<_>>>()
        };
        match e {
            BoolExp::Const(b) => Ok(Expr::Const(i64::from(*b))),
            BoolExp::Var(r) => self.var(r),
            BoolExp::Not(a) => call(Op::Not, vec![self.boolean(a)?]),
            BoolExp::And(v) => call(Op::And, all(v)?),
            BoolExp::Or(v) => call(Op::Or, all(v)?),
            BoolExp::Xor(v) => call(Op::Xor, all(v)?),
            BoolExp::Equiv(v) => call(Op::Iff, all(v)?),
            BoolExp::Implies(a, b) => call(Op::Imp, vec![self.boolean(a)?, self.boolean(b)?]),
            BoolExp::LessThan(a, b) => call(Op::Lt, vec![self.int(a)?, self.int(b)?]),
            BoolExp::LessThanEq(a, b) => call(Op::Le, vec![self.int(a)?, self.int(b)?]),
            BoolExp::GreaterThan(a, b) => call(Op::Gt, vec![self.int(a)?, self.int(b)?]),
            BoolExp::GreaterThanEq(a, b) => call(Op::Ge, vec![self.int(a)?, self.int(b)?]),
            BoolExp::NotEqual(a, b) => call(Op::Ne, vec![self.any(a)?, self.any(b)?]),
            BoolExp::Equal(v) => call(
                Op::Eq,
                v.iter().map(|e| self.any(e)).collect::<Result<Vec<_>>>()?,
            ),
            BoolExp::Member(x, s) => Ok(Expr::In(Box::new(self.int(x)?), self.set(s)?)),
            _ => Err(unsupported("a set relation")),
        }
    }

    pub(crate) fn any(&self, e: &Exp<SimpleRef<String>>) -> Result<Expr> {
        match e {
            Exp::Bool(b) => self.boolean(b),
            Exp::Int(i) => self.int(i),
            Exp::Var(r) => self.var(r),
            Exp::Set(_) => Err(unsupported("a set")),
        }
    }

    /// The elements of a constant-size set: `set(...)` or a range `a..b` of
    /// constants (at most 2^20 values).
    pub(crate) fn set(&self, s: &SetExp<SimpleRef<String>>) -> Result<Vec<Expr>> {
        match s {
            SetExp::Set(v) => v.iter().map(|e| self.int(e)).collect(),
            SetExp::Range((a, b)) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                match (a.as_const(), b.as_const()) {
                    (Some(a), Some(b)) if (b as i128 - a as i128) < (1 << 20) => {
                        Ok((a..=b).map(Expr::Const).collect())
                    }
                    (Some(_), Some(_)) => Err(Error::Translate(
                        "a range of more than 2^20 values in a set".into(),
                    )),
                    _ => Err(unsupported("a range with variable bounds")),
                }
            }
            _ => Err(unsupported("a set operation")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_follows_xcsp_semantics() {
        let x = || Expr::Var(0);
        let e = Expr::Call(Op::Dist, vec![x(), Expr::Const(5)]);
        assert_eq!(e.eval(&[2]), Some(3));
        let d = Expr::Call(Op::Div, vec![x(), Expr::Const(0)]);
        assert_eq!(d.eval(&[2]), None);
        let m = Expr::Call(Op::Mod, vec![Expr::Const(-7), Expr::Const(2)]);
        assert_eq!(m.eval(&[]), Some(-1));
        let i = Expr::Call(
            Op::If,
            vec![
                Expr::Call(Op::Gt, vec![x(), Expr::Const(0)]),
                Expr::Const(1),
                Expr::Const(2),
            ],
        );
        assert_eq!(i.eval(&[0]), Some(2));
        assert_eq!(
            Expr::In(Box::new(x()), vec![Expr::Const(1), Expr::Const(3)]).eval(&[3]),
            Some(1)
        );
    }
}
