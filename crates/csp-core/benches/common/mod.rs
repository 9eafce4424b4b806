//! The N-Queens model the csp-core benchmarks share: three all-different
//! constraints over `q`, `q + i` and `q - i` (the `nqueens` crate's global model,
//! without its size cap, which csp-core cannot depend on).

use csp_core::Model;

/// N-Queens on an `n` x `n` board, one variable per row.
pub fn queens(n: usize) -> Model {
    let mut m = Model::new();
    let q = m
        .int_var_array("q", n, 0..=(n as i64 - 1))
        .expect("valid domain");
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = up.iter().map(|r| -r).collect();
    m.all_different(&q).expect("valid");
    m.all_different_offsets(&q, &up).expect("valid");
    m.all_different_offsets(&q, &down).expect("valid");
    m
}
