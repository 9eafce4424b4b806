//! What a move costs: the violations a value would cause, and the best value.

use csp_core::{Constraint, Domain, Posted, Relation, Value};

use super::Search;
use crate::eval::*;

impl Search<'_> {
    /// The violation of the constraints on `x` if `x` took `v`, the others keeping
    /// their values. During the greedy start (`placing`) only variables with a
    /// smaller index are placed, and `x` is not counted in any all-different.
    pub(super) fn cost(&mut self, x: usize, v: Value, placing: bool) -> u128 {
        self.cost_but(x, v, placing, usize::MAX)
    }

    /// [`cost`](Self::cost), leaving out occurrence `known_free` (an
    /// all-different where `v` is known to be free: one cache miss less).
    #[inline]
    pub(super) fn cost_but(
        &mut self,
        x: usize,
        v: Value,
        placing: bool,
        known_free: usize,
    ) -> u128 {
        let mut total: u128 = 0;
        for k in self.occ_start[x]..self.occ_start[x + 1] {
            if k != known_free {
                total = total.saturating_add(self.occ_cost(k, x, v, placing));
            }
        }
        total
    }

    /// The violation of the constraint at occurrence `k` (of variable `x`) if
    /// `x` took `v`; while placing, 0 for a constraint not yet complete.
    #[inline]
    pub(super) fn occ_cost(&mut self, k: usize, x: usize, v: Value, placing: bool) -> u128 {
        let current = self.values[x];
        match self.occ[k] {
            Occ::AllDiff { c, offset } => {
                let Eval::AllDiff(counter) = &self.evals[c as usize] else {
                    return 0;
                };
                let k = counter.count(i128::from(v) + i128::from(offset));
                u128::from(if !placing && v == current {
                    k.saturating_sub(1)
                } else {
                    k
                })
            }
            Occ::NotEqual {
                other,
                offset,
                first,
            } => {
                if placing && other as usize > x {
                    return 0;
                }
                let w = i128::from(self.values[other as usize]);
                let (a, b) = if first {
                    (i128::from(v), w)
                } else {
                    (w, i128::from(v))
                };
                u128::from(a == b + i128::from(offset))
            }
            Occ::Linear { c, coef } => {
                let c = c as usize;
                let Eval::Linear { sum, relation, rhs } = self.evals[c] else {
                    return 0;
                };
                let sum = if placing {
                    if self.last[c] as usize != x {
                        return 0;
                    }
                    self.scope_values(c, x, v);
                    let Posted::Linear(l) = &self.posted[c] else {
                        return 0;
                    };
                    l.coeffs()
                        .iter()
                        .zip(&self.scratch)
                        .map(|(&a, &w)| i128::from(a) * i128::from(w))
                        .sum()
                } else {
                    sum + i128::from(coef) * (i128::from(v) - i128::from(current))
                };
                linear_violation(sum, relation, rhs)
            }
            Occ::Check { c } => {
                let c = c as usize;
                if placing && self.last[c] as usize != x {
                    return 0;
                }
                self.scope_values(c, x, v);
                u128::from(!self.posted[c].check(&self.scratch))
            }
        }
    }

    /// A random free value for `x` of the all-different at occurrence `k`, if
    /// that is an all-different listing its free values and the value is in
    /// `x`'s domain.
    #[inline]
    pub(super) fn free_value(&mut self, x: usize, k: usize) -> Option<Value> {
        let Occ::AllDiff { c, offset } = self.occ[k] else {
            return None;
        };
        let Eval::AllDiff(counter) = &self.evals[c as usize] else {
            return None;
        };
        let s = counter.random_free(&mut self.rng)?;
        let v = Value::try_from(s - i128::from(offset)).ok()?;
        self.domains[x].contains(v).then_some(v)
    }

    /// The value of least cost for `x` (ties broken at random), with its cost,
    /// `skip` left out. A domain of at most `candidates` values is scanned whole;
    /// from a larger one come first the values that meet each linear constraint
    /// on `x`, then `candidates` rounds of one free value per tight
    /// all-different on `x` and one sampled value, stopping at the first value
    /// of cost 0.
    pub(super) fn choose(
        &mut self,
        x: usize,
        placing: bool,
        skip: Option<Value>,
    ) -> Option<(Value, u128)> {
        let domain = self.domains[x];
        let wanted = self.settings.candidates;
        let mut best = Best::default();
        if domain.len() <= wanted as u128 {
            let offer = |s: &mut Self, best: &mut Best, v: Value| {
                if Some(v) != skip {
                    let c = s.cost(x, v, placing);
                    best.offer(v, c, &mut s.rng);
                }
            };
            match domain {
                Domain::Range(lo, hi) => (*lo..=*hi).for_each(|v| offer(self, &mut best, v)),
                Domain::Set(values) => values.iter().for_each(|&v| offer(self, &mut best, v)),
            }
            return best.value;
        }
        let (from, to) = (self.occ_start[x], self.occ_start[x + 1]);
        // The values that bring each linear constraint on `x` to its bound.
        for k in from..to {
            for v in self.linear_targets(x, k, placing).into_iter().flatten() {
                if self.try_value(&mut best, x, v, placing, skip, usize::MAX) {
                    return best.value;
                }
            }
        }
        for _ in 0..wanted {
            for k in from..to {
                if let Some(v) = self.free_value(x, k)
                    && self.try_value(&mut best, x, v, placing, skip, k)
                {
                    return best.value;
                }
            }
            let v = sample(domain, &mut self.rng);
            if self.try_value(&mut best, x, v, placing, skip, usize::MAX) {
                return best.value;
            }
        }
        best.value
    }

    /// Offers `x = v` to `best` unless `v` is `skip`; whether its cost is 0.
    #[inline]
    pub(super) fn try_value(
        &mut self,
        best: &mut Best,
        x: usize,
        v: Value,
        placing: bool,
        skip: Option<Value>,
        known_free: usize,
    ) -> bool {
        if Some(v) == skip {
            return false;
        }
        let c = self.cost_but(x, v, placing, known_free);
        best.offer(v, c, &mut self.rng);
        c == 0
    }

    /// For a linear constraint at occurrence `k`, the two values of `x` (rounded
    /// down and up, within the domain's bounds) that bring the sum closest to
    /// the right-hand side, the other variables keeping their values. While
    /// placing, only if `x` is the last variable of the constraint.
    pub(super) fn linear_targets(
        &mut self,
        x: usize,
        k: usize,
        placing: bool,
    ) -> [Option<Value>; 2] {
        let Occ::Linear { c, coef } = self.occ[k] else {
            return [None; 2];
        };
        let c = c as usize;
        let Eval::Linear { sum, relation, rhs } = self.evals[c] else {
            return [None; 2];
        };
        let rhs = match relation {
            Relation::Lt => rhs - 1,
            Relation::Gt => rhs + 1,
            _ => rhs,
        };
        let a = i128::from(coef);
        if a == 0 {
            return [None; 2];
        }
        let rest = if placing {
            if self.last[c] as usize != x {
                return [None; 2];
            }
            self.scope_values(c, x, 0);
            let Posted::Linear(l) = &self.posted[c] else {
                return [None; 2];
            };
            l.coeffs()
                .iter()
                .zip(&self.scratch)
                .map(|(&a, &w)| i128::from(a) * i128::from(w))
                .sum()
        } else {
            sum - a * i128::from(self.values[x])
        };
        let (num, den) = if a > 0 {
            (rhs - rest, a)
        } else {
            (rest - rhs, -a)
        };
        let down = num.div_euclid(den);
        let up = down + i128::from(num.rem_euclid(den) != 0);
        let domain = self.domains[x];
        let Some((lo, hi)) = domain.bounds() else {
            return [None; 2];
        };
        let fit = |t: i128| {
            let v = t.clamp(i128::from(lo), i128::from(hi)) as Value;
            domain.contains(v).then_some(v)
        };
        [fit(down), if up == down { None } else { fit(up) }]
    }
}
