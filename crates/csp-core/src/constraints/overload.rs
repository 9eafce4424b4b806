//! Overload checking for cumulative resources (Vilím's Θ-tree): energy
//! reasoning that detects a set of tasks too big for its time window.

use crate::Domains;
use crate::constraints::cumulative::Task;

/// Overload checking (Vilím's Θ-tree, O(n log n)): fails when some set of
/// tasks needs more energy (smallest duration times smallest demand) than
/// `capacity` provides between the set's earliest start and latest end
/// (latest start plus smallest duration). Tasks are added by increasing
/// latest end to a tree over their earliest starts whose root holds the
/// largest `capacity * est(Ω') + energy(Ω')` over the sets Ω' of tasks
/// added so far with an earliest start at least `est(Ω')`; an overload shows
/// as a root above `capacity` times the latest end just added.
pub(crate) fn overloaded(tasks: &[Task], d: &Domains, capacity: i128, s: &mut Overload) -> bool {
    // (earliest start, latest end, energy) of the tasks that use the
    // resource, with the earliest start, the latest end and the energy of
    // them all.
    s.windows.clear();
    let (mut from, mut to, mut energy) = (i128::MAX, i128::MIN, 0i128);
    for t in tasks.iter().filter(|t| t.duration > 0 && t.demand > 0) {
        let est = i128::from(d.min(t.start));
        let lct = i128::from(d.max(t.start)) + t.duration;
        // Each factor within `i64`: the product fits.
        let e = t.duration * t.demand;
        (from, to, energy) = (from.min(est), to.max(lct), energy.saturating_add(e));
        s.windows.push((est, lct, e));
    }
    if s.windows.len() < 2 {
        return false;
    }
    // The test is the same with every time shifted by the earliest start;
    // then, on the usual small numbers, it runs in `i64`.
    const SMALL: i128 = 1 << 30;
    if to - from < SMALL && capacity < SMALL && energy < SMALL * SMALL {
        overloaded_small(from, capacity as i64, s)
    } else {
        overloaded_wide(capacity, s)
    }
}

/// Up to this many tasks, [`overloaded_small`] tries the windows one by one
/// (O(n^2) additions, one sort) rather than building the Θ-tree (two sorts
/// and a climb per task): on random RCPSP instances with about ten tasks
/// per resource, 229 M instructions in all against the tree's 331 M.
const FEW: usize = 32;

