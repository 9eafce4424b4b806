//! Edge finding and not-first/not-last for one machine (the filters of
//! [`Disjunctive`](crate::constraints::Disjunctive) under the propagators
//! level; [`Diffn`](crate::constraints::Diffn) uses edge finding too), on
//! tasks given as (start, earliest start, latest completion, fixed positive
//! duration).

use smallvec::SmallVec;

use crate::constraint::Conflict;
use crate::constraints::disjunctive::clamp;
use crate::{PropagationContext, VarId};

/// Not-first/not-last over `tasks` given as in [`edge_find`], on the bounds
/// they hold (the removals go to the domains). Not last: if a set `Ω` of
/// other tasks cannot all be done before task `i` must start (the earliest
/// completion of `Ω`, the largest `est(Ω') + p(Ω')` over its subsets, exceeds
/// `lst_i`), some task of `Ω` follows `i`, so `i` ends by the latest of their
/// latest starts. For each `i` the best `Ω` is a prefix of the others by
/// latest start: the first one whose earliest completion exceeds `lst_i`.
/// Not first, symmetrically: if `Ω` cannot all start after `i` ends, `i`
/// starts after the earliest of their earliest completions; the best `Ω` is a
/// prefix by decreasing earliest completion. At most O(n^2) per task, only
/// for a task that all the tasks together already push (one O(n) sweep for
/// all) and that the largest prefix able to move it pushes (an O(n) sweep),
/// and only over the prefixes whose bound would move it.
#[inline(never)]
pub(crate) fn not_first_not_last(
    tasks: &[(VarId, i128, i128, i128)],
    ctx: &mut PropagationContext<'_>,
) -> Result<bool, Conflict> {
    let n = tasks.len();
    if n < 2 {
        return Ok(false);
    }
    filter(tasks, ctx, NotFirstNotLast)
}

/// The earliest start, the latest completion and the total duration of `tasks`.
fn spread(tasks: &[(VarId, i128, i128, i128)]) -> (i128, i128, i128) {
    let from = tasks.iter().map(|t| t.1).min().unwrap_or(0);
    let to = tasks.iter().map(|t| t.2).max().unwrap_or(0);
    (from, to, tasks.iter().map(|t| t.3).sum())
}

/// `tasks` with their times less `from`, in `i64` (the caller checked that
/// they fit), into `out`.
fn shift(
    tasks: &[(VarId, i128, i128, i128)],
    from: i128,
    out: &mut SmallVec<[(VarId, i64, i64, i64); 32]>,
) {
    out.extend(
        tasks
            .iter()
            .map(|&(s, est, lct, p)| (s, (est - from) as i64, (lct - from) as i64, p as i64)),
    );
}

/// The integer types the filters run in: `i64` on shifted times, `i128`
/// otherwise.
trait Time:
    Copy + Ord + Default + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self> + Into<i128>
{
}

impl<T> Time for T where
    T: Copy + Ord + Default + std::ops::Add<Output = T> + std::ops::Sub<Output = T> + Into<i128>
{
}

/// One of the filters: raises `lower[k]` and lowers `upper[k]` to the
/// bounds it finds for task `k`, reading only the bounds `tasks` holds.
trait Pass {
    fn bounds<T: Time>(
        &self,
        tasks: &[(VarId, T, T, T)],
        lower: &mut [T],
        upper: &mut [T],
        ctx: &mut PropagationContext<'_>,
    ) -> Result<(), Conflict>;
}

/// Not-first/not-last as a [`Pass`].
struct NotFirstNotLast;

impl Pass for NotFirstNotLast {
    fn bounds<T: Time>(
        &self,
        tasks: &[(VarId, T, T, T)],
        lower: &mut [T],
        upper: &mut [T],
        ctx: &mut PropagationContext<'_>,
    ) -> Result<(), Conflict> {
        not_first_not_last_in(tasks, lower, upper, ctx);
        Ok(())
    }
}

/// Edge finding's windows as a [`Pass`].
struct Windows;

