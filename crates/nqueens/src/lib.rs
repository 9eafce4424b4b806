//! N-Queens: the model, dedicated counters and constructive placements.
//!
//! # Contents
//! - [`model()`] builds the declarative model with csp-core, in two [`Variant`]s:
//!   `Pairwise` (the classic `promising` test as binary constraints) and
//!   `Global` (three all-different constraints, as MiniZinc writes it).
//! - [`Queens`] searches it with any strategy and hands out validated solutions.
//! - [`board`] prints solutions as the classic programs do: `[1, 3, 0, 2]`
//!   (Java), ` 1 3 0 2` (C's `printf("%2d")`), or a drawn board.
//! - [`attack`] names the queen that attacks a square, for explanations.
//! - [`bitboard`], [`symmetry`], [`split`] count without the engine, fast;
//!   [`construct`] places `n` queens in O(n) time for huge boards.
//!
//! `n = 0` is the empty board: one solution, the empty placement (OEIS A000170
//! has `a(0) = 1`); every counter and the model agree.
//!
//! ```
//! use csp_core::{Config, Pruning};
//! use nqueens::{Queens, Variant, board};
//!
//! let queens = Queens::new(4, Variant::Global)?;
//! let all = queens.all(Config::textbook().with_pruning(Pruning::Check))?;
//! let lines: Vec<String> = all.iter().map(|s| board::render(board::Format::List, s)).collect();
//! assert_eq!(lines, ["[1, 3, 0, 2]", "[2, 0, 3, 1]"]);
//! # Ok::<(), nqueens::Error>(())
//! ```
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod bitboard;
pub mod bounds;
pub mod checkpoint;
pub mod construct;
pub mod files;
pub mod share_key;
pub mod split;
pub mod symmetry;

pub mod attack;
pub mod board;
pub mod compare;
mod error;
pub mod model;
pub mod solve;
pub mod trace_text;
pub mod tree;

pub use error::Error;
pub use model::{Variant, model};
pub use solve::{Outcome, Queens};
