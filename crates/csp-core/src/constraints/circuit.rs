//! Circuit: successor variables forming one Hamiltonian circuit.

use smallvec::SmallVec;

use crate::constraint::{Conflict, PropCost, Propagation};
use crate::constraints::global_cardinality::finish;
use crate::{
    AllDifferent, Constraint, ConstraintId, CspError, Domains, Events, Model, PropagationContext,
    Pruning, StateLayout, Value, VarId,
};

/// `successors[i]` is the node after node `i` on a single circuit through all
/// `n` nodes, numbered from `offset` (0 for [`Model::circuit`]): the successors
/// are all different and following them from any node visits every node before
/// coming back (no sub-tours). With one node, its successor is itself.
///
/// Filtering (every level, to a fixpoint): values outside the nodes and (for
/// `n > 1`) self-loops go; for every chain of fixed successors that does not yet
/// cover all nodes, the chain's end may not point back to its start (and
/// must, once the chain covers them all); and all-different filtering: under
/// [`Pruning::Propagators`](crate::Pruning), value elimination (a fixed
/// successor leaves the others), as Gecode's circuit does by default, or
/// Régin's matching for a circuit built with [`domain`](Circuit::domain)
/// (Gecode's `IPL_DOM`, MiniZinc's `:: domain`); under the textbook levels, that
/// level's strength. `promising` rejects a fixed value out of range, two equal
/// fixed successors and a closed sub-tour.
///
/// With value elimination under the propagators level, everything after the
/// first call depends on fixed successors only: the constraint wakes only
/// when a successor becomes fixed, and keeps in trailed state the nodes whose
/// successor has already left the others, so that a call eliminates only the
/// successors fixed since (as Gecode's value circuit, which subscribes to
/// fixings).
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// let mut m = Model::new();
/// let next = m.int_var_array("next", 4, 0..=3)?;
/// m.circuit(&next)?;
/// // (4 - 1)! = 6 circuits through 4 nodes.
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 6);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Circuit {
    scope: Vec<VarId>,
    offset: Value,
    all_different: AllDifferent,
    /// Régin's matching under the propagators level, not value elimination.
    domain: bool,
}

impl Circuit {
    /// `successors[i]` is the successor of node `i`, nodes numbered from 0.
    pub fn new(successors: &[VarId]) -> Self {
        Self::with_offset(successors, 0)
    }

    /// Nodes numbered from `offset`: `successors[i]` is the successor of node
    /// `offset + i` (MiniZinc's arrays count from 1).
    pub fn with_offset(successors: &[VarId], offset: Value) -> Self {
        Circuit {
            scope: successors.to_vec(),
            offset,
            all_different: AllDifferent::new(successors),
            domain: false,
        }
    }

    /// The same circuit with Régin's matching (domain-consistent
    /// all-different) under [`Pruning::Propagators`](crate::Pruning) instead
    /// of value elimination: fewer nodes on some models, more time per node.
    ///
    /// ```
    /// use csp_core::constraints::Circuit;
    /// use csp_core::{Config, Model, Pruning, Solver};
    /// let mut m = Model::new();
    /// let next = m.int_var_array("next", 5, 0..=4)?;
    /// m.post(Circuit::new(&next).domain())?;
    /// let config = Config::textbook().with_pruning(Pruning::Propagators);
    /// assert_eq!(Solver::new(&m, config)?.count().solutions, 24); // (5 - 1)!
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn domain(mut self) -> Self {
        self.domain = true;
        self
    }

    /// The node index of a value, if it names a node.
    fn node(&self, value: Value) -> Option<usize> {
        let k = i128::from(value) - i128::from(self.offset);
        usize::try_from(k).ok().filter(|&k| k < self.scope.len())
    }

    /// For each node, its fixed successor (a node index), `None` if open or
    /// out of range. `Err` if two nodes have the same fixed successor.
    fn fixed_successors(&self, d: &Domains) -> Result<Vec<Option<usize>>, ()> {
        let n = self.scope.len();
        let mut pred = vec![false; n];
        let mut out = Vec::with_capacity(n);
        for &x in &self.scope {
            let s = d.value(x).and_then(|v| self.node(v));
            if let Some(k) = s {
                if pred[k] {
                    return Err(());
                }
                pred[k] = true;
            }
            out.push(s);
        }
        Ok(out)
    }

