//! `Model`: variables with declared domains, and the constraints posted on them.

use crate::constraints::{
    AllDifferent, BinaryRelation, Element, Linear, NotEqual, Predicate, Relation, Table, VarElement,
};
use crate::domains::View;
use crate::{Constraint, ConstraintId, CspError, Domain, Value, VarId};

mod groups;
mod posted;
mod views;

pub use posted::Posted;

/// The most values a domain may have and still be listed or walked value by
/// value: 2^24. Any span up to the whole of `i64` may be declared, but the
/// textbook pruning levels refuse a variable of more values
/// ([`CspError::TooWideForLevel`]), a view `a · x + c` with `|a| > 1` lists
/// its values, so the base's declared domain may have at most this many
/// ([`CspError::DomainTooWide`] otherwise), and filters that walk a domain
/// move only its bounds above it.
///
/// How the store keeps a domain is a separate line, lower: a variable that
/// spans more than 2^16 values (from the smallest to the largest declared
/// value) is *wide*: the store keeps its bounds and a sorted list of the
/// ranges of values it lost (holes), never one bit per value, so it costs
/// memory in proportion to its holes. A narrower one gets one bit per value
/// of its span at its first hole.
pub const MAX_DOMAIN_WIDTH: u64 = 1 << 24;

/// A declared variable.
#[derive(Clone, Debug)]
struct VarDecl {
    name: Option<String>,
    /// The declared domain (a view's: the image of its base's).
    domain: Domain,
    /// For a view ([`Model::view`]): what it stands for.
    view: Option<View>,
}

/// A constraint satisfaction problem: variables, their domains, and constraints.
///
/// Build it once, then search it with a [`Solver`](crate::Solver) as often as you
/// like, with any strategy; the model never changes during search.
///
/// ```
/// use csp_core::{Config, Model, Relation, Solver};
/// let mut m = Model::new();
/// let x = m.named_int_var("x", 1..=9)?;
/// let y = m.named_int_var("y", [2, 4, 8])?;
/// m.linear(&[1, 1], &[x, y], Relation::Eq, 10)?;
/// m.not_equal(x, y)?;
/// let mut solver = Solver::new(&m, Config::textbook())?;
/// let solutions: Vec<_> = solver.solutions().map(|s| (s[x], s[y])).collect();
/// assert_eq!(solutions, vec![(2, 8), (6, 4), (8, 2)]);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Default)]
pub struct Model {
    vars: Vec<VarDecl>,
    constraints: Vec<Posted>,
    groups: groups::Groups,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("vars", &self.vars.len())
            .field("constraints", &self.constraints.len())
            .finish()
    }
}

/// Refuses a listed domain of more than [`MAX_DOMAIN_WIDTH`] values from
/// `min` to `max` (`label` names it).
fn check_width(min: Value, max: Value, label: impl FnOnce() -> String) -> Result<(), CspError> {
    let width = (i128::from(max) - i128::from(min) + 1) as u128;
    if width > u128::from(MAX_DOMAIN_WIDTH) {
        return Err(CspError::DomainTooWide {
            var: label(),
            min,
            max,
            width,
            limit: MAX_DOMAIN_WIDTH,
        });
    }
    Ok(())
}

impl Model {
    /// Refuses a variable of more than [`MAX_DOMAIN_WIDTH`] values for a
    /// textbook pruning level, which tests values one by one.
    pub(crate) fn check_narrow(&self, level: crate::Pruning) -> Result<(), CspError> {
        for (i, d) in self.vars.iter().enumerate() {
            if d.view.is_some() {
                continue;
            }
            let Some((min, max)) = d.domain.bounds() else {
                continue;
            };
            // A list of few values over a wide span is walked value by value.
            let width = d.domain.len();
            if width > u128::from(MAX_DOMAIN_WIDTH) {
                return Err(CspError::TooWideForLevel {
                    var: self.var_name(VarId::new(i)),
                    min,
                    max,
                    width,
                    level,
                    limit: MAX_DOMAIN_WIDTH,
                });
            }
        }
        Ok(())
    }

    /// An empty model.
    pub fn new() -> Self {
        Model::default()
    }

    // ----- variables -----

    fn declare(&mut self, name: Option<String>, domain: Domain) -> Result<VarId, CspError> {
        // A set built directly as `Domain::Set` may be unsorted or repeat values.
        let domain = match domain {
            Domain::Set(v) => Domain::from_values(v),
            range => range,
        };
        let label = || {
            name.clone()
                .unwrap_or_else(|| format!("#{}", self.vars.len()))
        };
        if domain.bounds().is_none() {
            return Err(CspError::EmptyDomain { var: label() });
        }
        let decl = VarDecl {
            name,
            domain,
            view: None,
        };
        self.push_var(decl, |n| format!("#{n}"))
    }

