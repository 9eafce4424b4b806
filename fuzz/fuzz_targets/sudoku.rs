//! Fuzz target: the Sudoku puzzle reader (`csp_examples::sudoku`).
//!
//! Any text either reads as puzzles or gets an `InputError` whose line is inside
//! the text and whose message is one line. A puzzle that reads must print back to
//! the same puzzle (one-line and pretty forms), build a model, and any solution the
//! search reports (with a node limit, so every input stays fast) must solve it.

#![no_main]

use csp_core::{Config, Pruning, SearchStatus, VarOrder};
use csp_examples::sudoku::{self, Sudoku, Uniqueness};
use libfuzzer_sys::fuzz_target;

mod input_error;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines = text.lines().count();
    match sudoku::parse_puzzles(text) {
        Ok(entries) => {
            assert!(!entries.is_empty());
            for entry in entries.iter().take(4) {
                assert!(entry.line >= 1 && entry.line <= lines, "{entry:?}");
                let puzzle = entry.puzzle;
                assert_eq!(puzzle.to_line().parse::<Sudoku>(), Ok(puzzle));
                assert_eq!(puzzle.to_string().parse::<Sudoku>(), Ok(puzzle));
                let mut config = Config::textbook()
                    .with_pruning(Pruning::ForwardChecking)
                    .with_var_order(VarOrder::FirstFail);
                config.limits.nodes = Some(2_000);
                let report = match sudoku::solve(&puzzle, config) {
                    Ok(report) => report,
                    Err(e) => panic!("a puzzle that reads must build a model: {e}"),
                };
                if let Some(solution) = report.solution {
                    assert!(solution.solves(&puzzle), "{puzzle:?} -> {solution:?}");
                }
                match report.uniqueness {
                    Uniqueness::NoSolution => {
                        assert!(report.solution.is_none());
                        assert_eq!(report.status, SearchStatus::Complete);
                    }
                    Uniqueness::Unique | Uniqueness::Multiple => {
                        assert!(report.solution.is_some());
                    }
                    Uniqueness::Unknown(_) => {
                        assert!(matches!(report.status, SearchStatus::Stopped(_)));
                    }
                }
            }
        }
        Err(e) => input_error::check(&e, lines),
    }
    // The one-puzzle reader agrees with the file reader.
    if let Ok(one) = text.parse::<Sudoku>() {
        let entries = sudoku::parse_puzzles(text).expect("one puzzle reads as a file");
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].puzzle, one);
    }
});
