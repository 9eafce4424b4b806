//! `NativeModel`: the engine's model, its variables numbered by declaration.

use std::sync::Arc;

use csp_core::{Automaton, ConstraintId, CspError, Domain, Model, Relation, Value, VarId};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::callback::PyConstraint;

/// An engine error as a Python `ValueError` with the engine's one-line message.
pub(crate) fn value_error(e: CspError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn ids(vars: &[usize]) -> Vec<VarId> {
    vars.iter().map(|&i| VarId::new(i)).collect()
}

fn relation(op: &str) -> PyResult<Relation> {
    Ok(match op {
        "==" => Relation::Eq,
        "!=" => Relation::Ne,
        "<=" => Relation::Le,
        "<" => Relation::Lt,
        ">=" => Relation::Ge,
        ">" => Relation::Gt,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown relation '{op}' (expected ==, !=, <=, <, >=, >)"
            )));
        }
    })
}

/// A model: variables (numbered 0, 1, ... in declaration order) and
/// constraints. Each method posts one engine constraint and returns its index.
///
/// A search shares the model while it runs; the model cannot change until the
/// search has finished or been dropped.
#[pyclass(module = "csp_rs._native")]
pub struct NativeModel {
    pub(crate) model: Arc<Model>,
}

impl NativeModel {
    fn model_mut(&mut self) -> PyResult<&mut Model> {
        Arc::get_mut(&mut self.model).ok_or_else(|| {
            PyRuntimeError::new_err(
                "the model cannot change while a search on it is running; \
                 finish or drop the search first",
            )
        })
    }

    fn posted(r: Result<ConstraintId, CspError>) -> PyResult<usize> {
        r.map(|c| c.index()).map_err(value_error)
    }
}

#[pymethods]
impl NativeModel {
    /// An empty model.
    #[new]
    fn new() -> Self {
        NativeModel {
            model: Arc::new(Model::new()),
        }
    }

