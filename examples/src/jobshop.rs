//! Job-shop scheduling: jobs are sequences of operations, each on one machine;
//! a machine does one operation at a time; minimise the makespan.

use csp_core::{
    Constraint, CspError, Model, PropStatus, Propagation, PropagationContext, Relation, Value,
    VarId,
};

/// A job-shop instance: for each job, its operations in order as
/// `(machine, duration)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobShop {
    /// The instance's name.
    pub name: &'static str,
    /// `jobs[j][k]`: the machine (from 0) and duration of job `j`'s `k`-th operation.
    pub jobs: Vec<Vec<(usize, Value)>>,
}

/// Fisher and Thompson's 6 x 6 instance (1963), optimum makespan 55.
const FT06: [[(usize, Value); 6]; 6] = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
];

/// A 3 x 3 instance small enough to check by brute force (optimum 11).
const SMALL: [[(usize, Value); 3]; 3] = [
    [(0, 3), (1, 2), (2, 2)],
    [(0, 2), (2, 1), (1, 4)],
    [(1, 4), (2, 3), (0, 1)],
];

impl JobShop {
    /// Fisher and Thompson's `ft06` (optimum 55).
    pub fn ft06() -> Self {
        JobShop {
            name: "ft06",
            jobs: FT06.iter().map(|j| j.to_vec()).collect(),
        }
    }

    /// A 3 x 3 instance (optimum 11).
    pub fn small() -> Self {
        JobShop {
            name: "small",
            jobs: SMALL.iter().map(|j| j.to_vec()).collect(),
        }
    }

    /// The built-in instance called `name` (`ft06` or `small`).
    pub fn by_name(name: &str) -> Option<Self> {
        match name {
            "ft06" => Some(Self::ft06()),
            "small" => Some(Self::small()),
            _ => None,
        }
    }

    /// The number of machines (one more than the largest machine number).
    pub fn machines(&self) -> usize {
        self.jobs
            .iter()
            .flatten()
            .map(|&(m, _)| m + 1)
            .max()
            .unwrap_or(0)
    }

    /// The sum of all durations: every schedule without idle time fits.
    pub fn total_duration(&self) -> Value {
        self.jobs.iter().flatten().map(|&(_, d)| d).sum()
    }
}

/// The model: a start variable per operation in `0..=horizon - duration`,
/// `start + duration <= next start` along each job, one
/// [`Model::disjunctive`] per machine, and `makespan >= every end`; optionally
/// one [`Order`] variable per pair of operations on a machine.
///
/// ```
/// use csp_core::{Config, Solver};
/// use csp_examples::jobshop::{JobShop, JobShopModel};
/// let shop = JobShop::small();
/// let m = JobShopModel::new(&shop, shop.total_duration())?;
/// let best = Solver::new(&m.model, Config::textbook())?.minimize(m.makespan)?;
/// assert_eq!(best.objective, Some(11));
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Debug)]
pub struct JobShopModel {
    /// The model.
    pub model: Model,
    /// `starts[j][k]`: the start of job `j`'s `k`-th operation.
    pub starts: Vec<Vec<VarId>>,
    /// The end of the last operation.
    pub makespan: VarId,
}

impl JobShopModel {
    /// The model with makespan at most `horizon`: start times only, the machines
    /// left to `disjunctive` (edge finding under `propagators` proves ft06 in a
    /// few hundred nodes). Fails on an empty instance, a negative duration, or an
    /// operation longer than the horizon.
    pub fn new(shop: &JobShop, horizon: Value) -> Result<Self, CspError> {
        Self::build(shop, horizon, false)
    }

    /// The model plus an [`Order`] variable per pair of operations on a machine
    /// (declared after the starts; first-fail branches on them first, so the
    /// search decides the machine sequences). Much faster under `fc` and `mac`,
    /// where `disjunctive` does no edge finding.
    pub fn with_order_vars(shop: &JobShop, horizon: Value) -> Result<Self, CspError> {
        Self::build(shop, horizon, true)
    }

