//! All-different over `x_i + o_i`: value elimination, and Régin's matching filter.

use smallvec::SmallVec;

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::{
    Constraint, CspError, Domains, PropagationContext, Pruning, StateLayout, Value, VarId,
};

/// The values `x_i + offset_i` are pairwise different.
///
/// With all offsets zero this is the classic all-different. Offsets express the
/// N-Queens diagonals without extra variables: `q_i + i` and `q_i - i` all differ.
///
/// Filtering by pruning level:
/// - forward checking: the value of the variable just assigned is removed from the
///   others;
/// - arc consistency: the same, cascading whenever a variable becomes fixed (the arc
///   consistency of the pairwise `!=` decomposition);
/// - propagators: that, then Régin's matching-based filter, which removes every
///   value that cannot appear in any solution of the constraint (generalised arc
///   consistency).
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 3, 0..=2)?;
/// m.all_different(&xs)?;
/// assert_eq!(Solver::new(&m, Config::default())?.count().solutions, 6);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllDifferent {
    vars: Vec<VarId>,
    offsets: Vec<Value>,
    /// Whether every offset is below 2^61 in magnitude (then `v - o` cannot
    /// overflow for `|v| < 2^61`, and the fast path applies).
    small_offsets: bool,
    /// Whether forward checking keeps the undecided positions in its trailed
    /// state (bit set [`WAITING`]) and skips the decided ones: no variable
    /// repeats, and no shifted value can overflow.
    skips_decided: bool,
}

/// The trailed bit set of the positions whose variable is not decided yet
/// (kept by forward checking, when `skips_decided`).
const WAITING: usize = 0;
/// The scope with its offsets, as a shifted list of the trailed state.
const SCOPE: usize = 0;

/// Whether no variable occurs twice.
fn distinct(vars: &[VarId]) -> bool {
    let mut seen = vars.to_vec();
    seen.sort_unstable();
    seen.windows(2).all(|w| w[0] != w[1])
}

/// Magnitude below which `value - offset` cannot overflow.
const SAFE: Value = 1 << 61;

impl AllDifferent {
    /// All of `vars` take different values.
    pub fn new(vars: &[VarId]) -> Self {
        AllDifferent {
            vars: vars.to_vec(),
            offsets: vec![0; vars.len()],
            small_offsets: true,
            skips_decided: distinct(vars),
        }
    }

    /// All of `vars[i] + offsets[i]` are different.
    pub fn with_offsets(vars: &[VarId], offsets: &[Value]) -> Result<Self, CspError> {
        if vars.len() != offsets.len() {
            return Err(CspError::LengthMismatch {
                context: "all-different".into(),
                what: "offsets".into(),
                expected: vars.len(),
                got: offsets.len(),
            });
        }
        let small_offsets = offsets.iter().all(|o| (-SAFE..SAFE).contains(o));
        Ok(AllDifferent {
            vars: vars.to_vec(),
            offsets: offsets.to_vec(),
            small_offsets,
            skips_decided: small_offsets && distinct(vars),
        })
    }

    /// The offsets `o_i`.
    pub fn offsets(&self) -> &[Value] {
        &self.offsets
    }

    #[inline]
    fn shifted(&self, i: usize, v: Value) -> i128 {
        i128::from(v) + i128::from(self.offsets[i])
    }

