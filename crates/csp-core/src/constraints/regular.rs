//! Regular: a sequence of variables spells a word accepted by a finite automaton.

use crate::constraint::{Conflict, PropCost, Propagation};
use crate::constraints::global_cardinality::finish;
use crate::{Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Value, VarId};

/// A finite automaton over integer symbols: states `0..states`, a start state,
/// accepting states, and labelled transitions `(from, symbol, to)`.
///
/// Several transitions may leave a state on the same symbol (a nondeterministic
/// automaton); a word is accepted when some path spelling it ends in an
/// accepting state. A missing transition rejects.
///
/// ```
/// use csp_core::constraints::Automaton;
/// // Words over {0, 1} with no two 1s in a row: state 1 = "just read a 1".
/// let a = Automaton::new(2, 0, &[0, 1], &[(0, 0, 0), (0, 1, 1), (1, 0, 0)])?;
/// assert!(a.accepts(&[1, 0, 1]));
/// assert!(!a.accepts(&[0, 1, 1]));
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    start: usize,
    accepting: Vec<bool>,
    /// Per state: the transitions leaving it, as `(symbol, to)`.
    out: Vec<Vec<(Value, usize)>>,
}

impl Automaton {
    /// An automaton with `states` states. Fails if `states` is 0 or a state
    /// number (start, accepting or in a transition) is not below `states`.
    pub fn new(
        states: usize,
        start: usize,
        accepting: &[usize],
        transitions: &[(usize, Value, usize)],
    ) -> Result<Self, CspError> {
        let bad = |what: String| CspError::InvalidArgument {
            context: "automaton".into(),
            message: what,
        };
        if states == 0 {
            return Err(bad("an automaton needs at least one state".into()));
        }
        let check = |s: usize, what: &str| {
            if s < states {
                Ok(())
            } else {
                Err(bad(format!("{what} state {s} is not below {states}")))
            }
        };
        check(start, "the start")?;
        let mut acc = vec![false; states];
        for &s in accepting {
            check(s, "accepting")?;
            acc[s] = true;
        }
        let mut out = vec![Vec::new(); states];
        for &(from, symbol, to) in transitions {
            check(from, "a transition's")?;
            check(to, "a transition's")?;
            if !out[from].contains(&(symbol, to)) {
                out[from].push((symbol, to));
            }
        }
        Ok(Automaton {
            start,
            accepting: acc,
            out,
        })
    }

    /// The number of states.
    pub fn states(&self) -> usize {
        self.out.len()
    }

    /// Whether the automaton accepts `word`.
    pub fn accepts(&self, word: &[Value]) -> bool {
        let mut now = vec![false; self.states()];
        now[self.start] = true;
        for &symbol in word {
            let mut next = vec![false; self.states()];
            for (q, _) in now.iter().enumerate().filter(|(_, on)| **on) {
                for &(s, to) in &self.out[q] {
                    if s == symbol {
                        next[to] = true;
                    }
                }
            }
            now = next;
        }
        now.iter().zip(&self.accepting).any(|(&on, &acc)| on && acc)
    }

    /// The states reachable at each position `0..=n` reading symbols from the
    /// domains of `vars`.
    fn forward(&self, vars: &[VarId], d: &Domains) -> Vec<Vec<bool>> {
        let mut layers = Vec::with_capacity(vars.len() + 1);
        let mut now = vec![false; self.states()];
        now[self.start] = true;
        for &x in vars {
            let mut next = vec![false; self.states()];
            for (q, _) in now.iter().enumerate().filter(|(_, on)| **on) {
                for &(s, to) in &self.out[q] {
                    if d.contains(x, s) {
                        next[to] = true;
                    }
                }
            }
            layers.push(now);
            now = next;
        }
        layers.push(now);
        layers
    }
}

