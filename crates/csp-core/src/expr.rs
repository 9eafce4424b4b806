//! `LinExpr`: linear expressions over variables (`x + 2 * y - z`) and the
//! relations they post (`(x + 2 * y - z).le(10)`).
//!
//! Arithmetic on [`VarId`]s, integers and expressions builds a [`LinExpr`];
//! a comparison method (`le`, `lt`, `ge`, `gt`, `eq`, `ne`) turns it into a
//! [`LinRelation`], ready for [`Model::post`] (one [`Linear`](crate::Linear)
//! constraint) or [`Model::post_reif`] (a 0/1 variable that says whether it
//! holds). The arithmetic is exact: coefficients are kept in 128 bits while
//! the expression is built, and an expression whose coefficients or
//! constant do not fit in an `i64`, or whose sum could overflow over the
//! declared domains, is refused with [`CspError::Overflow`] when it is
//! posted, never wrapped.
//!
//! ```
//! use csp_core::{Config, LinExpr, Model, Solver};
//! let mut m = Model::new();
//! let x = m.int_var(0..=5)?;
//! let y = m.int_var(0..=5)?;
//! let z = m.int_var(0..=5)?;
//! m.post((x + 2 * y - z).le(10))?;     // one linear constraint
//! m.post(x.ne(y + 3))?;                  // the right side may be an expression
//! let big = m.post_reif((x + y).ge(8))?; // big = 1 exactly when x + y >= 8
//! let mut s = Solver::new(&m, Config::default())?;
//! let best = s.maximize(LinExpr::sum(&[x, y, z]))?; // no cost variable needed
//! let sol = best.best.unwrap();
//! assert_eq!(best.objective, Some(15));
//! assert_eq!((sol[x] + sol[y] + sol[z], sol[big]), (15, 1));
//! # Ok::<(), csp_core::CspError>(())
//! ```
//!
//! Comparisons are methods, not operators (`<=` on Rust values must return
//! `bool`), so a relation cannot be mistaken for a test:
//!
//! ```compile_fail
//! use csp_core::Model;
//! let mut m = Model::new();
//! let x = m.int_var(0..=5).unwrap();
//! let y = m.int_var(0..=5).unwrap();
//! m.post(x + y <= 10).unwrap(); // `<=` is not a constraint: use `.le(10)`
//! ```
//!
//! An expression is not a constraint either; it needs a comparison:
//!
//! ```compile_fail
//! use csp_core::Model;
//! let mut m = Model::new();
//! let x = m.int_var(0..=5).unwrap();
//! m.post(x + 2).unwrap();
//! ```
//!
//! Products of two variables are not linear (post [`Model::times`] with a
//! result variable instead):
//!
//! ```compile_fail
//! use csp_core::Model;
//! let mut m = Model::new();
//! let x = m.int_var(0..=5).unwrap();
//! let y = m.int_var(0..=5).unwrap();
//! let _ = x * y;
//! ```

use std::ops::{Add, Mul, Neg, Sub};

use crate::{ConstraintId, CspError, Model, Relation, Value, VarId};

/// A linear expression `sum a_i * x_i + c` over variables, built with `+`,
/// `-`, `*` by an integer, and unary `-`; a comparison method (`le`, `lt`,
/// `ge`, `gt`, `eq`, `ne`) turns it into a [`LinRelation`] for
/// [`Model::post`] or [`Model::post_reif`].
///
/// Terms over the same variable are merged (`x + x` is `2 * x`) and zero
/// coefficients dropped when the expression is posted.
///
/// ```
/// use csp_core::{LinExpr, Model};
/// let mut m = Model::new();
/// let x = m.int_var(0..=9)?;
/// let y = m.int_var(0..=9)?;
/// let e = 3 * x - (y - 4) + x;
/// assert_eq!(e.terms(), vec![(4, x), (-1, y)]);
/// assert_eq!(e.constant(), 4);
/// assert_eq!(LinExpr::weighted(&[2, 5], &[x, y]).terms(), vec![(2, x), (5, y)]);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct LinExpr {
    terms: Vec<(i128, VarId)>,
    constant: i128,
    /// Why the expression cannot be posted (an overflow while building it,
    /// lists of different lengths); reported by [`Model::post`].
    error: Option<ExprError>,
}

#[derive(Clone, Debug)]
enum ExprError {
    Overflow,
    Lengths { coeffs: usize, vars: usize },
}

