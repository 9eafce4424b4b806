//! Incremental variable selection: the built-in orders without a scan of
//! every variable at each node.
//!
//! A built-in order (input, first-fail, mrv-degree, dom/wdeg, afc/size)
//! chooses the undecided variable with the best key (the domain size, the
//! degree, the weights or the failure counts), ties to the earliest. The
//! key of a variable changes only when its domain changes, when it is
//! decided or undecided, when a constraint on it fails or its entailment
//! flag changes, and (for the degree-based orders) when a neighbour is
//! decided or undecided. The selection keeps every variable's key and a
//! tournament tree over them, learns what changed from the domains' and the
//! trailed state's change logs and from the search (decisions, failures),
//! re-keys only those variables, and reads the winner at the root: a node
//! costs O(k log n) for k changed variables instead of O(n).
//!
//! It chooses exactly what the order's `select` chooses (debug builds check
//! it on every node of models up to [`CHECKED_UP_TO`] variables).

use std::cmp::Ordering;

use crate::branching::SearchView;
use crate::{Constraint, VarId, VarOrder};

/// Below this many candidate variables the scan is cheaper (release builds;
/// debug builds always select incrementally, so the test suite covers it).
pub(crate) const INCREMENTAL_FROM: usize = 64;

/// Debug builds compare the incremental choice with the scan on models up
/// to this many variables.
#[cfg(debug_assertions)]
const CHECKED_UP_TO: usize = 2_000;

const NONE: u32 = u32::MAX;

/// A variable's key. `rank`: 0 decided, 1 undecided, 2 undecided and listed
/// among the decision variables (branched on first). The other fields by
/// order: first-fail `size`; mrv-degree `size`, `weight` (the degree);
/// dom/wdeg `size`, `weight`; afc/size `score`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Key {
    rank: u8,
    size: u64,
    weight: u64,
    score: f64,
}

/// The incremental selection of one built-in order.
#[derive(Debug)]
pub(crate) struct Incremental {
    order: VarOrder,
    /// Position of each variable (by index), `NONE` for none.
    pos_of: Vec<u32>,
    /// The variable at each position: the listed decision variables in
    /// their order, then the others in declaration order.
    var_at: Vec<u32>,
    listed: usize,
    keys: Vec<Key>,
    /// The winner tree: node `i` has children `2i`, `2i + 1`; leaves from
    /// `cap` on; each node holds the best position below it (`NONE`).
    tree: Vec<u32>,
    cap: usize,
    /// Variables to re-key (by index) and a mark per variable.
    dirty: Vec<u32>,
    mark: Vec<bool>,
    /// Unlisted variables whose re-keying waits (still marked) while a
    /// listed one is undecided: the winner is then listed whatever their
    /// keys (orders that do not read the neighbours only).
    later: Vec<u32>,
    /// Constraints that failed or whose entailment flag changed since the
    /// last selection: their scopes are re-keyed.
    constraints: Vec<u32>,
    /// The failure counts' rescalings seen (they change every afc score).
    afc_rescales: u64,
    rebuild: bool,
    /// Every constraint's scope as base variables, one run after another
    /// (constraint `c`'s from `scope_start[c]` to `scope_start[c + 1]`),
    /// built at the first [`touch_scope`](Self::touch_scope): read there
    /// without going through the posted constraint and the views.
    scope_start: Vec<usize>,
    scope_vars: Vec<u32>,
}

impl Incremental {
    /// The selection for `order` over `n_vars` variables, with the listed
    /// decision variables first; `None` if `order` is not kept
    /// incrementally (random) or the model is small.
    pub(crate) fn new(order: VarOrder, n_vars: usize, decision: Option<&[VarId]>) -> Option<Self> {
        if matches!(order, VarOrder::Random(_)) || n_vars >= NONE as usize {
            return None;
        }
        if !cfg!(debug_assertions) && n_vars < INCREMENTAL_FROM {
            return None;
        }
        let mut pos_of = vec![NONE; n_vars];
        let mut var_at = Vec::with_capacity(n_vars);
        let listed = decision.map_or(0, <[VarId]>::len);
        for &v in decision.unwrap_or(&[]) {
            // Decision variables are bases, each listed once (see `Solver`).
            let slot = pos_of.get_mut(v.index())?;
            if *slot != NONE {
                return None;
            }
            *slot = var_at.len() as u32;
            var_at.push(v.index() as u32);
        }
        for (v, slot) in pos_of.iter_mut().enumerate() {
            if *slot == NONE {
                *slot = var_at.len() as u32;
                var_at.push(v as u32);
            }
        }
        let cap = var_at.len().next_power_of_two().max(1);
        Some(Incremental {
            order,
            pos_of,
            keys: vec![Key::default(); var_at.len()],
            var_at,
            listed,
            tree: vec![NONE; 2 * cap],
            cap,
            dirty: Vec::new(),
            mark: vec![false; n_vars],
            later: Vec::new(),
            constraints: Vec::new(),
            afc_rescales: 0,
            rebuild: true,
            scope_start: Vec::new(),
            scope_vars: Vec::new(),
        })
    }

