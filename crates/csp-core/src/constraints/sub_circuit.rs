//! Sub-circuit: successor variables where the nodes not pointing to
//! themselves form one circuit of at least two nodes (XCSP3's `circuit`).

use crate::constraint::{Conflict, PropCost, PropStatus, Propagation};
use crate::{Constraint, Domains, PropagationContext, Value, VarId};

/// `successors[i]` is the node after node `i`, nodes numbered from `offset`;
/// `successors[i] = offset + i` leaves node `i` out. The nodes left in form a
/// single circuit of at least two nodes, so the successors are all different.
///
/// Filtering (every level): a fixed successor that is another node's fixed
/// successor, or a closed circuit, fail at once; once the fixed successors
/// close a circuit, every other node is left out (its self-loop is its only
/// value). Post [`Model::all_different`](crate::Model::all_different) beside
/// it for stronger value filtering.
///
/// ```
/// use csp_core::{Config, Model, Solver, constraints::SubCircuit};
/// let mut m = Model::new();
/// let next = m.int_var_array("next", 3, 0..=2)?;
/// m.post(SubCircuit::new(&next, 0))?;
/// // Three 2-cycles and two 3-cycles.
/// assert_eq!(Solver::new(&m, Config::default())?.count().solutions, 5);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SubCircuit {
    scope: Vec<VarId>,
    offset: Value,
}

impl SubCircuit {
    /// The constraint over `successors`, nodes numbered from `offset`.
    pub fn new(successors: &[VarId], offset: Value) -> Self {
        SubCircuit {
            scope: successors.to_vec(),
            offset,
        }
    }

    fn node(&self, v: Value) -> Option<usize> {
        let k = i128::from(v) - i128::from(self.offset);
        usize::try_from(k).ok().filter(|&k| k < self.scope.len())
    }

    /// The fixed successors (`None`: not fixed), or `Err` if two fixed
    /// successors coincide or one is out of range.
    fn fixed(&self, d: &Domains) -> Result<Vec<Option<usize>>, ()> {
        let n = self.scope.len();
        let mut taken = vec![false; n];
        let mut succ = vec![None; n];
        for (i, &x) in self.scope.iter().enumerate() {
            if let Some(v) = d.value(x) {
                let k = self.node(v).ok_or(())?;
                if k != i {
                    if taken[k] {
                        return Err(());
                    }
                    taken[k] = true;
                }
                succ[i] = Some(k);
            }
        }
        Ok(succ)
    }

    /// A closed circuit of fixed successors (its nodes), if any.
    fn closed_circuit(succ: &[Option<usize>]) -> Option<Vec<usize>> {
        let n = succ.len();
        for start in 0..n {
            if succ[start] == Some(start) || succ[start].is_none() {
                continue;
            }
            let mut on = vec![start];
            let mut k = succ[start];
            while let Some(next) = k {
                if next == start {
                    return Some(on);
                }
                if on.len() > n || on.contains(&next) {
                    break;
                }
                on.push(next);
                k = succ[next];
            }
        }
        None
    }
}

impl Constraint for SubCircuit {
    fn cost(&self) -> PropCost {
        PropCost::Expensive
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn name(&self) -> &str {
        "sub_circuit"
    }

    fn check(&self, v: &[Value]) -> bool {
        let n = v.len();
        let Some(succ) = v
            .iter()
            .map(|&x| self.node(x))
            .collect::<Option<Vec<usize>>>()
        else {
            return false;
        };
        let mut seen = vec![false; n];
        for &s in &succ {
            if seen[s] {
                return false;
            }
            seen[s] = true;
        }
        let on: Vec<usize> = (0..n).filter(|&i| succ[i] != i).collect();
        let Some(&first) = on.first() else {
            return false;
        };
        let (mut k, mut len) = (succ[first], 1);
        while k != first && len <= n {
            k = succ[k];
            len += 1;
        }
        len == on.len() && on.len() >= 2
    }

    fn promising(&self, d: &Domains) -> bool {
        let Ok(succ) = self.fixed(d) else {
            return false;
        };
        if let Some(on) = Self::closed_circuit(&succ) {
            // Every node off the circuit must be able to leave itself out.
            return (0..self.scope.len()).filter(|i| !on.contains(i)).all(|i| {
                let own = self.offset.checked_add(i as Value);
                own.is_some_and(|own| d.contains(self.scope[i], own))
            });
        }
        if succ.iter().all(Option::is_some) {
            // Everything fixed and no circuit: only self-loops, refused.
            return false;
        }
        true
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let d = ctx.domains();
        if !self.promising(d) {
            return Err(Conflict::infeasible());
        }
        let Ok(succ) = self.fixed(d) else {
            return Err(Conflict::infeasible());
        };
        let Some(on) = Self::closed_circuit(&succ) else {
            return Ok(PropStatus::Unchanged);
        };
        let mut changed = false;
        for i in (0..self.scope.len()).filter(|i| !on.contains(i)) {
            let own = self.offset + i as Value;
            changed |= ctx.retain(self.scope[i], |_, v| v == own)?;
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Entailed
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Model, Pruning, Solver};

    /// Counts by brute force over every assignment of `n` successors.
    fn brute(n: usize) -> u64 {
        let c = SubCircuit::new(&(0..n).map(VarId::new).collect::<Vec<_>>(), 0);
        let mut count = 0;
        let mut v = vec![0 as Value; n];
        loop {
            if c.check(&v) {
                count += 1;
            }
            let mut i = 0;
            while i < n {
                v[i] += 1;
                if v[i] < n as Value {
                    break;
                }
                v[i] = 0;
                i += 1;
            }
            if i == n {
                return count;
            }
        }
    }

    #[test]
    fn counts_match_brute_force_at_every_level() {
        for n in 1..=5 {
            let expected = brute(n);
            for pruning in [
                Pruning::None,
                Pruning::ForwardChecking,
                Pruning::Check,
                Pruning::ArcConsistency,
                Pruning::Propagators,
            ] {
                let mut m = Model::new();
                let next = m.int_var_array("next", n, 0..=(n as Value - 1)).unwrap();
                m.post(SubCircuit::new(&next, 0)).unwrap();
                let got = Solver::new(&m, Config::default().with_pruning(pruning))
                    .unwrap()
                    .count()
                    .solutions;
                assert_eq!(got, expected, "n = {n}, {pruning:?}");
            }
        }
        // Known values: the sub-circuit counts 0, 1, 5, 20, 84 for n = 1..5.
        assert_eq!(
            (1..=5).map(brute).collect::<Vec<_>>(),
            vec![0, 1, 5, 20, 84]
        );
    }

    #[test]
    fn offset_numbers_the_nodes() {
        let mut m = Model::new();
        let next = m.int_var_array("next", 3, 1..=3).unwrap();
        m.post(SubCircuit::new(&next, 1)).unwrap();
        assert_eq!(
            Solver::new(&m, Config::default())
                .unwrap()
                .count()
                .solutions,
            5
        );
    }
}
