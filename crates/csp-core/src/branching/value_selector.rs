//! The `ValueSelector` trait, what it may use, and the built-in choice.

use std::fmt;
use std::str::FromStr;

use super::{
    Ascending, Descending, LeastConstrainingValue, MiddleOut, RandomValue, ReverseSplit, Split,
};
use crate::context::{Changes, PropagationContext};
use crate::model::Posted;
use crate::pruning::UnknownName;
use crate::search::Watch;
use crate::{Choice, Constraint, Domains, Pruning, SearchStats, TrailedState, Value, VarId};

/// What a value heuristic may use: the domains, and a probe that measures how
/// constraining a value is.
pub struct ValueContext<'a> {
    pub(crate) domains: &'a mut Domains,
    pub(crate) state: &'a mut TrailedState,
    pub(crate) changes: &'a mut Changes,
    pub(crate) constraints: &'a [Posted],
    pub(crate) watches: &'a [Vec<Watch>],
    pub(crate) stats: &'a mut SearchStats,
}

impl ValueContext<'_> {
    /// The current domains.
    pub fn domains(&self) -> &Domains {
        self.domains
    }

    /// Whether the search must stop now: its time limit passed or its cancel
    /// flag was set. An order that probes many values (as
    /// [`conflicts`](Self::conflicts) does) may ask between two probes and
    /// list the remaining values unscored: the search stops as soon as the
    /// order is returned. The clock is read once every 64 questions.
    #[inline]
    pub fn should_stop(&mut self) -> bool {
        self.changes.poll()
    }

    /// How many values forward checking would remove from other variables if
    /// `var` took `value`; `None` if that would empty a domain. The probe is undone
    /// before returning; its work counts in the statistics.
    ///
    /// The probe asks [`should_stop`](Self::should_stop) before each
    /// constraint it wakes: once a limit is reached it returns `None` at once
    /// (without probing), and the search stops when the order is returned.
    pub fn conflicts(&mut self, var: VarId, value: Value) -> Option<u64> {
        if self.changes.poll() {
            return None;
        }
        let record = std::mem::replace(&mut self.changes.record, false);
        let track = std::mem::replace(&mut self.changes.track_changed, false);
        let before = self.changes.pruned;
        self.domains.push_level();
        self.state.push_level();
        let mut ok = self.domains.assign(var, value).is_ok();
        if ok {
            for w in &self.watches[var.index()] {
                let c = w.cid as usize;
                if self.state.is_entailed(c) {
                    continue;
                }
                if self.changes.poll() {
                    // A limit: the search stops once the order is returned.
                    ok = false;
                    break;
                }
                self.stats.propagations += 1;
                let mut ctx = PropagationContext::new(
                    self.domains,
                    self.state,
                    self.changes,
                    Pruning::ForwardChecking,
                    Some((VarId::new(w.var as usize), w.pos as usize)),
                    c,
                );
                if self.constraints[c].propagate(&mut ctx).is_err() {
                    ok = false;
                    break;
                }
            }
        }
        self.domains.pop_level();
        self.state.pop_level();
        let removed = self.changes.pruned - before;
        // Probing is not pruning: keep the statistic about the search itself.
        self.changes.pruned = before;
        self.changes.record = record;
        self.changes.track_changed = track;
        ok.then_some(removed)
    }
}

/// Orders the values of the chosen variable.
///
/// Implement it to plug in your own order (see
/// [`Solver::with_selectors`](crate::Solver::with_selectors)).
pub trait ValueSelector {
    /// Appends the values of `var`'s current domain to `out`, in the order to try
    /// them. `out` is empty on entry. Must list each value of the domain once.
    fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>);

    /// `Some` if the order for `var` is a walk of its domain the engine knows
    /// (smallest first, largest first, or middle-out): the search then walks the domain as it goes
    /// instead of calling [`order`](ValueSelector::order), and no list of
    /// values is kept per decision, whatever the domain's width. The default
    /// is `None`.
    fn sweep(&self, var: VarId) -> Option<Sweep> {
        let _ = var;
        None
    }

    /// `Some` to halve `var`'s domain instead of trying one value, where the
    /// search makes binary choices at the
    /// [`Propagators`](crate::Pruning::Propagators) level: with
    /// `m = ⌊(min + max) / 2⌋`, [`Choice::LessEqual`] branches `x <= m` then
    /// `x > m`, [`Choice::GreaterEqual`] branches `x >= m + 1` then `x < m + 1`
    /// ([`Choice::Equal`] means no split). Elsewhere the search uses
    /// [`order`](ValueSelector::order) or [`sweep`](ValueSelector::sweep). The
    /// default is `None`.
    fn split(&self, var: VarId) -> Option<Choice> {
        let _ = var;
        None
    }

    /// The heuristic's name.
    fn name(&self) -> &str;
}

/// A value order that walks the domain in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sweep {
    /// Smallest value first.
    Up,
    /// Largest value first.
    Down,
    /// [`MiddleOut`](crate::branching::MiddleOut)'s order: the median (by rank in
    /// the domain) first, then alternately above and below it.
    Middle,
}

