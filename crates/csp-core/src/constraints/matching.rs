//! Régin's matching filter for all-different, without allocation per call.
//!
//! The bipartite graph (variables, values), a maximum matching (the matching
//! of the constraint's previous call where it still holds, a greedy start for
//! the other variables, then Kuhn's augmenting paths), and the strongly
//! connected components of the alternating graph (Tarjan), with for each
//! component whether a free value reaches it: the edges in no maximum matching
//! are the values to remove. Every buffer lives in a per-thread scratch reused
//! from call to call (but for the map that numbers values too far apart for a
//! table), and so does the last matching of each constraint.
//!
//! A variable's values are listed as runs: three or more consecutive value
//! nodes take two words, so a domain that is an interval takes two words
//! whatever its size (10,000 queens at the root: 80 KB, not 400 MB), and no
//! domain takes more than one word per value.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::{Domains, VarId};

const NONE: u32 = u32::MAX;

/// A shifted value no variable has: all-different's shifted values
/// `v + o` (two `i64`) lie within `±2^64`. Marks a position without a hint.
const NO_VALUE: i128 = i128::MIN;

/// Value ranges up to this many values index their nodes directly.
const DENSE_LIMIT: i128 = 1 << 16;

/// The constraints whose last matching a thread keeps, and the positions it
/// keeps in all: past either, the kept matchings are dropped, all at once.
const MAX_HINTS: usize = 1 << 12;
const MAX_HINTED: usize = 1 << 20;

/// The buffers of one matching call.
#[derive(Default)]
struct Scratch {
    /// The distinct shifted values, by value node (sparse numbering only).
    values: Vec<i128>,
    /// Dense numbering: value node `k` is the shifted value `base + k`.
    dense: bool,
    base: i128,
    /// Dense numbering: whether some domain has value node `k`.
    present: Vec<bool>,
    /// The number of value nodes some domain has.
    distinct: usize,
    /// Whether the adjacency lists runs (else a word per node).
    runs: bool,
    /// Adjacency in CSR form: variable `x`'s value nodes are listed by
    /// `adj[start[x]..start[x + 1]]`, in increasing order of value, a word
    /// per node but for a run of three or more consecutive nodes `a..=b`,
    /// which takes two: `a | RUN`, then `b`.
    start: Vec<u32>,
    adj: Vec<u32>,
    /// Per variable: the node of its hinted value if its domain has it, or `NONE`.
    hint_node: Vec<u32>,
    var_of: Vec<u32>,
    val_of: Vec<u32>,
    /// Per value node: the augmentation round that last visited it.
    seen: Vec<u32>,
    stack: Vec<(u32, Cursor)>,
    path: Vec<u32>,
    /// Tarjan's bookkeeping, per node of the alternating graph.
    node: Vec<Node>,
    /// Per component: whether it reaches a free value.
    comp_to_free: Vec<bool>,
    tstack: Vec<u32>,
    call: Vec<(u32, Cursor)>,
    /// The last matching found for each constraint (by its key): the shifted
    /// value of each position, `NO_VALUE` for a position left unmatched.
    hints: HashMap<usize, Vec<i128>, BuildHasherDefault<KeyHasher>>,
    /// The positions kept in `hints`, in all.
    hinted: usize,
}

/// Marks the first word of a run of value nodes in the adjacency.
const RUN: u32 = 1 << 31;

/// The number of edges from which the adjacency lists runs: a smaller graph
/// takes little memory anyway, and a word per node reads a little faster.
const RUNS_FROM: usize = 1 << 16;

#[cfg(not(test))]
#[inline(always)]
fn runs_from() -> usize {
    RUNS_FROM
}

#[cfg(test)]
thread_local! {
    /// The tests' [`RUNS_FROM`] (0: runs in every graph).
    static TEST_RUNS_FROM: std::cell::Cell<usize> = const { std::cell::Cell::new(RUNS_FROM) };
}

#[cfg(test)]
fn runs_from() -> usize {
    TEST_RUNS_FROM.with(|c| c.get())
}

/// A place in a variable's list of value nodes: the next word of the
/// adjacency, and the rest of the run being walked (`next..=last`, empty
/// when `next > last`).
#[derive(Clone, Copy, Debug)]
struct Cursor {
    k: u32,
    next: u32,
    last: u32,
}

impl Cursor {
    /// Before the first value node of the list starting at word `k`.
    #[inline(always)]
    fn at(k: u32) -> Cursor {
        Cursor {
            k,
            next: 1,
            last: 0,
        }
    }
}

/// Tarjan's bookkeeping of one node.
#[derive(Clone, Copy)]
struct Node {
    index: u32,
    low: u32,
    comp: u32,
    on_stack: bool,
    /// Whether one of its edges leads to a finished component that reaches
    /// a free value (or the node is a free value).
    to_free: bool,
}

const UNVISITED: Node = Node {
    index: NONE,
    low: 0,
    comp: NONE,
    on_stack: false,
    to_free: false,
};