    /// Whether the order reads failures and entailment (weights, aged
    /// counts, degrees).
    fn reads_constraints(&self) -> bool {
        matches!(
            self.order,
            VarOrder::AfcSize | VarOrder::DomOverWdeg | VarOrder::MrvDegree
        )
    }

    /// Whether a variable's key depends on whether its neighbours are decided.
    fn reads_neighbours(&self) -> bool {
        matches!(self.order, VarOrder::DomOverWdeg | VarOrder::MrvDegree)
    }

    /// Variable `var` (a base) changed: decided, undecided.
    #[inline]
    pub(crate) fn touch(&mut self, var: usize) {
        if let Some(m) = self.mark.get_mut(var)
            && !*m
        {
            *m = true;
            self.dirty.push(var as u32);
        }
    }

    /// Constraint `c` failed (its weight and failure count grew) or its
    /// entailment flag changed.
    #[inline]
    pub(crate) fn touch_constraint(&mut self, c: usize) {
        if self.reads_constraints() {
            self.constraints.push(c as u32);
        }
    }

    /// The variables of constraint `c`'s scope (bases) become dirty.
    #[inline]
    fn touch_scope(&mut self, view: &SearchView<'_>, c: usize) {
        if self.scope_start.is_empty() {
            self.build_scopes(view);
        }
        let (a, b) = (self.scope_start[c], self.scope_start[c + 1]);
        for k in a..b {
            let v = self.scope_vars[k] as usize;
            self.touch(v);
        }
    }

    /// Fills [`scope_start`](Self::scope_start) and `scope_vars`.
    #[cold]
    fn build_scopes(&mut self, view: &SearchView<'_>) {
        self.scope_start.push(0);
        for con in view.constraints {
            // Variable indices fit in `u32` (checked in `new`).
            let bases = con
                .scope()
                .iter()
                .map(|&y| view.domains.base_of(y).index() as u32);
            self.scope_vars.extend(bases);
            self.scope_start.push(self.scope_vars.len());
        }
    }

    /// Re-keys what changed and returns the best variable. The caller has
    /// drained the domains' change log into [`touch`](Self::touch) and the
    /// state's entailment log into [`touch_constraint`](Self::touch_constraint);
    /// `everything`: a log said everything changed; `afc_rescales`: how many
    /// times the aged failure counts were rescaled so far.
    pub(crate) fn select(
        &mut self,
        view: &SearchView<'_>,
        everything: bool,
        afc_rescales: u64,
    ) -> Option<VarId> {
        if everything || (afc_rescales != self.afc_rescales && self.order == VarOrder::AfcSize) {
            self.rebuild = true;
        }
        self.afc_rescales = afc_rescales;
        if self.rebuild {
            self.rebuild = false;
            self.constraints.clear();
            for &v in self.dirty.iter().chain(&self.later) {
                self.mark[v as usize] = false;
            }
            self.dirty.clear();
            self.later.clear();
            for p in 0..self.var_at.len() {
                self.keys[p] = self.key(view, VarId::new(self.var_at[p] as usize), p);
                self.tree[self.cap + p] = p as u32;
            }
            for i in (1..self.cap).rev() {
                self.tree[i] = self.winner(self.tree[2 * i], self.tree[2 * i + 1]);
            }
        } else {
            let constraints = std::mem::take(&mut self.constraints);
            for &c in &constraints {
                self.touch_scope(view, c as usize);
            }
            self.constraints = constraints;
            self.constraints.clear();
            // Unlisted variables wait while a listed one is undecided (a
            // listed key outranks every unlisted one), unless re-keying one
            // may touch its neighbours.
            let defer = self.listed > 0 && !self.reads_neighbours();
            self.rekey_dirty(view, defer);
            let best = self.tree[1];
            let listed_wins = best != NONE && self.keys[best as usize].rank == 2;
            if !listed_wins && !self.later.is_empty() {
                self.dirty.append(&mut self.later);
                self.rekey_dirty(view, false);
            }
        }
        let best = self.tree[1];
        if best == NONE || self.keys[best as usize].rank == 0 {
            return None;
        }
        Some(VarId::new(self.var_at[best as usize] as usize))
    }

