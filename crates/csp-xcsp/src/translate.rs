//! XCSP3-core to a [`csp_core::Model`]: variables one to one, `intension`
//! trees through linear constraints, reified linear constraints, clauses
//! and auxiliary variables ([`intension`](self)), global constraints to
//! the engine's own or to a decomposition ([`globals`]).

mod globals;
mod logic;

use std::collections::HashMap;

use csp_core::constraints::{Func, Function, Relation};
use csp_core::{Domain, Goal as CoreGoal, Model, VarId};

use crate::error::{Error, Result};
use crate::expr::{Expr, Op};
use crate::flat::{ObjKind, Problem};
use crate::names::MAX_LISTED_VALUES;

/// The widest range an auxiliary variable may have (values beyond are refused
/// rather than risk overflow in the engine's sums).
const MAX_BOUND: i128 = 1 << 60;

/// A translated instance.
pub struct Translation {
    /// The engine's model.
    pub model: Model,
    /// The engine variable of each instance variable (`Names::vars` order).
    pub vars: Vec<VarId>,
    /// The objective variable and direction, if any.
    pub objective: Option<(VarId, CoreGoal)>,
}

/// Translates `problem`.
///
/// ```
/// let xml = r#"<instance format="XCSP3" type="COP"><variables><array id="x" size="[3]"> 0..5 </array></variables>
///   <constraints><allDifferent> x[] </allDifferent><intension> le(add(x[0],x[1]),x[2]) </intension></constraints>
///   <objectives><maximize> x[0] </maximize></objectives></instance>"#;
/// let p = csp_xcsp::Problem::new(&csp_xcsp::parse_instance(xml)?)?;
/// let t = csp_xcsp::translate(&p)?;
/// assert_eq!(t.vars.len(), 3);
/// assert!(t.objective.is_some());
/// # Ok::<(), csp_xcsp::Error>(())
/// ```
pub fn translate(problem: &Problem) -> Result<Translation> {
    let mut t = T {
        m: Model::new(),
        vars: Vec::new(),
        consts: HashMap::new(),
        cache: HashMap::new(),
    };
    for v in &problem.names.vars {
        let domain = domain_of(&v.domain)
            .map_err(|e| Error::Translate(format!("variable {}: {e}", v.name)))?;
        let id = t.m.named_int_var(v.name.clone(), domain)?;
        t.vars.push(id);
    }
    let n = t.vars.len();
    for c in &problem.constraints {
        t.constraint(c)?;
    }
    let objective = match &problem.goal {
        None => None,
        Some(g) => {
            let e = match &g.kind {
                ObjKind::Sum { list, coeffs } => Expr::Call(
                    Op::Add,
                    list.iter()
                        .zip(coeffs)
                        .map(|(e, &c)| Expr::Call(Op::Mul, vec![Expr::Const(c), e.clone()]))
                        .collect(),
                ),
                ObjKind::Maximum(l) => Expr::Call(Op::Max, l.clone()),
                ObjKind::Minimum(l) => Expr::Call(Op::Min, l.clone()),
                ObjKind::NValues(l) => t.nvalues_expr(l, &[])?,
            };
            let v = t.term(&e)?;
            Some((
                v,
                if g.minimize {
                    CoreGoal::Minimize
                } else {
                    CoreGoal::Maximize
                },
            ))
        }
    };
    let mut vars = t.vars;
    vars.truncate(n);
    Ok(Translation {
        model: t.m,
        vars,
        objective,
    })
}

fn domain_of(ranges: &[(i64, i64)]) -> std::result::Result<Domain, String> {
    match ranges {
        [] => Err("empty domain".into()),
        [(lo, hi)] => Ok(Domain::from(*lo..=*hi)),
        _ => {
            let count: u64 = ranges
                .iter()
                .map(|&(a, b)| (b as i128 - a as i128 + 1) as u64)
                .sum();
            if count > MAX_LISTED_VALUES {
                return Err(format!(
                    "a domain of {count} values in several ranges (limit {MAX_LISTED_VALUES})"
                ));
            }
            Ok(Domain::from_values(ranges.iter().flat_map(|&(a, b)| a..=b)))
        }
    }
}

