//! A Sudoku search as an explorer page: the 9 × 9 grid with each cell's candidates.
//!
//! [`explore_page`] records a search (the same one as [`solve`](super::solve):
//! up to a second solution, to prove uniqueness) and writes csp-core's
//! self-contained explorer page with a Sudoku painter: the givens in bold, the
//! decided cells in blue, the cell being tried outlined, and in every open cell
//! its candidates, those removed by propagation struck out (hover or tap: which
//! row, column or box removed it, after which decision).
//!
//! ```
//! use csp_core::{Config, Pruning, VarOrder};
//! use csp_examples::sudoku::{Sudoku, explore::explore_page};
//! let puzzle: Sudoku = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse()?;
//! let config = Config::textbook().with_pruning(Pruning::ForwardChecking).with_var_order(VarOrder::FirstFail);
//! let page = explore_page(&puzzle, config, 10_000)?;
//! assert!(page.html.contains("data-testid=\"step-forward\""));
//! assert!(!page.html.contains("http://") && !page.html.contains("https://"));
//! assert!(!page.truncated);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use csp_core::{Config, CspError, Solver};
use csp_trace::{ExploreOptions, ExplorePainter, ExploreRun, StopAtCap, explore_html};

use super::{Sudoku, SudokuModel, units};

const BOARD_SCRIPT: &str = include_str!("explore_board.js");
const BOARD_STYLE: &str = include_str!("explore_board.css");

/// An explorer page and how its recording went.
#[derive(Clone, Debug)]
pub struct ExplorePage {
    /// The HTML document.
    pub html: String,
    /// Whether the recording stopped at its cap (the page says so too).
    pub truncated: bool,
    /// Values tried by the search (which stops when the recording is full).
    pub tried: u64,
}

/// The time writing the page takes per recorded event, about, with a margin
/// (see `nqueens explore`): under a time limit the recording stops early
/// enough to leave that much.
const PAGE_TIME_PER_EVENT: std::time::Duration = std::time::Duration::from_micros(5);

/// Records the search of `puzzle` under `config` (at most `limit_events`
/// events) and writes the explorer page.
///
/// `config`'s time limit covers the recording and the page, and its cancel
/// flag (Ctrl-C) stops both: then no page is returned but an error for
/// which [`csp_trace::page_stopped`] holds.
pub fn explore_page(
    puzzle: &Sudoku,
    mut config: Config,
    limit_events: usize,
) -> Result<ExplorePage, CspError> {
    let begun = std::time::Instant::now();
    let m = SudokuModel::new(puzzle)?;
    let strategy = crate::cli::strategy_name(&config);
    config.limits.solutions = Some(2);
    let deadline = config.limits.time.and_then(|t| begun.checked_add(t));
    let cancel = config.limits.cancel.clone();
    // The search at nine tenths of the limit; the recording stops in time
    // to leave the page its share.
    config.limits.time = config.limits.time.map(|t| t - t / 10);
    // The search stops when the recording is full: the page shows no more.
    let mut recorder = StopAtCap::new(limit_events, &mut config);
    if let Some(d) = deadline {
        recorder = recorder.with_page_deadline(d, PAGE_TIME_PER_EVENT);
    }
    let mut solver = Solver::with_observer(&m.model, config, recorder)?;
    while solver.next_solution().is_some() {}
    let tried = solver.stats().tried;
    let trace = solver.into_observer().finish();
    if cancel
        .as_ref()
        .is_some_and(csp_core::CancelFlag::is_cancelled)
    {
        // Ctrl-C: no page, and no time spent writing one.
        return Err(CspError::InvalidArgument {
            context: "explore page".into(),
            message: csp_trace::PAGE_STOPPED.into(),
        });
    }
    // Constraint names: the unit each all-different covers, in posting order.
    let names: Vec<String> = units().iter().map(unit_name).collect();
    let mut run = ExploreRun::new(strategy.clone(), &m.model, &trace);
    if names.len() == m.model.num_constraints() {
        run.constraint_names = Some(names);
    }
    run.painter_data = Some(serde_json::json!({
        "cells": m.cells.iter().map(|v| v.index()).collect::<Vec<_>>(),
        "givens": puzzle.cells().to_vec(),
    }));
    let painter = ExplorePainter {
        script: BOARD_SCRIPT.to_string(),
        style: BOARD_STYLE.to_string(),
    };
    let options = ExploreOptions {
        title: Some(format!(
            "Sudoku ({} givens): the search, step by step",
            puzzle.givens()
        )),
        subtitle: Some(format!(
            "{strategy} · up to a second solution (to prove uniqueness)"
        )),
        painter: Some(&painter),
        axis_names: Some(("cells".to_string(), "digits".to_string())),
        cancel,
        deadline,
    };
    let html = explore_html(&[run], &options)?;
    Ok(ExplorePage {
        html,
        truncated: trace.is_truncated(),
        tried,
    })
}

/// `row 3`, `column 5` or `box 7` (numbered from 1, boxes row by row).
fn unit_name(unit: &[usize; 9]) -> String {
    let (r, c) = (unit[0] / 9, unit[0] % 9);
    if unit.iter().all(|&i| i / 9 == r) {
        format!("row {}", r + 1)
    } else if unit.iter().all(|&i| i % 9 == c) {
        format!("column {}", c + 1)
    } else {
        format!("box {}", r / 3 * 3 + c / 3 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_named_rows_columns_and_boxes() {
        let names: Vec<String> = units().iter().map(unit_name).collect();
        assert_eq!(names[0], "row 1");
        assert_eq!(names[9 + 4], "column 5");
        assert_eq!(names[18 + 8], "box 9");
        let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), 27);
    }
}
