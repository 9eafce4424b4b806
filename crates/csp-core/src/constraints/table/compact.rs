//! Compact-Table: a table's filtering at the `Propagators` level.
//!
//! After Demeulenaere, Hartert, Lecoutre, Perez, Perron, Régin and Schaus,
//! *Compact-Table: efficiently filtering table constraints with reversible
//! sparse bit-sets* (CP 2016), with the short-table and negative-table
//! extensions of Verhaeghe, Lecoutre and Schaus (AAAI 2017):
//!
//! - the rows still *valid* (every entry in its variable's domain, or `*`) are
//!   a reversible sparse bit set of the constraint's trailed state;
//! - each (column, value) has a *support*: the rows whose entry is that value,
//!   as a sparse word list (only its non-zero words), so memory stays linear
//!   in the table; rows with `*` in a column form the column's *star* list;
//! - a call first updates the valid rows from the columns whose domain shrank
//!   since the last call: by the delta (subtract the supports of the values
//!   removed) when fewer values went than remain, else by a reset (keep the
//!   rows supporting a remaining value, or with `*`). The values seen at the
//!   last call are a trailed bit set per column, so the delta is exact;
//! - then, for an allowed table, a value stays while its support meets the
//!   valid rows (checked first at the word that last showed it, its
//!   *residue*, an untrailed hint); for a forbidden table without `*`, a value
//!   goes when every combination of the other domains is a valid forbidden row
//!   (the rows are distinct, so counting decides). A forbidden table with `*`
//!   rows filters only when one variable is left open: the forbidden rows
//!   still valid then name the values it cannot take.
//!
//! Columns are the distinct variables of the scope: a variable at two
//! positions is one column, and rows that give it two different values are
//! dropped (they can never hold). Values are numbered per column in sorted
//! order, so sparse and large values cost nothing more than small ones.

use smallvec::SmallVec;

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::{CspError, PropagationContext, StateLayout, Value, VarId};

/// A sparse word list: `(word index, word)` for the non-zero words of a set of rows.
type Words = [(u32, u64)];

/// One distinct variable of the scope.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Column {
    var: VarId,
    /// The values the rows name at this column, sorted.
    values: Vec<Value>,
    /// Support of `values[k]` is `lists[starts[k]..starts[k + 1]]`; the star
    /// rows are `lists[starts[values.len()]..star_end]`.
    starts: Vec<u32>,
    star_end: u32,
    /// The first of this column's hints (one residue per value).
    first_hint: u32,
}

/// The Compact-Table data of one table: columns, supports, and (for a
/// forbidden table with `*`) each row's entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Compact {
    rows: usize,
    cols: Vec<Column>,
    lists: Vec<(u32, u64)>,
    /// `entries[row * cols + c]`, kept only for a forbidden table with `*`.
    entries: Vec<Option<Value>>,
    negative: bool,
    has_star: bool,
}