    /// Removes `value` (a shifted value) from every variable but `skip`.
    #[inline]
    fn eliminate(
        &self,
        ctx: &mut PropagationContext<'_>,
        skip: usize,
        value: i128,
    ) -> Result<bool, Conflict> {
        // One revision per other variable whose domain loses the value.
        ctx.note_revisions(self.vars.len().saturating_sub(1) as u64);
        let mut changed = false;
        match Value::try_from(value) {
            // The common case: plain 64-bit arithmetic that cannot overflow.
            Ok(value) if self.small_offsets && (-SAFE..SAFE).contains(&value) => {
                changed = ctx.remove_shifted(&self.vars, &self.offsets, value, skip)?;
            }
            _ => {
                for (j, (&y, &o)) in self.vars.iter().zip(&self.offsets).enumerate() {
                    if j != skip
                        && let Ok(w) = Value::try_from(value - i128::from(o))
                    {
                        changed |= ctx.remove(y, w)?;
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Value elimination to a fixpoint: every fixed variable's value leaves the
    /// others, including variables that became fixed on the way.
    fn eliminate_fixed(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let n = self.vars.len();
        let mut done: SmallVec<[bool; 32]> = SmallVec::from_elem(false, n);
        let mut changed = false;
        loop {
            let mut progress = false;
            for i in 0..n {
                if done[i] {
                    continue;
                }
                if let Some(v) = ctx.value(self.vars[i]) {
                    done[i] = true;
                    progress = true;
                    changed |= self.eliminate(ctx, i, self.shifted(i, v))?;
                }
            }
            if !progress {
                break;
            }
        }
        if done.iter().all(|&d| d) {
            return Ok(PropStatus::Entailed);
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }

    /// Régin's filter: keeps a value only if some maximum matching of variables to
    /// values uses it.
    fn matching_filter(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        // Every step below (the graph, the matching, the components) asks
        // `should_stop` once per variable or node, so that a time limit or
        // Ctrl-C ends a filter over a large board (10,000 queens: 10^8 edges)
        // within milliseconds.
        let Some(graph) = ValueGraph::build(self, ctx) else {
            return Ok(PropStatus::Unchanged);
        };
        let removals = match graph.unsupported(&mut || ctx.should_stop()) {
            Matching::Removals(r) => r,
            Matching::Infeasible => return Err(Conflict::infeasible()),
            // The search is stopping: filtering less is always sound.
            Matching::Interrupted => return Ok(PropStatus::Unchanged),
        };
        // One revision per variable: the matching examined every domain.
        ctx.note_revisions(self.vars.len() as u64);
        let mut changed = false;
        for (i, value) in removals {
            if ctx.should_stop() {
                break;
            }
            if let Ok(w) = Value::try_from(value - i128::from(self.offsets[i])) {
                changed |= ctx.remove(self.vars[i], w)?;
            }
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

impl AllDifferent {
    /// This constraint's filtering for a constraint that embeds it and calls
    /// it from its own `propagate` (circuit, inverse): the same removals as
    /// [`propagate`](Constraint::propagate), without the trailed state, which
    /// belongs to the running constraint.
    pub fn propagate_embedded(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        self.filter(ctx)
    }

    /// Everything but the hot path of [`propagate`](Constraint::propagate):
    /// the filtering without the trailed state.
    #[inline(never)]
    fn filter(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        match ctx.pruning() {
            Pruning::ForwardChecking => match ctx.trigger() {
                Some((x, i)) => {
                    let Some(v) = ctx.value(x) else {
                        return Ok(PropStatus::Unchanged);
                    };
                    let mut changed = self.eliminate(ctx, i, self.shifted(i, v))?;
                    // A variable listed twice: its other positions are fixed too,
                    // and no later trigger will eliminate their values.
                    for j in i + 1..self.vars.len() {
                        if self.vars[j] == x {
                            changed |= self.eliminate(ctx, j, self.shifted(j, v))?;
                        }
                    }
                    Ok(if changed {
                        PropStatus::Changed
                    } else {
                        PropStatus::Unchanged
                    })
                }
                None => self.eliminate_fixed(ctx),
            },
            Pruning::Propagators => {
                let first = self.eliminate_fixed(ctx)?;
                if first == PropStatus::Entailed {
                    return Ok(first);
                }
                let second = self.matching_filter(ctx)?;
                Ok(
                    if first == PropStatus::Changed || second == PropStatus::Changed {
                        PropStatus::Changed
                    } else {
                        PropStatus::Unchanged
                    },
                )
            }
            _ => self.eliminate_fixed(ctx),
        }
    }
}

impl Constraint for AllDifferent {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[Value]) -> bool {
        let mut s: SmallVec<[i128; 32]> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| self.shifted(i, v))
            .collect();
        s.sort_unstable();
        s.windows(2).all(|w| w[0] != w[1])
    }

    fn name(&self) -> &str {
        "all-different"
    }

    fn state_layout(&self, _pruning: Pruning) -> StateLayout {
        // Also under other levels: a value heuristic's probe runs forward
        // checking whatever the level.
        if self.skips_decided {
            StateLayout::new()
                .bits(self.vars.len(), true)
                .shifted(&self.vars, &self.offsets)
        } else {
            StateLayout::new()
        }
    }

    fn promising(&self, d: &Domains) -> bool {
        let mut s: SmallVec<[i128; 32]> = SmallVec::new();
        for (i, &x) in self.vars.iter().enumerate() {
            if let Some(v) = d.value(x) {
                s.push(self.shifted(i, v));
            }
        }
        s.sort_unstable();
        s.windows(2).all(|w| w[0] != w[1])
    }

    #[inline]
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        // The hot path of forward checking, kept small: a decision's value
        // leaves the undecided variables (the trailed waiting set).
        if self.skips_decided
            && ctx.pruning() == Pruning::ForwardChecking
            && let Some((x, i)) = ctx.trigger()
            && let Some(v) = ctx.value(x)
            && let Ok(shifted) = Value::try_from(self.shifted(i, v))
            && (-SAFE..SAFE).contains(&shifted)
        {
            let changed = ctx.forward_check_shifted(SCOPE, WAITING, i, shifted)?;
            return Ok(if changed {
                PropStatus::Changed
            } else {
                PropStatus::Unchanged
            });
        }
        self.filter(ctx)
    }
}

/// What building the value graph reads: the domains, and whether to stop.
trait GraphSource {
    fn domains(&self) -> &Domains;
    fn should_stop(&mut self) -> bool;
}

impl GraphSource for PropagationContext<'_> {
    fn domains(&self) -> &Domains {
        PropagationContext::domains(self)
    }
    fn should_stop(&mut self) -> bool {
        PropagationContext::should_stop(self)
    }
}

/// The bipartite variable-value graph of one call of the matching filter.
struct ValueGraph {
    /// The distinct shifted values, sorted; value nodes are indices into it.
    values: Vec<i128>,
    /// For each variable, its value nodes (`u32`, half the memory of
    /// `usize`: 10,000 queens have 10^8 edges).
    adj: Vec<Vec<u32>>,
}

const FREE: usize = usize::MAX;

impl ValueGraph {
    /// The graph of `c` over the current domains, or `None` as soon as
    /// `ctx.should_stop()` says so (asked once per variable).
    ///
    /// The value nodes are numbered directly from the values when their span
    /// is no wider than the edges (the N-Queens diagonals: span 2N, N^2
    /// edges), by sorting otherwise.
    fn build(c: &AllDifferent, ctx: &mut impl GraphSource) -> Option<Self> {
        let mut lo = i128::MAX;
        let mut hi = i128::MIN;
        let mut edges = 0usize;
        for (i, &x) in c.vars.iter().enumerate() {
            let d = ctx.domains();
            lo = lo.min(c.shifted(i, d.min(x)));
            hi = hi.max(c.shifted(i, d.max(x)));
            edges += d.len(x);
        }
        // No variables: lo > hi, and the sorting branch builds the empty graph.
        let span = usize::try_from(hi.saturating_sub(lo).saturating_add(1)).unwrap_or(usize::MAX);
        let dense = span <= edges.max(c.vars.len());
        let mut node = if dense { vec![FREE; span] } else { Vec::new() };
        let mut values = Vec::new();
        for (i, &x) in c.vars.iter().enumerate() {
            if ctx.should_stop() {
                return None;
            }
            for v in ctx.domains().values(x).map(|v| c.shifted(i, v)) {
                if dense {
                    node[(v - lo) as usize] = 0;
                } else {
                    values.push(v);
                }
            }
        }
        if dense {
            for (k, slot) in node.iter_mut().enumerate().filter(|(_, s)| **s != FREE) {
                *slot = values.len();
                values.push(lo + k as i128);
            }
        } else {
            values.sort_unstable();
            values.dedup();
        }
        if c.vars.len() + values.len() > u32::MAX as usize {
            // Beyond any memory: no filtering (which is sound).
            return None;
        }
        let mut adj: Vec<Vec<u32>> = Vec::with_capacity(c.vars.len());
        for (i, &x) in c.vars.iter().enumerate() {
            if ctx.should_stop() {
                return None;
            }
            let index = |v: i128| match dense {
                true => Some(node[(v - lo) as usize] as u32),
                false => values.binary_search(&v).ok().map(|k| k as u32),
            };
            let d = ctx.domains();
            adj.push(d.values(x).filter_map(|v| index(c.shifted(i, v))).collect());
        }
        Some(ValueGraph { values, adj })
    }

    /// Finds an augmenting path from variable `x` (Kuhn's algorithm);
    /// `None` as soon as `stop` says so (asked at each step of the path: on a
    /// large board one path can be thousands of variables long).
    fn augment(
        &self,
        x: usize,
        var_of: &mut [usize],
        val_of: &mut [usize],
        seen: &mut [bool],
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<bool> {
        // Iterative DFS over variables; `stack` holds (variable, next edge index).
        let mut stack: Vec<(usize, usize)> = vec![(x, 0)];
        let mut path: Vec<usize> = Vec::new(); // value chosen at each stack level
        while let Some(&mut (u, ref mut e)) = stack.last_mut() {
            if *e == self.adj[u].len() {
                stack.pop();
                path.pop();
                continue;
            }
            let v = self.adj[u][*e] as usize;
            *e += 1;
            if seen[v] {
                continue;
            }
            seen[v] = true;
            path.push(v);
            if var_of[v] == FREE {
                // Flip the path.
                for (level, &(u, _)) in stack.iter().enumerate() {
                    let v = path[level];
                    var_of[v] = u;
                    val_of[u] = v;
                }
                return Some(true);
            }
            if stop() {
                return None;
            }
            stack.push((var_of[v], 0));
        }
        Some(false)
    }

    /// The (variable, shifted value) pairs that belong to no maximum matching,
    /// or `Infeasible` if the variables cannot all get different values;
    /// `Interrupted` as soon as `stop` says so (asked once per variable or
    /// node of each step).
    fn unsupported(&self, stop: &mut dyn FnMut() -> bool) -> Matching {
        let n = self.adj.len();
        let m = self.values.len();
        let mut var_of = vec![FREE; m];
        let mut val_of = vec![FREE; n];
        let mut seen = vec![false; m];
        for x in 0..n {
            if stop() {
                return Matching::Interrupted;
            }
            seen.iter_mut().for_each(|s| *s = false);
            match self.augment(x, &mut var_of, &mut val_of, &mut seen, stop) {
                Some(true) => {}
                Some(false) => return Matching::Infeasible,
                None => return Matching::Interrupted,
            }
        }
        // Directed graph: node x (variable) and n + v (value). Matched edges go
        // variable -> value, unmatched ones value -> variable.
        let node_count = n + m;
        // (`u32` nodes: `build` made sure that they fit.)
        let mut out: Vec<Vec<u32>> = vec![Vec::new(); node_count];
        for (x, vals) in self.adj.iter().enumerate() {
            if stop() {
                return Matching::Interrupted;
            }
            for &v in vals {
                let v = v as usize;
                if val_of[x] == v {
                    out[x].push((n + v) as u32);
                } else {
                    out[n + v].push(x as u32);
                }
            }
        }
        // Nodes reachable from a free value lie on even alternating paths.
        let mut reach = vec![false; node_count];
        let mut todo: Vec<usize> = (0..m)
            .filter(|&v| var_of[v] == FREE)
            .map(|v| n + v)
            .collect();
        for &s in &todo {
            reach[s] = true;
        }
        while let Some(u) = todo.pop() {
            if stop() {
                return Matching::Interrupted;
            }
            for &w in &out[u] {
                let w = w as usize;
                if !reach[w] {
                    reach[w] = true;
                    todo.push(w);
                }
            }
        }
        let Some(comp) = tarjan(&out, stop) else {
            return Matching::Interrupted;
        };
        let mut removals = Vec::new();
        for (x, vals) in self.adj.iter().enumerate() {
            if stop() {
                return Matching::Interrupted;
            }
            for &v in vals {
                let v = v as usize;
                let keep = val_of[x] == v || reach[n + v] || comp[x] == comp[n + v];
                if !keep {
                    removals.push((x, self.values[v]));
                }
            }
        }
        Matching::Removals(removals)
    }
}

/// What the matching filter found.
enum Matching {
    /// The values to remove.
    Removals(Vec<(usize, i128)>),
    /// No matching covers every variable.
    Infeasible,
    /// The search is stopping; nothing was concluded.
    Interrupted,
}

/// Strongly connected components (iterative Tarjan); returns a component id
/// per node, or `None` as soon as `stop` says so (asked once per node).
fn tarjan(out: &[Vec<u32>], stop: &mut dyn FnMut() -> bool) -> Option<Vec<usize>> {
    let n = out.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![usize::MAX; n];
    let mut stack = Vec::new();
    let mut counter = 0;
    let mut comps = 0;
    let mut call: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        if stop() {
            return None;
        }
        call.push((root, 0));
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (u, ref mut e)) = call.last_mut() {
            if *e < out[u].len() {
                let w = out[u][*e] as usize;
                *e += 1;
                if index[w] == usize::MAX {
                    if stop() {
                        return None;
                    }
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[u] = low[u].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(p, _)) = call.last() {
                    low[p] = low[p].min(low[u]);
                }
                if low[u] == index[u] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = comps;
                        if w == u {
                            break;
                        }
                    }
                    comps += 1;
                }
            }
        }
    }
    Some(comp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Model, Solver};

    #[test]
    fn matching_filter_removes_values_taken_by_a_hall_set() {
        // x, y in {1, 2} force z out of {1, 2}.
        let mut m = Model::new();
        let x = m.int_var(1..=2).unwrap();
        let y = m.int_var(1..=2).unwrap();
        let z = m.int_var(1..=3).unwrap();
        m.all_different(&[x, y, z]).unwrap();
        let s = Solver::new(&m, Config::default().with_pruning(Pruning::Propagators)).unwrap();
        assert_eq!(s.domains().value(z), Some(3));
        let s = Solver::new(&m, Config::default().with_pruning(Pruning::ArcConsistency)).unwrap();
        assert_eq!(s.domains().len(z), 3);
    }

    #[test]
    fn values_far_apart_are_numbered_by_sorting_and_filter_alike() {
        // The Hall set of the test above with values 10^6 apart: their span
        // is wider than the edges, so the value nodes come from sorting.
        let mut m = Model::new();
        let x = m.int_var([1, 1_000_000]).unwrap();
        let y = m.int_var([1, 1_000_000]).unwrap();
        let z = m.int_var([1, 1_000_000, 2_000_000]).unwrap();
        m.all_different(&[x, y, z]).unwrap();
        let s = Solver::new(&m, Config::default().with_pruning(Pruning::Propagators)).unwrap();
        assert_eq!(s.domains().value(z), Some(2_000_000));
        assert_eq!(s.domains().len(x), 2);
    }

    /// The domains of a solver and a stop that answers yes at poll `stop_at`.
    struct Probe<'a> {
        domains: &'a Domains,
        polls: usize,
        stop_at: usize,
    }

    impl GraphSource for Probe<'_> {
        fn domains(&self) -> &Domains {
            self.domains
        }
        fn should_stop(&mut self) -> bool {
            self.polls += 1;
            self.polls > self.stop_at
        }
    }

