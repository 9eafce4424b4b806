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

fn nodes_below(events: &[&TraceEvent], from: usize, depth: usize) -> u64 {
    let mut n = 0;
    for e in &events[from..] {
        if let TraceEvent::Try { depth: d, .. } = e {
            if *d < depth {
                break;
            }
            n += 1;
        }
    }
    n
}

/// The first difference between two traces, or `None` if their trees are the same.
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
///     let mut s = Solver::with_observer(&m, Config::default().with_pruning(p), TraceRecorder::new(10_000))?;
///     s.first();
///     Ok::<_, csp_core::CspError>(s.into_observer().finish())
/// };
/// let d = diff(&run(Pruning::Check)?, &run(Pruning::ForwardChecking)?).unwrap();
/// assert!(d.a_nodes_below > d.b_nodes_below);
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub fn diff(a: &Trace, b: &Trace) -> Option<Divergence> {
    let ea = tree_events(a);
    let eb = tree_events(b);
    let k = ea.iter().zip(&eb).position(|(x, y)| !same(x, y));
    let k = match k {
        Some(k) => k,
        None if ea.len() == eb.len() => return None,
        None => ea.len().min(eb.len()),
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
    let common = ea[..start]
        .iter()
        .filter(|e| matches!(e, TraceEvent::Try { .. }))
        .count() as u64;
    Some(Divergence {
        index: k,
        a: ea.get(k).map(|e| (*e).clone()),
        b: eb.get(k).map(|e| (*e).clone()),
        depth,
        a_nodes_below: nodes_below(&ea, start, depth),
        b_nodes_below: nodes_below(&eb, start, depth),
        common_nodes: common,
    })
}
