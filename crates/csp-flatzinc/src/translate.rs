//! Translation of a FlatZinc syntax tree into a csp-core model, with its outputs, objective and search plan.

use crate::hash::HashMap;

use csp_core::{
    Constraint, CspError, Domain, Goal, Linear, Model, Relation, Restarts, Value, VarId,
};

use crate::ast::{self, BasicParType, Decl, Expr, ParType, VarType};
use crate::constraints::InSet;
use crate::error::TranslateError;
use crate::output::Output;
use crate::strategy::Phase;

mod declared;
mod options;
mod read;

pub(crate) use declared::{declared_vars, is_declared, projection, set_elements_where, vars_where};
pub(crate) use options::Stopper;
pub use options::{AllDifferentFiltering, TranslateOptions};

/// A FlatZinc value: a constant or a variable, with its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// An integer constant.
    Int(Value),
    /// A Boolean constant.
    Bool(bool),
    /// An integer variable.
    IntVar(VarId),
    /// A Boolean variable (domain `0..=1`, printed as `false`/`true`).
    BoolVar(VarId),
}

/// What a FlatZinc name stands for.
#[derive(Clone, Debug)]
pub(crate) enum Symbol {
    /// An int or bool parameter, or a variable.
    Scalar(Scalar),
    /// A set-of-int parameter.
    Set(Domain),
    /// An array of parameters or variables.
    Array(Vec<Scalar>),
    /// An array of set-of-int parameters.
    SetArray(Vec<Domain>),
    /// A set variable (or a constant set declared as one).
    SetVar(crate::sets::SetVar),
    /// An array of set variables.
    SetVarArray(Vec<crate::sets::SetVar>),
    /// A float parameter or array, which may be declared but not used.
    Float,
}

/// The memory a declared variable takes, about, from the model to the
/// solver (its name, domain, watches and store entry): an array declaration
/// whose variables would need more than the memory limit
/// ([`TranslateOptions::memory_limit`], by default csp-core's
/// [`DEFAULT_MEMORY_LIMIT`](csp_core::DEFAULT_MEMORY_LIMIT)) is refused before
/// any is made.
pub const BYTES_PER_VARIABLE: u64 = 256;

/// A FlatZinc model as a csp-core model, plus what the solver front end needs.
#[derive(Debug)]
pub struct Translation {
    /// The variables and constraints.
    pub model: Model,
    /// The `output_var` and `output_array` items, in declaration order.
    pub outputs: Vec<Output>,
    /// The variable to minimise or maximise, if the solve item optimises. A constant
    /// objective is a variable fixed to that constant: every solution is then optimal.
    pub objective: Option<(VarId, Goal)>,
    /// The search annotations as phases (empty without annotations or with free search).
    pub phases: Vec<Phase>,
    /// The solve item's restart annotation (`restart_luby(100)`, ...), if it
    /// has one (`None` with free search).
    pub restarts: Option<Restarts>,
    /// The variables the modeller declared: those of the FlatZinc file
    /// without `var_is_introduced` or `is_defined_var` (MiniZinc marks the
    /// variables it adds, and those a constraint defines from others), in
    /// declaration order. The default search branches on them first.
    pub decision_vars: Vec<VarId>,
    /// The variables solutions are told apart by: those not marked
    /// `var_is_introduced` (the elements of such sets included), those
    /// printed (`output_var`, `output_array`) and those the search
    /// annotations name, each once. The others are MiniZinc's auxiliary
    /// variables (such as the Boolean `r` of a half-reified `r -> c`, free
    /// whenever `c` holds): when fzn-csp enumerates solutions it reports
    /// each assignment of these once ([`csp_core::Config::with_projection`]).
    pub projection: Vec<VarId>,
    /// The elements of the set variables the modeller declared (no
    /// `var_is_introduced` or `is_defined_var`), set by set in declaration
    /// order, each set's by increasing value. The default search decides
    /// them first, in this order, each in the set first
    /// ([`SearchPlan::elements_in_first`](crate::SearchPlan::elements_in_first)).
    pub set_decisions: Vec<VarId>,
    /// The 0/1 variables that stand for the elements of the model's set
    /// variables: those fzn-csp makes for each `var set of` (one per possible
    /// element), then, for FlatZinc compiled with MiniZinc's `nosets.mzn`
    /// (which turns each set into Booleans), the `var bool` items marked
    /// `var_is_introduced` and `output_var` that no constraint defines. The
    /// default search tries 1 (the element in the set) first on them, as
    /// Gecode's default search on set variables does
    /// ([`SearchPlan::elements_in_first`](crate::SearchPlan::elements_in_first)).
    pub set_elements: Vec<VarId>,
    /// The variables the objective depends on through its defining
    /// constraints (`int_lin_eq`, `bool2int`, `array_int_element` with
    /// `defines_var`, and views), sorted by variable, each with the value
    /// order that makes the objective best first and its stake: how far it
    /// can move the objective. Empty for a satisfaction model. The default
    /// search uses it ([`SearchPlan::objective_guided`](crate::SearchPlan)).
    pub objective_guide: Vec<crate::Guided>,
    /// `var int` variables whose bounds, inferred from the constraints that
    /// define them, reach beyond 64-bit integers and were cut to fit: solutions
    /// found are still solutions, but a search that ends without one (or with
    /// an optimum) proves nothing; [`run`](crate::run) then prints neither
    /// `=====UNSATISFIABLE=====` nor `==========`.
    pub clamped: Vec<String>,
    /// For each constraint of [`model`](Translation::model) (by id), the
    /// index in the file's constraint items of the item that posted it;
    /// `None` for a constraint a declaration posted (a variable restricted
    /// to its declared domain). `fzn-csp --explain` reports conflicts by
    /// these items.
    pub posted_by: Vec<Option<usize>>,
}