impl Pass for Windows {
    fn bounds<T: Time>(
        &self,
        tasks: &[(VarId, T, T, T)],
        lower: &mut [T],
        upper: &mut [T],
        ctx: &mut PropagationContext<'_>,
    ) -> Result<(), Conflict> {
        windows(tasks, lower, upper, ctx)
    }
}

/// Runs `pass` and moves the starts to the bounds it found. Every rule
/// reads the bounds `tasks` holds, so applying them at the end gives the
/// same result as one by one (a wipe-out on the way is one at the end). On
/// times shifted by the earliest start, within `2^60` with durations
/// summing below `2^60`, every sum fits in `i64`; otherwise `i128`.
fn filter(
    tasks: &[(VarId, i128, i128, i128)],
    ctx: &mut PropagationContext<'_>,
    pass: impl Pass,
) -> Result<bool, Conflict> {
    let (from, to, work) = spread(tasks);
    const SMALL: i128 = 1 << 60;
    if to - from < SMALL && work < SMALL {
        let mut shifted = SmallVec::new();
        shift(tasks, from, &mut shifted);
        return run(&shifted, from, (i64::MIN, i64::MAX), tasks, ctx, pass);
    }
    run(tasks, 0, (i128::MIN, i128::MAX), tasks, ctx, pass)
}

/// [`filter`] on `times` (the tasks in `T`, moved by `-offset`), with
/// `none` the (lower, upper) values that mean "no bound found".
fn run<T: Time>(
    times: &[(VarId, T, T, T)],
    offset: i128,
    none: (T, T),
    tasks: &[(VarId, i128, i128, i128)],
    ctx: &mut PropagationContext<'_>,
    pass: impl Pass,
) -> Result<bool, Conflict> {
    let n = times.len();
    let mut lower: SmallVec<[T; 32]> = SmallVec::from_elem(none.0, n);
    let mut upper: SmallVec<[T; 32]> = SmallVec::from_elem(none.1, n);
    pass.bounds(times, &mut lower, &mut upper, ctx)?;
    let back = |v: T, none: T| (v != none).then(|| v.into() + offset);
    let lower = lower.iter().map(|&v| back(v, none.0));
    let upper = upper.iter().map(|&v| back(v, none.1));
    apply_bounds(tasks, lower, upper, ctx)
}

