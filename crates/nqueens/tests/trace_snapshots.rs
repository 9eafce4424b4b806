//! Snapshots of the text traces people read: the textbook 4-queens trees and a 5-queens first-fail search.
//!
//! Each snapshot was reviewed by hand: ids in visit order, the parent of every
//! node, the queen the rejecting constraint sees attacking, the pruned columns under
//! forward checking and arc consistency, the backtracks and the solution.

use csp_core::{Config, Pruning, VarOrder};
use nqueens::{Queens, Variant, trace_text};

fn trace(n: usize, variant: Variant, config: Config, all: bool) -> String {
    let queens = Queens::new(n, variant).unwrap();
    let run = trace_text::record(&queens, config, all, usize::MAX).unwrap();
    trace_text::to_text(&queens, &run)
}

fn with(pruning: Pruning) -> Config {
    Config::textbook().with_pruning(pruning)
}

#[test]
fn four_queens_first_solution_check() {
    let text = trace(4, Variant::Pairwise, with(Pruning::Check), false);
    // The textbook figure: 26 values tried, 8 promising, 18 not.
    assert_eq!(text.lines().filter(|l| l.contains(" under ")).count(), 26);
    assert_eq!(text.matches(", accepted").count(), 8);
    assert_eq!(text.matches(", rejected").count(), 18);
    insta::assert_snapshot!(text);
}

/// The same tree under `check`; the reasons may name different queens, since
/// each names the constraint that rejected the value: the global model runs
/// its column constraint first, the pairwise one the pair with the lowest row.
#[test]
fn both_models_give_the_same_check_tree_apart_from_the_reasons() {
    let pairwise = trace(4, Variant::Pairwise, with(Pruning::Check), true);
    let global = trace(4, Variant::Global, with(Pruning::Check), true);
    let body = |t: &str| {
        t.lines()
            .skip(1)
            .map(|l| l.split(": same ").next().unwrap_or(l).to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(body(&pairwise), body(&global));
    assert_ne!(pairwise, global);
}

#[test]
fn four_queens_first_solution_fc() {
    insta::assert_snapshot!(trace(
        4,
        Variant::Pairwise,
        with(Pruning::ForwardChecking),
        false
    ));
}

#[test]
fn four_queens_first_solution_mac() {
    insta::assert_snapshot!(trace(
        4,
        Variant::Pairwise,
        with(Pruning::ArcConsistency),
        false
    ));
}

#[test]
fn four_queens_all_solutions_check() {
    insta::assert_snapshot!(trace(4, Variant::Pairwise, with(Pruning::Check), true));
}

#[test]
fn five_queens_first_solution_fc_first_fail() {
    let config = with(Pruning::ForwardChecking).with_var_order(VarOrder::FirstFail);
    insta::assert_snapshot!(trace(5, Variant::Pairwise, config, false));
}

#[test]
fn a_capped_trace_says_it_was_cut() {
    let queens = Queens::new(8, Variant::Global).unwrap();
    let run = trace_text::record(&queens, with(Pruning::Check), true, 50).unwrap();
    let text = trace_text::to_text(&queens, &run);
    assert!(
        text.contains("... trace cut after 50 events; the search went on"),
        "{text}"
    );
    assert!(text.ends_with("15720 values tried: 2056 accepted, 13664 rejected; 0 pruned, 1965 backtracks, 92 solutions; search complete\n"), "{text}");
}
