//! Constraints written in Python: a check (and optionally a promising test)
//! called by the engine, their exceptions kept for the search's caller.

use std::cell::RefCell;

use csp_core::{CancelFlag, Constraint, Domains, Value, VarId, generic};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// What the search running on this thread needs when a Python function fails:
/// the flag that stops it, and the first exception.
struct Sink {
    cancel: CancelFlag,
    error: Option<PyErr>,
}

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// Marks the current thread as running a search stopped by `cancel`.
pub(crate) fn begin(cancel: CancelFlag) {
    SINK.with(|s| {
        *s.borrow_mut() = Some(Sink {
            cancel,
            error: None,
        })
    });
}

/// The first exception raised by a Python constraint during this thread's
/// search, if any.
pub(crate) fn take_error() -> Option<PyErr> {
    SINK.with(|s| s.borrow_mut().as_mut().and_then(|sink| sink.error.take()))
}

fn pending() -> bool {
    SINK.with(|s| s.borrow().as_ref().is_some_and(|sink| sink.error.is_some()))
}

/// Keeps the first exception and stops the search: a constraint that raised
/// has no answer, so no result of the search could be trusted.
fn record(err: PyErr) {
    SINK.with(|s| {
        if let Some(sink) = s.borrow_mut().as_mut() {
            if sink.error.is_none() {
                sink.error = Some(err);
            }
            sink.cancel.cancel();
        }
    });
}

/// A constraint given by Python functions over the values of its scope.
///
/// `check(*values)` decides a complete assignment of the scope;
/// `promising(*values)`, if given, receives `None` for the unassigned
/// variables and says whether the partial assignment may still be extended.
/// An exception in either stops the search, which then raises it.
pub struct PyConstraint {
    scope: Vec<VarId>,
    name: String,
    check: Py<PyAny>,
    promising: Option<Py<PyAny>>,
}

impl PyConstraint {
    /// A constraint on `scope` calling `check` (and `promising`).
    pub fn new(
        scope: Vec<VarId>,
        name: String,
        check: Py<PyAny>,
        promising: Option<Py<PyAny>>,
    ) -> Self {
        PyConstraint {
            scope,
            name,
            check,
            promising,
        }
    }

    fn call<'py>(py: Python<'py>, f: &Py<PyAny>, args: Bound<'py, PyTuple>) -> bool {
        match f.bind(py).call1(args).and_then(|r| r.is_truthy()) {
            Ok(ok) => ok,
            Err(e) => {
                record(e);
                false
            }
        }
    }
}

impl Constraint for PyConstraint {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn check(&self, values: &[Value]) -> bool {
        if pending() {
            return false;
        }
        Python::attach(|py| match PyTuple::new(py, values) {
            Ok(args) => Self::call(py, &self.check, args),
            Err(e) => {
                record(e);
                false
            }
        })
    }

    fn promising(&self, domains: &Domains) -> bool {
        let Some(promising) = &self.promising else {
            return generic::promising(self, domains);
        };
        let partial: Vec<Option<Value>> = self.scope.iter().map(|&v| domains.value(v)).collect();
        if partial.iter().all(Option::is_some) {
            let values: Vec<Value> = partial.into_iter().flatten().collect();
            return self.check(&values);
        }
        if pending() {
            return false;
        }
        Python::attach(|py| match PyTuple::new(py, partial) {
            Ok(args) => Self::call(py, promising, args),
            Err(e) => {
                record(e);
                false
            }
        })
    }
}
