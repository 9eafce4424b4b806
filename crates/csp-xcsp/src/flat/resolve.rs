//! From `xcsp3-serde`'s unrolled constraints to [`Flat`] constraints:
//! references resolved, lists without undefined cells, conditions and
//! automata in one form.

use std::collections::HashMap;

use xcsp3_serde::constraint::{Condition, Constraint, Operator};
use xcsp3_serde::expression::{Exp, IntExp};
use xcsp3_serde::{Instance, ObjType, Objective, SimpleRef};

use super::{Automaton, Cond, Flat, Goal, ObjKind};
use crate::error::{Error, Result, one_line};
use crate::expr::{Convert, Expr, Op};

pub(super) struct Resolve<'a> {
    pub(super) c: Convert<'a>,
}

type C = Constraint<String, SimpleRef<String>>;
type E = IntExp<SimpleRef<String>>;

fn rel(op: &Operator) -> Op {
    match op {
        Operator::Lt => Op::Lt,
        Operator::Le => Op::Le,
        Operator::Gt => Op::Gt,
        Operator::Ge => Op::Ge,
        Operator::Eq => Op::Eq,
        Operator::Ne => Op::Ne,
        Operator::In => Op::Eq,
    }
}

impl Resolve<'_> {
    /// A list, dropping undefined array cells as XCSP3 does in lists.
    fn list(&self, l: &[E]) -> Result<Vec<Expr>> {
        let mut out = Vec::with_capacity(l.len());
        for e in l {
            match e {
                IntExp::Var(r) => {
                    if let Some(v) = self.c.names.lookup(r)? {
                        out.push(Expr::Var(v));
                    }
                }
                e => out.push(self.c.int(e)?),
            }
        }
        Ok(out)
    }

    fn cond(&self, c: &Condition<SimpleRef<String>>) -> Result<Cond> {
        if c.operator == Operator::In {
            let set = match &c.operand {
                Exp::Set(s) => self.c.set(s)?,
                Exp::Int(i) => match &**i {
                    IntExp::Const(v) => vec![Expr::Const(*v)],
                    _ => {
                        return Err(Error::Unsupported(
                            "an `in` condition on an expression".into(),
                        ));
                    }
                },
                _ => return Err(Error::Unsupported("an `in` condition on a variable".into())),
            };
            let mut set = set
                .iter()
                .map(|e| {
                    e.as_const()
                        .ok_or_else(|| Error::Unsupported("variables in an `in` set".into()))
                })
                .collect::<Result<Vec<_>>>()?;
            set.sort_unstable();
            set.dedup();
            return Ok(Cond::In(set));
        }
        Ok(Cond::Rel(rel(&c.operator), self.c.any(&c.operand)?))
    }

    /// An `occurs` entry: a value, a variable or a range of constants.
    fn operand(&self, e: &Exp<SimpleRef<String>>) -> Result<Cond> {
        match e {
            Exp::Set(s) => Ok(Cond::In(
                self.c
                    .set(s)?
                    .iter()
                    .map(|e| {
                        e.as_const()
                            .ok_or_else(|| Error::Unsupported("variables in a range".into()))
                    })
                    .collect::<Result<Vec<_>>>()?,
            )),
            e => Ok(Cond::Rel(Op::Eq, self.c.any(e)?)),
        }
    }

    pub(super) fn constraint(&self, c: &C, out: &mut Vec<Flat>) -> Result<()> {
        let flat = match c {
            Constraint::Intension(i) => Flat::Intension(self.c.boolean(&i.function)?),
            Constraint::Extension(e) => {
                let supports = e.conflicts.is_empty();
                let tuples = if supports {
                    e.supports.clone()
                } else {
                    e.conflicts.clone()
                };
                let list = self.list(&e.list)?;
                if tuples.iter().any(|t| t.len() != list.len()) {
                    return Err(Error::Translate(format!(
                        "a tuple of extension does not have the {} values of its list",
                        list.len()
                    )));
                }
                Flat::Extension {
                    list,
                    tuples,
                    supports,
                }
            }
            Constraint::AllDifferent(a) if !a.matrix.is_empty() => {
                let rows = a
                    .matrix
                    .iter()
                    .map(|r| self.list(r))
                    .collect::<Result<Vec<_>>>()?;
                let cols = columns(&rows)?;
                for list in rows.into_iter().chain(cols) {
                    out.push(Flat::AllDifferent {
                        list,
                        except: a.except.clone(),
                    });
                }
                return Ok(());
            }
            Constraint::AllDifferent(a) => Flat::AllDifferent {
                list: self.list(&a.list)?,
                except: a.except.clone(),
            },
            Constraint::AllEqual(a) => {
                if !a.except.is_empty() {
                    return Err(Error::Unsupported("allEqual with except".into()));
                }
                Flat::AllEqual {
                    list: self.list(&a.list)?,
                }
            }
            Constraint::Ordered(o) => Flat::Ordered {
                list: self.list(&o.list)?,
                lengths: self.list(&o.lengths)?,
                op: rel(&o.operator),
            },
            Constraint::Lex(l) => {
                if l.matrix.is_empty() {
                    let lists = l
                        .lists
                        .iter()
                        .map(|r| self.list(r))
                        .collect::<Result<Vec<_>>>()?;
                    Flat::Lex {
                        lists,
                        op: rel(&l.operator),
                    }
                } else {
                    // Rows ordered, and columns ordered.
                    let rows = l
                        .matrix
                        .iter()
                        .map(|r| self.list(r))
                        .collect::<Result<Vec<_>>>()?;
                    let cols = columns(&rows)?;
                    out.push(Flat::Lex {
                        lists: rows,
                        op: rel(&l.operator),
                    });
                    Flat::Lex {
                        lists: cols,
                        op: rel(&l.operator),
                    }
                }
            }
            Constraint::Sum(s) => {
                let list = self.list(&s.list)?;
                let coeffs = if s.coeffs.is_empty() {
                    vec![Expr::Const(1); list.len()]
                } else {
                    self.list(&s.coeffs)?
                };
                if coeffs.len() != list.len() {
                    return Err(Error::Translate(
                        "sum: coeffs and list differ in length".into(),
                    ));
                }
                Flat::Sum {
                    list,
                    coeffs,
                    cond: self.cond(&s.condition)?,
                }
            }
            Constraint::Count(n) => Flat::Count {
                list: self.list(&n.list)?,
                values: self.list(&n.values)?,
                cond: self.cond(&n.condition)?,
            },
            Constraint::NValues(n) => Flat::NValues {
                list: self.list(&n.list)?,
                except: n.except.clone(),
                cond: self.cond(&n.condition)?,
            },
            Constraint::Cardinality(k) => {
                let values = self.list(&k.values)?;
                let occurs = k
                    .occurs
                    .iter()
                    .map(|e| self.operand(e))
                    .collect::<Result<Vec<_>>>()?;
                if occurs.len() != values.len() {
                    return Err(Error::Translate(
                        "cardinality: values and occurs differ in length".into(),
                    ));
                }
                Flat::Cardinality {
                    list: self.list(&k.list)?,
                    values,
                    occurs,
                    closed: k.closed,
                }
            }
            Constraint::Maximum(m) => Flat::Extremum {
                max: true,
                list: self.list(&m.list)?,
                cond: self.cond(&m.condition)?,
            },
            Constraint::Minimum(m) => Flat::Extremum {
                max: false,
                list: self.list(&m.list)?,
                cond: self.cond(&m.condition)?,
            },
            Constraint::Element(e) => {
                let cond = match (&e.value, &e.condition) {
                    (Some(v), _) => Cond::Rel(Op::Eq, self.c.int(v)?),
                    (None, Some(c)) => self.cond(c)?,
                    (None, None) => {
                        return Err(Error::Translate(
                            "element without value or condition".into(),
                        ));
                    }
                };
                if !e.matrix.is_empty() {
                    // matrix[i][j], read as list[i * width + j] with i and j
                    // kept inside the matrix (so that j cannot wrap a row).
                    let rows = e
                        .matrix
                        .iter()
                        .map(|r| self.list(r))
                        .collect::<Result<Vec<_>>>()?;
                    let width = rows.first().map_or(0, Vec::len);
                    let [i, j] = &e.index[..] else {
                        return Err(Error::Translate(
                            "element over a matrix needs two indexes".into(),
                        ));
                    };
                    if width == 0 || rows.iter().any(|r| r.len() != width) {
                        return Err(Error::Translate(
                            "element over a matrix with rows of different lengths".into(),
                        ));
                    }
                    let (i, j) = (self.c.int(i)?, self.c.int(j)?);
                    let inside = |x: &Expr, n: usize| {
                        let lo = Expr::Call(Op::Ge, vec![x.clone(), Expr::Const(0)]);
                        let hi = Expr::Call(Op::Lt, vec![x.clone(), Expr::Const(n as i64)]);
                        Flat::Intension(Expr::Call(Op::And, vec![lo, hi]))
                    };
                    out.push(inside(&i, rows.len()));
                    out.push(inside(&j, width));
                    let index = Expr::Call(
                        Op::Add,
                        vec![Expr::Call(Op::Mul, vec![i, Expr::Const(width as i64)]), j],
                    );
                    Flat::Element {
                        list: rows.concat(),
                        start: 0,
                        index,
                        cond,
                    }
                } else {
                    let [index] = &e.index[..] else {
                        return Err(Error::Translate("element needs one index".into()));
                    };
                    Flat::Element {
                        list: self.list(&e.list.list)?,
                        start: e.list.start_index,
                        index: self.c.int(index)?,
                        cond,
                    }
                }
            }
            Constraint::Channel(ch) => Flat::Channel {
                list: self.list(&ch.list)?,
                inverse: self.list(&ch.inverse_list)?,
                value: ch.value.as_ref().map(|v| self.c.int(v)).transpose()?,
            },
            Constraint::Regular(r) => Flat::Regular {
                list: self.list(&r.list)?,
                automaton: automaton(&r.transitions, Some((&r.start, &r.finish)))?,
            },
            Constraint::Mdd(m) => Flat::Regular {
                list: self.list(&m.list)?,
                automaton: automaton(&m.transitions, None)?,
            },
            Constraint::Cumulative(c) => Flat::Cumulative {
                origins: self.list(&c.origins)?,
                lengths: self.list(&c.lengths)?,
                heights: self.list(&c.heights)?,
                cond: self.cond(&c.condition)?,
            },
            Constraint::NoOverlap(n) => {
                let origins = n
                    .origins
                    .iter()
                    .map(|r| self.list(r))
                    .collect::<Result<Vec<_>>>()?;
                let lengths = n
                    .lengths
                    .iter()
                    .map(|r| self.list(r))
                    .collect::<Result<Vec<_>>>()?;
                Flat::NoOverlap {
                    origins,
                    lengths,
                    zero_ignored: n.zero_ignored,
                }
            }
            Constraint::Circuit(c) => Flat::Circuit {
                list: self.list(&c.list.list)?,
                start: c.list.start_index,
                size: c.size.as_ref().map(|s| self.c.int(s)).transpose()?,
            },
            Constraint::Instantiation(i) => {
                let mut list = Vec::new();
                let mut values = Vec::new();
                for (r, v) in i.list.iter().zip(&i.values) {
                    if let (Some(var), Some(v)) = (self.c.names.lookup(r)?, v) {
                        list.push(Expr::Var(var));
                        values.push(*v);
                    }
                }
                Flat::Instantiation { list, values }
            }
            Constraint::Precedence(p) => {
                let mut distinct = p.values.clone();
                distinct.sort_unstable();
                distinct.dedup();
                if distinct.len() != p.values.len() {
                    // Found by the fuzz target: `2 2` has no sensible meaning.
                    return Err(Error::Translate(
                        "precedence: the values must be distinct".into(),
                    ));
                }
                Flat::Precedence {
                    list: self.list(&p.list)?,
                    values: p.values.clone(),
                    covered: p.covered,
                }
            }
            Constraint::Clause(cl) => Flat::Clause {
                list: cl
                    .list
                    .iter()
                    .map(|b| self.c.boolean(b))
                    .collect::<Result<Vec<_>>>()?,
            },
            Constraint::Knapsack(_) => return Err(Error::Unsupported("knapsack".into())),
            Constraint::BinPacking(_) => return Err(Error::Unsupported("binPacking".into())),
        };
        out.push(flat);
        Ok(())
    }

    pub(super) fn goal(&self, instance: &Instance) -> Result<Option<Goal>> {
        let objs = &instance.objectives.objectives;
        if objs.len() > 1 {
            return Err(Error::Unsupported("several objectives".into()));
        }
        let Some(o) = objs.first() else {
            return Ok(None);
        };
        let (minimize, e) = match o {
            Objective::Minimize(e) => (true, e),
            Objective::Maximize(e) => (false, e),
        };
        let e = e
            .unroll(instance)
            .map_err(|e| Error::Translate(one_line(&e.to_string())))?;
        let list = self.list(&e.list)?;
        let kind = match e.ty {
            ObjType::Sum => {
                let coeffs = if e.coeffs.is_empty() {
                    vec![1; list.len()]
                } else {
                    e.coeffs.clone()
                };
                if coeffs.len() != list.len() {
                    return Err(Error::Translate(
                        "objective: coeffs and list differ in length".into(),
                    ));
                }
                ObjKind::Sum { list, coeffs }
            }
            ObjType::Maximum => ObjKind::Maximum(list),
            ObjType::Minimum => ObjKind::Minimum(list),
            ObjType::NValues => ObjKind::NValues(list),
            ObjType::Lex => return Err(Error::Unsupported("a lex objective".into())),
        };
        Ok(Some(Goal { minimize, kind }))
    }
}

