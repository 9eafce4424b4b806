//! Standard output that fails the conventional way: a reader that went away
//! (`| head`, a closed pipe) ends the program quietly with status 0, as a
//! program killed by SIGPIPE would in a pipeline whose last command succeeded;
//! any other write failure (`> /dev/full`) is one line on standard error and
//! status 1. Never a panic.
//!
//! Rust ignores SIGPIPE, so a write to a closed pipe returns `BrokenPipe`
//! instead of killing the program; `println!` turns that into a panic
//! (status 101). The programs print through [`outln!`](crate::outln) (which
//! exits on failure) or [`try_outln!`](crate::try_outln) (which returns the
//! error for the caller's own clean-up), then call [`finish`].
//!
//! Standard error is written through [`errln!`](crate::errln) and
//! [`err!`](crate::err) instead of `eprintln!`, which panics too when its
//! write fails (`2> /dev/full`, a closed standard error). A message that
//! cannot be written to standard error has nowhere else to go: it is dropped,
//! and the program ends with the status it would have had.
//!
//! ```
//! use csp_cli::output::{self, WriteFailure};
//! let gone = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
//! assert_eq!(output::classify(&gone), WriteFailure::ReaderGone);
//! let full = std::io::Error::from_raw_os_error(28);
//! assert!(matches!(output::classify(&full), WriteFailure::Failed(_)));
//! ```

use std::fmt;
use std::io::{self, Write};

/// The exit status when the reader of standard output went away: 0, the
/// status `head`-style pipelines expect (nothing is wrong with the program).
pub const READER_GONE_STATUS: i32 = 0;

/// The exit status of any other failure to write the output.
pub const WRITE_FAILED_STATUS: i32 = 1;

/// What a failed write means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteFailure {
    /// The reader closed the pipe: stop quietly.
    ReaderGone,
    /// The output could not be written (disk full, I/O error): the one-line
    /// message, without a program prefix, e.g. `cannot write the output: No
    /// space left on device (os error 28)`.
    Failed(String),
}

/// Classifies a write error.
pub fn classify(e: &io::Error) -> WriteFailure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        WriteFailure::ReaderGone
    } else {
        WriteFailure::Failed(format!("cannot write the output: {e}"))
    }
}

/// Ends the program for a write error: quietly with [`READER_GONE_STATUS`]
/// when the reader went away, otherwise `{prefix}cannot write the output: ...`
/// on standard error and [`WRITE_FAILED_STATUS`]. `prefix` is `"error: "` for
/// nqueens and the examples, `"fzn-csp: "` for fzn-csp.
pub fn exit_on_error(e: &io::Error, prefix: &str) -> ! {
    match classify(e) {
        WriteFailure::ReaderGone => std::process::exit(READER_GONE_STATUS),
        WriteFailure::Failed(message) => {
            let _ = writeln!(io::stderr(), "{prefix}{message}");
            std::process::exit(WRITE_FAILED_STATUS)
        }
    }
}

/// Writes `args` and a newline to standard output (line-buffered, so the
/// error of a full disk shows at once).
pub fn write_line(args: fmt::Arguments<'_>) -> io::Result<()> {
    crate::progress::clear();
    let mut out = io::stdout().lock();
    out.write_fmt(args)?;
    out.write_all(b"\n")
}

/// Writes `args` to standard output, without a newline, and flushes it (so
/// that a failure shows here, not unseen at exit).
pub fn write(args: fmt::Arguments<'_>) -> io::Result<()> {
    crate::progress::clear();
    let mut out = io::stdout().lock();
    out.write_fmt(args)?;
    out.flush()
}

/// [`write_line`], ending the program as [`exit_on_error`] says (prefix
/// `error: `) if it fails.
pub fn print_line(args: fmt::Arguments<'_>) {
    if let Err(e) = write_line(args) {
        exit_on_error(&e, "error: ");
    }
}

/// [`write`], ending the program as [`exit_on_error`] says if it fails.
pub fn print(args: fmt::Arguments<'_>) {
    if let Err(e) = write(args) {
        exit_on_error(&e, "error: ");
    }
}

/// `Err` with the one-line message `writing KIND to a terminal; use -o FILE or
/// redirect` when standard output is a terminal: a program that writes a
/// picture or a page (SVG, HTML) calls it before any work when no `-o` was
/// given, so that kilobytes of markup never flood a terminal.
///
/// ```
/// // Under a test harness standard output is captured, not a terminal.
/// if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
///     assert!(csp_cli::output::refuse_terminal("SVG").is_ok());
/// }
/// assert_eq!(csp_cli::output::terminal_refusal("SVG"),
///            "writing SVG to a terminal; use -o FILE or redirect");
/// ```
pub fn refuse_terminal(kind: &str) -> Result<(), String> {
    if std::io::IsTerminal::is_terminal(&io::stdout()) {
        Err(terminal_refusal(kind))
    } else {
        Ok(())
    }
}

