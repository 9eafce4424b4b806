//! Source positions: the line and column where a token, item or error starts.

use std::fmt;

/// A 1-based line and column in the FlatZinc source.
///
/// ```
/// let model = csp_flatzinc::parse("var 1..3: x;\nsolve satisfy;").unwrap();
/// assert_eq!(model.solve.pos.line, 2);
/// assert_eq!(model.solve.pos.to_string(), "line 2, column 1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Line number, starting at 1.
    pub line: u32,
    /// Column number in characters, starting at 1.
    pub column: u32,
}

impl Pos {
    /// The first character of a file.
    pub const START: Pos = Pos { line: 1, column: 1 };
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}
