//! Truth: posting a Boolean expression as a constraint, and reifying one
//! into a 0/1 variable (linear comparisons, clauses, memberships).

use csp_core::constraints::{BoolOr, Lit, Relation};
use csp_core::{Value, VarId};

use super::{T, call, relation};
use crate::error::{Error, Result};
use crate::expr::{Expr, Op};
use crate::flat::Cond;
use crate::names::MAX_LISTED_VALUES;

impl T {
    /// Posts `e` as a constraint (it must hold).
    pub(crate) fn post(&mut self, e: &Expr) -> Result<()> {
        match e {
            Expr::Const(c) => {
                if *c == 0 {
                    let z = self.constant(0)?;
                    self.m.linear(&[1], &[z], Relation::Eq, 1)?;
                }
            }
            Expr::Call(Op::And, args) => {
                for a in args {
                    self.post(a)?;
                }
            }
            Expr::Call(op @ (Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Ne), args)
                if args.len() == 2 =>
            {
                let (coeffs, vars, rhs) = self.comparison(&args[0], &args[1])?;
                if vars.is_empty() {
                    return self.post(&Expr::Const(i64::from(
                        relation(*op).holds(0, i128::from(rhs)),
                    )));
                }
                self.m.linear(&coeffs, &vars, relation(*op), rhs)?;
            }
            Expr::Call(Op::Eq, args) if args.len() >= 2 => {
                for w in args.windows(2) {
                    let (coeffs, vars, rhs) = self.comparison(&w[0], &w[1])?;
                    if vars.is_empty() {
                        self.post(&Expr::Const(i64::from(rhs == 0)))?;
                    } else {
                        self.m.linear(&coeffs, &vars, Relation::Eq, rhs)?;
                    }
                }
            }
            Expr::Call(Op::Or, args) => {
                let lits = args
                    .iter()
                    .map(|a| self.lit(a))
                    .collect::<Result<Vec<_>>>()?;
                self.m.post(BoolOr::clause(&lits))?;
            }
            Expr::Call(Op::Imp, args) if args.len() == 2 => {
                let lits = vec![self.lit(&args[0])?.negated(), self.lit(&args[1])?];
                self.m.post(BoolOr::clause(&lits))?;
            }
            Expr::Call(Op::Not, args) if args.len() == 1 => {
                let b = self.reify(&args[0])?;
                self.m.linear(&[1], &[b], Relation::Eq, 0)?;
            }
            Expr::In(x, set) if set.iter().all(|s| s.as_const().is_some()) => {
                let v = self.term(x)?;
                let tuples: Vec<Vec<Value>> = set
                    .iter()
                    .filter_map(Expr::as_const)
                    .map(|c| vec![c])
                    .collect();
                self.m.table(&[v], tuples)?;
            }
            e => {
                let b = self.reify(e)?;
                self.m.linear(&[1], &[b], Relation::Eq, 1)?;
            }
        }
        Ok(())
    }

    /// A literal for the truth of `e`.
    fn lit(&mut self, e: &Expr) -> Result<Lit> {
        if let Expr::Call(Op::Not, args) = e
            && args.len() == 1
        {
            return Ok(self.lit(&args[0])?.negated());
        }
        Ok(Lit::pos(self.reify(e)?))
    }

    /// A 0/1 variable equal to the truth of `e`.
    pub(crate) fn reify(&mut self, e: &Expr) -> Result<VarId> {
        if let Expr::Var(i) = e {
            let v = self.vars[*i];
            if self.is_bool_var(v)? {
                return Ok(v);
            }
        }
        let key = format!("reify {e:?}");
        if let Some(&v) = self.cache.get(&key) {
            return Ok(v);
        }
        let b = self.reify_uncached(e)?;
        self.cache.insert(key, b);
        Ok(b)
    }