/// Hashes a key (an address) by one multiplication: the keys are few and
/// chosen by no adversary.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b) ^ self.0.rotate_left(8));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The memory the filter's graph takes, at most, for `vars` variables whose
/// domains hold `edges` values in all, `span` apart from the smallest
/// (shifted) value to the largest, with `words` the sum of [`words_needed`]
/// over the domains: 4 bytes per word of the adjacency, 48 bytes per node
/// (variable or value) for the value itself, the matching and the
/// components. A span below `DENSE_LIMIT` numbers the values in order (a
/// node per value of the span, `words` words); a wider one numbers them as
/// they come (a node and a word per edge, at most). The list of removals it
/// returns is bounded apart (see [`unsupported`]'s `room`); the matchings
/// kept between calls (16 bytes per position) are not counted, bounded by
/// `MAX_HINTED`.
pub(crate) fn bytes_needed(vars: usize, words: usize, edges: usize, span: usize) -> usize {
    let (words, values) = if (span as i128) < DENSE_LIMIT {
        (words, span)
    } else {
        (edges, span.min(edges))
    };
    words
        .saturating_mul(4)
        .saturating_add(vars.saturating_add(values).saturating_mul(48))
}

/// The adjacency's words for a domain of `len` values from `min` to `max`,
/// at most: two for an interval of three or more values (one run), else one
/// per value.
pub(crate) fn words_needed(len: usize, min: i64, max: i64) -> usize {
    let interval = i128::from(max) - i128::from(min) + 1 == len as i128;
    if interval && len >= 3 { 2 } else { len }
}

/// What the matching filter found.
#[derive(Debug, PartialEq, Eq)]
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
/// by `shift(i, v)`, never `i128::MIN`) that belong to no maximum matching,
/// pushed to `out`, at most `room` of them. `stop` is asked at every step: per
/// variable while the graph is built and the matching started, per step of an
/// augmenting path, per Tarjan root and every 4,096 steps of its walk (in a
/// graph of `RUNS_FROM` edges or more), per variable while the removals are
/// listed.
///
/// `key` names the constraint: the last matching found that covers every
/// variable is kept (per thread) under it, and the next call with the same
/// key starts from it. A kept pair
/// (position, value) is used only if the value is still in the position's
/// domain and no position before it took the value, so a stale or foreign
/// matching costs time, never a wrong answer: the removals are the same
/// whatever the matching (the edges in no maximum matching).
pub(crate) fn unsupported(
    key: usize,
    vars: &[VarId],
    d: &Domains,
    shift: &dyn Fn(usize, i64) -> i128,
    stop: &mut dyn FnMut() -> bool,
    room: usize,
    out: &mut Vec<(usize, i128)>,
) -> Matching {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => s.run(Some(key), vars, d, shift, stop, room, out),
        // Re-entered (a constraint filtering inside another's call): fresh
        // buffers, no kept matching.
        Err(_) => Scratch::default().run(None, vars, d, shift, stop, room, out),
    })
}

impl Scratch {
    /// The value node at cursor `c` in a list ending at word `end`, and `c`
    /// moved past it; `None` at the end of the list.
    #[inline(always)]
    fn step<const R: bool>(&self, end: u32, c: &mut Cursor) -> Option<u32> {
        if R && c.next <= c.last {
            let v = c.next;
            c.next += 1;
            return Some(v);
        }
        if c.k >= end {
            return None;
        }
        let w = self.adj[c.k as usize];
        if R && w & RUN != 0 {
            let a = w & !RUN;
            c.next = a + 1;
            c.last = self.adj[c.k as usize + 1];
            c.k += 2;
            Some(a)
        } else {
            c.k += 1;
            Some(w)
        }
    }

