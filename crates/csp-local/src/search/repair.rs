//! Making a move and keeping the counts right; the main loop.

use std::time::Duration;

use csp_core::{Constraint, CspError, Posted, Value};

use super::{Search, Stop};
use crate::eval::*;
use crate::{LocalSearchResult, LocalSearchStatus};

impl Search<'_> {
    /// Moves `x` from its value to `v` (or, `placing`, gives it `v`), updating
    /// counts and sums. Every other variable this move puts in conflict becomes
    /// a suspect, so that the suspects always include every conflicted variable
    /// (`x` itself is the caller's business).
    pub(super) fn assign(&mut self, x: usize, v: Value, placing: bool) {
        let w = self.values[x];
        let xi = x as u32;
        let posted = self.posted;
        for k in self.occ_start[x]..self.occ_start[x + 1] {
            let occ = self.occ[k];
            match occ {
                Occ::AllDiff { c, offset } => {
                    let Eval::AllDiff(counter) = &mut self.evals[c as usize] else {
                        continue;
                    };
                    let to = i128::from(v) + i128::from(offset);
                    if !placing {
                        counter.dec(i128::from(w) + i128::from(offset), xi);
                    }
                    // A lone variable there is now in conflict; two or more
                    // already were.
                    let partner = counter.lone(to);
                    counter.inc(to, xi);
                    if let Some(y) = partner {
                        self.suspect(y);
                    }
                }
                Occ::NotEqual { other, .. } if placing && other as usize > x => {}
                Occ::NotEqual {
                    other,
                    offset,
                    first,
                } => {
                    let u = i128::from(self.values[other as usize]);
                    let (a, b) = if first {
                        (i128::from(v), u)
                    } else {
                        (u, i128::from(v))
                    };
                    if a == b + i128::from(offset) {
                        self.suspect(other as usize);
                    }
                }
                Occ::Linear { c, coef } if !placing => {
                    let Eval::Linear { sum, relation, rhs } = &mut self.evals[c as usize] else {
                        continue;
                    };
                    let was = linear_violation(*sum, *relation, *rhs);
                    *sum += i128::from(coef) * (i128::from(v) - i128::from(w));
                    if was == 0 && linear_violation(*sum, *relation, *rhs) > 0 {
                        for y in posted[c as usize].scope() {
                            self.suspect(y.index());
                        }
                    }
                }
                Occ::Check { c } if !placing => {
                    let c = c as usize;
                    self.scope_values(c, x, w);
                    let was = posted[c].check(&self.scratch);
                    self.scope_values(c, x, v);
                    if was && !posted[c].check(&self.scratch) {
                        for y in posted[c].scope() {
                            self.suspect(y.index());
                        }
                    }
                }
                // Placing the last variable of a scope completes it.
                Occ::Linear { c, .. } | Occ::Check { c }
                    if self.last[c as usize] as usize == x && self.occ_cost(k, x, v, true) > 0 =>
                {
                    for y in posted[c as usize].scope() {
                        self.suspect(y.index());
                    }
                }
                _ => {}
            }
        }
        self.values[x] = v;
    }

    /// Test builds, small models: every conflicted variable is a suspect, and
    /// the incremental total is the total from scratch.
    #[cfg(test)]
    pub(super) fn check_suspects(&mut self) {
        if self.values.len() <= 64 {
            for x in 0..self.values.len() {
                let c = self.cost(x, self.values[x], false);
                assert!(
                    c == 0 || self.is_suspect[x],
                    "x{x} is in conflict, not a suspect"
                );
            }
        }
    }

    pub(super) fn suspect(&mut self, x: usize) {
        if !self.is_suspect[x] {
            self.is_suspect[x] = true;
            self.suspects.push(x as u32);
        }
    }

    /// The total violation from scratch (after the greedy start), computing the
    /// linear sums on the way.
    pub(super) fn total_violation(&mut self) -> u128 {
        let mut total: u128 = 0;
        for c in 0..self.posted.len() {
            let part = match &self.evals[c] {
                Eval::AllDiff(counter) => counter.pairs(),
                Eval::Linear { .. } => {
                    let Posted::Linear(l) = &self.posted[c] else {
                        continue;
                    };
                    let s: i128 = l
                        .coeffs()
                        .iter()
                        .zip(l.scope())
                        .map(|(&a, x)| i128::from(a) * i128::from(self.values[x.index()]))
                        .sum();
                    if let Eval::Linear { sum, relation, rhs } = &mut self.evals[c] {
                        *sum = s;
                        linear_violation(s, *relation, *rhs)
                    } else {
                        0
                    }
                }
                Eval::Check => {
                    self.scratch.clear();
                    for y in self.posted[c].scope() {
                        self.scratch.push(self.values[y.index()]);
                    }
                    u128::from(!self.posted[c].check(&self.scratch))
                }
            };
            total = total.saturating_add(part);
        }
        total
    }

    /// Rebuilds the suspect list from every variable's conflicts.
    pub(super) fn rescan(&mut self) {
        for &x in &self.suspects {
            self.is_suspect[x as usize] = false;
        }
        self.suspects.clear();
        for x in 0..self.values.len() {
            if self.cost(x, self.values[x], false) > 0 {
                self.suspect(x);
            }
        }
    }

    pub(super) fn result(
        &self,
        status: LocalSearchStatus,
        steps: u64,
        initial: u128,
        left: u128,
    ) -> LocalSearchResult {
        let clip = |c: u128| u64::try_from(c).unwrap_or(u64::MAX);
        LocalSearchResult {
            solution: (status == LocalSearchStatus::Found).then(|| self.values.clone()),
            steps,
            initial_conflicts: clip(initial),
            conflicts_left: clip(left),
            status,
            elapsed: Duration::ZERO,
        }
    }

    pub(super) fn stopped(
        &self,
        stop: Stop,
        steps: u64,
        initial: u128,
        left: u128,
    ) -> LocalSearchResult {
        let status = match stop {
            Stop::Time => LocalSearchStatus::TimeLimit,
            Stop::Cancelled => LocalSearchStatus::Cancelled,
        };
        self.result(status, steps, initial, left)
    }

    pub(crate) fn run(&mut self) -> Result<LocalSearchResult, CspError> {
        // Greedy start, in index order.
        let mut placed_violation: u128 = 0;
        for x in 0..self.values.len() {
            if x % 1024 == 0
                && let Some(stop) = self.stop()
            {
                return Ok(self.stopped(stop, 0, placed_violation, placed_violation));
            }
            if let Some((v, c)) = self.choose(x, true, None) {
                placed_violation = placed_violation.saturating_add(c);
                self.assign(x, v, true);
                if c > 0 {
                    self.suspect(x);
                }
            }
        }
        let initial = self.total_violation();
        let mut total = initial;
        #[cfg(test)]
        self.check_suspects();
        // Repair.
        let mut steps = 0u64;
        let rescan_every = (4 * self.occ.len() as u64).max(1 << 16);
        let mut since_rescan = 0;
        while total > 0 {
            if steps >= self.settings.max_steps {
                return Ok(self.result(LocalSearchStatus::StepLimit, steps, initial, total));
            }
            if steps % 256 == 0
                && let Some(stop) = self.stop()
            {
                return Ok(self.stopped(stop, steps, initial, total));
            }
            // The suspects include every conflicted variable (see `assign`); a
            // full rescan now and then is a safety net.
            if self.suspects.is_empty() || since_rescan >= rescan_every {
                self.rescan();
                since_rescan = 0;
                if self.suspects.is_empty() {
                    // No variable is in conflict: the incremental total drifted.
                    total = self.total_violation();
                    if total > 0 {
                        return Err(internal(
                            "a violated constraint has no variable in conflict",
                        ));
                    }
                    continue;
                }
            }
            let at = self.rng.below(self.suspects.len() as u64) as usize;
            let x = self.suspects[at] as usize;
            let current = self.values[x];
            let now = self.cost(x, current, false);
            if now == 0 {
                self.suspects.swap_remove(at);
                self.is_suspect[x] = false;
                continue;
            }
            steps += 1;
            since_rescan += 1;
            let walk = self.settings.noise > 0.0
                && (self.rng.next_u64() as f64) < self.settings.noise * (u64::MAX as f64);
            let (v, c) = if walk {
                // A random value of the domain other than the current one.
                let v = sample(self.domains[x], &mut self.rng);
                if v == current {
                    continue;
                }
                (v, self.cost(x, v, false))
            } else {
                match self.choose(x, false, Some(current)) {
                    Some((v, c)) if c <= now => (v, c),
                    _ => continue,
                }
            };
            self.assign(x, v, false);
            total = total.saturating_sub(now).saturating_add(c);
            if c == 0 {
                self.suspects.swap_remove(at);
                self.is_suspect[x] = false;
            }
            #[cfg(test)]
            self.check_suspects();
        }
        Ok(self.result(LocalSearchStatus::Found, steps, initial, 0))
    }
}