impl LinExpr {
    /// The constant expression `c`.
    pub fn constant_expr(c: Value) -> Self {
        LinExpr {
            constant: c.into(),
            ..LinExpr::default()
        }
    }

    /// `vars[0] + vars[1] + ...` (the empty sum is 0).
    pub fn sum(vars: &[VarId]) -> Self {
        LinExpr {
            terms: vars.iter().map(|&v| (1, v)).collect(),
            ..LinExpr::default()
        }
    }

    /// `coeffs[0] * vars[0] + coeffs[1] * vars[1] + ...`; lists of different
    /// lengths are refused when the expression is posted.
    pub fn weighted(coeffs: &[Value], vars: &[VarId]) -> Self {
        let error = (coeffs.len() != vars.len()).then_some(ExprError::Lengths {
            coeffs: coeffs.len(),
            vars: vars.len(),
        });
        LinExpr {
            terms: coeffs
                .iter()
                .zip(vars)
                .map(|(&a, &v)| (a.into(), v))
                .collect(),
            constant: 0,
            error,
        }
    }

    /// The terms `(coefficient, variable)`, merged by variable in order of
    /// first appearance, without zero coefficients. A coefficient too large
    /// for an `i64` is left out here; posting such an expression fails.
    pub fn terms(&self) -> Vec<(Value, VarId)> {
        self.merged()
            .into_iter()
            .filter_map(|(a, v)| Value::try_from(a).ok().map(|a| (a, v)))
            .collect()
    }

    /// The constant part (saturated to the `i64` range; posting an
    /// expression whose constant does not fit fails).
    pub fn constant(&self) -> Value {
        self.constant
            .clamp(Value::MIN.into(), Value::MAX.into())
            .try_into()
            .unwrap_or_default()
    }

    /// The expression's value for a complete assignment (indexed by
    /// variable), exactly, in 128 bits; `None` if it does not fit in an
    /// `i64`.
    pub fn eval(&self, values: &[Value]) -> Option<Value> {
        let mut sum = self.constant;
        for &(a, v) in &self.terms {
            sum = sum.checked_add(a.checked_mul(values.get(v.index()).copied()?.into())?)?;
        }
        Value::try_from(sum).ok()
    }

    /// `self <= rhs`.
    pub fn le(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinRelation::new(self, Relation::Le, rhs.into())
    }

    /// `self < rhs`.
    pub fn lt(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinRelation::new(self, Relation::Lt, rhs.into())
    }

    /// `self >= rhs`.
    pub fn ge(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinRelation::new(self, Relation::Ge, rhs.into())
    }

    /// `self > rhs`.
    pub fn gt(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinRelation::new(self, Relation::Gt, rhs.into())
    }

    /// `self == rhs`.
    pub fn eq(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinRelation::new(self, Relation::Eq, rhs.into())
    }

    /// `self != rhs`.
    pub fn ne(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinRelation::new(self, Relation::Ne, rhs.into())
    }

    /// The terms merged by variable, zero coefficients dropped, in order of
    /// first appearance.
    fn merged(&self) -> Vec<(i128, VarId)> {
        let mut out: Vec<(i128, VarId)> = Vec::with_capacity(self.terms.len());
        let mut at: std::collections::HashMap<VarId, usize> =
            std::collections::HashMap::with_capacity(self.terms.len());
        for &(a, v) in &self.terms {
            match at.get(&v) {
                // Saturating: a sum past i128 is refused later as an overflow.
                Some(&i) => out[i].0 = out[i].0.saturating_add(a),
                None => {
                    at.insert(v, out.len());
                    out.push((a, v));
                }
            }
        }
        out.retain(|&(a, _)| a != 0);
        out
    }

