//! Where two traces of the same model part ways.

use super::{Trace, TraceEvent};

/// The first point where two searches differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// Position (among the node events: tries and their outcomes) of the first
    /// difference.
    pub index: usize,
    /// The first trace's event there (`None`: that trace had ended).
    pub a: Option<TraceEvent>,
    /// The second trace's event there.
    pub b: Option<TraceEvent>,
    /// The depth of the decision at which they part.
    pub depth: usize,
    /// Nodes the first search tried from that point until it returned above that
    /// depth.
    pub a_nodes_below: u64,
    /// The same for the second search.
    pub b_nodes_below: u64,
    /// Nodes both tried before they parted.
    pub common_nodes: u64,
    /// The first trace ends (cut by its recorder's cap) before its search
    /// returned above `depth`: `a_nodes_below` is a lower bound.
    pub a_cut: bool,
    /// The same for the second trace and `b_nodes_below`.
    pub b_cut: bool,
}

/// How two traces of the same model compare, knowing a cut trace (one that
/// reached its recorder's cap, [`Trace::is_truncated`]) from a finished search.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceComparison {
    /// Both searches finished and visited the same tree.
    Same,
    /// The searches part at a point both traces recorded.
    Parted(Divergence),
    /// The traces agree on their first `agreed` node events, and then one of
    /// them is cut: nothing can be said past event `agreed` (neither "the same
    /// tree" nor "the search had ended").
    CannotTell {
        /// Node events (tries and outcomes) both traces hold and agree on.
        agreed: usize,
        /// Whether the first trace is cut.
        a_cut: bool,
        /// Whether the second trace is cut.
        b_cut: bool,
    },
}

/// Node-level events: tries and outcomes (prunes, selections and markers left
/// out, since two strategies differ there without differing in the tree).
fn tree_events(t: &Trace) -> Vec<&TraceEvent> {
    t.events
        .iter()
        .filter(|e| {
            matches!(
                e,
                TraceEvent::Try { .. }
                    | TraceEvent::Accept { .. }
                    | TraceEvent::Reject { .. }
                    | TraceEvent::Solution { .. }
            )
        })
        .collect()
}

fn same(a: &TraceEvent, b: &TraceEvent) -> bool {
    match (a, b) {
        (TraceEvent::Reject { id: i, .. }, TraceEvent::Reject { id: j, .. }) => i == j,
        _ => a == b,
    }
}

/// Nodes tried from `from` until the search returns above `depth`, and
/// whether the events ran out first (the count is then a lower bound if the
/// trace is cut).
fn nodes_below(events: &[&TraceEvent], from: usize, depth: usize) -> (u64, bool) {
    let mut n = 0;
    for e in events.get(from..).unwrap_or_default() {
        if let TraceEvent::Try { depth: d, .. } = e {
            if *d < depth {
                return (n, false);
            }
            n += 1;
        }
    }
    (n, true)
}

/// The first difference between two traces, or `None` if their trees are the
/// same, or if a cut trace leaves it open (use [`compare_traces`] to tell the
/// two apart).
///
/// ```
/// use csp_core::{Config, Model, Pruning, Solver};
/// use csp_trace::{diff, TraceRecorder};
/// let mut m = Model::new();
/// let q = m.int_var_array("q", 4, 0..=3)?;
/// m.all_different(&q)?;
/// m.all_different_offsets(&q, &[0, 1, 2, 3])?;
/// m.all_different_offsets(&q, &[0, -1, -2, -3])?;
/// let run = |p| {
///     let mut s = Solver::with_observer(&m, Config::textbook().with_pruning(p), TraceRecorder::new(10_000))?;
///     s.first();
///     Ok::<_, csp_core::CspError>(s.into_observer().finish())
/// };
/// let d = diff(&run(Pruning::Check)?, &run(Pruning::ForwardChecking)?).unwrap();
/// assert!(d.a_nodes_below > d.b_nodes_below);
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub fn diff(a: &Trace, b: &Trace) -> Option<Divergence> {
    match compare_traces(a, b) {
        TraceComparison::Parted(d) => Some(d),
        TraceComparison::Same | TraceComparison::CannotTell { .. } => None,
    }
}

/// Compares two traces: the same tree, a divergence, or "cannot tell past
/// event K" when a cut trace ends before any difference shows. A cut trace is
/// never read as a finished search.
///
/// ```
/// use csp_core::{Config, Model, Pruning, Solver};
/// use csp_trace::{compare_traces, TraceComparison, TraceRecorder};
/// let mut m = Model::new();
/// let q = m.int_var_array("q", 4, 0..=3)?;
/// m.all_different(&q)?;
/// m.all_different_offsets(&q, &[0, 1, 2, 3])?;
/// m.all_different_offsets(&q, &[0, -1, -2, -3])?;
/// let run = |p, cap| {
///     let mut s = Solver::with_observer(&m, Config::textbook().with_pruning(p), TraceRecorder::new(cap))?;
///     s.first();
///     Ok::<_, csp_core::CspError>(s.into_observer().finish())
/// };
/// // Cut after 5 events, forward checking's trace holds only the first try.
/// let cut = compare_traces(&run(Pruning::Check, 5)?, &run(Pruning::ForwardChecking, 5)?);
/// assert!(matches!(cut, TraceComparison::CannotTell { b_cut: true, .. }), "{cut:?}");
/// let whole = compare_traces(&run(Pruning::Check, 10_000)?, &run(Pruning::ForwardChecking, 10_000)?);
/// assert!(matches!(whole, TraceComparison::Parted(ref d) if d.depth == 2 && d.common_nodes == 1));
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub fn compare_traces(a: &Trace, b: &Trace) -> TraceComparison {
    compare_cut_traces(a, a.is_truncated(), b, b.is_truncated())
}

