//! The time limit and Ctrl-C for the work an example does before its search
//! (clique bounds, DSATUR, greedy starts): the same limits as the search, so
//! that `--time-limit 1s` and Ctrl-C are honoured from the start.
//!
//! ```
//! use std::time::Duration;
//! use csp_core::{CancelFlag, Config, SearchStatus, StopReason};
//! use csp_examples::budget::Budget;
//! let flag = CancelFlag::new();
//! let config = Config::textbook().with_time_limit(Duration::from_secs(60)).with_cancel_flag(flag.clone());
//! let budget = Budget::new(&config);
//! assert_eq!(budget.stopped(), None);
//! flag.cancel();
//! assert_eq!(budget.stopped(), Some(StopReason::Cancelled));
//! ```

use std::time::{Duration, Instant};

use csp_core::{CancelFlag, Config, StopReason};

/// A clock started with a configuration's time limit and cancel flag.
#[derive(Clone, Debug)]
pub struct Budget {
    started: Instant,
    time: Option<Duration>,
    cancel: Option<CancelFlag>,
    spent: Option<StopReason>,
}

impl Budget {
    /// Starts the clock for `config`'s time limit and cancel flag.
    pub fn new(config: &Config) -> Self {
        Budget {
            started: Instant::now(),
            time: config.limits.time,
            cancel: config.limits.cancel.clone(),
            spent: None,
        }
    }

    /// A budget that never runs out.
    pub fn unlimited() -> Self {
        Budget {
            started: Instant::now(),
            time: None,
            cancel: None,
            spent: None,
        }
    }

    /// A budget already spent, for `reason`: work given it does only its
    /// quick fallback.
    pub fn spent(reason: StopReason) -> Self {
        Budget {
            spent: Some(reason),
            ..Budget::unlimited()
        }
    }

    /// Why the work must stop now, if it must: Ctrl-C (the cancel flag) or the
    /// time limit. Cheap enough for every step of a loop (a clock read).
    pub fn stopped(&self) -> Option<StopReason> {
        if self.spent.is_some() {
            return self.spent;
        }
        if self.cancel.as_ref().is_some_and(CancelFlag::is_cancelled) {
            return Some(StopReason::Cancelled);
        }
        match self.time {
            Some(t) if self.started.elapsed() >= t => Some(StopReason::TimeLimit),
            _ => None,
        }
    }

    /// The time spent since the clock started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// `config` with its time limit reduced by the time spent so far, for the
    /// search that follows the pre-search work.
    pub fn remaining(&self, mut config: Config) -> Config {
        config.limits.time = config.limits.time.map(|t| t.saturating_sub(self.elapsed()));
        config
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_time_limit_is_spent_at_once() {
        let b = Budget::new(&Config::textbook().with_time_limit(Duration::ZERO));
        assert_eq!(b.stopped(), Some(StopReason::TimeLimit));
        assert_eq!(Budget::unlimited().stopped(), None);
    }

    #[test]
    fn the_search_gets_what_is_left() {
        let b = Budget::new(&Config::textbook().with_time_limit(Duration::from_secs(5)));
        let left = b.remaining(Config::textbook().with_time_limit(Duration::from_secs(5)));
        assert!(
            left.limits
                .time
                .is_some_and(|t| t <= Duration::from_secs(5))
        );
    }
}