    /// `Err` if the expression cannot be posted as it is; else its terms and
    /// constant in `i64`.
    pub(crate) fn checked(&self, context: &str) -> Result<(Vec<(Value, VarId)>, Value), CspError> {
        let overflow = || CspError::Overflow {
            context: context.to_string(),
            detail: "a coefficient or the constant of the expression does not fit in an i64".into(),
        };
        match self.error {
            Some(ExprError::Overflow) => return Err(overflow()),
            Some(ExprError::Lengths { coeffs, vars }) => {
                return Err(CspError::LengthMismatch {
                    context: context.to_string(),
                    what: "the coefficients".into(),
                    expected: vars,
                    got: coeffs,
                });
            }
            None => {}
        }
        let terms = self
            .merged()
            .into_iter()
            .map(|(a, v)| Value::try_from(a).map(|a| (a, v)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| overflow())?;
        let constant = Value::try_from(self.constant).map_err(|_| overflow())?;
        Ok((terms, constant))
    }

    fn scaled(mut self, k: i128) -> Self {
        for (a, _) in &mut self.terms {
            match a.checked_mul(k) {
                Some(p) => *a = p,
                None => self.error = Some(ExprError::Overflow),
            }
        }
        match self.constant.checked_mul(k) {
            Some(p) => self.constant = p,
            None => self.error = Some(ExprError::Overflow),
        }
        self
    }

    fn plus(mut self, other: LinExpr) -> Self {
        self.terms.extend(other.terms);
        match self.constant.checked_add(other.constant) {
            Some(c) => self.constant = c,
            None => self.error = Some(ExprError::Overflow),
        }
        if self.error.is_none() {
            self.error = other.error;
        }
        self
    }
}

impl From<VarId> for LinExpr {
    fn from(x: VarId) -> Self {
        LinExpr {
            terms: vec![(1, x)],
            ..LinExpr::default()
        }
    }
}

impl From<Value> for LinExpr {
    fn from(c: Value) -> Self {
        LinExpr::constant_expr(c)
    }
}

impl From<&LinExpr> for LinExpr {
    fn from(e: &LinExpr) -> Self {
        e.clone()
    }
}

/// A comparison of two linear expressions, ready to post with
/// [`Model::post`] or [`Model::post_reif`]; made by [`LinExpr::le`] and
/// its siblings (also on [`VarId`]: `x.le(y + 1)`).
#[derive(Clone, Debug)]
pub struct LinRelation {
    /// `lhs - rhs`, compared with 0.
    expr: LinExpr,
    relation: Relation,
}

impl LinRelation {
    fn new(lhs: LinExpr, relation: Relation, rhs: LinExpr) -> Self {
        LinRelation {
            expr: lhs - rhs,
            relation,
        }
    }

    /// The relation as `(coefficients, variables, relation, rhs)`, the
    /// arguments of [`Model::linear`]: terms merged, the constant moved to
    /// the right.
    pub fn to_linear(&self) -> Result<(Vec<Value>, Vec<VarId>, Relation, Value), CspError> {
        let (terms, constant) = self.expr.checked("linear expression")?;
        let rhs = constant.checked_neg().ok_or_else(|| CspError::Overflow {
            context: "linear expression".into(),
            detail: "the constant of the expression is -2^63".into(),
        })?;
        if terms.is_empty() {
            return Err(CspError::InvalidArgument {
                context: "linear expression".into(),
                message: format!(
                    "the relation has no variable left (0 {} {rhs}): compare an expression \
                     over variables",
                    self.relation
                ),
            });
        }
        let (coeffs, vars) = terms.into_iter().unzip();
        Ok((coeffs, vars, self.relation, rhs))
    }

    /// Whether the relation holds for a complete assignment (indexed by
    /// variable).
    pub fn holds(&self, values: &[Value]) -> bool {
        let Some(v) = self.expr.eval(values) else {
            return false;
        };
        self.relation.holds(v.into(), 0)
    }
}

/// Something [`Model::post`] can post: any [`Constraint`](crate::Constraint),
/// or a [`LinRelation`] built from expressions.
pub trait Post {
    /// Adds `self` to `model`.
    fn post_into(self, model: &mut Model) -> Result<ConstraintId, CspError>;
}

impl<C: crate::Constraint + 'static> Post for C {
    fn post_into(self, model: &mut Model) -> Result<ConstraintId, CspError> {
        model.post_constraint(Box::new(self))
    }
}

impl Post for LinRelation {
    fn post_into(self, model: &mut Model) -> Result<ConstraintId, CspError> {
        let (coeffs, vars, relation, rhs) = self.to_linear()?;
        model.linear(&coeffs, &vars, relation, rhs)
    }
}

