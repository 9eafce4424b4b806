//! Views: `a·x + c` as a variable of its own, with no domain and no
//! constraint of its own (see [`Model::view`]).

use super::{Model, VarDecl};
use crate::domains::View;
use crate::{CspError, Domain, Value, VarId};

impl Model {
    /// A *view* `scale · x + offset`: a variable whose value is always
    /// `scale` times `x`'s plus `offset`, with no domain, no undo records
    /// and no constraint of its own.
    ///
    /// The view is an ordinary variable for every other method: post
    /// constraints on it, read it in solutions, ask for its
    /// [`domain`](Model::domain) (the image of `x`'s), its
    /// [`var_name`](Model::var_name) (`3*x+1` unless it is named, see
    /// [`named_view`](Model::named_view)). Its changes are `x`'s changes:
    /// removing a value from the view removes its preimage from `x`, a
    /// bound on the view is a bound on `x` (rounded inward for `|scale| > 1`,
    /// swapped for `scale < 0`), and a constraint on the view wakes when `x`
    /// changes. A view of a view is a view of the base. The search never
    /// branches on a view (it is fixed when its base is): see
    /// `docs/tutorial.md`.
    ///
    /// Declare views after every ordinary variable: their ids then follow the
    /// variables', which is what lets a model without views pay nothing for
    /// them (a [`Solver`](crate::Solver) refuses a model that declares a
    /// variable after a view).
    ///
    /// Fails if `scale` is 0, if `x` is not a variable of this model, or if
    /// the image of `x`'s declared domain does not fit in a [`Value`], or if
    /// `|scale| > 1` and the image spans more than
    /// [`MAX_DOMAIN_WIDTH`](crate::MAX_DOMAIN_WIDTH) values (such a view lists
    /// its values).
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let x = m.named_int_var("x", 0..=3)?;
    /// let y = m.view(x, -2, 5)?; // y = -2x + 5
    /// assert_eq!(m.var_name(y), "-2*x+5");
    /// assert_eq!(m.domain(y)?.values(), vec![-1, 1, 3, 5]);
    /// m.all_different(&[x, y])?; // x != -2x + 5: x = 1 has y = 3, ...
    /// let mut s = Solver::new(&m, Config::textbook())?;
    /// let sols: Vec<_> = s.solutions().map(|s| (s[x], s[y])).collect();
    /// assert_eq!(sols, vec![(0, 5), (1, 3), (2, 1), (3, -1)]);
    /// assert!(m.view(x, 0, 1).is_err());
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn view(&mut self, x: VarId, scale: Value, offset: Value) -> Result<VarId, CspError> {
        self.declare_view(None, x, scale, offset)
    }

    /// [`view`](Model::view) with a name.
    pub fn named_view(
        &mut self,
        name: impl Into<String>,
        x: VarId,
        scale: Value,
        offset: Value,
    ) -> Result<VarId, CspError> {
        self.declare_view(Some(name.into()), x, scale, offset)
    }

    /// The view `x + c` (see [`view`](Model::view)).
    ///
    /// ```
    /// use csp_core::{Config, Model, Relation, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=9)?;
    /// let y = m.offset_view(x, 10)?;
    /// m.linear(&[1, 1], &[x, y], Relation::Eq, 16)?; // x + (x + 10) = 16
    /// let sol = Solver::new(&m, Config::textbook())?.first().solution.unwrap();
    /// assert_eq!((sol[x], sol[y]), (3, 13));
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn offset_view(&mut self, x: VarId, c: Value) -> Result<VarId, CspError> {
        self.view(x, 1, c)
    }