/// Translates a parsed FlatZinc model.
///
/// ```
/// let ast = csp_flatzinc::parse(
///     "var 1..3: x :: output_var;\nvar 1..3: y;\nconstraint int_lt(x, y);\nsolve maximize x;",
/// )?;
/// let t = csp_flatzinc::translate(&ast, &Default::default())?;
/// assert_eq!(t.model.num_vars(), 2);
/// assert_eq!(t.outputs[0].name, "x");
/// assert!(t.objective.is_some());
/// # Ok::<(), csp_flatzinc::Error>(())
/// ```
pub fn translate(
    ast: &ast::Model,
    options: &TranslateOptions,
) -> Result<Translation, TranslateError> {
    // Views reorder the declarations; should that ever fail where the file
    // order does not, the translation without views stands (and a real
    // error is reported by it, the same either way). A translation stopped
    // by a limit is not tried again.
    crate::views::translate_views(ast, options, true).or_else(|e| match e {
        TranslateError::Stopped { .. } => Err(e),
        _ => crate::views::translate_views(ast, options, false),
    })
}

/// The state of a translation: the model so far and the meaning of each name.
pub(crate) struct Context {
    pub(crate) model: Model,
    symbols: HashMap<String, Symbol>,
    consts: HashMap<Value, VarId>,
    /// The line of the item being translated, for errors.
    pub(crate) line: u32,
    /// Domains cut for views (`views.rs`), by variable name.
    pub(crate) restricted: HashMap<String, Domain>,
    /// Once views are declared: the constant 0, base of later constants.
    pub(crate) zero: Option<VarId>,
    /// The memory limit in force ([`TranslateOptions::memory_limit`]).
    pub(crate) memory_limit: u64,
    /// The translation's deadline and cancel flag.
    pub(crate) stopper: Stopper,
    /// How `all_different_int` filters.
    pub(crate) all_different: AllDifferentFiltering,
    /// With [`TranslateOptions::channel_equalities`]: the comparisons
    /// grouped into channels (see `builtins::collect_channels`).
    pub(crate) channels: Option<Channels>,
    /// The 0/1 variables of the set variables' elements, in declaration order.
    pub(crate) set_elements: Vec<VarId>,
}

/// The `int_eq_reif` and `int_ne_reif` items posted as one
/// [`EqualityChannel`](csp_core::EqualityChannel) per variable compared with
/// two or more constants.
#[derive(Default)]
pub(crate) struct Channels {
    /// The literals `(c, b, equal)` of each variable whose channel is still
    /// to post (by its first item).
    pub(crate) groups: HashMap<VarId, Vec<(Value, VarId, bool)>>,
    /// The items grouped, with their variable.
    pub(crate) items: HashMap<usize, VarId>,
    /// The constraint item being posted.
    pub(crate) item: usize,
}

impl Context {
    pub(crate) fn new(options: &TranslateOptions) -> Self {
        Context {
            model: Model::new(),
            symbols: HashMap::default(),
            consts: HashMap::default(),
            line: 0,
            restricted: HashMap::default(),
            zero: None,
            memory_limit: options.memory_limit(),
            stopper: Stopper::new(options),
            all_different: options.all_different,
            channels: options.channel_equalities.then(Channels::default),
            set_elements: Vec::new(),
        }
    }

