//! A table whose scope holds a view and the view's own base: no level may
//! report a solution the table refuses (found by the views proptest).

use csp_core::{Config, Model, Pruning, SearchStatus, Solver};

#[test]
fn a_table_over_a_view_and_its_base_has_no_false_solution() {
    for pruning in Pruning::ALL {
        for lazy in [false, true] {
            let mut m = Model::new();
            m.int_var(vec![4]).unwrap();
            let x1 = m.int_var(vec![-4, -3, 0, 2, 4]).unwrap();
            let x2 = m.view(x1, 1, 0).unwrap();
            m.table(&[x2, x1], vec![vec![2, -3], vec![0, 0]]).unwrap();
            let mut c = Config::textbook().with_pruning(pruning);
            if lazy {
                c = c.with_lazy_bits_above(0);
            }
            let mut s = Solver::new(&m, c).unwrap();
            let mut found = Vec::new();
            while let Some(sol) = s.next_solution() {
                found.push(sol[x1]);
            }
            assert_eq!(s.status(), SearchStatus::Complete, "{pruning:?}");
            assert_eq!(found, [0], "{pruning:?}");
        }
    }
}
