//! `z = f(x, y)` and `z = f(x)`: times, div, mod, pow, min, max, abs, distance.

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::constraints::{ceil_div, floor_div};
use crate::{
    Constraint, ConstraintId, CspError, Domains, Model, PropagationContext, Pruning, Value, VarId,
};
use smallvec::SmallVec;

pub use super::function::Function;

/// The most argument combinations [`Func`] enumerates to filter exactly; above it,
/// it narrows the result's bounds only.
pub const ENUMERATION_LIMIT: usize = 1 << 12;

/// The most argument pairs of a product that [`Func`] enumerates at the
/// [`Pruning::Propagators`] level; above it the product is filtered by bounds
/// (Gecode's default for `int_times`).
pub const PROPAGATORS_TIMES_LIMIT: usize = 64;

/// The widest span of a result's bounds whose supported values [`Func`]
/// marks in a bitset (2 KB) instead of listing and sorting them.
const MARKED_SPAN: usize = 1 << 14;

/// `z = f(x, y)` (or `z = f(x)` for [`Function::Abs`]), posted by
/// [`Model::times`], [`Model::div`], [`Model::modulo`], [`Model::abs`],
/// [`Model::distance`] and FlatZinc's integer builtins.
///
/// `promising` evaluates the function once both arguments are fixed. Propagation,
/// at every level from forward checking up, enumerates the argument pairs left
/// when there are at most [`ENUMERATION_LIMIT`] of them (for a product under
/// [`Pruning::Propagators`], at most [`PROPAGATORS_TIMES_LIMIT`], as Gecode
/// filters `int_times` by bounds), keeping exactly the
/// supported values of every variable (domain consistency; min and max of three
/// different variables keep the same values by merging the arguments' values
/// in order, without evaluating every pair). Beyond that it
/// narrows `z` to the bounds the arguments' bounds allow (for times, min, max,
/// abs, distance), and the arguments' bounds from `z`'s (for abs, distance, min,
/// max, and times when the other factor keeps one sign).
///
/// ```
/// use csp_core::{Config, Model, Solver};
/// use csp_core::constraints::{Func, Function};
///
/// let mut m = Model::new();
/// let x = m.int_var(-3..=3)?;
/// let y = m.int_var(-3..=3)?;
/// let z = m.int_var(4..=9)?;
/// m.post(Func::binary(Function::Times, x, y, z))?; // z = x * y
/// // (±2)(±2), (±2)(±3) and (±3)(±2), (±3)(±3) with equal signs: 8 pairs.
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 8);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Func {
    function: Function,
    x: VarId,
    y: Option<VarId>,
    z: VarId,
    /// `[x, y, z]`, or `[x, z]` for a unary function.
    scope: Vec<VarId>,
}

impl Func {
    /// `z = f(x, y)`.
    pub fn binary(function: Function, x: VarId, y: VarId, z: VarId) -> Self {
        Func {
            function,
            x,
            y: Some(y),
            z,
            scope: vec![x, y, z],
        }
    }

    /// `z = f(x)`.
    pub fn unary(function: Function, x: VarId, z: VarId) -> Self {
        Func {
            function,
            x,
            y: None,
            z,
            scope: vec![x, z],
        }
    }

    fn parts(&self) -> (VarId, Option<VarId>, VarId) {
        (self.x, self.y, self.z)
    }

    fn eval(&self, x: Value, y: Value) -> Option<Value> {
        self.function.apply(x, y)
    }