    /// Re-keys the dirty variables (and those their re-keying touches);
    /// with `defer`, the unlisted ones move to `later`, still marked.
    fn rekey_dirty(&mut self, view: &SearchView<'_>, defer: bool) {
        let mut k = 0;
        while k < self.dirty.len() {
            let v = self.dirty[k] as usize;
            k += 1;
            let p = self.pos_of[v] as usize;
            if defer && p >= self.listed {
                self.later.push(v as u32);
                continue;
            }
            let old = self.keys[p];
            let new = self.key(view, VarId::new(v), p);
            if new == old {
                // Nothing to replay (and its rank did not change).
                continue;
            }
            self.keys[p] = new;
            if (old.rank == 0) != (new.rank == 0) && self.reads_neighbours() {
                // Its neighbours' degrees changed.
                for w in &view.watches[v] {
                    let c = w.cid as usize;
                    if !view.state.is_entailed(c) {
                        self.touch_scope(view, c);
                    }
                }
            }
            self.update(p);
        }
        // Marks stay on during the pass (a variable is re-keyed once) and on
        // the waiting ones.
        for &v in &self.dirty {
            if !(defer && (self.pos_of[v as usize] as usize) >= self.listed) {
                self.mark[v as usize] = false;
            }
        }
        self.dirty.clear();
    }

    /// Re-plays the tournament on the path above position `p`.
    /// Only `p`'s key changed: once a node keeps a winner other than `p`,
    /// the nodes above it are unchanged.
    fn update(&mut self, p: usize) {
        let mut i = (self.cap + p) / 2;
        while i >= 1 {
            let old = self.tree[i];
            let new = self.winner(self.tree[2 * i], self.tree[2 * i + 1]);
            self.tree[i] = new;
            if new == old && new != p as u32 {
                break;
            }
            i /= 2;
        }
    }

    /// The better of two positions (`NONE` loses).
    fn winner(&self, a: u32, b: u32) -> u32 {
        match (a, b) {
            (NONE, _) => b,
            (_, NONE) => a,
            _ => match self.compare(&self.keys[a as usize], &self.keys[b as usize]) {
                Ordering::Less => b,
                Ordering::Greater => a,
                // Ties to the earlier position.
                Ordering::Equal => a.min(b),
            },
        }
    }

    /// `Greater` when `x` is the better key.
    fn compare(&self, x: &Key, y: &Key) -> Ordering {
        x.rank.cmp(&y.rank).then_with(|| {
            if x.rank == 0 {
                return Ordering::Equal;
            }
            match self.order {
                VarOrder::Input | VarOrder::Random(_) => Ordering::Equal,
                VarOrder::FirstFail => y.size.cmp(&x.size),
                VarOrder::MrvDegree => y.size.cmp(&x.size).then(x.weight.cmp(&y.weight)),
                // size_x / w_x < size_y / w_y, exactly.
                VarOrder::DomOverWdeg => {
                    (y.size as u128 * x.weight as u128).cmp(&(x.size as u128 * y.weight as u128))
                }
                VarOrder::AfcSize => {
                    if x.score > y.score {
                        Ordering::Greater
                    } else if y.score > x.score {
                        Ordering::Less
                    } else {
                        Ordering::Equal
                    }
                }
            }
        })
    }

    /// The key of `var`, at position `p`.
    fn key(&self, view: &SearchView<'_>, var: VarId, p: usize) -> Key {
        if view.is_decided(var) {
            return Key::default();
        }
        let rank = if p < self.listed { 2 } else { 1 };
        let d = view.domains;
        match self.order {
            VarOrder::Input | VarOrder::Random(_) => Key {
                rank,
                ..Key::default()
            },
            VarOrder::FirstFail => Key {
                rank,
                size: d.len(var) as u64,
                ..Key::default()
            },
            VarOrder::MrvDegree => Key {
                rank,
                size: d.len(var) as u64,
                weight: view.degree(var) as u64,
                score: 0.0,
            },
            VarOrder::DomOverWdeg => Key {
                rank,
                size: d.len(var) as u64,
                weight: view.weighted_degree(var).max(1),
                score: 0.0,
            },
            VarOrder::AfcSize => Key {
                rank,
                score: view.afc(var) / d.len(var) as f64,
                ..Key::default()
            },
        }
    }

    /// Debug builds: whether to compare with the scan.
    #[cfg(debug_assertions)]
    pub(crate) fn checked(&self) -> bool {
        self.var_at.len() <= CHECKED_UP_TO
    }
}