    fn build(shop: &JobShop, horizon: Value, order_vars: bool) -> Result<Self, CspError> {
        let bad = |message: String| CspError::InvalidArgument {
            context: "jobshop".into(),
            message,
        };
        if shop.jobs.iter().all(Vec::is_empty) {
            return Err(bad("the instance has no operation".into()));
        }
        let mut model = Model::new();
        let mut starts = Vec::with_capacity(shop.jobs.len());
        let mut on_machine: Vec<(Vec<VarId>, Vec<VarId>)> =
            vec![Default::default(); shop.machines()];
        let makespan = model.named_int_var("makespan", 0..=horizon)?;
        let mut durations: Vec<(VarId, Value)> = Vec::new();
        for (j, job) in shop.jobs.iter().enumerate() {
            let mut row = Vec::with_capacity(job.len());
            for (k, &(machine, d)) in job.iter().enumerate() {
                if d < 0 || d > horizon {
                    return Err(bad(format!(
                        "operation {k} of job {j} lasts {d}, not within 0..={horizon}"
                    )));
                }
                let s = model.named_int_var(format!("s{j}_{k}"), 0..=horizon - d)?;
                let duration = model.int_var(d..=d)?;
                on_machine[machine].0.push(s);
                on_machine[machine].1.push(duration);
                durations.push((s, d));
                if let Some(&prev) = row.last() {
                    // prev + d_prev <= s
                    let d_prev = job[k - 1].1;
                    model.linear(&[1, -1], &[prev, s], Relation::Le, -d_prev)?;
                }
                row.push(s);
            }
            if let (Some(&last), Some(&(_, d))) = (row.last(), job.last()) {
                model.linear(&[1, -1], &[last, makespan], Relation::Le, -d)?;
            }
            starts.push(row);
        }
        let duration_of = |s: VarId| {
            durations
                .iter()
                .find(|&&(x, _)| x == s)
                .map_or(0, |&(_, d)| d)
        };
        for (s, d) in &on_machine {
            if s.len() > 1 {
                model.disjunctive(s, d)?;
            }
            if order_vars {
                for (i, &a) in s.iter().enumerate() {
                    for &b in &s[i + 1..] {
                        let first = model.bool_var();
                        model.post(Order::new(a, duration_of(a), b, duration_of(b), first))?;
                    }
                }
            }
        }
        Ok(JobShopModel {
            model,
            starts,
            makespan,
        })
    }

    /// A solution's schedule as text: one line per machine, its operations in
    /// time order as `job:start-end`.
    pub fn show(&self, shop: &JobShop, values: &[Value]) -> String {
        let mut lines = Vec::new();
        for machine in 0..shop.machines() {
            let mut ops: Vec<(Value, usize, Value)> = Vec::new();
            for (j, job) in shop.jobs.iter().enumerate() {
                for (k, &(m, d)) in job.iter().enumerate() {
                    if m == machine {
                        let s = values[self.starts[j][k].index()];
                        ops.push((s, j, s + d));
                    }
                }
            }
            ops.sort_unstable();
            let text: Vec<String> = ops.iter().map(|(s, j, e)| format!("{j}:{s}-{e}")).collect();
            lines.push(format!("m{machine}  {}", text.join(" ")));
        }
        lines.join("\n")
    }
}

/// The order of two operations on one machine: `b = 1` when `i` runs first
/// (`s_i + d_i <= s_j`), `b = 0` when `j` does (`s_j + d_j <= s_i`). Branching on
/// these 0/1 variables first (they have the smallest domains) decides the
/// machine sequences, and bounds reasoning then places the starts.
#[derive(Clone, Debug)]
pub struct Order {
    /// `[s_i, s_j, b]`.
    scope: [VarId; 3],
    d_i: Value,
    d_j: Value,
}

impl Order {
    /// `b <-> s_i + d_i <= s_j`, and `not b <-> s_j + d_j <= s_i`.
    pub fn new(s_i: VarId, d_i: Value, s_j: VarId, d_j: Value, b: VarId) -> Self {
        Order {
            scope: [s_i, s_j, b],
            d_i,
            d_j,
        }
    }
}

impl Constraint for Order {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, v: &[Value]) -> bool {
        match v[2] {
            1 => v[0] + self.d_i <= v[1],
            0 => v[1] + self.d_j <= v[0],
            _ => false,
        }
    }

    fn name(&self) -> &str {
        "order"
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let [si, sj, b] = self.scope;
        let mut changed = ctx.remove_below(b, 0)? | ctx.remove_above(b, 1)?;
        // Rule out an order the bounds cannot fit.
        if ctx.min(si) + self.d_i > ctx.max(sj) {
            changed |= ctx.remove(b, 1)?;
        }
        if ctx.min(sj) + self.d_j > ctx.max(si) {
            changed |= ctx.remove(b, 0)?;
        }
        // Enforce the chosen order on the bounds.
        match ctx.value(b) {
            Some(1) => {
                changed |= ctx.remove_below(sj, ctx.min(si) + self.d_i)?;
                changed |= ctx.remove_above(si, ctx.max(sj) - self.d_i)?;
            }
            Some(_) => {
                changed |= ctx.remove_below(si, ctx.min(sj) + self.d_j)?;
                changed |= ctx.remove_above(sj, ctx.max(si) - self.d_j)?;
            }
            None => {
                return Ok(if changed {
                    PropStatus::Changed
                } else {
                    PropStatus::Unchanged
                });
            }
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}
