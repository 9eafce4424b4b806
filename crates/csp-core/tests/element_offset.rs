//! `OffsetElement`'s incremental paths (the unchanged-call test, the
//! residues) against brute force:
//!
//! - the exhaustive harness (see `tests/harness/`) audits every `propagate`
//!   call on every sub-domain combination of small cases over variables and
//!   constants, without aliasing (where the incremental paths apply);
//! - random cases: the root fixpoint is exactly the documented one (indices
//!   whose entry shares a value with the result, results some index gives,
//!   the selected entry equal to the result once the index is fixed), and
//!   searches over several elements sharing an array, at every level, find
//!   exactly the brute-force solutions.

mod harness;

use csp_core::constraints::OffsetElement;
use csp_core::{Config, Model, Pruning, Solver, Value, VarId, VarOrder};
use harness::*;

/// `v[1] = items[v[0] - offset]` where the items are `v[2..]`.
fn holds_var(v: &[Value], offset: Value) -> bool {
    let k = i128::from(v[0]) - i128::from(offset);
    (0..(v.len() - 2) as i128).contains(&k) && v[2 + k as usize] == v[1]
}

#[test]
fn element_over_variables_is_sound_on_every_sub_domain() {
    let cases: [(&[&[Value]], Value); 3] = [
        (&[&[0, 1, 2, 3], &[0, 1, 2], &[0, 2], &[1, 2, 3]], 1),
        (
            &[&[-1, 0, 1], &[-2, 0, 3], &[-2, 3], &[0, 1, 3], &[-2, 0]],
            0,
        ),
        (&[&[2, 3, 5], &[1, 4, 5], &[1, 5], &[4, 5, 6], &[1, 4]], 3),
    ];
    for (doms, offset) in cases {
        let items: Vec<VarId> = (2..doms.len()).map(x).collect();
        assert_element_trustworthy(&items, doms, offset);
    }
}

/// `x1 = items[x0 - offset]` over `doms`: sound and GAC with one open
/// variable (idempotence included) on up to 2,500 sub-domain combinations.
fn assert_element_trustworthy(items: &[VarId], doms: &[&[Value]], offset: Value) {
    let c = OffsetElement::with_vars(x(0), items, offset, x(1));
    let mut k = case(
        format!("x1 = {items:?}[x0 - {offset}] over {doms:?}"),
        c,
        doms,
        move |v| holds_var(v, offset),
    )
    .everywhere(Strength::GacWhenOneOpen);
    k.max_combos = 2_500;
    assert_trustworthy(k);
}

/// The result among the entries (`x[i] = x[k]`, as in a routing model's
/// `vehicle[successor[n]] = vehicle[n]`): still idempotent, with the
/// unchanged-call test, the residues and the wake set, on every sub-domain.
#[test]
fn element_whose_result_is_an_entry_is_sound_and_idempotent_on_every_sub_domain() {
    let cases: [(&[&[Value]], Value); 2] = [
        (&[&[0, 1, 2, 3, 4], &[0, 1, 2], &[0, 2], &[1, 2, 3]], 1),
        (&[&[-1, 0, 1, 2], &[-2, 0, 3], &[-2, 3], &[0, 1, 3]], 0),
    ];
    for (doms, offset) in cases {
        // x1 = [x2, x1, x3][x0 - offset]
        assert_element_trustworthy(&[x(2), x(1), x(3)], doms, offset);
    }
}

/// Elements whose result is an entry of their own array, chained through
/// shared indices, count what brute force counts at every level.
#[test]
fn elements_whose_result_is_an_entry_count_what_brute_force_counts() {
    let mut rng = Rng(0x5e1f_a11a5);
    for round in 0..120 {
        let n = rng.int(3, 5) as usize;
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..n)
            .map(|_| m.int_var(rng.domain(0, 3)).unwrap())
            .collect();
        for _ in 0..rng.int(1, 3) {
            let k = rng.int(0, n as Value - 1) as usize;
            let i = m.int_var(rng.domain(0, n as Value)).unwrap();
            m.post(OffsetElement::with_vars(i, &xs, 1, xs[k])).unwrap();
        }
        let domains: Vec<Vec<Value>> = m.vars().map(|v| m.domain(v).unwrap().values()).collect();
        let want = assignments(&domains).filter(|a| m.is_solution(a)).count() as u64;
        for pruning in Pruning::ALL {
            let config = Config::textbook()
                .with_pruning(pruning)
                .with_var_order(VarOrder::FirstFail);
            let got = Solver::new(&m, config).unwrap().count();
            assert!(got.is_complete());
            assert_eq!(got.solutions, want, "round {round} {pruning}");
        }
    }
}

#[test]
fn element_over_constants_is_sound_and_gac_on_every_sub_domain() {
    let array = [4, -1, 4, 2, 0];
    for offset in [1, -1] {
        assert_trustworthy(
            case(
                format!("x1 = {array:?}[x0 - {offset}]"),
                OffsetElement::new(x(0), &array, offset, x(1)),
                &[&[-1, 0, 1, 3, 5], &[-1, 0, 2, 4]],
                move |v| {
                    let k = i128::from(v[0]) - i128::from(offset);
                    (0..5).contains(&k) && array[k as usize] == v[1]
                },
            )
            .everywhere(Strength::Gac),
        );
    }
}

