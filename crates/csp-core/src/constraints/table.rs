//! Table constraints: the scope must take one of the listed tuples (or,
//! for a negative table, none of them); rows may hold a `*` wildcard.

mod compact;

use smallvec::SmallVec;

use crate::constraint::{Conflict, PropCost, PropStatus, Propagation};
use crate::{
    Constraint, CspError, Domains, PropagationContext, Pruning, StateLayout, Value, VarId, generic,
};
use compact::Compact;

/// A row entry that matches every value: the `*` of short tables, for the
/// rows of [`Table::short`] and [`Table::negative`], whose entries are
/// `Option<Value>` (`Some(v)` for the value `v`, `None` for `*`).
///
/// ```
/// use csp_core::{Config, Model, Solver, STAR};
/// let mut m = Model::new();
/// let x = m.int_var(0..=3)?;
/// let y = m.int_var(0..=3)?;
/// // x = 0 with any y, or (2, 3).
/// m.short_table(&[x, y], vec![vec![Some(0), STAR], vec![Some(2), Some(3)]])?;
/// assert_eq!(Solver::new(&m, Config::default())?.count().solutions, 4 + 1);
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub const STAR: Option<Value> = None;

/// The values of the scope form one of the allowed tuples (an *extensional*
/// constraint), or, for a negative table, none of the forbidden ones.
///
/// Three ways to build one:
/// - [`Table::new`] (and [`Model::table`](crate::Model::table)): the allowed
///   tuples, every entry a value;
/// - [`Table::short`] ([`Model::short_table`](crate::Model::short_table)):
///   allowed rows whose entries are `Option<Value>`, [`STAR`] (`None`)
///   matching every value;
/// - [`Table::negative`] ([`Model::negative_table`](crate::Model::negative_table)):
///   forbidden rows, with [`STAR`] allowed too.
///
/// How it filters depends on the pruning level:
/// - the textbook levels (forward checking and arc consistency) scan the
///   table for an allowed table: `promising` looks for one row that fits the
///   current domains, `propagate` keeps exactly the values that occur in
///   such a row (generalised arc consistency); a negative table gets the
///   generic algorithms of [`generic`](crate::generic) at those levels;
/// - [`Pruning::Propagators`] runs Compact-Table (Demeulenaere et al., CP
///   2016): the valid rows are a reversible sparse bit set of the trailed
///   state, updated incrementally from the values removed, with residues for
///   the support checks. It reaches generalised arc consistency for allowed
///   tables (short or not) and for negative tables without `*` (by counting
///   the forbidden rows still valid, after Verhaeghe, Lecoutre and Schaus,
///   2017); a negative table with `*` rows filters only when at most one
///   variable is open. A scope holding a view ([`Model::view`](crate::Model::view))
///   gets the algorithms of the textbook levels instead, since Compact-Table's
///   per-column bookkeeping assumes distinct variables.
///
/// ```
/// use csp_core::{Config, Model, Pruning, Solver};
/// let mut m = Model::new();
/// let x = m.int_var(0..=3)?;
/// let y = m.int_var(0..=3)?;
/// m.table(&[x, y], vec![vec![0, 1], vec![1, 2], vec![2, 3]])?;
/// for pruning in Pruning::ALL {
///     let config = Config::textbook().with_pruning(pruning);
///     assert_eq!(Solver::new(&m, config)?.count().solutions, 3);
/// }
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    vars: Vec<VarId>,
    /// The rows without `*`, sorted and without duplicates.
    tuples: Vec<Vec<Value>>,
    /// The rows with a `*`, sorted and without duplicates.
    starred: Vec<Vec<Option<Value>>>,
    /// Whether the rows are forbidden rather than allowed.
    negative: bool,
    /// For each position, an earlier position holding the same variable.
    same_as: Vec<Option<usize>>,
    /// The data of the `Propagators` level.
    compact: Compact,
}

impl Table {
    /// The scope `vars` must equal one of `tuples`; every tuple must have one value
    /// per variable.
    pub fn new(vars: &[VarId], tuples: Vec<Vec<Value>>) -> Result<Self, CspError> {
        Self::build(vars, tuples, Vec::new(), false)
    }

