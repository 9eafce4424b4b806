//! Progress on standard error for long counts, shown only when standard error is a terminal.
//!
//! Nothing here runs when standard error is redirected (tests, pipes, CI): the
//! callers then search with csp-core's `NoObserver`, so the hot loop is the
//! plain one.

use std::io::IsTerminal;
use std::time::Duration;

use csp_core::{Node, SearchObserver};
use indicatif::{ProgressBar, ProgressStyle};

/// Update the display once every this many nodes (a power of two: a mask test).
const UPDATE_EVERY: u64 = 1 << 16;

/// Whether to show progress at all.
pub fn wanted() -> bool {
    std::io::stderr().is_terminal()
}

/// A spinner with the elapsed time and `message`, ticking on its own thread;
/// `None` unless standard error is a terminal.
pub fn spinner(message: String) -> Option<ProgressBar> {
    if !wanted() {
        return None;
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
        bar.set_style(style);
    }
    bar.set_message(message);
    bar.enable_steady_tick(Duration::from_millis(125));
    Some(bar)
}

/// Counts nodes and solutions of an engine search and shows them on a spinner.
pub struct EngineProgress {
    bar: ProgressBar,
    n: usize,
    nodes: u64,
    solutions: u64,
}

impl EngineProgress {
    /// Progress for an `n`-queens search; `None` unless standard error is a terminal.
    pub fn new(n: usize) -> Option<Self> {
        let bar = spinner("counting with the engine (Ctrl-C stops and reports)".into())?;
        Some(EngineProgress {
            bar,
            n,
            nodes: 0,
            solutions: 0,
        })
    }

    /// Removes the display.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

impl SearchObserver for EngineProgress {
    fn wants_details(&self) -> bool {
        false
    }

    fn wants_solutions(&self) -> bool {
        false
    }

    #[inline]
    fn on_try(&mut self, _node: &Node) {
        self.nodes += 1;
        if self.nodes & (UPDATE_EVERY - 1) == 0 {
            self.bar.set_message(format!(
                "{} nodes, {} solutions so far (Ctrl-C stops and reports)",
                self.nodes, self.solutions
            ));
        }
    }

    #[inline]
    fn on_accept(&mut self, node: &Node) {
        // Every row is decided by a node, so an accepted node at depth n
        // completes a solution.
        if node.depth == self.n {
            self.solutions += 1;
        }
    }
}