/// A linear form `sum coeffs * vars + constant`.
#[derive(Default)]
struct Lin {
    terms: Vec<(i64, VarId)>,
    constant: i128,
}

pub(crate) struct T {
    pub(crate) m: Model,
    /// Engine variables; the first ones are the instance's, then auxiliary
    /// variables that expressions name as `Expr::Var(k)` too.
    pub(crate) vars: Vec<VarId>,
    consts: HashMap<i64, VarId>,
    cache: HashMap<String, VarId>,
}

fn relation(op: Op) -> Relation {
    match op {
        Op::Lt => Relation::Lt,
        Op::Le => Relation::Le,
        Op::Gt => Relation::Gt,
        Op::Ge => Relation::Ge,
        Op::Eq => Relation::Eq,
        _ => Relation::Ne,
    }
}

fn call(op: Op, args: Vec<Expr>) -> Expr {
    Expr::Call(op, args)
}

impl T {
    /// An expression naming engine variable `v`.
    pub(crate) fn expr_of(&mut self, v: VarId) -> Expr {
        self.vars.push(v);
        Expr::Var(self.vars.len() - 1)
    }

    pub(crate) fn constant(&mut self, c: i64) -> Result<VarId> {
        if let Some(&v) = self.consts.get(&c) {
            return Ok(v);
        }
        let v = self.m.int_var(c..=c)?;
        self.consts.insert(c, v);
        Ok(v)
    }

    pub(crate) fn bounds(&self, v: VarId) -> Result<(i64, i64)> {
        self.m
            .domain(v)?
            .bounds()
            .ok_or_else(|| Error::Translate("an empty domain".into()))
    }

    pub(crate) fn aux(&mut self, lo: i128, hi: i128) -> Result<VarId> {
        if lo > hi {
            return self.constant(0).and_then(|z| {
                self.m.linear(&[1], &[z], Relation::Eq, 1)?;
                Ok(z)
            });
        }
        if lo < -MAX_BOUND || hi > MAX_BOUND {
            return Err(Error::Translate(format!(
                "an intermediate value can reach {}, beyond the 2^60 the translation allows",
                if hi > MAX_BOUND { hi } else { lo }
            )));
        }
        Ok(self.m.int_var(lo as i64..=hi as i64)?)
    }

    fn is_bool_var(&self, v: VarId) -> Result<bool> {
        let (lo, hi) = self.bounds(v)?;
        Ok(lo >= 0 && hi <= 1)
    }

    /// The engine variable holding the value of `e`.
    pub(crate) fn term(&mut self, e: &Expr) -> Result<VarId> {
        match e {
            Expr::Const(c) => return self.constant(*c),
            Expr::Var(i) => return Ok(self.vars[*i]),
            _ => {}
        }
        let key = format!("{e:?}");
        if let Some(&v) = self.cache.get(&key) {
            return Ok(v);
        }
        let v = self.term_uncached(e)?;
        self.cache.insert(key, v);
        Ok(v)
    }