    /// `Err(Stopped)` once the deadline passed or the cancel flag is set
    /// (asked at every step; the clock is read every few).
    #[inline]
    pub(crate) fn poll(&mut self) -> Result<(), TranslateError> {
        match self.stopper.poll() {
            Some(reason) => Err(TranslateError::Stopped {
                reason,
                line: self.line,
            }),
            None => Ok(()),
        }
    }

    pub(crate) fn bad(&self, context: &str, expected: &str) -> TranslateError {
        TranslateError::BadArgument {
            context: context.to_string(),
            expected: expected.to_string(),
            line: self.line,
        }
    }

    pub(crate) fn core(&self, source: CspError) -> TranslateError {
        TranslateError::Core {
            source,
            line: self.line,
        }
    }

    pub(crate) fn symbol(&self, name: &str) -> Result<&Symbol, TranslateError> {
        self.symbols
            .get(name)
            .ok_or_else(|| TranslateError::UnknownIdentifier {
                name: name.to_string(),
                line: self.line,
            })
    }

    // ---------------------------------------------------------------- posting

    /// Posts a constraint, mapping csp-core's refusal to an error on this line.
    pub(crate) fn post(&mut self, c: impl Constraint + 'static) -> Result<(), TranslateError> {
        self.model.post(c).map(|_| ()).map_err(|e| self.core(e))
    }

    /// Posts `sum coeffs[i] * vars[i]  relation  rhs`.
    pub(crate) fn linear(
        &mut self,
        coeffs: &[Value],
        vars: &[VarId],
        relation: Relation,
        rhs: Value,
    ) -> Result<(), TranslateError> {
        if vars.is_empty() {
            // An empty sum is 0.
            let holds = Linear::new(&[], &[], relation, rhs)
                .map_err(|e| self.core(e))?
                .check(&[]);
            return if holds { Ok(()) } else { self.post_false() };
        }
        self.model
            .linear(coeffs, vars, relation, rhs)
            .map(|_| ())
            .map_err(|e| self.core(e))
    }

    /// Posts `b <-> (sum coeffs[i] * vars[i]  relation  rhs)` (a comparison of
    /// one variable with a constant is csp-core's cheap `ReifiedCompare`).
    pub(crate) fn linear_reif(
        &mut self,
        coeffs: &[Value],
        vars: &[VarId],
        relation: Relation,
        rhs: Value,
        b: VarId,
    ) -> Result<(), TranslateError> {
        self.model
            .linear_reif(coeffs, vars, relation, rhs, b)
            .map(|_| ())
            .map_err(|e| self.core(e))
    }

    /// Fails unless the sums of a linear expression over the declared domains fit
    /// comfortably in 128 bits (as `Model::linear` requires of its own constraints).
    pub(crate) fn check_linear_range(
        &self,
        coeffs: &[Value],
        vars: &[VarId],
        rhs: Value,
    ) -> Result<(), TranslateError> {
        let overflow = || {
            self.core(CspError::Overflow {
                context: "linear".into(),
                detail: "the sum's extreme values do not fit in 128 bits".into(),
            })
        };
        let mut total = i128::from(rhs).abs();
        for (&a, &x) in coeffs.iter().zip(vars) {
            let (lo, hi) = self
                .model
                .domain(x)
                .map_err(|e| self.core(e))?
                .bounds()
                .unwrap_or((0, 0));
            let m = i128::from(lo).abs().max(i128::from(hi).abs());
            let term = i128::from(a).abs().checked_mul(m).ok_or_else(overflow)?;
            total = total.checked_add(term).ok_or_else(overflow)?;
        }
        total.checked_mul(4).map(|_| ()).ok_or_else(overflow)
    }

    /// Makes the model unsatisfiable: `0 * x = 1`.
    pub(crate) fn post_false(&mut self) -> Result<(), TranslateError> {
        let x = self.const_var(0)?;
        self.linear(&[0], &[x], Relation::Eq, 1)
    }

