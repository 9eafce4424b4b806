//! Models shared by the unit tests of several modules.

use crate::Model;

/// N-Queens with three all-different constraints over `q`, `q + i`, `q - i`.
pub(crate) fn queens(n: usize) -> Model {
    let mut m = Model::new();
    let q = m.int_var_array("q", n, 0..=(n as i64 - 1)).unwrap();
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offsets(&q, &up).unwrap();
    m.all_different_offsets(&q, &down).unwrap();
    m
}

/// N-Queens with three not-equal constraints per pair of rows.
pub(crate) fn pairwise_queens(n: usize) -> Model {
    let mut m = Model::new();
    let q = m.int_var_array("q", n, 0..=(n as i64 - 1)).unwrap();
    for i in 0..n {
        for j in i + 1..n {
            let d = (j - i) as i64;
            m.not_equal(q[i], q[j]).unwrap();
            m.not_equal_offset(q[i], q[j], d).unwrap();
            m.not_equal_offset(q[i], q[j], -d).unwrap();
        }
    }
    m
}
