//! Fuzz target: a random small CSP from the input bytes, solved at every pruning
//! level, must give exactly the brute-force solutions.
//!
//! The decoder and the checks are the ones of `crates/csp-core/tests/random_csps.rs`
//! (shared through `tests/common/mod.rs`), so a crash input replays there as a
//! regression test: `common::fuzz_case(&bytes)`.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/csp-core/tests/common/mod.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (spec, configs) = common::fuzz_case(data);
    if let Err(e) = common::check_every_config(&spec, &configs) {
        panic!("{e}\n{spec:#?}");
    }
});
