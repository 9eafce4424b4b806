//! Régin's matching filter for all-different, without allocation per call.
//!
//! The bipartite graph (variables, values), a maximum matching (greedy start,
//! then Kuhn's augmenting paths), the alternating graph's strongly connected
//! components (Tarjan) and the values reachable from free values: the edges in
//! no maximum matching are the values to remove. Every buffer lives in a
//! per-thread scratch reused from call to call (but for the map that numbers
//! values too far apart for a table).

use std::cell::RefCell;
use std::collections::HashMap;

use crate::{Domains, VarId};

const NONE: u32 = u32::MAX;

/// Value ranges up to this many values index their nodes directly.
const DENSE_LIMIT: i128 = 1 << 16;

/// The buffers of one matching call.
#[derive(Default)]
struct Scratch {
    /// The distinct shifted values, by value node.
    values: Vec<i128>,
    /// Dense indexing: node of `value - base`, or `NONE`.
    slot: Vec<u32>,
    /// Adjacency in CSR form: variable `x`'s value nodes are
    /// `adj[start[x]..start[x + 1]]`.
    start: Vec<u32>,
    adj: Vec<u32>,
    var_of: Vec<u32>,
    val_of: Vec<u32>,
    /// Per value node: the augmentation round that last visited it.
    seen: Vec<u32>,
    stack: Vec<(u32, u32)>,
    path: Vec<u32>,
    /// Reverse adjacency (value -> variables having it unmatched), CSR.
    rev_start: Vec<u32>,
    rev: Vec<u32>,
    fill: Vec<u32>,
    reach: Vec<bool>,
    todo: Vec<u32>,
    index: Vec<u32>,
    low: Vec<u32>,
    comp: Vec<u32>,
    on_stack: Vec<bool>,
    tstack: Vec<u32>,
    call: Vec<(u32, u32)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The memory the filter's graph takes for `vars` variables whose domains
/// hold `edges` values in all, `values` of them distinct (at most), about:
/// per edge the adjacency and the reverse adjacency (4 + 4 bytes), per
/// node 48 bytes of bookkeeping (the value itself, the matching, the
/// components). The list of removals it returns is bounded apart (see
/// [`unsupported`]'s `room`).
pub(crate) fn bytes_needed(vars: usize, edges: usize, values: usize) -> usize {
    edges
        .saturating_mul(8)
        .saturating_add(vars.saturating_add(values.min(edges)).saturating_mul(48))
}

/// What the matching filter found.
pub(crate) enum Matching {
    /// The values to remove, as (position, shifted value), listed in `out`.
    Removals,
    /// No matching covers every variable.
    Infeasible,
    /// The search is stopping; nothing was concluded.
    Interrupted,
    /// More than `room` values were to be removed: nothing was concluded
    /// (the list of removals would not fit in the memory limit).
    OverBudget,
}

/// The (position, shifted value) pairs of `vars` (value of position `i` shifted
/// by `shift(i, v)`) that belong to no maximum matching, pushed to `out`, at
/// most `room` of them. `stop` is asked at every step: per variable while
/// the graph is built, per step of an augmenting path, per Tarjan root.
pub(crate) fn unsupported(
    vars: &[VarId],
    d: &Domains,
    shift: &dyn Fn(usize, i64) -> i128,
    stop: &mut dyn FnMut() -> bool,
    room: usize,
    out: &mut Vec<(usize, i128)>,
) -> Matching {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => s.run(vars, d, shift, stop, room, out),
        // Re-entered (a constraint filtering inside another's call): fresh buffers.
        Err(_) => Scratch::default().run(vars, d, shift, stop, room, out),
    })
}

/// Entries a large buffer is zeroed by between two questions to `stop`
/// (a tenth of a millisecond or so: the engine reads its clock and its
/// cancel flag once every 64 questions).
const ZERO_CHUNK: usize = 1 << 16;

