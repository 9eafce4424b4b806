//! Régin's matching filter on one machine word: all-different over at most
//! 64 variables whose shifted values lie within a window of 64.
//!
//! The same removals as the general filter (the edges in no maximum
//! matching; [`matching`](super::matching)), computed on bit masks: each
//! domain is a word over the window, a maximum matching comes from a greedy
//! start and Kuhn's augmenting paths over masks, and the alternating graph is
//! read on values alone (value `w` leads to the matched value of every
//! variable that has `w` without being matched to it). An unmatched edge
//! `(x, v)` belongs to some maximum matching exactly when `v` is reachable
//! from a free value (an even alternating path), or when `v` and `x`'s
//! matched value lie in one strongly connected component (an even
//! alternating cycle): the values reachable from the free ones come from a
//! breadth-first pass on masks, the components of the others from Tarjan's
//! algorithm walking successors as masks. Nothing is allocated: every
//! buffer is a fixed array on the stack.

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::{PropagationContext, Value, VarId};

/// The most variables and the widest window of values this filter takes.
pub(crate) const WORD: usize = 64;

/// All-different over `vars[i] + offsets[i]` (at most [`WORD`] positions,
/// shifted values within `lo..lo + 64`): the same removals as the general
/// filter, without building a graph. `None` if a position's window does not
/// fit in `i64` (the general filter then runs).
pub(crate) fn filter(
    ctx: &mut PropagationContext<'_>,
    vars: &[VarId],
    offsets: &[Value],
    lo: i128,
) -> Option<Propagation> {
    let n = vars.len();
    let mut dom = [0u64; WORD];
    for (i, &x) in vars.iter().enumerate() {
        let base = Value::try_from(lo - i128::from(offsets[i])).ok()?;
        ctx.domains()
            .or_values_into(x, base, std::slice::from_mut(&mut dom[i]));
    }
    let mut removals = [0u64; WORD];
    if !unsupported(&dom[..n], &mut removals) {
        return Some(Err(Conflict::infeasible()));
    }
    // One revision per variable, as the general filter counts.
    ctx.note_revisions(n as u64);
    let mut changed = false;
    for (i, &x) in vars.iter().enumerate() {
        let mut bits = removals[i];
        while bits != 0 {
            let k = i128::from(bits.trailing_zeros());
            bits &= bits - 1;
            // In the position's window (it came from its domain).
            let v = (lo + k - i128::from(offsets[i])) as Value;
            match ctx.remove(x, v) {
                Ok(c) => changed |= c,
                Err(e) => return Some(Err(e)),
            }
        }
    }
    Some(Ok(if changed {
        PropStatus::Changed
    } else {
        PropStatus::Unchanged
    }))
}

const NONE: u8 = u8::MAX;

