//! A table whose scope holds a view and the view's own base: no level may
//! report a solution the table refuses (both cases were found by the views
//! proptest).

use csp_core::{Config, Model, Pruning, SearchStatus, Solver, Value};

/// The solutions of `table([view, x] or [x, view], rows)` for `x` in
/// `domain` and `view = scale * x + offset`, at every level, as values of `x`.
fn solutions(domain: &[Value], scale: Value, offset: Value, view_first: bool, rows: &[[Value; 2]]) {
    let expected: Vec<Value> = domain
        .iter()
        .copied()
        .filter(|&x| {
            let v = scale * x + offset;
            let pair = if view_first { [v, x] } else { [x, v] };
            rows.contains(&pair)
        })
        .collect();
    for pruning in Pruning::ALL {
        for lazy in [false, true] {
            let mut m = Model::new();
            m.int_var(vec![4]).unwrap();
            let x = m.int_var(domain.to_vec()).unwrap();
            let v = m.view(x, scale, offset).unwrap();
            let scope = if view_first { [v, x] } else { [x, v] };
            m.table(&scope, rows.iter().map(|r| r.to_vec()).collect())
                .unwrap();
            let mut c = Config::textbook().with_pruning(pruning);
            if lazy {
                c = c.with_lazy_bits_above(0);
            }
            let mut s = Solver::new(&m, c).unwrap();
            let mut found = Vec::new();
            while let Some(sol) = s.next_solution() {
                found.push(sol[x]);
            }
            assert_eq!(s.status(), SearchStatus::Complete, "{pruning:?}");
            assert_eq!(found, expected, "{pruning:?}");
        }
    }
}

#[test]
fn a_table_over_a_view_and_its_base_has_no_false_solution() {
    solutions(&[-4, -3, 0, 2, 4], 1, 0, true, &[[2, -3], [0, 0]]);
    solutions(&[-2, 0, 4], -2, 5, false, &[[-2, -3]]);
    solutions(&[-2, 0, 4], -2, 5, false, &[[-2, -3], [0, 5]]);
}
