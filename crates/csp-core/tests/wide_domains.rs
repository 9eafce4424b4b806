//! Wide domains: variables declared over more than `MAX_DOMAIN_WIDTH` values
//! (up to the whole of `i64`), kept as bounds and holes, searched at the
//! propagators level against brute force over the small box where the
//! constraints put every solution.

use std::collections::BTreeSet;

use csp_core::rng::SplitMix64;
use csp_core::{Config, CspError, MAX_DOMAIN_WIDTH, Model, Pruning, Relation, ValOrder, Value};

/// Where a variable lives: its declared range (wide) and the box of 5
/// values its bounding constraint leaves.
fn region(rng: &mut SplitMix64) -> ((Value, Value), Value) {
    let k = (rng.next_u64() % 4) as Value;
    match rng.next_u64() % 5 {
        0 => ((Value::MIN, Value::MIN + (1 << 40)), Value::MIN + k),
        1 => ((Value::MAX - (1 << 40), Value::MAX), Value::MAX - 4 - k),
        2 => ((Value::MIN, Value::MAX), k - 2),
        3 => ((-(1 << 35), 1 << 35), k - 2),
        _ => ((-3, MAX_DOMAIN_WIDTH as Value), k),
    }
}

/// A random model over 3 or 4 wide variables, and the box of each.
fn random_model(seed: u64) -> (Model, Vec<Value>) {
    let mut rng = SplitMix64::new(seed);
    let mut m = Model::new();
    let n = 3 + (rng.next_u64() % 2) as usize;
    let mut starts = Vec::new();
    let mut vars = Vec::new();
    for i in 0..n {
        let ((lo, hi), start) = region(&mut rng);
        let x = m.named_int_var(format!("x{i}"), lo..=hi).unwrap();
        vars.push(x);
        starts.push(start);
        let top = start + 4;
        match rng.next_u64() % 3 {
            // Bounds by linear constraints.
            0 => {
                m.linear(&[1], &[x], Relation::Ge, start).unwrap();
                m.linear(&[1], &[x], Relation::Le, top).unwrap();
            }
            // A unary table: the box but one value, so a hole inside it.
            1 => {
                let gap = start + 1 + (rng.next_u64() % 3) as Value;
                let rows = (start..=top)
                    .filter(|&v| v != gap)
                    .map(|v| vec![v])
                    .collect();
                m.table(&[x], rows).unwrap();
            }
            // Bounds, then a hole poked by a negative table.
            _ => {
                m.linear(&[1], &[x], Relation::Ge, start).unwrap();
                m.linear(&[1], &[x], Relation::Le, top).unwrap();
                let gap = start + 1 + (rng.next_u64() % 3) as Value;
                m.negative_table(&[x], vec![vec![Some(gap)]]).unwrap();
            }
        }
    }
    // Constraints between two variables, on their offsets from their boxes
    // (so they bite whatever the regions).
    for _ in 0..2 + rng.next_u64() % 3 {
        let i = (rng.next_u64() % n as u64) as usize;
        let j = (i + 1 + (rng.next_u64() % (n as u64 - 1)) as usize) % n;
        let (x, y) = (vars[i], vars[j]);
        let shift = i128::from(starts[i]) - i128::from(starts[j]);
        match rng.next_u64() % 3 {
            0 => {
                // x != y + shift + d
                let d = (rng.next_u64() % 5) as i128 - 2;
                if let Ok(offset) = Value::try_from(shift + d) {
                    m.not_equal_offset(x, y, offset).unwrap();
                }
            }
            1 => {
                // (x - start_x) + (y - start_y) <= s: x + y <= s + both starts.
                let s = (rng.next_u64() % 7) as i128;
                let rhs = s + i128::from(starts[i]) + i128::from(starts[j]);
                if let Ok(rhs) = Value::try_from(rhs) {
                    m.linear(&[1, 1], &[x, y], Relation::Le, rhs).unwrap();
                }
            }
            _ => {
                // A binary table of random pairs in the boxes.
                let rows = (0..8)
                    .map(|_| {
                        vec![
                            starts[i] + (rng.next_u64() % 5) as Value,
                            starts[j] + (rng.next_u64() % 5) as Value,
                        ]
                    })
                    .collect();
                m.table(&[x, y], rows).unwrap();
            }
        }
    }
    (m, starts)
}