    #[test]
    fn every_step_of_the_matching_filter_asks_whether_to_stop() {
        // The 6-queens diagonals: 6 variables, 11 values.
        let mut m = Model::new();
        let q = m.int_var_array("q", 6, 0..=5).unwrap();
        let offsets: Vec<Value> = (0..6).collect();
        let c = AllDifferent::with_offsets(&q, &offsets).unwrap();
        let s = Solver::new(&m, Config::default()).unwrap();
        let probe = |stop_at| Probe {
            domains: s.domains(),
            polls: 0,
            stop_at,
        };
        let mut full = probe(usize::MAX);
        let graph = ValueGraph::build(&c, &mut full).unwrap();
        // Twice per variable: numbering the values, then the edges.
        assert_eq!(full.polls, 12);
        for k in 0..full.polls {
            assert!(ValueGraph::build(&c, &mut probe(k)).is_none(), "{k}");
        }
        let mut polls = 0;
        let Matching::Removals(removals) = graph.unsupported(&mut || {
            polls += 1;
            false
        }) else {
            panic!("6 queens' diagonals have a matching")
        };
        assert!(removals.is_empty());
        // Per variable: the matching, the directed graph, the removals; per
        // node (6 + 11): the components; and the nodes reached from the 5
        // free values (at least those 5).
        assert!(polls >= 3 * 6 + 17 + 5, "{polls}");
        for k in 0..polls {
            let mut asked = 0;
            let stopped = graph.unsupported(&mut || {
                asked += 1;
                asked > k
            });
            assert!(matches!(stopped, Matching::Interrupted), "{k}");
        }
    }

