//! Python bindings of the csp engine: the extension module `csp_rs._native`.
//!
//! The Python package `csp_rs` (under `python/csp_rs/`) builds its native model
//! API and its python-constraint compatibility layer on the three classes
//! defined here:
//! - [`NativeModel`]: a [`csp_core::Model`] whose variables are numbered by
//!   declaration, with one method per engine constraint;
//! - [`NativeSearch`]: one search, run on a worker thread without the GIL,
//!   handing its solutions back one at a time; Ctrl-C stops it;
//! - the custom constraint [`callback::PyConstraint`], which calls a Python
//!   function and turns an exception inside it into a Python exception of the
//!   search, never a panic;
//! - `trace` searches (csp-trace's SVG tree) and `compare` (csp-compare's
//!   verified table and chart).
//!
//! The bindings are thin: conversion, error mapping and the GIL. The search
//! itself is csp-core's.

#![deny(missing_docs)]

mod callback;
mod compare;
mod config;
mod model;
mod search;

use pyo3::prelude::*;

pub use callback::PyConstraint;
pub use model::NativeModel;
pub use search::NativeSearch;

/// The extension module `csp_rs._native`.
#[pymodule]
#[pyo3(name = "_native")]
fn native_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeModel>()?;
    m.add_class::<NativeSearch>()?;
    m.add_function(wrap_pyfunction!(search::start, m)?)?;
    m.add_function(wrap_pyfunction!(config::check_strategy, m)?)?;
    m.add_function(wrap_pyfunction!(compare::compare, m)?)?;
    m.add("MAX_DOMAIN_WIDTH", csp_core::MAX_DOMAIN_WIDTH)?;
    Ok(())
}
