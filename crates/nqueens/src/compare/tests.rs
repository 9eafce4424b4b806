//! Tests of the N-Queens comparison: the columns-only model, the ladder, and reading lists.

use super::*;
use csp_core::{Config, Pruning, Solver};

#[test]
fn the_columns_model_counts_like_the_pairwise_one_under_every_pruning_level() {
    for n in 0..=7 {
        let pairwise = build(n, "pairwise").unwrap();
        let expected = Solver::new(&pairwise, Config::textbook())
            .unwrap()
            .count()
            .solutions;
        let columns = build(n, "columns").unwrap();
        for pruning in Pruning::ALL {
            let mut s = Solver::new(&columns, Config::textbook().with_pruning(pruning)).unwrap();
            assert_eq!(s.count().solutions, expected, "n = {n}, {pruning:?}");
        }
    }
}

#[test]
fn diagonals_act_only_at_the_leaves_even_under_mac() {
    // Check tries all 5 columns below every permutation prefix:
    // 5 * (1 + 5 + 20 + 60 + 120) = 1030 nodes. With the columns filtered,
    // FC and MAC try every permutation prefix of 1 to 4 rows (5 + 20 + 60
    // + 120 = 205 nodes): after 4 rows the last queen's column is forced,
    // the board is complete, and the diagonals are checked; only the 10
    // solutions get their fifth value tried. 205 + 10 = 215: nothing is
    // learnt from the diagonals before the board is full.
    for (pruning, nodes) in [("check", 1030), ("fc", 215), ("mac", 215)] {
        let m = build(5, "columns").unwrap();
        let strategy: Strategy = pruning.parse().unwrap();
        let count = Solver::new(&m, strategy.config()).unwrap().count();
        assert_eq!(count.solutions, 10);
        assert_eq!(count.stats.tried, nodes, "{pruning}");
    }
}

#[test]
fn the_default_ladder_agrees_on_small_boards_in_both_modes() {
    let ladder = default_ladder().unwrap();
    assert_eq!(ladder.len(), 9);
    for mode in [Mode::Count, Mode::First] {
        let options = CompareOptions {
            mode,
            max_repeats: 1,
            ..CompareOptions::default()
        };
        let t = compare(&ladder, &[1, 2, 3, 4, 5, 6], &options).unwrap();
        assert_eq!(t.rows.len(), 6 * 9);
    }
}

#[test]
fn entries_are_named_as_written_or_by_their_name() {
    let e = parse_entries("mac+dom-wdeg, leaves = check @ columns, dedicated").unwrap();
    assert_eq!(e[0].name, "mac+dom-wdeg");
    assert_eq!(e[1].name, "leaves");
    assert_eq!(
        e[1].method,
        Method::Engine("check".parse().unwrap(), ModelVariant::Columns)
    );
    // The row is labelled as the list wrote it, in either mode.
    assert_eq!(e[2].entry(Mode::Count).name, "dedicated");
    assert_eq!(e[2].entry(Mode::First).name, "dedicated");
    let b = parse_entries("bitboard").unwrap();
    assert_eq!(b[0].entry(Mode::Count).name, "bitboard");
}

#[test]
fn bad_lists_are_refused_with_a_reason() {
    assert_eq!(parse_entries(" , "), Err(SpecError::Empty));
    assert_eq!(
        parse_entries("fc@diagonal").unwrap_err().to_string(),
        "unknown model variant 'diagonal' (expected pairwise, global or columns)"
    );
    assert!(
        parse_entries("fc,fc")
            .unwrap_err()
            .to_string()
            .contains("named 'fc'")
    );
    assert!(
        parse_entries("fc+sideways")
            .unwrap_err()
            .to_string()
            .starts_with("'fc+sideways': ")
    );
}

#[test]
fn sizes_are_numbers_ranges_and_lists() {
    assert_eq!(parse_sizes("8"), Ok(vec![8]));
    assert_eq!(parse_sizes("4..=8,10"), Ok(vec![4, 5, 6, 7, 8, 10]));
    for bad in ["", "4..", "a", "4,4", "-3", "5..5"] {
        assert!(parse_sizes(bad).is_err(), "{bad}");
    }
}
