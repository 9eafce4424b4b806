//! The `VariableSelector` trait, the view it reads, and the built-in choice.

use std::fmt;
use std::str::FromStr;

use super::{AfcSize, DomOverWdeg, FirstFail, InputOrder, MrvDegree, RandomVar};
use crate::model::Posted;
use crate::observer::Candidate;
use crate::pruning::UnknownName;
use crate::search::Watch;
use crate::{Constraint, ConstraintId, Domains, TrailedState, VarId};

/// What a heuristic may look at: domains, which variables are decided, and the
/// constraint graph with its failure weights. Read-only.
pub struct SearchView<'a> {
    pub(crate) domains: &'a Domains,
    pub(crate) state: &'a TrailedState,
    pub(crate) decided: &'a [bool],
    /// The decision variables, if the search branches on some only.
    pub(crate) decision: Option<&'a [VarId]>,
    pub(crate) watches: &'a [Vec<Watch>],
    pub(crate) constraints: &'a [Posted],
    pub(crate) weights: &'a [u64],
    /// Per constraint: its accumulated failure count, aged (see [`AfcSize`]).
    pub(crate) afc: &'a [f64],
    /// Whether a variable fixed by propagation counts as decided (the
    /// propagators level: it is not branched on).
    pub(crate) skip_fixed: bool,
}

impl<'a> SearchView<'a> {
    /// The current domains.
    #[inline]
    pub fn domains(&self) -> &'a Domains {
        self.domains
    }

    /// Whether the search has made a decision on `var` on the current path.
    /// At the [`Pruning::Propagators`](crate::Pruning::Propagators) level a
    /// variable that propagation fixed counts as decided too: the search does
    /// not branch on it (the textbook levels do, one node per variable).
    /// A view ([`Model::view`](crate::Model::view)) is never a decision of
    /// its own: it is decided when its base is.
    #[inline]
    pub fn is_decided(&self, var: VarId) -> bool {
        match self.decided.get(var.index()) {
            Some(&d) => d || (self.skip_fixed && self.domains.is_fixed(var)),
            None => self.view_is_decided(var),
        }
    }

    #[cold]
    #[inline(never)]
    fn view_is_decided(&self, var: VarId) -> bool {
        self.is_decided(self.domains.base_of(var))
    }

    /// The smallest domain an undecided variable can have: 2 at the
    /// [`Pruning::Propagators`](crate::Pruning::Propagators) level (a fixed
    /// variable counts as decided there), else 1. A choice by smallest
    /// domain, ties to the earliest, may stop at the first variable this
    /// small.
    ///
    /// ```
    /// use csp_core::{Config, Model, NoObserver, SearchView, Solver, VarId, ValOrder, VariableSelector};
    /// struct Smallest;
    /// impl VariableSelector for Smallest {
    ///     fn select(&mut self, view: &SearchView<'_>) -> Option<VarId> {
    ///         let mut best: Option<(usize, VarId)> = None;
    ///         for v in view.undecided() {
    ///             let size = view.domains().len(v);
    ///             if best.is_none_or(|(s, _)| size < s) {
    ///                 best = Some((size, v));
    ///                 if size <= view.least_open_size() {
    ///                     break;
    ///                 }
    ///             }
    ///         }
    ///         best.map(|(_, v)| v)
    ///     }
    ///     fn name(&self) -> &str {
    ///         "smallest"
    ///     }
    /// }
    /// let mut m = Model::new();
    /// let x = m.int_var(1..=3)?;
    /// let y = m.int_var(1..=3)?;
    /// m.not_equal(x, y)?;
    /// let val = ValOrder::Ascending.selector();
    /// let mut s = Solver::with_selectors(&m, Config::default(), Smallest, val, NoObserver)?;
    /// assert_eq!(s.count().solutions, 6);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    #[inline]
    pub fn least_open_size(&self) -> usize {
        if self.skip_fixed { 2 } else { 1 }
    }

    /// The variables the search may branch on now: the undecided ones, in
    /// declaration order; with decision variables
    /// ([`Config::with_decision_vars`](crate::Config::with_decision_vars)),
    /// the undecided decision variables in the order given while there is one,
    /// then the other undecided variables in declaration order.
    #[inline]
    pub fn undecided(&self) -> impl Iterator<Item = VarId> + '_ {
        let decision = self
            .decision
            .filter(|vars| vars.iter().any(|&v| !self.is_decided(v)));
        let (listed, all) = match decision {
            Some(vars) => (vars, 0..0),
            None => (&[][..], 0..self.decided.len()),
        };
        listed
            .iter()
            .copied()
            .chain(all.map(VarId::new))
            .filter(|&v| !self.is_decided(v))
    }

    /// The constraints on `var` that are not entailed and involve another
    /// undecided variable, with their weights.
    fn live_constraints(&self, var: VarId) -> impl Iterator<Item = (ConstraintId, u64)> + '_ {
        self.watches[var.index()].iter().filter_map(move |w| {
            let c = w.cid as usize;
            if self.state.is_entailed(c) {
                return None;
            }
            let other = self.constraints[c]
                .scope()
                .iter()
                .any(|&y| self.domains.base_of(y) != var && !self.is_decided(y));
            other.then_some((ConstraintId::new(c), self.weights[c]))
        })
    }

    /// The dynamic degree of `var`: how many live constraints link it to another
    /// undecided variable.
    pub fn degree(&self, var: VarId) -> usize {
        self.live_constraints(var).count()
    }

    /// The weighted degree of `var` (dom/wdeg): the sum of the weights of those
    /// constraints, each weight being 1 plus the conflicts it caused so far.
    pub fn weighted_degree(&self, var: VarId) -> u64 {
        self.live_constraints(var).map(|(_, w)| w).sum()
    }

    /// The accumulated failure count of `var` ([`AfcSize`]): the sum of the
    /// aged failure counts of the constraints on it that are not entailed
    /// (each starts at 1; every failure multiplies all of them by
    /// [`AFC_DECAY`](super::AFC_DECAY) and adds 1 to the failing one's; the
    /// values are kept scaled, so compare them, do not read them as counts).
    /// A constraint whose wake set ([`Constraint::wake_set`]) no longer holds
    /// `var` does not count: as in Gecode, where a variable's AFC sums the
    /// propagators subscribed to it.
    pub fn afc(&self, var: VarId) -> f64 {
        self.watches[var.index()]
            .iter()
            .filter(|w| {
                let c = w.cid as usize;
                !self.state.is_entailed(c) && (!w.masked || self.state.wakes(c, w.pos as usize))
            })
            .map(|w| self.afc[w.cid as usize])
            .sum()
    }
}

