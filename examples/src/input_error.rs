//! `InputError`: a one-line message about bad user input, with its line and column.

use std::fmt;

/// What is wrong with a puzzle, a graph file or an argument, and where.
///
/// Lines and columns count from 1, columns in characters. The message is one line,
/// so that a program can print it after `error: ` and exit with status 2
/// ([`csp_cli::exit_usage`]).
///
/// ```
/// use csp_examples::InputError;
/// let e = InputError::at(3, 7, "expected a vertex number, found 'x'");
/// assert_eq!(e.to_string(), "line 3, column 7: expected a vertex number, found 'x'");
/// assert_eq!(InputError::on_line(2, "missing edge").to_string(), "line 2: missing edge");
/// assert_eq!(InputError::new("no input").to_string(), "no input");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The line (from 1), when the input has lines.
    pub line: Option<usize>,
    /// The column (from 1), when the problem is at one place on the line.
    pub column: Option<usize>,
    /// What is wrong, in a few words.
    pub message: String,
}

impl InputError {
    /// An error not tied to a place in the input.
    pub fn new(message: impl Into<String>) -> Self {
        InputError {
            line: None,
            column: None,
            message: message.into(),
        }
    }

    /// An error about a whole line.
    pub fn on_line(line: usize, message: impl Into<String>) -> Self {
        InputError {
            line: Some(line),
            ..InputError::new(message)
        }
    }

    /// An error at one character of a line.
    pub fn at(line: usize, column: usize, message: impl Into<String>) -> Self {
        InputError {
            line: Some(line),
            column: Some(column),
            message: message.into(),
        }
    }

    /// An error at one character of a one-line input such as an argument.
    pub fn at_column(column: usize, message: impl Into<String>) -> Self {
        InputError {
            column: Some(column),
            ..InputError::new(message)
        }
    }

    /// The same error, said to come from `source` (a file name, `<stdin>`, ...).
    pub fn in_source(self, source: &str) -> SourcedError {
        SourcedError {
            source: source.to_string(),
            error: self,
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column {c}: {}", self.message),
            (Some(l), None) => write!(f, "line {l}: {}", self.message),
            (None, Some(c)) => write!(f, "column {c}: {}", self.message),
            (None, None) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for InputError {}

/// An [`InputError`] with the name of the input it is about.
///
/// ```
/// use csp_examples::InputError;
/// let e = InputError::at(4, 1, "unknown line type 'x'").in_source("g.col");
/// assert_eq!(e.to_string(), "g.col: line 4, column 1: unknown line type 'x'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourcedError {
    /// Where the input came from.
    pub source: String,
    /// What is wrong with it.
    pub error: InputError,
}

impl fmt::Display for SourcedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.error)
    }
}

impl std::error::Error for SourcedError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_is_a_single_line_with_its_place() {
        let e = InputError::at_column(12, "unexpected '?'");
        assert_eq!(e.to_string(), "column 12: unexpected '?'");
        assert!(!e.to_string().contains('\n'));
    }
}
