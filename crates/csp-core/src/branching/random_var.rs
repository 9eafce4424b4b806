//! `RandomVar`: a uniformly random undecided variable, from a seed.

use super::{SearchView, VariableSelector};
use crate::VarId;
use crate::rng::SplitMix64;

/// Picks an undecided variable uniformly at random. The same seed gives the same
/// search.
#[derive(Clone, Debug)]
pub struct RandomVar {
    rng: SplitMix64,
}

impl RandomVar {
    /// A selector seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomVar {
            rng: SplitMix64::new(seed),
        }
    }
}

impl VariableSelector for RandomVar {
    fn select(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        let open = view.undecided().count() as u64;
        if open == 0 {
            return None;
        }
        let k = self.rng.below(open) as usize;
        view.undecided().nth(k)
    }

    fn name(&self) -> &str {
        "random"
    }

    fn reads_afc(&self) -> bool {
        false
    }
}
