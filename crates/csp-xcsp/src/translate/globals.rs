//! Global constraints: the engine's own where it has one, else a
//! decomposition into what [`T::post`] knows (each noted in docs/xcsp.md).

use csp_core::constraints::{Automaton, Circuit, SubCircuit};
use csp_core::{Value, VarId};

use super::{T, call};
use crate::error::{Error, Result};
use crate::expr::{Expr, Op};
use crate::flat::{Cond, Flat};
use crate::names::MAX_LISTED_VALUES;

/// The most tuples a table may have after `*` is expanded or conflicts are
/// turned into supports.
const MAX_TUPLES: u64 = 1 << 20;

fn c(v: i64) -> Expr {
    Expr::Const(v)
}

impl T {
    fn terms(&mut self, list: &[Expr]) -> Result<Vec<VarId>> {
        list.iter().map(|e| self.term(e)).collect()
    }

    /// The values of the union of the domains of `vars` (at most 2^20).
    fn union_of(&self, vars: &[VarId]) -> Result<Vec<Value>> {
        let mut all = std::collections::BTreeSet::new();
        for &v in vars {
            let d = self.m.domain(v)?;
            if d.len() as u64 > MAX_LISTED_VALUES {
                return Err(Error::Translate(
                    "a domain of more than 2^20 values where values are listed".into(),
                ));
            }
            all.extend(d.values());
            if all.len() as u64 > MAX_LISTED_VALUES {
                return Err(Error::Translate(
                    "more than 2^20 values where values are listed".into(),
                ));
            }
        }
        Ok(all.into_iter().collect())
    }

    /// The number of distinct values of `list` outside `except`, as an
    /// expression: the sum over each value of "some variable takes it".
    pub(crate) fn nvalues_expr(&mut self, list: &[Expr], except: &[i64]) -> Result<Expr> {
        let vars = self.terms(list)?;
        let values = self.union_of(&vars)?;
        let mut sum = Vec::new();
        for v in values.into_iter().filter(|v| !except.contains(v)) {
            let taken: Vec<Expr> = list
                .iter()
                .map(|x| call(Op::Eq, vec![x.clone(), c(v)]))
                .collect();
            sum.push(call(Op::Or, taken));
        }
        Ok(call(Op::Add, sum))
    }

