//! `NativeSearch`: one search on a worker thread, its solutions handed back
//! one at a time; the caller's thread waits without the GIL and looks for
//! Ctrl-C every 20 ms.

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use csp_core::{CancelFlag, Config, Goal, Model, SearchStats, SearchStatus, Solver, Value, VarId};
use csp_trace::{ExploreOptions, ExploreRun, SvgOptions, TraceRecorder, explore_html};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::callback;
use crate::config::Options;
use crate::model::NativeModel;

/// How often the waiting thread looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(20);

/// The most solutions the worker computes ahead of the caller. The first
/// request asks for one, and each next one for twice as many up to this: a
/// caller that stops early pays little, one that takes every solution pays
/// few thread switches.
const MAX_BATCH: usize = 1024;

/// What a search does.
#[derive(Clone, Copy, Debug)]
enum Task {
    /// The first solution.
    First,
    /// Every solution, lazily.
    All,
    /// The number of solutions, none stored.
    Count,
    /// Improving solutions by branch and bound.
    Optimize(VarId, Goal),
    /// The first solution (or every one, `all`), recorded as a trace of at
    /// most `cap` events and drawn with at most `max_nodes` nodes.
    Trace {
        all: bool,
        cap: usize,
        max_nodes: usize,
    },
}

/// A trace as Python receives it: SVG, text, JSON Lines, the explorer page.
type TraceTexts = (String, String, String, Option<String>);

/// A recorded search, rendered.
struct TraceOut {
    svg: String,
    text: String,
    json_lines: String,
    /// The explorer page, or why the page cannot show this model.
    explore: Result<String, String>,
}

/// How a search ended.
struct Done {
    status: SearchStatus,
    stats: SearchStats,
    count: u64,
    objective: Option<Value>,
    trace: Option<TraceOut>,
    error: Option<PyErr>,
}

enum Msg {
    Solution(Vec<Value>),
    /// The solutions of one request (`Task::All`), in one message: the caller
    /// wakes once per request, not once per solution.
    Batch(Vec<Vec<Value>>),
    Done(Box<Done>),
}

fn run(
    model: &Model,
    options: &Options,
    task: Task,
    cancel: &CancelFlag,
    tx: &Sender<Msg>,
    requests: &Receiver<usize>,
) -> Done {
    let mut done = Done {
        status: SearchStatus::Complete,
        stats: SearchStats::default(),
        count: 0,
        objective: None,
        trace: None,
        error: None,
    };
    let config = match options.config(cancel.clone()) {
        Ok(c) => c,
        Err(e) => {
            done.error = Some(e);
            return done;
        }
    };
    if let Task::Trace {
        all,
        cap,
        max_nodes,
    } = task
    {
        let name = options.strategy.clone().unwrap_or_else(|| "default".into());
        trace(model, config, name, all, cap, max_nodes, &mut done);
        return done;
    }
    let mut solver = match Solver::new(model, config) {
        Ok(s) => s,
        Err(e) => {
            done.error = Some(PyValueError::new_err(e.to_string()));
            return done;
        }
    };
    // A send fails only when the caller dropped the search: stop then.
    let send = |values: Vec<Value>| {
        if tx.send(Msg::Solution(values)).is_err() {
            cancel.cancel();
        }
    };
    match task {
        Task::First => {
            let r = solver.first();
            if let Some(s) = r.solution {
                done.count = 1;
                send(s.into_values());
            }
        }
        Task::All => {
            // Each request is for a number of solutions; none comes once the
            // caller has dropped the search.
            while let Ok(n) = requests.recv() {
                let mut batch = Vec::with_capacity(n.min(MAX_BATCH));
                let mut over = false;
                while batch.len() < n {
                    match solver.next_solution() {
                        Some(s) => batch.push(s.into_values()),
                        None => {
                            over = true;
                            break;
                        }
                    }
                }
                done.count += batch.len() as u64;
                if !batch.is_empty() && tx.send(Msg::Batch(batch)).is_err() {
                    cancel.cancel();
                }
                if over || cancel.is_cancelled() {
                    break;
                }
            }
        }
        Task::Count => done.count = solver.count().solutions,
        Task::Trace { .. } => {}
        Task::Optimize(var, goal) => {
            match solver.optimize_with(var, goal, |s| send(s.values().to_vec())) {
                Ok(o) => {
                    done.count = o.improvements.len() as u64;
                    done.objective = o.objective;
                }
                Err(e) => done.error = Some(PyValueError::new_err(e.to_string())),
            }
        }
    }
    done.status = solver.status();
    done.stats = *solver.stats();
    done
}

