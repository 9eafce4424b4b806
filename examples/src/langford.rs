//! Langford pairings: 1,1,2,2,...,n,n in a row with k numbers between the two k's.

use csp_core::{CspError, Model, Value, VarId};

/// The model of Langford's problem `L(2, n)`: a position variable `p_k` for the
/// first `k`; the second is at `p_k + k + 1`. All `2n` positions differ, which is
/// one all-different *with offsets* over the list `p_1..p_n, p_1..p_n` with
/// offsets `0, ..., 0, 2, ..., n + 1`: each variable appears twice in the scope.
///
/// A sequence and its mirror image are different sequences; the counts below
/// count both (OEIS A176127), and `mirror_free` halves them by putting the first
/// `1` in the left half, which no sequence and its mirror both do. Solutions exist
/// only when `n ≡ 0` or `3 (mod 4)`.
///
/// | n | 3 | 4 | 7 | 8 | 11 | 12 |
/// |---|---|---|---|---|---|---|
/// | sequences | 2 | 2 | 52 | 300 | 35,584 | 216,288 |
///
/// ```
/// use csp_core::{Config, Solver};
/// use csp_examples::langford::Langford;
/// let l = Langford::new(3, false)?;
/// let mut all: Vec<String> = Solver::new(&l.model, Config::textbook())?
///     .solutions()
///     .map(|s| l.show(s.values()))
///     .collect();
/// all.sort();
/// assert_eq!(all, ["2 3 1 2 1 3", "3 1 2 1 3 2"]);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Debug)]
pub struct Langford {
    /// The model.
    pub model: Model,
    /// `first[k - 1]`: the position (from 0) of the first `k`.
    pub first: Vec<VarId>,
}

impl Langford {
    /// The model for `n` pairs (at least 1); `mirror_free` keeps one of each
    /// mirror pair.
    pub fn new(n: usize, mirror_free: bool) -> Result<Self, CspError> {
        if n == 0 || n > 10_000 {
            return Err(CspError::InvalidArgument {
                context: "langford".into(),
                message: format!("{n} pairs is not between 1 and 10000"),
            });
        }
        let mut model = Model::new();
        let len = 2 * n as Value;
        let mut first = Vec::with_capacity(n);
        for k in 1..=n as Value {
            // The second k, at p + k + 1, must fit: p <= 2n - k - 2.
            let mut last = len - k - 2;
            if mirror_free && k == 1 {
                // Mirroring sends the 1s at (p, p + 2) to (2n - 3 - p, 2n - 1 - p).
                last = last.min(n as Value - 2);
            }
            if last < 0 {
                return Err(CspError::InvalidArgument {
                    context: "langford".into(),
                    message: format!("no room for the pair of {k}s among {len} positions"),
                });
            }
            first.push(model.named_int_var(format!("p{k}"), 0..=last)?);
        }
        let scope: Vec<VarId> = first.iter().chain(&first).copied().collect();
        let offsets: Vec<Value> = (0..n as Value)
            .map(|_| 0)
            .chain((1..=n as Value).map(|k| k + 1))
            .collect();
        model.all_different_offsets(&scope, &offsets)?;
        Ok(Langford { model, first })
    }

    /// The sequence of a solution's `values`.
    pub fn sequence(&self, values: &[Value]) -> Vec<Value> {
        let mut seq = vec![0; 2 * self.first.len()];
        for (k, p) in self.first.iter().enumerate() {
            let pos = usize::try_from(values[p.index()]).unwrap_or(0);
            let k = k + 1;
            if let Some(slot) = seq.get_mut(pos) {
                *slot = k as Value;
            }
            if let Some(slot) = seq.get_mut(pos + k + 1) {
                *slot = k as Value;
            }
        }
        seq
    }

    /// The sequence as text: `2 3 1 2 1 3`.
    pub fn show(&self, values: &[Value]) -> String {
        self.sequence(values)
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Whether `seq` is a Langford sequence: each `k` in `1..=n` twice, `k` apart.
pub fn is_langford(seq: &[Value]) -> bool {
    let n = seq.len() / 2;
    seq.len() % 2 == 0
        && (1..=n as Value).all(|k| {
            let at: Vec<usize> = (0..seq.len()).filter(|&i| seq[i] == k).collect();
            at.len() == 2 && at[1] - at[0] == k as usize + 1
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{Config, Pruning, Solver};

    #[test]
    fn mirror_free_keeps_one_of_each_pair() {
        let l = Langford::new(4, true).unwrap();
        let sols: Vec<_> = Solver::new(&l.model, Config::textbook())
            .unwrap()
            .solutions()
            .collect();
        assert_eq!(sols.len(), 1);
        let seq = l.sequence(sols[0].values());
        assert!(is_langford(&seq));
        assert_eq!(seq, [4, 1, 3, 1, 2, 4, 3, 2]);
    }

    #[test]
    fn one_pair_does_not_fit() {
        let e = Langford::new(1, false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "langford: no room for the pair of 1s among 2 positions"
        );
    }

    #[test]
    fn no_solution_when_n_is_1_or_2_mod_4() {
        for n in [2, 5, 6] {
            let l = Langford::new(n, false).unwrap();
            let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
            let r = Solver::new(&l.model, config).unwrap().count();
            assert_eq!((r.solutions, r.is_complete()), (0, true), "n = {n}");
        }
    }
}