impl Model {
    /// A 0/1 variable `b` with `b = 1` exactly when `relation` holds
    /// (one [`Model::linear_reif`]).
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=3)?;
    /// let y = m.int_var(0..=3)?;
    /// let b = m.post_reif((x + y).ge(5))?;
    /// let b_true = Solver::new(&m, Config::default())?.solutions().filter(|s| s[b] == 1).count();
    /// assert_eq!(b_true, 3); // (2, 3), (3, 2), (3, 3)
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn post_reif(&mut self, relation: LinRelation) -> Result<VarId, CspError> {
        let (coeffs, vars, rel, rhs) = relation.to_linear()?;
        let b = self.bool_var();
        self.linear_reif(&coeffs, &vars, rel, rhs, b)?;
        Ok(b)
    }
}

/// The comparison methods on a variable, so that `x.le(y + 1)` reads as
/// `LinExpr::from(x).le(y + 1)`.
impl VarId {
    /// `self <= rhs`.
    pub fn le(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinExpr::from(self).le(rhs)
    }

    /// `self < rhs`.
    pub fn lt(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinExpr::from(self).lt(rhs)
    }

    /// `self >= rhs`.
    pub fn ge(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinExpr::from(self).ge(rhs)
    }

    /// `self > rhs`.
    pub fn gt(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinExpr::from(self).gt(rhs)
    }

    /// `self == rhs`.
    pub fn eq(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinExpr::from(self).eq(rhs)
    }

    /// `self != rhs`.
    pub fn ne(self, rhs: impl Into<LinExpr>) -> LinRelation {
        LinExpr::from(self).ne(rhs)
    }
}

// ----- operators: every combination of variable, expression and integer -----

impl<R: Into<LinExpr>> Add<R> for LinExpr {
    type Output = LinExpr;
    fn add(self, rhs: R) -> LinExpr {
        self.plus(rhs.into())
    }
}

impl<R: Into<LinExpr>> Sub<R> for LinExpr {
    type Output = LinExpr;
    fn sub(self, rhs: R) -> LinExpr {
        self.plus(rhs.into().scaled(-1))
    }
}

impl<R: Into<LinExpr>> Add<R> for VarId {
    type Output = LinExpr;
    fn add(self, rhs: R) -> LinExpr {
        LinExpr::from(self).plus(rhs.into())
    }
}

impl<R: Into<LinExpr>> Sub<R> for VarId {
    type Output = LinExpr;
    fn sub(self, rhs: R) -> LinExpr {
        LinExpr::from(self).plus(rhs.into().scaled(-1))
    }
}

impl Add<VarId> for Value {
    type Output = LinExpr;
    fn add(self, rhs: VarId) -> LinExpr {
        LinExpr::from(rhs).plus(self.into())
    }
}

impl Add<LinExpr> for Value {
    type Output = LinExpr;
    fn add(self, rhs: LinExpr) -> LinExpr {
        rhs.plus(self.into())
    }
}

impl Sub<VarId> for Value {
    type Output = LinExpr;
    fn sub(self, rhs: VarId) -> LinExpr {
        LinExpr::from(self).plus(LinExpr::from(rhs).scaled(-1))
    }
}

impl Sub<LinExpr> for Value {
    type Output = LinExpr;
    fn sub(self, rhs: LinExpr) -> LinExpr {
        LinExpr::from(self).plus(rhs.scaled(-1))
    }
}

impl Mul<Value> for VarId {
    type Output = LinExpr;
    fn mul(self, k: Value) -> LinExpr {
        LinExpr::from(self).scaled(k.into())
    }
}

impl Mul<VarId> for Value {
    type Output = LinExpr;
    fn mul(self, x: VarId) -> LinExpr {
        LinExpr::from(x).scaled(self.into())
    }
}

impl Mul<Value> for LinExpr {
    type Output = LinExpr;
    fn mul(self, k: Value) -> LinExpr {
        self.scaled(k.into())
    }
}

impl Mul<LinExpr> for Value {
    type Output = LinExpr;
    fn mul(self, e: LinExpr) -> LinExpr {
        e.scaled(self.into())
    }
}

impl Neg for VarId {
    type Output = LinExpr;
    fn neg(self) -> LinExpr {
        LinExpr::from(self).scaled(-1)
    }
}

impl Neg for LinExpr {
    type Output = LinExpr;
    fn neg(self) -> LinExpr {
        self.scaled(-1)
    }
}

impl std::iter::Sum<VarId> for LinExpr {
    fn sum<I: Iterator<Item = VarId>>(iter: I) -> LinExpr {
        iter.fold(LinExpr::default(), |e, x| e + x)
    }
}