    /// The view `a · x` (see [`view`](Model::view)).
    ///
    /// ```
    /// use csp_core::{Model, Solver, Config};
    /// let mut m = Model::new();
    /// let x = m.int_var(1..=3)?;
    /// let y = m.scale_view(x, 4)?;
    /// assert_eq!(Solver::new(&m, Config::textbook())?.domains().values(y).collect::<Vec<_>>(), [4, 8, 12]);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn scale_view(&mut self, x: VarId, a: Value) -> Result<VarId, CspError> {
        self.view(x, a, 0)
    }

    /// The view `-x` (see [`view`](Model::view)).
    ///
    /// ```
    /// use csp_core::{Model, Solver, Config};
    /// let mut m = Model::new();
    /// let x = m.int_var(2..=5)?;
    /// let y = m.minus_view(x)?;
    /// let s = Solver::new(&m, Config::textbook())?;
    /// assert_eq!((s.domains().min(y), s.domains().max(y)), (-5, -2));
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn minus_view(&mut self, x: VarId) -> Result<VarId, CspError> {
        self.view(x, -1, 0)
    }

    /// If `var` is a view: its base variable, scale and offset
    /// (`var = scale · base + offset`).
    pub fn view_of(&self, var: VarId) -> Option<(VarId, Value, Value)> {
        let w = self.vars.get(var.index())?.view?;
        Some((w.base(), w.scale, w.offset))
    }

    /// Each variable, or its base if it is a view: two variables with the same
    /// base change together.
    pub(crate) fn bases(&self, vars: &[VarId]) -> Vec<VarId> {
        vars.iter()
            .map(|&v| self.view_of(v).map_or(v, |(base, _, _)| base))
            .collect()
    }

    /// Number of views ([`view`](Model::view)) among the variables.
    pub fn num_views(&self) -> usize {
        self.vars.iter().filter(|d| d.view.is_some()).count()
    }

    /// The views in id order, once the model is checked to declare them
    /// after every variable (what the domain store needs).
    pub(crate) fn views_last(&self) -> Result<Vec<View>, CspError> {
        let first = self.vars.iter().position(|d| d.view.is_some());
        let Some(first) = first else {
            return Ok(Vec::new());
        };
        let mut views = Vec::with_capacity(self.vars.len() - first);
        for (i, d) in self.vars.iter().enumerate().skip(first) {
            match d.view {
                Some(w) => views.push(w),
                None => {
                    return Err(CspError::InvalidArgument {
                        context: "views".into(),
                        message: format!(
                            "variable {} (#{i}) is declared after the view {} (#{first}): \
                             declare every variable before the first view",
                            self.var_name(VarId::new(i)),
                            self.var_name(VarId::new(first)),
                        ),
                    });
                }
            }
        }
        Ok(views)
    }

    fn declare_view(
        &mut self,
        name: Option<String>,
        x: VarId,
        scale: Value,
        offset: Value,
    ) -> Result<VarId, CspError> {
        self.check_vars("view", &[x])?;
        let context = || name.clone().unwrap_or_else(|| "view".into());
        if scale == 0 {
            return Err(CspError::InvalidArgument {
                context: context(),
                message: "the scale of a view must not be 0".into(),
            });
        }
        let overflow = |detail: &str| CspError::Overflow {
            context: context(),
            detail: detail.into(),
        };
        // A view of a view: compose into a view of the base.
        let (base, scale, offset) = match self.vars[x.index()].view {
            Some(w) => (
                w.base,
                scale
                    .checked_mul(w.scale)
                    .ok_or_else(|| overflow("the composed scale does not fit in 64 bits"))?,
                scale
                    .checked_mul(w.offset)
                    .and_then(|c| c.checked_add(offset))
                    .ok_or_else(|| overflow("the composed offset does not fit in 64 bits"))?,
            ),
            None => (x.index() as u32, scale, offset),
        };
        // Reading a view backwards negates its scale (`-x` of `-x`, bounds
        // swapped): `i64::MIN` has no negation.
        if scale == Value::MIN {
            return Err(overflow("the scale of a view must not be -2^63"));
        }
        let w = View {
            base,
            scale,
            offset,
        };
        let declared = &self.vars[base as usize].domain;
        let Some((lo, hi)) = declared.bounds() else {
            return Err(CspError::EmptyDomain { var: context() });
        };
        let image = |v: Value| i128::from(scale) * i128::from(v) + i128::from(offset);
        let (a, b) = (image(lo), image(hi));
        let (min, max) = (a.min(b), a.max(b));
        let (Ok(min), Ok(max)) = (Value::try_from(min), Value::try_from(max)) else {
            return Err(overflow(
                "the image of the base's domain does not fit in 64 bits",
            ));
        };
        let domain = match declared {
            Domain::Range(..) if scale.unsigned_abs() == 1 => Domain::Range(min, max),
            Domain::Set(vals) if scale.unsigned_abs() == 1 => {
                Domain::from_values(vals.iter().map(|&v| w.image(v)))
            }
            _ => {
                // Before the image is listed.
                super::check_width(min, max, context)?;
                Domain::from_values(declared.values().into_iter().map(|v| w.image(v)))
            }
        };
        let decl = VarDecl {
            name,
            domain,
            view: Some(w),
        };
        self.push_var(decl, |_| "view".into())
    }
}