/// The documented fixpoint of one element over variables, computed from the
/// domains: `(index, result, items)`.
fn expected_fixpoint(
    index: &[Value],
    result: &[Value],
    items: &[Vec<Value>],
    offset: Value,
) -> (Vec<Value>, Vec<Value>, Vec<Vec<Value>>) {
    let entry = |i: Value| {
        usize::try_from(i - offset)
            .ok()
            .filter(|&k| k < items.len())
    };
    let idx: Vec<Value> = index
        .iter()
        .copied()
        .filter(|&i| entry(i).is_some_and(|k| items[k].iter().any(|v| result.contains(v))))
        .collect();
    let res: Vec<Value> = result
        .iter()
        .copied()
        .filter(|r| idx.iter().any(|&i| items[entry(i).unwrap()].contains(r)))
        .collect();
    let mut its = items.to_vec();
    if let [i] = idx[..] {
        let k = entry(i).unwrap();
        its[k].retain(|v| res.contains(v));
    }
    (idx, res, its)
}

#[test]
fn random_elements_reach_the_documented_fixpoint_and_the_brute_force_solutions() {
    let mut rng = Rng(0xe1e_0ff5e7);
    let mut narrowed = 0;
    for round in 0..300 {
        let n = rng.int(2, 5) as usize;
        let offset = rng.int(-1, 2);
        let index = rng.domain(offset - 1, offset + n as Value);
        let result = rng.domain(-2, 4);
        let items: Vec<Vec<Value>> = (0..n).map(|_| rng.domain(-2, 4)).collect();
        let (idx, res, its) = expected_fixpoint(&index, &result, &items, offset);
        let mut m = Model::new();
        let i = m.int_var(index.clone()).unwrap();
        let r = m.int_var(result.clone()).unwrap();
        let xs: Vec<VarId> = items
            .iter()
            .map(|d| m.int_var(d.clone()).unwrap())
            .collect();
        m.post(OffsetElement::with_vars(i, &xs, offset, r)).unwrap();
        if !idx.is_empty() {
            for pruning in [Pruning::ArcConsistency, Pruning::Propagators] {
                let s = Solver::new(&m, Config::textbook().with_pruning(pruning)).unwrap();
                let d = s.domains();
                let got = |v: VarId| d.values(v).collect::<Vec<_>>();
                let what = format!("round {round} {pruning}: {index:?} {result:?} {items:?}");
                assert_eq!(got(i), idx, "index, {what}");
                assert_eq!(got(r), res, "result, {what}");
                for (k, &x) in xs.iter().enumerate() {
                    assert_eq!(got(x), its[k], "item {k}, {what}");
                }
            }
            narrowed += usize::from(idx.len() < index.len() || res.len() < result.len());
            // One or two decisions below the root on the index, the result or
            // an item: the incremental state (residues, the size seen, the
            // entries that no longer wake it) must not hide what changed.
            let mut open: Vec<(VarId, Vec<Value>)> = [(i, idx.clone()), (r, res.clone())]
                .into_iter()
                .chain(xs.iter().copied().zip(its.iter().cloned()))
                .filter(|(_, d)| d.len() > 1)
                .collect();
            if !open.is_empty() {
                let (mut ei, mut er, mut ex) = (idx.clone(), res.clone(), its.clone());
                let mut decisions = Vec::new();
                for _ in 0..rng.int(1, 2) {
                    if open.is_empty() {
                        break;
                    }
                    let (var, dom) = open.swap_remove(rng.int(0, open.len() as Value - 1) as usize);
                    let value = dom[rng.int(0, dom.len() as Value - 1) as usize];
                    decisions.push((var, value));
                    if var == i {
                        ei = vec![value];
                    } else if var == r {
                        er = vec![value];
                    } else {
                        ex[xs.iter().position(|&x| x == var).unwrap()] = vec![value];
                    }
                }
                // The documented filtering, to its fixpoint.
                loop {
                    let next = expected_fixpoint(&ei, &er, &ex, offset);
                    if next == (ei.clone(), er.clone(), ex.clone()) || next.0.is_empty() {
                        (ei, er, ex) = next;
                        break;
                    }
                    (ei, er, ex) = next;
                }
                let config = Config::textbook().with_pruning(Pruning::Propagators);
                let mut s = Solver::new(&m, config).unwrap();
                let ok = s.assume(&decisions).unwrap();
                let what = format!("round {round}, {decisions:?}: {index:?} {result:?} {items:?}");
                assert_eq!(ok, !ei.is_empty(), "{what}");
                if ok {
                    let d = s.domains();
                    let got = |v: VarId| d.values(v).collect::<Vec<_>>();
                    assert_eq!(got(i), ei, "index, {what}");
                    assert_eq!(got(r), er, "result, {what}");
                    for (k, &x) in xs.iter().enumerate() {
                        assert_eq!(got(x), ex[k], "item {k}, {what}");
                    }
                }
            }
        }
        // A second element on the same array and result, so that one's
        // filtering wakes the other in the middle of the search.
        let j = m.int_var(index.clone()).unwrap();
        m.post(OffsetElement::with_vars(j, &xs, offset, r)).unwrap();
        m.not_equal(i, j).unwrap();
        let domains: Vec<Vec<Value>> = m.vars().map(|v| m.domain(v).unwrap().values()).collect();
        let want = assignments(&domains).filter(|a| m.is_solution(a)).count() as u64;
        for pruning in Pruning::ALL {
            let config = Config::textbook()
                .with_pruning(pruning)
                .with_var_order(VarOrder::FirstFail);
            let got = Solver::new(&m, config).unwrap().count();
            assert!(got.is_complete());
            assert_eq!(got.solutions, want, "round {round} {pruning}");
        }
    }
    assert!(narrowed > 50, "only {narrowed} rounds narrowed anything");
}