    fn reify_uncached(&mut self, e: &Expr) -> Result<VarId> {
        let (op, args) = match e {
            Expr::Const(c) => return self.constant(i64::from(*c != 0)),
            Expr::In(x, set) if set.iter().any(|s| s.as_const().is_none()) => {
                // Variables among the values: one equality each.
                let eqs = set
                    .iter()
                    .map(|s| call(Op::Eq, vec![(**x).clone(), s.clone()]))
                    .collect();
                return self.reify(&call(Op::Or, eqs));
            }
            Expr::In(x, set) => {
                let x = self.term(x)?;
                let set: Vec<i64> = set.iter().filter_map(Expr::as_const).collect();
                let dom = self.m.domain(x)?.clone();
                if dom.len() as u64 > MAX_LISTED_VALUES {
                    return Err(Error::Translate(
                        "`in` over a domain larger than 2^20 values".into(),
                    ));
                }
                let b = self.m.bool_var();
                let tuples = dom
                    .values()
                    .into_iter()
                    .map(|v| vec![v, i64::from(set.contains(&v))])
                    .collect();
                self.m.table(&[x, b], tuples)?;
                return Ok(b);
            }
            Expr::Call(op, args) if op.is_boolean() => (*op, args),
            e => {
                // An integer used as a truth value: true when not 0.
                let v = self.term(e)?;
                let b = self.m.bool_var();
                self.m.linear_reif(&[1], &[v], Relation::Ne, 0, b)?;
                return Ok(b);
            }
        };
        let b = self.m.bool_var();
        match op {
            Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Ne | Op::Eq if args.len() == 2 => {
                let (coeffs, vars, rhs) = self.comparison(&args[0], &args[1])?;
                if vars.is_empty() {
                    return self.constant(i64::from(relation(op).holds(0, i128::from(rhs))));
                }
                self.m.linear_reif(&coeffs, &vars, relation(op), rhs, b)?;
            }
            Op::Eq => {
                let pairs = args.windows(2).map(|w| call(Op::Eq, w.to_vec())).collect();
                return self.reify(&call(Op::And, pairs));
            }
            Op::Not if args.len() == 1 => {
                let a = self.reify(&args[0])?;
                self.m.linear(&[1, 1], &[a, b], Relation::Eq, 1)?;
            }
            Op::Or | Op::And => {
                let mut lits = args
                    .iter()
                    .map(|a| self.lit(a))
                    .collect::<Result<Vec<_>>>()?;
                if op == Op::Or {
                    self.m.post(BoolOr::reified(&lits, Lit::pos(b)))?;
                } else {
                    lits.iter_mut().for_each(|l| *l = l.negated());
                    self.m.post(BoolOr::reified(&lits, Lit::neg(b)))?;
                }
            }
            Op::Imp if args.len() == 2 => {
                return self.reify(&call(
                    Op::Or,
                    vec![call(Op::Not, vec![args[0].clone()]), args[1].clone()],
                ));
            }
            Op::Iff if args.len() >= 2 => {
                if args.len() > 2 {
                    let pairs = args.windows(2).map(|w| call(Op::Iff, w.to_vec())).collect();
                    return self.reify(&call(Op::And, pairs));
                }
                let (x, y) = (self.reify(&args[0])?, self.reify(&args[1])?);
                self.m.linear_reif(&[1, -1], &[x, y], Relation::Eq, 0, b)?;
            }
            Op::Xor => {
                let bits = args
                    .iter()
                    .map(|a| self.reify(a))
                    .collect::<Result<Vec<_>>>()?;
                let bits: Vec<Expr> = bits.into_iter().map(|v| self.expr_of(v)).collect();
                let sum = self.term(&call(Op::Add, bits))?;
                let two = self.constant(2)?;
                self.m.modulo(sum, two, b)?;
            }
            _ => {
                return Err(Error::Translate(format!(
                    "{op:?} with {} arguments",
                    args.len()
                )));
            }
        }
        Ok(b)
    }

    /// Posts `cond` on the value of `lhs`.
    pub(crate) fn post_cond(&mut self, lhs: Expr, cond: &Cond) -> Result<()> {
        match cond {
            Cond::Rel(op, rhs) => self.post(&call(*op, vec![lhs, rhs.clone()])),
            Cond::In(set) => {
                let (lo, hi) = (set.iter().min().copied(), set.iter().max().copied());
                match (lo, hi) {
                    (Some(lo), Some(hi)) if (hi as i128 - lo as i128 + 1) == set.len() as i128 => {
                        self.post(&call(Op::Ge, vec![lhs.clone(), Expr::Const(lo)]))?;
                        self.post(&call(Op::Le, vec![lhs, Expr::Const(hi)]))
                    }
                    _ => self.post(&Expr::In(
                        Box::new(lhs),
                        set.iter().map(|&c| Expr::Const(c)).collect(),
                    )),
                }
            }
        }
    }
}
