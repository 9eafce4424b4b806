//! Escaping text for the SVG documents the crate writes.

/// Escapes text for XML content and attribute values (the renderers of this
/// crate and of `csp-compare` share it).
///
/// ```
/// assert_eq!(csp_trace::escape_xml("a < b & \"c\""), "a &lt; b &amp; &quot;c&quot;");
/// ```
pub fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