/// Runs a search recorded by csp-trace's `TraceRecorder` and renders it as
/// the SVG state-space tree (`nqueens tree`'s renderer), text, JSON Lines and
/// the explorer page (`nqueens explore`'s), the run named `name`.
fn trace(
    model: &Model,
    config: Config,
    name: String,
    all: bool,
    cap: usize,
    max_nodes: usize,
    done: &mut Done,
) {
    let mut solver = match Solver::with_observer(model, config, TraceRecorder::new(cap)) {
        Ok(s) => s,
        Err(e) => {
            done.error = Some(PyValueError::new_err(e.to_string()));
            return;
        }
    };
    if all {
        done.count = solver.count().solutions;
    } else {
        done.count = u64::from(solver.first().solution.is_some());
    }
    done.status = solver.status();
    done.stats = *solver.stats();
    let recorded = solver.into_observer().finish();
    let options = SvgOptions {
        max_nodes,
        ..SvgOptions::default()
    };
    let run = ExploreRun::new(name, model, &recorded);
    let explore = explore_html(&[run], &ExploreOptions::default()).map_err(|e| e.to_string());
    done.trace = Some(TraceOut {
        svg: recorded.to_svg(model, &options),
        text: recorded.to_text(model),
        json_lines: recorded.to_json_lines(model),
        explore,
    });
}

/// One running (or finished) search: `next()` gives its solutions in turn.
#[pyclass(module = "csp_rs._native")]
pub struct NativeSearch {
    /// In a mutex only so that the class may be shared between threads; only
    /// `&mut self` methods touch it.
    rx: Mutex<Option<Receiver<Msg>>>,
    requests: Option<Sender<usize>>,
    /// Solutions requested and not yet received (0 or the last request).
    outstanding: usize,
    /// The size of the next request.
    batch: usize,
    cancel: CancelFlag,
    handle: Option<JoinHandle<()>>,
    /// Solutions received and not yet handed out.
    ready: VecDeque<Vec<Value>>,
    done: Option<Done>,
}

impl NativeSearch {
    fn rx(&mut self) -> &mut Option<Receiver<Msg>> {
        self.rx.get_mut().unwrap_or_else(|p| p.into_inner())
    }

    /// Stops the worker (if still running) and waits for it without the GIL.
    fn stop(&mut self, py: Python<'_>) {
        self.cancel.cancel();
        *self.rx() = None;
        self.requests = None;
        if let Some(h) = self.handle.take() {
            // A panic of the worker is reported by `next` as a closed channel.
            let _ = py.detach(move || h.join());
        }
    }

    /// Records the end of the search; raises what a Python constraint raised.
    fn finish(&mut self, py: Python<'_>, mut d: Done) -> PyResult<Option<Vec<Value>>> {
        self.stop(py);
        let error = d.error.take();
        self.done = Some(d);
        match error {
            Some(e) => Err(e),
            None => Ok(None),
        }
    }

    fn finished(&self) -> PyResult<&Done> {
        self.done
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("the search has not finished"))
    }
}

impl Drop for NativeSearch {
    fn drop(&mut self) {
        self.cancel.cancel();
        *self.rx() = None;
        self.requests = None;
        if let Some(h) = self.handle.take() {
            let _ = Python::try_attach(|py| py.detach(move || h.join()));
        }
    }
}

