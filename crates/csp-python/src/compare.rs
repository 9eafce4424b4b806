//! `compare`: csp-compare's verified strategy comparison of a model built by
//! Python, run on a worker thread without the GIL; Ctrl-C stops it.

use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use csp_compare::{ChartLabels, CompareOptions, Entry, Mode, Table, compare as run_compare};
use csp_core::{CancelFlag, CspError, Limits, Model, Strategy};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::model::NativeModel;

/// The first Python exception raised by the model builder.
type ErrorSlot = Arc<Mutex<Option<PyErr>>>;

/// Calls `build(size)`, which returns a fresh `NativeModel`, and takes its model.
fn build_model(build: &Py<PyAny>, size: usize, slot: &ErrorSlot) -> Result<Model, CspError> {
    let fail = |e: PyErr| {
        let message = e.to_string();
        if let Ok(mut s) = slot.lock()
            && s.is_none()
        {
            *s = Some(e);
        }
        CspError::InvalidArgument {
            context: "compare".into(),
            message,
        }
    };
    Python::attach(|py| {
        let obj = build.bind(py).call1((size,)).map_err(fail)?;
        let native = obj
            .cast::<NativeModel>()
            .map_err(|e| fail(PyErr::from(e)))?;
        let mut native = native.borrow_mut();
        let shared = std::mem::replace(&mut native.model, Arc::new(Model::new()));
        Arc::try_unwrap(shared).map_err(|_| {
            fail(PyRuntimeError::new_err(
                "compare needs a fresh model for each run; the builder returned one in use",
            ))
        })
    })
}

fn rows<'py>(py: Python<'py>, table: &Table) -> PyResult<Vec<Bound<'py, PyDict>>> {
    table
        .rows
        .iter()
        .map(|r| {
            let d = PyDict::new(py);
            d.set_item("strategy", &r.strategy)?;
            d.set_item("size", r.size)?;
            d.set_item("solutions", r.solutions)?;
            d.set_item("complete", r.complete)?;
            d.set_item("stopped_by", &r.stopped_by)?;
            d.set_item("nodes", r.nodes)?;
            d.set_item("failures", r.failures)?;
            d.set_item("pruned", r.pruned)?;
            d.set_item("propagations", r.propagations)?;
            d.set_item("seconds", r.seconds)?;
            d.set_item("runs", r.runs)?;
            Ok(d)
        })
        .collect()
}

/// Runs every strategy on every size with csp-compare, which checks that all
/// complete runs agree (a disagreement is a ValueError naming both). `build(size)`
/// returns a fresh `NativeModel` for each run. Returns the rows (dicts), the
/// table as Markdown and CSV, and the SVG chart.
#[pyfunction]
#[pyo3(signature = (build, strategies, sizes, mode="count", time_limit=None, node_limit=None,
    size_label="n".to_string()))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub(crate) fn compare<'py>(
    py: Python<'py>,
    build: Py<PyAny>,
    strategies: Vec<String>,
    sizes: Vec<usize>,
    mode: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    size_label: String,
) -> PyResult<(Vec<Bound<'py, PyDict>>, String, String, String)> {
    let mode = match mode {
        "count" => Mode::Count,
        "first" => Mode::First,
        m => {
            return Err(PyValueError::new_err(format!(
                "unknown mode '{m}' (expected count or first)"
            )));
        }
    };
    let entries = strategies
        .iter()
        .map(|s| {
            let strategy: Strategy = s
                .parse()
                .map_err(|e| PyValueError::new_err(format!("{e}")))?;
            Ok(Entry::engine(s.clone(), strategy, ""))
        })
        .collect::<PyResult<Vec<Entry>>>()?;
    let cancel = CancelFlag::new();
    let mut limits = Limits {
        nodes: node_limit,
        cancel: Some(cancel.clone()),
        ..Limits::default()
    };
    if let Some(t) = time_limit {
        if !t.is_finite() || t < 0.0 {
            return Err(PyValueError::new_err(format!(
                "time_limit must be a non-negative number of seconds, not {t}"
            )));
        }
        limits.time = Some(Duration::from_secs_f64(t));
    }
    let options = CompareOptions {
        mode,
        limits,
        ..CompareOptions::default()
    };
    let slot: ErrorSlot = Arc::new(Mutex::new(None));
    let (tx, rx) = channel();
    let worker_slot = Arc::clone(&slot);
    let handle = std::thread::Builder::new()
        .name("csp-compare".into())
        .spawn(move || {
            let builder = |size: usize, _variant: &str| build_model(&build, size, &worker_slot);
            let _ = tx.send(run_compare(&builder, &entries, &sizes, &options));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the comparison thread: {e}")))?;
    let mut rx = Some(rx);
    let result = loop {
        let Some(waiting) = rx.take() else {
            return Err(PyRuntimeError::new_err("the comparison has no channel"));
        };
        let (waiting, got) = py.detach(move || {
            let got = waiting.recv_timeout(Duration::from_millis(20));
            (waiting, got)
        });
        rx = Some(waiting);
        match got {
            Ok(result) => break result,
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel.cancel();
                    let _ = py.detach(move || handle.join());
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the comparison thread ended without a result",
                ));
            }
        }
    };
    let _ = py.detach(move || handle.join());
    if let Some(e) = slot.lock().ok().and_then(|mut s| s.take()) {
        return Err(e);
    }
    let table = result.map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut labels = ChartLabels::for_mode(mode);
    labels.size = size_label;
    Ok((
        rows(py, &table)?,
        table.to_markdown(),
        table.to_csv(),
        table.to_svg_with(&labels),
    ))
}