    /// Adds a variable (or a view) whose width was checked; errors name it,
    /// or `unnamed(its index)`.
    fn push_var(
        &mut self,
        decl: VarDecl,
        unnamed: impl FnOnce(usize) -> String,
    ) -> Result<VarId, CspError> {
        let n = self.vars.len();
        if n >= u32::MAX as usize {
            return Err(CspError::InvalidArgument {
                context: decl.name.unwrap_or_else(|| unnamed(n)),
                message: "too many variables".into(),
            });
        }
        self.vars.push(decl);
        Ok(VarId::new(n))
    }

    /// A new integer variable with the given domain: a range such as `-3..=7`, or an
    /// explicit set such as `[1, 4, 9]` or a `Vec<Value>`.
    ///
    /// Fails if the domain is empty. A range may span any part of `i64`,
    /// the whole of it included (a range wider than [`MAX_DOMAIN_WIDTH`]
    /// values is kept as bounds and holes, not bits).
    pub fn int_var(&mut self, domain: impl Into<Domain>) -> Result<VarId, CspError> {
        self.declare(None, domain.into())
    }

    /// A new integer variable with a name (used in traces and messages).
    pub fn named_int_var(
        &mut self,
        name: impl Into<String>,
        domain: impl Into<Domain>,
    ) -> Result<VarId, CspError> {
        self.declare(Some(name.into()), domain.into())
    }

    /// `count` new variables named `name[0]`, `name[1]`, ..., all with `domain`.
    ///
    /// Fails, before allocating anything, if the declarations alone would
    /// take more than [`DEFAULT_MEMORY_LIMIT`](crate::DEFAULT_MEMORY_LIMIT)
    /// ([`CspError::MemoryLimit`]), and if the memory cannot be had.
    ///
    /// ```
    /// use csp_core::{CspError, Model};
    /// let mut m = Model::new();
    /// let e = m.int_var_array("v", usize::MAX / 2, 0..=1).unwrap_err();
    /// assert!(matches!(e, CspError::MemoryLimit { .. }), "{e}");
    /// assert_eq!(m.num_vars(), 0);
    /// ```
    pub fn int_var_array(
        &mut self,
        name: &str,
        count: usize,
        domain: impl Into<Domain>,
    ) -> Result<Vec<VarId>, CspError> {
        let domain = domain.into();
        let each = std::mem::size_of::<VarDecl>() + std::mem::size_of::<VarId>() + name.len() + 24;
        let needed = (count as u64).saturating_mul(each as u64);
        let limit = crate::DEFAULT_MEMORY_LIMIT;
        let refused = || CspError::MemoryLimit {
            what: format!("int_var_array(\"{name}\", {count}, ..)"),
            needed,
            limit,
        };
        if needed > limit {
            return Err(refused());
        }
        self.vars.try_reserve(count).map_err(|_| refused())?;
        (0..count)
            .map(|i| self.declare(Some(format!("{name}[{i}]")), domain.clone()))
            .collect()
    }

    /// A new boolean variable: domain `0..=1`.
    pub fn bool_var(&mut self) -> VarId {
        self.vars.push(VarDecl {
            name: None,
            domain: Domain::Range(0, 1),
            view: None,
        });
        VarId::new(self.vars.len() - 1)
    }

    /// A new named boolean variable: domain `0..=1`.
    pub fn named_bool_var(&mut self, name: impl Into<String>) -> VarId {
        self.vars.push(VarDecl {
            name: Some(name.into()),
            domain: Domain::Range(0, 1),
            view: None,
        });
        VarId::new(self.vars.len() - 1)
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    /// All variables, in declaration order.
    pub fn vars(&self) -> impl ExactSizeIterator<Item = VarId> + '_ {
        (0..self.vars.len()).map(VarId::new)
    }

    /// The variable's name, or `#index` if it has none (a view without a
    /// name: its formula over its base's name, such as `3*x+1`).
    pub fn var_name(&self, var: VarId) -> String {
        match self.vars.get(var.index()) {
            Some(VarDecl { name: Some(n), .. }) => n.clone(),
            Some(VarDecl {
                view: Some(w),
                name: None,
                ..
            }) => views::formula(*w, &self.var_name(w.base())),
            _ => format!("#{}", var.index()),
        }
    }