    pub(crate) fn constraint(&mut self, f: &Flat) -> Result<()> {
        match f {
            Flat::Intension(e) => self.post(e)?,
            Flat::Extension {
                list,
                tuples,
                supports,
            } => self.extension(list, tuples, *supports)?,
            // Fewer than two expressions: nothing to keep apart.
            Flat::AllDifferent { list, .. } if list.len() < 2 => {}
            Flat::AllDifferent { list, except } if except.is_empty() => {
                let vars = self.terms(list)?;
                self.m.all_different(&vars)?;
            }
            Flat::AllDifferent { list, except } => {
                let except: Vec<Expr> = except.iter().map(|&v| c(v)).collect();
                for i in 0..list.len() {
                    for j in i + 1..list.len() {
                        let apart = call(Op::Ne, vec![list[i].clone(), list[j].clone()]);
                        let out = Expr::In(Box::new(list[i].clone()), except.clone());
                        self.post(&call(Op::Or, vec![apart, out]))?;
                    }
                }
            }
            Flat::AllEqual { list } => {
                if list.len() >= 2 {
                    self.post(&call(Op::Eq, list.clone()))?;
                }
            }
            Flat::Ordered { list, lengths, op } => {
                for i in 1..list.len() {
                    let left = match lengths.get(i - 1) {
                        Some(l) => call(Op::Add, vec![list[i - 1].clone(), l.clone()]),
                        None => list[i - 1].clone(),
                    };
                    self.post(&call(*op, vec![left, list[i].clone()]))?;
                }
            }
            Flat::Lex { lists, op } => {
                for w in lists.windows(2) {
                    let (a, b) = match op {
                        Op::Le | Op::Lt => (&w[0], &w[1]),
                        Op::Ge | Op::Gt => (&w[1], &w[0]),
                        _ => return Err(Error::Unsupported(format!("lex with operator {op:?}"))),
                    };
                    let (xs, ys) = (self.terms(a)?, self.terms(b)?);
                    if xs.len() != ys.len() {
                        return Err(Error::Translate(
                            "lex over lists of different lengths".into(),
                        ));
                    }
                    self.m.lex_less_eq(&xs, &ys)?;
                    if matches!(op, Op::Lt | Op::Gt) {
                        let differ = a
                            .iter()
                            .zip(b)
                            .map(|(x, y)| call(Op::Ne, vec![x.clone(), y.clone()]))
                            .collect();
                        self.post(&call(Op::Or, differ))?;
                    }
                }
            }
            Flat::Sum { list, coeffs, cond } => {
                let sum = list
                    .iter()
                    .zip(coeffs)
                    .map(|(x, k)| call(Op::Mul, vec![k.clone(), x.clone()]))
                    .collect();
                self.post_cond(call(Op::Add, sum), cond)?;
            }
            Flat::Count { list, values, cond } => {
                if let [Some(v)] = values.iter().map(Expr::as_const).collect::<Vec<_>>()[..] {
                    let vars = self.terms(list)?;
                    let r = self.aux(0, vars.len() as i128)?;
                    self.m.count(&vars, v, r)?;
                    let r = self.expr_of(r);
                    self.post_cond(r, cond)?;
                } else {
                    let hits = list
                        .iter()
                        .map(|x| Expr::In(Box::new(x.clone()), values.clone()))
                        .collect();
                    self.post_cond(call(Op::Add, hits), cond)?;
                }
            }
            Flat::NValues { list, except, cond } => {
                let n = self.nvalues_expr(list, except)?;
                self.post_cond(n, cond)?;
            }
            Flat::Cardinality {
                list,
                values,
                occurs,
                closed,
            } => self.cardinality(list, values, occurs, *closed)?,
            Flat::Extremum { max, list, cond } => {
                let e = call(if *max { Op::Max } else { Op::Min }, list.clone());
                self.post_cond(e, cond)?;
            }
            Flat::Element {
                list,
                start,
                index,
                cond,
            } => {
                let idx = self.term(index)?;
                let result = match cond {
                    Cond::Rel(Op::Eq, e) => self.term(e)?,
                    _ => {
                        let vars = self.terms(list)?;
                        let bs = vars
                            .iter()
                            .map(|&v| self.bounds(v))
                            .collect::<Result<Vec<_>>>()?;
                        let lo = bs.iter().map(|b| b.0).min().unwrap_or(0);
                        let hi = bs.iter().map(|b| b.1).max().unwrap_or(0);
                        let r = self.aux(lo.into(), hi.into())?;
                        let e = self.expr_of(r);
                        self.post_cond(e, cond)?;
                        r
                    }
                };
                if let Some(array) = list.iter().map(Expr::as_const).collect::<Option<Vec<_>>>() {
                    self.m.element_offset(idx, &array, *start, result)?;
                } else {
                    let vars = self.terms(list)?;
                    self.m.element_var_offset(idx, &vars, *start, result)?;
                }
            }
            Flat::Channel {
                list,
                inverse,
                value,
            } => self.channel(list, inverse, value.as_ref())?,
            Flat::Regular { list, automaton } => {
                let a = Automaton::new(
                    automaton.states,
                    automaton.start,
                    &automaton.finals,
                    &automaton.transitions,
                )?;
                let vars = self.terms(list)?;
                self.m.regular(&vars, &a)?;
            }
            Flat::Cumulative {
                origins,
                lengths,
                heights,
                cond,
            } => {
                let capacity = match cond {
                    Cond::Rel(Op::Le, e) => self.term(e)?,
                    Cond::Rel(Op::Lt, e) => self.term(&call(Op::Sub, vec![e.clone(), c(1)]))?,
                    _ => {
                        return Err(Error::Unsupported(
                            "cumulative with a condition other than le or lt".into(),
                        ));
                    }
                };
                let (s, d, h) = (
                    self.terms(origins)?,
                    self.terms(lengths)?,
                    self.terms(heights)?,
                );
                self.m.cumulative(&s, &d, &h, capacity)?;
            }
            Flat::NoOverlap {
                origins,
                lengths,
                zero_ignored,
            } => self.no_overlap(origins, lengths, *zero_ignored)?,
            Flat::Circuit { list, start, size } => {
                if size.is_some() {
                    return Err(Error::Unsupported("circuit with a size".into()));
                }
                let vars = self.terms(list)?;
                let mut self_loops = false;
                for (i, &v) in vars.iter().enumerate() {
                    self_loops |= self.m.domain(v)?.contains(start + i as i64);
                }
                if self_loops {
                    self.m.all_different(&vars)?;
                    self.m.post(SubCircuit::new(&vars, *start))?;
                } else if vars.len() >= 2 {
                    self.m.post(Circuit::with_offset(&vars, *start))?;
                } else {
                    self.post(&c(0))?;
                }
            }
            Flat::Instantiation { list, values } => {
                for (x, &v) in list.iter().zip(values) {
                    self.post(&call(Op::Eq, vec![x.clone(), c(v)]))?;
                }
            }
            Flat::Precedence {
                list,
                values,
                covered,
            } => self.precedence(list, values, *covered)?,
            Flat::Clause { list } => self.post(&call(Op::Or, list.clone()))?,
        }
        Ok(())
    }