    /// The scope `vars` must match one of `rows`, whose entries are a value
    /// (`Some(v)`) or [`STAR`] (`None`, any value); every row must have one
    /// entry per variable.
    ///
    /// ```
    /// use csp_core::{Table, VarId, STAR};
    /// let (x, y) = (VarId::new(0), VarId::new(1));
    /// let t = Table::short(&[x, y], vec![vec![STAR, Some(1)], vec![Some(2), Some(3)]])?;
    /// assert_eq!(t.tuples(), [vec![2, 3]]);
    /// assert_eq!(t.starred(), [vec![STAR, Some(1)]]);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn short(vars: &[VarId], rows: Vec<Vec<Option<Value>>>) -> Result<Self, CspError> {
        let (tuples, starred) = Self::split(vars, rows)?;
        Self::build(vars, tuples, starred, false)
    }

    /// A negative table: the scope `vars` must match none of `rows` (entries
    /// as in [`Table::short`]).
    ///
    /// ```
    /// use csp_core::{Constraint, Table, VarId, STAR};
    /// let (x, y) = (VarId::new(0), VarId::new(1));
    /// let t = Table::negative(&[x, y], vec![vec![Some(0), STAR], vec![Some(1), Some(1)]])?;
    /// assert!(t.is_negative());
    /// assert!(!t.check(&[0, 5]) && !t.check(&[1, 1]) && t.check(&[1, 0]));
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn negative(vars: &[VarId], rows: Vec<Vec<Option<Value>>>) -> Result<Self, CspError> {
        let (tuples, starred) = Self::split(vars, rows)?;
        Self::build(vars, tuples, starred, true)
    }

    /// Splits rows into those without and with a `*`.
    #[allow(clippy::type_complexity)]
    fn split(
        vars: &[VarId],
        rows: Vec<Vec<Option<Value>>>,
    ) -> Result<(Vec<Vec<Value>>, Vec<Vec<Option<Value>>>), CspError> {
        Self::lengths(vars, rows.iter().map(Vec::len))?;
        let (full, starred): (Vec<_>, Vec<_>) = rows
            .into_iter()
            .partition(|r| r.iter().all(Option::is_some));
        let tuples = full
            .into_iter()
            .map(|r| r.into_iter().flatten().collect())
            .collect();
        Ok((tuples, starred))
    }

    fn lengths(vars: &[VarId], mut lens: impl Iterator<Item = usize>) -> Result<(), CspError> {
        match lens.find(|&l| l != vars.len()) {
            Some(got) => Err(CspError::LengthMismatch {
                context: "table".into(),
                what: "a tuple".into(),
                expected: vars.len(),
                got,
            }),
            None => Ok(()),
        }
    }

    fn build(
        vars: &[VarId],
        mut tuples: Vec<Vec<Value>>,
        mut starred: Vec<Vec<Option<Value>>>,
        negative: bool,
    ) -> Result<Self, CspError> {
        Self::lengths(vars, tuples.iter().map(Vec::len))?;
        tuples.sort_unstable();
        tuples.dedup();
        starred.sort_unstable();
        starred.dedup();
        let same_as = vars
            .iter()
            .enumerate()
            .map(|(i, v)| vars[..i].iter().position(|u| u == v))
            .collect();
        let n = tuples.len();
        let compact = Compact::new(
            vars,
            n + starred.len(),
            |r, i| {
                if r < n {
                    Some(tuples[r][i])
                } else {
                    starred[r - n][i]
                }
            },
            negative,
        )?;
        Ok(Table {
            vars: vars.to_vec(),
            tuples,
            starred,
            negative,
            same_as,
            compact,
        })
    }

    /// The memory the table holds, about, in bytes: its rows, the
    /// Compact-Table supports, and the trailed set of valid rows (twice, for
    /// its saved copies) it gets in a solver. Charged to the memory limit by
    /// [`Solver::new`](crate::Solver::new).
    pub(crate) fn bytes(&self) -> usize {
        let cols = self.vars.len();
        let word = std::mem::size_of::<usize>();
        let rows = self.tuples.len() * (24 + cols * 8) + self.starred.len() * (24 + cols * 16);
        rows + self.compact.bytes() + self.compact.rows().div_ceil(64) * word * 3
    }

    /// The rows without a `*`, sorted: every allowed tuple of a table built by
    /// [`Table::new`].
    pub fn tuples(&self) -> &[Vec<Value>] {
        &self.tuples
    }

    /// The rows with a `*` ([`STAR`]), sorted.
    pub fn starred(&self) -> &[Vec<Option<Value>>] {
        &self.starred
    }

    /// Whether the rows are forbidden ([`Table::negative`]) rather than allowed.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// Whether some row matches the assignment `values` of the scope.
    fn listed(&self, values: &[Value]) -> bool {
        self.tuples
            .binary_search_by(|t| t.as_slice().cmp(values))
            .is_ok()
            || self
                .starred
                .iter()
                .any(|r| r.iter().zip(values).all(|(e, &v)| e.is_none_or(|e| e == v)))
    }

    fn fits(&self, t: &[Value], d: &Domains) -> bool {
        t.iter()
            .enumerate()
            .all(|(i, &v)| d.contains(self.vars[i], v) && self.same_as[i].is_none_or(|j| t[j] == v))
    }

    /// Whether a row with `*` fits the domains: each variable's entries agree
    /// and name a value of its domain.
    fn fits_starred(&self, r: &[Option<Value>], d: &Domains) -> bool {
        (0..r.len()).all(|i| match self.effective(r, i) {
            Err(()) => false,
            Ok(Some(v)) => d.contains(self.vars[i], v),
            Ok(None) => true,
        })
    }

    /// The entry that row `r` gives to the variable at position `i`: the
    /// first value among that variable's positions, `None` if all are `*`,
    /// `Err` if two disagree.
    fn effective(&self, r: &[Option<Value>], i: usize) -> Result<Option<Value>, ()> {
        let x = self.vars[i];
        let mut found = None;
        for (k, &e) in r.iter().enumerate() {
            if let Some(v) = e
                && self.vars[k] == x
            {
                match found {
                    Some(w) if w != v => return Err(()),
                    _ => found = Some(v),
                }
            }
        }
        Ok(found)
    }

    /// Generalised arc consistency by scanning the rows (the textbook levels).
    fn scan(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let mut supported: SmallVec<[SmallVec<[Value; 16]>; 8]> =
            SmallVec::from_elem(SmallVec::new(), self.vars.len());
        let mut any: SmallVec<[bool; 8]> = SmallVec::from_elem(false, self.vars.len());
        let mut fitting = 0usize;
        for t in &self.tuples {
            if self.fits(t, ctx.domains()) {
                fitting += 1;
                for (i, &v) in t.iter().enumerate() {
                    supported[i].push(v);
                }
            }
        }
        let mut starred_fit = false;
        for r in &self.starred {
            if self.fits_starred(r, ctx.domains()) {
                fitting += 1;
                starred_fit = true;
                for i in 0..r.len() {
                    match self.effective(r, i) {
                        Ok(Some(v)) => supported[i].push(v),
                        _ => any[i] = true,
                    }
                }
            }
        }
        if fitting == 0 {
            return Err(Conflict::infeasible());
        }
        let mut changed = false;
        for (i, &x) in self.vars.iter().enumerate() {
            if self.same_as[i].is_some() {
                continue;
            }
            ctx.note_revision();
            if any[i] {
                continue;
            }
            let s = &mut supported[i];
            s.sort_unstable();
            s.dedup();
            if s.len() < ctx.len(x) {
                let s = s.clone();
                changed |= ctx.retain_sorted(x, &s)?;
            }
        }
        let product: u128 = self
            .vars
            .iter()
            .enumerate()
            .filter(|(i, _)| self.same_as[*i].is_none())
            .map(|(_, &x)| ctx.len(x) as u128)
            .product();
        // Rows with `*` cover many combinations: only a single one is counted.
        let covered = if starred_fit {
            product == 1
        } else {
            product == fitting as u128
        };
        Ok(if covered && !changed {
            PropStatus::Entailed
        } else if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }
}

