//! The evaluators: how each posted constraint counts its violations and
//! which values would repair it, incrementally.

use std::collections::HashMap;

use csp_core::rng::SplitMix64;
use csp_core::{CspError, Domain, Relation, Value};

/// One occurrence of a variable in a constraint, with what its evaluation needs.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Occ {
    /// In all-different `c`, shifted by `offset`.
    AllDiff { c: u32, offset: Value },
    /// `x != other + offset` (`first`) or `other != x + offset`.
    NotEqual {
        other: u32,
        offset: Value,
        first: bool,
    },
    /// In linear `c` with coefficient `coef`.
    Linear { c: u32, coef: Value },
    /// Re-checked on its scope.
    Check { c: u32 },
}

/// The incremental state of one constraint.
pub(crate) enum Eval {
    AllDiff(Counter),
    Linear {
        sum: i128,
        relation: Relation,
        rhs: i128,
    },
    Check,
}

/// The variables on one shifted value of an all-different: how many, and the
/// XOR of their indices (which names the variable when there is one).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Slot {
    pub(crate) count: u32,
    pub(crate) xor: u32,
}

/// The values of a dense counter that no variable takes, as a sparse set:
/// `values`, and each value's position in it (`u32::MAX` if taken).
pub(crate) struct FreeList {
    pub(crate) values: Vec<u32>,
    pub(crate) pos: Vec<u32>,
}

/// The [`Slot`] of every shifted value of an all-different.
pub(crate) enum Counter {
    /// Shifted values `base..base + slots.len()`. When fewer than a third of
    /// them can be free (the range barely wider than the scope, like the columns
    /// of N-Queens) the free ones are also listed: a free value there is a
    /// strong candidate, drawn in O(1). A looser counter (the diagonals) keeps
    /// no list: a sampled value is often free anyway, and the upkeep would cost
    /// a cache miss or two per move.
    Dense {
        base: i128,
        slots: Vec<Slot>,
        free: Option<FreeList>,
    },
    /// Shifted ranges too wide for an array.
    Sparse(HashMap<i128, Slot>),
}

impl Counter {
    pub(crate) fn new(lo: i128, hi: i128, scope_len: usize) -> Self {
        let width = hi - lo + 1;
        let dense_limit = (8 * scope_len as i128).clamp(1 << 12, 1 << 28);
        if width > dense_limit {
            return Counter::Sparse(HashMap::new());
        }
        let w = width as u32;
        let tight = 2 * width < 3 * scope_len as i128;
        Counter::Dense {
            base: lo,
            slots: vec![Slot::default(); w as usize],
            free: tight.then(|| FreeList {
                values: (0..w).collect(),
                pos: (0..w).collect(),
            }),
        }
    }

    /// How many variables take shifted value `s`.
    #[inline]
    pub(crate) fn count(&self, s: i128) -> u32 {
        match self {
            Counter::Dense { base, slots, .. } => usize::try_from(s - base)
                .ok()
                .and_then(|i| slots.get(i))
                .map_or(0, |slot| slot.count),
            Counter::Sparse(map) => map.get(&s).map_or(0, |slot| slot.count),
        }
    }

    /// The variable that alone takes shifted value `s`, if exactly one does.
    #[inline]
    pub(crate) fn lone(&self, s: i128) -> Option<usize> {
        let slot = match self {
            Counter::Dense { base, slots, .. } => *slots.get(usize::try_from(s - base).ok()?)?,
            Counter::Sparse(map) => *map.get(&s)?,
        };
        (slot.count == 1).then_some(slot.xor as usize)
    }

