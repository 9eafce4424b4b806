//! Fuzz target: `csp_flatzinc::parse` returns for every input, and a rejected input's error is located inside it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        if let Err(err) = csp_flatzinc::parse(src) {
            let lines = src.split('\n').count() as u32;
            assert!(err.line() >= 1 && err.line() <= lines, "{err}");
            assert!(err.column() >= 1, "{err}");
        }
    }
});