impl Constraint for Table {
    fn cost(&self) -> PropCost {
        PropCost::Expensive
    }

    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[Value]) -> bool {
        self.listed(values) != self.negative
    }

    fn name(&self) -> &str {
        if self.negative {
            "negative-table"
        } else {
            "table"
        }
    }

    fn promising(&self, d: &Domains) -> bool {
        if self.negative {
            return generic::promising(self, d);
        }
        self.tuples.iter().any(|t| self.fits(t, d))
            || self.starred.iter().any(|r| self.fits_starred(r, d))
    }

    fn state_layout(&self, pruning: Pruning) -> StateLayout {
        if pruning == Pruning::Propagators {
            self.compact.layout()
        } else {
            StateLayout::new()
        }
    }

    /// Compact-Table reaches its own fixpoint in one call: for an allowed
    /// table the values it removes have no valid row left, so their removal
    /// takes no support from another value; for a negative table a value goes
    /// only when every combination with it is forbidden, so no combination
    /// that supports another value uses it. (A view sharing its base with
    /// another column breaks this; the solver sees that and calls again.)
    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        match ctx.pruning() {
            // Compact-Table's per-column bookkeeping (sizes and values seen)
            // assumes distinct variables; a view may share its base with
            // another column and change it behind that bookkeeping.
            Pruning::Propagators
                if !self
                    .vars
                    .iter()
                    .any(|&v| ctx.domains().view_of(v).is_some()) =>
            {
                self.compact.propagate(ctx)
            }
            Pruning::Propagators if self.negative => generic::support_search(self, ctx),
            Pruning::ForwardChecking if self.negative => generic::forward_check(self, ctx),
            _ if self.negative => generic::support_search(self, ctx),
            _ => self.scan(ctx),
        }
    }
}