/// `vars` spells a word the [`Automaton`] accepts.
///
/// Filtering (every level): the layered graph of Pesant's algorithm: the states
/// reachable from the start at each position, those that can still reach an
/// accepting state at the end, and for each variable only the symbols on a
/// transition between two such states (generalised arc consistency when no
/// variable repeats). `promising` asks whether an accepting state is reachable.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// use csp_core::constraints::Automaton;
/// let a = Automaton::new(2, 0, &[0, 1], &[(0, 0, 0), (0, 1, 1), (1, 0, 0)])?;
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 4, 0..=1)?;
/// m.regular(&xs, &a)?;
/// // Binary words of length 4 without "11": Fibonacci(6) = 8.
/// assert_eq!(Solver::new(&m, Config::default())?.count().solutions, 8);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regular {
    scope: Vec<VarId>,
    automaton: Automaton,
}

impl Regular {
    /// `vars` spells a word `automaton` accepts.
    pub fn new(vars: &[VarId], automaton: &Automaton) -> Self {
        Regular {
            scope: vars.to_vec(),
            automaton: automaton.clone(),
        }
    }
}

impl Constraint for Regular {
    fn cost(&self) -> PropCost {
        PropCost::Expensive
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        self.automaton.accepts(v)
    }

    fn name(&self) -> &str {
        "regular"
    }

    fn promising(&self, d: &Domains) -> bool {
        let layers = self.automaton.forward(&self.scope, d);
        let last = &layers[self.scope.len()];
        last.iter()
            .zip(&self.automaton.accepting)
            .any(|(&on, &acc)| on && acc)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let a = &self.automaton;
        let n = self.scope.len();
        let forward = a.forward(&self.scope, ctx.domains());
        // Backward: states at position i on a path to acceptance.
        let mut alive: Vec<Vec<bool>> = vec![Vec::new(); n + 1];
        alive[n] = forward[n]
            .iter()
            .zip(&a.accepting)
            .map(|(&on, &acc)| on && acc)
            .collect();
        // Per position: the symbols on a transition between live states.
        let mut symbols: Vec<Vec<Value>> = vec![Vec::new(); n];
        for i in (0..n).rev() {
            let x = self.scope[i];
            let mut live = vec![false; a.states()];
            for q in (0..a.states()).filter(|&q| forward[i][q]) {
                for &(s, to) in &a.out[q] {
                    if alive[i + 1][to] && ctx.contains(x, s) {
                        live[q] = true;
                        symbols[i].push(s);
                    }
                }
            }
            alive[i] = live;
        }
        if !alive[0][a.start] {
            return Err(Conflict::infeasible());
        }
        let mut changed = false;
        for (i, &x) in self.scope.iter().enumerate() {
            ctx.note_revision();
            let keep = &symbols[i];
            changed |= ctx.retain(x, |_, v| keep.contains(&v))?;
        }
        finish(self, ctx, changed)
    }
}

impl Model {
    /// `vars` spells a word accepted by `automaton` (see [`Regular`]).
    ///
    /// Fails if `vars` is empty or on a variable of another model.
    pub fn regular(
        &mut self,
        vars: &[VarId],
        automaton: &Automaton,
    ) -> Result<ConstraintId, CspError> {
        self.post(Regular::new(vars, automaton))
    }
}

#[cfg(test)]
mod tests {
    use super::Automaton;

    #[test]
    fn bad_states_are_refused() {
        assert!(Automaton::new(0, 0, &[], &[]).is_err());
        assert!(Automaton::new(2, 2, &[], &[]).is_err());
        assert!(Automaton::new(2, 0, &[3], &[]).is_err());
        assert!(Automaton::new(2, 0, &[1], &[(0, 5, 2)]).is_err());
    }

    #[test]
    fn nondeterminism_accepts_if_some_path_does() {
        // Words ending in 1: guess the last symbol.
        let a = Automaton::new(2, 0, &[1], &[(0, 0, 0), (0, 1, 0), (0, 1, 1)]).unwrap();
        assert!(a.accepts(&[0, 0, 1]));
        assert!(!a.accepts(&[1, 0]));
        assert!(!a.accepts(&[]));
    }
}
