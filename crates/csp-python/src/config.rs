//! The search options of `csp_rs.Solver`, turned into the engine's [`Config`].

use std::time::Duration;

use csp_core::{CancelFlag, Config, Strategy, ValOrder, VarId, VarOrder};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The options of one search, as Python passes them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Options {
    pub strategy: Option<String>,
    pub pruning: Option<String>,
    pub var: Option<String>,
    pub val: Option<String>,
    pub decision_vars: Option<Vec<usize>>,
    pub time_limit: Option<f64>,
    pub node_limit: Option<u64>,
}

fn bad(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

impl Options {
    /// The engine's `Config::default()`, then the strategy string's three parts
    /// (`fc+first-fail` as every program spells it), then `pruning`, `var` and
    /// `val` one by one, then the limits; `cancel` stops the search.
    pub(crate) fn config(&self, cancel: CancelFlag) -> PyResult<Config> {
        let mut config = Config::default();
        if let Some(s) = &self.strategy {
            let s: Strategy = s.parse().map_err(bad)?;
            config = config
                .with_pruning(s.pruning)
                .with_var_order(s.var_order)
                .with_val_order(s.val_order)
                .with_backjumping(s.backjumping);
        }
        if let Some(p) = &self.pruning {
            let token = p.parse::<csp_core::PruningToken>().map_err(bad)?;
            config = config.with_pruning(token.pruning);
            if let Some(b) = token.backjumping {
                config = config.with_backjumping(b);
            }
        }
        if let Some(v) = &self.var {
            config = config.with_var_order(v.parse::<VarOrder>().map_err(bad)?);
        }
        if let Some(v) = &self.val {
            config = config.with_val_order(v.parse::<ValOrder>().map_err(bad)?);
        }
        if let Some(vars) = &self.decision_vars {
            let vars: Vec<VarId> = vars.iter().map(|&i| VarId::new(i)).collect();
            config = config.with_decision_vars(&vars);
        }
        if let Some(t) = self.time_limit {
            if !t.is_finite() || t < 0.0 {
                return Err(bad(format!(
                    "time_limit must be a non-negative number of seconds, not {t}"
                )));
            }
            config = config.with_time_limit(Duration::from_secs_f64(t));
        }
        if let Some(n) = self.node_limit {
            config = config.with_node_limit(n);
        }
        Ok(config.with_cancel_flag(cancel))
    }
}

/// Checks a strategy string (`"fc+first-fail"`), returning it as the engine
/// writes it; a ValueError names what is wrong.
#[pyfunction]
pub(crate) fn check_strategy(strategy: &str) -> PyResult<String> {
    let s: Strategy = strategy.parse().map_err(bad)?;
    Ok(s.to_string())
}
