//! Look-back: how far the search goes back after a dead end (`Backjumping`).

use std::fmt;
use std::str::FromStr;

use crate::{CspError, Pruning, UnknownName};

/// Where the search goes when a variable has no value left: back to the
/// previous decision (chronological backtracking), or further, over
/// decisions that had nothing to do with the dead end. Orthogonal to the
/// look-ahead of [`Pruning`], with which it combines as the literature does:
///
/// | setting | with | classic name |
/// |---|---|---|
/// | [`None`](Backjumping::None) | every level | chronological backtracking (BT, FC, MAC) |
/// | [`Gbj`](Backjumping::Gbj) | [`Pruning::Check`] | Gaschnig's backjumping (BJ, 1979) |
/// | [`Cbj`](Backjumping::Cbj) | [`Pruning::Check`], [`Pruning::ForwardChecking`], [`Pruning::ArcConsistency`] | conflict-directed backjumping: CBJ, FC-CBJ, MAC-CBJ (Prosser 1993, 1995) |
///
/// Other combinations are refused by [`Solver::new`](crate::Solver::new)
/// with [`CspError::UnsupportedBackjumping`]: Gaschnig's backjumping is
/// defined for the promising check, and the `propagators` level fixes
/// variables without decisions, which the conflict sets here do not track.
///
/// Every decision has a *level* (1 for the first); each level keeps a
/// *conflict set*, the lower levels whose decisions together rule out the
/// values tried there. A failed value adds the levels of the decisions
/// behind the failure: the decided variables in the scope of the constraint
/// that failed and the levels that removed values from its other variables
/// (the engine records, for each variable, the levels behind every removal:
/// the scope of the constraint that removed it stands for its explanation,
/// so a constraint of yours works unchanged). At a dead end the search
/// returns to the deepest level of the set (with CBJ merging the rest into
/// that level's set), skipping every decision in between. Variable and value
/// orders, static or dynamic, keep this sound: a level's set only names
/// lower levels, whose decisions do not change while it is explored. After
/// a solution (counting, enumerating, branch and bound) the levels above it
/// go back chronologically: a solution has no conflict set.
///
/// The solutions found are the same; only the nodes visited change.
///
/// ```
/// use csp_core::{Backjumping, Config, Pruning, Solver};
/// let (m, _) = csp_core::models::pairwise_queens(8)?;
/// let bt = Solver::new(&m, Config::textbook())?.count();
/// let cbj = Solver::new(&m, Config::textbook().with_backjumping(Backjumping::Cbj))?.count();
/// assert_eq!((bt.solutions, cbj.solutions), (92, 92));
/// assert!(cbj.stats.tried <= bt.stats.tried);
/// assert_eq!("check-cbj".parse::<csp_core::PruningToken>()?.backjumping, Some(Backjumping::Cbj));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Backjumping {
    /// Chronological backtracking: back to the previous decision.
    #[default]
    None,
    /// Gaschnig's backjumping: from a dead end whose every value failed at
    /// once (a leaf dead end), back to the deepest decision one of them
    /// conflicted with; from any other dead end, chronologically.
    Gbj,
    /// Conflict-directed backjumping: from every dead end back to the
    /// deepest level of its conflict set, which the level jumped to inherits.
    Cbj,
}

impl Backjumping {
    /// Every setting.
    pub const ALL: [Backjumping; 3] = [Backjumping::None, Backjumping::Gbj, Backjumping::Cbj];

    /// The short name used on command lines: `none`, `gbj`, `cbj`.
    pub fn as_str(self) -> &'static str {
        match self {
            Backjumping::None => "none",
            Backjumping::Gbj => "gbj",
            Backjumping::Cbj => "cbj",
        }
    }

    /// Whether this setting works with `pruning`; the error says why not.
    ///
    /// ```
    /// use csp_core::{Backjumping, Pruning};
    /// assert!(Backjumping::Cbj.check(Pruning::ArcConsistency).is_ok());
    /// let e = Backjumping::Gbj.check(Pruning::ForwardChecking).unwrap_err();
    /// assert!(e.to_string().starts_with("backjumping gbj does not work with pruning fc"), "{e}");
    /// ```
    pub fn check(self, pruning: Pruning) -> Result<(), CspError> {
        let reason = match (self, pruning) {
            (Backjumping::None, _) => return Ok(()),
            (Backjumping::Gbj, Pruning::Check) => return Ok(()),
            (
                Backjumping::Cbj,
                Pruning::Check | Pruning::ForwardChecking | Pruning::ArcConsistency,
            ) => return Ok(()),
            (_, Pruning::None) => {
                "generate and test finds conflicts only on complete assignments; use check"
            }
            (_, Pruning::Propagators) => {
                "the propagators level fixes variables without decisions, which the conflict \
                 sets do not track; use check, fc or mac"
            }
            (Backjumping::Gbj, _) => {
                "Gaschnig's backjumping is defined for the promising check; with fc or mac use cbj"
            }
        };
        Err(CspError::UnsupportedBackjumping {
            backjumping: self.as_str().into(),
            pruning: pruning.as_str().into(),
            reason: reason.into(),
        })
    }
}