impl std::iter::Sum<LinExpr> for LinExpr {
    fn sum<I: Iterator<Item = LinExpr>>(iter: I) -> LinExpr {
        iter.fold(LinExpr::default(), |e, x| e + x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Pruning, Solver};

    fn three(m: &mut Model) -> (VarId, VarId, VarId) {
        let x = m.int_var(-2..=3).unwrap();
        let y = m.int_var(0..=4).unwrap();
        let z = m.int_var(-1..=2).unwrap();
        (x, y, z)
    }

    #[test]
    fn x_plus_2y_minus_z_le_10_posts_one_linear_constraint() {
        let mut m = Model::new();
        let (x, y, z) = three(&mut m);
        m.post((x + 2 * y - z).le(10)).unwrap();
        assert_eq!(m.num_constraints(), 1);
        assert!(matches!(m.posted()[0], crate::Posted::Linear(_)));
    }

    #[test]
    fn every_relation_finds_the_brute_force_solutions() {
        let rels: [fn(LinExpr, LinExpr) -> LinRelation; 6] = [
            |a, b| a.le(b),
            |a, b| a.lt(b),
            |a, b| a.ge(b),
            |a, b| a.gt(b),
            |a, b| a.eq(b),
            |a, b| a.ne(b),
        ];
        let tests: [fn(Value, Value) -> bool; 6] = [
            |a, b| a <= b,
            |a, b| a < b,
            |a, b| a >= b,
            |a, b| a > b,
            |a, b| a == b,
            |a, b| a != b,
        ];
        for (rel, test) in rels.iter().zip(tests) {
            for pruning in Pruning::ALL {
                let mut m = Model::new();
                let (x, y, z) = three(&mut m);
                // 3x - y + 1  REL  2z - x + y - 4, with x twice on the left.
                m.post(rel(2 * x + x - y + 1, 2 * z - x + y - 4)).unwrap();
                let mut expected = 0;
                for a in -2..=3 {
                    for b in 0..=4 {
                        for c in -1..=2 {
                            expected += u64::from(test(3 * a - b + 1, 2 * c - a + b - 4));
                        }
                    }
                }
                let config = Config::textbook().with_pruning(pruning);
                let got = Solver::new(&m, config).unwrap().count();
                assert_eq!(got.solutions, expected, "{pruning:?}");
                assert!(got.is_complete());
            }
        }
    }

    #[test]
    fn post_reif_is_one_exactly_when_the_relation_holds() {
        let mut m = Model::new();
        let (x, y, _) = three(&mut m);
        let rel = (x - y).ne(1);
        let b = m.post_reif(rel.clone()).unwrap();
        let mut seen = 0;
        for s in Solver::new(&m, Config::default()).unwrap().solutions() {
            assert_eq!(s[b] == 1, rel.holds(s.values()));
            seen += 1;
        }
        assert_eq!(seen, 6 * 5 * 4);
    }

    #[test]
    fn terms_merge_and_cancel() {
        let mut m = Model::new();
        let (x, y, _) = three(&mut m);
        let e = x + y - x - 5 + 2;
        assert_eq!(e.terms(), vec![(1, y)]);
        assert_eq!(e.constant(), -3);
        assert_eq!(LinExpr::sum(&[x, y, x]).terms(), vec![(2, x), (1, y)]);
        assert_eq!((-(x - y)).terms(), vec![(-1, x), (1, y)]);
        let total: LinExpr = [x, y].into_iter().sum();
        assert_eq!(total.terms(), vec![(1, x), (1, y)]);
    }

    #[test]
    fn overflow_is_an_error_not_a_wrap() {
        let mut m = Model::new();
        let (x, _, _) = three(&mut m);
        let huge = Value::MAX * (Value::MAX * x);
        assert!(matches!(m.post(huge.le(0)), Err(CspError::Overflow { .. })));
        let wide = x + Value::MAX + Value::MAX;
        assert!(matches!(m.post(wide.le(0)), Err(CspError::Overflow { .. })));
        // x - x leaves no variable: refused in words.
        assert!(matches!(
            m.post((x - x).le(1)),
            Err(CspError::InvalidArgument { .. })
        ));
        let bad = LinExpr::weighted(&[1, 2], &[x]);
        assert!(matches!(
            m.post(bad.le(1)),
            Err(CspError::LengthMismatch { .. })
        ));
        assert_eq!(m.num_constraints(), 0);
    }
}
