//! Options shared by several subcommands: the board size and the engine's model and strategy.

use clap::Args;
use csp_cli::StrategyArgs;
use csp_core::{CancelFlag, Config};
use nqueens::Variant;

use super::Failure;

/// The defaults of the engine, shown under `--help` of every solving command.
pub const ENGINE_DEFAULTS: &str = "Engine defaults: --model global --pruning check --var input \
--val asc (the classic programs' search; both models visit the same tree under check).";

/// Parses a board size: a whole number, 0 or more.
///
/// `-3`, `abc` and `8.5` are refused with a message naming the value.
pub fn parse_n(s: &str) -> Result<usize, String> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err("N must be a whole number, 0 or more".to_string());
    }
    t.parse()
        .map_err(|_| format!("N = {} is too large", csp_cli::input::quote(t)))
}

/// Parses `I/K`: share `I` of `K`, with `1 <= I <= K`.
pub fn parse_part(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{s}' is not a share: expected I/K with 1 <= I <= K, such as 3/8");
    let (i, k) = s.split_once('/').ok_or_else(bad)?;
    let (i, k): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        k.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || i > k {
        return Err(bad());
    }
    Ok((i, k))
}

/// The engine's options: the model variant, then csp-cli's strategy and limits.
#[derive(Args, Clone, Debug, Default)]
pub struct EngineArgs {
    /// Model: global (three all-different constraints; the default) or pairwise
    /// (one "do not attack" constraint per pair of rows, the classic `promising`).
    #[arg(long = "model", value_name = "VARIANT")]
    pub model: Option<Variant>,
    #[command(flatten)]
    pub strategy: StrategyArgs,
}

impl EngineArgs {
    /// The engine-only options given on the command line, by flag name.
    pub fn given(&self) -> Vec<&'static str> {
        let s = &self.strategy;
        [
            ("--model", self.model.is_some()),
            ("--pruning", s.pruning.is_some()),
            ("--backjump", s.backjump.is_some()),
            ("--var", s.var_order.is_some()),
            ("--val", s.val_order.is_some()),
            ("--node-limit", s.node_limit.is_some()),
            ("--time-limit", s.time_limit.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }

    /// Refuses engine options for a method that does not use the engine.
    pub fn refuse_for(&self, method: &str) -> Result<(), Failure> {
        match self.given().first() {
            Some(flag) => Err(Failure::Usage(format!(
                "{flag} cannot be used with --method {method} (strategy, model and limit \
                 options choose how the engine searches; use --method engine)"
            ))),
            None => Ok(()),
        }
    }

    /// The model variant (default: global).
    pub fn variant(&self) -> Variant {
        self.model.unwrap_or_default()
    }

    /// The search configuration, stopped by `cancel` if given.
    pub fn config(&self, cancel: Option<CancelFlag>) -> Config {
        let config = self.strategy.config();
        match cancel {
            Some(flag) => config.with_cancel_flag(flag),
            None => config,
        }
    }

    /// The strategy as written on a command line, for statistics:
    /// `check`, `fc+first-fail`.
    pub fn strategy_name(&self) -> String {
        let c = self.strategy.config();
        csp_core::Strategy::new(c.pruning, c.var_order, c.val_order)
            .with_backjumping(c.backjumping)
            .to_string()
    }

    /// The extra `%%%mzn-stat` lines naming the method, model and strategy.
    pub fn stat_extras(&self) -> Vec<(&'static str, String)> {
        vec![
            ("method", "\"engine\"".to_string()),
            ("model", format!("\"{}\"", self.variant())),
            ("strategy", format!("\"{}\"", self.strategy_name())),
        ]
    }
}

/// Turns a library error into a usage error when it is about the input (a
/// board too large), and an internal error otherwise.
pub fn engine_error(e: nqueens::Error) -> Failure {
    match e {
        nqueens::Error::TooLarge { .. } => Failure::Usage(e.to_string()),
        e => Failure::Other(e.to_string()),
    }
}

/// The words for a search cut short: `stopped by time limit`, `cancelled by Ctrl-C`.
pub fn stopped_by(reason: csp_core::StopReason) -> String {
    match reason {
        csp_core::StopReason::Cancelled => "cancelled by Ctrl-C".to_string(),
        r => format!("stopped by {r}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_sizes_are_whole_numbers() {
        assert_eq!(parse_n("8"), Ok(8));
        assert_eq!(parse_n(" 0\n"), Ok(0));
        for bad in ["-3", "abc", "8.5", "", "+4"] {
            assert!(parse_n(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_n("99999999999999999999999"),
            Err("N = 99999999999999999999999 is too large".to_string())
        );
    }

    #[test]
    fn shares_are_numbered_from_one() {
        assert_eq!(parse_part("3/8"), Ok((3, 8)));
        for bad in ["0/4", "5/4", "3", "a/b", "1/0"] {
            assert!(parse_part(bad).is_err(), "{bad}");
        }
    }
}
