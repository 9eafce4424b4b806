//! `Strategy`: a pruning level with heuristics, written as `mac+first-fail+lcv`.

use std::fmt;
use std::str::FromStr;

use crate::{Backjumping, Config, Pruning, PruningToken, UnknownName, ValOrder, VarOrder};

/// A search strategy: a pruning level joined with a variable and a value order.
///
/// Written `pruning[+var[+val]]`: the pruning level, then optionally the
/// variable order, then optionally the value order, by position and spelled
/// as the command lines' `--pruning`, `--var` and `--val` spell them:
/// `check`, `fc`, `mac+first-fail`, `fc+dom-wdeg+lcv`, `fc+input+random:7`.
/// Omitted heuristics are `input` and `asc`. The pruning level may carry a
/// look-back suffix ([`Backjumping`]): `check-gbj`, `check-cbj`, `fc-cbj`,
/// `mac-cbj+first-fail`.
///
/// ```
/// use csp_core::{Pruning, Strategy, ValOrder, VarOrder};
/// let s: Strategy = "mac+first-fail+lcv".parse()?;
/// assert_eq!(s, Strategy::new(Pruning::ArcConsistency, VarOrder::FirstFail, ValOrder::LeastConstraining));
/// assert_eq!(s.to_string(), "mac+first-fail+lcv");
/// assert_eq!("check".parse::<Strategy>()?.to_string(), "check");
/// assert!("fc+sideways".parse::<Strategy>().is_err());
/// let cbj: Strategy = "fc-cbj+first-fail".parse()?;
/// assert_eq!(cbj.backjumping, csp_core::Backjumping::Cbj);
/// assert_eq!(cbj.to_string(), "fc-cbj+first-fail");
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
    /// The look-back (the pruning token's suffix).
    pub backjumping: Backjumping,
}

impl Strategy {
    /// A strategy from its three parts.
    pub fn new(pruning: Pruning, var_order: VarOrder, val_order: ValOrder) -> Self {
        Strategy {
            pruning,
            var_order,
            val_order,
            backjumping: Backjumping::None,
        }
    }

    /// This strategy with the look-back `backjumping`.
    pub fn with_backjumping(mut self, backjumping: Backjumping) -> Self {
        self.backjumping = backjumping;
        self
    }

    /// The pruning level with its look-back suffix (`fc-cbj`).
    pub fn pruning_token(&self) -> PruningToken {
        PruningToken {
            pruning: self.pruning,
            backjumping: Some(self.backjumping),
        }
    }

    /// A [`Config`] with this strategy and no limits.
    pub fn config(&self) -> Config {
        Config::textbook()
            .with_pruning(self.pruning)
            .with_var_order(self.var_order)
            .with_val_order(self.val_order)
            .with_backjumping(self.backjumping)
    }
}

impl fmt::Display for Strategy {
    /// `pruning[+var[+val]]`, by position: the variable order is written when
    /// it or the value order is not the default (`fc+input+random:7`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pruning_token())?;
        let val = self.val_order != ValOrder::Ascending;
        if self.var_order != VarOrder::Input || val {
            match self.var_order {
                VarOrder::Random(seed) => write!(f, "+random:{seed}")?,
                v => write!(f, "+{v}")?,
            }
        }
        if val {
            match self.val_order {
                ValOrder::Random(seed) => write!(f, "+random:{seed}")?,
                v => write!(f, "+{v}")?,
            }
        }
        Ok(())
    }
}

/// The spellings a strategy string accepts, for error messages.
const STRATEGY_SPELLINGS: &str = "pruning[+var[+val]] by position, spelled as --pruning, --var, \
    --val spell them: pruning none, check, fc, mac, propagators (with a look-back suffix: \
    check-gbj, check-cbj, fc-cbj, mac-cbj); var input, first-fail, \
    mrv-degree, dom-wdeg, afc-size, random[:SEED]; val asc, desc, middle, lcv, split, \
    reverse-split, random[:SEED] \
    (random-value[:SEED] also names the value order)";

impl FromStr for Strategy {
    type Err = UnknownName;

    /// Parses `pruning[+var[+val]]`: the parts are read by position, each
    /// spelled as `--pruning`, `--var` and `--val` spell it, so
    /// `fc+input+random:7` is forward checking, input order, random values
    /// with seed 7 (`random:7` in second place is the random *variable*
    /// order). `random-value[:SEED]` names the value order wherever it
    /// stands (`fc+random-value:7` = `fc+input+random:7`).
    ///
    /// ```
    /// use csp_core::{Pruning, Strategy, ValOrder, VarOrder};
    /// let s: Strategy = "fc+input+random:7".parse()?;
    /// assert_eq!(s, Strategy::new(Pruning::ForwardChecking, VarOrder::Input, ValOrder::Random(7)));
    /// assert_eq!("fc+random-value:7".parse::<Strategy>()?, s);
    /// assert_eq!(s.to_string(), "fc+input+random:7");
    /// assert_eq!("fc+random:7".parse::<Strategy>()?.var_order, VarOrder::Random(7));
    /// // A value order in the variable order's place is an error.
    /// let e = "fc+lcv".parse::<Strategy>().unwrap_err().to_string();
    /// assert!(e.starts_with("unknown variable order 'lcv' in strategy 'fc+lcv'"), "{e}");
    /// # Ok::<(), csp_core::UnknownName>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split('+').map(str::trim).collect();
        let fail = |kind: &'static str, part: &str| UnknownName {
            kind,
            name: format!("{part}' in strategy '{s}"),
            expected: STRATEGY_SPELLINGS,
        };
        let token: PruningToken = parts[0]
            .parse()
            .map_err(|_| fail("pruning level", parts[0]))?;
        let mut strategy = Strategy {
            pruning: token.pruning,
            backjumping: token.backjumping.unwrap_or_default(),
            ..Strategy::default()
        };
        // A seed too large for 64 bits is named as such, not as an unknown part.
        let seed_or = |e: UnknownName, kind: &'static str, part: &str| {
            if e.kind == "seed" {
                e
            } else {
                fail(kind, part)
            }
        };
        let value_alias = |part: &str| -> Option<Result<ValOrder, UnknownName>> {
            let rest = part.strip_prefix("random-value")?;
            Some(match rest.strip_prefix(':') {
                _ if rest.is_empty() => Ok(ValOrder::Random(0)),
                Some(seed) if !seed.is_empty() && seed.bytes().all(|b| b.is_ascii_digit()) => seed
                    .parse()
                    .map(ValOrder::Random)
                    .map_err(|_| crate::pruning::bad_seed(seed)),
                _ => Err(fail("value order", part)),
            })
        };
        match parts.get(1..).unwrap_or(&[]) {
            [] => {}
            [alias] if value_alias(alias).is_some() => {
                strategy.val_order =
                    value_alias(alias).unwrap_or_else(|| Err(fail("value order", alias)))?;
            }
            [var] | [var, _] => {
                strategy.var_order = var.parse().map_err(|e| seed_or(e, "variable order", var))?;
                if let Some(val) = parts.get(2) {
                    strategy.val_order = match value_alias(val) {
                        Some(v) => v?,
                        None => val.parse().map_err(|e| seed_or(e, "value order", val))?,
                    };
                }
            }
            [_, _, extra, ..] => return Err(fail("fourth part", extra)),
        }
        Ok(strategy)
    }
}
