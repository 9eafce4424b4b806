//! XCSP3 front end for csp: reads XCSP3-core instances (the format of the
//! XCSP solver competitions, written by PyCSP3), translates them to a
//! [`csp_core::Model`], solves them with the competition's output
//! conventions, and checks solutions against the instance.
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