/// Chooses the next variable to branch on.
///
/// Implement it to plug in your own heuristic (see
/// [`Solver::with_selectors`](crate::Solver::with_selectors)).
pub trait VariableSelector {
    /// An undecided variable, or `None` when every variable is decided. Ties must
    /// be broken deterministically.
    fn select(&mut self, view: &SearchView<'_>) -> Option<VarId>;

    /// For traces: the undecided variables with the scores the heuristic compared,
    /// best first (at most `limit`). The default explains nothing.
    fn candidates(&mut self, _view: &SearchView<'_>, _limit: usize, _out: &mut Vec<Candidate>) {}

    /// The heuristic's name.
    fn name(&self) -> &str;

    /// Whether the heuristic reads [`SearchView::afc`]: the solver keeps the
    /// aged failure counts up to date only then (a division per failure).
    /// The default is `true`; the built-in orders other than
    /// [`AfcSize`] say `false`.
    fn reads_afc(&self) -> bool {
        true
    }

    /// The built-in order this selector chooses exactly as, if any. The
    /// solver then keeps that order's choice incrementally (re-scoring only
    /// the variables whose domain, constraints or neighbours changed, with
    /// a tournament tree: O(log n) per changed variable instead of a scan
    /// of every variable at each node) and does not call
    /// [`select`](VariableSelector::select). Return `Some` only if `select`
    /// makes the same choice as that order's selector, ties included. The
    /// default is `None`; the built-ins other than [`RandomVar`] say which
    /// they are.
    fn builtin_order(&self) -> Option<VarOrder> {
        None
    }
}

/// The built-in variable orders, by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VarOrder {
    /// Declaration order ([`InputOrder`]).
    #[default]
    Input,
    /// Smallest domain first ([`FirstFail`], MRV).
    FirstFail,
    /// Smallest domain, ties by largest degree ([`MrvDegree`]).
    MrvDegree,
    /// Smallest domain size over weighted degree ([`DomOverWdeg`]).
    DomOverWdeg,
    /// Largest aged failure count over domain size ([`AfcSize`], Gecode's
    /// default).
    AfcSize,
    /// Uniformly random, from a seed ([`RandomVar`]).
    Random(u64),
}

impl VarOrder {
    /// The short name used on command lines.
    pub fn as_str(self) -> &'static str {
        match self {
            VarOrder::Input => "input",
            VarOrder::FirstFail => "first-fail",
            VarOrder::MrvDegree => "mrv-degree",
            VarOrder::DomOverWdeg => "dom-wdeg",
            VarOrder::AfcSize => "afc-size",
            VarOrder::Random(_) => "random",
        }
    }