/// A view's formula over its base's name: `x+1`, `-x`, `3*x-2`.
pub(super) fn formula(w: View, base: &str) -> String {
    let scaled = match w.scale {
        1 => base.to_string(),
        -1 => format!("-{base}"),
        a => format!("{a}*{base}"),
    };
    if w.offset == 0 {
        scaled
    } else {
        format!("{scaled}{:+}", w.offset)
    }
}

#[cfg(test)]
mod tests {
    use crate::{CspError, Domain, MAX_DOMAIN_WIDTH, Model, Value};

    #[test]
    fn a_scale_without_negation_is_an_error_not_a_panic() {
        let mut m = Model::new();
        let x = m.int_var(0..=0).unwrap();
        let e = m.scale_view(x, Value::MIN).unwrap_err();
        assert!(matches!(e, CspError::Overflow { .. }), "{e}");
        // Composed: -1 * (2^62 * y) * 2 reaches it too.
        let y = m.int_var(0..=0).unwrap();
        let big = m.scale_view(y, 1 << 62).unwrap();
        let e = m.scale_view(big, -2).unwrap_err();
        assert!(matches!(e, CspError::Overflow { .. }), "{e}");
    }

    #[test]
    fn views_compose_and_name_themselves() -> Result<(), CspError> {
        let mut m = Model::new();
        let x = m.named_int_var("x", [1, 4])?;
        let y = m.view(x, 3, 1)?;
        let z = m.view(y, -2, 0)?; // -2(3x + 1) = -6x - 2
        assert_eq!(m.view_of(z), Some((x, -6, -2)));
        assert_eq!(m.var_name(y), "3*x+1");
        assert_eq!(m.var_name(z), "-6*x-2");
        let n = m.minus_view(x)?;
        assert_eq!(m.var_name(n), "-x");
        assert_eq!(m.domain(z)?, &Domain::Set(vec![-26, -8]));
        assert_eq!(m.domain(n)?, &Domain::Set(vec![-4, -1]));
        let named = m.named_view("shifted", x, 1, -1)?;
        assert_eq!(m.var_name(named), "shifted");
        assert_eq!(m.num_views(), 4);
        assert!(m.is_solution(&[4, 13, -26, -4, 3]));
        assert!(!m.is_solution(&[4, 13, -26, -4, 2]));
        assert!(!m.is_solution(&[1, 13, -26, -4, 3]));
        Ok(())
    }

    #[test]
    fn bad_views_are_errors() {
        let mut m = Model::new();
        let x = m.int_var(-10..=10).unwrap();
        let _ = m.int_var(0..=1).unwrap();
        assert_eq!(
            m.view(x, 0, 3).unwrap_err().to_string(),
            "view: the scale of a view must not be 0"
        );
        let e = m.view(x, Value::MAX / 5, 0).unwrap_err();
        assert!(matches!(e, CspError::Overflow { .. }), "{e}");
        let e = m.offset_view(x, Value::MAX - 5).unwrap_err();
        assert!(matches!(e, CspError::Overflow { .. }), "{e}");
        let e = m.scale_view(x, MAX_DOMAIN_WIDTH as Value).unwrap_err();
        assert!(matches!(e, CspError::DomainTooWide { .. }), "{e}");
        let bit = crate::VarId::new(1);
        let big = m.scale_view(bit, 1 << 20).unwrap();
        let e = m.scale_view(big, 1 << 44).unwrap_err();
        assert!(matches!(e, CspError::Overflow { .. }), "{e}");
        assert!(matches!(
            m.view(crate::VarId::new(99), 1, 0),
            Err(CspError::UnknownVariable { .. })
        ));
    }

    #[test]
    fn a_variable_declared_after_a_view_is_refused_by_the_solver() {
        let mut m = Model::new();
        let x = m.named_int_var("x", 0..=3).unwrap();
        m.offset_view(x, 1).unwrap();
        m.named_int_var("late", 0..=3).unwrap();
        let Err(e) = crate::Solver::new(&m, crate::Config::textbook()) else {
            panic!("a variable after a view was accepted");
        };
        assert_eq!(
            e.to_string(),
            "views: variable late (#2) is declared after the view x+1 (#1): declare every variable before the first view"
        );
    }
}
