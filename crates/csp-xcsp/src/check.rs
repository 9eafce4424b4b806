//! The verifier: whether values satisfy a constraint, by XCSP3's definition
//! of each constraint read directly (no engine, no translation).

use std::collections::{BTreeSet, HashMap};

use crate::expr::{Expr, Op};
use crate::flat::Flat;

fn all(list: &[Expr], values: &[i64]) -> Option<Vec<i64>> {
    list.iter().map(|e| e.eval(values)).collect()
}

fn compare(op: Op, a: i64, b: i64) -> bool {
    match op {
        Op::Lt => a < b,
        Op::Le => a <= b,
        Op::Gt => a > b,
        Op::Ge => a >= b,
        Op::Eq => a == b,
        _ => a != b,
    }
}

/// Whether `values` (indexed by variable number) satisfy `c`; an undefined
/// operation (division by zero, overflow) makes a constraint false.
///
/// ```
/// use csp_xcsp::expr::Expr;
/// use csp_xcsp::Flat;
/// let c = Flat::AllDifferent { list: vec![Expr::Var(0), Expr::Var(1)], except: vec![0] };
/// assert!(csp_xcsp::holds(&c, &[0, 0]));
/// assert!(!csp_xcsp::holds(&c, &[2, 2]));
/// ```
pub fn holds(c: &Flat, values: &[i64]) -> bool {
    holds_opt(c, values).unwrap_or(false)
}