    /// Restricts `var` to `domain` unless its declared domain already lies inside.
    fn restrict(&mut self, var: VarId, domain: &Domain) -> Result<(), TranslateError> {
        let declared = self.model.domain(var).map_err(|e| self.core(e))?;
        let inside = match (declared.bounds(), domain) {
            (None, _) => true,
            (Some((lo, hi)), Domain::Range(a, b)) => *a <= lo && hi <= *b,
            (Some(_), Domain::Set(_)) if declared.len() <= 4096 => {
                declared.values().iter().all(|&v| domain.contains(v))
            }
            _ => false,
        };
        if inside {
            Ok(())
        } else {
            self.post(InSet::new(var, domain.clone()))
        }
    }

    // ---------------------------------------------------------------- declarations

    pub(crate) fn declare(
        &mut self,
        decl: &Decl,
        inferred: &HashMap<String, (Value, Value)>,
    ) -> Result<(), TranslateError> {
        let name = decl.name();
        if self.symbols.contains_key(name) {
            return Err(TranslateError::Duplicate {
                name: name.to_string(),
                line: self.line,
            });
        }
        if let Some(set) = crate::sets::declare(self, decl)? {
            self.define(name, set);
            return Ok(());
        }
        let symbol = match decl {
            Decl::Par(p) => self.parameter(p)?,
            Decl::Var(v) => {
                let domain = match self.restricted.remove(&v.name) {
                    Some(cut) => Some(cut),
                    None => self.domain(&v.name, &v.ty, inferred)?,
                };
                let is_bool = v.ty == VarType::Bool;
                let s = match &v.value {
                    Some(e) => {
                        let s = self.scalar(e, &format!("the value of `{}`", v.name))?;
                        self.constrain(s, domain.as_ref())?
                    }
                    None => self.fresh(&v.name, domain, is_bool)?,
                };
                Symbol::Scalar(retype(s, is_bool))
            }
            Decl::VarArray(a) => {
                let domain = self.domain(&a.name, &a.element, &HashMap::default());
                let is_bool = a.element == VarType::Bool;
                let items = match &a.value {
                    Some(items) => {
                        let domain = match domain {
                            Ok(d) => d,
                            Err(TranslateError::Unbounded { .. }) => None,
                            Err(e) => return Err(e),
                        };
                        let what = format!("an element of `{}`", a.name);
                        let mut out = Vec::with_capacity(items.len());
                        for item in items {
                            let s = self.scalar(item, &what)?;
                            out.push(retype(self.constrain(s, domain.as_ref())?, is_bool));
                        }
                        out
                    }
                    None => {
                        let domain = domain?;
                        // Checked before anything is allocated: a 49-byte
                        // file may declare billions of variables.
                        let needed = (a.len as u64).saturating_mul(BYTES_PER_VARIABLE);
                        if needed > self.memory_limit {
                            return Err(TranslateError::Core {
                                source: csp_core::CspError::MemoryLimit {
                                    what: format!("array `{}` of {} variables", a.name, a.len),
                                    needed,
                                    limit: self.memory_limit,
                                },
                                line: self.line,
                            });
                        }
                        let mut items = Vec::with_capacity(a.len);
                        for i in 0..a.len {
                            self.poll()?;
                            let name = format!("{}[{}]", a.name, i + 1);
                            items.push(self.fresh(&name, domain.clone(), is_bool)?);
                        }
                        items
                    }
                };
                Symbol::Array(items)
            }
        };
        self.define(name, symbol);
        Ok(())
    }

    /// Gives `name` its meaning.
    pub(crate) fn define(&mut self, name: &str, symbol: Symbol) {
        self.symbols.insert(name.to_string(), symbol);
    }

    fn parameter(&self, p: &ast::ParDecl) -> Result<Symbol, TranslateError> {
        let what = format!("the value of `{}`", p.name);
        let scalar = |s: Scalar, want_bool: bool| match (s, want_bool) {
            (Scalar::Int(_), false) | (Scalar::Bool(_), true) => Ok(s),
            (_, false) => Err(self.bad(&what, "an integer constant")),
            (_, true) => Err(self.bad(&what, "a Boolean constant")),
        };
        Ok(match (&p.ty, &p.value) {
            (ParType::Basic(BasicParType::Int), v) => {
                Symbol::Scalar(scalar(self.scalar(v, &what)?, false)?)
            }
            (ParType::Basic(BasicParType::Bool), v) => {
                Symbol::Scalar(scalar(self.scalar(v, &what)?, true)?)
            }
            (ParType::Basic(BasicParType::SetOfInt), v) => Symbol::Set(self.set(v, &what)?),
            (ParType::Basic(BasicParType::Float), _) => Symbol::Float,
            (ParType::Array { element, .. }, v) => match element {
                BasicParType::Int | BasicParType::Bool => {
                    let want_bool = *element == BasicParType::Bool;
                    let items = self.scalars(v, &what)?;
                    Symbol::Array(
                        items
                            .into_iter()
                            .map(|s| scalar(s, want_bool))
                            .collect::<Result<_, _>>()?,
                    )
                }
                BasicParType::SetOfInt => match v {
                    Expr::Array(items) => Symbol::SetArray(
                        items
                            .iter()
                            .map(|e| self.set(e, &what))
                            .collect::<Result<_, _>>()?,
                    ),
                    _ => return Err(self.bad(&what, "an array of sets")),
                },
                BasicParType::Float => Symbol::Float,
            },
        })
    }

