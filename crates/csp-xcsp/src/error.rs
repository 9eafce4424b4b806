//! The one error type of the front end: every failure is one line.

/// Why an instance could not be read, translated or checked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read or decompressed (message names the file).
    #[error("{0}")]
    Read(String),
    /// The XML is not a well-formed XCSP3 instance the parser accepts.
    #[error("{0}")]
    Parse(String),
    /// A feature outside XCSP3-core (set or real variables, soft constraints,
    /// an unknown constraint, a multi-objective instance).
    #[error("not in XCSP3-core: {0}")]
    Unsupported(String),
    /// The instance is XCSP3-core but cannot be translated (an undefined
    /// variable, a domain or table too large for the limits, an overflow).
    #[error("{0}")]
    Translate(String),
    /// The engine refused the translated model.
    #[error("{0}")]
    Core(#[from] csp_core::CspError),
    /// Standard output could not be written.
    #[error("cannot write the output: {0}")]
    Output(std::io::Error),
    /// A solution given to the verifier does not name the instance's variables.
    #[error("{0}")]
    Solution(String),
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Makes a message one line: newlines and tabs become spaces, runs of spaces
/// one space, and the text is cut to 200 characters.
pub(crate) fn one_line(s: &str) -> String {
    let joined = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.chars().count() > 200 {
        let cut: String = joined.chars().take(200).collect();
        format!("{cut}...")
    } else {
        joined
    }
}
