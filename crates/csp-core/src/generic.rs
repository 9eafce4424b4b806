//! Generic filtering that works for any constraint from its `check` alone.
//!
//! These are the defaults behind [`Constraint::promising`] and
//! [`Constraint::propagate`]. A constraint that overrides `propagate` can still call
//! them, for example to fall back on the generic algorithm for a case it does not
//! handle specially.

use smallvec::SmallVec;

use crate::constraint::{Conflict, PropStatus, Propagation};
use crate::context::PropagationContext;
use crate::{Constraint, Domains, Value, VarId};

/// The largest number of tuples [`support_search`] enumerates for one call; above
/// it, the call falls back on [`forward_check`] (weaker, still sound).
pub const SUPPORT_SEARCH_LIMIT: u64 = 1 << 16;

/// The default promising check: `true` while some variable of the scope has more
/// than one value, otherwise `check` of the values.
pub fn promising<C: Constraint + ?Sized>(c: &C, domains: &Domains) -> bool {
    let mut values: SmallVec<[Value; 8]> = SmallVec::new();
    for &v in c.scope() {
        match domains.value(v) {
            Some(x) => values.push(x),
            None => return true,
        }
    }
    c.check(&values)
}

/// Generic forward checking: for every unassigned variable `y` of the scope, removes
/// each value `w` for which the constraint is not [`promising`](Constraint::promising)
/// once `y = w`. With the whole scope assigned, it checks the constraint.
pub fn forward_check<C: Constraint + ?Sized>(
    c: &C,
    ctx: &mut PropagationContext<'_>,
) -> Propagation {
    let scope = c.scope();
    let mut changed = false;
    let mut open = 0;
    for (i, &y) in scope.iter().enumerate() {
        if ctx.is_fixed(y) || scope[..i].contains(&y) {
            continue;
        }
        open += 1;
        ctx.note_revision();
        changed |= ctx.retain_probing(y, |d| c.promising(d))?;
    }
    if open == 0 {
        return if c.promising(ctx.domains()) {
            Ok(PropStatus::Entailed)
        } else {
            Err(Conflict::infeasible())
        };
    }
    Ok(if changed {
        PropStatus::Changed
    } else {
        PropStatus::Unchanged
    })
}

/// Generic arc consistency (generalised to any arity): enumerates the tuples of the
/// current domains, keeps for each variable the values that appear in at least one
/// tuple satisfying `check` (a *support*), and removes the rest. Reports
/// `Entailed` when every tuple satisfies the constraint.
///
/// The cost is the product of the domain sizes; above [`SUPPORT_SEARCH_LIMIT`]
/// tuples it does [`forward_check`] instead.
pub fn support_search<C: Constraint + ?Sized>(
    c: &C,
    ctx: &mut PropagationContext<'_>,
) -> Propagation {
    let scope = c.scope();
    // Distinct variables, and for each scope position the index of its variable.
    let mut vars: SmallVec<[VarId; 8]> = SmallVec::new();
    let mut slot: SmallVec<[usize; 8]> = SmallVec::new();
    for &v in scope {
        match vars.iter().position(|&u| u == v) {
            Some(k) => slot.push(k),
            None => {
                slot.push(vars.len());
                vars.push(v);
            }
        }
    }
    let mut product: u64 = 1;
    for &v in &vars {
        product = product.saturating_mul(ctx.len(v) as u64);
    }
    if product > SUPPORT_SEARCH_LIMIT {
        return forward_check(c, ctx);
    }
    let doms: SmallVec<[SmallVec<[Value; 16]>; 8]> =
        vars.iter().map(|&v| ctx.values(v).collect()).collect();
    let mut supported: SmallVec<[SmallVec<[bool; 16]>; 8]> = doms
        .iter()
        .map(|d| SmallVec::from_elem(false, d.len()))
        .collect();
    let mut index: SmallVec<[usize; 8]> = SmallVec::from_elem(0, vars.len());
    let mut tuple: SmallVec<[Value; 8]> = SmallVec::from_elem(0, scope.len());
    let mut all_hold = true;
    'tuples: loop {
        for (p, &k) in slot.iter().enumerate() {
            tuple[p] = doms[k][index[k]];
        }
        if c.check(&tuple) {
            for (k, &i) in index.iter().enumerate() {
                supported[k][i] = true;
            }
        } else {
            all_hold = false;
        }
        // Next tuple (odometer).
        for k in (0..vars.len()).rev() {
            index[k] += 1;
            if index[k] < doms[k].len() {
                continue 'tuples;
            }
            index[k] = 0;
        }
        break;
    }
    let mut changed = false;
    for (k, &v) in vars.iter().enumerate() {
        ctx.note_revision();
        for (i, &w) in doms[k].iter().enumerate() {
            if !supported[k][i] {
                changed |= ctx.remove(v, w)?;
            }
        }
    }
    Ok(if all_hold {
        PropStatus::Entailed
    } else if changed {
        PropStatus::Changed
    } else {
        PropStatus::Unchanged
    })
}