    /// Variable `x` takes shifted value `s`.
    #[inline]
    pub(crate) fn inc(&mut self, s: i128, x: u32) {
        match self {
            Counter::Dense { base, slots, free } => {
                // In range: shifted values come from the declared domains.
                let i = (s - *base) as usize;
                let slot = &mut slots[i];
                slot.count += 1;
                slot.xor ^= x;
                if slot.count == 1
                    && let Some(free) = free
                {
                    let p = free.pos[i] as usize;
                    free.pos[i] = u32::MAX;
                    free.values.swap_remove(p);
                    if let Some(&moved) = free.values.get(p) {
                        free.pos[moved as usize] = p as u32;
                    }
                }
            }
            Counter::Sparse(map) => {
                let slot = map.entry(s).or_default();
                slot.count += 1;
                slot.xor ^= x;
            }
        }
    }

    /// Variable `x` leaves shifted value `s`.
    #[inline]
    pub(crate) fn dec(&mut self, s: i128, x: u32) {
        match self {
            Counter::Dense { base, slots, free } => {
                let i = (s - *base) as usize;
                let slot = &mut slots[i];
                slot.count -= 1;
                slot.xor ^= x;
                if slot.count == 0
                    && let Some(free) = free
                {
                    free.pos[i] = free.values.len() as u32;
                    free.values.push(i as u32);
                }
            }
            Counter::Sparse(map) => {
                if let Some(slot) = map.get_mut(&s) {
                    slot.count -= 1;
                    slot.xor ^= x;
                    if slot.count == 0 {
                        map.remove(&s);
                    }
                }
            }
        }
    }

    /// A random shifted value no variable takes, if this counter lists them.
    #[inline]
    pub(crate) fn random_free(&self, rng: &mut SplitMix64) -> Option<i128> {
        match self {
            Counter::Dense {
                base,
                free: Some(free),
                ..
            } if !free.values.is_empty() => {
                let i = free.values[rng.below(free.values.len() as u64) as usize];
                Some(base + i128::from(i))
            }
            _ => None,
        }
    }

    /// Pairs of variables with equal shifted values.
    pub(crate) fn pairs(&self) -> u128 {
        let pairs = |s: &Slot| u128::from(s.count) * u128::from(s.count.saturating_sub(1)) / 2;
        match self {
            Counter::Dense { slots, .. } => slots.iter().map(pairs).sum(),
            Counter::Sparse(map) => map.values().map(pairs).sum(),
        }
    }
}

/// An error for a bug in this module (never a wrong solution instead).
pub(crate) fn internal(what: &str) -> CspError {
    CspError::InvalidArgument {
        context: "min-conflicts".into(),
        message: format!("internal error: {what}"),
    }
}

pub(crate) fn linear_violation(sum: i128, relation: Relation, rhs: i128) -> u128 {
    let d = match relation {
        Relation::Eq => (sum - rhs).abs(),
        Relation::Ne => i128::from(sum == rhs),
        Relation::Le => (sum - rhs).max(0),
        Relation::Lt => (sum - rhs + 1).max(0),
        Relation::Ge => (rhs - sum).max(0),
        Relation::Gt => (rhs - sum + 1).max(0),
    };
    d as u128
}

pub(crate) fn sample(domain: &Domain, rng: &mut SplitMix64) -> Value {
    match domain {
        Domain::Range(lo, hi) => {
            let width = (i128::from(*hi) - i128::from(*lo) + 1) as u64;
            (i128::from(*lo) + i128::from(rng.below(width))) as Value
        }
        Domain::Set(values) => values[rng.below(values.len() as u64) as usize],
    }
}

/// The best value seen so far, with reservoir sampling among ties.
#[derive(Default)]
pub(crate) struct Best {
    pub(crate) value: Option<(Value, u128)>,
    pub(crate) ties: u64,
}

impl Best {
    #[inline]
    pub(crate) fn offer(&mut self, v: Value, cost: u128, rng: &mut SplitMix64) {
        match self.value {
            Some((_, b)) if cost > b => {}
            Some((_, b)) if cost == b => {
                self.ties += 1;
                if rng.below(self.ties) == 0 {
                    self.value = Some((v, cost));
                }
            }
            _ => {
                self.value = Some((v, cost));
                self.ties = 1;
            }
        }
    }
}