/// For domains `dom` (bit `k` of `dom[i]`: the shifted value `lo + k` is in
/// position `i`'s domain), sets `out[i]` to the bits of position `i`'s values
/// in no maximum matching (see the module's documentation), or returns
/// `false` if no matching covers every position. `dom.len()` is at most
/// [`WORD`] and at most `out.len()`.
pub(crate) fn unsupported(dom: &[u64], out: &mut [u64]) -> bool {
    let n = dom.len();
    debug_assert!(n <= WORD && n <= out.len());
    let mut mate = [NONE; WORD];
    let mut owner = [NONE; WORD];
    let mut taken = 0u64;
    let mut present = 0u64;
    // Greedy start: each position takes its lowest value still free.
    for i in 0..n {
        present |= dom[i];
        let free = dom[i] & !taken;
        if free != 0 {
            let v = free.trailing_zeros() as usize;
            mate[i] = v as u8;
            owner[v] = i as u8;
            taken |= 1 << v;
        }
    }
    if (n as u32) > present.count_ones() {
        return false;
    }
    for i in 0..n {
        if mate[i] == NONE {
            let mut visited = 0u64;
            if !augment(dom, i, &mut visited, &mut mate, &mut owner) {
                return false;
            }
        }
    }
    let matched: u64 = (0..n).fold(0, |m, i| m | 1 << mate[i]);
    // The alternating graph on values: `w` leads to `mate[i]` through every
    // position `i` that has `w` without being matched to it.
    let mut succ = [0u64; WORD];
    for i in 0..n {
        let m = 1u64 << mate[i];
        let mut rest = dom[i] & !m;
        while rest != 0 {
            succ[rest.trailing_zeros() as usize] |= m;
            rest &= rest - 1;
        }
    }
    // The values reachable from a free value (free values included).
    let mut from_free = present & !matched;
    let mut frontier = from_free;
    while frontier != 0 {
        let mut next = 0u64;
        let mut f = frontier;
        while f != 0 {
            next |= succ[f.trailing_zeros() as usize];
            f &= f - 1;
        }
        frontier = next & !from_free;
        from_free |= frontier;
    }
    // The strongly connected components of the remaining values (Tarjan,
    // iterative, successors walked as masks): a path between two of them
    // never passes through a value reachable from a free one.
    let rest = present & !from_free;
    let comp = components(&succ, rest);
    for i in 0..n {
        let m = mate[i] as usize;
        let keep = 1u64 << m | from_free | comp[m];
        out[i] = dom[i] & !keep;
    }
    true
}

/// Tarjan's bookkeeping over at most [`WORD`] nodes.
struct Tarjan {
    index: [u8; WORD],
    low: [u8; WORD],
    /// Per node: its successors not yet walked.
    todo: [u64; WORD],
    visited: u64,
    on_stack: u64,
    stack: [u8; WORD],
    depth: usize,
    /// The nodes whose walk is under way, the innermost last.
    call: [u8; WORD],
    calls: usize,
    counter: u8,
}

impl Tarjan {
    fn open(&mut self, v: usize, todo: u64) {
        self.index[v] = self.counter;
        self.low[v] = self.counter;
        self.counter = self.counter.wrapping_add(1);
        self.todo[v] = todo;
        self.visited |= 1 << v;
        self.on_stack |= 1 << v;
        self.stack[self.depth] = v as u8;
        self.depth += 1;
        self.call[self.calls] = v as u8;
        self.calls += 1;
    }
}

/// For each value of `nodes`, the mask of its strongly connected component
/// in the graph `succ` restricted to `nodes` (Tarjan's algorithm, iterative,
/// O(nodes + edges), the successors still to walk kept as masks).
fn components(succ: &[u64; WORD], nodes: u64) -> [u64; WORD] {
    let mut comp = [0u64; WORD];
    let mut t = Tarjan {
        index: [0; WORD],
        low: [0; WORD],
        todo: [0; WORD],
        visited: 0,
        on_stack: 0,
        stack: [0; WORD],
        depth: 0,
        call: [0; WORD],
        calls: 0,
        counter: 0,
    };
    let mut roots = nodes;
    while roots != 0 {
        let root = roots.trailing_zeros() as usize;
        roots &= roots - 1;
        if t.visited >> root & 1 == 1 {
            continue;
        }
        t.open(root, succ[root] & nodes);
        while t.calls > 0 {
            let v = t.call[t.calls - 1] as usize;
            // Edges into finished components are ignored and edges to the
            // stack lower `low[v]`, a mask at a time; then one unvisited
            // successor, if any, is walked.
            let mut todo = t.todo[v] & !(t.visited & !t.on_stack);
            let mut back = todo & t.on_stack;
            todo &= !back;
            while back != 0 {
                let w = back.trailing_zeros() as usize;
                back &= back - 1;
                t.low[v] = t.low[v].min(t.index[w]);
            }
            if todo != 0 {
                let w = todo.trailing_zeros() as usize;
                t.todo[v] = todo & (todo - 1);
                t.open(w, succ[w] & nodes);
                continue;
            }
            t.todo[v] = 0;
            t.calls -= 1;
            if t.low[v] == t.index[v] {
                // `v` roots a component: the nodes above it on the stack.
                let mut c = 0u64;
                loop {
                    t.depth -= 1;
                    let w = t.stack[t.depth] as usize;
                    c |= 1 << w;
                    if w == v {
                        break;
                    }
                }
                t.on_stack &= !c;
                let mut each = c;
                while each != 0 {
                    comp[each.trailing_zeros() as usize] = c;
                    each &= each - 1;
                }
            }
            if t.calls > 0 {
                let parent = t.call[t.calls - 1] as usize;
                t.low[parent] = t.low[parent].min(t.low[v]);
            }
        }
    }
    comp
}

