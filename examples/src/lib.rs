//! Other CSPs plugged into the csp engine: the models behind the runnable examples.
//!
//! Every model here is written against the public API of [`csp_core`] only: a
//! [`Model`](csp_core::Model) of variables and constraints, searched by a
//! [`Solver`](csp_core::Solver) with any [`Config`](csp_core::Config). The same
//! engine and the same strategy options serve them all:
//!
//! | module | problem | what it shows |
//! |---|---|---|
//! | [`sudoku`] | Sudoku | all-different, givens as one-value domains, a uniqueness check (stop at two solutions) |
//! | [`map_coloring`] | Australia (18 colourings with 3 colours), the 48 contiguous US states | `!=` constraints, counting |
//! | [`graph_coloring`] with [`dimacs`], [`graph`], [`graph_generators`] | DIMACS `.col` graphs | branch and bound, or one search per k; bounds from a clique and DSATUR |
//! | [`send_more_money`] | cryptarithms (SEND + MORE = MONEY) | one linear equation and all-different |
//! | [`latin_square`] | Latin squares | counting, fixing values to break symmetry |
//! | [`magic_square`] | magic squares | linear sums, symmetry breaking with `<` |
//! | [`langford`] | Langford pairings | all-different with offsets over a repeated variable |
//! | [`zebra`] | the zebra puzzle | equalities, a table or a predicate for "next to" |
//! | [`custom_constraint`] with [`golomb`] | Golomb rulers | a [`Constraint`](csp_core::Constraint) written from scratch, check then propagate |
//! | [`exam_timetable`] | exams in slots of limited capacity | `at_most` / `count` instead of one big predicate |
//! | [`all_interval`] | the all-interval series | `distance`, declaration order as the search order |
//! | [`jobshop`] | job-shop scheduling (ft06, optimum 55) | `disjunctive` per machine (edge finding), branch and bound |
//! | [`tsp`] | the travelling salesman | `circuit` for the tour, `element` for the legs, branch and bound |
//!
//! Each has a program in `examples/examples/` that takes the strategy options of
//! [`csp_cli::StrategyArgs`] (`--pruning`, `--var`, `--val`, limits, `--stats`):
//!
//! ```text
//! cargo run --release --example sudoku -- --stats < examples/data/sudoku.txt
//! ```
//!
//! Bad input is reported in one line naming its place ([`InputError`]) and the
//! programs exit with status 2. The newcomer's walk-through is
//! `docs/tutorial.md`, whose snippets are compiled and run as tests of this
//! crate.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod all_interval;
pub mod budget;
pub mod cli;
pub mod custom_constraint;
pub mod dimacs;
pub mod exam_timetable;
pub mod golomb;
pub mod graph;
pub mod graph_coloring;
pub mod graph_generators;
mod input_error;
pub mod jobshop;
pub mod langford;
pub mod latin_square;
pub mod magic_square;
pub mod map_coloring;
pub mod nurse_roster;
pub mod send_more_money;
pub mod sudoku;
pub mod tsp;
pub mod zebra;

pub use input_error::{InputError, SourcedError};

/// The tutorial `docs/tutorial.md`, included so that `cargo test` compiles and
/// runs every snippet in it.
#[cfg(doctest)]
#[doc = include_str!("../../docs/tutorial.md")]
pub struct Tutorial;