/// The columns of a matrix given by its rows (all of one length).
fn columns(rows: &[Vec<Expr>]) -> Result<Vec<Vec<Expr>>> {
    let width = rows.first().map_or(0, Vec::len);
    if rows.iter().any(|r| r.len() != width) {
        return Err(Error::Translate(
            "a matrix with rows of different lengths".into(),
        ));
    }
    Ok((0..width)
        .map(|j| rows.iter().map(|r| r[j].clone()).collect())
        .collect())
}

/// The automaton of a `regular` (states named, `start` and `final` given) or
/// of an `mdd` (the root is the only state without incoming arcs; the
/// accepting state is the only one without outgoing arcs).
fn automaton(
    transitions: &[xcsp3_serde::constraint::Transition<String>],
    regular: Option<(&String, &String)>,
) -> Result<Automaton> {
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut arcs = Vec::with_capacity(transitions.len());
    for t in transitions {
        let from = {
            let n = ids.len();
            *ids.entry(t.from.clone()).or_insert(n)
        };
        let to = {
            let n = ids.len();
            *ids.entry(t.to.clone()).or_insert(n)
        };
        arcs.push((from, t.val, to));
    }
    let (start, finals) = match regular {
        Some((start, finals)) => {
            let mut intern = |s: &str| {
                let n = ids.len();
                *ids.entry(s.to_string()).or_insert(n)
            };
            let start = intern(start.trim());
            // The crate keeps the `<final>` list as one text.
            let finals = finals.split_whitespace().map(&mut intern).collect();
            (start, finals)
        }
        None => {
            let n = ids.len();
            let roots: Vec<usize> = (0..n).filter(|&q| !arcs.iter().any(|a| a.2 == q)).collect();
            let sinks: Vec<usize> = (0..n).filter(|&q| !arcs.iter().any(|a| a.0 == q)).collect();
            let ([root], [sink]) = (&roots[..], &sinks[..]) else {
                return Err(Error::Translate(
                    "an mdd needs one root and one terminal node".into(),
                ));
            };
            (*root, vec![*sink])
        }
    };
    Ok(Automaton {
        states: ids.len(),
        start,
        finals,
        transitions: arcs,
    })
}
