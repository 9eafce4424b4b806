//! The keyed check of share lines (`--share-key`): HMAC-SHA256 of the line under a secret key, for shares that cross storage others can write.
//!
//! A share line's fields and a checkpoint's checksum catch accidents; anyone
//! who can edit the file can also recompute a checksum. With a key known
//! only to the machines that count and the one that merges, `count --part
//! ... --share-key SOURCE` ends its line with ` mac=HEX`, the HMAC-SHA256 of
//! the line before it, and `merge --share-key SOURCE` refuses a line whose
//! `mac=` is missing or wrong. The key is read from a file or an environment
//! variable, never from the command line (which other users can see in the
//! process list): SOURCE is a path, or `env:NAME`.
//!
//! ```
//! use nqueens::share_key::ShareKey;
//!
//! let key = ShareKey::from_bytes(b"a key of sixteen bytes or more".to_vec())?;
//! let signed = key.sign("nqueens-partial n=8 part=1/1 method=bitboard count=92");
//! assert!(signed.contains(" mac="));
//! assert_eq!(key.verify(&signed)?, "nqueens-partial n=8 part=1/1 method=bitboard count=92");
//! assert!(key.verify(&signed.replace("count=92", "count=93")).is_err());
//! # Ok::<(), String>(())
//! ```

use std::io::Read;
use std::path::Path;

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The shortest key accepted, in bytes.
pub const MIN_KEY_BYTES: usize = 16;

/// The largest key file read.
const MAX_KEY_BYTES: u64 = 4096;

/// The field a signed line ends with.
const FIELD: &str = " mac=";

/// A secret key for [`sign`](ShareKey::sign) and [`verify`](ShareKey::verify).
#[derive(Clone)]
pub struct ShareKey {
    key: Vec<u8>,
}

impl std::fmt::Debug for ShareKey {
    /// Never shows the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ShareKey(..)")
    }
}

impl ShareKey {
    /// A key of these bytes; fewer than [`MIN_KEY_BYTES`] is an error.
    pub fn from_bytes(key: Vec<u8>) -> Result<ShareKey, String> {
        if key.len() < MIN_KEY_BYTES {
            return Err(format!(
                "the share key has {} bytes; use at least {MIN_KEY_BYTES} (for example `head -c 32 /dev/urandom | base64`)",
                key.len()
            ));
        }
        Ok(ShareKey { key })
    }

    /// Reads the key named by `source`: `env:NAME` is the value of the
    /// environment variable NAME, anything else a path to a regular file of
    /// at most 4 KB whose content (one trailing newline removed) is the key.
    pub fn load(source: &str) -> Result<ShareKey, String> {
        let mut bytes = if let Some(name) = source.strip_prefix("env:") {
            std::env::var_os(name)
                .ok_or_else(|| format!("the share key variable {name} is not set"))?
                .into_encoded_bytes()
        } else {
            let file = crate::files::open_regular(Path::new(source))
                .map_err(|e| format!("cannot read the share key '{source}': {e}"))?;
            let mut bytes = Vec::new();
            file.take(MAX_KEY_BYTES + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read the share key '{source}': {e}"))?;
            if bytes.len() as u64 > MAX_KEY_BYTES {
                return Err(format!("the share key '{source}' is larger than 4 KB"));
            }
            bytes
        };
        if bytes.ends_with(b"\n") {
            bytes.pop();
            if bytes.ends_with(b"\r") {
                bytes.pop();
            }
        }
        ShareKey::from_bytes(bytes)
    }

    fn mac(&self) -> Hmac<Sha256> {
        // HMAC takes a key of any length.
        <Hmac<Sha256> as Mac>::new_from_slice(&self.key)
            .unwrap_or_else(|_| unreachable!("HMAC accepts every key length"))
    }

    /// The HMAC-SHA256 of `data` under the key, in hex (64 digits).
    pub fn tag(&self, data: &str) -> String {
        let mut mac = self.mac();
        mac.update(data.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Whether `hex` is the [`tag`](ShareKey::tag) of `data`, compared in
    /// constant time; the error says what is wrong.
    pub fn check(&self, data: &str, hex: &str) -> Result<(), String> {
        let tag = decode_hex(hex).ok_or_else(|| "mac= is not 64 hex digits".to_string())?;
        let mut mac = self.mac();
        mac.update(data.as_bytes());
        mac.verify_slice(&tag).map_err(|_| {
            "mac= does not match (the line was changed, or signed with another key)".to_string()
        })
    }

    /// `line` followed by ` mac=` and the HMAC-SHA256 of `line` in hex.
    pub fn sign(&self, line: &str) -> String {
        format!("{line}{FIELD}{}", self.tag(line))
    }

    /// The line without its ` mac=` field, if the field is there and right
    /// (compared in constant time); the error says which.
    pub fn verify<'a>(&self, line: &'a str) -> Result<&'a str, String> {
        let line = line.trim();
        let (body, hex) = line
            .rsplit_once(FIELD)
            .ok_or_else(|| "no mac= (the line is not signed with a share key)".to_string())?;
        self.check(body, hex)?;
        Ok(body)
    }
}

/// Whether `line` carries a ` mac=` field.
pub fn is_signed(line: &str) -> bool {
    line.contains(FIELD)
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_sha256_matches_rfc_4231_test_case_2() {
        // RFC 4231, test case 2, through the crate itself: the key "Jefe"
        // is shorter than MIN_KEY_BYTES.
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(b"Jefe").unwrap();
        mac.update(b"what do ya want for nothing?");
        let hex: String = mac
            .finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn short_keys_missing_sources_and_bad_tags_are_refused() {
        assert!(ShareKey::from_bytes(b"short".to_vec()).is_err());
        assert_eq!(
            ShareKey::load("env:NQUEENS_TEST_NO_SUCH_VARIABLE").unwrap_err(),
            "the share key variable NQUEENS_TEST_NO_SUCH_VARIABLE is not set"
        );
        let key = ShareKey::from_bytes(vec![7; 32]).unwrap();
        let other = ShareKey::from_bytes(vec![8; 32]).unwrap();
        let signed = key.sign("line");
        assert_eq!(key.verify(&format!("  {signed}\n")), Ok("line"));
        assert_eq!(
            other.verify(&signed).unwrap_err(),
            "mac= does not match (the line was changed, or signed with another key)"
        );
        assert_eq!(
            key.verify("line").unwrap_err(),
            "no mac= (the line is not signed with a share key)"
        );
        assert_eq!(
            key.verify("line mac=12").unwrap_err(),
            "mac= is not 64 hex digits"
        );
    }
}