#[pymethods]
impl NativeSearch {
    /// The next solution's values (one per variable), or `None` when the search
    /// is over. Raises what a Python constraint raised, KeyboardInterrupt on
    /// Ctrl-C (the search is then stopped).
    fn next(&mut self, py: Python<'_>) -> PyResult<Option<Vec<Value>>> {
        if let Some(v) = self.ready.pop_front() {
            return Ok(Some(v));
        }
        if self.outstanding == 0
            && let Some(req) = &self.requests
        {
            // A failed send means the worker has finished: its result is queued.
            if req.send(self.batch).is_ok() {
                self.outstanding = self.batch;
                self.batch = (self.batch * 2).min(MAX_BATCH);
            }
        }
        loop {
            let Some(rx) = self.rx().take() else {
                return Ok(None);
            };
            // A solution already waiting is taken without releasing the GIL.
            let (rx, msg) = match rx.try_recv() {
                Ok(m) => (rx, Ok(m)),
                Err(TryRecvError::Disconnected) => (rx, Err(RecvTimeoutError::Disconnected)),
                Err(TryRecvError::Empty) => py.detach(move || {
                    let m = rx.recv_timeout(POLL);
                    (rx, m)
                }),
            };
            *self.rx() = Some(rx);
            match msg {
                Ok(Msg::Solution(v)) => return Ok(Some(v)),
                Ok(Msg::Batch(b)) => {
                    // The worker answered the whole request (or the search ended).
                    self.outstanding = 0;
                    self.ready.extend(b);
                    if let Some(v) = self.ready.pop_front() {
                        return Ok(Some(v));
                    }
                }
                Ok(Msg::Done(d)) => return self.finish(py, *d),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.stop(py);
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.stop(py);
                    return Err(PyRuntimeError::new_err(
                        "the search thread ended without a result",
                    ));
                }
            }
        }
    }

    /// The solutions received so far, at least one unless the search is over
    /// (then an empty list): fewer calls than `next` when there are many.
    fn take(&mut self, py: Python<'_>) -> PyResult<Vec<Vec<Value>>> {
        let Some(first) = self.next(py)? else {
            return Ok(Vec::new());
        };
        let mut out = Vec::with_capacity(1 + self.ready.len());
        out.push(first);
        out.extend(self.ready.drain(..));
        Ok(out)
    }

    /// Stops the search (the worker ends within milliseconds).
    fn cancel(&mut self, py: Python<'_>) {
        self.stop(py);
    }

    /// Whether the search has finished.
    #[getter]
    fn done(&self) -> bool {
        self.done.is_some()
    }

    /// `"complete"` (the whole tree explored: counts exact, no solution is a
    /// proof) or the limit that stopped it (`"node limit"`, `"time limit"`,
    /// `"cancelled"`, ...).
    #[getter]
    fn status(&self) -> PyResult<String> {
        Ok(match self.finished()?.status {
            SearchStatus::Complete => "complete".into(),
            SearchStatus::Paused => "paused".into(),
            SearchStatus::Stopped(r) => r.to_string(),
        })
    }

    /// Solutions found (for `count`, the count).
    #[getter]
    fn count(&self) -> PyResult<u64> {
        Ok(self.finished()?.count)
    }

    /// The best objective value found by an optimisation.
    #[getter]
    fn objective(&self) -> PyResult<Option<Value>> {
        Ok(self.finished()?.objective)
    }

    /// A traced search's state-space tree: `(svg, text, json_lines,
    /// explore_html)`, the last `None` when the explorer cannot show the model.
    #[getter]
    fn trace(&self) -> PyResult<Option<TraceTexts>> {
        Ok(self.finished()?.trace.as_ref().map(|t| {
            (
                t.svg.clone(),
                t.text.clone(),
                t.json_lines.clone(),
                t.explore.as_ref().ok().cloned(),
            )
        }))
    }

    /// Why the explorer page could not be made, if it could not.
    #[getter]
    fn explore_error(&self) -> PyResult<Option<String>> {
        Ok(self
            .finished()?
            .trace
            .as_ref()
            .and_then(|t| t.explore.as_ref().err().cloned()))
    }

    /// The statistics: MiniZinc's names (`nodes`, `failures`, `solutions`,
    /// `solveTime`, `peakDepth`, `propagations`, `restarts`, ...) then the
    /// textbook ones (`tried`, `accepted`, `rejected`, `backtracks`, `checks`,
    /// `propagatorCalls`, `revisions`, `pruned`, `peak_depth`, `elapsed`).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &self.finished()?.stats;
        let d = PyDict::new(py);
        for (k, v) in s.mzn_stats() {
            if k == "solveTime" {
                d.set_item(k, s.elapsed.as_secs_f64())?;
            } else {
                d.set_item(
                    k,
                    v.parse::<u64>()
                        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?,
                )?;
            }
        }
        d.set_item("rejected", s.rejected)?;
        d.set_item("peak_depth", s.peak_depth)?;
        d.set_item("elapsed", s.elapsed.as_secs_f64())?;
        Ok(d)
    }
}