    fn term_uncached(&mut self, e: &Expr) -> Result<VarId> {
        let Expr::Call(op, args) = e else {
            return self.reify(e);
        };
        if op.is_boolean() {
            return self.reify(e);
        }
        let linear_op = matches!(op, Op::Add | Op::Sub | Op::Neg)
            || (*op == Op::Mul && args.iter().filter(|a| a.as_const().is_none()).count() <= 1);
        if linear_op {
            let mut lin = Lin::default();
            self.linear(e, 1, &mut lin)?;
            return self.lin_var(lin);
        }
        let f = |t: &mut T,
                 function: Function,
                 x: VarId,
                 y: Option<VarId>,
                 lo: i128,
                 hi: i128|
         -> Result<VarId> {
            let z = t.aux(lo, hi)?;
            t.m.post(match y {
                Some(y) => Func::binary(function, x, y, z),
                None => Func::unary(function, x, z),
            })?;
            Ok(z)
        };
        let vs = args
            .iter()
            .map(|a| self.term(a))
            .collect::<Result<Vec<_>>>()?;
        let bs = vs
            .iter()
            .map(|&v| self.bounds(v).map(|(a, b)| (a as i128, b as i128)))
            .collect::<Result<Vec<_>>>()?;
        let arity = |n: usize| {
            if vs.len() == n {
                Ok(())
            } else {
                Err(Error::Translate(format!("{op:?} takes {n} arguments")))
            }
        };
        match op {
            Op::Abs => {
                arity(1)?;
                let (a, b) = bs[0];
                let hi = a.abs().max(b.abs());
                let lo = if a <= 0 && 0 <= b {
                    0
                } else {
                    a.abs().min(b.abs())
                };
                f(self, Function::Abs, vs[0], None, lo, hi)
            }
            Op::Dist => {
                arity(2)?;
                let hi = (bs[0].1 - bs[1].0).abs().max((bs[1].1 - bs[0].0).abs());
                f(self, Function::Distance, vs[0], Some(vs[1]), 0, hi)
            }
            Op::Mul | Op::Sqr => {
                let (mut acc, mut rest) = if *op == Op::Sqr {
                    arity(1)?;
                    (vs[0], vec![(vs[0], bs[0])])
                } else {
                    (
                        vs[0],
                        vs[1..]
                            .iter()
                            .copied()
                            .zip(bs[1..].iter().copied())
                            .collect(),
                    )
                };
                let mut ab = bs[0];
                for (v, b) in rest.drain(..) {
                    let corners = [ab.0 * b.0, ab.0 * b.1, ab.1 * b.0, ab.1 * b.1];
                    let lo = *corners.iter().min().unwrap_or(&0);
                    let hi = *corners.iter().max().unwrap_or(&0);
                    acc = f(self, Function::Times, acc, Some(v), lo, hi)?;
                    ab = (lo, hi);
                }
                Ok(acc)
            }
            Op::Div => {
                arity(2)?;
                let m = bs[0].0.abs().max(bs[0].1.abs());
                f(self, Function::Div, vs[0], Some(vs[1]), -m, m)
            }
            Op::Mod => {
                arity(2)?;
                let m = (bs[1].0.abs().max(bs[1].1.abs()) - 1).max(0);
                let (lo, hi) = if bs[0].0 >= 0 {
                    (0, m.min(bs[0].1))
                } else {
                    (-m, m)
                };
                f(self, Function::Mod, vs[0], Some(vs[1]), lo, hi)
            }
            Op::Pow => {
                arity(2)?;
                let (x, y) = (bs[0], bs[1]);
                if (x.1 - x.0 + 1) * (y.1 - y.0 + 1) > 1 << 16 {
                    return Err(Error::Translate("pow over domains too large".into()));
                }
                let mut vals = vec![];
                for a in x.0..=x.1 {
                    for b in y.0.max(0)..=y.1 {
                        if let Some(p) = (a as i64).checked_pow(b as u32) {
                            vals.push(p as i128);
                        }
                    }
                }
                let lo = vals.iter().copied().min().unwrap_or(0);
                let hi = vals.iter().copied().max().unwrap_or(0);
                f(self, Function::Pow, vs[0], Some(vs[1]), lo, hi)
            }
            Op::Min | Op::Max => {
                let lo = bs.iter().map(|b| b.0);
                let hi = bs.iter().map(|b| b.1);
                let (lo, hi) = if *op == Op::Min {
                    (lo.min().unwrap_or(0), hi.min().unwrap_or(0))
                } else {
                    (lo.max().unwrap_or(0), hi.max().unwrap_or(0))
                };
                let z = self.aux(lo, hi)?;
                if *op == Op::Min {
                    self.m.min(&vs, z)?
                } else {
                    self.m.max(&vs, z)?
                };
                Ok(z)
            }
            Op::If => {
                arity(3)?;
                let c = self.reify(&args[0])?;
                let z = self.aux(bs[1].0.min(bs[2].0), bs[1].1.max(bs[2].1))?;
                // z = [else, then][c]
                self.m.element_var(c, &[vs[2], vs[1]], z)?;
                Ok(z)
            }
            _ => unreachable!("linear and Boolean operators are handled above"),
        }
    }