impl Compact {
    /// Builds the data for the rows `0..n_rows` of a table over `vars`, where
    /// `entry(row, pos)` is the row's entry at scope position `pos` (`None`
    /// for `*`).
    pub(super) fn new(
        vars: &[VarId],
        n_rows: usize,
        entry: impl Fn(usize, usize) -> Option<Value>,
        negative: bool,
    ) -> Result<Self, CspError> {
        // Distinct variables, each with its scope positions.
        let mut col_vars: Vec<VarId> = Vec::new();
        let mut col_of: Vec<usize> = Vec::with_capacity(vars.len());
        for &v in vars {
            match col_vars.iter().position(|&u| u == v) {
                Some(c) => col_of.push(c),
                None => {
                    col_of.push(col_vars.len());
                    col_vars.push(v);
                }
            }
        }
        let n_cols = col_vars.len();
        // Each row's merged entries; rows that give one variable two values go.
        let mut merged: Vec<Option<Value>> = Vec::new();
        let mut row = vec![None; n_cols];
        'rows: for r in 0..n_rows {
            row.fill(None);
            for (pos, &c) in col_of.iter().enumerate() {
                if let Some(v) = entry(r, pos) {
                    match row[c] {
                        Some(w) if w != v => continue 'rows,
                        _ => row[c] = Some(v),
                    }
                }
            }
            merged.extend_from_slice(&row);
        }
        let kept = merged.len().checked_div(n_cols).unwrap_or(0);
        if u32::try_from(kept).is_err() {
            return Err(CspError::InvalidArgument {
                context: "table".into(),
                message: format!("{kept} rows, more than {}", u32::MAX),
            });
        }
        let mut lists: Vec<(u32, u64)> = Vec::new();
        // Appends the sparse word list of `rows` (increasing) as a new list.
        let push_rows = |lists: &mut Vec<(u32, u64)>, rows: &mut dyn Iterator<Item = u32>| {
            let start = lists.len();
            for r in rows {
                let (w, bit) = (r / 64, 1u64 << (r % 64));
                let len = lists.len();
                match lists.last_mut() {
                    Some(last) if len > start && last.0 == w => last.1 |= bit,
                    _ => lists.push((w, bit)),
                }
            }
        };
        let mut cols = Vec::with_capacity(n_cols);
        let mut hints = 0u32;
        let mut pairs: Vec<(Value, u32)> = Vec::new();
        for (c, &var) in col_vars.iter().enumerate() {
            pairs.clear();
            pairs.extend((0..kept).filter_map(|r| merged[r * n_cols + c].map(|v| (v, r as u32))));
            // Stable: rows stay in increasing order within a value.
            pairs.sort_by_key(|&(v, _)| v);
            let mut values = Vec::new();
            let mut starts = Vec::new();
            let mut i = 0;
            while i < pairs.len() {
                let v = pairs[i].0;
                let j = i + pairs[i..].partition_point(|&(w, _)| w == v);
                values.push(v);
                starts.push(lists.len() as u32);
                push_rows(&mut lists, &mut pairs[i..j].iter().map(|&(_, r)| r));
                i = j;
            }
            starts.push(lists.len() as u32);
            let mut stars = (0..kept as u32).filter(|&r| merged[r as usize * n_cols + c].is_none());
            push_rows(&mut lists, &mut stars);
            let star_end = lists.len() as u32;
            cols.push(Column {
                var,
                first_hint: hints,
                starts,
                star_end,
                values,
            });
            hints = hints.saturating_add(cols[c].values.len() as u32);
        }
        let has_star = merged.iter().any(Option::is_none);
        Ok(Compact {
            rows: kept,
            cols,
            lists,
            entries: if negative && has_star {
                merged
            } else {
                Vec::new()
            },
            negative,
            has_star,
        })
    }

    /// The memory the supports take, about, in bytes.
    pub(super) fn bytes(&self) -> usize {
        let cols: usize = self
            .cols
            .iter()
            .map(|c| 64 + c.values.len() * 8 + c.starts.len() * 4)
            .sum();
        cols + self.lists.len() * 16 + self.entries.len() * 16
    }

    /// The number of rows kept.
    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    /// The trailed state of the filtering: the valid rows (sparse set 0), each
    /// column's domain size at the last call (integer `c`, `-1` before the
    /// first) and values seen then (bit set `c`), and one residue per value.
    pub(super) fn layout(&self) -> StateLayout {
        let mut l = StateLayout::new().sparse_bits(self.rows);
        for col in &self.cols {
            l = l.int(-1).bits(col.values.len(), true);
        }
        let residues = self.cols.iter().map(|c| c.values.len()).sum();
        l.hints(residues, 0)
    }

    #[inline(always)]
    fn support(&self, col: &Column, k: usize) -> &Words {
        &self.lists[col.starts[k] as usize..col.starts[k + 1] as usize]
    }

    #[inline(always)]
    fn stars(&self, col: &Column) -> &Words {
        &self.lists[col.starts[col.values.len()] as usize..col.star_end as usize]
    }

    /// Filters at the `Propagators` level.
    pub(super) fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let (changed_cols, last_changed) = self.update(ctx)?;
        if self.negative {
            return if self.has_star {
                self.filter_forbidden_short(ctx)
            } else {
                self.filter_forbidden(ctx)
            };
        }
        let mut changed = false;
        let mut all_fixed = true;
        for (c, col) in self.cols.iter().enumerate() {
            let x = col.var;
            // Only this column shrank since a call that left every value
            // supported: the rows lost were those of its removed values.
            let untouched = changed_cols == 1 && last_changed == c;
            if ctx.is_fixed(x) || untouched {
                all_fixed &= ctx.is_fixed(x);
                ctx.set_state_int(c, ctx.len(x) as i64);
                continue;
            }
            all_fixed = false;
            ctx.note_revision();
            if ctx
                .sparse_bits(0)
                .first_common(self.stars(col), 0)
                .is_some()
            {
                // A valid row has `*` here: every value is supported.
                ctx.set_state_int(c, ctx.len(x) as i64);
                continue;
            }
            let mut listed = 0usize;
            for wi in 0..col.values.len().div_ceil(64) {
                let word = ctx.state_bits(c)[wi];
                let mut keep = word;
                let mut live = word;
                while live != 0 {
                    let b = live.trailing_zeros() as usize;
                    live &= live - 1;
                    let k = wi * 64 + b;
                    let hint = col.first_hint as usize + k;
                    let residue = ctx.state_hint(hint) as usize;
                    let support = self.support(col, k);
                    match ctx.sparse_bits(0).first_common(support, residue) {
                        Some(p) => {
                            listed += 1;
                            if p != residue {
                                ctx.set_state_hint(hint, p as u64);
                            }
                        }
                        None => {
                            keep &= !(1 << b);
                            changed |= ctx.remove(x, col.values[k])?;
                        }
                    }
                }
                if keep != word {
                    ctx.set_state_word(c, wi, keep);
                }
            }
            if ctx.len(x) > listed {
                // Values no row names, and no valid row has `*` here.
                changed |= ctx.retain_sorted(x, &col.values)?;
            }
            ctx.set_state_int(c, ctx.len(x) as i64);
        }
        Ok(if all_fixed {
            PropStatus::Entailed
        } else if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }

    /// Removes from the valid rows those that lost an entry since the last
    /// call; the number of columns that shrank and the last of them, or a
    /// conflict for an allowed table left without rows.
    fn update(&self, ctx: &mut PropagationContext<'_>) -> Result<(usize, usize), Conflict> {
        let mut changed_cols = 0;
        let mut last_changed = usize::MAX;
        let mut first = false;
        for (c, col) in self.cols.iter().enumerate() {
            let x = col.var;
            let size = ctx.len(x) as i64;
            let last = ctx.state_int(c);
            if size == last {
                continue;
            }
            changed_cols += 1;
            last_changed = c;
            ctx.set_state_int(c, size);
            if ctx.sparse_bits(0).is_empty() {
                if self.negative {
                    continue;
                }
                return Err(Conflict::infeasible());
            }
            // The delta when fewer values went than remain, else a reset.
            let reset = last < 0 || last - size >= size;
            if last < 0 {
                // The first call: nothing was known to be supported before.
                first = true;
            }
            for wi in 0..col.values.len().div_ceil(64) {
                let word = ctx.state_bits(c)[wi];
                let mut keep = word;
                let mut live = word;
                while live != 0 {
                    let b = live.trailing_zeros() as usize;
                    live &= live - 1;
                    let k = wi * 64 + b;
                    let present = ctx.contains(x, col.values[k]);
                    if !present {
                        keep &= !(1 << b);
                    }
                    if present == reset {
                        ctx.sparse_bits(0).add_to_mask(self.support(col, k));
                    }
                }
                if keep != word {
                    ctx.set_state_word(c, wi, keep);
                }
            }
            let mut rows = ctx.sparse_bits(0);
            if reset {
                rows.add_to_mask(self.stars(col));
                rows.intersect_with_mask();
            } else {
                rows.subtract_mask();
            }
            if rows.is_empty() && !self.negative {
                return Err(Conflict::infeasible());
            }
        }
        Ok((changed_cols, if first { usize::MAX } else { last_changed }))
    }

    /// A forbidden table without `*` (rows distinct): value `a` of column `c`
    /// goes when the valid rows with `a` there number as many as the
    /// combinations of the other columns' domains.
    fn filter_forbidden(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let sizes: SmallVec<[u64; 8]> = self.cols.iter().map(|c| ctx.len(c.var) as u64).collect();
        let valid = ctx.sparse_bits(0).count();
        if valid == 0 {
            return Ok(PropStatus::Entailed);
        }
        let mut doomed: SmallVec<[(usize, usize); 8]> = SmallVec::new();
        for (c, col) in self.cols.iter().enumerate() {
            // The combinations of the other columns, unless more than the valid rows.
            let mut others: u64 = 1;
            for (d, &s) in sizes.iter().enumerate() {
                if d != c {
                    others = others.saturating_mul(s);
                }
            }
            if others > valid {
                continue;
            }
            ctx.note_revision();
            let seen: SmallVec<[u64; 4]> = ctx.state_bits(c).into();
            let rows = ctx.sparse_bits(0);
            for (wi, &word) in seen.iter().enumerate() {
                let mut live = word;
                while live != 0 {
                    let k = wi * 64 + live.trailing_zeros() as usize;
                    live &= live - 1;
                    if rows.count_common(self.support(col, k)) == others {
                        doomed.push((c, k));
                    }
                }
            }
        }
        // The rows of the values removed leave the valid set at the next
        // call's update, which sees these columns shrink.
        let mut changed = false;
        for &(c, k) in &doomed {
            let col = &self.cols[c];
            changed |= ctx.remove(col.var, col.values[k])?;
        }
        Ok(if changed {
            PropStatus::Changed
        } else {
            PropStatus::Unchanged
        })
    }

    /// A forbidden table with `*`: when one column is open, the valid rows
    /// forbid their values there (and a valid `*` there forbids them all);
    /// when none is, a valid row is a conflict.
    fn filter_forbidden_short(&self, ctx: &mut PropagationContext<'_>) -> Propagation {
        let open: SmallVec<[usize; 2]> = (0..self.cols.len())
            .filter(|&c| !ctx.is_fixed(self.cols[c].var))
            .take(2)
            .collect();
        let valid: SmallVec<[usize; 8]> = ctx.sparse_bits(0).ones().collect();
        let mut changed = false;
        match open[..] {
            _ if valid.is_empty() => return Ok(PropStatus::Entailed),
            [] => return Err(Conflict::infeasible()),
            [c] => {
                let col = &self.cols[c];
                ctx.note_revision();
                for &r in &valid {
                    match self.entries[r * self.cols.len() + c] {
                        None => return Err(Conflict::wipeout(col.var)),
                        Some(v) => changed |= ctx.remove(col.var, v)?,
                    }
                }
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
