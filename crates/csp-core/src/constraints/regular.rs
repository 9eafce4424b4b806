//! Regular: a sequence of variables spells a word accepted by a finite automaton.

mod layered;

use crate::constraint::{PropCost, Propagation};
use crate::constraints::global_cardinality::finish;
use crate::{
    Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Pruning, StateLayout,
    Value, VarId,
};

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
    /// The accepting states as a bit set.
    accepting_bits: Vec<u64>,
    /// Per state: the transitions leaving it, as `(symbol, to)`.
    out: Vec<Vec<(Value, usize)>>,
    /// Per state, beside `out`: each transition as `(symbol index, to)`, the
    /// symbol numbered in the sorted alphabet.
    out_k: Vec<Vec<(u32, u32)>>,
    /// Per state: the transitions entering it, as `(symbol index, from)`.
    into: Vec<Vec<(u32, u32)>>,
    /// Per symbol index: the transitions on that symbol, as `(from, to)`.
    by_symbol: Vec<Vec<(u32, u32)>>,
    /// The distinct symbols, sorted: symbol index `k` is `symbols[k]`.
    symbols: Vec<Value>,
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
        let mut alphabet: Vec<Value> = out.iter().flatten().map(|&(s, _)| s).collect();
        alphabet.sort_unstable();
        alphabet.dedup();
        let mut into = vec![Vec::new(); states];
        let mut by_symbol = vec![Vec::new(); alphabet.len()];
        let out_k: Vec<Vec<(u32, u32)>> = out
            .iter()
            .enumerate()
            .map(|(from, t)| {
                t.iter()
                    .map(|&(s, to)| {
                        let k = alphabet.binary_search(&s).unwrap_or(0) as u32;
                        into[to].push((k, from as u32));
                        by_symbol[k as usize].push((from as u32, to as u32));
                        (k, to as u32)
                    })
                    .collect()
            })
            .collect();
        let mut accepting_bits = vec![0u64; states.div_ceil(64)];
        for (q, _) in acc.iter().enumerate().filter(|(_, a)| **a) {
            accepting_bits[q / 64] |= 1 << (q % 64);
        }
        Ok(Automaton {
            start,
            accepting: acc,
            accepting_bits,
            out,
            out_k,
            into,
            by_symbol,
            symbols: alphabet,
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

    /// Words of a state set.
    fn words(&self) -> usize {
        self.states().div_ceil(64)
    }

    /// Fills `layers` with the states reachable at each position `0..=n`
    /// reading symbols from the domains of `vars` (`words()` words a layer).
    fn forward(&self, vars: &[VarId], d: &Domains, layers: &mut Vec<u64>) {
        let w = self.words();
        layers.clear();
        layers.resize((vars.len() + 1) * w, 0);
        layers[self.start / 64] |= 1 << (self.start % 64);
        for (i, &x) in vars.iter().enumerate() {
            let (now, next) = layers[i * w..(i + 2) * w].split_at_mut(w);
            for (k, &word) in now.iter().enumerate() {
                let mut live = word;
                while live != 0 {
                    let q = k * 64 + live.trailing_zeros() as usize;
                    live &= live - 1;
                    for &(s, to) in &self.out[q] {
                        if d.contains(x, s) {
                            next[to / 64] |= 1 << (to % 64);
                        }
                    }
                }
            }
        }
    }

    /// Whether some accepting state is set in `layer`.
    fn accepts_some(&self, layer: &[u64]) -> bool {
        layer
            .iter()
            .zip(&self.accepting_bits)
            .any(|(&a, &b)| a & b != 0)
    }
}

/// `vars` spells a word the [`Automaton`] accepts.
///
/// Filtering (every level): the layered graph of Pesant's algorithm, kept
/// between calls. Layer `i` holds the states on some path from the start to an
/// accepting state after `i` symbols, reading each position's symbols from
/// its domain; a variable keeps only the symbols on an edge between two
/// layers (generalised arc consistency when no variable repeats). The first
/// call builds the graph (forward reachability, then backward); later calls
/// take out the edges of the symbols that left a domain and the states left
/// without an edge in or out, forward and backward, as far as the loss
/// spreads (see the `layered` module). The graph lives in the solver's
/// [`TrailedState`](crate::TrailedState), so backtracking restores it.
/// `promising` asks whether an accepting state is reachable.
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// use csp_core::constraints::Automaton;
/// let a = Automaton::new(2, 0, &[0, 1], &[(0, 0, 0), (0, 1, 1), (1, 0, 0)])?;
/// let mut m = Model::new();
/// let xs = m.int_var_array("x", 4, 0..=1)?;
/// m.regular(&xs, &a)?;
/// // Binary words of length 4 without "11": Fibonacci(6) = 8.
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 8);
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
        let a = &self.automaton;
        layered::with_scratch(|s| {
            a.forward(&self.scope, d, &mut s.layers);
            let n = self.scope.len();
            a.accepts_some(&s.layers[n * a.words()..])
        })
    }

    fn state_layout(&self, _: Pruning) -> StateLayout {
        layered::layout(&self.automaton, self.scope.len())
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let changed = layered::propagate(&self.automaton, &self.scope, ctx)?;
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