    fn extension(
        &mut self,
        list: &[Expr],
        tuples: &[Vec<Option<i64>>],
        supports: bool,
    ) -> Result<()> {
        let vars = self.terms(list)?;
        let domains: Vec<Vec<Value>> = vars
            .iter()
            .map(|&v| {
                let d = self.m.domain(v)?;
                if d.len() as u64 > MAX_LISTED_VALUES {
                    return Err(Error::Translate(
                        "extension over a domain larger than 2^20 values".into(),
                    ));
                }
                Ok(d.values())
            })
            .collect::<Result<_>>()?;
        if !supports {
            let product = domains
                .iter()
                .try_fold(1u64, |p, d| p.checked_mul(d.len() as u64));
            if product.is_some_and(|p| p <= MAX_TUPLES) {
                // The complement of the conflicts, as a table of supports.
                let mut all = vec![vec![]];
                for d in &domains {
                    all = all
                        .into_iter()
                        .flat_map(|t: Vec<Value>| d.iter().map(move |&v| [&t[..], &[v]].concat()))
                        .collect();
                }
                let allowed = all
                    .into_iter()
                    .filter(|t| {
                        !tuples
                            .iter()
                            .any(|c| c.iter().zip(t).all(|(c, &v)| c.is_none_or(|c| c == v)))
                    })
                    .collect();
                self.m.table(&vars, allowed)?;
            } else {
                for t in tuples {
                    let differ = list
                        .iter()
                        .zip(t)
                        .filter_map(|(x, v)| v.map(|v| call(Op::Ne, vec![x.clone(), c(v)])))
                        .collect();
                    self.post(&call(Op::Or, differ))?;
                }
            }
            return Ok(());
        }
        let mut rows: Vec<Vec<Value>> = Vec::new();
        for t in tuples {
            let mut expanded = vec![vec![]];
            for (i, v) in t.iter().enumerate() {
                let choices: Vec<Value> = match v {
                    Some(v) => vec![*v],
                    None => domains[i].clone(),
                };
                expanded = expanded
                    .into_iter()
                    .flat_map(|p: Vec<Value>| choices.iter().map(move |&v| [&p[..], &[v]].concat()))
                    .collect();
                if (rows.len() + expanded.len()) as u64 > MAX_TUPLES {
                    return Err(Error::Translate(
                        "a table of more than 2^20 tuples once `*` is expanded".into(),
                    ));
                }
            }
            rows.extend(expanded);
        }
        self.m.table(&vars, rows)?;
        Ok(())
    }

    fn cardinality(
        &mut self,
        list: &[Expr],
        values: &[Expr],
        occurs: &[Cond],
        closed: bool,
    ) -> Result<()> {
        if closed {
            for x in list {
                self.post(&Expr::In(Box::new(x.clone()), values.to_vec()))?;
            }
        }
        let consts: Option<Vec<i64>> = values.iter().map(Expr::as_const).collect();
        let distinct = consts.as_ref().is_some_and(|v| {
            let mut s = v.clone();
            s.sort_unstable();
            s.dedup();
            s.len() == v.len()
        });
        if let (Some(values), true) = (consts, distinct) {
            let vars = self.terms(list)?;
            let mut counts = Vec::new();
            for o in occurs {
                counts.push(match o {
                    Cond::Rel(Op::Eq, e) => self.term(e)?,
                    Cond::In(set) => self
                        .m
                        .int_var(csp_core::Domain::from_values(set.iter().copied()))?,
                    Cond::Rel(..) => unreachable!("occurs are values or ranges"),
                });
            }
            self.m.global_cardinality(&vars, &values, &counts)?;
        } else {
            for (v, o) in values.iter().zip(occurs) {
                let hits = list
                    .iter()
                    .map(|x| call(Op::Eq, vec![x.clone(), v.clone()]))
                    .collect();
                self.post_cond(call(Op::Add, hits), o)?;
            }
        }
        Ok(())
    }

