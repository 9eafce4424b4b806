//! N-Queens through the generic API: counts against OEIS A000170 and the
//! textbook node counts of the pruned state-space tree.

use csp_core::{Config, Model, Pruning, Solver, ValOrder, VarId, VarOrder};

/// OEIS A000170, n = 0..=13.
const A000170: [u64; 14] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];

fn pairwise(n: usize) -> (Model, Vec<VarId>) {
    csp_core::models::pairwise_queens(n).unwrap()
}

fn global(n: usize) -> (Model, Vec<VarId>) {
    csp_core::models::queens(n).unwrap()
}

fn count(m: &Model, pruning: Pruning, var: VarOrder) -> csp_core::CountResult {
    Solver::new(
        m,
        Config::textbook().with_pruning(pruning).with_var_order(var),
    )
    .unwrap()
    .count()
}

#[test]
fn counts_match_a000170_for_every_pruning_level_and_both_orders() {
    for (n, &known) in A000170.iter().enumerate().take(11).skip(1) {
        for build in [pairwise, global] {
            let (m, _) = build(n);
            for pruning in [
                Pruning::Check,
                Pruning::ForwardChecking,
                Pruning::ArcConsistency,
                Pruning::Propagators,
            ] {
                for var in [VarOrder::Input, VarOrder::FirstFail] {
                    let r = count(&m, pruning, var);
                    assert!(r.is_complete());
                    assert_eq!(r.solutions, known, "n={n} {pruning} {var}");
                }
            }
        }
    }
}

#[test]
fn counts_for_11_and_12_match_a000170_on_the_global_model() {
    for n in [11, 12] {
        let (m, _) = global(n);
        for pruning in [
            Pruning::Check,
            Pruning::ForwardChecking,
            Pruning::ArcConsistency,
            Pruning::Propagators,
        ] {
            for var in [VarOrder::Input, VarOrder::FirstFail] {
                let r = count(&m, pruning, var);
                assert!(r.is_complete());
                assert_eq!(r.solutions, A000170[n], "n={n} {pruning} {var}");
            }
        }
    }
}

#[test]
fn generate_and_test_counts_small_boards() {
    for (n, &known) in A000170.iter().enumerate().take(7).skip(1) {
        let (m, _) = global(n);
        assert_eq!(count(&m, Pruning::None, VarOrder::Input).solutions, known);
    }
}

#[test]
fn four_queens_first_solution_tries_26_accepts_8_rejects_18() {
    let (m, q) = pairwise(4);
    let mut s = Solver::new(&m, Config::textbook().with_pruning(Pruning::Check)).unwrap();
    let r = s.first();
    assert_eq!(r.solution.unwrap().values_of(&q), vec![1, 3, 0, 2]);
    assert_eq!(
        (r.stats.tried, r.stats.accepted, r.stats.rejected),
        (26, 8, 18)
    );
}

#[test]
fn eight_queens_all_solutions_match_the_textbook_tree() {
    for build in [pairwise, global] {
        let (m, _) = build(8);
        let r = count(&m, Pruning::Check, VarOrder::Input);
        assert_eq!(r.solutions, 92);
        assert_eq!(
            (r.stats.tried, r.stats.accepted, r.stats.rejected),
            (15_720, 2_056, 13_664)
        );
    }
}

#[test]
fn twelve_queens_accepts_856_188_nodes_under_check() {
    let (m, _) = global(12);
    let r = count(&m, Pruning::Check, VarOrder::Input);
    assert_eq!(r.solutions, 14_200);
    assert_eq!(r.stats.accepted, 856_188);
}

#[test]
fn forward_checking_tries_fewer_than_check_and_mac_fewer_than_fc() {
    let (m, _) = pairwise(8);
    let check = count(&m, Pruning::Check, VarOrder::Input).stats.tried;
    let fc = count(&m, Pruning::ForwardChecking, VarOrder::Input)
        .stats
        .tried;
    let mac = count(&m, Pruning::ArcConsistency, VarOrder::Input)
        .stats
        .tried;
    assert!(fc < check, "fc {fc} check {check}");
    assert!(mac < fc, "mac {mac} fc {fc}");
}

#[test]
fn same_model_and_strategy_give_identical_statistics() {
    let (m, _) = global(8);
    for val in [
        ValOrder::Ascending,
        ValOrder::LeastConstraining,
        ValOrder::Random(3),
    ] {
        let cfg = || {
            Config::textbook()
                .with_pruning(Pruning::ForwardChecking)
                .with_var_order(VarOrder::DomOverWdeg)
                .with_val_order(val)
        };
        let mut a = Solver::new(&m, cfg()).unwrap().count().stats;
        let mut b = Solver::new(&m, cfg()).unwrap().count().stats;
        a.elapsed = Default::default();
        b.elapsed = Default::default();
        assert_eq!(a, b);
    }
}

/// The crate docs' claim: MAC on three disequalities per pair is forward
/// checking plus a cascade (992 nodes), on the pair's whole relation it is
/// arc consistency (768, the figure of any AC algorithm).
#[test]
fn mac_on_the_pair_relation_is_arc_consistency() {
    let (m, _) = pairwise(8);
    let mut r = Model::new();
    let q = r.int_var_array("q", 8, 0..=7).unwrap();
    for i in 0..8 {
        for j in i + 1..8 {
            let d = (j - i) as i64;
            r.binary_relation("no attack", q[i], q[j], move |a, b| {
                a != b && (a - b).abs() != d
            })
            .unwrap();
        }
    }
    let mac = |m: &Model| {
        let c = count(m, Pruning::ArcConsistency, VarOrder::Input);
        assert_eq!(c.solutions, 92);
        (c.stats.tried, c.stats.rejected)
    };
    assert_eq!(mac(&m), (992, 324));
    assert_eq!(mac(&r), (768, 186));
}