/// Starts a search of `model`: `task` is `"first"`, `"all"`, `"count"`,
/// `"minimize"` or `"maximize"` (the last two with `objective`, a variable
/// index), or `"trace-first"` / `"trace-all"` (a search recorded in at most
/// `trace_cap` events, drawn with at most `max_nodes` nodes). The options are
/// `csp_rs.Solver`'s.
#[pyfunction]
#[pyo3(signature = (model, task, objective=None, strategy=None, pruning=None, var=None, val=None,
    decision_vars=None, time_limit=None, node_limit=None, trace_cap=100_000, max_nodes=2_000))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn start(
    model: &NativeModel,
    task: &str,
    objective: Option<usize>,
    strategy: Option<String>,
    pruning: Option<String>,
    var: Option<String>,
    val: Option<String>,
    decision_vars: Option<Vec<usize>>,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    trace_cap: usize,
    max_nodes: usize,
) -> PyResult<NativeSearch> {
    let goal = |g| match objective {
        Some(o) => Ok(Task::Optimize(VarId::new(o), g)),
        None => Err(PyValueError::new_err("an optimisation needs an objective")),
    };
    let task = match task {
        "first" => Task::First,
        "all" => Task::All,
        "count" => Task::Count,
        "trace-first" | "trace-all" => Task::Trace {
            all: task == "trace-all",
            cap: trace_cap,
            max_nodes,
        },
        "minimize" => goal(Goal::Minimize)?,
        "maximize" => goal(Goal::Maximize)?,
        t => return Err(PyValueError::new_err(format!("unknown task '{t}'"))),
    };
    let options = Options {
        strategy,
        pruning,
        var,
        val,
        decision_vars,
        time_limit,
        node_limit,
    };
    // Errors in the options are raised here, before a thread starts.
    options.config(CancelFlag::new())?;
    let cancel = CancelFlag::new();
    let (tx, rx) = channel();
    let (req_tx, req_rx) = channel();
    let shared: Arc<Model> = Arc::clone(&model.model);
    let flag = cancel.clone();
    let handle = std::thread::Builder::new()
        .name("csp-search".into())
        .spawn(move || {
            callback::begin(flag.clone());
            let mut done = run(&shared, &options, task, &flag, &tx, &req_rx);
            if let Some(e) = callback::take_error() {
                done.error = Some(e);
            }
            // The model goes before the result: once the caller has the
            // result, the model may change again.
            drop(shared);
            let _ = tx.send(Msg::Done(Box::new(done)));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search thread: {e}")))?;
    Ok(NativeSearch {
        rx: Mutex::new(Some(rx)),
        requests: Some(req_tx),
        outstanding: 0,
        batch: 1,
        cancel,
        handle: Some(handle),
        ready: VecDeque::new(),
        done: None,
    })
}