/// The bounds of [`not_first_not_last`] on `tasks` in `T`: raises `lower[i]`
/// and lowers `upper[i]` to the bounds found for task `i`.
fn not_first_not_last_in<T: Time>(
    tasks: &[(VarId, T, T, T)],
    lower: &mut [T],
    upper: &mut [T],
    ctx: &mut PropagationContext<'_>,
) {
    let n = tasks.len();
    // The tasks in increasing order of `key` (keys computed once).
    fn order<T: Ord + Copy>(n: usize, key: impl Fn(usize) -> T) -> SmallVec<[u32; 32]> {
        let mut keyed: SmallVec<[(T, u32); 32]> = (0..n).map(|k| (key(k), k as u32)).collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, k)| k).collect()
    }
    let (est, lct, p) = (
        |k: usize| tasks[k].1,
        |k: usize| tasks[k].2,
        |k: usize| tasks[k].3,
    );
    let zero = T::default();
    // (est, p, lst, task) by decreasing est and (lct, p, ect, task) by
    // increasing lct, ties by task.
    let mut down: SmallVec<[(T, T, T, u32); 32]> = SmallVec::new();
    down.extend((tasks.iter().enumerate()).map(|(k, t)| (t.1, t.3, t.2 - t.3, k as u32)));
    down.sort_unstable_by(|x, y| (y.0, x.3).cmp(&(x.0, y.3)));
    let mut up: SmallVec<[(T, T, T, u32); 32]> = SmallVec::new();
    up.extend((tasks.iter().enumerate()).map(|(k, t)| (t.2, t.3, t.1 + t.3, k as u32)));
    up.sort_unstable_by_key(|e| (e.0, e.3));
    let (down, up) = (&down[..], &up[..]);
    // The earliest completion of the tasks `keep` admits (it reads the task
    // and its latest start): a sweep by decreasing est.
    fn ect_of<T: Time>(down: &[(T, T, T, u32)], keep: impl Fn(usize, T) -> bool) -> Option<T> {
        let (mut sum, mut best) = (T::default(), None::<T>);
        for &(est, p, lst, k) in down {
            if keep(k as usize, lst) {
                sum = sum + p;
                best = Some(best.map_or(est + sum, |b| b.max(est + sum)));
            }
        }
        best
    }
    // The latest start of the tasks `keep` admits (it reads the task and its
    // earliest completion): a sweep by increasing lct.
    fn lst_of<T: Time>(up: &[(T, T, T, u32)], keep: impl Fn(usize, T) -> bool) -> Option<T> {
        let (mut sum, mut best) = (T::default(), None::<T>);
        for &(lct, p, ect, k) in up {
            if keep(k as usize, ect) {
                sum = sum + p;
                best = Some(best.map_or(lct - sum, |b| b.min(lct - sum)));
            }
        }
        best
    }
    let mut member: SmallVec<[bool; 32]> = SmallVec::from_elem(false, n);
    // Of all the tasks: a set of others completes no later, starts no earlier.
    let (ect_all, lst_all) = (ect_of(down, |_, _| true), lst_of(up, |_, _| true));
    // Sorted when first needed.
    let (mut by_lst, mut by_ect_down) = (None, None);
    let mut revisions = 0;
    for (i, &(_, est_i, lct_i, p_i)) in tasks.iter().enumerate() {
        let (lst_i, ect_i) = (lct_i - p_i, est_i + p_i);
        // The prefixes that could move `i` are those of the others with
        // `lst_k - p_i < lst_i`; the largest of them must not all fit first.
        if ect_all.is_some_and(|e| e > lst_i)
            && ect_of(down, |k, lst_k| k != i && lst_k - p_i < lst_i).is_some_and(|e| e > lst_i)
        {
            revisions += 1;
            member.iter_mut().for_each(|m| *m = false);
            for &k in by_lst
                .get_or_insert_with(|| order(n, |k| lct(k) - p(k)))
                .iter()
            {
                let k = k as usize;
                if k == i {
                    continue;
                }
                if lct(k) - p(k) - p_i >= lst_i {
                    // This bound and the later ones would not move `i`.
                    break;
                }
                member[k] = true;
                if ect_of(down, |k, _| member[k]).is_some_and(|e| e > lst_i) {
                    upper[i] = upper[i].min(lct(k) - p(k) - p_i);
                    break;
                }
            }
        }
        // Symmetrically, the others with `ect_k > est_i`.
        if lst_all.is_some_and(|l| l < ect_i)
            && lst_of(up, |k, ect_k| k != i && ect_k > est_i).is_some_and(|l| l < ect_i)
        {
            revisions += 1;
            member.iter_mut().for_each(|m| *m = false);
            for &k in by_ect_down
                .get_or_insert_with(|| order(n, |k| zero - (est(k) + p(k))))
                .iter()
            {
                let k = k as usize;
                if k == i {
                    continue;
                }
                if est(k) + p(k) <= est_i {
                    // This bound and the later ones would not move `i`.
                    break;
                }
                member[k] = true;
                if lst_of(up, |k, _| member[k]).is_some_and(|l| l < ect_i) {
                    lower[i] = lower[i].max(est(k) + p(k));
                    break;
                }
            }
        }
    }
    ctx.note_revisions(revisions);
}

/// Edge finding on task intervals over `tasks` given as (start, earliest
/// start, latest completion, fixed positive duration), all on one machine
/// (see [`Disjunctive`](crate::constraints::Disjunctive); [`Diffn`](crate::constraints::Diffn) uses it on the
/// rectangles that surely share a row or a column).
///
/// The windows `[a, b]` are those of an earliest start and a latest
/// completion; only those where `a` is the earliest start of a task inside and
/// `b` the latest completion of one are tried. Another window holds the same
/// tasks `Ω` as the one shrunk to the bounds of `Ω`, where each rule fires
/// whenever it fires on the wider window, with a bound at least as tight
/// (`a + p(Ω)` grows with `a`, `b - p(Ω) - p_i` falls with `b`), and where
/// an overload shows as well: skipping it changes nothing.
pub(crate) fn edge_find(
    tasks: &[(VarId, i128, i128, i128)],
    ctx: &mut PropagationContext<'_>,
) -> Result<bool, Conflict> {
    filter(tasks, ctx, Windows)
}

