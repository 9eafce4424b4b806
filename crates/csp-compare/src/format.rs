//! The comparison as text: a Markdown table, CSV and JSON.

use std::fmt::Write;

use crate::{Mode, Row, Table};

fn opt(v: Option<u64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

impl Row {
    fn solutions_cell(&self, mode: Mode) -> String {
        if matches!(mode, Mode::Minimize | Mode::Maximize) {
            return match (self.objective, self.complete) {
                (Some(v), true) => v.to_string(),
                (Some(v), false) => format!("{v} (best found, limit)"),
                (None, true) => "no solution".to_string(),
                (None, false) => "none found (limit)".to_string(),
            };
        }
        if self.complete {
            self.solutions.to_string()
        } else {
            format!(">= {} (limit)", self.solutions)
        }
    }
}

impl Table {
    /// A Markdown table: one row per strategy and size, with nodes, failures,
    /// pruned values, propagations, median time and the number of runs. Runs
    /// stopped by a limit say `limit` and show the work done so far.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let what = match self.mode {
            Mode::Count => "solutions",
            Mode::First => "found",
            Mode::Minimize | Mode::Maximize => "optimum",
        };
        let (n, n_rule) = if self.single_model {
            ("", "")
        } else {
            ("| n ", "|---:")
        };
        let _ = writeln!(
            out,
            "{n}| strategy | {what} | nodes | failures | pruned | propagations | time (median) | runs |"
        );
        let _ = writeln!(out, "{n_rule}|---|---:|---:|---:|---:|---:|---:|---:|");
        for r in &self.rows {
            let size = if self.single_model {
                String::new()
            } else {
                format!("| {} ", r.size)
            };
            let _ = writeln!(
                out,
                "{size}| {} | {} | {} | {} | {} | {} | {} | {} |",
                r.strategy,
                r.solutions_cell(self.mode),
                opt(r.nodes),
                opt(r.failures),
                opt(r.pruned),
                opt(r.propagations),
                format_seconds(r.seconds),
                r.runs
            );
        }
        out
    }

    /// CSV with a header line; times in seconds.
    pub fn to_csv(&self) -> String {
        // Optimisation adds the objective column; the other modes keep
        // their columns as they were.
        let optimising = matches!(self.mode, Mode::Minimize | Mode::Maximize);
        let mut out = String::from(
            "n,strategy,solutions,complete,stopped_by,nodes,failures,pruned,propagations,seconds,runs",
        );
        out.push_str(if optimising { ",objective\n" } else { "\n" });
        for r in &self.rows {
            let _ = write!(
                out,
                "{},{},{},{},{},{},{},{},{},{:.6},{}",
                r.size,
                csv_field(&r.strategy),
                r.solutions,
                r.complete,
                r.stopped_by.as_deref().unwrap_or(""),
                r.nodes.map_or(String::new(), |v| v.to_string()),
                r.failures.map_or(String::new(), |v| v.to_string()),
                r.pruned.map_or(String::new(), |v| v.to_string()),
                r.propagations.map_or(String::new(), |v| v.to_string()),
                r.seconds,
                r.runs,
            );
            if optimising {
                let _ = write!(
                    out,
                    ",{}",
                    r.objective.map_or(String::new(), |v| v.to_string())
                );
            }
            out.push('\n');
        }
        out
    }

    /// The table as pretty-printed JSON.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self)
    }

    /// The table with times and run counts set to zero (for snapshot tests).
    pub fn without_times(&self) -> Table {
        let mut t = self.clone();
        for r in &mut t.rows {
            r.seconds = 0.0;
            r.runs = 0;
        }
        t
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `0.000123` s as `123 µs`, `0.25` as `250 ms`, `3.5` as `3.50 s`.
pub fn format_seconds(s: f64) -> String {
    if s == 0.0 {
        "-".to_string()
    } else if s < 1e-3 {
        format!("{:.0} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}
