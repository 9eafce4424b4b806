//! `Strategy`: a pruning level with heuristics, written as `mac+first-fail+lcv`.

use std::fmt;
use std::str::FromStr;

use crate::{Config, Pruning, UnknownName, ValOrder, VarOrder};

/// A search strategy: a pruning level joined with a variable and a value order.
///
/// Written as the pruning level optionally followed by heuristics, joined with
/// `+`, in any order after the level: `check`, `fc`, `mac+first-fail`,
/// `fc+dom-wdeg+lcv`. Omitted heuristics are `input` and `asc`.
///
/// ```
/// use csp_core::{Pruning, Strategy, ValOrder, VarOrder};
/// let s: Strategy = "mac+first-fail+lcv".parse()?;
/// assert_eq!(s, Strategy::new(Pruning::ArcConsistency, VarOrder::FirstFail, ValOrder::LeastConstraining));
/// assert_eq!(s.to_string(), "mac+first-fail+lcv");
/// assert_eq!("check".parse::<Strategy>()?.to_string(), "check");
/// assert!("fc+sideways".parse::<Strategy>().is_err());
/// # Ok::<(), csp_core::UnknownName>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Strategy {
    /// The pruning level.
    pub pruning: Pruning,
    /// The variable order.
    pub var_order: VarOrder,
    /// The value order.
    pub val_order: ValOrder,
}

impl Strategy {
    /// A strategy from its three parts.
    pub fn new(pruning: Pruning, var_order: VarOrder, val_order: ValOrder) -> Self {
        Strategy {
            pruning,
            var_order,
            val_order,
        }
    }

    /// A [`Config`] with this strategy and no limits.
    pub fn config(&self) -> Config {
        Config::default()
            .with_pruning(self.pruning)
            .with_var_order(self.var_order)
            .with_val_order(self.val_order)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pruning.as_str())?;
        match self.var_order {
            VarOrder::Input => {}
            VarOrder::Random(seed) => write!(f, "+random:{seed}")?,
            v => write!(f, "+{v}")?,
        }
        match self.val_order {
            ValOrder::Ascending => {}
            ValOrder::Random(seed) => write!(f, "+random-value:{seed}")?,
            v => write!(f, "+{v}")?,
        }
        Ok(())
    }
}

impl FromStr for Strategy {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut parts = s.split('+').map(str::trim);
        let pruning: Pruning = parts.next().unwrap_or("").parse()?;
        let mut strategy = Strategy {
            pruning,
            ..Strategy::default()
        };
        for part in parts {
            if let Some(seed) = part.strip_prefix("random-value:") {
                strategy.val_order = format!("random:{seed}").parse()?;
            } else if part == "random-value" {
                strategy.val_order = ValOrder::Random(0);
            } else if let Some(seed) = part.strip_prefix("random:")
                && seed.parse::<u64>().is_err()
            {
                return Err(crate::pruning::bad_seed(seed));
            } else if let Ok(v) = part.parse::<VarOrder>() {
                strategy.var_order = v;
            } else if let Ok(v) = part.parse::<ValOrder>() {
                strategy.val_order = v;
            } else {
                return Err(UnknownName {
                    kind: "strategy part",
                    name: part.to_string(),
                    expected: "a pruning level (none, check, fc, mac, propagators) followed by \
                               +variable order (input, first-fail, mrv-degree, dom-wdeg, random[:SEED]) \
                               and/or +value order (asc, desc, middle, lcv, random-value[:SEED])",
                });
            }
        }
        Ok(strategy)
    }
}
