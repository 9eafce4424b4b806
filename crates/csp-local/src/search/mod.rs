//! The min-conflicts search over one model: state, moves and repairs.

mod cost;
mod repair;

use std::time::Instant;

use csp_core::constraints::Linear;
use csp_core::rng::SplitMix64;
use csp_core::{CancelFlag, Constraint, CspError, Domain, Model, Posted, Relation, Value};

use crate::MinConflicts;
use crate::eval::*;

/// The state of one run.
pub(crate) struct Search<'m> {
    /// The model's constraints, then one equality per view.
    posted: &'m [&'m Posted],
    domains: Vec<&'m Domain>,
    /// `occ[occ_start[x]..occ_start[x + 1]]`: the constraints on variable `x`.
    occ_start: Vec<usize>,
    occ: Vec<Occ>,
    evals: Vec<Eval>,
    /// Per constraint, the largest variable index of its scope: during the
    /// greedy start (in index order) it is evaluated when that variable is placed.
    last: Vec<u32>,
    values: Vec<Value>,
    /// Variables that may be in conflict (checked when picked).
    suspects: Vec<u32>,
    is_suspect: Vec<bool>,
    rng: SplitMix64,
    scratch: Vec<Value>,
    started: Instant,
    settings: &'m MinConflicts,
}

/// Each view `v = a*x + c` of `model` as the equality `v - a*x = c`: local
/// search gives a view a value of its own, like any variable, and repairs
/// this equality like any other constraint.
pub(crate) fn view_equalities(model: &Model) -> Result<Vec<Posted>, CspError> {
    let mut out = Vec::new();
    for v in model.vars() {
        if let Some((x, a, c)) = model.view_of(v) {
            let minus_a = a.checked_neg().ok_or_else(|| CspError::Overflow {
                context: "min-conflicts".into(),
                detail: format!("the view {v} = {a} * {x} + {c}: its scale cannot be negated"),
            })?;
            out.push(Posted::Linear(Linear::new(
                &[1, minus_a],
                &[v, x],
                Relation::Eq,
                c,
            )?));
        }
    }
    Ok(out)
}

/// Why the loop stopped early.
pub(super) enum Stop {
    Time,
    Cancelled,
}

impl<'m> Search<'m> {
    /// The search of `model` under `settings`, over `posted`: the model's
    /// constraints and [`view_equalities`].
    pub(crate) fn new(
        settings: &'m MinConflicts,
        model: &'m Model,
        posted: &'m [&'m Posted],
        started: Instant,
    ) -> Result<Self, CspError> {
        let n = model.num_vars();
        let domains: Vec<&Domain> = model
            .vars()
            .map(|v| model.domain(v))
            .collect::<Result<_, _>>()?;
        // A stamp per variable finds repeated variables in a scope in O(scope).
        let mut stamp = vec![u32::MAX; n];
        let mut repeated = vec![false; posted.len()];
        let mut degree = vec![0usize; n + 1];
        let mut last = vec![0u32; posted.len()];
        for (ci, c) in posted.iter().enumerate() {
            for x in c.scope() {
                let i = x.index();
                if stamp[i] == ci as u32 {
                    repeated[ci] = true;
                } else {
                    stamp[i] = ci as u32;
                    degree[i + 1] += 1;
                }
                last[ci] = last[ci].max(i as u32);
            }
        }
        let mut occ_start = degree;
        for i in 0..n {
            occ_start[i + 1] += occ_start[i];
        }
        let mut fill = occ_start.clone();
        let mut occ = vec![Occ::Check { c: 0 }; occ_start[n]];
        let mut evals = Vec::with_capacity(posted.len());
        stamp.fill(u32::MAX);
        for (ci, c) in posted.iter().enumerate() {
            let c32 = ci as u32;
            let mut put = |i: usize, o: Occ| {
                if stamp[i] != c32 {
                    stamp[i] = c32;
                    occ[fill[i]] = o;
                    fill[i] += 1;
                }
            };
            let eval = match c {
                Posted::AllDifferent(a) if !repeated[ci] => {
                    let (mut lo, mut hi) = (i128::MAX, i128::MIN);
                    for (x, &o) in a.scope().iter().zip(a.offsets()) {
                        if let Some((dl, dh)) = domains[x.index()].bounds() {
                            lo = lo.min(i128::from(dl) + i128::from(o));
                            hi = hi.max(i128::from(dh) + i128::from(o));
                        }
                        put(x.index(), Occ::AllDiff { c: c32, offset: o });
                    }
                    Eval::AllDiff(Counter::new(lo, hi.max(lo), a.scope().len()))
                }
                Posted::NotEqual(ne) if !repeated[ci] => {
                    let [x, y] = [ne.scope()[0], ne.scope()[1]];
                    let offset = ne.offset();
                    put(
                        x.index(),
                        Occ::NotEqual {
                            other: y.index() as u32,
                            offset,
                            first: true,
                        },
                    );
                    put(
                        y.index(),
                        Occ::NotEqual {
                            other: x.index() as u32,
                            offset,
                            first: false,
                        },
                    );
                    Eval::Check
                }
                Posted::Linear(l) if !repeated[ci] => {
                    for (x, &coef) in l.scope().iter().zip(l.coeffs()) {
                        put(x.index(), Occ::Linear { c: c32, coef });
                    }
                    Eval::Linear {
                        sum: 0,
                        relation: l.relation(),
                        rhs: i128::from(l.rhs()),
                    }
                }
                _ => {
                    for x in c.scope() {
                        put(x.index(), Occ::Check { c: c32 });
                    }
                    Eval::Check
                }
            };
            evals.push(eval);
        }
        Ok(Search {
            posted,
            domains,
            occ_start,
            occ,
            evals,
            last,
            values: vec![0; n],
            suspects: Vec::new(),
            is_suspect: vec![false; n],
            rng: SplitMix64::new(settings.seed),
            scratch: Vec::new(),
            started,
            settings,
        })
    }

    pub(super) fn stop(&self) -> Option<Stop> {
        if self
            .settings
            .cancel
            .as_ref()
            .is_some_and(CancelFlag::is_cancelled)
        {
            return Some(Stop::Cancelled);
        }
        match self.settings.time_limit {
            Some(limit) if self.started.elapsed() >= limit => Some(Stop::Time),
            _ => None,
        }
    }

    /// Fills `scratch` with the scope values of constraint `c`, `x` taking `v`.
    pub(super) fn scope_values(&mut self, c: usize, x: usize, v: Value) {
        self.scratch.clear();
        for y in self.posted[c].scope() {
            let i = y.index();
            self.scratch.push(if i == x { v } else { self.values[i] });
        }
    }
}
