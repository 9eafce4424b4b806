//! The error type of the model and of solving with the engine.

use csp_core::CspError;

/// What went wrong when building or solving an N-Queens model.
///
/// Counting with the dedicated counters has its own error,
/// [`CounterError`](crate::bitboard::CounterError); the constructive placement
/// has [`ConstructError`](crate::construct::ConstructError).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The board is too large for the chosen model (see
    /// [`Variant::max_n`](crate::Variant::max_n)).
    #[error("n = {n} is too large for the {variant} model (at most {max}): {why}")]
    TooLarge {
        /// The requested board size.
        n: usize,
        /// The largest size the model accepts.
        max: usize,
        /// The model variant's name.
        variant: &'static str,
        /// Why there is a limit, and what to use instead.
        why: &'static str,
    },
    /// The engine refused the model (a bug in the model if it ever happens).
    #[error(transparent)]
    Csp(#[from] CspError),
    /// The engine returned a placement that is not a solution. The solutions
    /// are validated independently of the engine before anyone sees them, so
    /// this reports an engine bug instead of printing a wrong board.
    #[error("internal error: the engine returned {columns:?}, which is not a solution: {reason}")]
    InvalidSolution {
        /// The columns returned (row by row).
        columns: Vec<i64>,
        /// What the validator found.
        reason: String,
    },
}
