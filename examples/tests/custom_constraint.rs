//! The hand-written `DistinctDifferences`: optimal Golomb rulers from the
//! literature under every stage and several pruning levels, and the stages'
//! effect on the search.

use csp_core::{Config, Pruning};
use csp_examples::custom_constraint::Stage;
use csp_examples::golomb::{is_golomb, shortest};

/// Optimal Golomb ruler lengths (OEIS A003022) for 2 to 7 marks.
const OPTIMAL: [(usize, i64); 6] = [(2, 1), (3, 3), (4, 6), (5, 11), (6, 17), (7, 25)];

#[test]
fn optimal_rulers_under_every_stage_and_two_levels() {
    for (n, len) in OPTIMAL {
        for stage in [Stage::Check, Stage::Promising, Stage::Propagate] {
            // The check-only stage visits every increasing sequence: keep it small.
            if stage == Stage::Check && n > 5 {
                continue;
            }
            for pruning in [
                Pruning::Check,
                Pruning::ForwardChecking,
                Pruning::ArcConsistency,
            ] {
                if n == 7 && pruning == Pruning::Check {
                    continue;
                }
                let r = shortest(n, stage, Config::textbook().with_pruning(pruning)).unwrap();
                assert!(r.status.is_complete(), "{n} {stage} {pruning}");
                assert_eq!(r.length(), Some(len), "{n} marks, {stage}, {pruning}");
                assert!(is_golomb(r.marks.as_ref().unwrap()));
            }
        }
    }
}

#[test]
fn each_stage_visits_fewer_nodes_than_the_one_before() {
    let nodes = |stage, pruning| {
        shortest(5, stage, Config::textbook().with_pruning(pruning))
            .unwrap()
            .stats
            .tried
    };
    // Promising rejects clashes before the last mark is placed.
    let check = nodes(Stage::Check, Pruning::Check);
    let promising = nodes(Stage::Promising, Pruning::Check);
    assert!(check > promising, "{check} {promising}");
    // Forward checking removes clashing positions before they are tried.
    let generic_fc = nodes(Stage::Promising, Pruning::ForwardChecking);
    assert!(promising > generic_fc, "{promising} {generic_fc}");
    // The hand-written propagate prunes at least as much as the generic forward
    // checking that probes promising value by value (it is also much cheaper).
    let propagate = nodes(Stage::Propagate, Pruning::ForwardChecking);
    assert!(propagate <= generic_fc, "{propagate} {generic_fc}");
}