    /// csp-core's N-Queens model (`models::queens` for `"global"`,
    /// `models::pairwise_queens` for `"pairwise"`): variables `q[0]` ..
    /// `q[n-1]` are 0 .. n-1.
    #[staticmethod]
    fn queens(n: usize, kind: &str) -> PyResult<Self> {
        let (model, _) = match kind {
            "global" => csp_core::models::queens(n),
            "pairwise" => csp_core::models::pairwise_queens(n),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown N-Queens model '{kind}' (expected pairwise or global)"
                )));
            }
        }
        .map_err(value_error)?;
        Ok(NativeModel {
            model: Arc::new(model),
        })
    }

    /// A variable with the values `lo..=hi`; returns its index.
    #[pyo3(signature = (lo, hi, name=None))]
    fn int_var_range(&mut self, lo: Value, hi: Value, name: Option<String>) -> PyResult<usize> {
        let domain = Domain::from(lo..=hi);
        self.declare(domain, name)
    }

    /// A variable with the given values (any order, repeats ignored).
    #[pyo3(signature = (values, name=None))]
    fn int_var_values(&mut self, values: Vec<Value>, name: Option<String>) -> PyResult<usize> {
        self.declare(Domain::from_values(values), name)
    }

    /// A 0/1 variable.
    #[pyo3(signature = (name=None))]
    fn bool_var(&mut self, name: Option<String>) -> PyResult<usize> {
        let m = self.model_mut()?;
        Ok(match name {
            Some(n) => m.named_bool_var(n),
            None => m.bool_var(),
        }
        .index())
    }

    /// `scale * x + offset` as a variable of its own (a view of `x`).
    fn view(&mut self, x: usize, scale: Value, offset: Value) -> PyResult<usize> {
        let m = self.model_mut()?;
        m.view(VarId::new(x), scale, offset)
            .map(VarId::index)
            .map_err(value_error)
    }

    /// Number of variables.
    fn num_vars(&self) -> usize {
        self.model.num_vars()
    }

    /// Number of constraints.
    fn num_constraints(&self) -> usize {
        self.model.num_constraints()
    }

    /// The variable's name (`#index` if it has none).
    fn var_name(&self, x: usize) -> String {
        self.model.var_name(VarId::new(x))
    }

    /// The smallest and largest value of the variable's declared domain.
    fn bounds(&self, x: usize) -> PyResult<(Value, Value)> {
        let d = self.model.domain(VarId::new(x)).map_err(value_error)?;
        d.bounds()
            .ok_or_else(|| PyValueError::new_err(format!("variable #{x} has an empty domain")))
    }

    /// The values of the variable's declared domain, ascending.
    fn values(&self, x: usize) -> PyResult<Vec<Value>> {
        let d = self.model.domain(VarId::new(x)).map_err(value_error)?;
        Ok(d.values())
    }

    /// Whether `values` (one per variable) is a solution.
    fn is_solution(&self, values: Vec<Value>) -> bool {
        self.model.is_solution(&values)
    }

    /// `sum coeffs[i] * vars[i]  op  rhs`, `op` one of `== != <= < >= >`.
    fn linear(
        &mut self,
        coeffs: Vec<Value>,
        vars: Vec<usize>,
        op: &str,
        rhs: Value,
    ) -> PyResult<usize> {
        let r = relation(op)?;
        Self::posted(self.model_mut()?.linear(&coeffs, &ids(&vars), r, rhs))
    }

    /// `b <=> (sum coeffs[i] * vars[i]  op  rhs)`, `b` a 0/1 variable.
    fn linear_reif(
        &mut self,
        coeffs: Vec<Value>,
        vars: Vec<usize>,
        op: &str,
        rhs: Value,
        b: usize,
    ) -> PyResult<usize> {
        let r = relation(op)?;
        let m = self.model_mut()?;
        Self::posted(m.linear_reif(&coeffs, &ids(&vars), r, rhs, VarId::new(b)))
    }

    /// `b <=> x == c` (`b <=> x != c` when `equal` is false) for every
    /// literal `(c, b, equal)`, as one propagator (csp-core's
    /// `EqualityChannel`).
    fn equality_channel(
        &mut self,
        x: usize,
        literals: Vec<(Value, usize, bool)>,
    ) -> PyResult<usize> {
        let literals: Vec<(Value, VarId, bool)> = literals
            .into_iter()
            .map(|(c, b, equal)| (c, VarId::new(b), equal))
            .collect();
        let m = self.model_mut()?;
        Self::posted(m.equality_channel(VarId::new(x), &literals))
    }

    /// `x != y + offset`.
    fn not_equal(&mut self, x: usize, y: usize, offset: Value) -> PyResult<usize> {
        let m = self.model_mut()?;
        Self::posted(m.not_equal_offset(VarId::new(x), VarId::new(y), offset))
    }

    /// All of `vars[i] + offsets[i]` differ (offsets 0 when not given).
    #[pyo3(signature = (vars, offsets=None))]
    fn all_different(&mut self, vars: Vec<usize>, offsets: Option<Vec<Value>>) -> PyResult<usize> {
        let m = self.model_mut()?;
        Self::posted(match offsets {
            None => m.all_different(&ids(&vars)),
            Some(o) => m.all_different_offsets(&ids(&vars), &o),
        })
    }

    /// The scope takes one of the tuples.
    fn table(&mut self, vars: Vec<usize>, tuples: Vec<Vec<Value>>) -> PyResult<usize> {
        Self::posted(self.model_mut()?.table(&ids(&vars), tuples))
    }

    /// `result = array[index - offset]`.
    fn element(
        &mut self,
        index: usize,
        array: Vec<Value>,
        result: usize,
        offset: Value,
    ) -> PyResult<usize> {
        let m = self.model_mut()?;
        Self::posted(m.element_offset(VarId::new(index), &array, offset, VarId::new(result)))
    }

    /// `result = vars[index - offset]`.
    fn element_var(
        &mut self,
        index: usize,
        vars: Vec<usize>,
        result: usize,
        offset: Value,
    ) -> PyResult<usize> {
        let m = self.model_mut()?;
        Self::posted(m.element_var_offset(
            VarId::new(index),
            &ids(&vars),
            offset,
            VarId::new(result),
        ))
    }

    /// `result` = how many of `vars` equal `value`.
    fn count(&mut self, vars: Vec<usize>, value: Value, result: usize) -> PyResult<usize> {
        Self::posted(
            self.model_mut()?
                .count(&ids(&vars), value, VarId::new(result)),
        )
    }

    /// At most `n` of `vars` equal `value`.
    fn at_most(&mut self, vars: Vec<usize>, value: Value, n: usize) -> PyResult<usize> {
        Self::posted(self.model_mut()?.at_most(&ids(&vars), value, n))
    }

    /// At least `n` of `vars` equal `value`.
    fn at_least(&mut self, vars: Vec<usize>, value: Value, n: usize) -> PyResult<usize> {
        Self::posted(self.model_mut()?.at_least(&ids(&vars), value, n))
    }

    /// `counts[i]` = how many of `vars` equal `values[i]`.
    fn global_cardinality(
        &mut self,
        vars: Vec<usize>,
        values: Vec<Value>,
        counts: Vec<usize>,
    ) -> PyResult<usize> {
        let m = self.model_mut()?;
        Self::posted(m.global_cardinality(&ids(&vars), &values, &ids(&counts)))
    }

    /// Tasks `(start, duration, demand)` never use more than `capacity` at once.
    fn cumulative(
        &mut self,
        starts: Vec<usize>,
        durations: Vec<usize>,
        demands: Vec<usize>,
        capacity: usize,
    ) -> PyResult<usize> {
        let m = self.model_mut()?;
        Self::posted(m.cumulative(
            &ids(&starts),
            &ids(&durations),
            &ids(&demands),
            VarId::new(capacity),
        ))
    }

    /// Tasks `(start, duration)` never overlap.
    fn disjunctive(&mut self, starts: Vec<usize>, durations: Vec<usize>) -> PyResult<usize> {
        Self::posted(
            self.model_mut()?
                .disjunctive(&ids(&starts), &ids(&durations)),
        )
    }

    /// Rectangles `(x, y, dx, dy)` never overlap.
    fn diffn(
        &mut self,
        x: Vec<usize>,
        y: Vec<usize>,
        dx: Vec<usize>,
        dy: Vec<usize>,
    ) -> PyResult<usize> {
        let m = self.model_mut()?;
        Self::posted(m.diffn(&ids(&x), &ids(&y), &ids(&dx), &ids(&dy)))
    }

    /// `successors` (indices from 0) form one Hamiltonian circuit.
    fn circuit(&mut self, successors: Vec<usize>) -> PyResult<usize> {
        Self::posted(self.model_mut()?.circuit(&ids(&successors)))
    }

    /// `f[i] = j  <=>  g[j] = i` (indices from 0).
    fn inverse(&mut self, f: Vec<usize>, g: Vec<usize>) -> PyResult<usize> {
        Self::posted(self.model_mut()?.inverse(&ids(&f), &ids(&g)))
    }

    /// The values of `vars` spell a word the automaton accepts.
    fn regular(
        &mut self,
        vars: Vec<usize>,
        states: usize,
        start: usize,
        accepting: Vec<usize>,
        transitions: Vec<(usize, Value, usize)>,
    ) -> PyResult<usize> {
        let a = Automaton::new(states, start, &accepting, &transitions).map_err(value_error)?;
        Self::posted(self.model_mut()?.regular(&ids(&vars), &a))
    }

    /// `xs` is lexicographically at most `ys`.
    fn lex_less_eq(&mut self, xs: Vec<usize>, ys: Vec<usize>) -> PyResult<usize> {
        Self::posted(self.model_mut()?.lex_less_eq(&ids(&xs), &ids(&ys)))
    }

    /// `result = min(vars)`.
    fn min(&mut self, vars: Vec<usize>, result: usize) -> PyResult<usize> {
        Self::posted(self.model_mut()?.min(&ids(&vars), VarId::new(result)))
    }

    /// `result = max(vars)`.
    fn max(&mut self, vars: Vec<usize>, result: usize) -> PyResult<usize> {
        Self::posted(self.model_mut()?.max(&ids(&vars), VarId::new(result)))
    }

    /// `result = |x|`.
    fn abs(&mut self, x: usize, result: usize) -> PyResult<usize> {
        Self::posted(self.model_mut()?.abs(VarId::new(x), VarId::new(result)))
    }

    /// `result = |x - y|`.
    fn distance(&mut self, x: usize, y: usize, result: usize) -> PyResult<usize> {
        let m = self.model_mut()?;
        Self::posted(m.distance(VarId::new(x), VarId::new(y), VarId::new(result)))
    }

    /// `result = x * y`.
    fn times(&mut self, x: usize, y: usize, result: usize) -> PyResult<usize> {
        let m = self.model_mut()?;
        Self::posted(m.times(VarId::new(x), VarId::new(y), VarId::new(result)))
    }

    /// `result = x div y` (rounding toward zero).
    fn div(&mut self, x: usize, y: usize, result: usize) -> PyResult<usize> {
        let m = self.model_mut()?;
        Self::posted(m.div(VarId::new(x), VarId::new(y), VarId::new(result)))
    }

    /// `result = x mod y` (the sign of `x`).
    fn modulo(&mut self, x: usize, y: usize, result: usize) -> PyResult<usize> {
        let m = self.model_mut()?;
        Self::posted(m.modulo(VarId::new(x), VarId::new(y), VarId::new(result)))
    }

    /// At least one of `positive` is 1 or one of `negative` is 0 (0/1 variables).
    fn clause(&mut self, positive: Vec<usize>, negative: Vec<usize>) -> PyResult<usize> {
        Self::posted(self.model_mut()?.clause(&ids(&positive), &ids(&negative)))
    }

    /// A constraint in Python: `check(*values)` on complete assignments of
    /// `vars`, and `promising(*values_or_none)` on partial ones if given.
    #[pyo3(signature = (vars, check, promising=None, name=None))]
    fn predicate(
        &mut self,
        vars: Vec<usize>,
        check: Py<PyAny>,
        promising: Option<Py<PyAny>>,
        name: Option<String>,
    ) -> PyResult<usize> {
        let c = PyConstraint::new(
            ids(&vars),
            name.unwrap_or_else(|| "python".into()),
            check,
            promising,
        );
        Self::posted(self.model_mut()?.post(c))
    }
}

impl NativeModel {
    fn declare(&mut self, domain: Domain, name: Option<String>) -> PyResult<usize> {
        let m = self.model_mut()?;
        let v = match name {
            Some(n) => m.named_int_var(n, domain),
            None => m.int_var(domain),
        };
        v.map(VarId::index).map_err(value_error)
    }
}