/// The message of [`refuse_terminal`].
pub fn terminal_refusal(kind: &str) -> String {
    format!("writing {kind} to a terminal; use -o FILE or redirect")
}

/// Flushes standard output; call it last, so that output still buffered (a
/// line without its newline) cannot fail unseen at exit.
pub fn finish() {
    crate::progress::clear();
    if let Err(e) = io::stdout().lock().flush() {
        exit_on_error(&e, "error: ");
    }
}

/// `println!` that never panics: on a closed pipe the program ends quietly
/// (status 0), on any other failure with one line `error: cannot write the
/// output: ...` and status 1. See [`output`](crate::output).
#[macro_export]
macro_rules! outln {
    () => { $crate::output::print_line(format_args!("")) };
    ($($arg:tt)*) => { $crate::output::print_line(format_args!($($arg)*)) };
}

/// `print!` that never panics (see [`outln!`](crate::outln)).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::print(format_args!($($arg)*)) };
}

/// `println!` returning the `std::io::Result` (for callers that clean up or
/// map the error themselves; see [`classify`]).
#[macro_export]
macro_rules! try_outln {
    () => { $crate::output::write_line(format_args!("")) };
    ($($arg:tt)*) => { $crate::output::write_line(format_args!($($arg)*)) };
}

/// Writes `args` and a newline to standard error, returning the error (see
/// [`errln!`](crate::errln), which drops it).
pub fn write_err_line(args: fmt::Arguments<'_>) -> io::Result<()> {
    crate::progress::clear();
    write_err_line_to(&mut io::stderr().lock(), args)
}

/// Writes `args` to standard error, without a newline, returning the error.
pub fn write_err(args: fmt::Arguments<'_>) -> io::Result<()> {
    crate::progress::clear();
    let mut err = io::stderr().lock();
    err.write_fmt(args)?;
    err.flush()
}

/// [`write_err_line`], dropping a failure: what cannot be written to standard
/// error has nowhere else to go.
pub fn eprint_line(args: fmt::Arguments<'_>) {
    let _ = write_err_line(args);
}

/// [`write_err`], dropping a failure.
pub fn eprint(args: fmt::Arguments<'_>) {
    let _ = write_err(args);
}

/// Writes `args` and a newline to `w` in one buffer, so that a line reaches a
/// shared standard error whole.
fn write_err_line_to(w: &mut impl Write, args: fmt::Arguments<'_>) -> io::Result<()> {
    let mut line = fmt::format(args);
    line.push('\n');
    w.write_all(line.as_bytes())?;
    w.flush()
}

/// `eprintln!` that never panics: a line that cannot be written to standard
/// error (`2> /dev/full`, a closed standard error) is dropped, and the program
/// goes on to end with its usual status. See [`output`](crate::output).
///
/// ```
/// csp_cli::errln!("note: {} values tried", 26);
/// ```
#[macro_export]
macro_rules! errln {
    () => { $crate::output::eprint_line(format_args!("")) };
    ($($arg:tt)*) => { $crate::output::eprint_line(format_args!($($arg)*)) };
}

/// `eprint!` that never panics (see [`errln!`](crate::errln)).
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => { $crate::output::eprint(format_args!($($arg)*)) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_pipe_is_quiet_and_other_errors_are_one_line() {
        assert_eq!(
            classify(&io::Error::from(io::ErrorKind::BrokenPipe)),
            WriteFailure::ReaderGone
        );
        let full = classify(&io::Error::from_raw_os_error(28));
        let WriteFailure::Failed(line) = full else {
            panic!("a full disk is a failure")
        };
        assert!(line.starts_with("cannot write the output: "), "{line}");
        assert!(!line.contains('\n'));
    }

    /// A writer that fails like `/dev/full`.
    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from_raw_os_error(28))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_standard_error_line_is_written_whole_or_returns_the_error() {
        let mut out = Vec::new();
        write_err_line_to(&mut out, format_args!("error: {}", 7)).unwrap();
        assert_eq!(out, b"error: 7\n");
        let e = write_err_line_to(&mut Full, format_args!("error: x")).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(28));
    }
}
