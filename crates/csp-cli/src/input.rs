//! Reading input with a size cap, and quoting input in one-line messages.
//!
//! Every program reads standard input and files through [`read_stdin`] and
//! [`read_file`]: at most [`MAX_INPUT_BYTES`] (64 MB), so `prog < /dev/zero`
//! ends with one line instead of growing until memory runs out.
//!
//! ```
//! let text = csp_cli::input::read_capped(&b"8\n"[..], "<stdin>", 16).unwrap();
//! assert_eq!(text, "8\n");
//! let err = csp_cli::input::read_capped(&[b'0'; 17][..], "<stdin>", 16).unwrap_err();
//! assert_eq!(err, "<stdin> is larger than 16 bytes, the input size limit");
//! assert_eq!(csp_cli::input::quote("abc"), "abc");
//! ```

use std::io::Read;
use std::path::Path;

/// The most any program reads from one input: 64 MB (64 × 2^20 bytes).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The most characters of the input an error message quotes.
pub const MAX_QUOTED_CHARS: usize = 80;

/// Reads `reader` to the end as UTF-8 text, refusing more than `cap` bytes.
/// `name` names the input in the one-line error (`<stdin>`, a path).
pub fn read_capped(reader: impl Read, name: &str, cap: u64) -> Result<String, String> {
    let mut bytes = Vec::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!(
            "{name} is larger than {}, the input size limit",
            size_words(cap)
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads standard input (at most [`MAX_INPUT_BYTES`]); errors name it `name`.
pub fn read_stdin(name: &str) -> Result<String, String> {
    read_capped(std::io::stdin().lock(), name, MAX_INPUT_BYTES)
}

/// Reads a file (at most [`MAX_INPUT_BYTES`]); errors name it `name`.
pub fn read_file(path: &Path, name: &str) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(format!("cannot read {name}: it is a directory"));
    }
    read_capped(file, name, MAX_INPUT_BYTES)
}

/// `64 MB`, `16 bytes`: a byte count for messages.
fn size_words(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        format!("{} MB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// `s` for a one-line message: control characters (newlines, NUL) escaped,
/// at most [`MAX_QUOTED_CHARS`] characters, then `...` and the total length.
///
/// ```
/// use csp_cli::input::quote;
/// assert_eq!(quote("a\nb"), "a\\nb");
/// let long = "7".repeat(1000);
/// assert_eq!(quote(&long), format!("{}... (1000 characters)", "7".repeat(80)));
/// ```
pub fn quote(s: &str) -> String {
    let total = s.chars().count();
    let mut out = String::new();
    for c in s.chars().take(MAX_QUOTED_CHARS) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if total > MAX_QUOTED_CHARS {
        out.push_str(&format!("... ({total} characters)"));
    }
    out
}

/// `line` with every span between a pair of `'` or of `` ` `` that is longer
/// than [`MAX_QUOTED_CHARS`] shortened by [`quote`]: a message that echoes a
/// huge token (`unknown line type 'zzzz...'`, clap's `invalid value '999...'`)
/// stays a readable line.
///
/// ```
/// use csp_cli::input::shorten_quoted;
/// let long = "z".repeat(500);
/// assert_eq!(
///     shorten_quoted(&format!("unknown constraint `{long}`")),
///     format!("unknown constraint `{}... (500 characters)`", "z".repeat(80))
/// );
/// assert_eq!(shorten_quoted("b's 'short' one"), "b's 'short' one");
/// ```
pub fn shorten_quoted(line: &str) -> String {
    let mut text = line.to_string();
    for delimiter in ['\'', '`'] {
        let parts: Vec<&str> = text.split(delimiter).collect();
        if parts.len() < 3 || parts.iter().all(|p| p.chars().count() <= MAX_QUOTED_CHARS) {
            continue;
        }
        let last = parts.len() - 1;
        text = parts
            .iter()
            .enumerate()
            .map(|(i, part)| {
                // Odd pieces lie between a pair of delimiters (the last only if closed).
                if i % 2 == 1 && i < last && !already_quoted(part) {
                    quote(part)
                } else {
                    (*part).to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(&delimiter.to_string());
    }
    text
}

/// Whether `s` is already the output of [`quote`] for a long text.
fn already_quoted(s: &str) -> bool {
    s.ends_with(" characters)")
        && s.char_indices()
            .nth(MAX_QUOTED_CHARS)
            .is_some_and(|(i, _)| s[i..].starts_with("... ("))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_inclusive() {
        assert_eq!(read_capped(&[b'1'; 4][..], "x", 4).unwrap(), "1111");
        assert!(read_capped(&[b'1'; 5][..], "x", 4).is_err());
    }

    #[test]
    fn the_cap_is_stated_in_megabytes() {
        let err = read_capped(std::io::repeat(0), "<stdin>", MAX_INPUT_BYTES).unwrap_err();
        assert_eq!(err, "<stdin> is larger than 64 MB, the input size limit");
    }

    #[test]
    fn invalid_utf8_is_one_line() {
        let err = read_capped(&[b'8', 0xff][..], "f.txt", 16).unwrap_err();
        assert_eq!(err, "f.txt is not UTF-8 text (invalid byte at offset 1)");
    }

    #[test]
    fn a_directory_is_refused() {
        let err = read_file(Path::new("/"), "/").unwrap_err();
        assert!(err.starts_with("cannot read /"), "{err}");
    }

    #[test]
    fn a_huge_argument_is_quoted_short() {
        let long = "9".repeat(500);
        assert_eq!(
            shorten_quoted(&format!(
                "invalid value '{long}' for '<N>': N = 9 is too large"
            )),
            format!(
                "invalid value '{}... (500 characters)' for '<N>': N = 9 is too large",
                "9".repeat(80)
            )
        );
        assert_eq!(shorten_quoted("it's fine"), "it's fine");
        let once = format!("N '{}'", quote(&long));
        assert_eq!(shorten_quoted(&once), once);
    }

    #[test]
    fn quoting_escapes_and_shortens() {
        assert_eq!(quote("\0"), "\\u{0}");
        assert_eq!(quote(&"é".repeat(81)).chars().count(), 80 + 19);
    }
}