/// [`compare_traces`] where the caller says which traces are cut: besides a
/// recorder's cap, a search stopped by a node or time limit or by Ctrl-C
/// leaves a trace that ends before its search would have.
pub fn compare_cut_traces(a: &Trace, a_cut: bool, b: &Trace, b_cut: bool) -> TraceComparison {
    let ea = tree_events(a);
    let eb = tree_events(b);
    let k = match ea.iter().zip(&eb).position(|(x, y)| !same(x, y)) {
        Some(k) => k,
        None => {
            let agreed = ea.len().min(eb.len());
            // Where the shorter trace ends, it ends because its search ended
            // only if it was not cut; equal lengths need both searches ended.
            let open = match ea.len().cmp(&eb.len()) {
                std::cmp::Ordering::Equal => a_cut || b_cut,
                std::cmp::Ordering::Less => a_cut,
                std::cmp::Ordering::Greater => b_cut,
            };
            if open {
                return TraceComparison::CannotTell {
                    agreed,
                    a_cut,
                    b_cut,
                };
            }
            if ea.len() == eb.len() {
                return TraceComparison::Same;
            }
            agreed
        }
    };
    // The node at which they part: the latest Try at or before k.
    let start = (0..=k.min(ea.len().saturating_sub(1)))
        .rev()
        .find(|&i| matches!(ea.get(i), Some(TraceEvent::Try { .. })))
        .unwrap_or(0);
    let depth = match ea.get(start).or(eb.get(start)) {
        Some(TraceEvent::Try { depth, .. }) => *depth,
        _ => 1,
    };
    let common = ea[..start.min(ea.len())]
        .iter()
        .filter(|e| matches!(e, TraceEvent::Try { .. }))
        .count() as u64;
    let (a_nodes_below, a_open) = nodes_below(&ea, start, depth);
    let (b_nodes_below, b_open) = nodes_below(&eb, start, depth);
    TraceComparison::Parted(Divergence {
        index: k,
        a: ea.get(k).map(|e| (*e).clone()),
        b: eb.get(k).map(|e| (*e).clone()),
        depth,
        a_nodes_below,
        b_nodes_below,
        common_nodes: common,
        a_cut: a_open && a_cut,
        b_cut: b_open && b_cut,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Relation;

    fn tried(id: u64, depth: usize, value: csp_core::Value) -> TraceEvent {
        TraceEvent::Try {
            id,
            parent: 0,
            depth,
            var: depth - 1,
            value,
            relation: Relation::Equal,
        }
    }

    fn trace(events: Vec<TraceEvent>, cut: bool) -> Trace {
        let mut events = events;
        if cut {
            events.push(TraceEvent::Truncated { cap: 3 });
        }
        Trace { events }
    }

    #[test]
    fn a_cut_trace_is_not_an_ended_search() {
        let long = trace(vec![tried(1, 1, 0), tried(2, 2, 0), tried(3, 2, 1)], false);
        let short_cut = trace(vec![tried(1, 1, 0)], true);
        assert_eq!(
            compare_traces(&long, &short_cut),
            TraceComparison::CannotTell {
                agreed: 1,
                a_cut: false,
                b_cut: true
            }
        );
        assert_eq!(diff(&long, &short_cut), None);
        // The same short trace, finished: the second search really ended.
        let short_done = trace(vec![tried(1, 1, 0)], false);
        let TraceComparison::Parted(d) = compare_traces(&long, &short_done) else {
            panic!("a finished search that stops early is a divergence")
        };
        assert_eq!(
            (d.index, d.b.clone(), d.a_cut, d.b_cut),
            (1, None, false, false)
        );
    }

    #[test]
    fn equal_cut_traces_are_not_the_same_tree() {
        let a = trace(vec![tried(1, 1, 0)], true);
        assert!(matches!(
            compare_traces(&a, &a.clone()),
            TraceComparison::CannotTell { agreed: 1, .. }
        ));
        let done = trace(vec![tried(1, 1, 0)], false);
        assert_eq!(compare_traces(&done, &done.clone()), TraceComparison::Same);
    }

    #[test]
    fn counts_below_a_cut_are_lower_bounds() {
        let a = trace(vec![tried(1, 1, 0), tried(2, 2, 0)], true);
        let b = trace(vec![tried(1, 1, 0), tried(2, 2, 1), tried(3, 1, 1)], false);
        let TraceComparison::Parted(d) = compare_traces(&a, &b) else {
            panic!("they differ at the second try")
        };
        assert_eq!((d.a_nodes_below, d.a_cut), (1, true));
        assert_eq!((d.b_nodes_below, d.b_cut), (1, false));
    }
}