impl Scratch {
    fn run(
        &mut self,
        vars: &[VarId],
        d: &Domains,
        shift: &dyn Fn(usize, i64) -> i128,
        stop: &mut dyn FnMut() -> bool,
        room: usize,
        out: &mut Vec<(usize, i128)>,
    ) -> Matching {
        let n = vars.len();
        if !self.build(vars, d, shift, stop) {
            return Matching::Interrupted;
        }
        let m = self.values.len();
        if m < n {
            return Matching::Infeasible;
        }
        // A greedy matching first, then augmenting paths for the rest.
        self.var_of.clear();
        self.var_of.resize(m, NONE);
        self.val_of.clear();
        self.val_of.resize(n, NONE);
        for x in 0..n {
            if stop() {
                return Matching::Interrupted;
            }
            let (a, b) = (self.start[x] as usize, self.start[x + 1] as usize);
            if let Some(&v) = self.adj[a..b]
                .iter()
                .find(|&&v| self.var_of[v as usize] == NONE)
            {
                self.var_of[v as usize] = x as u32;
                self.val_of[x] = v;
            }
        }
        self.seen.clear();
        self.seen.resize(m, 0);
        for x in 0..n {
            if stop() {
                return Matching::Interrupted;
            }
            if self.val_of[x] == NONE {
                match self.augment(x, x as u32 + 1, stop) {
                    Some(true) => {}
                    Some(false) => return Matching::Infeasible,
                    None => return Matching::Interrupted,
                }
            }
        }
        // Alternating graph: node x (variable) and n + v (value); matched
        // edges go variable -> value, the others value -> variable. Nodes
        // reachable from a free value lie on even alternating paths.
        let nodes = n + m;
        self.reach.clear();
        self.reach.resize(nodes, false);
        self.todo.clear();
        for v in 0..m {
            if self.var_of[v] == NONE {
                self.reach[n + v] = true;
                self.todo.push((n + v) as u32);
            }
        }
        if !self.reverse(n, m, stop) || !self.reach_from_free(n, stop) {
            return Matching::Interrupted;
        }
        if !self.tarjan(n, m, stop) {
            return Matching::Interrupted;
        }
        for x in 0..n {
            if stop() {
                return Matching::Interrupted;
            }
            let (a, b) = (self.start[x] as usize, self.start[x + 1] as usize);
            for &v in &self.adj[a..b] {
                let v = v as usize;
                let keep = self.val_of[x] as usize == v
                    || self.reach[n + v]
                    || self.comp[x] == self.comp[n + v];
                if !keep {
                    if out.len() >= room {
                        out.clear();
                        return Matching::OverBudget;
                    }
                    out.push((x, self.values[v]));
                }
            }
        }
        Matching::Removals
    }

    /// The value nodes and the CSR adjacency; `false` if `stop` said so
    /// (asked once per variable).
    fn build(
        &mut self,
        vars: &[VarId],
        d: &Domains,
        shift: &dyn Fn(usize, i64) -> i128,
        stop: &mut dyn FnMut() -> bool,
    ) -> bool {
        let n = vars.len();
        let (mut lo, mut hi) = (i128::MAX, i128::MIN);
        for (i, &x) in vars.iter().enumerate() {
            let (a, b) = (shift(i, d.min(x)), shift(i, d.max(x)));
            lo = lo.min(a.min(b));
            hi = hi.max(a.max(b));
        }
        self.values.clear();
        self.start.clear();
        self.adj.clear();
        let dense = hi >= lo && hi - lo < DENSE_LIMIT;
        if dense {
            self.slot.clear();
            self.slot.resize((hi - lo + 1) as usize, NONE);
            for (i, &x) in vars.iter().enumerate() {
                if stop() {
                    return false;
                }
                self.start.push(self.adj.len() as u32);
                for v in d.values(x) {
                    let s = shift(i, v);
                    let k = (s - lo) as usize;
                    if self.slot[k] == NONE {
                        self.slot[k] = self.values.len() as u32;
                        self.values.push(s);
                    }
                    self.adj.push(self.slot[k]);
                }
            }
        } else {
            // Values numbered as they come (no sort: one long step that
            // could not ask `stop`).
            let mut node_of: HashMap<i128, u32> = HashMap::new();
            for (i, &x) in vars.iter().enumerate() {
                if stop() {
                    return false;
                }
                self.start.push(self.adj.len() as u32);
                for v in d.values(x) {
                    let s = shift(i, v);
                    let k = *node_of.entry(s).or_insert_with(|| {
                        self.values.push(s);
                        (self.values.len() - 1) as u32
                    });
                    self.adj.push(k);
                }
            }
        }
        self.start.push(self.adj.len() as u32);
        debug_assert_eq!(self.start.len(), n + 1);
        true
    }

    /// An augmenting path from free variable `x` (Kuhn), visiting each value
    /// at most once in this round; `None` if `stop` said so (asked at each step).
    fn augment(&mut self, x: usize, round: u32, stop: &mut dyn FnMut() -> bool) -> Option<bool> {
        self.stack.clear();
        self.path.clear();
        self.stack.push((x as u32, self.start[x]));
        while let Some(&(u, e)) = self.stack.last() {
            if stop() {
                return None;
            }
            let end = self.start[u as usize + 1];
            if e == end {
                self.stack.pop();
                self.path.pop();
                continue;
            }
            if let Some(top) = self.stack.last_mut() {
                top.1 += 1;
            }
            let v = self.adj[e as usize] as usize;
            if self.seen[v] == round {
                continue;
            }
            self.seen[v] = round;
            self.path.push(v as u32);
            if self.var_of[v] == NONE {
                // Flip the path.
                for (level, &(u, _)) in self.stack.iter().enumerate() {
                    let v = self.path[level] as usize;
                    self.var_of[v] = u;
                    self.val_of[u as usize] = v as u32;
                }
                return Some(true);
            }
            let w = self.var_of[v];
            self.stack.push((w, self.start[w as usize]));
        }
        Some(false)
    }