    /// The chains of fixed successors: for each node whose successor is open,
    /// the start of the chain ending there and the chain's node count. `Err` if
    /// the fixed successors close a cycle shorter than `n`.
    fn chains(&self, succ: &[Option<usize>]) -> Result<Vec<(usize, usize, usize)>, ()> {
        let n = succ.len();
        let mut pred: Vec<Option<usize>> = vec![None; n];
        for (i, s) in succ.iter().enumerate() {
            if let Some(k) = *s {
                pred[k] = Some(i);
            }
        }
        let mut covered = 0;
        let mut out = Vec::new();
        for (end, s) in succ.iter().enumerate() {
            if s.is_some() {
                continue;
            }
            let (mut start, mut len) = (end, 1);
            while let Some(p) = pred[start] {
                start = p;
                len += 1;
                if len > n {
                    return Err(());
                }
            }
            covered += len;
            out.push((start, end, len));
        }
        // Nodes on no chain lie on a closed cycle of fixed successors.
        if covered < n && !out.is_empty() {
            return Err(());
        }
        Ok(out)
    }
}

/// Trailed integer 0 (value elimination under the propagators level): 1 once
/// the values outside the nodes and the self-loops are gone.
const READY: usize = 0;

/// Trailed bit set 0 (the same): the nodes whose fixed successor has left
/// the others.
const ELIMINATED: usize = 0;

impl Circuit {
    /// Value elimination under the propagators level (not Régin's matching).
    fn values_only(&self, pruning: Pruning) -> bool {
        !self.domain && pruning == Pruning::Propagators
    }

    /// Every fixed successor not yet eliminated leaves the others, to a
    /// fixpoint.
    fn eliminate_new(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        loop {
            let mut progress = false;
            for (i, &x) in self.scope.iter().enumerate() {
                if ctx.state_bit(ELIMINATED, i) {
                    continue;
                }
                if let Some(v) = ctx.value(x) {
                    ctx.set_state_bit(ELIMINATED, i);
                    self.all_different.eliminate(ctx, i, i128::from(v))?;
                    progress = true;
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }
}

impl Constraint for Circuit {
    fn cost(&self) -> PropCost {
        PropCost::Expensive
    }

    /// Value elimination under the propagators level acts on fixed
    /// successors only (the first call, which every constraint gets, removes
    /// the values outside the nodes and the self-loops); Régin's matching
    /// needs every change.
    fn events(&self, _pos: usize) -> Events {
        if self.domain {
            Events::DOMAIN
        } else {
            Events::FIXED
        }
    }

    fn state_layout(&self, pruning: Pruning) -> StateLayout {
        if self.values_only(pruning) {
            StateLayout::new().int(0).bits(self.scope.len(), false)
        } else {
            StateLayout::new()
        }
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        let n = v.len();
        let mut seen = vec![false; n];
        let mut at = 0;
        for _ in 0..n {
            if seen[at] {
                return false;
            }
            seen[at] = true;
            match self.node(v[at]) {
                Some(k) => at = k,
                None => return false,
            }
        }
        at == 0
    }

    fn name(&self) -> &str {
        "circuit"
    }

    fn promising(&self, d: &Domains) -> bool {
        if self
            .scope
            .iter()
            .any(|&x| d.value(x).is_some_and(|v| self.node(v).is_none()))
        {
            return false;
        }
        let Ok(succ) = self.fixed_successors(d) else {
            return false;
        };
        if succ.iter().all(Option::is_some) {
            let values: SmallVec<[Value; 16]> = self.scope.iter().map(|&x| d.min(x)).collect();
            return self.check(&values);
        }
        self.chains(&succ).is_ok()
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let n = self.scope.len();
        let size = |ctx: &PropagationContext<'_>| -> usize {
            self.scope.iter().map(|&x| ctx.len(x)).sum()
        };
        let before = size(ctx);
        let values_only = self.values_only(ctx.pruning());
        if !values_only || ctx.state_int(READY) == 0 {
            for (i, &x) in self.scope.iter().enumerate() {
                ctx.note_revision();
                ctx.retain(x, |_, v| self.node(v).is_some_and(|k| n == 1 || k != i))?;
            }
            if values_only {
                ctx.set_state_int(READY, 1);
            }
        }
        loop {
            let round = size(ctx);
            let succ = self
                .fixed_successors(ctx.domains())
                .map_err(|()| Conflict::infeasible())?;
            if succ.iter().any(Option::is_none) {
                let chains = self.chains(&succ).map_err(|()| Conflict::infeasible())?;
                for (start, end, len) in chains {
                    let Ok(back) = Value::try_from(i128::from(self.offset) + start as i128) else {
                        return Err(Conflict::infeasible());
                    };
                    ctx.note_revision();
                    if len < n {
                        ctx.remove(self.scope[end], back)?;
                    } else {
                        // The chain holds every node: its end closes the circuit.
                        ctx.fix(self.scope[end], back)?;
                    }
                }
            }
            if values_only {
                self.eliminate_new(ctx)?;
            } else {
                self.all_different.propagate_embedded(ctx)?;
            }
            if size(ctx) == round {
                break;
            }
        }
        finish(self, ctx, size(ctx) != before)
    }
}

impl Model {
    /// `successors` form one circuit through all nodes, numbered from 0 (see
    /// [`Circuit`]).
    ///
    /// Fails if the list is empty or on a variable of another model.
    pub fn circuit(&mut self, successors: &[VarId]) -> Result<ConstraintId, CspError> {
        self.post(Circuit::new(successors))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Model, Pruning, Solver};

    #[test]
    fn a_chain_may_not_close_early() {
        let mut m = Model::new();
        let next = m.int_var_array("next", 4, 0..=3).unwrap();
        m.linear(&[1], &[next[0]], crate::Relation::Eq, 1).unwrap();
        m.linear(&[1], &[next[1]], crate::Relation::Eq, 2).unwrap();
        m.circuit(&next).unwrap();
        let s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Propagators)).unwrap();
        // 0 -> 1 -> 2: node 2 goes to 3 (not back to 0), and 3 closes to 0.
        assert_eq!(s.domains().value(next[2]), Some(3));
        assert_eq!(s.domains().value(next[3]), Some(0));
    }

