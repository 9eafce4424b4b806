//! XCSP3 front end for csp: reads XCSP3-core instances (the format of the
//! XCSP solver competitions, written by PyCSP3), translates them to a
//! [`csp_core::Model`], solves them with the competition's output
//! conventions, and checks solutions against the instance.
//!
//! # The pipeline
//!
//! 1. [`read_instance_text`]: a `.xml`, `.xml.gz` or `.xml.lzma` file, at most
//!    64 MB once decompressed.
//! 2. [`parse_instance`]: anything outside XCSP3-core (set or real variables,
//!    soft constraints, other frameworks) is refused as
//!    [`Error::Unsupported`]; the rest is parsed by the `xcsp3-serde` crate
//!    (patched in `vendor/`).
//! 3. [`Problem::new`]: `group`, `block` and `slide` unrolled, every reference
//!    resolved to a variable number ([`names`]), every constraint in one of
//!    the [`Flat`] forms.
//! 4. [`translate`]: a [`csp_core::Model`], native constraints where the
//!    engine has them, decompositions elsewhere (docs/xcsp.md lists which).
//! 5. [`solve::run`]: the search, with `o`/`s`/`v`/`c` lines.
//! 6. [`holds`] / [`Problem::violated`]: the verifier, which reads each
//!    constraint's XCSP3 definition directly, never the translation.
//!
//! ```
//! let xml = r#"<instance format="XCSP3" type="CSP">
//!   <variables><array id="q" size="[4]"> 0..3 </array></variables>
//!   <constraints>
//!     <allDifferent> q[] </allDifferent>
//!     <group><intension> ne(dist(%0,%1),%2) </intension>
//!       <args> q[0] q[1] 1 </args><args> q[0] q[2] 2 </args><args> q[0] q[3] 3 </args>
//!       <args> q[1] q[2] 1 </args><args> q[1] q[3] 2 </args><args> q[2] q[3] 1 </args>
//!     </group>
//!   </constraints></instance>"#;
//! let problem = csp_xcsp::Problem::new(&csp_xcsp::parse_instance(xml)?)?;
//! let mut out = Vec::new();
//! let outcome = csp_xcsp::solve::run(&problem, &Default::default(), &mut out)?;
//! assert_eq!(outcome.answer, csp_xcsp::solve::Answer::Satisfiable);
//! let queens = &outcome.solutions[0];
//! assert_eq!(problem.violated(queens), None);
//! assert!(String::from_utf8(out)?.contains("s SATISFIABLE\nv <instantiation"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod check;
pub mod error;
pub mod expr;
pub mod flat;
pub mod names;
pub mod output;
pub mod read;
pub mod solve;
pub mod translate;

pub use check::holds;
pub use error::{Error, Result};
pub use flat::{Flat, Problem};
pub use read::{parse_instance, read_instance_text};
pub use translate::{Translation, translate};