    fn channel(&mut self, list: &[Expr], inverse: &[Expr], value: Option<&Expr>) -> Result<()> {
        if let Some(v) = value {
            // Exactly one 1, at position `value`.
            self.post(&call(Op::Eq, vec![call(Op::Add, list.to_vec()), c(1)]))?;
            let (idx, vars, one) = (self.term(v)?, self.terms(list)?, self.constant(1)?);
            self.m.element_var(idx, &vars, one)?;
            return Ok(());
        }
        let x = self.terms(list)?;
        if inverse.is_empty() {
            // x[x[i]] = i
            for (i, &xi) in x.iter().enumerate() {
                let i = self.constant(i as i64)?;
                self.m.element_var(xi, &x, i)?;
            }
            return Ok(());
        }
        let y = self.terms(inverse)?;
        if x.len() == y.len() {
            self.m.inverse(&x, &y)?;
        } else {
            for (i, &xi) in x.iter().enumerate() {
                let i = self.constant(i as i64)?;
                self.m.element_var(xi, &y, i)?;
            }
        }
        Ok(())
    }

    fn no_overlap(
        &mut self,
        origins: &[Vec<Expr>],
        lengths: &[Vec<Expr>],
        zero_ignored: bool,
    ) -> Result<()> {
        let dims = origins.first().map_or(0, Vec::len);
        if origins.iter().chain(lengths).any(|b| b.len() != dims) || origins.len() != lengths.len()
        {
            return Err(Error::Translate(
                "noOverlap: origins and lengths of different shapes".into(),
            ));
        }
        let mut positive = true;
        for b in lengths {
            for l in b {
                let v = self.term(l)?;
                positive &= self.bounds(v)?.0 > 0;
            }
        }
        let col = |k: usize, of: &[Vec<Expr>]| of.iter().map(|b| b[k].clone()).collect::<Vec<_>>();
        if positive && dims == 1 {
            let (s, d) = (self.terms(&col(0, origins))?, self.terms(&col(0, lengths))?);
            self.m.disjunctive(&s, &d)?;
            return Ok(());
        }
        if positive && dims == 2 {
            let (x, y) = (self.terms(&col(0, origins))?, self.terms(&col(1, origins))?);
            let (dx, dy) = (self.terms(&col(0, lengths))?, self.terms(&col(1, lengths))?);
            self.m.diffn(&x, &y, &dx, &dy)?;
            return Ok(());
        }
        for i in 0..origins.len() {
            for j in i + 1..origins.len() {
                let mut apart = Vec::new();
                for d in 0..dims {
                    let end = |a: usize| {
                        call(Op::Add, vec![origins[a][d].clone(), lengths[a][d].clone()])
                    };
                    apart.push(call(Op::Le, vec![end(i), origins[j][d].clone()]));
                    apart.push(call(Op::Le, vec![end(j), origins[i][d].clone()]));
                    if zero_ignored {
                        apart.push(call(Op::Eq, vec![lengths[i][d].clone(), c(0)]));
                        apart.push(call(Op::Eq, vec![lengths[j][d].clone(), c(0)]));
                    }
                }
                self.post(&call(Op::Or, apart))?;
            }
        }
        Ok(())
    }

    /// Value precedence as an automaton: the state is how many of `values`
    /// have appeared; a value may appear only once all before it have.
    fn precedence(&mut self, list: &[Expr], values: &[i64], covered: bool) -> Result<()> {
        let vars = self.terms(list)?;
        let alphabet = self.union_of(&vars)?;
        let m = values.len();
        let mut transitions = Vec::new();
        for q in 0..=m {
            for &v in &alphabet {
                match values.iter().position(|&w| w == v) {
                    None => transitions.push((q, v, q)),
                    Some(k) if k < q => transitions.push((q, v, q)),
                    Some(k) if k == q => transitions.push((q, v, q + 1)),
                    Some(_) => {}
                }
            }
        }
        let finals: Vec<usize> = if covered { vec![m] } else { (0..=m).collect() };
        let a = Automaton::new(m + 1, 0, &finals, &transitions)?;
        self.m.regular(&vars, &a)?;
        Ok(())
    }
}
