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
