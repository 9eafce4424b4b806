//! What the example programs share: one-line argument errors, input files, strategy names.

use clap::Parser;
use csp_core::{CancelFlag, Config, Strategy};

/// The one-line message for a command-line error, or `None` when clap only wants
/// to print help or the version (not an error): [`csp_cli::clap_error_line`].
///
/// ```
/// use clap::Parser;
/// #[derive(Parser, Debug)]
/// struct Cli {
///     #[arg(long)]
///     order: u32,
/// }
/// let err = Cli::try_parse_from(["prog", "--order", "x"]).unwrap_err();
/// let line = csp_examples::cli::usage_error_line(&err).unwrap();
/// assert!(line.starts_with("invalid value 'x' for '--order <ORDER>'"), "{line}");
/// let help = Cli::try_parse_from(["prog", "--help"]).unwrap_err();
/// assert_eq!(csp_examples::cli::usage_error_line(&help), None);
/// ```
pub fn usage_error_line(err: &clap::Error) -> Option<String> {
    csp_cli::clap_error_line(err)
}

/// Parses the command line into `T`; on a bad argument prints one line on standard
/// error and exits with status 2 (help and version print as usual and exit 0).
pub fn parse_args<T: Parser>() -> T {
    match T::try_parse() {
        Ok(args) => args,
        Err(err) => match usage_error_line(&err) {
            Some(line) => csp_cli::exit_usage(line),
            None => err.exit(),
        },
    }
}

/// Reads the named file, or standard input for `None` or `-`; returns the text and
/// a name for messages (`<stdin>` or the path). At most 64 MB
/// ([`csp_cli::input::MAX_INPUT_BYTES`]); the error is one line.
pub fn read_input(path: Option<&str>) -> Result<(String, String), String> {
    match path {
        None | Some("-") => {
            let name = "<stdin>";
            csp_cli::input::read_stdin(name).map(|t| (t, name.to_string()))
        }
        Some(p) => {
            let name = csp_cli::input::quote(p);
            csp_cli::input::read_file(std::path::Path::new(p), &name).map(|t| (t, name))
        }
    }
}

/// The strategy of a configuration written the way the command line takes it,
/// for example `fc+first-fail`.
///
/// ```
/// use csp_core::{Config, Pruning, VarOrder};
/// let c = Config::textbook().with_pruning(Pruning::ForwardChecking).with_var_order(VarOrder::FirstFail);
/// assert_eq!(csp_examples::cli::strategy_name(&c), "fc+first-fail");
/// ```
pub fn strategy_name(config: &Config) -> String {
    Strategy::new(config.pruning, config.var_order, config.val_order)
        .with_backjumping(config.backjumping)
        .to_string()
}

/// The configuration an example searches with: the user's options over the
/// example's `defaults`, stopped by Ctrl-C, with a heartbeat on a terminal
/// (and a hint after 10 s without a solution under a textbook strategy; see
/// [`csp_cli::progress`]). Call it once per program.
pub fn config_from(args: &csp_cli::StrategyArgs, defaults: Config) -> Config {
    let cancel: CancelFlag = csp_cli::cancel_on_ctrl_c();
    let config = args.config_with(defaults).with_cancel_flag(cancel);
    let hint = csp_cli::progress::hint_for(&config);
    csp_cli::progress::heartbeat(config, hint)
}

/// Prints the statistics block on standard error if `--stats` was given, with
/// the strategy and any `extra` statistics.
pub fn report_stats(
    args: &csp_cli::StrategyArgs,
    config: &Config,
    stats: &csp_core::SearchStats,
    status: csp_core::SearchStatus,
    extra: &[(&str, String)],
) {
    if args.stats {
        let mut all = vec![("strategy", format!("\"{}\"", strategy_name(config)))];
        all.extend(extra.iter().cloned());
        csp_cli::print_stats(stats, status, &all);
    }
}

/// Why a search stopped, in the examples' words: `node limit`, `time limit`,
/// `Ctrl-C`.
///
/// ```
/// use csp_core::StopReason;
/// assert_eq!(csp_examples::cli::reason_words(StopReason::Cancelled), "Ctrl-C");
/// ```
pub fn reason_words(reason: csp_core::StopReason) -> String {
    match reason {
        csp_core::StopReason::Cancelled => "Ctrl-C".to_string(),
        r => r.to_string(),
    }
}

/// What a search that found nothing established: `no magic square exists` when
/// it explored everything, `unknown: no magic square found before the search
/// stopped (time limit)` when a limit or Ctrl-C cut it short (which proves
/// nothing).
///
/// ```
/// use csp_core::{SearchStatus, StopReason};
/// use csp_examples::cli::none_found;
/// assert_eq!(none_found("colouring", SearchStatus::Complete), "no colouring exists");
/// assert_eq!(
///     none_found("magic square", SearchStatus::Stopped(StopReason::TimeLimit)),
///     "unknown: no magic square found before the search stopped (time limit)"
/// );
/// ```
pub fn none_found(noun: &str, status: csp_core::SearchStatus) -> String {
    match status {
        csp_core::SearchStatus::Stopped(reason) => format!(
            "unknown: no {noun} found before the search stopped ({})",
            reason_words(reason)
        ),
        _ => format!("no {noun} exists"),
    }
}

/// "18 solutions", or "at least 18 solutions (stopped: node limit)" when a limit
/// cut the count short.
///
/// ```
/// use csp_core::{SearchStatus, StopReason};
/// use csp_examples::cli::count_phrase;
/// assert_eq!(count_phrase(1, SearchStatus::Complete, "solution"), "1 solution");
/// assert_eq!(
///     count_phrase(7, SearchStatus::Stopped(StopReason::TimeLimit), "square"),
///     "at least 7 squares (stopped: time limit)"
/// );
/// ```
pub fn count_phrase(count: u64, status: csp_core::SearchStatus, noun: &str) -> String {
    let plural = if count == 1 { "" } else { "s" };
    match status {
        csp_core::SearchStatus::Stopped(reason) => {
            format!(
                "at least {count} {noun}{plural} (stopped: {})",
                reason_words(reason)
            )
        }
        _ => format!("{count} {noun}{plural}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        strategy: csp_cli::StrategyArgs,
    }

    #[test]
    fn unknown_pruning_level_is_reported_in_one_line() {
        let err = Cli::try_parse_from(["prog", "--pruning", "fast"]).unwrap_err();
        let line = usage_error_line(&err).unwrap();
        assert!(line.contains("'fast'"), "{line}");
        assert!(line.contains("none, check, fc, mac, propagators"), "{line}");
        assert!(!line.contains('\n'));
    }

    #[test]
    fn unknown_option_is_reported_in_one_line() {
        let err = Cli::try_parse_from(["prog", "--colour"]).unwrap_err();
        let line = usage_error_line(&err).unwrap();
        assert!(line.contains("--colour"), "{line}");
    }

    #[test]
    fn missing_file_is_an_error_naming_it() {
        let e = read_input(Some("/nonexistent/puzzle.txt")).unwrap_err();
        assert!(e.starts_with("cannot read /nonexistent/puzzle.txt:"), "{e}");
    }
}
