//! Error types: what went wrong while reading a FlatZinc file, and where.

use crate::pos::Pos;
use thiserror::Error;

/// A syntax error: what was wrong and the line and column where it was found.
///
/// ```
/// let err = csp_flatzinc::parse("var 1..3: x\nsolve satisfy;").unwrap_err();
/// assert_eq!(err.line(), 2);
/// assert_eq!(err.to_string(), "line 2, column 1: expected `;`, found `solve`");
/// ```
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{pos}: {kind}")]
pub struct ParseError {
    pos: Pos,
    kind: ParseErrorKind,
}

impl ParseError {
    pub(crate) fn new(pos: Pos, kind: ParseErrorKind) -> Self {
        ParseError { pos, kind }
    }

    /// Where the error was found.
    pub fn pos(&self) -> Pos {
        self.pos
    }

    /// The line where the error was found, starting at 1.
    pub fn line(&self) -> u32 {
        self.pos.line
    }

    /// The column where the error was found, starting at 1.
    pub fn column(&self) -> u32 {
        self.pos.column
    }

    /// What kind of error it is.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }
}

/// The kinds of syntax error.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that starts no FlatZinc token.
    #[error("unexpected character {0:?}")]
    UnexpectedChar(char),
    /// A string literal without its closing quote.
    #[error("unterminated string literal")]
    UnterminatedString,
    /// A `/*` comment without its closing `*/`.
    #[error("unterminated block comment")]
    UnterminatedComment,
    /// An integer literal outside the 64-bit range.
    #[error("integer literal {0} does not fit in 64 bits")]
    IntegerOutOfRange(String),
    /// A float literal that is not a finite number.
    #[error("invalid float literal {0}")]
    InvalidFloat(String),
    /// The token found is not one the grammar allows here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What the grammar allows, e.g. "`;`" or "a type".
        expected: String,
        /// The token that was found.
        found: String,
    },
    /// An array's index set is not of the form `1..n`.
    #[error("array index set must be 1..n, found {0}")]
    BadIndexSet(String),
    /// An array literal's length differs from its declared index set.
    #[error("array `{name}` is declared with {declared} elements but given {given}")]
    ArrayLength {
        /// The array's name.
        name: String,
        /// The length its index set declares.
        declared: usize,
        /// The length of the literal it is assigned.
        given: usize,
    },
    /// A second `solve` item.
    #[error("more than one solve item")]
    DuplicateSolve,
    /// The file has no `solve` item.
    #[error("missing solve item")]
    MissingSolve,
    /// Expressions or annotations nested deeper than the parser follows.
    #[error("nesting deeper than {0} levels")]
    TooDeep(usize),
}

/// A FlatZinc file that parses but cannot be turned into a csp model: an unsupported
/// builtin, annotation or type, or arguments of the wrong kind. Each names the
/// line of the item concerned.
///
/// ```
/// let model = csp_flatzinc::parse("var 1..3: x;\nconstraint fzn_bin_packing_load([x], [x], [1]);\nsolve satisfy;")?;
/// let err = csp_flatzinc::translate(&model, &Default::default()).unwrap_err();
/// assert_eq!(err.to_string(), "line 2: unsupported constraint `fzn_bin_packing_load`");
/// assert_eq!(err.line(), 2);
/// # Ok::<(), csp_flatzinc::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum TranslateError {
    /// A constraint that fzn-csp does not implement.
    #[error("line {line}: unsupported constraint `{name}`")]
    UnsupportedConstraint {
        /// The constraint's name.
        name: String,
        /// Its line.
        line: u32,
    },
    /// A search annotation (or a part of one) that fzn-csp does not implement.
    #[error("line {line}: unsupported annotation `{name}`")]
    UnsupportedAnnotation {
        /// The annotation or its unsupported argument.
        name: String,
        /// Its line.
        line: u32,
    },
    /// A variable or parameter type that fzn-csp does not implement (floats, sets).
    #[error("line {line}: unsupported type: `{name}` is a {what}")]
    UnsupportedType {
        /// The declared name.
        name: String,
        /// The type, in words ("float variable").
        what: String,
        /// Its line.
        line: u32,
    },
    /// A name used before (or without) its declaration.
    #[error("line {line}: unknown identifier `{name}`")]
    UnknownIdentifier {
        /// The name.
        name: String,
        /// The line where it is used.
        line: u32,
    },
    /// A name declared twice.
    #[error("line {line}: `{name}` is declared twice")]
    Duplicate {
        /// The name.
        name: String,
        /// The line of the second declaration.
        line: u32,
    },
    /// An argument or value of the wrong kind.
    #[error("line {line}: {context}: expected {expected}")]
    BadArgument {
        /// The constraint, declaration or annotation concerned.
        context: String,
        /// What was expected there.
        expected: String,
        /// Its line.
        line: u32,
    },
    /// A constraint called with the wrong number of arguments.
    #[error("line {line}: `{name}` takes {expected} arguments, found {found}")]
    Arity {
        /// The constraint.
        name: String,
        /// The number it takes.
        expected: usize,
        /// The number given.
        found: usize,
        /// Its line.
        line: u32,
    },
    /// An integer variable whose domain is unbounded and cannot be inferred.
    #[error(
        "line {line}: variable `{name}` has no finite domain (declare bounds, or define it from bounded variables)"
    )]
    Unbounded {
        /// The variable.
        name: String,
        /// Its line.
        line: u32,
    },
    /// The translation stopped at its deadline or on Ctrl-C
    /// ([`TranslateOptions::deadline`](crate::TranslateOptions::deadline)):
    /// [`run`](crate::run) answers `=====UNKNOWN=====`, as for a search
    /// stopped before its first solution.
    #[error("line {line}: the translation stopped: {reason}")]
    Stopped {
        /// The time limit, or cancelled.
        reason: csp_core::StopReason,
        /// The item being translated.
        line: u32,
    },
    /// csp-core refused a variable or constraint (a domain too wide, an overflow, ...).
    #[error("line {line}: {source}")]
    Core {
        /// What csp-core said.
        source: csp_core::CspError,
        /// The line of the declaration or constraint.
        line: u32,
    },
}

impl TranslateError {
    /// The line of the item the error is about.
    pub fn line(&self) -> u32 {
        match self {
            TranslateError::UnsupportedConstraint { line, .. }
            | TranslateError::UnsupportedAnnotation { line, .. }
            | TranslateError::UnsupportedType { line, .. }
            | TranslateError::UnknownIdentifier { line, .. }
            | TranslateError::Duplicate { line, .. }
            | TranslateError::BadArgument { line, .. }
            | TranslateError::Arity { line, .. }
            | TranslateError::Unbounded { line, .. }
            | TranslateError::Stopped { line, .. }
            | TranslateError::Core { line, .. } => *line,
        }
    }
}

/// Anything that stops fzn-csp before the search: a syntax error or a translation error.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Error {
    /// The file is not valid FlatZinc.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The file uses something fzn-csp does not support, or is ill-typed.
    #[error(transparent)]
    Translate(#[from] TranslateError),
    /// The output could not be written.
    #[error("cannot write the output: {0}")]
    Io(String),
    /// The reader of the output went away (a closed pipe): fzn-csp stops
    /// quietly, as a program killed by SIGPIPE would.
    #[error("the reader of the output went away")]
    ReaderGone,
}

impl Error {
    /// The error for a failed write: [`Error::ReaderGone`] for a closed pipe,
    /// [`Error::Io`] otherwise.
    pub fn output(e: &std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Error::ReaderGone
        } else {
            Error::Io(e.to_string())
        }
    }
}