    /// Variable `x`'s value nodes, in increasing order of value.
    #[inline]
    fn nodes<const R: bool>(&self, x: usize) -> impl Iterator<Item = u32> + '_ {
        let end = self.start[x + 1];
        let mut c = Cursor::at(self.start[x]);
        std::iter::from_fn(move || self.step::<R>(end, &mut c))
    }

    /// The shifted value of value node `v`.
    #[inline]
    fn value(&self, v: u32) -> i128 {
        if self.dense {
            self.base + i128::from(v)
        } else {
            self.values[v as usize]
        }
    }

    /// The number of value nodes (with, in the dense numbering, the values
    /// no domain has).
    fn value_nodes(&self) -> usize {
        if self.dense {
            self.present.len()
        } else {
            self.values.len()
        }
    }

    /// Appends value node `v` to the adjacency of the variable being built;
    /// if the adjacency lists runs, `tail` counts the consecutive nodes just
    /// before it (0 at the start of a list): a third consecutive node turns
    /// the last two into a run, a node after a run's end extends it.
    #[inline(always)]
    fn push_node(&mut self, tail: &mut u32, v: u32) {
        if !self.runs {
            self.adj.push(v);
            return;
        }
        let len = self.adj.len();
        if *tail > 0 && self.adj[len - 1].wrapping_add(1) == v {
            *tail += 1;
            if *tail == 3 {
                self.adj[len - 2] |= RUN;
                self.adj[len - 1] = v;
                return;
            }
            if *tail > 3 {
                self.adj[len - 1] = v;
                return;
            }
        } else {
            *tail = 1;
        }
        self.adj.push(v);
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        key: Option<usize>,
        vars: &[VarId],
        d: &Domains,
        shift: &dyn Fn(usize, i64) -> i128,
        stop: &mut dyn FnMut() -> bool,
        room: usize,
        out: &mut Vec<(usize, i128)>,
    ) -> Matching {
        let n = vars.len();
        // The kept matching, taken out of the map for the call (one of
        // another length is not this constraint's: ignored).
        let mut hint = match key {
            Some(key) => self.hints.remove(&key).unwrap_or_default(),
            None => Vec::new(),
        };
        self.hinted -= hint.len();
        if hint.len() != n {
            hint.clear();
        }
        if !self.build(vars, d, shift, &hint, stop) {
            self.keep(key, hint);
            return Matching::Interrupted;
        }
        if self.runs {
            self.solve::<true>(key, hint, stop, room, out)
        } else {
            self.solve::<false>(key, hint, stop, room, out)
        }
    }

    /// [`run`](Self::run) once the graph is built: the matching (kept under
    /// `key`), the components, the removals; `R` says whether the adjacency
    /// lists runs.
    fn solve<const R: bool>(
        &mut self,
        key: Option<usize>,
        mut hint: Vec<i128>,
        stop: &mut dyn FnMut() -> bool,
        room: usize,
        out: &mut Vec<(usize, i128)>,
    ) -> Matching {
        let n = self.hint_node.len();
        let matched = self.match_all::<R>(stop);
        // A whole matching is kept for the next call (else the one before).
        if matched == Some(true) {
            hint.clear();
            hint.extend(self.val_of.iter().map(|&v| match v {
                NONE => NO_VALUE,
                v => self.value(v),
            }));
        }
        self.keep(key, hint);
        match matched {
            Some(true) => {}
            Some(false) => return Matching::Infeasible,
            None => return Matching::Interrupted,
        }
        let m = self.value_nodes();
        if !self.tarjan::<R>(n, m, stop) {
            return Matching::Interrupted;
        }
        self.list::<R>(n, stop, room, out)
    }

    /// The edges in no maximum matching, once the components are known:
    /// pushed to `out`, at most `room` of them (asking `stop` per variable).
    #[inline(never)]
    fn list<const R: bool>(
        &mut self,
        n: usize,
        stop: &mut dyn FnMut() -> bool,
        room: usize,
        out: &mut Vec<(usize, i128)>,
    ) -> Matching {
        for x in 0..n {
            if stop() {
                return Matching::Interrupted;
            }
            let end = self.start[x + 1];
            let mut cur = Cursor::at(self.start[x]);
            while let Some(v) = self.step::<R>(end, &mut cur) {
                let c = self.node[n + v as usize].comp;
                let keep =
                    self.val_of[x] == v || self.comp_to_free[c as usize] || self.node[x].comp == c;
                if !keep {
                    if out.len() >= room {
                        out.clear();
                        return Matching::OverBudget;
                    }
                    out.push((x, self.value(v)));
                }
            }
        }
        Matching::Removals
    }

    /// Puts `hint` back under `key`, dropping every kept matching first if
    /// the thread keeps too many.
    fn keep(&mut self, key: Option<usize>, hint: Vec<i128>) {
        let Some(key) = key else { return };
        if hint.is_empty() {
            return;
        }
        if self.hints.len() >= MAX_HINTS || self.hinted + hint.len() > MAX_HINTED {
            self.hints.clear();
            self.hinted = 0;
            if hint.len() > MAX_HINTED {
                return;
            }
        }
        self.hinted += hint.len();
        self.hints.insert(key, hint);
    }

    /// A matching of every variable: `Some(true)` if found, `Some(false)` if
    /// there is none, `None` if `stop` said so. The hinted pairs first (a
    /// value taken once), a greedy pass for the other variables, then
    /// augmenting paths.
    #[inline(never)]
    fn match_all<const R: bool>(&mut self, stop: &mut dyn FnMut() -> bool) -> Option<bool> {
        let n = self.hint_node.len();
        let m = self.value_nodes();
        self.var_of.clear();
        self.var_of.resize(m, NONE);
        self.val_of.clear();
        self.val_of.resize(n, NONE);
        if self.distinct < n {
            return Some(false);
        }
        for x in 0..n {
            if stop() {
                return None;
            }
            let v = self.hint_node[x];
            if v != NONE && self.var_of[v as usize] == NONE {
                self.var_of[v as usize] = x as u32;
                self.val_of[x] = v;
            }
        }
        for x in 0..n {
            if self.val_of[x] != NONE {
                continue;
            }
            if stop() {
                return None;
            }
            let free = self
                .nodes::<R>(x)
                .find(|&v| self.var_of[v as usize] == NONE);
            if let Some(v) = free {
                self.var_of[v as usize] = x as u32;
                self.val_of[x] = v;
            }
        }
        self.seen.clear();
        self.seen.resize(m, 0);
        for x in 0..n {
            if self.val_of[x] != NONE {
                continue;
            }
            if stop() {
                return None;
            }
            if !self.augment::<R>(x, x as u32 + 1, stop)? {
                return Some(false);
            }
        }
        Some(true)
    }

    /// The value nodes, the CSR adjacency, and the node of each variable's
    /// hinted value (`hint[x]`, if `hint` is not empty) when its domain has
    /// it; `false` if `stop` said so (asked once per variable).
    #[inline(never)]
    fn build(
        &mut self,
        vars: &[VarId],
        d: &Domains,
        shift: &dyn Fn(usize, i64) -> i128,
        hint: &[i128],
        stop: &mut dyn FnMut() -> bool,
    ) -> bool {
        let n = vars.len();
        let (mut lo, mut hi, mut edges) = (i128::MAX, i128::MIN, 0usize);
        for (i, &x) in vars.iter().enumerate() {
            edges = edges.saturating_add(d.len(x));
            let (a, b) = (shift(i, d.min(x)), shift(i, d.max(x)));
            lo = lo.min(a.min(b));
            hi = hi.max(a.max(b));
        }
        self.values.clear();
        self.start.clear();
        self.adj.clear();
        self.hint_node.clear();
        self.present.clear();
        self.distinct = 0;
        self.dense = hi >= lo && hi - lo < DENSE_LIMIT;
        self.runs = edges >= runs_from();
        if self.dense {
            // Value node `s - lo`: nodes in the order of values, so a
            // domain's runs of values are runs of nodes.
            self.base = lo;
            self.present.resize((hi - lo + 1) as usize, false);
            for (i, &x) in vars.iter().enumerate() {
                if stop() {
                    return false;
                }
                let want = hint.get(i).copied().unwrap_or(NO_VALUE);
                let mut found = NONE;
                let mut tail = 0;
                self.start.push(self.adj.len() as u32);
                for v in d.values(x) {
                    let s = shift(i, v);
                    let k = (s - lo) as usize;
                    if !self.present[k] {
                        self.present[k] = true;
                        self.distinct += 1;
                    }
                    if s == want {
                        found = k as u32;
                    }
                    self.push_node(&mut tail, k as u32);
                }
                self.hint_node.push(found);
            }
        } else {
            // Values numbered as they come (no sort: one long step that
            // could not ask `stop`).
            let mut node_of: HashMap<i128, u32> = HashMap::new();
            for (i, &x) in vars.iter().enumerate() {
                if stop() {
                    return false;
                }
                let want = hint.get(i).copied().unwrap_or(NO_VALUE);
                let mut found = NONE;
                let mut tail = 0;
                self.start.push(self.adj.len() as u32);
                for v in d.values(x) {
                    let s = shift(i, v);
                    let k = *node_of.entry(s).or_insert_with(|| {
                        self.values.push(s);
                        (self.values.len() - 1) as u32
                    });
                    if s == want {
                        found = k;
                    }
                    self.push_node(&mut tail, k);
                }
                if self.values.len() >= RUN as usize || self.adj.len() >= u32::MAX as usize {
                    // More nodes or words than the numbering holds (far
                    // beyond any memory limit): no filtering.
                    return false;
                }
                self.hint_node.push(found);
            }
            self.distinct = self.values.len();
        }
        self.start.push(self.adj.len() as u32);
        debug_assert_eq!(self.start.len(), n + 1);
        true
    }

    /// An augmenting path from free variable `x` (Kuhn), visiting each value
    /// at most once in this round; `None` if `stop` said so (asked at each step).
    fn augment<const R: bool>(
        &mut self,
        x: usize,
        round: u32,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<bool> {
        self.stack.clear();
        self.path.clear();
        self.stack.push((x as u32, Cursor::at(self.start[x])));
        while let Some(&(u, mut cur)) = self.stack.last() {
            if stop() {
                return None;
            }
            let end = self.start[u as usize + 1];
            let Some(v) = self.step::<R>(end, &mut cur) else {
                self.stack.pop();
                self.path.pop();
                continue;
            };
            if let Some(top) = self.stack.last_mut() {
                top.1 = cur;
            }
            let v = v as usize;
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
            self.stack.push((w, Cursor::at(self.start[w as usize])));
        }
        Some(false)
    }

    /// The successor of node `u` in the transposed alternating graph at
    /// cursor `c`, with `c` moved past it. Variable `x` leads to its
    /// unmatched values (the cursor walks its adjacency), value `v` to the
    /// variable matched to it, if any (the cursor's `k` counts 0, then 1).
    #[inline]
    fn next<const R: bool>(&self, n: usize, u: usize, c: &mut Cursor) -> Option<usize> {
        if u < n {
            let end = self.start[u + 1];
            while let Some(v) = self.step::<R>(end, c) {
                if v != self.val_of[u] {
                    return Some(n + v as usize);
                }
            }
            None
        } else {
            let x = self.var_of[u - n];
            let first = c.k == 0;
            c.k = 1;
            (first && x != NONE).then_some(x as usize)
        }
    }

    /// Visits node `u` first: its index, its place on the stacks.
    #[inline(always)]
    fn open(&mut self, n: usize, u: usize, counter: &mut u32) {
        self.node[u] = Node {
            index: *counter,
            low: *counter,
            comp: NONE,
            on_stack: true,
            to_free: u >= n && self.var_of[u - n] == NONE,
        };
        *counter += 1;
        self.tstack.push(u as u32);
        let k = if u < n { self.start[u] } else { 0 };
        self.call.push((u as u32, Cursor::at(k)));
    }

    /// Strongly connected components (iterative Tarjan) into `comp`, and
    /// whether each reaches a free value into `comp_to_free`, of the
    /// alternating graph transposed; `false` if `stop` said so (asked per
    /// root, and every 4,096 steps of a root's walk in a graph that lists
    /// runs).
    ///
    /// The alternating graph has node x (variable) and n + v (value), its
    /// matched edges go variable -> value, the others value -> variable; an
    /// unmatched edge (x, v) is in some maximum matching iff v lies on an even
    /// alternating path from a free value (a free value reaches v) or x and v
    /// share a component. The transposed graph has the same components, its
    /// edges come straight from the adjacency (no reverse adjacency to
    /// build), and "a free value reaches v" becomes "v reaches a free value":
    /// Tarjan finishes a component after every component it leads to, so a
    /// component reaches a free value iff it holds one or one of its edges
    /// leads to a finished component that does.
    #[inline(never)]
    fn tarjan<const R: bool>(
        &mut self,
        n: usize,
        m: usize,
        stop: &mut dyn FnMut() -> bool,
    ) -> bool {
        let nodes = n + m;
        self.node.clear();
        self.node.resize(nodes, UNVISITED);
        self.comp_to_free.clear();
        self.tstack.clear();
        self.call.clear();
        let mut counter = 0;
        for root in 0..nodes {
            if self.node[root].index != NONE || (root >= n && self.dense && !self.present[root - n])
            {
                // Visited, or a value no domain has (no edge, no removal).
                continue;
            }
            if stop() {
                return false;
            }
            self.open(n, root, &mut counter);
            let mut steps = 0u32;
            while let Some(&(u, mut cur)) = self.call.last() {
                // One root may reach the whole graph: in a graph large
                // enough to list runs, `stop` is asked every 4,096 steps too
                // (a smaller one has fewer than `RUNS_FROM` edges in all).
                if R {
                    steps = steps.wrapping_add(1);
                    if steps % 4096 == 0 && stop() {
                        return false;
                    }
                }
                let u = u as usize;
                if let Some(w) = self.next::<R>(n, u, &mut cur) {
                    if let Some(top) = self.call.last_mut() {
                        top.1 = cur;
                    }
                    let nw = self.node[w];
                    if nw.index == NONE {
                        self.open(n, w, &mut counter);
                    } else if nw.on_stack {
                        self.node[u].low = self.node[u].low.min(nw.index);
                    } else if self.comp_to_free[nw.comp as usize] {
                        self.node[u].to_free = true;
                    }
                } else {
                    self.call.pop();
                    if self.node[u].low == self.node[u].index {
                        let c = self.comp_to_free.len() as u32;
                        let mut to_free = false;
                        while let Some(w) = self.tstack.pop() {
                            let nw = &mut self.node[w as usize];
                            nw.on_stack = false;
                            nw.comp = c;
                            to_free |= nw.to_free;
                            if w as usize == u {
                                break;
                            }
                        }
                        self.comp_to_free.push(to_free);
                    }
                    if let Some(&(p, _)) = self.call.last() {
                        let (nu, p) = (self.node[u], p as usize);
                        if nu.on_stack {
                            self.node[p].low = self.node[p].low.min(nu.low);
                        } else if self.comp_to_free[nu.comp as usize] {
                            self.node[p].to_free = true;
                        }
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
/// [`unsupported`] without a kept matching: neither read nor kept.
pub(crate) fn fresh(
    vars: &[VarId],
    d: &Domains,
    shift: &dyn Fn(usize, i64) -> i128,
    stop: &mut dyn FnMut() -> bool,
    room: usize,
    out: &mut Vec<(usize, i128)>,
) -> Matching {
    Scratch::default().run(None, vars, d, shift, stop, room, out)
}

#[cfg(test)]
/// Plants `hint` as the matching kept under `key` on this thread.
fn plant(key: usize, hint: Vec<i128>) {
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        if let Some(old) = s.hints.remove(&key) {
            s.hinted -= old.len();
        }
        s.keep(Some(key), hint);
    });
}

#[cfg(test)]
/// The matching kept under `key` on this thread.
fn kept(key: usize) -> Option<Vec<i128>> {
    SCRATCH.with(|s| s.borrow().hints.get(&key).cloned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Value;

    #[test]
    fn every_step_of_the_matching_filter_asks_whether_to_stop() {
        with_and_without_runs(|| {
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
            let full = fresh(
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
                let r = fresh(
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
        });
    }

    #[test]
    fn a_hall_set_and_a_pigeonhole_are_found() {
        with_and_without_runs(|| {
            let d = Domains::new([(1, 2, None), (1, 2, None), (1, 3, None)].into_iter());
            let vars: Vec<VarId> = (0..3).map(VarId::new).collect();
            let shift = |_: usize, v: Value| i128::from(v);
            let mut out = Vec::new();
            let r = fresh(&vars, &d, &shift, &mut || false, usize::MAX, &mut out);
            assert!(matches!(r, Matching::Removals));
            out.sort();
            assert_eq!(out, [(2, 1), (2, 2)]);
            let d = Domains::new((0..3).map(|_| (0, 1, None)));
            let r = fresh(
                &vars,
                &d,
                &shift,
                &mut || false,
                usize::MAX,
                &mut Vec::new(),
            );
            assert!(matches!(r, Matching::Infeasible));
        });
    }

    #[test]
    fn the_removals_stay_within_their_room() {
        with_and_without_runs(|| {
            // x2's values 1 and 2 go (a Hall set {x0, x1} over {1, 2}): two
            // removals fit in a room of two, not in a room of one.
            let d = Domains::new([(1, 2, None), (1, 2, None), (1, 3, None)].into_iter());
            let vars: Vec<VarId> = (0..3).map(VarId::new).collect();
            let shift = |_: usize, v: Value| i128::from(v);
            let mut out = Vec::new();
            let r = fresh(&vars, &d, &shift, &mut || false, 2, &mut out);
            assert!(matches!(r, Matching::Removals));
            assert_eq!(out.len(), 2);
            let mut out = Vec::new();
            let r = fresh(&vars, &d, &shift, &mut || false, 1, &mut out);
            assert!(matches!(r, Matching::OverBudget));
            assert!(out.is_empty());
        });
    }

    #[test]
    fn sparse_values_give_the_same_removals_as_dense_ones() {
        with_and_without_runs(|| {
            // The same graph with values 1, 2, 3 spread 2^40 apart (numbered
            // by a map, not a table): the same removals, the same stops.
            let d = Domains::new([(1, 2, None), (1, 2, None), (1, 3, None)].into_iter());
            let vars: Vec<VarId> = (0..3).map(VarId::new).collect();
            let spread = |_: usize, v: Value| i128::from(v) << 40;
            let mut out = Vec::new();
            let r = fresh(&vars, &d, &spread, &mut || false, usize::MAX, &mut out);
            assert!(matches!(r, Matching::Removals));
            out.sort();
            assert_eq!(out, [(2, 1 << 40), (2, 2 << 40)]);
            let r = fresh(
                &vars,
                &d,
                &spread,
                &mut || true,
                usize::MAX,
                &mut Vec::new(),
            );
            assert!(matches!(r, Matching::Interrupted));
        });
    }

    /// Runs `f` with a word per value node for small graphs (as built),
    /// then with runs in every graph.
    fn with_and_without_runs(f: impl Fn()) {
        for from in [RUNS_FROM, 0] {
            TEST_RUNS_FROM.with(|c| c.set(from));
            f();
        }
        TEST_RUNS_FROM.with(|c| c.set(RUNS_FROM));
    }

    /// The domains `sets` (each sorted, distinct, not empty).
    fn domains(sets: &[Vec<Value>]) -> Domains {
        Domains::new(
            sets.iter()
                .map(|s| (s[0], s[s.len() - 1], Some(s.as_slice()))),
        )
    }

    /// Régin's answer by brute force: every matching of all variables to
    /// distinct shifted values; `None` if there is none, else the
    /// (position, shifted value) pairs no such matching uses, sorted.
    fn brute_force(shifted: &[Vec<i128>]) -> Option<Vec<(usize, i128)>> {
        fn go(
            i: usize,
            shifted: &[Vec<i128>],
            taken: &mut Vec<i128>,
            used: &mut std::collections::BTreeSet<(usize, i128)>,
        ) -> bool {
            if i == shifted.len() {
                used.extend(taken.iter().enumerate().map(|(j, &v)| (j, v)));
                return true;
            }
            let mut any = false;
            for &v in &shifted[i] {
                if !taken.contains(&v) {
                    taken.push(v);
                    any |= go(i + 1, shifted, taken, used);
                    taken.pop();
                }
            }
            any
        }
        let mut used = std::collections::BTreeSet::new();
        if !go(0, shifted, &mut Vec::new(), &mut used) {
            return None;
        }
        let mut out: Vec<(usize, i128)> = shifted
            .iter()
            .enumerate()
            .flat_map(|(i, s)| s.iter().map(move |&v| (i, v)))
            .filter(|p| !used.contains(p))
            .collect();
        out.sort_unstable();
        Some(out)
    }

    /// A random non-empty subset of `set`.
    fn subset(rng: &mut crate::rng::SplitMix64, set: &[Value]) -> Vec<Value> {
        let mut s: Vec<Value> = set.iter().copied().filter(|_| rng.below(3) > 0).collect();
        if s.is_empty() {
            s.push(set[rng.below(set.len() as u64) as usize]);
        }
        s
    }

    #[test]
    fn runs_of_value_nodes_list_the_same_nodes_in_fewer_words() {
        // Random increasing lists of nodes (runs, gaps, lone nodes), several
        // variables in a row: each list reads back exactly, takes no more
        // words than nodes, and two words per run of three or more.
        let mut rng = crate::rng::SplitMix64::new(7);
        for _ in 0..2000 {
            let mut s = Scratch {
                runs: true,
                ..Scratch::default()
            };
            let mut lists = Vec::new();
            for _ in 0..1 + rng.below(4) {
                let mut list = Vec::new();
                let mut v = rng.below(3) as u32;
                for _ in 0..rng.below(12) {
                    list.push(v);
                    v += 1 + if rng.below(3) == 0 {
                        rng.below(3) as u32
                    } else {
                        0
                    };
                }
                let from = s.adj.len();
                s.start.push(from as u32);
                let mut tail = 0;
                for &v in &list {
                    s.push_node(&mut tail, v);
                }
                let words = s.adj.len() - from;
                assert!(words <= list.len(), "{list:?}: {words} words");
                let runs = list
                    .chunk_by(|a, b| a + 1 == *b)
                    .map(|r| if r.len() >= 3 { 2 } else { r.len() })
                    .sum::<usize>();
                assert_eq!(words, runs, "{list:?}");
                lists.push(list);
            }
            s.start.push(s.adj.len() as u32);
            for (x, list) in lists.iter().enumerate() {
                assert_eq!(&s.nodes::<true>(x).collect::<Vec<_>>(), list);
            }
        }
    }

    #[test]
    fn interval_domains_take_two_words_each() {
        // 300 variables over 0..=9999 shifted by their position (the
        // queens' diagonals): two words a variable, and the filter still
        // finds the Hall set when three of them are cut down to two values.
        let n = 300;
        let mut sets: Vec<Vec<Value>> = vec![(0..10_000).collect(); n];
        for s in sets.iter_mut().take(3) {
            *s = vec![20, 21];
        }
        let d = domains(&sets);
        let vars: Vec<VarId> = (0..n).map(VarId::new).collect();
        let mut s = Scratch::default();
        let mut out = Vec::new();
        // A whole call on `s`, no kept matching, never stopped.
        let run = |s: &mut Scratch,
                   vars: &[VarId],
                   d: &Domains,
                   shift: &dyn Fn(usize, Value) -> i128,
                   out: &mut Vec<(usize, i128)>| {
            out.clear();
            s.run(None, vars, d, shift, &mut || false, usize::MAX, out)
        };
        let r = run(&mut s, &vars, &d, &|_, v| i128::from(v), &mut out);
        // Three variables over two values: no matching.
        assert_eq!(r, Matching::Infeasible);
        sets[2] = vec![20, 21, 22];
        let d = domains(&sets);
        let r = run(
            &mut s,
            &vars,
            &d,
            &|i, v| i128::from(v) + i as i128,
            &mut out,
        );
        assert_eq!(r, Matching::Removals);
        // Shifted: x0 over {20, 21}, x1 over {21, 22}, x2 over {22, 23, 24}.
        assert!(out.is_empty(), "{out:?}");
        assert!(s.adj.len() <= 2 * n + 3, "{} words", s.adj.len());
        // A graph of fewer than `RUNS_FROM` edges takes a word per edge,
        // unless runs are asked for.
        let sets: Vec<Vec<Value>> = vec![vec![1, 2], vec![1, 2], (0..10_000).collect()];
        let d = domains(&sets);
        let vars: Vec<VarId> = (0..3).map(VarId::new).collect();
        for (from, words) in [(RUNS_FROM, 10_004), (0, 2 + 2 + 2)] {
            TEST_RUNS_FROM.with(|c| c.set(from));
            let r = run(&mut s, &vars, &d, &|_, v| i128::from(v), &mut out);
            assert_eq!(r, Matching::Removals);
            assert_eq!(out, vec![(2, 1), (2, 2)]);
            assert_eq!(s.adj.len(), words);
        }
        TEST_RUNS_FROM.with(|c| c.set(RUNS_FROM));
    }

    #[test]
    fn a_kept_matching_gives_the_same_removals_as_a_fresh_run() {
        with_and_without_runs(|| {
            // Random graphs of up to 6 variables over 0..=7 (shifted by small
            // offsets, or spread 2^40 apart for the map), filtered again and
            // again under one key as values go and come back, with planted
            // matchings (values absent, values taken twice, another scope's
            // length, unmatched positions): at every call the same answer and
            // the same removals in the same order as a run without a kept
            // matching, and the same as brute force.
            let mut rng = crate::rng::SplitMix64::new(30);
            let mut hinted_calls = 0;
            for trial in 0..3000u64 {
                let key = 1_000_000 + trial as usize;
                let n = 1 + rng.below(6) as usize;
                let spread = rng.below(4) == 0;
                let offsets: Vec<i128> = (0..n).map(|_| rng.below(5) as i128 - 2).collect();
                let shift = |i: usize, v: Value| {
                    let s = i128::from(v) + offsets[i];
                    if spread { s << 40 } else { s }
                };
                let full: Vec<Value> = (0..=7).collect();
                let base: Vec<Vec<Value>> = (0..n).map(|_| subset(&mut rng, &full)).collect();
                let vars: Vec<VarId> = (0..n).map(VarId::new).collect();
                let mut now = base.clone();
                for step in 0..10 {
                    match rng.below(4) {
                        // Values go.
                        0 | 1 => {
                            for s in &mut now {
                                *s = subset(&mut rng, s);
                            }
                        }
                        // Values come back (a backtrack).
                        2 => now = base.clone(),
                        // Some variables get theirs back.
                        _ => {
                            for (s, b) in now.iter_mut().zip(&base) {
                                if rng.below(2) == 0 {
                                    s.clone_from(b);
                                }
                            }
                        }
                    }
                    if step > 0 && rng.below(3) == 0 {
                        // A planted matching, stale in one of several ways.
                        let pick =
                            |rng: &mut crate::rng::SplitMix64| shift(0, rng.below(12) as Value - 2);
                        let len = match rng.below(4) {
                            0 => n + 1,
                            1 if n > 1 => n - 1,
                            _ => n,
                        };
                        let hint: Vec<i128> = match rng.below(4) {
                            0 => vec![pick(&mut rng); len],
                            1 => (0..len).map(|_| NO_VALUE).collect(),
                            2 => (0..len)
                                .map(|i| {
                                    let s = &base[i % n];
                                    shift(i % n, s[rng.below(s.len() as u64) as usize])
                                })
                                .collect(),
                            _ => (0..len).map(|_| pick(&mut rng)).collect(),
                        };
                        plant(key, hint);
                    }
                    let d = domains(&now);
                    let before = kept(key);
                    let mut out = Vec::new();
                    let r =
                        unsupported(key, &vars, &d, &shift, &mut || false, usize::MAX, &mut out);
                    let mut fresh_out = Vec::new();
                    let f = fresh(&vars, &d, &shift, &mut || false, usize::MAX, &mut fresh_out);
                    assert_eq!(r, f, "trial {trial} step {step}: {now:?}, kept {before:?}");
                    assert_eq!(
                        out, fresh_out,
                        "trial {trial} step {step}: {now:?}, kept {before:?}"
                    );
                    let shifted: Vec<Vec<i128>> = now
                        .iter()
                        .enumerate()
                        .map(|(i, s)| s.iter().map(|&v| shift(i, v)).collect())
                        .collect();
                    match brute_force(&shifted) {
                        None => assert_eq!(r, Matching::Infeasible, "trial {trial} step {step}"),
                        Some(expected) => {
                            assert_eq!(r, Matching::Removals, "trial {trial} step {step}");
                            out.sort_unstable();
                            assert_eq!(out, expected, "trial {trial} step {step}: {now:?}");
                            // The matching kept is a matching of these domains.
                            let kept = kept(key).expect("a matching is kept");
                            assert_eq!(kept.len(), n);
                            for (i, v) in kept.iter().enumerate() {
                                assert!(shifted[i].contains(v), "trial {trial}: {kept:?}");
                                assert_eq!(kept.iter().filter(|&w| w == v).count(), 1);
                            }
                        }
                    }
                    if before.is_some_and(|h| h.len() == n) {
                        hinted_calls += 1;
                    }
                }
            }
            assert!(
                hinted_calls > 10_000,
                "only {hinted_calls} calls with a kept matching"
            );
        });
    }

    #[test]
    fn the_kept_matchings_stay_bounded() {
        // More constraints than a thread keeps matchings for: the map is
        // emptied, never past its bound.
        let d = Domains::new((0..3).map(|_| (0, 3, None)));
        let vars: Vec<VarId> = (0..3).map(VarId::new).collect();
        let shift = |_: usize, v: Value| i128::from(v);
        for key in 0..2 * MAX_HINTS + 7 {
            let r = unsupported(
                key,
                &vars,
                &d,
                &shift,
                &mut || false,
                usize::MAX,
                &mut Vec::new(),
            );
            assert_eq!(r, Matching::Removals);
            SCRATCH.with(|s| {
                let s = s.borrow();
                assert!(s.hints.len() <= MAX_HINTS);
                assert_eq!(s.hinted, s.hints.values().map(Vec::len).sum::<usize>());
            });
        }
        assert!(kept(2 * MAX_HINTS + 6).is_some());
    }
}
