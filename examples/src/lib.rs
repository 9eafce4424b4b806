//! Model builders for the example CSPs, shared by the runnable examples and the tests.
#![deny(missing_docs)]