    /// The declared domain of a variable type; `None` for an unconstrained `var int`
    /// bound by its value.
    pub(crate) fn domain(
        &self,
        name: &str,
        ty: &VarType,
        inferred: &HashMap<String, (Value, Value)>,
    ) -> Result<Option<Domain>, TranslateError> {
        let unsupported = |what: &str| TranslateError::UnsupportedType {
            name: name.to_string(),
            what: what.to_string(),
            line: self.line,
        };
        match ty {
            VarType::Bool => Ok(Some(Domain::Range(0, 1))),
            VarType::IntRange(lo, hi) => Ok(Some(Domain::Range(*lo, *hi))),
            VarType::IntSet(values) => Ok(Some(Domain::Set(values.clone()))),
            VarType::Int => match inferred.get(name) {
                Some(&(lo, hi)) => Ok(Some(Domain::Range(lo, hi))),
                None => Err(TranslateError::Unbounded {
                    name: name.to_string(),
                    line: self.line,
                }),
            },
            VarType::Float | VarType::FloatRange(..) => Err(unsupported("float variable")),
            VarType::SetOfInt(_) => Err(unsupported("set variable")),
        }
    }

    /// A new variable with `domain`; an empty domain makes the model unsatisfiable.
    fn fresh(
        &mut self,
        name: &str,
        domain: Option<Domain>,
        is_bool: bool,
    ) -> Result<Scalar, TranslateError> {
        let Some(domain) = domain else {
            return Err(TranslateError::Unbounded {
                name: name.to_string(),
                line: self.line,
            });
        };
        let var = if domain.is_empty() {
            self.post_false()?;
            self.model.named_int_var(name, 0..=0)
        } else {
            self.model.named_int_var(name, domain)
        }
        .map_err(|e| self.core(e))?;
        Ok(if is_bool {
            Scalar::BoolVar(var)
        } else {
            Scalar::IntVar(var)
        })
    }

    /// A declared value (alias or constant) restricted to the declared domain.
    fn constrain(&mut self, s: Scalar, domain: Option<&Domain>) -> Result<Scalar, TranslateError> {
        let Some(domain) = domain else {
            return Ok(s);
        };
        match s {
            Scalar::Int(c) if !domain.contains(c) => self.post_false()?,
            Scalar::Bool(b) if !domain.contains(Value::from(b)) => self.post_false()?,
            Scalar::IntVar(v) | Scalar::BoolVar(v) => self.restrict(v, domain)?,
            _ => {}
        }
        Ok(s)
    }

    pub(crate) fn objective(
        &mut self,
        e: &Expr,
        goal: Goal,
    ) -> Result<Option<(VarId, Goal)>, TranslateError> {
        match self.scalar(e, "the objective")? {
            Scalar::IntVar(v) | Scalar::BoolVar(v) => Ok(Some((v, goal))),
            // A constant objective becomes a fixed variable: the first
            // solution is then proved optimal and the search ends complete
            // (`==========`), as for any other objective.
            Scalar::Int(c) => Ok(Some((self.const_var(c)?, goal))),
            Scalar::Bool(b) => Ok(Some((self.const_var(Value::from(b))?, goal))),
        }
    }
}

/// A scalar with the Boolean-ness of its declaration (`var bool: b = x` makes `x`
/// print as a Boolean through `b`).
fn retype(s: Scalar, is_bool: bool) -> Scalar {
    match (s, is_bool) {
        (Scalar::IntVar(v), true) => Scalar::BoolVar(v),
        (Scalar::BoolVar(v), false) => Scalar::IntVar(v),
        (Scalar::Int(c), true) if c == 0 || c == 1 => Scalar::Bool(c == 1),
        _ => s,
    }
}
