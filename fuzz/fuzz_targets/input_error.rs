//! What every parser's `InputError` must satisfy, shared by the parser targets.

use csp_examples::InputError;

/// The error's line is inside a text of `lines` lines, its column counts from 1,
/// and its message is one line.
pub fn check(e: &InputError, lines: usize) {
    if let Some(line) = e.line {
        assert!(line >= 1 && line <= lines.max(1), "{e}");
    }
    if let Some(column) = e.column {
        assert!(column >= 1, "{e}");
    }
    assert!(!e.to_string().contains('\n'), "{e:?}");
}
