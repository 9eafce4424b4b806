//! The pruning levels: how much work the search does after each decision.

use std::fmt;
use std::str::FromStr;

/// How hard the search prunes after assigning a value. Every level finds the same
/// solutions; they differ in how many dead ends they visit and how much each node
/// costs.
///
/// | level | after `x = v` the engine... | classic name |
/// |---|---|---|
/// | [`None`](Pruning::None) | checks nothing until every variable has a value | generate and test |
/// | [`Check`](Pruning::Check) | asks each constraint on `x` whether the partial assignment is still [`promising`](crate::Constraint::promising) | backtracking |
/// | [`ForwardChecking`](Pruning::ForwardChecking) | removes from the unassigned neighbours of `x` every value inconsistent with it | forward checking (FC) |
/// | [`ArcConsistency`](Pruning::ArcConsistency) | revises constraints until no domain changes (AC-3), cascading through the network | MAC |
/// | [`Propagators`](Pruning::Propagators) | runs each constraint's strongest filtering to a fixpoint; a variable it fixes is not branched on | propagation |
///
/// The engine runs the level; each constraint decides what filtering it does
/// there, so the levels are not uniform across constraints:
///
/// | constraint | `check` | `fc` | `mac` | `propagators` |
/// |---|---|---|---|---|
/// | [`NotEqual`](crate::NotEqual) | both sides fixed | a fixed side's value leaves the other | as `fc` (it is arc consistent once a side is fixed) | as `mac` |
/// | [`BinaryRelation`](crate::BinaryRelation) | both sides fixed | the fixed side's incompatible values leave the other | revise both sides by support to a fixpoint: arc consistency | as `mac` |
/// | [`AllDifferent`](crate::AllDifferent) | two fixed equal values | the decided value leaves the others | value elimination of every fixed value, cascading | value elimination, then Régin's matching filter (generalised arc consistency) |
/// | [`Linear`](crate::Linear) | bounds cannot reach the right-hand side | bounds filtering | bounds filtering to a fixpoint | as `mac` |
/// | [`Table`](crate::Table), [`Element`](crate::Element), [`VarElement`](crate::VarElement) | the scope's fixed values fit no tuple / entry | supports over the tuples or entries | supports to a fixpoint | as `mac` |
/// | [`Predicate`](crate::Predicate) and other generic constraints | `check` once the scope is fixed | [`generic::forward_check`](crate::generic::forward_check): probe each value with `promising` | [`generic::support_search`](crate::generic::support_search): supports by enumerating tuples, falling back to forward checking above [`SUPPORT_SEARCH_LIMIT`](crate::generic::SUPPORT_SEARCH_LIMIT) (65,536) tuples | as `mac` |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pruning {
    /// Generate and test.
    None,
    /// The promising check of classic backtracking.
    #[default]
    Check,
    /// Forward checking.
    ForwardChecking,
    /// Maintaining arc consistency (AC-3).
    ArcConsistency,
    /// Each constraint's strongest propagator, to a fixpoint.
    Propagators,
}

impl Pruning {
    /// Every level, weakest first.
    pub const ALL: [Pruning; 5] = [
        Pruning::None,
        Pruning::Check,
        Pruning::ForwardChecking,
        Pruning::ArcConsistency,
        Pruning::Propagators,
    ];

    /// The short name used on command lines: `none`, `check`, `fc`, `mac`,
    /// `propagators`.
    pub fn as_str(self) -> &'static str {
        match self {
            Pruning::None => "none",
            Pruning::Check => "check",
            Pruning::ForwardChecking => "fc",
            Pruning::ArcConsistency => "mac",
            Pruning::Propagators => "propagators",
        }
    }

    /// Whether the level narrows domains (forward checking and above).
    pub fn narrows_domains(self) -> bool {
        self >= Pruning::ForwardChecking
    }
}

impl fmt::Display for Pruning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown name given to a `FromStr` of this crate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} '{name}' (expected one of: {expected})")]
pub struct UnknownName {
    /// What was being parsed.
    pub kind: &'static str,
    /// The name given.
    pub name: String,
    /// The accepted names.
    pub expected: &'static str,
}

/// The error for a seed that is not a `u64` (`random:99999999999999999999`):
/// named as a seed, not as an unknown order.
pub(crate) fn bad_seed(seed: &str) -> UnknownName {
    UnknownName {
        kind: "seed",
        name: seed.chars().take(80).collect(),
        expected: "a whole number from 0 to 18446744073709551615",
    }
}

impl FromStr for Pruning {
    type Err = UnknownName;

    /// ```
    /// use csp_core::Pruning;
    /// assert_eq!("fc".parse::<Pruning>(), Ok(Pruning::ForwardChecking));
    /// assert!("fast".parse::<Pruning>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "none" => Pruning::None,
            "check" => Pruning::Check,
            "fc" | "forward-checking" => Pruning::ForwardChecking,
            "mac" | "ac" | "arc-consistency" => Pruning::ArcConsistency,
            "propagators" | "prop" => Pruning::Propagators,
            _ => {
                return Err(UnknownName {
                    kind: "pruning level",
                    name: s.to_string(),
                    expected: "none, check, fc, mac, propagators",
                });
            }
        })
    }
}
