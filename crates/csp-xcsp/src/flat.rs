//! The instance after unrolling: every `group`, `block` and `slide`
//! instantiated, every reference resolved to a variable number, every
//! constraint in one of the [`Flat`] forms both the translation and the
//! verifier read.

mod resolve;

use xcsp3_serde::Instance;

use crate::error::{Error, Result, one_line};
use crate::expr::{Convert, Expr, Op};
use crate::names::Names;
use resolve::Resolve;

/// The most constraints an instance may unroll to.
pub const MAX_CONSTRAINTS: usize = 4_000_000;

/// A condition `(op, operand)` of a global constraint.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// `lt`, `le`, `gt`, `ge`, `eq`, `ne` against an expression.
    Rel(Op, Expr),
    /// `in` a set of constants.
    In(Vec<i64>),
}

impl Cond {
    /// Whether `v` satisfies the condition under `values`.
    pub fn holds(&self, v: i64, values: &[i64]) -> Option<bool> {
        match self {
            Cond::Rel(op, e) => {
                let w = e.eval(values)?;
                Some(match op {
                    Op::Lt => v < w,
                    Op::Le => v <= w,
                    Op::Gt => v > w,
                    Op::Ge => v >= w,
                    Op::Eq => v == w,
                    _ => v != w,
                })
            }
            Cond::In(set) => Some(set.contains(&v)),
        }
    }
}

/// A deterministic automaton (for `regular`, and `mdd` read as one).
#[derive(Clone, Debug, PartialEq)]
pub struct Automaton {
    /// Number of states.
    pub states: usize,
    /// The start state.
    pub start: usize,
    /// The accepting states.
    pub finals: Vec<usize>,
    /// `(from, value, to)`.
    pub transitions: Vec<(usize, i64, usize)>,
}

/// One XCSP3-core constraint over resolved expressions.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Flat {
    Intension(Expr),
    Extension {
        list: Vec<Expr>,
        tuples: Vec<Vec<Option<i64>>>,
        supports: bool,
    },
    AllDifferent {
        list: Vec<Expr>,
        except: Vec<i64>,
    },
    AllEqual {
        list: Vec<Expr>,
    },
    Ordered {
        list: Vec<Expr>,
        lengths: Vec<Expr>,
        op: Op,
    },
    Lex {
        lists: Vec<Vec<Expr>>,
        op: Op,
    },
    Sum {
        list: Vec<Expr>,
        coeffs: Vec<Expr>,
        cond: Cond,
    },
    Count {
        list: Vec<Expr>,
        values: Vec<Expr>,
        cond: Cond,
    },
    NValues {
        list: Vec<Expr>,
        except: Vec<i64>,
        cond: Cond,
    },
    Cardinality {
        list: Vec<Expr>,
        values: Vec<Expr>,
        occurs: Vec<Cond>,
        closed: bool,
    },
    Extremum {
        max: bool,
        list: Vec<Expr>,
        cond: Cond,
    },
    Element {
        list: Vec<Expr>,
        start: i64,
        index: Expr,
        cond: Cond,
    },
    Channel {
        list: Vec<Expr>,
        inverse: Vec<Expr>,
        value: Option<Expr>,
    },
    Regular {
        list: Vec<Expr>,
        automaton: Automaton,
    },
    Cumulative {
        origins: Vec<Expr>,
        lengths: Vec<Expr>,
        heights: Vec<Expr>,
        cond: Cond,
    },
    NoOverlap {
        origins: Vec<Vec<Expr>>,
        lengths: Vec<Vec<Expr>>,
        zero_ignored: bool,
    },
    Circuit {
        list: Vec<Expr>,
        start: i64,
        size: Option<Expr>,
    },
    Instantiation {
        list: Vec<Expr>,
        values: Vec<i64>,
    },
    Precedence {
        list: Vec<Expr>,
        values: Vec<i64>,
        covered: bool,
    },
    Clause {
        list: Vec<Expr>,
    },
}

/// The objective: minimise or maximise an expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// Whether to minimise (else maximise).
    pub minimize: bool,
    /// What is optimised.
    pub kind: ObjKind,
}

/// What an objective computes.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum ObjKind {
    Sum { list: Vec<Expr>, coeffs: Vec<i64> },
    Maximum(Vec<Expr>),
    Minimum(Vec<Expr>),
    NValues(Vec<Expr>),
}

impl ObjKind {
    /// The objective's value under `values`.
    pub fn eval(&self, values: &[i64]) -> Option<i64> {
        let all = |l: &[Expr]| {
            l.iter()
                .map(|e| e.eval(values))
                .collect::<Option<Vec<i64>>>()
        };
        match self {
            ObjKind::Sum { list, coeffs } => {
                let v = all(list)?;
                v.iter()
                    .zip(coeffs)
                    .try_fold(0i64, |s, (&x, &c)| s.checked_add(x.checked_mul(c)?))
            }
            ObjKind::Maximum(l) => all(l)?.into_iter().max(),
            ObjKind::Minimum(l) => all(l)?.into_iter().min(),
            ObjKind::NValues(l) => {
                let mut v = all(l)?;
                v.sort_unstable();
                v.dedup();
                Some(v.len() as i64)
            }
        }
    }
}

/// A whole instance, resolved.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The variables.
    pub names: Names,
    /// The constraints, unrolled.
    pub constraints: Vec<Flat>,
    /// The objective, if any.
    pub goal: Option<Goal>,
}

impl Problem {
    /// Resolves `instance`.
    ///
    /// ```
    /// let xml = r#"<instance format="XCSP3" type="CSP"><variables><array id="x" size="[3]"> 0..2 </array></variables>
    ///   <constraints><group><intension> lt(%0,%1) </intension><args> x[0..1] </args><args> x[1..2] </args></group></constraints></instance>"#;
    /// let p = csp_xcsp::Problem::new(&csp_xcsp::parse_instance(xml)?)?;
    /// assert_eq!(p.constraints.len(), 2);
    /// assert_eq!(p.violated(&[0, 1, 2]), None);
    /// assert_eq!(p.violated(&[0, 2, 1]), Some(1));
    /// # Ok::<(), csp_xcsp::Error>(())
    /// ```
    pub fn new(instance: &Instance) -> Result<Self> {
        let names = Names::new(instance)?;
        let unrolled = instance
            .unroll_constraints()
            .map_err(|e| Error::Translate(one_line(&e.to_string())))?;
        if unrolled.len() > MAX_CONSTRAINTS {
            return Err(Error::Translate(format!(
                "{} constraints after unrolling, more than the limit of {MAX_CONSTRAINTS}",
                unrolled.len()
            )));
        }
        let r = Resolve {
            c: Convert { names: &names },
        };
        let mut constraints = Vec::with_capacity(unrolled.len());
        for c in &unrolled {
            r.constraint(c, &mut constraints)?;
        }
        let goal = r.goal(instance)?;
        Ok(Problem {
            constraints,
            goal,
            names,
        })
    }

    /// The index of the first constraint `values` violates (`None`: all hold).
    pub fn violated(&self, values: &[i64]) -> Option<usize> {
        self.constraints
            .iter()
            .position(|c| !crate::check::holds(c, values))
    }
}
