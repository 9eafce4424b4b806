//! A heartbeat on a terminal: while a search runs for more than a second,
//! standard error shows one line with the time, nodes, failures, depth,
//! solutions and best objective, redrawn a few times a second (indicatif);
//! in a pipe or a file nothing is drawn. After 10 s without a solution under
//! a textbook strategy, one hint line says what to try instead.
//!
//! The line is cleared before the program writes anything through
//! [`outln!`](crate::outln) or [`errln!`](crate::errln), and by [`clear`].
//!
//! ```
//! use csp_core::Config;
//! // In a test, standard error is not a terminal: the config is unchanged.
//! let config = csp_cli::progress::heartbeat(Config::textbook(), None);
//! assert!(config.progress.is_none() || std::io::IsTerminal::is_terminal(&std::io::stderr()));
//! ```

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use csp_core::{Config, Progress, ProgressHook, Pruning, VarOrder};
use indicatif::{ProgressBar, ProgressStyle};

/// The line currently drawn, if any.
static BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// How often the line is redrawn, at most.
pub const EVERY: Duration = Duration::from_millis(250);

/// Nothing is drawn before the search has run this long.
pub const QUIET_FOR: Duration = Duration::from_secs(1);

/// After this long without a solution, the hint is printed (once).
pub const HINT_AFTER: Duration = Duration::from_secs(10);

/// The hint for a textbook strategy that has not found a solution in
/// [`HINT_AFTER`]: `Some` for every strategy below the propagators level or
/// in input order, `None` for the strongest ones.
///
/// ```
/// use csp_core::Config;
/// assert!(csp_cli::progress::hint_for(&Config::textbook()).is_some());
/// assert!(csp_cli::progress::hint_for(&Config::default()).is_none());
/// ```
pub fn hint_for(config: &Config) -> Option<String> {
    let textbook = config.pruning < Pruning::Propagators || config.var_order == VarOrder::Input;
    textbook.then(|| {
        "hint: no solution after 10 s; try --pruning propagators --var dom-wdeg \
         (the strongest general search)"
            .to_string()
    })
}

/// `config` with a heartbeat on standard error if it is a terminal (else
/// `config` unchanged). `hint`, if any, is printed once after
/// [`HINT_AFTER`] if no solution has been found by then; pass
/// [`hint_for`]`(&config)` or a program's own words.
pub fn heartbeat(mut config: Config, hint: Option<String>) -> Config {
    if let Some(h) = hook(hint) {
        config.progress = Some(h);
    }
    config
}

/// The heartbeat as a [`ProgressHook`] for a search configured elsewhere
/// (`None` unless standard error is a terminal).
pub fn hook(hint: Option<String>) -> Option<ProgressHook> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let hinted = AtomicBool::new(false);
    Some(ProgressHook::new(EVERY, move |p| {
        if p.elapsed < QUIET_FOR {
            return;
        }
        let Ok(mut bar) = BAR.lock() else {
            return;
        };
        let bar = bar.get_or_insert_with(|| {
            let b = ProgressBar::new_spinner();
            if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}") {
                b.set_style(style);
            }
            b
        });
        if let Some(h) = &hint
            && p.solutions == 0
            && p.elapsed >= HINT_AFTER
            && !hinted.swap(true, Ordering::Relaxed)
        {
            bar.println(h);
        }
        bar.set_message(line(p));
    }))
}

/// The heartbeat's line: `12.3 s  1,234,567 nodes  ...`.
///
/// ```
/// use std::time::Duration;
/// use csp_core::Progress;
/// let p = Progress { nodes: 1_234_567, failures: 600_000, solutions: 2, depth: 31,
///                    best: Some(17), elapsed: Duration::from_millis(12_345) };
/// assert_eq!(csp_cli::progress::line(&p),
///            "searching 12.3 s: 1,234,567 nodes, 600,000 failures, depth 31, 2 solutions, best 17");
/// ```
pub fn line(p: &Progress) -> String {
    let mut s = format!(
        "searching {:.1} s: {} nodes, {} failures, depth {}, {} solution{}",
        p.elapsed.as_secs_f64(),
        grouped(p.nodes),
        grouped(p.failures),
        p.depth,
        grouped(p.solutions),
        if p.solutions == 1 { "" } else { "s" }
    );
    if let Some(b) = p.best {
        s.push_str(&format!(", best {b}"));
    }
    s
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Clears the heartbeat's line, if one is drawn (the next heartbeat draws
/// it again).
pub fn clear() {
    if let Ok(mut bar) = BAR.lock()
        && let Some(b) = bar.take()
    {
        b.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn clear_without_a_line_is_harmless() {
        clear();
        clear();
    }
}
