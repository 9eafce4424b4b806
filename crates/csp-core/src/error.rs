//! The error type for misuse of the library: bad models, bad arguments.

use thiserror::Error;

use crate::Value;

/// What went wrong when building a model or starting a search.
///
/// Every message names the variable or constraint concerned. A *conflict* during
/// search is not an error: it is an ordinary outcome reported as a
/// [`Conflict`](crate::Conflict) value.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum CspError {
    /// Building the model or the solver would take more memory than the
    /// limit allows ([`Config::with_memory_limit`](crate::Config::with_memory_limit)).
    #[error("{what}: needs about {needed} bytes, more than the memory limit of {limit} bytes")]
    MemoryLimit {
        /// What would need the memory.
        what: String,
        /// The bytes it would need, about.
        needed: u64,
        /// The limit, in bytes.
        limit: u64,
    },
    /// A variable was declared with no values.
    #[error("variable {var}: empty domain")]
    EmptyDomain {
        /// The variable's name (or `#index`).
        var: String,
    },
    /// A domain spans more values than the store supports.
    #[error(
        "variable {var}: domain {min}..={max} spans {width} values, more than the limit of {limit}"
    )]
    DomainTooWide {
        /// The variable's name (or `#index`).
        var: String,
        /// Smallest declared value.
        min: Value,
        /// Largest declared value.
        max: Value,
        /// Number of values from `min` to `max`.
        width: u128,
        /// [`MAX_DOMAIN_WIDTH`](crate::MAX_DOMAIN_WIDTH).
        limit: u64,
    },
    /// A constraint or call names a variable that is not in the model.
    #[error("{context}: unknown variable #{index} (the model has {count} variables)")]
    UnknownVariable {
        /// Where the variable was named (a constraint's name or a method).
        context: String,
        /// The index that was given.
        index: usize,
        /// How many variables the model has.
        count: usize,
    },
    /// A constraint was posted over no variables.
    #[error("constraint {constraint}: empty scope")]
    EmptyScope {
        /// The constraint's name.
        constraint: String,
    },
    /// Two lists that must be equally long are not.
    #[error("{context}: {what} has length {got}, expected {expected}")]
    LengthMismatch {
        /// The constraint or method.
        context: String,
        /// Which list.
        what: String,
        /// The required length.
        expected: usize,
        /// The given length.
        got: usize,
    },
    /// An integer computation would overflow.
    #[error("{context}: arithmetic overflow ({detail})")]
    Overflow {
        /// The constraint or method.
        context: String,
        /// What overflowed.
        detail: String,
    },
    /// A look-back setting that does not work with the pruning level
    /// ([`Backjumping::check`](crate::Backjumping::check)).
    #[error("backjumping {backjumping} does not work with pruning {pruning}: {reason}")]
    UnsupportedBackjumping {
        /// The look-back setting (`gbj`, `cbj`).
        backjumping: String,
        /// The pruning level.
        pruning: String,
        /// Why not, and what works instead.
        reason: String,
    },
    /// Nogood recording ([`Config::with_nogoods`](crate::Config::with_nogoods))
    /// asked for where it cannot work: without restarts, or below the
    /// arc-consistency level.
    #[error("nogood recording {reason}")]
    UnsupportedNogoods {
        /// Why not, and what works instead.
        reason: String,
    },
    /// A textbook pruning level (below `propagators`) was asked to search a
    /// model with a wide variable: those levels test values one by one.
    #[error(
        "variable {var}: domain {min}..={max} has {width} values, too many for pruning level \
         {level}, which tests values one by one (at most {limit}); use propagators"
    )]
    TooWideForLevel {
        /// The variable's name (or `#index`).
        var: String,
        /// Smallest declared value.
        min: Value,
        /// Largest declared value.
        max: Value,
        /// Number of declared values.
        width: u128,
        /// The pruning level asked for.
        level: crate::Pruning,
        /// [`MAX_DOMAIN_WIDTH`](crate::MAX_DOMAIN_WIDTH).
        limit: u64,
    },
    /// Any other invalid argument, described in words.
    #[error("{context}: {message}")]
    InvalidArgument {
        /// The constraint or method.
        context: String,
        /// What is wrong.
        message: String,
    },
}