impl fmt::Display for Backjumping {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Backjumping {
    type Err = UnknownName;

    /// ```
    /// use csp_core::Backjumping;
    /// assert_eq!("cbj".parse::<Backjumping>(), Ok(Backjumping::Cbj));
    /// assert!("bj".parse::<Backjumping>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "none" => Backjumping::None,
            "gbj" => Backjumping::Gbj,
            "cbj" => Backjumping::Cbj,
            _ => {
                return Err(UnknownName {
                    kind: "backjumping",
                    name: s.chars().take(80).collect(),
                    expected: "none, gbj, cbj",
                });
            }
        })
    }
}

/// A pruning level with an optional look-back suffix, as `--pruning` and the
/// first part of a strategy string spell it: `check`, `fc`, `check-gbj`,
/// `check-cbj`, `fc-cbj`, `mac-cbj` (`-none` is accepted too).
///
/// ```
/// use csp_core::{Backjumping, Pruning, PruningToken};
/// let t: PruningToken = "fc-cbj".parse()?;
/// assert_eq!((t.pruning, t.backjumping), (Pruning::ForwardChecking, Some(Backjumping::Cbj)));
/// assert_eq!(t.to_string(), "fc-cbj");
/// assert_eq!("mac".parse::<PruningToken>()?.backjumping, None);
/// assert!("fc-bj".parse::<PruningToken>().is_err());
/// # Ok::<(), csp_core::UnknownName>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PruningToken {
    /// The pruning level.
    pub pruning: Pruning,
    /// The look-back suffix, if one was written.
    pub backjumping: Option<Backjumping>,
}

impl From<Pruning> for PruningToken {
    fn from(pruning: Pruning) -> Self {
        PruningToken {
            pruning,
            backjumping: None,
        }
    }
}

impl fmt::Display for PruningToken {
    /// The level, then `-gbj` or `-cbj` (nothing for `none` or no suffix).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pruning.as_str())?;
        match self.backjumping {
            None | Some(Backjumping::None) => Ok(()),
            Some(b) => write!(f, "-{b}"),
        }
    }
}

impl FromStr for PruningToken {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // A plain level, or anything without a look-back suffix, is read
        // (and refused) as a pruning level.
        let plain = s.parse::<Pruning>();
        let Some((level, suffix)) = s.rsplit_once('-').filter(|_| plain.is_err()) else {
            return plain.map(PruningToken::from);
        };
        let Ok(backjumping) = suffix.parse::<Backjumping>() else {
            return plain.map(PruningToken::from);
        };
        Ok(PruningToken {
            pruning: level.parse()?,
            backjumping: Some(backjumping),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_round_trips_and_long_names_keep_working() {
        for p in Pruning::ALL {
            for b in Backjumping::ALL {
                let t = PruningToken {
                    pruning: p,
                    backjumping: Some(b),
                };
                let back: PruningToken = t.to_string().parse().unwrap();
                assert_eq!(back.pruning, p);
                assert_eq!(back.backjumping.unwrap_or_default(), b);
            }
        }
        // A level whose long name has a hyphen is not read as a suffix.
        let t: PruningToken = "forward-checking".parse().unwrap();
        assert_eq!(t, PruningToken::from(Pruning::ForwardChecking));
        let t: PruningToken = "forward-checking-cbj".parse().unwrap();
        assert_eq!(t.backjumping, Some(Backjumping::Cbj));
    }

    #[test]
    fn only_the_literature_combinations_are_accepted() {
        let ok: Vec<String> = Pruning::ALL
            .iter()
            .flat_map(|&p| Backjumping::ALL.map(move |b| (p, b)))
            .filter(|&(p, b)| b != Backjumping::None && b.check(p).is_ok())
            .map(|(p, b)| {
                PruningToken {
                    pruning: p,
                    backjumping: Some(b),
                }
                .to_string()
            })
            .collect();
        assert_eq!(ok, ["check-gbj", "check-cbj", "fc-cbj", "mac-cbj"]);
    }
}