    /// The selector that implements this order.
    pub fn selector(self) -> AnyVariableSelector {
        match self {
            VarOrder::Input => AnyVariableSelector::Input(InputOrder),
            VarOrder::FirstFail => AnyVariableSelector::FirstFail(FirstFail),
            VarOrder::MrvDegree => AnyVariableSelector::MrvDegree(MrvDegree),
            VarOrder::DomOverWdeg => AnyVariableSelector::DomOverWdeg(DomOverWdeg),
            VarOrder::AfcSize => AnyVariableSelector::AfcSize(AfcSize),
            VarOrder::Random(seed) => AnyVariableSelector::Random(RandomVar::new(seed)),
        }
    }
}

impl fmt::Display for VarOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for VarOrder {
    type Err = UnknownName;

    /// Parses `input`, `first-fail`, `mrv-degree`, `dom-wdeg`, `afc-size`, `random`
    /// (seed 0) or `random:SEED`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "input" | "input-order" => VarOrder::Input,
            "first-fail" | "ff" | "mrv" => VarOrder::FirstFail,
            "mrv-degree" => VarOrder::MrvDegree,
            "dom-wdeg" | "domwdeg" => VarOrder::DomOverWdeg,
            "afc-size" | "afc" => VarOrder::AfcSize,
            "random" => VarOrder::Random(0),
            _ => match s.strip_prefix("random:").map(str::parse) {
                Some(Ok(seed)) => VarOrder::Random(seed),
                Some(Err(_)) => return Err(crate::pruning::bad_seed(&s["random:".len()..])),
                None => {
                    return Err(UnknownName {
                        kind: "variable order",
                        name: s.to_string(),
                        expected: "input, first-fail, mrv-degree, dom-wdeg, afc-size, random[:SEED]",
                    });
                }
            },
        })
    }
}

/// One of the built-in variable selectors, dispatched statically.
#[derive(Clone, Debug)]
pub enum AnyVariableSelector {
    /// See [`InputOrder`].
    Input(InputOrder),
    /// See [`FirstFail`].
    FirstFail(FirstFail),
    /// See [`MrvDegree`].
    MrvDegree(MrvDegree),
    /// See [`DomOverWdeg`].
    DomOverWdeg(DomOverWdeg),
    /// See [`AfcSize`].
    AfcSize(AfcSize),
    /// See [`RandomVar`].
    Random(RandomVar),
}

macro_rules! each {
    ($self:ident, $s:ident => $e:expr) => {
        match $self {
            AnyVariableSelector::Input($s) => $e,
            AnyVariableSelector::FirstFail($s) => $e,
            AnyVariableSelector::MrvDegree($s) => $e,
            AnyVariableSelector::DomOverWdeg($s) => $e,
            AnyVariableSelector::AfcSize($s) => $e,
            AnyVariableSelector::Random($s) => $e,
        }
    };
}

impl VariableSelector for AnyVariableSelector {
    #[inline]
    fn select(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        each!(self, s => s.select(view))
    }
    fn candidates(&mut self, view: &SearchView<'_>, limit: usize, out: &mut Vec<Candidate>) {
        each!(self, s => s.candidates(view, limit, out))
    }
    fn name(&self) -> &str {
        each!(self, s => s.name())
    }
    fn reads_afc(&self) -> bool {
        each!(self, s => s.reads_afc())
    }
    fn builtin_order(&self) -> Option<VarOrder> {
        each!(self, s => s.builtin_order())
    }
}

/// Helper for the heuristics' `candidates`: the undecided variables sorted by
/// `score` (then index), best `limit` first.
pub(crate) fn ranked(
    view: &SearchView<'_>,
    limit: usize,
    out: &mut Vec<Candidate>,
    mut score: impl FnMut(VarId) -> f64,
) {
    out.clear();
    out.extend(view.undecided().map(|var| Candidate {
        var,
        score: score(var),
    }));
    out.sort_by(|a, b| a.score.total_cmp(&b.score).then(a.var.cmp(&b.var)));
    out.truncate(limit);
}