/// Moves each task's start to its bound found, if any.
fn apply_bounds(
    tasks: &[(VarId, i128, i128, i128)],
    lower: impl Iterator<Item = Option<i128>>,
    upper: impl Iterator<Item = Option<i128>>,
    ctx: &mut PropagationContext<'_>,
) -> Result<bool, Conflict> {
    let mut changed = false;
    for ((&(s, ..), lower), upper) in tasks.iter().zip(lower).zip(upper) {
        if let Some(lower) = lower.filter(|&v| v > i128::from(ctx.min(s))) {
            changed |= ctx.remove_below(s, clamp(lower))?;
        }
        if let Some(upper) = upper.filter(|&v| v < i128::from(ctx.max(s))) {
            changed |= ctx.remove_above(s, clamp(upper))?;
        }
    }
    Ok(changed)
}

/// [`edge_find`]'s windows on `tasks` in `T` (`i64` on shifted times, or
/// `i128`): raises `lower[k]` and lowers `upper[k]` to the bounds found for
/// task `k`.
fn windows<T: Time>(
    tasks: &[(VarId, T, T, T)],
    lower: &mut [T],
    upper: &mut [T],
    ctx: &mut PropagationContext<'_>,
) -> Result<(), Conflict> {
    let n = tasks.len();
    // (lct, est, p) by latest completion; (est, lct) by earliest start.
    // (Built in place: a `SmallVec` collected and moved is copied whole.)
    let mut ends: SmallVec<[(T, T, T); 32]> = SmallVec::new();
    ends.extend(tasks.iter().map(|t| (t.2, t.1, t.3)));
    ends.sort_unstable_by_key(|e| e.0);
    let mut starts: SmallVec<[(T, T); 32]> = SmallVec::new();
    starts.extend(tasks.iter().map(|t| (t.1, t.2)));
    starts.sort_unstable();
    // (p, est, lct, task) by decreasing duration: a window with `slack` time
    // to spare moves only the tasks longer than `slack` (both rules below
    // need `p > b - a - p(Ω)`), the first ones of this order.
    let mut longest: SmallVec<[(T, T, T, u32); 32]> = SmallVec::new();
    longest.extend((tasks.iter().enumerate()).map(|(k, t)| (t.3, t.1, t.2, k as u32)));
    longest.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
    // Read as slices (a `SmallVec` tests where its items are at each use).
    let (ends, starts, longest) = (&ends[..], &starts[..], &longest[..]);
    let mut at = 0;
    while at < n {
        // `a`: the next earliest start; `first_b`: the smallest latest
        // completion of a task starting there (sorted second in `starts`).
        let (a, first_b) = starts[at];
        while at < n && starts[at].0 == a {
            at += 1;
        }
        // The windows `[a, b]` by increasing `b`; `work`: the durations of
        // the tasks inside.
        let mut work = T::default();
        let mut m = 0;
        while m < n {
            let b = ends[m].0;
            let mut ends_here = false;
            while m < n && ends[m].0 == b {
                let (_, est, p) = ends[m];
                if est >= a {
                    work = work + p;
                    ends_here = true;
                }
                m += 1;
            }
            if !ends_here || b < first_b {
                continue;
            }
            ctx.note_revision();
            if a + work > b {
                return Err(Conflict::infeasible());
            }
            // Room left for a task no longer than `slack`: neither rule
            // below can fire, as `min(est, a) <= a` and `max(lct, b) >= b`.
            let slack = b - a - work;
            for &(p, est, lct, k) in longest.iter().take_while(|e| e.0 > slack) {
                let k = k as usize;
                if est >= a && lct <= b {
                    continue;
                }
                if est.min(a) + work + p > b {
                    lower[k] = lower[k].max(a + work);
                }
                if lct.max(b) - work - p < a {
                    upper[k] = upper[k].min(b - work - p);
                }
            }
        }
    }
    Ok(())
}
