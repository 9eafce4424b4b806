//! `RandomValue`: the domain shuffled, from a seed.

use super::{ValueContext, ValueSelector};
use crate::rng::SplitMix64;
use crate::{Value, VarId};

/// Tries the values in a random order (Fisher-Yates shuffle). The same seed gives
/// the same search.
#[derive(Clone, Debug)]
pub struct RandomValue {
    rng: SplitMix64,
}

impl RandomValue {
    /// A selector seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomValue {
            rng: SplitMix64::new(seed),
        }
    }
}

impl ValueSelector for RandomValue {
    fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>) {
        let start = out.len();
        out.extend(ctx.domains().values(var));
        let slice = &mut out[start..];
        for i in (1..slice.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            slice.swap(i, j);
        }
    }

    fn name(&self) -> &str {
        "random"
    }
}