    /// The reverse adjacency: for each value, the variables having it as an
    /// unmatched value (the alternating graph's value -> variable edges);
    /// `false` if `stop` said so (asked per variable).
    fn reverse(&mut self, n: usize, m: usize, stop: &mut dyn FnMut() -> bool) -> bool {
        self.rev_start.clear();
        self.rev_start.resize(m + 1, 0);
        for x in 0..n {
            if stop() {
                return false;
            }
            let (a, b) = (self.start[x] as usize, self.start[x + 1] as usize);
            for &v in &self.adj[a..b] {
                if self.val_of[x] != v {
                    self.rev_start[v as usize + 1] += 1;
                }
            }
        }
        for v in 0..m {
            self.rev_start[v + 1] += self.rev_start[v];
        }
        self.fill.clear();
        self.fill.extend_from_slice(&self.rev_start);
        // Up to one entry per edge (10^8 for 10,000 queens): allocated at
        // once (no copy as it grows), zeroed a chunk at a time, asking
        // between two.
        self.rev.clear();
        let len = self.rev_start[m] as usize;
        self.rev.reserve(len);
        while self.rev.len() < len {
            if stop() {
                return false;
            }
            let next = len.min(self.rev.len() + ZERO_CHUNK);
            self.rev.resize(next, 0);
        }
        for x in 0..n {
            if stop() {
                return false;
            }
            let (a, b) = (self.start[x] as usize, self.start[x + 1] as usize);
            for &v in &self.adj[a..b] {
                if self.val_of[x] != v {
                    let slot = &mut self.fill[v as usize];
                    self.rev[*slot as usize] = x as u32;
                    *slot += 1;
                }
            }
        }
        true
    }

    /// Marks what even alternating paths from the free values (in `todo`)
    /// reach: from a value, the variables having it unmatched; from a
    /// variable, its matched value. `false` if `stop` said so (asked per value).
    fn reach_from_free(&mut self, n: usize, stop: &mut dyn FnMut() -> bool) -> bool {
        while let Some(u) = self.todo.pop() {
            if stop() {
                return false;
            }
            let v = u as usize - n;
            let (a, b) = (self.rev_start[v] as usize, self.rev_start[v + 1] as usize);
            for k in a..b {
                let x = self.rev[k] as usize;
                if !self.reach[x] {
                    self.reach[x] = true;
                    let mv = n + self.val_of[x] as usize;
                    if !self.reach[mv] {
                        self.reach[mv] = true;
                        self.todo.push(mv as u32);
                    }
                }
            }
        }
        true
    }