/// The built-in value orders, by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ValOrder {
    /// Smallest first ([`Ascending`]).
    #[default]
    Ascending,
    /// Largest first ([`Descending`]).
    Descending,
    /// From the middle of the domain outwards ([`MiddleOut`]).
    MiddleOut,
    /// Least constraining first ([`LeastConstrainingValue`]).
    LeastConstraining,
    /// Shuffled, from a seed ([`RandomValue`]).
    Random(u64),
    /// Halve the domain, lower half first ([`Split`]; ascending values where a
    /// node must assign one).
    Split,
    /// Halve the domain, upper half first ([`ReverseSplit`]; descending values
    /// where a node must assign one).
    ReverseSplit,
}

impl ValOrder {
    /// The short name used on command lines.
    pub fn as_str(self) -> &'static str {
        match self {
            ValOrder::Ascending => "asc",
            ValOrder::Descending => "desc",
            ValOrder::MiddleOut => "middle",
            ValOrder::LeastConstraining => "lcv",
            ValOrder::Random(_) => "random",
            ValOrder::Split => "split",
            ValOrder::ReverseSplit => "reverse-split",
        }
    }

    /// The selector that implements this order.
    pub fn selector(self) -> AnyValueSelector {
        match self {
            ValOrder::Ascending => AnyValueSelector::Ascending(Ascending),
            ValOrder::Descending => AnyValueSelector::Descending(Descending),
            ValOrder::MiddleOut => AnyValueSelector::MiddleOut(MiddleOut),
            ValOrder::LeastConstraining => {
                AnyValueSelector::LeastConstraining(LeastConstrainingValue::default())
            }
            ValOrder::Random(seed) => AnyValueSelector::Random(RandomValue::new(seed)),
            ValOrder::Split => AnyValueSelector::Split(Split),
            ValOrder::ReverseSplit => AnyValueSelector::ReverseSplit(ReverseSplit),
        }
    }
}

impl fmt::Display for ValOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ValOrder {
    type Err = UnknownName;

    /// Parses `asc`, `desc`, `middle`, `lcv`, `split`, `reverse-split`, `random`
    /// (seed 0) or `random:SEED`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "asc" | "ascending" | "min" => ValOrder::Ascending,
            "desc" | "descending" | "max" => ValOrder::Descending,
            "middle" | "middle-out" => ValOrder::MiddleOut,
            "lcv" | "least-constraining" => ValOrder::LeastConstraining,
            "split" | "indomain-split" => ValOrder::Split,
            "reverse-split" | "indomain-reverse-split" => ValOrder::ReverseSplit,
            "random" => ValOrder::Random(0),
            _ => match s.strip_prefix("random:").map(str::parse) {
                Some(Ok(seed)) => ValOrder::Random(seed),
                Some(Err(_)) => return Err(crate::pruning::bad_seed(&s["random:".len()..])),
                None => {
                    return Err(UnknownName {
                        kind: "value order",
                        name: s.to_string(),
                        expected: "asc, desc, middle, lcv, split, reverse-split, random[:SEED]",
                    });
                }
            },
        })
    }
}

/// One of the built-in value selectors, dispatched statically.
#[derive(Clone, Debug)]
pub enum AnyValueSelector {
    /// See [`Ascending`].
    Ascending(Ascending),
    /// See [`Descending`].
    Descending(Descending),
    /// See [`MiddleOut`].
    MiddleOut(MiddleOut),
    /// See [`LeastConstrainingValue`].
    LeastConstraining(LeastConstrainingValue),
    /// See [`RandomValue`].
    Random(RandomValue),
    /// See [`Split`].
    Split(Split),
    /// See [`ReverseSplit`].
    ReverseSplit(ReverseSplit),
}

impl ValueSelector for AnyValueSelector {
    #[inline]
    fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>) {
        match self {
            AnyValueSelector::Ascending(s) => s.order(var, ctx, out),
            AnyValueSelector::Descending(s) => s.order(var, ctx, out),
            AnyValueSelector::MiddleOut(s) => s.order(var, ctx, out),
            AnyValueSelector::LeastConstraining(s) => s.order(var, ctx, out),
            AnyValueSelector::Random(s) => s.order(var, ctx, out),
            AnyValueSelector::Split(s) => s.order(var, ctx, out),
            AnyValueSelector::ReverseSplit(s) => s.order(var, ctx, out),
        }
    }

    #[inline]
    fn sweep(&self, var: VarId) -> Option<Sweep> {
        match self {
            AnyValueSelector::Ascending(s) => s.sweep(var),
            AnyValueSelector::Descending(s) => s.sweep(var),
            AnyValueSelector::MiddleOut(s) => s.sweep(var),
            AnyValueSelector::LeastConstraining(s) => s.sweep(var),
            AnyValueSelector::Random(s) => s.sweep(var),
            AnyValueSelector::Split(s) => s.sweep(var),
            AnyValueSelector::ReverseSplit(s) => s.sweep(var),
        }
    }

    #[inline]
    fn split(&self, var: VarId) -> Option<Choice> {
        match self {
            AnyValueSelector::Split(s) => s.split(var),
            AnyValueSelector::ReverseSplit(s) => s.split(var),
            _ => None,
        }
    }

    fn name(&self) -> &str {
        match self {
            AnyValueSelector::Ascending(s) => s.name(),
            AnyValueSelector::Descending(s) => s.name(),
            AnyValueSelector::MiddleOut(s) => s.name(),
            AnyValueSelector::LeastConstraining(s) => s.name(),
            AnyValueSelector::Random(s) => s.name(),
            AnyValueSelector::Split(s) => s.name(),
            AnyValueSelector::ReverseSplit(s) => s.name(),
        }
    }
}