    #[test]
    fn pigeonhole_fails_at_the_root_with_propagators() {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 4, 0..=2).unwrap();
        m.all_different(&xs).unwrap();
        let mut s = Solver::new(&m, Config::default().with_pruning(Pruning::Propagators)).unwrap();
        let r = s.count();
        assert_eq!(r.solutions, 0);
        assert_eq!(r.stats.tried, 0);
    }

    #[test]
    fn forward_checking_eliminates_every_position_of_a_repeated_variable() {
        // x0 + 1 != x1 - 1 pairs positions 2 and 3, neither of which is a
        // trigger position (0 for x0, 1 for x1).
        let mut m = Model::new();
        let x0 = m.int_var(0..=2).unwrap();
        let x1 = m.int_var(0..=2).unwrap();
        m.all_different_offsets(&[x0, x1, x0, x1], &[0, 0, 1, -1])
            .unwrap();
        let brute = (0..=2)
            .flat_map(|a| (0..=2).map(move |b| (a, b)))
            .filter(|&(a, b)| a != b && a != b - 1 && a + 1 != b && a + 1 != b - 1)
            .count() as u64;
        assert_eq!(brute, 3);
        for pruning in Pruning::ALL {
            let mut s = Solver::new(&m, Config::default().with_pruning(pruning)).unwrap();
            assert_eq!(s.count().solutions, brute, "{pruning}");
        }
    }

    #[test]
    fn offsets_shift_values_before_comparing() {
        let mut m = Model::new();
        let a = m.int_var(0..=1).unwrap();
        let b = m.int_var(0..=1).unwrap();
        // a + 1 != b + 0
        m.all_different_offsets(&[a, b], &[1, 0]).unwrap();
        let mut s = Solver::new(&m, Config::default()).unwrap();
        assert_eq!(s.count().solutions, 3);
    }
}
