//! The translation's options (`TranslateOptions`) and what stops it
//! (`Stopper`: a deadline or a cancel flag).

use std::time::Instant;

use csp_core::{CancelFlag, StopReason};

/// Choices that change the translation, and its limits.
#[derive(Clone, Debug, Default)]
pub struct TranslateOptions {
    /// Ignore the solve item's search annotations (MiniZinc's `-f`, free search).
    pub free_search: bool,
    /// The memory the model may take, about (`--memory-limit`; `None`:
    /// [`DEFAULT_MEMORY_LIMIT`](csp_core::DEFAULT_MEMORY_LIMIT)): an array of
    /// variables, or a table, that alone would need more is refused before
    /// it is made.
    pub memory_limit: Option<u64>,
    /// Stop translating at this instant (`-t`): the translation then fails
    /// with [`TranslateError::Stopped`](crate::TranslateError::Stopped). The
    /// clock is read every few items (and every few variables of a large
    /// array).
    pub deadline: Option<Instant>,
    /// Stop translating when this flag is set (Ctrl-C), as for `deadline`.
    pub cancel: Option<CancelFlag>,
    /// How `all_different_int` filters (`--all-different`).
    pub all_different: AllDifferentFiltering,
    /// Post the `int_eq_reif(x, c, b)` and `int_ne_reif(x, c, b)` items
    /// that compare one variable `x` with two or more constants as one
    /// [`EqualityChannel`](csp_core::EqualityChannel) per variable, where
    /// the first of them is, instead of one comparison per item: the same
    /// filtering at the propagators level, in one propagator. [`run`](crate::run)
    /// asks for it at that level only (at the textbook levels the separate
    /// comparisons are what forward checking and the promising check
    /// revise one by one), and only when the search learns nothing from
    /// failures (not afc/size, the default search's order, nor dom/wdeg: a
    /// channel is charged with the failures of all its literals);
    /// [`Translation::posted_by`](crate::Translation::posted_by) then names
    /// each channel by the first item of its variable.
    pub channel_equalities: bool,
}

/// How fzn-csp's `all_different_int` filters at the propagators level
/// (`--all-different domain|value`).
///
/// ```
/// use csp_flatzinc::AllDifferentFiltering;
/// assert_eq!("value".parse::<AllDifferentFiltering>(), Ok(AllDifferentFiltering::Value));
/// assert_eq!(AllDifferentFiltering::default(), AllDifferentFiltering::Domain);
/// assert!("bounds".parse::<AllDifferentFiltering>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AllDifferentFiltering {
    /// Value elimination, then Régin's matching filter (domain consistency):
    /// csp-core's [`AllDifferent`](csp_core::constraints::AllDifferent).
    #[default]
    Domain,
    /// Value elimination alone ([`AllDifferent::values_only`](csp_core::constraints::AllDifferent::values_only)),
    /// as Gecode's default (`IPL_VAL`): tells the kernel's speed apart from
    /// the filtering's strength when comparing with Gecode. `inverse` then
    /// channels values without its matching filters
    /// ([`Inverse::values_only`](csp_core::constraints::Inverse::values_only)),
    /// as Gecode's default `channel`.
    Value,
}

impl std::str::FromStr for AllDifferentFiltering {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "domain" => Ok(AllDifferentFiltering::Domain),
            "value" => Ok(AllDifferentFiltering::Value),
            _ => Err(format!(
                "unknown all-different filtering '{s}' (domain, value)"
            )),
        }
    }
}

impl TranslateOptions {
    /// The memory limit in force.
    pub(crate) fn memory_limit(&self) -> u64 {
        self.memory_limit.unwrap_or(csp_core::DEFAULT_MEMORY_LIMIT)
    }
}

/// Steps (declarations, constraint items, variables of an array) between
/// two readings of the clock during a translation.
const POLL_EVERY: u32 = 16;

/// Stops a translation at its deadline or when its cancel flag is set.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stopper {
    deadline: Option<Instant>,
    cancel: Option<CancelFlag>,
    steps: u32,
}

impl Stopper {
    pub(crate) fn new(options: &TranslateOptions) -> Self {
        Stopper {
            deadline: options.deadline,
            cancel: options.cancel.clone(),
            steps: 0,
        }
    }

    /// Why the translation must stop, if it must; the clock is read every
    /// [`POLL_EVERY`] calls.
    #[inline]
    pub(crate) fn poll(&mut self) -> Option<StopReason> {
        if self.deadline.is_none() && self.cancel.is_none() {
            return None;
        }
        self.steps += 1;
        if self.steps < POLL_EVERY {
            return None;
        }
        self.steps = 0;
        if self.cancel.as_ref().is_some_and(CancelFlag::is_cancelled) {
            Some(StopReason::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(StopReason::TimeLimit)
        } else {
            None
        }
    }
}