    /// The declared domain of `var`.
    pub fn domain(&self, var: VarId) -> Result<&Domain, CspError> {
        self.vars
            .get(var.index())
            .map(|d| &d.domain)
            .ok_or_else(|| self.unknown("domain", var))
    }

    fn unknown(&self, context: &str, var: VarId) -> CspError {
        CspError::UnknownVariable {
            context: context.into(),
            index: var.index(),
            count: self.vars.len(),
        }
    }

    /// The variables' declared domains, views left out.
    pub(crate) fn declared(&self) -> impl Iterator<Item = (Value, Value, Option<&[Value]>)> + '_ {
        self.vars.iter().filter(|d| d.view.is_none()).map(|d| {
            let (lo, hi) = d.domain.bounds().unwrap_or((0, 0));
            (lo, hi, d.domain.explicit())
        })
    }

    /// Fails unless every variable of `vars` belongs to this model.
    pub fn check_vars(&self, context: &str, vars: &[VarId]) -> Result<(), CspError> {
        match vars.iter().find(|v| v.index() >= self.vars.len()) {
            Some(&v) => Err(self.unknown(context, v)),
            None => Ok(()),
        }
    }

    // ----- constraints -----

    pub(crate) fn add(&mut self, c: Posted) -> Result<ConstraintId, CspError> {
        let scope = c.scope();
        if scope.is_empty() {
            return Err(CspError::EmptyScope {
                constraint: c.name().to_string(),
            });
        }
        self.check_vars(c.name(), scope)?;
        self.constraints.push(c);
        Ok(ConstraintId::new(self.constraints.len() - 1))
    }

    /// Posts a constraint you wrote (see [`Constraint`]) or a relation between
    /// linear expressions (`model.post((x + 2 * y - z).le(10))?`, see
    /// [`LinExpr`](crate::LinExpr)).
    ///
    /// Fails if the scope is empty or names a variable not in this model, and
    /// for a relation that overflows or has no variable.
    pub fn post(&mut self, constraint: impl crate::expr::Post) -> Result<ConstraintId, CspError> {
        constraint.post_into(self)
    }

    /// Posts a boxed constraint of yours ([`Model::post`] boxes it for you).
    pub fn post_constraint(
        &mut self,
        constraint: Box<dyn Constraint>,
    ) -> Result<ConstraintId, CspError> {
        self.add(Posted::Custom(constraint))
    }

    /// `x != y`.
    pub fn not_equal(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, CspError> {
        self.add(Posted::NotEqual(NotEqual::new(x, y, 0)))
    }

    /// `x != y + offset` (see [`NotEqual`]).
    pub fn not_equal_offset(
        &mut self,
        x: VarId,
        y: VarId,
        offset: Value,
    ) -> Result<ConstraintId, CspError> {
        self.add(Posted::NotEqual(NotEqual::new(x, y, offset)))
    }

    /// All of `vars` take different values (see [`AllDifferent`]).
    pub fn all_different(&mut self, vars: &[VarId]) -> Result<ConstraintId, CspError> {
        self.add(Posted::AllDifferent(AllDifferent::new(vars)))
    }

    /// All of `vars` take different values, filtered by value elimination
    /// alone at every level (see [`AllDifferent::values_only`]).
    pub fn all_different_by_value(&mut self, vars: &[VarId]) -> Result<ConstraintId, CspError> {
        self.add(Posted::AllDifferent(AllDifferent::new(vars).values_only()))
    }

    /// All of `vars[i] + offsets[i]` are different (see [`AllDifferent`]).
    pub fn all_different_offsets(
        &mut self,
        vars: &[VarId],
        offsets: &[Value],
    ) -> Result<ConstraintId, CspError> {
        self.add(Posted::AllDifferent(AllDifferent::with_offsets(
            vars, offsets,
        )?))
    }

    /// `sum coeffs[i] * vars[i]  relation  rhs` (see [`Linear`]).
    ///
    /// Fails on lists of different lengths, or if a sum over the declared domains
    /// could overflow.
    pub fn linear(
        &mut self,
        coeffs: &[Value],
        vars: &[VarId],
        relation: Relation,
        rhs: Value,
    ) -> Result<ConstraintId, CspError> {
        let mut c = Linear::new(coeffs, vars, relation, rhs)?;
        self.check_vars("linear", vars)?;
        let bounds: Vec<(Value, Value)> = vars
            .iter()
            .map(|v| self.vars[v.index()].domain.bounds().unwrap_or((0, 0)))
            .collect();
        c.check_range(&bounds, &self.bases(vars))?;
        self.add(Posted::Linear(c))
    }

    /// `x = y`.
    pub fn equal(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, CspError> {
        self.linear(&[1, -1], &[x, y], Relation::Eq, 0)
    }

    /// `x < y`.
    pub fn less_than(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, CspError> {
        self.linear(&[1, -1], &[x, y], Relation::Lt, 0)
    }

    /// The scope takes one of `tuples` (see [`Table`]).
    pub fn table(
        &mut self,
        vars: &[VarId],
        tuples: Vec<Vec<Value>>,
    ) -> Result<ConstraintId, CspError> {
        self.add(Posted::Table(Table::new(vars, tuples)?))
    }

    /// The scope matches one of `rows`, whose entries are values or
    /// [`STAR`](crate::STAR) (any value) (see [`Table::short`]).
    pub fn short_table(
        &mut self,
        vars: &[VarId],
        rows: Vec<Vec<Option<Value>>>,
    ) -> Result<ConstraintId, CspError> {
        self.add(Posted::Table(Table::short(vars, rows)?))
    }

    /// The scope matches none of `rows`, whose entries are values or
    /// [`STAR`](crate::STAR) (see [`Table::negative`]).
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver, STAR};
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=2)?;
    /// let y = m.int_var(0..=2)?;
    /// m.negative_table(&[x, y], vec![vec![Some(0), STAR], vec![Some(1), Some(1)]])?;
    /// assert_eq!(Solver::new(&m, Config::default())?.count().solutions, 9 - 3 - 1);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn negative_table(
        &mut self,
        vars: &[VarId],
        rows: Vec<Vec<Option<Value>>>,
    ) -> Result<ConstraintId, CspError> {
        self.add(Posted::Table(Table::negative(vars, rows)?))
    }

    /// `result = array[index]`, index from 0 (see [`Element`]).
    pub fn element(
        &mut self,
        index: VarId,
        array: &[Value],
        result: VarId,
    ) -> Result<ConstraintId, CspError> {
        if array.is_empty() {
            return Err(CspError::InvalidArgument {
                context: "element".into(),
                message: "the array is empty".into(),
            });
        }
        self.add(Posted::Element(Element::new(index, array, result)))
    }

    /// `result = vars[index]`, index from 0 (see [`VarElement`]).
    pub fn element_var(
        &mut self,
        index: VarId,
        vars: &[VarId],
        result: VarId,
    ) -> Result<ConstraintId, CspError> {
        if vars.is_empty() {
            return Err(CspError::InvalidArgument {
                context: "element".into(),
                message: "the array is empty".into(),
            });
        }
        self.add(Posted::VarElement(VarElement::new(index, vars, result)))
    }

    /// A constraint given by a closure over the values of `vars` (see
    /// [`Predicate`]).
    pub fn predicate(
        &mut self,
        name: impl Into<String>,
        vars: &[VarId],
        test: impl Fn(&[Value]) -> bool + Send + Sync + 'static,
    ) -> Result<ConstraintId, CspError> {
        self.add(Posted::Custom(Box::new(Predicate::new(name, vars, test))))
    }

    /// A relation between `x` and `y` given by a closure on a pair of values,
    /// filtered by support (see [`BinaryRelation`]).
    pub fn binary_relation(
        &mut self,
        name: impl Into<String>,
        x: VarId,
        y: VarId,
        allowed: impl Fn(Value, Value) -> bool + Send + Sync + 'static,
    ) -> Result<ConstraintId, CspError> {
        self.add(Posted::Custom(Box::new(BinaryRelation::new(
            name, x, y, allowed,
        ))))
    }

    /// Number of constraints.
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// The constraint with id `id`, if any.
    pub fn constraint(&self, id: ConstraintId) -> Option<&dyn Constraint> {
        self.constraints
            .get(id.index())
            .map(|c| c as &dyn Constraint)
    }

    /// All constraints with their ids, in posting order.
    pub fn constraints(
        &self,
    ) -> impl ExactSizeIterator<Item = (ConstraintId, &dyn Constraint)> + '_ {
        self.constraints
            .iter()
            .enumerate()
            .map(|(i, c)| (ConstraintId::new(i), c as &dyn Constraint))
    }

    /// The posted constraints, in posting order (the index is the
    /// [`ConstraintId`]).
    pub fn posted(&self) -> &[Posted] {
        &self.constraints
    }

    /// Names a group of constraints: an explanation
    /// ([`explain`](crate::explain)) reports the group by `name`, as one
    /// rule, instead of its constraints one by one. Naming a group again
    /// adds to it; a constraint belongs to at most one group.
    ///
    /// Fails on an empty name, an id that is not one of this model's
    /// constraints, or a constraint already in another group.
    ///
    /// ```
    /// use csp_core::{Config, Model, explain};
    /// let mut m = Model::new();
    /// let rooms = m.int_var_array("room", 3, 1..=2)?;
    /// let distinct = m.all_different(&rooms)?;
    /// let a = m.post(rooms[0].ge(1))?;
    /// m.name_group("one exam per room", &[distinct])?;
    /// m.name_group("room 1 is free", &[a])?;
    /// assert_eq!(m.groups().count(), 2);
    /// // Three exams cannot have two rooms to themselves.
    /// let why = explain::explain(&m, &Config::default())?;
    /// assert_eq!(why.names(&m), ["one exam per room"]);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn name_group(
        &mut self,
        name: impl Into<String>,
        constraints: &[ConstraintId],
    ) -> Result<(), CspError> {
        self.groups
            .name(name.into(), constraints, self.constraints.len())
    }

    /// The named groups ([`Model::name_group`]) and their constraints, in the
    /// order they were first named.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = (&str, &[ConstraintId])> + '_ {
        self.groups.iter()
    }

    /// The name of the group `id` belongs to, if it belongs to one.
    pub fn group_of(&self, id: ConstraintId) -> Option<&str> {
        let g = self.groups.index_of(id)?;
        self.groups.iter().nth(g).map(|(name, _)| name)
    }

    /// Whether `values` (one per variable, in declaration order) is a solution:
    /// every value in its declared domain and every constraint satisfied.
    pub fn is_solution(&self, values: &[Value]) -> bool {
        if values.len() != self.vars.len() {
            return false;
        }
        if !self.vars.iter().zip(values).all(|(d, &v)| {
            d.domain.contains(v)
                && d.view.is_none_or(|w| {
                    values[w.base as usize]
                        .checked_mul(w.scale)
                        .and_then(|x| x.checked_add(w.offset))
                        == Some(v)
                })
        }) {
            return false;
        }
        let mut buf = Vec::new();
        self.constraints.iter().all(|c| {
            buf.clear();
            buf.extend(c.scope().iter().map(|v| values[v.index()]));
            c.check(&buf)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_domain_is_an_error_naming_the_variable() {
        let mut m = Model::new();
        let e = m.named_int_var("x", Domain::Range(3, 2)).unwrap_err();
        assert_eq!(e.to_string(), "variable x: empty domain");
        assert!(matches!(
            m.int_var(Vec::new()),
            Err(CspError::EmptyDomain { .. })
        ));
        assert_eq!(
            m.int_var(Vec::new()).unwrap_err().to_string(),
            "variable #0: empty domain"
        );
    }

    #[test]
    fn unsorted_sets_are_normalised() {
        let mut m = Model::new();
        let x = m.int_var(Domain::Set(vec![5, -2, 5, 1])).unwrap();
        assert_eq!(m.domain(x).unwrap(), &Domain::Set(vec![-2, 1, 5]));
        let s = crate::Solver::new(&m, crate::Config::textbook()).unwrap();
        assert_eq!(s.domains().values(x).collect::<Vec<_>>(), vec![-2, 1, 5]);
    }

    #[test]
    fn any_span_of_i64_is_a_domain() {
        let mut m = Model::new();
        let x = m.int_var(0..=(MAX_DOMAIN_WIDTH as Value)).unwrap();
        let all = m.int_var(Value::MIN..=Value::MAX).unwrap();
        let ends = m.int_var([Value::MIN, 0, Value::MAX]).unwrap();
        let s = crate::Solver::new(&m, crate::Config::default()).unwrap();
        let d = s.domains();
        assert_eq!(d.len(x), MAX_DOMAIN_WIDTH as usize + 1);
        // 2^64 values: the size saturates.
        assert_eq!(
            (d.min(all), d.max(all), d.len(all)),
            (Value::MIN, Value::MAX, usize::MAX)
        );
        assert_eq!(
            d.values(ends).collect::<Vec<_>>(),
            [Value::MIN, 0, Value::MAX]
        );
        assert!(!d.contains(ends, 1) && d.contains(ends, 0));
        assert_eq!(d.next_value(ends, Value::MIN), Some(0));
        assert_eq!(d.prev_value(ends, Value::MAX), Some(0));
        // A view that lists its values may not list more than the limit.
        let e = m.scale_view(x, 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "variable view: domain 0..=33554432 spans 33554433 values, more than the limit of 16777216"
        );
        assert!(m.offset_view(all, 0).is_ok() && m.minus_view(x).is_ok());
    }

    #[test]
    fn unknown_variable_in_a_scope_is_an_error() {
        let mut m = Model::new();
        let x = m.int_var(0..=1).unwrap();
        let e = m.not_equal(x, VarId::new(5)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "not-equal: unknown variable #5 (the model has 1 variables)"
        );
    }

    #[test]
    fn empty_scope_and_length_mismatch_are_errors() {
        let mut m = Model::new();
        let x = m.int_var(0..=1).unwrap();
        assert!(matches!(
            m.all_different(&[]),
            Err(CspError::EmptyScope { .. })
        ));
        assert!(matches!(
            m.linear(&[1, 2], &[x], Relation::Eq, 0),
            Err(CspError::LengthMismatch { .. })
        ));
        assert!(matches!(
            m.table(&[x], vec![vec![0, 1]]),
            Err(CspError::LengthMismatch { .. })
        ));
        assert_eq!(
            m.all_different(&[]).unwrap_err().to_string(),
            "constraint all-different: empty scope"
        );
        assert_eq!(
            m.linear(&[1, 2], &[x], Relation::Eq, 0)
                .unwrap_err()
                .to_string(),
            "linear: coefficients has length 2, expected 1"
        );
        assert_eq!(
            m.table(&[x], vec![vec![0, 1]]).unwrap_err().to_string(),
            "table: a tuple has length 2, expected 1"
        );
        assert_eq!(
            m.all_different_offsets(&[x, x], &[1])
                .unwrap_err()
                .to_string(),
            "all-different: offsets has length 1, expected 2"
        );
        assert_eq!(
            m.predicate("never", &[], |_| false)
                .unwrap_err()
                .to_string(),
            "constraint never: empty scope"
        );
        assert_eq!(m.num_constraints(), 0);
    }

    #[test]
    fn element_over_an_empty_array_is_an_error() {
        let mut m = Model::new();
        let i = m.int_var(0..=1).unwrap();
        let r = m.int_var(0..=1).unwrap();
        assert_eq!(
            m.element(i, &[], r).unwrap_err().to_string(),
            "element: the array is empty"
        );
        assert_eq!(
            m.element_var(i, &[], r).unwrap_err().to_string(),
            "element: the array is empty"
        );
        assert_eq!(m.num_constraints(), 0);
    }

    #[test]
    fn a_variable_of_another_model_is_an_error_everywhere() {
        let mut other = Model::new();
        let _ = other.int_var_array("o", 3, 0..=1).unwrap();
        let stranger = other.int_var(0..=1).unwrap(); // index 3
        let mut m = Model::new();
        let x = m.int_var(0..=1).unwrap();
        assert_eq!(
            m.linear(&[1, 1], &[x, stranger], Relation::Le, 1)
                .unwrap_err()
                .to_string(),
            "linear: unknown variable #3 (the model has 1 variables)"
        );
        assert_eq!(
            m.element(stranger, &[0, 1], x).unwrap_err().to_string(),
            "element: unknown variable #3 (the model has 1 variables)"
        );
        assert_eq!(
            m.domain(stranger).unwrap_err().to_string(),
            "domain: unknown variable #3 (the model has 1 variables)"
        );
        assert_eq!(m.num_constraints(), 0);
    }

    #[test]
    fn linear_that_could_overflow_is_refused() {
        let mut m = Model::new();
        let x = m.int_var([Value::MAX - 1, Value::MAX]).unwrap();
        let e = m
            .linear(&[Value::MAX; 8], &[x; 8], Relation::Le, 0)
            .unwrap_err();
        assert!(matches!(e, CspError::Overflow { .. }), "{e}");
        assert_eq!(
            e.to_string(),
            "linear: arithmetic overflow (the sum's extreme values do not fit in 128 bits)"
        );
    }

    #[test]
    fn is_solution_checks_domains_and_constraints() {
        let mut m = Model::new();
        let x = m.int_var(0..=2).unwrap();
        let y = m.int_var(0..=2).unwrap();
        m.less_than(x, y).unwrap();
        assert!(m.is_solution(&[0, 2]));
        assert!(!m.is_solution(&[2, 0]));
        assert!(!m.is_solution(&[0, 3]));
        assert!(!m.is_solution(&[0]));
    }
}