/// Kuhn's augmenting path from position `i` over values not yet `visited`.
fn augment(
    dom: &[u64],
    i: usize,
    visited: &mut u64,
    mate: &mut [u8; WORD],
    owner: &mut [u8; WORD],
) -> bool {
    let mut cand = dom[i] & !*visited;
    while cand != 0 {
        let v = cand.trailing_zeros() as usize;
        cand &= cand - 1;
        *visited |= 1 << v;
        if owner[v] == NONE || augment(dom, owner[v] as usize, visited, mate, owner) {
            owner[v] = i as u8;
            mate[i] = v as u8;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: `(i, v)` is kept exactly when some complete matching
    /// gives position `i` the value `v`.
    fn brute(dom: &[u64]) -> Option<Vec<u64>> {
        fn go(dom: &[u64], i: usize, used: u64, pick: &mut Vec<usize>, keep: &mut [u64]) -> bool {
            if i == dom.len() {
                for (j, &v) in pick.iter().enumerate() {
                    keep[j] |= 1 << v;
                }
                return true;
            }
            let mut any = false;
            let mut c = dom[i] & !used;
            while c != 0 {
                let v = c.trailing_zeros() as usize;
                c &= c - 1;
                pick.push(v);
                any |= go(dom, i + 1, used | 1 << v, pick, keep);
                pick.pop();
            }
            any
        }
        let mut keep = vec![0u64; dom.len()];
        go(dom, 0, 0, &mut Vec::new(), &mut keep)
            .then(|| dom.iter().zip(&keep).map(|(&d, &k)| d & !k).collect())
    }

    #[test]
    fn random_domains_lose_what_brute_force_says() {
        let mut rng = crate::rng::SplitMix64::new(5);
        for case in 0..4000 {
            let n = 1 + (rng.next_u64() % 7) as usize;
            let span = 1 + (rng.next_u64() % 9) as u32;
            let window = if span == 64 {
                u64::MAX
            } else {
                (1u64 << span) - 1
            };
            // Sparse or dense domains; a few empty ones too.
            let dom: Vec<u64> = (0..n)
                .map(|_| {
                    let a = rng.next_u64() & window;
                    if case % 3 == 0 {
                        a | (rng.next_u64() & window)
                    } else {
                        a & rng.next_u64()
                    }
                })
                .collect();
            let mut out = [0u64; WORD];
            let got = unsupported(&dom, &mut out).then(|| out[..n].to_vec());
            assert_eq!(got, brute(&dom), "case {case}: {dom:?}");
        }
    }

    #[test]
    fn a_full_window_of_64_values_and_64_positions() {
        // 64 positions on 64 values: the first fixed to 0, the others free.
        let mut dom = vec![u64::MAX; 64];
        dom[0] = 1;
        let mut r = [0u64; WORD];
        assert!(unsupported(&dom, &mut r));
        assert_eq!(r[0], 0);
        assert!(r[1..].iter().all(|&m| m == 1));
        // 65 values would not fit; 64 positions on 63 values cannot match.
        let dom = vec![u64::MAX >> 1; 64];
        assert!(!unsupported(&dom, &mut r));
    }
}