    /// Keeps exactly the supported values of `x`, `y` and `z`. The
    /// supported results are marked in a bitset over `z`'s bounds when they
    /// span at most [`MARKED_SPAN`] values (no sort), listed and sorted
    /// otherwise; small domains are read without allocating.
    fn enumerate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let (x, y, z) = self.parts();
        let xs: SmallVec<[Value; 32]> = ctx.values(x).collect();
        let ys: SmallVec<[Value; 32]> = match y {
            Some(y) => ctx.values(y).collect(),
            None => SmallVec::from_elem(0, 1),
        };
        let mut x_ok: SmallVec<[bool; 32]> = SmallVec::from_elem(false, xs.len());
        let mut y_ok: SmallVec<[bool; 32]> = SmallVec::from_elem(false, ys.len());
        let z_lo = ctx.min(z);
        let span = i128::from(ctx.max(z)) - i128::from(z_lo) + 1;
        let marked = span <= MARKED_SPAN as i128;
        let mut marks: SmallVec<[u64; 16]> = if marked {
            SmallVec::from_elem(0, (span as usize).div_ceil(64))
        } else {
            SmallVec::new()
        };
        let mut zs: Vec<Value> = Vec::new();
        let mut supported = false;
        for (i, &a) in xs.iter().enumerate() {
            for (j, &b) in ys.iter().enumerate() {
                // With x and y the same variable only the diagonal is possible.
                if y == Some(x) && a != b {
                    continue;
                }
                if let Some(c) = self.eval(a, b)
                    && ctx.contains(z, c)
                    && (z != x || c == a)
                    && (Some(z) != y || c == b)
                {
                    x_ok[i] = true;
                    y_ok[j] = true;
                    supported = true;
                    if marked {
                        // `c` is a value of `z`: within its bounds.
                        let o = (c - z_lo) as usize;
                        marks[o / 64] |= 1 << (o % 64);
                    } else {
                        zs.push(c);
                    }
                }
            }
        }
        if !supported {
            return Err(Conflict::infeasible());
        }
        ctx.note_revision();
        let mut changed = false;
        for (&a, ok) in xs.iter().zip(&x_ok) {
            if !ok {
                changed |= ctx.remove(x, a)?;
            }
        }
        if let Some(y) = y {
            for (&b, ok) in ys.iter().zip(&y_ok) {
                if !ok {
                    changed |= ctx.remove(y, b)?;
                }
            }
        }
        if marked {
            // `z`'s values stay within the bounds read above.
            changed |= ctx.retain(z, |_, v| {
                let o = (v - z_lo) as usize;
                marks[o / 64] >> (o % 64) & 1 == 1
            })?;
        } else {
            zs.sort_unstable();
            zs.dedup();
            changed |= ctx.retain_sorted(z, &zs)?;
        }
        self.settle(ctx, changed)
    }

    /// `z = min(x, y)` (`max` for `Function::Max`) with `x`, `y` and `z`
    /// three different variables: the values `enumerate` keeps, found in
    /// `O(|x| + |y|)` lookups instead of `|x| * |y|` evaluations and a sort.
    /// In the function's order (increasing for min, decreasing for max):
    /// - `c` of `z` is supported iff it is a value of `x` not after the last
    ///   of `y`, or a value of `y` not after the last of `x`;
    /// - `a` of `x` is supported iff `a` is in `z` and not after the last of
    ///   `y` (a partner `b` at or after `a`), or some value of `y` in `z`
    ///   comes strictly before `a` (the partner gives the result); the same
    ///   for `y`.
    fn min_max(&self, ctx: &mut PropagationContext<'_>, y: VarId, max: bool) -> Propagation {
        let (x, z) = (self.x, self.z);
        let mut xs: SmallVec<[Value; 32]> = ctx.values(x).collect();
        let mut ys: SmallVec<[Value; 32]> = ctx.values(y).collect();
        if max {
            xs.reverse();
            ys.reverse();
        }
        // `before(a, b)`: `a` comes strictly before `b` in the order.
        let before = |a: Value, b: Value| if max { a > b } else { a < b };
        let (Some(&x_last), Some(&y_last)) = (xs.last(), ys.last()) else {
            return Err(Conflict::infeasible());
        };
        let first_in_z = |vs: &[Value], ctx: &PropagationContext<'_>| {
            vs.iter().copied().find(|&v| ctx.contains(z, v))
        };
        let (x_first, y_first) = (first_in_z(&xs, ctx), first_in_z(&ys, ctx));
        // The supported values of z, merged in order.
        let mut zs: SmallVec<[Value; 64]> = SmallVec::new();
        let (mut i, mut j) = (0, 0);
        loop {
            let a = xs.get(i).copied().filter(|&a| !before(y_last, a));
            let b = ys.get(j).copied().filter(|&b| !before(x_last, b));
            let c = match (a, b) {
                (None, None) => break,
                (Some(a), None) => {
                    i += 1;
                    a
                }
                (None, Some(b)) => {
                    j += 1;
                    b
                }
                (Some(a), Some(b)) => {
                    if a == b {
                        i += 1;
                        j += 1;
                        a
                    } else if before(a, b) {
                        i += 1;
                        a
                    } else {
                        j += 1;
                        b
                    }
                }
            };
            if ctx.contains(z, c) {
                zs.push(c);
            }
        }
        if zs.is_empty() {
            return Err(Conflict::infeasible());
        }
        if max {
            zs.reverse();
        }
        // The unsupported values of each argument, found before any change.
        let unsupported = |vs: &[Value], other_last: Value, other_first: Option<Value>| {
            let ctx: &PropagationContext<'_> = ctx;
            vs.iter()
                .copied()
                .take_while(|&a| other_first.is_none_or(|m| !before(m, a)))
                .filter(|&a| !ctx.contains(z, a) || before(other_last, a))
                .collect::<SmallVec<[Value; 32]>>()
        };
        let x_out = unsupported(&xs, y_last, y_first);
        let y_out = unsupported(&ys, x_last, x_first);
        ctx.note_revision();
        let mut changed = false;
        for a in x_out {
            changed |= ctx.remove(x, a)?;
        }
        for b in y_out {
            changed |= ctx.remove(y, b)?;
        }
        changed |= ctx.retain_sorted(z, &zs)?;
        self.settle(ctx, changed)
    }

    /// The status after exact filtering that changed the domains or not.
    fn settle(&self, ctx: &mut PropagationContext<'_>, changed: bool) -> Propagation {
        let fixed = self.scope.iter().all(|&v| ctx.is_fixed(v));
        // Where two of x, y, z are views of one variable, narrowing one may
        // have moved another: entailed only if the values left agree.
        if fixed && !self.promising(ctx.domains()) {
            return Err(Conflict::infeasible());
        }
        Ok(if fixed {
            PropStatus::Entailed
        } else if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }

    /// For large domains: bounds of `z` from those of the arguments.
    fn narrow_bounds(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let (x, y, z) = self.parts();
        let bounds = |v: VarId, d: &Domains| (i128::from(d.min(v)), i128::from(d.max(v)));
        let xb = bounds(x, ctx.domains());
        let yb = y.map_or((0, 0), |y| bounds(y, ctx.domains()));
        let Some((lo, hi)) = self.function.interval(xb, yb) else {
            return Ok(PropStatus::Unchanged);
        };
        ctx.note_revision();
        let clamp = |v: i128| v.clamp(i128::from(Value::MIN), i128::from(Value::MAX)) as Value;
        let mut changed = ctx.remove_below(z, clamp(lo))?;
        changed |= ctx.remove_above(z, clamp(hi))?;
        // |x| <= max z, |x - y| <= max z: each argument within max z of the other.
        let zmax = i128::from(ctx.max(z));
        match (self.function, y) {
            (Function::Abs, _) if z != x => {
                changed |= ctx.remove_below(x, clamp(-zmax))?;
                changed |= ctx.remove_above(x, clamp(zmax))?;
            }
            (Function::Distance, Some(y)) if z != x && z != y => {
                for (a, b) in [(x, y), (y, x)] {
                    let (bl, bh) = bounds(b, ctx.domains());
                    changed |= ctx.remove_below(a, clamp(bl - zmax))?;
                    changed |= ctx.remove_above(a, clamp(bh + zmax))?;
                }
            }
            // x = z / y where y keeps one sign: x within the quotients of the corners.
            (Function::Times, Some(y)) => {
                for (a, b) in [(x, y), (y, x)] {
                    let (bl, bh) = bounds(b, ctx.domains());
                    if bl <= 0 && bh >= 0 {
                        continue;
                    }
                    let (zl, zh) = bounds(z, ctx.domains());
                    let corners = [(zl, bl), (zl, bh), (zh, bl), (zh, bh)];
                    let lo = corners.iter().map(|&(n, d)| ceil_div(n, d)).min();
                    let hi = corners.iter().map(|&(n, d)| floor_div(n, d)).max();
                    if let (Some(lo), Some(hi)) = (lo, hi) {
                        changed |= ctx.remove_below(a, clamp(lo))?;
                        changed |= ctx.remove_above(a, clamp(hi))?;
                    }
                }
            }
            // Both arguments are at least min(x, y), at most max(x, y).
            (Function::Min, Some(y)) => {
                let zmin = ctx.min(z);
                changed |= ctx.remove_below(x, zmin)?;
                changed |= ctx.remove_below(y, zmin)?;
            }
            (Function::Max, Some(y)) => {
                let zmax = ctx.max(z);
                changed |= ctx.remove_above(x, zmax)?;
                changed |= ctx.remove_above(y, zmax)?;
            }
            _ => {}
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

impl Constraint for Func {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[Value]) -> bool {
        match *values {
            [x, y, z] => self.eval(x, y) == Some(z),
            [x, z] => self.eval(x, 0) == Some(z),
            _ => false,
        }
    }

    fn name(&self) -> &str {
        self.function.name()
    }

    fn promising(&self, d: &Domains) -> bool {
        let (x, y, z) = self.parts();
        match (d.value(x), y.map(|y| d.value(y)).unwrap_or(Some(0))) {
            (Some(a), Some(b)) => self.eval(a, b).is_some_and(|c| d.contains(z, c)),
            _ => true,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let (x, y, _) = self.parts();
        let pairs = ctx.len(x).saturating_mul(y.map_or(1, |y| ctx.len(y)));
        // Under the propagators level a product is filtered as Gecode's
        // default filters it, by bounds, unless the pairs are so few that
        // enumerating them costs about as much as a bounds call.
        let limit = if self.function == Function::Times && ctx.pruning() == Pruning::Propagators {
            PROPAGATORS_TIMES_LIMIT
        } else {
            ENUMERATION_LIMIT
        };
        if pairs <= limit {
            return match (self.function, y) {
                (Function::Min | Function::Max, Some(y))
                    if x != y && y != self.z && x != self.z =>
                {
                    self.min_max(ctx, y, self.function == Function::Max)
                }
                _ => self.enumerate(ctx),
            };
        }
        self.narrow_bounds(ctx)
    }
}

/// The arithmetic constraints, posted as [`Func`]. Each variable may be a fixed
/// one ([`Model::constant`]) and may repeat (`times(x, x, z)` is `z = x²`).
impl Model {
    /// `result = |x|`.
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(-3..=3)?;
    /// let r = m.int_var(2..=5)?;
    /// m.abs(x, r)?;
    /// let xs: Vec<_> = Solver::new(&m, Config::textbook())?.solutions().map(|s| s[x]).collect();
    /// assert_eq!(xs, vec![-3, -2, 2, 3]);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn abs(&mut self, x: VarId, result: VarId) -> Result<ConstraintId, CspError> {
        self.post(Func::unary(Function::Abs, x, result))
    }

    /// `result = |x - y|` (the all-interval series' intervals).
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=4)?;
    /// let y = m.int_var(0..=4)?;
    /// let d = m.constant(3)?;
    /// m.distance(x, y, d)?;
    /// // (0, 3), (1, 4) and the reverse pairs.
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 4);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn distance(
        &mut self,
        x: VarId,
        y: VarId,
        result: VarId,
    ) -> Result<ConstraintId, CspError> {
        self.post(Func::binary(Function::Distance, x, y, result))
    }

    /// `result = x * y` (no solution where the product overflows 64 bits).
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(1..=6)?;
    /// let y = m.int_var(1..=6)?;
    /// let twelve = m.constant(12)?;
    /// m.times(x, y, twelve)?;
    /// // 2 * 6, 3 * 4, 4 * 3, 6 * 2.
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 4);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn times(&mut self, x: VarId, y: VarId, result: VarId) -> Result<ConstraintId, CspError> {
        self.post(Func::binary(Function::Times, x, y, result))
    }

    /// `result = x / y` rounded towards zero, as Rust's `/` and MiniZinc's `div`;
    /// `y = 0` is never a solution.
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let x = m.constant(-7)?;
    /// let y = m.int_var(-2..=2)?;
    /// let q = m.int_var(-10..=10)?;
    /// m.div(x, y, q)?;
    /// let qs: Vec<_> = Solver::new(&m, Config::textbook())?.solutions().map(|s| (s[y], s[q])).collect();
    /// assert_eq!(qs, vec![(-2, 3), (-1, 7), (1, -7), (2, -3)]);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn div(&mut self, x: VarId, y: VarId, result: VarId) -> Result<ConstraintId, CspError> {
        self.post(Func::binary(Function::Div, x, y, result))
    }

    /// `result = x % y`, the remainder of [`Model::div`] (the sign of `x`, as
    /// Rust's `%` and MiniZinc's `mod`); `y = 0` is never a solution.
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(-5..=5)?;
    /// let three = m.constant(3)?;
    /// let one = m.constant(1)?;
    /// m.modulo(x, three, one)?;
    /// let xs: Vec<_> = Solver::new(&m, Config::textbook())?.solutions().map(|s| s[x]).collect();
    /// assert_eq!(xs, vec![1, 4]);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn modulo(&mut self, x: VarId, y: VarId, result: VarId) -> Result<ConstraintId, CspError> {
        self.post(Func::binary(Function::Mod, x, y, result))
    }

    /// A variable fixed to `value`: a constant wherever a constraint takes a
    /// variable.
    ///
    /// ```
    /// use csp_core::{Config, Model, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=5)?;
    /// let four = m.constant(4)?;
    /// m.less_than(x, four)?;
    /// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 4);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn constant(&mut self, value: Value) -> Result<VarId, CspError> {
        self.named_int_var(value.to_string(), [value])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Pruning, Solver};

    #[test]
    fn division_and_modulo_round_towards_zero() {
        assert_eq!(Function::Div.apply(7, -2), Some(-3));
        assert_eq!(Function::Mod.apply(7, -2), Some(1));
        assert_eq!(Function::Mod.apply(-7, -2), Some(-1));
        assert_eq!(Function::Mod.apply(1, 0), None);
        assert_eq!(Function::Div.apply(Value::MIN, -1), None);
    }

    #[test]
    fn pow_follows_minizinc_on_negative_and_large_exponents() {
        assert_eq!(Function::Pow.apply(0, 0), Some(1));
        assert_eq!(Function::Pow.apply(0, -1), None);
        assert_eq!(Function::Pow.apply(-1, -3), Some(-1));
        assert_eq!(Function::Pow.apply(3, -2), Some(0));
        assert_eq!(Function::Pow.apply(2, 63), None);
        assert_eq!(Function::Pow.apply(1, Value::MAX), Some(1));
        assert_eq!(Function::Pow.apply(-1, Value::MAX), Some(-1));
    }

    #[test]
    fn large_domains_narrow_the_result_by_bounds() {
        let mut m = Model::new();
        let x = m.int_var(0..=999).unwrap();
        let y = m.int_var(-10..=10).unwrap();
        let z = m.int_var(-100_000..=100_000).unwrap();
        m.post(Func::binary(Function::Times, x, y, z)).unwrap();
        let config = Config::textbook().with_pruning(Pruning::Propagators);
        let solver = Solver::new(&m, config).unwrap();
        let d = solver.domains();
        assert_eq!((d.min(z), d.max(z)), (-9990, 9990));
    }

    #[test]
    fn large_domains_narrow_abs_and_distance_both_ways() {
        let mut m = Model::new();
        let x = m.int_var(-5000..=5000).unwrap();
        let y = m.int_var(100..=200).unwrap();
        let z = m.int_var(0..=10).unwrap();
        m.distance(x, y, z).unwrap();
        let a = m.int_var(-5000..=5000).unwrap();
        let r = m.int_var(-3..=7).unwrap();
        m.abs(a, r).unwrap();
        let config = Config::textbook().with_pruning(Pruning::Propagators);
        let solver = Solver::new(&m, config).unwrap();
        let d = solver.domains();
        assert_eq!((d.min(x), d.max(x)), (90, 210));
        assert_eq!((d.min(a), d.max(a)), (-7, 7));
        assert_eq!((d.min(r), d.max(r)), (0, 7));
    }

    /// Under the propagators level a product of more than
    /// `PROPAGATORS_TIMES_LIMIT` pairs is filtered by bounds (a hole in the
    /// result's support stays until the search reaches it), one of at most
    /// that many exactly; both count what the brute force counts. Fails if
    /// the limit is not applied (the hole goes at the root) or is applied
    /// at the textbook levels.
    #[test]
    fn products_are_filtered_by_bounds_above_the_propagators_limit() {
        // x, y in 1..=60, z in 101..=103: the bounds leave x, y in 2..=51,
        // 2,500 pairs; 101 (a prime) is no product of two of them.
        let mut m = Model::new();
        let x = m.int_var(1..=60).unwrap();
        let y = m.int_var(1..=60).unwrap();
        let z = m.int_var(101..=103).unwrap();
        m.times(x, y, z).unwrap();
        let root = |pruning| {
            let config = Config::textbook().with_pruning(pruning);
            let solver = Solver::new(&m, config).unwrap();
            solver.domains().contains(z, 101)
        };
        assert!(root(Pruning::Propagators), "bounds only: 101 stays");
        assert!(!root(Pruning::ArcConsistency), "enumerated: 101 goes");
        // 102 = 2*51, 3*34, 6*17 and the other way round; 103 is prime.
        for pruning in [Pruning::Propagators, Pruning::ArcConsistency] {
            let config = Config::textbook().with_pruning(pruning);
            assert_eq!(Solver::new(&m, config).unwrap().count().solutions, 6);
        }
        // 8 pairs: enumerated under the propagators level too.
        let mut m = Model::new();
        let x = m.int_var(1..=4).unwrap();
        let y = m.int_var(1..=2).unwrap();
        let z = m.int_var(5..=7).unwrap();
        m.times(x, y, z).unwrap();
        let config = Config::textbook().with_pruning(Pruning::Propagators);
        let solver = Solver::new(&m, config).unwrap();
        assert!(!solver.domains().contains(z, 5) && !solver.domains().contains(z, 7));
    }

    /// Random products, some above and some below the propagators level's
    /// limit, with negative factors and aliases (`x * x`, `x * y = x`): the
    /// propagators level counts what the brute force counts.
    #[test]
    fn products_at_the_propagators_level_count_what_the_brute_force_counts() {
        let mut rng = crate::rng::SplitMix64::new(0x7a3c_19e5_d2b4_0f61);
        for round in 0..300 {
            let mut next = |k: u64| rng.below(k) as i64;
            let (xl, yl, zl) = (next(9) - 4, next(9) - 4, next(31) - 15);
            let (xh, yh, zh) = (xl + next(12), yl + next(12), zl + next(30));
            let alias = next(4);
            let mut m = Model::new();
            let x = m.int_var(xl..=xh).unwrap();
            let y = if alias == 0 {
                x
            } else {
                m.int_var(yl..=yh).unwrap()
            };
            let z = if alias == 1 {
                x
            } else {
                m.int_var(zl..=zh).unwrap()
            };
            m.times(x, y, z).unwrap();
            let mut expected = 0;
            for a in xl..=xh {
                let ys: Vec<i64> = if alias == 0 {
                    vec![a]
                } else {
                    (yl..=yh).collect()
                };
                for b in ys {
                    let zs: Vec<i64> = if alias == 1 {
                        vec![a]
                    } else {
                        (zl..=zh).collect()
                    };
                    expected += zs.iter().filter(|&&c| a * b == c).count() as u64;
                }
            }
            let config = Config::textbook()
                .with_pruning(Pruning::Propagators)
                .with_binary_branching(true);
            let r = Solver::new(&m, config).unwrap().count();
            assert_eq!(r.solutions, expected, "round {round}");
        }
    }

    #[test]
    fn large_domains_narrow_the_factors_of_a_product() {
        let mut m = Model::new();
        let x = m.int_var(-5000..=5000).unwrap();
        let y = m.int_var(4..=100).unwrap();
        let z = m.int_var(-40..=81).unwrap();
        m.times(x, y, z).unwrap();
        let config = Config::textbook().with_pruning(Pruning::Propagators);
        let solver = Solver::new(&m, config).unwrap();
        let d = solver.domains();
        // x in [ceil(-40 / 4), floor(81 / 4)].
        assert_eq!((d.min(x), d.max(x)), (-10, 20));
    }

    #[test]
    fn constants_are_named_by_their_value() {
        let mut m = Model::new();
        let c = m.constant(-4).unwrap();
        assert_eq!(m.var_name(c), "-4");
        assert_eq!(m.domain(c).unwrap().values(), vec![-4]);
    }
}