    /// Strongly connected components of the alternating graph (iterative
    /// Tarjan) into `comp`; `false` if `stop` said so (asked per root).
    fn tarjan(&mut self, n: usize, m: usize, stop: &mut dyn FnMut() -> bool) -> bool {
        let nodes = n + m;
        self.index.clear();
        self.index.resize(nodes, NONE);
        self.low.clear();
        self.low.resize(nodes, 0);
        self.comp.clear();
        self.comp.resize(nodes, NONE);
        self.on_stack.clear();
        self.on_stack.resize(nodes, false);
        self.tstack.clear();
        self.call.clear();
        // Successors of node u, as (list, index).
        let succ = |s: &Scratch, u: usize, k: usize| -> Option<usize> {
            if u < n {
                // A variable's one successor: its matched value.
                (k == 0).then(|| n + s.val_of[u] as usize)
            } else {
                let v = u - n;
                let (a, b) = (s.rev_start[v] as usize, s.rev_start[v + 1] as usize);
                (a + k < b).then(|| s.rev[a + k] as usize)
            }
        };
        let mut counter = 0;
        let mut comps = 0;
        for root in 0..nodes {
            if self.index[root] != NONE {
                continue;
            }
            if stop() {
                return false;
            }
            self.call.push((root as u32, 0));
            self.index[root] = counter;
            self.low[root] = counter;
            counter += 1;
            self.tstack.push(root as u32);
            self.on_stack[root] = true;
            while let Some(&(u, k)) = self.call.last() {
                let u = u as usize;
                if let Some(w) = succ(self, u, k as usize) {
                    if let Some(top) = self.call.last_mut() {
                        top.1 += 1;
                    }
                    if self.index[w] == NONE {
                        self.index[w] = counter;
                        self.low[w] = counter;
                        counter += 1;
                        self.tstack.push(w as u32);
                        self.on_stack[w] = true;
                        self.call.push((w as u32, 0));
                    } else if self.on_stack[w] {
                        self.low[u] = self.low[u].min(self.index[w]);
                    }
                } else {
                    self.call.pop();
                    if let Some(&(p, _)) = self.call.last() {
                        let p = p as usize;
                        self.low[p] = self.low[p].min(self.low[u]);
                    }
                    if self.low[u] == self.index[u] {
                        while let Some(w) = self.tstack.pop() {
                            self.on_stack[w as usize] = false;
                            self.comp[w as usize] = comps;
                            if w as usize == u {
                                break;
                            }
                        }
                        comps += 1;
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Value;

    #[test]
    fn every_step_of_the_matching_filter_asks_whether_to_stop() {
        // 12 variables over 0..=14: a full run asks `stop` at many steps
        // (per variable while building, per step of each augmenting path,
        // per Tarjan root); stopping at any one of them ends the call with
        // `Interrupted` and nothing concluded.
        let n = 12;
        let d = Domains::new((0..n).map(|_| (0, 14, None)));
        let vars: Vec<VarId> = (0..n).map(VarId::new).collect();
        let shift = |_: usize, v: Value| i128::from(v);
        let mut calls = 0;
        let mut out = Vec::new();
        let full = unsupported(
            &vars,
            &d,
            &shift,
            &mut || {
                calls += 1;
                false
            },
            usize::MAX,
            &mut out,
        );
        assert!(matches!(full, Matching::Removals));
        assert!(out.is_empty());
        assert!(calls > 2 * n, "only {calls} polls");
        for k in 1..=calls {
            let mut seen = 0;
            let mut out = Vec::new();
            let r = unsupported(
                &vars,
                &d,
                &shift,
                &mut || {
                    seen += 1;
                    seen == k
                },
                usize::MAX,
                &mut out,
            );
            assert!(matches!(r, Matching::Interrupted), "stop at poll {k}");
            assert!(out.is_empty());
        }
    }

    #[test]
    fn a_hall_set_and_a_pigeonhole_are_found() {
        let d = Domains::new([(1, 2, None), (1, 2, None), (1, 3, None)].into_iter());
        let vars: Vec<VarId> = (0..3).map(VarId::new).collect();
        let shift = |_: usize, v: Value| i128::from(v);
        let mut out = Vec::new();
        let r = unsupported(&vars, &d, &shift, &mut || false, usize::MAX, &mut out);
        assert!(matches!(r, Matching::Removals));
        out.sort();
        assert_eq!(out, [(2, 1), (2, 2)]);
        let d = Domains::new((0..3).map(|_| (0, 1, None)));
        let r = unsupported(
            &vars,
            &d,
            &shift,
            &mut || false,
            usize::MAX,
            &mut Vec::new(),
        );
        assert!(matches!(r, Matching::Infeasible));
    }

    #[test]
    fn the_removals_stay_within_their_room() {
        // x2's values 1 and 2 go (a Hall set {x0, x1} over {1, 2}): two
        // removals fit in a room of two, not in a room of one.
        let d = Domains::new([(1, 2, None), (1, 2, None), (1, 3, None)].into_iter());
        let vars: Vec<VarId> = (0..3).map(VarId::new).collect();
        let shift = |_: usize, v: Value| i128::from(v);
        let mut out = Vec::new();
        let r = unsupported(&vars, &d, &shift, &mut || false, 2, &mut out);
        assert!(matches!(r, Matching::Removals));
        assert_eq!(out.len(), 2);
        let mut out = Vec::new();
        let r = unsupported(&vars, &d, &shift, &mut || false, 1, &mut out);
        assert!(matches!(r, Matching::OverBudget));
        assert!(out.is_empty());
    }

    #[test]
    fn sparse_values_give_the_same_removals_as_dense_ones() {
        // The same graph with values 1, 2, 3 spread 2^40 apart (numbered
        // by a map, not a table): the same removals, the same stops.
        let d = Domains::new([(1, 2, None), (1, 2, None), (1, 3, None)].into_iter());
        let vars: Vec<VarId> = (0..3).map(VarId::new).collect();
        let spread = |_: usize, v: Value| i128::from(v) << 40;
        let mut out = Vec::new();
        let r = unsupported(&vars, &d, &spread, &mut || false, usize::MAX, &mut out);
        assert!(matches!(r, Matching::Removals));
        out.sort();
        assert_eq!(out, [(2, 1 << 40), (2, 2 << 40)]);
        let r = unsupported(
            &vars,
            &d,
            &spread,
            &mut || true,
            usize::MAX,
            &mut Vec::new(),
        );
        assert!(matches!(r, Matching::Interrupted));
    }
}
