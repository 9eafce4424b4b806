//! Reading an instance: `.xml`, `.xml.gz` or `.xml.lzma`, at most 64 MB once
//! decompressed, parsed by `xcsp3-serde` after a check that it is XCSP3-core.

use std::io::{Read, Write};
use std::path::Path;

use quick_xml::events::Event;
use xcsp3_serde::Instance;

use crate::error::{Error, Result, one_line};

/// The most bytes an instance may have once decompressed (64 MB, as every
/// csp program reads: [`csp_cli::input::MAX_INPUT_BYTES`]).
pub const MAX_INSTANCE_BYTES: u64 = csp_cli::input::MAX_INPUT_BYTES;

/// Reads `path` as text: a `.gz` file through gzip, a `.lzma` or `.xz` file
/// through LZMA, anything else as it is; at most [`MAX_INSTANCE_BYTES`] after
/// decompression.
pub fn read_instance_text(path: &Path) -> Result<String> {
    let name = path.display().to_string();
    let file =
        std::fs::File::open(path).map_err(|e| Error::Read(format!("cannot read {name}: {e}")))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(Error::Read(format!(
            "cannot read {name}: it is a directory"
        )));
    }
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let bytes = match ext {
        "gz" => capped(flate2::read::MultiGzDecoder::new(file), &name)?,
        "lzma" | "xz" => {
            let mut input = std::io::BufReader::new(file);
            let mut out = CappedWriter { bytes: Vec::new() };
            let result = if ext == "xz" {
                lzma_rs::xz_decompress(&mut input, &mut out).map_err(|e| e.to_string())
            } else {
                lzma_rs::lzma_decompress(&mut input, &mut out).map_err(|e| e.to_string())
            };
            if let Err(e) = result {
                return Err(Error::Read(
                    if out.bytes.len() as u64 > MAX_INSTANCE_BYTES {
                        too_large(&name)
                    } else {
                        format!("cannot decompress {name}: {}", one_line(&e))
                    },
                ));
            }
            out.bytes
        }
        _ => capped(file, &name)?,
    };
    String::from_utf8(bytes).map_err(|e| {
        Error::Read(format!(
            "{name} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

fn too_large(name: &str) -> String {
    format!("{name} is larger than 64 MB (decompressed), the input size limit")
}

fn capped(reader: impl Read, name: &str) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INSTANCE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::Read(format!("cannot read {name}: {}", one_line(&e.to_string()))))?;
    if bytes.len() as u64 > MAX_INSTANCE_BYTES {
        return Err(Error::Read(too_large(name)));
    }
    Ok(bytes)
}

/// A writer that refuses to grow past [`MAX_INSTANCE_BYTES`], so that an LZMA
/// bomb stops early.
struct CappedWriter {
    bytes: Vec<u8>,
}

impl Write for CappedWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() as u64 + buf.len() as u64 > MAX_INSTANCE_BYTES {
            self.bytes.resize(MAX_INSTANCE_BYTES as usize + 1, 0);
            return Err(std::io::Error::other("input size limit"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Parses XCSP3 text into `xcsp3-serde`'s [`Instance`], after refusing what
/// is outside XCSP3-core: variables that are not integers, frameworks other
/// than CSP and COP, and soft constraints.
///
/// ```
/// let xml = r#"<instance format="XCSP3" type="CSP"><variables><var id="x"> 0..2 </var></variables>
///   <constraints><intension> gt(x,1) </intension></constraints></instance>"#;
/// let instance = csp_xcsp::parse_instance(xml)?;
/// assert_eq!(instance.variables.len(), 1);
/// let err = csp_xcsp::parse_instance(&xml.replace("CSP", "WCSP")).unwrap_err();
/// assert_eq!(err.to_string(), "not in XCSP3-core: framework WCSP (only CSP and COP)");
/// # Ok::<(), csp_xcsp::Error>(())
/// ```
pub fn parse_instance(text: &str) -> Result<Instance> {
    check_core(text)?;
    quick_xml::de::from_str::<Instance>(text).map_err(|e| {
        let msg = one_line(&e.to_string());
        if msg.starts_with("unknown variant") {
            Error::Unsupported(msg)
        } else {
            Error::Parse(format!("invalid XCSP3: {msg}"))
        }
    })
}

/// One pass over the start tags: the line of the first one outside
/// XCSP3-core, or of the first XML error.
fn check_core(text: &str) -> Result<()> {
    let mut reader = quick_xml::Reader::from_str(text);
    let line_of = |pos: u64| {
        text.as_bytes()[..(pos as usize).min(text.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    };
    let mut seen_instance = false;
    // The open elements, each with the number of <list> children seen so far.
    let mut open: Vec<(String, usize)> = Vec::new();
    loop {
        let pos = reader.buffer_position();
        let event = reader.read_event();
        match event {
            Ok(Event::Start(ref e)) | Ok(Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                let attr = |name: &str| -> Option<String> {
                    e.attributes()
                        .flatten()
                        .find(|a| a.key.as_ref() == name.as_bytes())
                        .map(|a| String::from_utf8_lossy(&a.value).into_owned())
                };
                let parent = open.last().map(|p| p.0.clone()).unwrap_or_default();
                if tag == "list"
                    && let Some(p) = open.last_mut()
                {
                    p.1 += 1;
                }
                if let Some(what) =
                    unread_form(&tag, &parent, open.last().map_or(0, |p| p.1), &attr)
                {
                    return Err(Error::Unsupported(format!(
                        "{what} (line {})",
                        line_of(pos)
                    )));
                }
                if matches!(event, Ok(Event::Start(_))) {
                    open.push((tag.clone(), 0));
                }
                match tag.as_str() {
                    "instance" => {
                        seen_instance = true;
                        // Quoted: one line, at most 80 characters of it.
                        let ty = csp_cli::input::quote(&attr("type").unwrap_or_default());
                        if ty != "CSP" && ty != "COP" {
                            return Err(Error::Unsupported(format!(
                                "framework {ty} (only CSP and COP)"
                            )));
                        }
                    }
                    "var" | "array" => {
                        if let Some(ty) = attr("type").filter(|t| t != "integer") {
                            let ty = csp_cli::input::quote(&ty);
                            return Err(Error::Unsupported(format!(
                                "{ty} variables (line {}; only integer variables)",
                                line_of(pos)
                            )));
                        }
                        if attr("as").is_some() {
                            return Err(Error::Unsupported(format!(
                                "`as` references between variables (line {})",
                                line_of(pos)
                            )));
                        }
                    }
                    _ if attr("type").is_some_and(|t| t.contains("soft"))
                        || attr("violationCost").is_some()
                        || attr("defaultCost").is_some() =>
                    {
                        return Err(Error::Unsupported(format!(
                            "soft constraint <{tag}> (line {})",
                            line_of(pos)
                        )));
                    }
                    _ => {}
                }
            }
            Ok(Event::End(_)) => {
                open.pop();
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => {
                return Err(Error::Parse(format!(
                    "malformed XML at line {}: {}",
                    line_of(reader.error_position()),
                    one_line(&e.to_string())
                )));
            }
        }
    }
    if !seen_instance {
        return Err(Error::Parse(
            "no <instance> element: not an XCSP3 file".into(),
        ));
    }
    Ok(())
}

/// A form of a constraint that `xcsp3-serde` would read without its
/// meaning (an attribute or child it does not know and silently skips):
/// refused rather than solved as a different constraint.
fn unread_form(
    tag: &str,
    parent: &str,
    lists_in_parent: usize,
    attr: &dyn Fn(&str) -> Option<String>,
) -> Option<&'static str> {
    let nonzero = |name: &str| attr(name).is_some_and(|v| v.trim() != "0");
    if tag == "index" && matches!(parent, "maximum" | "minimum") {
        return Some("maximum/minimum with an index");
    }
    if attr("rank").is_some() {
        return Some("an index with a rank");
    }
    if tag == "list" && parent == "channel" && nonzero("startIndex") {
        return Some("channel lists with startIndex");
    }
    if nonzero("startRowIndex") || nonzero("startColIndex") {
        return Some("element over a matrix with start indexes");
    }
    if tag == "list" && matches!(parent, "allDifferent" | "allEqual") && lists_in_parent > 1 {
        return Some("allDifferent/allEqual over several lists");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_xml_is_one_line_with_its_line() {
        let err =
            parse_instance("<instance type=\"CSP\">\n<variables>\n<var id=\"x\"> 0..1 </vars>")
                .unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("malformed XML at line 3"), "{msg}");
        assert!(!msg.contains('\n'));
    }

    #[test]
    fn forms_the_parser_would_skip_are_refused() {
        let wrap = |c: &str| {
            format!(
                "<instance type=\"CSP\"><variables><array id=\"x\" size=\"[3]\"> 0..2 </array><var id=\"i\"> 0..2 </var></variables>\
                 <constraints>{c}</constraints></instance>"
            )
        };
        for (c, what) in [
            (
                "<maximum><list> x[] </list><index> i </index><condition> (eq,2) </condition></maximum>",
                "maximum/minimum with an index",
            ),
            (
                "<element><list> x[] </list><index rank=\"first\"> i </index><value> 1 </value></element>",
                "an index with a rank",
            ),
            (
                "<channel><list startIndex=\"1\"> x[] </list></channel>",
                "channel lists with startIndex",
            ),
            (
                "<allDifferent><list> x[0..1] </list><list> x[1..2] </list></allDifferent>",
                "allDifferent/allEqual over several lists",
            ),
        ] {
            let err = parse_instance(&wrap(c)).unwrap_err().to_string();
            assert_eq!(err, format!("not in XCSP3-core: {what} (line 1)"));
        }
        assert!(
            parse_instance(&wrap(
                "<allDifferent><list> x[] </list><except> 0 </except></allDifferent>"
            ))
            .is_ok()
        );
        assert!(
            parse_instance(&wrap(
                "<channel><list startIndex=\"0\"> x[] </list></channel>"
            ))
            .is_ok()
        );
    }

    #[test]
    fn attribute_values_are_quoted_on_one_line() {
        let err = parse_instance("<instance type=\"C\nOP\"/>").unwrap_err();
        assert_eq!(
            err.to_string(),
            "not in XCSP3-core: framework C\\nOP (only CSP and COP)"
        );
    }

    #[test]
    fn set_variables_are_refused() {
        let err = parse_instance("<instance type=\"CSP\"><variables><var id=\"s\" type=\"set\"> [] </var></variables></instance>").unwrap_err();
        assert_eq!(
            err.to_string(),
            "not in XCSP3-core: set variables (line 1; only integer variables)"
        );
    }

    #[test]
    fn gzip_and_lzma_files_are_read() {
        let dir = std::env::temp_dir().join(format!("csp-xcsp-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = "<instance type=\"CSP\"/>";
        let gz = dir.join("a.xml.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(text.as_bytes()).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        assert_eq!(read_instance_text(&gz).unwrap(), text);
        let lz = dir.join("a.xml.lzma");
        let mut out = Vec::new();
        lzma_rs::lzma_compress(&mut text.as_bytes(), &mut out).unwrap();
        std::fs::write(&lz, out).unwrap();
        assert_eq!(read_instance_text(&lz).unwrap(), text);
        std::fs::write(&lz, b"garbage").unwrap();
        assert!(
            read_instance_text(&lz)
                .unwrap_err()
                .to_string()
                .starts_with("cannot decompress")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
