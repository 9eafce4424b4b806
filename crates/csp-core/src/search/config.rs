//! `Config`: how to search (pruning level, heuristics, limits).

use std::time::Duration;

use crate::{CancelFlag, Limits, Pruning, ValOrder, VarOrder};

/// How to search: the pruning level, the branching heuristics, and the limits.
///
/// ```
/// use csp_core::{Config, Pruning, VarOrder, ValOrder};
/// let config = Config::default()
///     .with_pruning(Pruning::ForwardChecking)
///     .with_var_order(VarOrder::FirstFail)
///     .with_val_order(ValOrder::MiddleOut)
///     .with_node_limit(1_000_000);
/// assert_eq!(config.limits.nodes, Some(1_000_000));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// How much to prune after each decision.
    pub pruning: Pruning,
    /// Which variable to decide next.
    pub var_order: VarOrder,
    /// In which order to try its values.
    pub val_order: ValOrder,
    /// When to stop early.
    pub limits: Limits,
}

impl Config {
    /// Sets the pruning level.
    pub fn with_pruning(mut self, pruning: Pruning) -> Self {
        self.pruning = pruning;
        self
    }

    /// Sets the variable order.
    pub fn with_var_order(mut self, order: VarOrder) -> Self {
        self.var_order = order;
        self
    }

    /// Sets the value order.
    pub fn with_val_order(mut self, order: ValOrder) -> Self {
        self.val_order = order;
        self
    }

    /// Sets all limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Stops after `nodes` values tried.
    pub fn with_node_limit(mut self, nodes: u64) -> Self {
        self.limits.nodes = Some(nodes);
        self
    }

    /// Stops after `time` of searching.
    pub fn with_time_limit(mut self, time: Duration) -> Self {
        self.limits.time = Some(time);
        self
    }

    /// Stops when `flag` is set.
    pub fn with_cancel_flag(mut self, flag: CancelFlag) -> Self {
        self.limits.cancel = Some(flag);
        self
    }
}