    /// Adds `k * e` to `lin`.
    fn linear(&mut self, e: &Expr, k: i64, lin: &mut Lin) -> Result<()> {
        let overflow = || Error::Translate("a coefficient overflows 64 bits".into());
        match e {
            Expr::Const(c) => lin.constant += i128::from(*c) * i128::from(k),
            Expr::Var(i) => lin.terms.push((k, self.vars[*i])),
            Expr::Call(Op::Add, args) => {
                for a in args {
                    self.linear(a, k, lin)?;
                }
            }
            Expr::Call(Op::Sub, args) if args.len() == 2 => {
                self.linear(&args[0], k, lin)?;
                self.linear(&args[1], k.checked_neg().ok_or_else(overflow)?, lin)?;
            }
            Expr::Call(Op::Neg, args) if args.len() == 1 => {
                self.linear(&args[0], k.checked_neg().ok_or_else(overflow)?, lin)?
            }
            Expr::Call(Op::Mul, args)
                if args.iter().filter(|a| a.as_const().is_none()).count() <= 1 =>
            {
                let mut k = k;
                let mut rest = None;
                for a in args {
                    match a.as_const() {
                        Some(c) => k = k.checked_mul(c).ok_or_else(overflow)?,
                        None => rest = Some(a),
                    }
                }
                match rest {
                    Some(a) => self.linear(a, k, lin)?,
                    None => lin.constant += i128::from(k),
                }
            }
            e => {
                let v = self.term(e)?;
                lin.terms.push((k, v));
            }
        }
        Ok(())
    }

    /// Merges repeated variables and drops zero coefficients.
    fn normal(lin: Lin) -> Lin {
        let mut terms: Vec<(i64, VarId)> = Vec::new();
        for (k, v) in lin.terms {
            match terms.iter_mut().find(|t| t.1 == v) {
                Some(t) => t.0 += k,
                None => terms.push((k, v)),
            }
        }
        terms.retain(|t| t.0 != 0);
        Lin {
            terms,
            constant: lin.constant,
        }
    }

    fn lin_bounds(&self, lin: &Lin) -> Result<(i128, i128)> {
        let (mut lo, mut hi) = (lin.constant, lin.constant);
        for &(k, v) in &lin.terms {
            let (a, b) = self.bounds(v)?;
            let (a, b) = (i128::from(k) * i128::from(a), i128::from(k) * i128::from(b));
            lo += a.min(b);
            hi += a.max(b);
        }
        Ok((lo, hi))
    }

    /// A variable equal to `lin`: the variable itself, a view, or an
    /// auxiliary variable tied by a linear equation.
    fn lin_var(&mut self, lin: Lin) -> Result<VarId> {
        let lin = Self::normal(lin);
        let c = i64::try_from(lin.constant)
            .map_err(|_| Error::Translate("a constant overflows 64 bits".into()))?;
        match lin.terms[..] {
            [] => return self.constant(c),
            [(1, v)] if c == 0 => return Ok(v),
            // No views: the engine wants every variable declared before its
            // first view, and the translation declares auxiliary variables
            // as it goes.
            _ => {}
        }
        let (lo, hi) = self.lin_bounds(&lin)?;
        let z = self.aux(lo, hi)?;
        let mut coeffs: Vec<i64> = lin.terms.iter().map(|t| t.0).collect();
        let mut vars: Vec<VarId> = lin.terms.iter().map(|t| t.1).collect();
        coeffs.push(-1);
        vars.push(z);
        self.m.linear(&coeffs, &vars, Relation::Eq, -c)?;
        Ok(z)
    }

    /// `a op b` as a linear form compared with 0: `(coeffs, vars, rhs)`.
    fn comparison(&mut self, a: &Expr, b: &Expr) -> Result<(Vec<i64>, Vec<VarId>, i64)> {
        let mut lin = Lin::default();
        self.linear(a, 1, &mut lin)?;
        self.linear(b, -1, &mut lin)?;
        let lin = Self::normal(lin);
        let rhs = i64::try_from(-lin.constant)
            .map_err(|_| Error::Translate("a constant overflows 64 bits".into()))?;
        Ok((
            lin.terms.iter().map(|t| t.0).collect(),
            lin.terms.iter().map(|t| t.1).collect(),
            rhs,
        ))
    }
}