    #[test]
    fn value_elimination_by_default_and_matching_with_domain() {
        // Nodes 0 and 1 both go to 2 or 3 (a Hall set): only the matching
        // sees that 2 and 3 must leave the others.
        let hall = |domain: bool| {
            let mut m = Model::new();
            let doms: [&[i64]; 4] = [&[2, 3], &[2, 3], &[0, 1, 2, 3], &[0, 1, 2, 3]];
            let next: Vec<_> = doms
                .iter()
                .map(|d| m.int_var(d.to_vec()).unwrap())
                .collect();
            let c = super::Circuit::new(&next);
            m.post(if domain { c.domain() } else { c }).unwrap();
            let config = Config::textbook().with_pruning(Pruning::Propagators);
            let mut s = Solver::new(&m, config).unwrap();
            let root: Vec<Vec<i64>> = next
                .iter()
                .map(|&x| s.domains().values(x).collect())
                .collect();
            (root, s.count().solutions)
        };
        let (values, n_values) = hall(false);
        let (domain, n_domain) = hall(true);
        // Self-loops go either way; 2 and 3 leave nodes 2 and 3 only with the matching.
        assert_eq!(values[2], vec![0, 1, 3]);
        assert_eq!(domain[2], vec![0, 1]);
        assert_eq!(domain[3], vec![0, 1]);
        // The same two circuits: 0 -> 2 -> 1 -> 3 -> 0 and 0 -> 3 -> 1 -> 2 -> 0.
        assert_eq!((n_values, n_domain), (2, 2));
    }

    /// Circuits over random domains, with a second constraint on the same
    /// successors so that fixings arrive in the middle of the search (the
    /// value circuit's trailed state): every level, with and without the
    /// matching, counts what brute force counts.
    #[test]
    fn random_circuits_count_what_brute_force_counts() {
        let mut seed = 0x00c1_4c17_u64;
        let mut next = |k: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % k
        };
        let mut with_circuits = 0;
        for round in 0..60 {
            let n = 3 + next(3) as usize;
            let doms: Vec<Vec<i64>> = (0..n)
                .map(|_| {
                    let d: Vec<i64> = (0..n as i64).filter(|_| next(4) != 0).collect();
                    if d.is_empty() { vec![0] } else { d }
                })
                .collect();
            let (a, b) = (next(n as u64) as usize, next(n as u64) as usize);
            for domain in [false, true] {
                let mut m = Model::new();
                let xs: Vec<_> = doms.iter().map(|d| m.int_var(d.clone()).unwrap()).collect();
                let c = super::Circuit::new(&xs);
                m.post(if domain { c.domain() } else { c }).unwrap();
                if a != b {
                    m.less_than(xs[a], xs[b]).unwrap();
                }
                let mut want = 0;
                let mut at = vec![0usize; n];
                'all: loop {
                    let values: Vec<i64> = (0..n).map(|i| doms[i][at[i]]).collect();
                    want += u64::from(m.is_solution(&values));
                    for i in 0..n {
                        at[i] += 1;
                        if at[i] < doms[i].len() {
                            continue 'all;
                        }
                        at[i] = 0;
                    }
                    break;
                }
                with_circuits += usize::from(want > 0);
                for pruning in Pruning::ALL {
                    let config = Config::textbook()
                        .with_pruning(pruning)
                        .with_var_order(crate::VarOrder::FirstFail);
                    let got = Solver::new(&m, config).unwrap().count();
                    assert!(got.is_complete());
                    assert_eq!(
                        got.solutions, want,
                        "round {round} {pruning} domain {domain}"
                    );
                }
            }
        }
        assert!(
            with_circuits > 40,
            "only {with_circuits} models had a circuit"
        );
    }
}