/// [`overloaded`] on times shifted by `from`, all within `2^30`, a capacity
/// below `2^30` and less than `2^60` energy in all: every sum and product
/// fits in `i64`. With at most [`FEW`] tasks, for each earliest start `a`
/// the tasks are added by increasing latest end `b`, those starting at `a`
/// or later, and the energy compared with `capacity * (b - a)` (a tie of
/// latest ends is compared part-way too, on a subset: never a false
/// alarm). Otherwise the Θ-tree: leaves in order of earliest start, an
/// empty node with envelope -1, below every real one (the shifted times
/// are at least 0).
fn overloaded_small(from: i128, capacity: i64, s: &mut Overload) -> bool {
    let n = s.windows.len();
    if n <= FEW {
        s.ends.clear();
        s.ends.extend(
            s.windows
                .iter()
                .map(|w| ((w.1 - from) as i64, (w.0 - from) as i64, w.2 as i64)),
        );
        s.ends.sort_unstable();
        for &(_, a, _) in &s.ends {
            let mut energy = 0;
            for &(b, est, e) in &s.ends {
                if est >= a {
                    energy += e;
                    if energy > capacity * (b - a) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
    s.by_start.clear();
    s.by_start.extend(
        s.windows
            .iter()
            .enumerate()
            .map(|(k, w)| ((w.0 - from) as i64, k as u32)),
    );
    s.by_start.sort_unstable();
    s.by_end.clear();
    s.leaves.clear();
    for (leaf, &(est, k)) in s.by_start.iter().enumerate() {
        let (_, lct, energy) = s.windows[k as usize];
        let energy = energy as i64;
        s.leaves.push((energy, capacity * est + energy));
        s.by_end.push(((lct - from) as i64, leaf as u32));
    }
    s.by_end.sort_unstable();
    let size = n.next_power_of_two();
    s.tree.clear();
    s.tree.resize(2 * size, (0, -1));
    let tree = &mut s.tree;
    for &(lct, leaf) in &s.by_end {
        let mut v = size + leaf as usize;
        tree[v] = s.leaves[leaf as usize];
        while v > 1 {
            v /= 2;
            let (l, r) = (tree[2 * v], tree[2 * v + 1]);
            // With `l` empty, `-1 + r.0` stays below `r.1 >= r.0`.
            tree[v] = (l.0 + r.0, (l.1 + r.0).max(r.1));
        }
        if tree[1].1 > capacity * lct {
            return true;
        }
    }
    false
}

/// [`overloaded`] in `i128` on the unshifted times: `capacity * time` is
/// within ±2^126 and energies add up saturating, which can only turn a
/// true overload into a certain one. An empty node has envelope `i128::MIN`.
fn overloaded_wide(capacity: i128, s: &mut Overload) -> bool {
    let n = s.windows.len();
    let windows = &s.windows;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_unstable_by_key(|&k| windows[k].0);
    let mut rank = vec![0; n];
    for (leaf, &k) in order.iter().enumerate() {
        rank[k] = leaf;
    }
    let size = n.next_power_of_two();
    let mut tree = vec![(0i128, i128::MIN); 2 * size];
    let mut by_end: Vec<usize> = (0..n).collect();
    by_end.sort_unstable_by_key(|&k| windows[k].1);
    for k in by_end {
        let (est, lct, energy) = windows[k];
        let mut v = size + rank[k];
        tree[v] = (energy, (capacity * est).saturating_add(energy));
        while v > 1 {
            v /= 2;
            let (l, r) = (tree[2 * v], tree[2 * v + 1]);
            let left = if l.1 == i128::MIN {
                i128::MIN
            } else {
                l.1.saturating_add(r.0)
            };
            tree[v] = (l.0.saturating_add(r.0), left.max(r.1));
        }
        if tree[1].1 > capacity * lct {
            return true;
        }
    }
    false
}

/// Buffers of [`overloaded`].
#[derive(Default)]
pub(crate) struct Overload {
    /// (earliest start, latest end, energy) of each task with some energy.
    windows: Vec<(i128, i128, i128)>,
    /// (shifted latest end, shifted earliest start, energy), sorted.
    ends: Vec<(i64, i64, i64)>,
    /// (shifted earliest start, task), sorted: the leaves.
    by_start: Vec<(i64, u32)>,
    /// (shifted latest end, leaf), sorted: the order of insertion.
    by_end: Vec<(i64, u32)>,
    /// (energy, envelope) of each leaf.
    leaves: Vec<(i64, i64)>,
    /// (energy, envelope) of each node of the tree.
    tree: Vec<(i64, i64)>,
}

#[cfg(test)]
mod tests {
    use super::{FEW, Overload, overloaded};
    use crate::constraints::cumulative::Task;
    use crate::{Domains, Value, VarId};

    /// Overload checking against its definition by windows: some window
    /// `[earliest start of a task, latest end of a task)` holds tasks whose
    /// energy exceeds the capacity times its length. On small numbers, near
    /// the ends of `i64`, and spread over both ends (where the products need
    /// `i128`).
    #[test]
    fn overload_checking_fails_exactly_on_an_overloaded_window() {
        let mut rng = crate::rng::SplitMix64::new(0xbb67_ae85_84ca_a73b_u64);
        let mut next = |k: u64| rng.below(k) as Value;
        let mut buffers = Overload::default();
        let (mut over, mut fits) = (0, 0);
        let (mut tree_over, mut tree_fits) = (0, 0);
        for round in 0..4000 {
            // Every fifth case has more than `FEW` tasks that use the
            // resource (the Θ-tree); about half of the tasks drawn do.
            let many = round % 5 == 4;
            let n = if many {
                3 * FEW + next(8) as usize
            } else {
                1 + next(6) as usize
            };
            let cap = if many {
                8 + next(8) as i128
            } else {
                next(4) as i128
            };
            // Small numbers, near either end of `i64` (the shifted `i64`
            // path), and spread over both ends (the `i128` path).
            let bounds: Vec<(Value, Value)> = (0..n)
                .map(|k| {
                    let base = match (round % 4, k % 2) {
                        (0, _) => 0,
                        (1, _) | (3, 0) => Value::MAX - 40,
                        _ => Value::MIN,
                    };
                    let lo = base + next(12);
                    (lo, lo + next(8))
                })
                .collect();
            let d = Domains::new(bounds.iter().map(|&(a, b)| (a, b, None)));
            let tasks: Vec<Task> = (0..n)
                .map(|i| Task {
                    start: VarId::new(i),
                    duration: next(5) as i128,
                    demand: next(3) as i128,
                })
                .collect();
            let window = |i: usize| {
                let (lo, hi) = bounds[i];
                (i128::from(lo), i128::from(hi) + tasks[i].duration)
            };
            let used: Vec<usize> = (0..n)
                .filter(|&i| tasks[i].duration > 0 && tasks[i].demand > 0)
                .collect();
            let want = used.iter().any(|&a| {
                used.iter().any(|&b| {
                    let (from, to) = (window(a).0, window(b).1);
                    let energy: i128 = used
                        .iter()
                        .filter(|&&t| window(t).0 >= from && window(t).1 <= to)
                        .map(|&t| tasks[t].duration * tasks[t].demand)
                        .sum();
                    energy > 0 && energy > cap * (to - from)
                })
            });
            // One task alone overloads only when time-tabling already fails
            // (a demand above the capacity): the check leaves it alone.
            let want = want && used.len() >= 2;
            assert_eq!(
                overloaded(&tasks, &d, cap, &mut buffers),
                want,
                "{bounds:?} {tasks:?} capacity {cap}"
            );
            match (want, many) {
                (true, false) => over += 1,
                (false, false) => fits += 1,
                (true, true) => tree_over += 1,
                (false, true) => tree_fits += 1,
            }
        }
        assert!(over > 300 && fits > 300, "{over} {fits}");
        assert!(tree_over > 50 && tree_fits > 50, "{tree_over} {tree_fits}");
    }
}