fn holds_opt(c: &Flat, values: &[i64]) -> Option<bool> {
    Some(match c {
        Flat::Intension(e) => e.eval(values)? != 0,
        Flat::Extension {
            list,
            tuples,
            supports,
        } => {
            let t = all(list, values)?;
            let found = tuples
                .iter()
                .any(|row| row.iter().zip(&t).all(|(r, &v)| r.is_none_or(|r| r == v)));
            found == *supports
        }
        Flat::AllDifferent { list, except } => {
            let t = all(list, values)?;
            let mut seen = BTreeSet::new();
            t.iter()
                .filter(|v| !except.contains(v))
                .all(|&v| seen.insert(v))
        }
        Flat::AllEqual { list } => {
            let t = all(list, values)?;
            t.windows(2).all(|w| w[0] == w[1])
        }
        Flat::Ordered { list, lengths, op } => {
            let t = all(list, values)?;
            let l = all(lengths, values)?;
            (1..t.len()).all(|i| {
                compare(
                    *op,
                    t[i - 1].saturating_add(l.get(i - 1).copied().unwrap_or(0)),
                    t[i],
                )
            })
        }
        Flat::Lex { lists, op } => {
            let ts: Vec<Vec<i64>> = lists
                .iter()
                .map(|l| all(l, values))
                .collect::<Option<_>>()?;
            ts.windows(2)
                .all(|w| compare(*op, lex_cmp(&w[0], &w[1]), 0))
        }
        Flat::Sum { list, coeffs, cond } => {
            let t = all(list, values)?;
            let c = all(coeffs, values)?;
            let s = t
                .iter()
                .zip(&c)
                .try_fold(0i64, |s, (&x, &k)| s.checked_add(x.checked_mul(k)?))?;
            cond.holds(s, values)?
        }
        Flat::Count {
            list,
            values: vals,
            cond,
        } => {
            let t = all(list, values)?;
            let vs = all(vals, values)?;
            cond.holds(t.iter().filter(|v| vs.contains(v)).count() as i64, values)?
        }
        Flat::NValues { list, except, cond } => {
            let t = all(list, values)?;
            let distinct: BTreeSet<i64> = t.into_iter().filter(|v| !except.contains(v)).collect();
            cond.holds(distinct.len() as i64, values)?
        }
        Flat::Cardinality {
            list,
            values: vals,
            occurs,
            closed,
        } => {
            let t = all(list, values)?;
            let vs = all(vals, values)?;
            if *closed && t.iter().any(|v| !vs.contains(v)) {
                return Some(false);
            }
            for (v, o) in vs.iter().zip(occurs) {
                if !o.holds(t.iter().filter(|x| *x == v).count() as i64, values)? {
                    return Some(false);
                }
            }
            true
        }
        Flat::Extremum { max, list, cond } => {
            let t = all(list, values)?;
            let m = if *max {
                t.iter().max()?
            } else {
                t.iter().min()?
            };
            cond.holds(*m, values)?
        }
        Flat::Element {
            list,
            start,
            index,
            cond,
        } => {
            let i = index.eval(values)?.checked_sub(*start)?;
            let v = list.get(usize::try_from(i).ok()?)?.eval(values)?;
            cond.holds(v, values)?
        }
        Flat::Channel {
            list,
            inverse,
            value,
        } => {
            let x = all(list, values)?;
            if let Some(v) = value {
                let v = v.eval(values)?;
                // Exactly one 1, at position `value`.
                return Some(
                    x.iter()
                        .enumerate()
                        .all(|(i, &b)| (b == 1) == (i as i64 == v))
                        && x.iter().all(|&b| b == 0 || b == 1)
                        && x.iter().filter(|&&b| b == 1).count() == 1,
                );
            }
            let y = if inverse.is_empty() {
                x.clone()
            } else {
                all(inverse, values)?
            };
            // x[i] = j <=> y[j] = i (with one list: x[i] = j <=> x[j] = i).
            let ok = |a: &[i64], b: &[i64]| {
                a.iter().enumerate().all(|(i, &j)| {
                    usize::try_from(j)
                        .ok()
                        .and_then(|j| b.get(j))
                        .is_some_and(|&k| k == i as i64)
                })
            };
            // Lists of different lengths: the shorter one maps into the longer.
            if x.len() < y.len() {
                ok(&x, &y)
            } else {
                ok(&x, &y) && ok(&y, &x)
            }
        }
        Flat::Regular { list, automaton } => {
            let t = all(list, values)?;
            let mut arcs: HashMap<(usize, i64), Vec<usize>> = HashMap::new();
            for &(f, v, to) in &automaton.transitions {
                arcs.entry((f, v)).or_default().push(to);
            }
            let mut now: BTreeSet<usize> = [automaton.start].into();
            for v in t {
                now = now
                    .iter()
                    .flat_map(|&q| arcs.get(&(q, v)).into_iter().flatten().copied())
                    .collect();
            }
            now.iter().any(|q| automaton.finals.contains(q))
        }
        Flat::Cumulative {
            origins,
            lengths,
            heights,
            cond,
        } => {
            let (o, l, h) = (
                all(origins, values)?,
                all(lengths, values)?,
                all(heights, values)?,
            );
            // The load only changes at the start of a task: check there.
            for &t in &o {
                let load = (0..o.len())
                    .filter(|&i| o[i] <= t && t < o[i].saturating_add(l[i]))
                    .try_fold(0i64, |s, i| s.checked_add(h[i]))?;
                if !cond.holds(load, values)? {
                    return Some(false);
                }
            }
            true
        }
        Flat::NoOverlap {
            origins,
            lengths,
            zero_ignored,
        } => {
            let o: Vec<Vec<i64>> = origins
                .iter()
                .map(|b| all(b, values))
                .collect::<Option<_>>()?;
            let l: Vec<Vec<i64>> = lengths
                .iter()
                .map(|b| all(b, values))
                .collect::<Option<_>>()?;
            for i in 0..o.len() {
                for j in i + 1..o.len() {
                    if *zero_ignored && (l[i].contains(&0) || l[j].contains(&0)) {
                        continue;
                    }
                    // Boxes overlap unless separated along some dimension.
                    let apart = (0..o[i].len()).any(|d| {
                        o[i][d].saturating_add(l[i][d]) <= o[j][d]
                            || o[j][d].saturating_add(l[j][d]) <= o[i][d]
                    });
                    if !apart {
                        return Some(false);
                    }
                }
            }
            true
        }
        Flat::Circuit { list, start, size } => {
            let t = all(list, values)?;
            let n = t.len();
            let succ: Vec<usize> = t
                .iter()
                .map(|&v| {
                    usize::try_from(v.checked_sub(*start)?)
                        .ok()
                        .filter(|&k| k < n)
                })
                .collect::<Option<_>>()?;
            let mut seen = BTreeSet::new();
            if !succ.iter().all(|s| seen.insert(*s)) {
                return Some(false);
            }
            let on: Vec<usize> = (0..n).filter(|&i| succ[i] != i).collect();
            let Some(&first) = on.first() else {
                return Some(false);
            };
            // Following the successors from one node of the circuit visits all of them.
            let (mut k, mut len) = (succ[first], 1);
            while k != first && len <= n {
                k = succ[k];
                len += 1;
            }
            let size_ok = match size {
                Some(s) => s.eval(values)? == on.len() as i64,
                None => on.len() >= 2,
            };
            len == on.len() && size_ok
        }
        Flat::Instantiation { list, values: vals } => all(list, values)? == *vals,
        Flat::Precedence {
            list,
            values: vals,
            covered,
        } => {
            let t = all(list, values)?;
            let first = |v: i64| t.iter().position(|&x| x == v);
            let mut ok = true;
            for w in vals.windows(2) {
                ok &= match (first(w[0]), first(w[1])) {
                    (_, None) => true,
                    (None, Some(_)) => false,
                    (Some(a), Some(b)) => a < b,
                };
            }
            ok && (!*covered || vals.iter().all(|&v| first(v).is_some()))
        }
        Flat::Clause { list } => all(list, values)?.iter().any(|&b| b != 0),
    })
}

/// -1, 0 or 1 as `a` is lexicographically before, equal to or after `b`.
fn lex_cmp(a: &[i64], b: &[i64]) -> i64 {
    match a.cmp(b) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    }
}
