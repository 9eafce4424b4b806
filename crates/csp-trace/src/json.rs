//! JSON Lines export and import of traces (field names in `docs/trace-format.md`).

use std::collections::HashMap;

use super::{FailureNamer, Trace, TraceEvent, TraceNode};
use csp_core::Model;

impl Trace {
    /// The trace as JSON Lines: a first `{"event":"model",...}` line naming the
    /// variables and constraints, then one event per line.
    ///
    /// ```
    /// # use csp_core::{Config, Model, Solver};
    /// # use csp_trace::TraceRecorder;
    /// # let mut m = Model::new();
    /// # let x = m.named_int_var("x", 0..=1)?;
    /// # let mut s = Solver::with_observer(&m, Config::textbook(), TraceRecorder::new(100))?;
    /// # s.first();
    /// let text = s.into_observer().finish().to_json_lines(&m);
    /// let mut lines = text.lines();
    /// assert_eq!(lines.next(), Some(r#"{"event":"model","vars":["x"],"constraints":[]}"#));
    /// assert_eq!(lines.next(), Some(r#"{"event":"select","parent":0,"depth":0,"var":0,"candidates":[[0,0.0]]}"#));
    /// assert_eq!(lines.next(), Some(r#"{"event":"try","id":1,"parent":0,"depth":1,"var":0,"value":0}"#));
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn to_json_lines(&self, model: &Model) -> String {
        self.json_lines_until(model, None, &mut || false)
            .unwrap_or_default()
    }

    /// [`to_json_lines`](Trace::to_json_lines), with a `"reason"` field on each
    /// `reject` event that `reasons` names (the same [`FailureNamer`] the SVG
    /// labels use, so the two agree). Readers that do not know the field
    /// ignore it ([`from_json_lines`](Trace::from_json_lines) does).
    ///
    /// ```
    /// # use csp_core::{Config, Model, Pruning, Solver};
    /// # use csp_trace::TraceRecorder;
    /// let mut m = Model::new();
    /// let x = m.named_int_var("x", 0..=1)?;
    /// let y = m.named_int_var("y", 0..=1)?;
    /// m.not_equal(x, y)?;
    /// let config = Config::textbook().with_pruning(Pruning::Check);
    /// let mut s = Solver::with_observer(&m, config, TraceRecorder::new(100))?;
    /// s.first();
    /// let trace = s.into_observer().finish();
    /// let text = trace.to_json_lines_with_reasons(&m, &|n| Some(format!("x and y both {}", n.value)));
    /// assert!(text.contains(r#""kind":"not_promising","constraint":0,"wiped_out":null,"reason":"x and y both 0""#));
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn to_json_lines_with_reasons(&self, model: &Model, reasons: &FailureNamer<'_>) -> String {
        self.json_lines_until(model, Some(reasons), &mut || false)
            .unwrap_or_default()
    }

    /// The JSON Lines of [`to_json_lines_with_reasons`](Trace::to_json_lines_with_reasons)
    /// (no `"reason"` fields without `reasons`), asking `stop` every 4,096
    /// events: `None` once it says yes (a time limit, Ctrl-C).
    pub fn json_lines_until(
        &self,
        model: &Model,
        reasons: Option<&FailureNamer<'_>>,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<String> {
        // The nodes are only needed to name the dead ends.
        let nodes: HashMap<u64, TraceNode> = match reasons {
            Some(_) => self
                .nodes_until(&mut *stop)?
                .into_iter()
                .map(|n| (n.id, n))
                .collect(),
            None => HashMap::new(),
        };
        #[derive(serde::Serialize)]
        struct Header<'a> {
            event: &'a str,
            vars: Vec<String>,
            constraints: Vec<&'a str>,
        }
        let header = Header {
            event: "model",
            vars: model.vars().map(|v| model.var_name(v)).collect(),
            constraints: model.constraints().map(|(_, c)| c.name()).collect(),
        };
        let mut out = serde_json::to_string(&header).unwrap_or_default();
        out.push('\n');
        for (k, e) in self.events.iter().enumerate() {
            if k % 4096 == 0 && stop() {
                return None;
            }
            let reason = match (e, reasons) {
                (TraceEvent::Reject { id, .. }, Some(reasons)) => nodes.get(id).and_then(reasons),
                _ => None,
            };
            // Serialising these plain enums and strings cannot fail.
            if let Ok(mut line) = serde_json::to_string(e) {
                if let Some(reason) = reason
                    && let Ok(reason) = serde_json::to_string(&reason)
                    && line.ends_with('}')
                {
                    line.pop();
                    line.push_str(",\"reason\":");
                    line.push_str(&reason);
                    line.push('}');
                }
                out.push_str(&line);
                out.push('\n');
            }
        }
        Some(out)
    }

    /// Reads a trace written by [`to_json_lines`](Trace::to_json_lines) (the
    /// `model` line is skipped). The error names the line that failed.
    pub fn from_json_lines(text: &str) -> Result<Trace, String> {
        let mut events = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with(r#"{"event":"model""#) {
                continue;
            }
            let e: TraceEvent =
                serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
            events.push(e);
        }
        Ok(Trace { events })
    }
}