/// Every solution in the boxes, by brute force with the model's own check.
fn brute_force(m: &Model, starts: &[Value]) -> BTreeSet<Vec<Value>> {
    let n = starts.len();
    let mut found = BTreeSet::new();
    let mut digits = vec![0; n];
    loop {
        let vals: Vec<Value> = (0..n).map(|i| starts[i] + digits[i]).collect();
        if m.is_solution(&vals) {
            found.insert(vals);
        }
        let mut k = 0;
        loop {
            if k == n {
                return found;
            }
            digits[k] += 1;
            if digits[k] < 5 {
                break;
            }
            digits[k] = 0;
            k += 1;
        }
    }
}

#[test]
fn wide_models_have_exactly_the_brute_force_solutions() {
    let orders = [
        ValOrder::Ascending,
        ValOrder::Descending,
        ValOrder::MiddleOut,
        ValOrder::Split,
        ValOrder::ReverseSplit,
    ];
    let mut nonempty = 0;
    for seed in 0..150 {
        let (m, starts) = random_model(seed);
        let want = brute_force(&m, &starts);
        nonempty += usize::from(!want.is_empty());
        for order in orders {
            let config = Config::default()
                .with_pruning(Pruning::Propagators)
                .with_val_order(order);
            let mut s = csp_core::Solver::new(&m, config.clone()).unwrap();
            let got: BTreeSet<Vec<Value>> = s.solutions().map(|s| s.values().to_vec()).collect();
            assert_eq!(got, want, "seed {seed}, {order:?}");
            // The count is complete (no limit was hit).
            let mut s = csp_core::Solver::new(&m, config).unwrap();
            let count = s.count();
            assert_eq!(count.solutions, want.len() as u64, "seed {seed}, {order:?}");
            assert!(count.is_complete(), "seed {seed}, {order:?}");
        }
    }
    // The generator makes models with and without solutions.
    assert!(
        (20..150).contains(&nonempty),
        "{nonempty} of 150 have solutions"
    );
}

#[test]
fn the_textbook_levels_refuse_a_wide_variable_in_one_line() {
    let mut m = Model::new();
    let x = m.named_int_var("cost", 0..=36_000_000).unwrap();
    m.linear(&[1], &[x], Relation::Le, 5).unwrap();
    for level in [
        Pruning::Check,
        Pruning::ForwardChecking,
        Pruning::ArcConsistency,
    ] {
        let Err(e) = csp_core::Solver::new(&m, Config::textbook().with_pruning(level)) else {
            panic!("{level} accepted a wide variable");
        };
        assert!(matches!(e, CspError::TooWideForLevel { .. }), "{e}");
        assert_eq!(
            e.to_string(),
            format!(
                "variable cost: domain 0..=36000000 has 36000001 values, too many for pruning \
                 level {level}, which tests values one by one (at most 16777216); use propagators"
            )
        );
    }
    let mut s = csp_core::Solver::new(&m, Config::default()).unwrap();
    assert_eq!(s.count().solutions, 6);
    // A few values over a wide span are walked one by one at any level.
    let mut m = Model::new();
    let y = m.int_var([Value::MIN, 0, Value::MAX]).unwrap();
    let z = m.int_var([Value::MIN, 1, Value::MAX]).unwrap();
    m.not_equal(y, z).unwrap();
    for level in Pruning::ALL {
        let mut s = csp_core::Solver::new(&m, Config::textbook().with_pruning(level)).unwrap();
        assert_eq!(s.count().solutions, 7, "{level}");
    }
}

#[test]
fn a_wide_objective_is_minimised_exactly() {
    // cost = 1000 a + 37 b, a + b >= 3, cost != 296 (the first optimum):
    // brute force over a and b gives the next one.
    let mut m = Model::new();
    let a = m.int_var(0..=1000).unwrap();
    let b = m.int_var(0..=1000).unwrap();
    let cost = m.int_var(260..=36_000_000).unwrap();
    m.linear(&[1, -1000, -37], &[cost, a, b], Relation::Eq, 0)
        .unwrap();
    m.linear(&[1, 1], &[a, b], Relation::Ge, 3).unwrap();
    m.negative_table(&[cost], vec![vec![Some(296)]]).unwrap();
    let want = (0..=1000i64)
        .flat_map(|a| (0..=1000i64).map(move |b| (a, b)))
        .filter(|&(a, b)| a + b >= 3)
        .map(|(a, b)| 1000 * a + 37 * b)
        .filter(|&c| (260..=36_000_000).contains(&c) && c != 296)
        .min()
        .unwrap();
    let mut s = csp_core::Solver::new(&m, Config::default()).unwrap();
    let best = s.minimize(cost).unwrap();
    assert_eq!(best.objective, Some(want));
    assert_eq!(best.best.map(|s| s[cost]), Some(want));
    assert_eq!(best.status, csp_core::SearchStatus::Complete);
}
