//! FlatZinc front end for csp: read FlatZinc, translate it to a csp-core model, answer as MiniZinc expects.
//!
//! # Contents
//! 1. [From MiniZinc to csp](#from-minizinc-to-csp)
//! 2. [The pipeline](#the-pipeline)
//! 3. [Builtins and annotations](#builtins-and-annotations)
//! 4. [Explanations](#explanations)
//! 5. [Errors](#errors)
//!
//! # From MiniZinc to csp
//! MiniZinc compiles a model (`.mzn`) into *FlatZinc* (`.fzn`), a flat list of
//! variable declarations and calls of a fixed set of builtin constraints, using a
//! solver's *library* (`mznlib/`) to decide which global constraints stay native.
//! The `fzn-csp` binary reads that file, solves it with csp-core, and prints the
//! solutions in the format MiniZinc's `solns2out` reads. `docs/minizinc.md` tells
//! how to install it so that `minizinc --solver csp model.mzn` works.
//!
//! # The pipeline
//! ```
//! use csp_flatzinc::{Options, parse, run, solve, translate};
//!
//! let src = "array [1..3] of var 1..3: q :: output_array([1..3]);\n\
//!            constraint fzn_all_different_int(q);\n\
//!            constraint int_lt(q[1], q[3]);\n\
//!            solve satisfy;";
//! // 1. Parse: text to syntax tree, errors with line and column.
//! let ast = parse(src)?;
//! // 2. Translate: syntax tree to a csp-core model plus outputs, objective, search phases.
//! let t = translate(&ast, &Default::default())?;
//! assert_eq!(t.model.num_vars(), 3);
//! // 3. Solve: count the solutions through the library...
//! let options = Options { all_solutions: true, ..Default::default() };
//! let outcome = solve(&t, &options, &mut |_| {})?;
//! assert_eq!(outcome.solutions, 3);
//! // ...or print them as MiniZinc expects.
//! let mut out = Vec::new();
//! run(src, &Options::default(), &mut out)?;
//! assert_eq!(String::from_utf8(out)?, "q = array1d(1..3, [1, 2, 3]);\n----------\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Builtins and annotations
//! [`SUPPORTED`] lists the FlatZinc constraints the translation posts: the integer
//! and Boolean builtins of MiniZinc's standard library, `set_in` over constant
//! sets, and the natives our `mznlib` declares (`fzn_all_different_int`,
//! `fzn_table_int`, `fzn_count_eq` and the other `fzn_count_*`, `fzn_at_most_int`,
//! `fzn_at_least_int`, and more).
//! Comparisons and linear constraints become csp-core's
//! [`Linear`](csp_core::Linear), all-different, table, element and count its
//! built-ins; the integer functions, clauses and reified comparisons csp-core's
//! [`Func`](csp_core::Func), [`BoolOr`](csp_core::BoolOr) and
//! [`ReifiedLinear`](csp_core::ReifiedLinear) (re-exported in [`constraints`]),
//! or [`ReifiedCompare`](csp_core::ReifiedCompare) for one variable compared
//! with a constant (`int_eq_reif(x, 3, b)`); at the propagators level, when
//! the search learns nothing from failures, the `int_eq_reif` and
//! `int_ne_reif` items comparing one variable with two or more constants are
//! one [`EqualityChannel`](csp_core::EqualityChannel) per variable
//! ([`TranslateOptions::channel_equalities`]);
//! parity and set membership are this crate's own. Search annotations become
//! [`Phase`]s, followed by [`PhasedVariables`] and [`PhasedValues`]; restart
//! annotations a csp-core [`Restarts`](csp_core::Restarts) policy. A model
//! without them gets the default search of [`SearchPlan`].
//!
//! # Explanations
//! [`explain`] (`fzn-csp --explain`) answers "why is there no solution?" for
//! an unsatisfiable model: a minimal set of its constraints that cannot all
//! hold, each printed by the name MiniZinc gives it
//! (`:: mzn_constraint_name("...")`, kept by `minizinc -c -g`) or by its
//! FlatZinc text ([`explain_label`]), found by
//! [`csp_core::explain`]. [`Translation::posted_by`] maps the model's
//! constraints back to the file's items.
//!
//! # Errors
//! Nothing is ignored silently: a construct fzn-csp does not support is an
//! [`Error`] naming it and its line, never a wrong answer. Annotations on
//! declarations and constraints (`is_defined_var`, `defines_var`, `domain`, ...)
//! only inform a solver, and are the one thing skipped (`var_is_introduced`
//! and `is_defined_var` tell the default search which variables the model
//! declared: [`Translation::decision_vars`], [`SearchPlan`]; `defines_var`
//! tells it which variables the objective depends on:
//! [`Translation::objective_guide`]).
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod ast;
mod bounds;
mod branching;
mod builtins;
mod compare;
pub mod constraints;
mod error;
mod explain;
mod globals;
mod guide;
mod hash;
mod install;
mod lexer;
mod output;
mod parser;
mod pos;
mod sets;
mod solve;
mod strategy;
mod translate;
mod views;

pub use branching::{PhasedValues, PhasedVariables};
pub use builtins::SUPPORTED;
pub use compare::{CompareSettings, DEFAULT_COMPARE_TIME, compare, parse_strategies};
pub use error::{Error, ParseError, ParseErrorKind, TranslateError};
pub use explain::{explain, explain_label};
pub use guide::{Guided, ValueGuide};
pub use install::{MZNLIB, install_solver_config, solver_config};
pub use output::{
    Output, OutputError, SEARCH_COMPLETE, SOLUTION_SEPARATOR, UNKNOWN, UNSATISFIABLE, final_line,
    format_solution,
};
pub use parser::{MAX_DEPTH, parse};
pub use pos::Pos;
pub use sets::{MAX_SET_ELEMENTS, SetVar};
pub use solve::{DEFAULT_RESTARTS, DEFAULT_VAR_ORDER, Options, Outcome, SearchPlan, run, solve};
pub use strategy::{Phase, ValChoice, VarChoice};
pub use translate::{AllDifferentFiltering, Scalar, TranslateOptions, Translation, translate};
