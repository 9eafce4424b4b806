//! Shared command-line pieces for csp front ends: the strategy options every
//! solving command accepts, limits, MiniZinc-style statistics, Ctrl-C,
//! standard output that fails cleanly ([`output`]: a closed pipe ends the
//! program quietly, a full disk in one line) and input read with a size cap
//! ([`input`]: 64 MB, quoted at most 80 characters in messages).
//!
//! ```
//! use clap::Parser;
//! use csp_cli::StrategyArgs;
//!
//! #[derive(Parser)]
//! struct Cli {
//!     #[command(flatten)]
//!     strategy: StrategyArgs,
//! }
//! let cli = Cli::parse_from(["prog", "--pruning", "fc", "--var", "first-fail", "--time-limit", "2s"]);
//! let config = cli.strategy.config();
//! assert_eq!(config.pruning, csp_core::Pruning::ForwardChecking);
//! assert_eq!(config.limits.time, Some(std::time::Duration::from_secs(2)));
//! ```
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod input;
pub mod output;
pub mod progress;

use std::io::Write;
use std::time::Duration;

use clap::Args;
use csp_core::{
    Backjumping, CancelFlag, Config, PruningToken, SearchStats, SearchStatus, ValOrder, VarOrder,
};

/// The strategy and limit options of every solving command.
#[derive(Args, Clone, Debug, Default)]
pub struct StrategyArgs {
    /// Pruning level: none, check, fc, mac, propagators; with a look-back
    /// suffix check-gbj, check-cbj, fc-cbj, mac-cbj (the same as --backjump).
    #[arg(long, value_name = "LEVEL")]
    pub pruning: Option<PruningToken>,
    /// Look-back after a dead end: none (chronological), gbj (Gaschnig's
    /// backjumping, with check), cbj (conflict-directed, with check, fc, mac).
    #[arg(long, value_name = "KIND")]
    pub backjump: Option<Backjumping>,
    /// Record nogoods at each restart and propagate them in the later runs
    /// (needs restarts, and pruning mac or propagators; Config::with_nogoods).
    #[arg(long)]
    pub nogoods: bool,
    /// Variable order: input, first-fail, mrv-degree, dom-wdeg, afc-size, random[:SEED].
    #[arg(long = "var", value_name = "ORDER")]
    pub var_order: Option<VarOrder>,
    /// Value order: asc, desc, middle, lcv, split, reverse-split, random[:SEED].
    #[arg(long = "val", value_name = "ORDER")]
    pub val_order: Option<ValOrder>,
    /// Stop after this many nodes (values tried).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Stop after this much time: `500ms`, `2s`, `1.5s`, `3m` (a bare number is seconds).
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// Print search statistics to standard error as `%%%mzn-stat: name=value` lines.
    #[arg(long)]
    pub stats: bool,
    /// The memory the search's domains may take: `512M`, `2G` (default 4G).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory_limit: Option<u64>,
}

impl StrategyArgs {
    /// Whether the user chose any part of the strategy (pruning or heuristics).
    pub fn strategy_given(&self) -> bool {
        self.pruning.is_some()
            || self.backjump.is_some()
            || self.nogoods
            || self.var_order.is_some()
            || self.val_order.is_some()
    }

    /// The look-back chosen by `--backjump` or the `--pruning` suffix
    /// (`None` if neither); an error if they disagree.
    ///
    /// ```
    /// use clap::Parser;
    /// #[derive(Parser)]
    /// struct Cli { #[command(flatten)] s: csp_cli::StrategyArgs }
    /// let same = Cli::parse_from(["p", "--pruning", "check-cbj"]).s;
    /// let flag = Cli::parse_from(["p", "--pruning", "check", "--backjump", "cbj"]).s;
    /// assert_eq!(same.config().backjumping, flag.config().backjumping);
    /// let both = Cli::parse_from(["p", "--pruning", "check-cbj", "--backjump", "gbj"]).s;
    /// assert!(both.backjumping().is_err());
    /// ```
    pub fn backjumping(&self) -> Result<Option<Backjumping>, String> {
        let suffix = self.pruning.and_then(|t| t.backjumping);
        match (suffix, self.backjump) {
            (Some(a), Some(b)) if a != b => Err(format!(
                "--pruning {} says backjumping {a} but --backjump says {b}",
                self.pruning.map(|t| t.to_string()).unwrap_or_default()
            )),
            (a, b) => Ok(b.or(a)),
        }
    }

    /// The search configuration, with `defaults` for the options not given.
    /// A `--pruning` suffix that disagrees with `--backjump` ends the
    /// program with one line on standard error (status 2); check
    /// [`backjumping`](StrategyArgs::backjumping) first to handle it yourself.
    pub fn config_with(&self, defaults: Config) -> Config {
        let mut c = defaults;
        if let Some(p) = self.pruning {
            c.pruning = p.pruning;
        }
        // A program reports the disagreement in one line and exits.
        match self.backjumping() {
            Ok(Some(b)) => c.backjumping = b,
            Ok(None) => {}
            Err(e) => exit_usage(e),
        }
        if let Some(v) = self.var_order {
            c.var_order = v;
        }
        if let Some(v) = self.val_order {
            c.val_order = v;
        }
        if let Some(n) = self.node_limit {
            c.limits.nodes = Some(n);
        }
        if let Some(t) = self.time_limit {
            c.limits.time = Some(t);
        }
        if let Some(m) = self.memory_limit {
            c.memory_limit = Some(m);
        }
        if self.nogoods {
            c.nogoods = true;
        }
        c
    }

    /// The search configuration (defaults: `check`, `input`, `asc`).
    pub fn config(&self) -> Config {
        self.config_with(Config::textbook())
    }
}

/// `config` with its time limit reduced by the time since `begun`, so that a
/// program's `--time-limit` covers the work before its search (reading the
/// input, building the model), not only the search: csp-core counts the time
/// limit from the start of its own work.
///
/// ```
/// use std::time::{Duration, Instant};
/// use csp_core::Config;
/// let begun = Instant::now();
/// let config = csp_cli::time_left(Config::textbook().with_time_limit(Duration::from_secs(2)), begun);
/// assert!(config.limits.time.is_some_and(|t| t <= Duration::from_secs(2)));
/// assert_eq!(csp_cli::time_left(Config::textbook(), begun).limits.time, None);
/// ```
pub fn time_left(mut config: Config, begun: std::time::Instant) -> Config {
    config.limits.time = config
        .limits
        .time
        .map(|t| t.saturating_sub(begun.elapsed()));
    config
}

/// Parses the command line of `program`: help and version print as clap
/// prints them (`Err(ExitCode::SUCCESS)`); an error is one line,
/// `PROGRAM: message`, on standard error and `Err` with `status`.
///
/// ```
/// use clap::Parser;
/// #[derive(Parser)]
/// struct Cli { n: u32 }
/// let ok: Result<Cli, _> = csp_cli::parse_args_from("prog", 2, ["prog", "7"]);
/// assert_eq!(ok.map(|c| c.n).ok(), Some(7));
/// let bad: Result<Cli, _> = csp_cli::parse_args_from("prog", 2, ["prog", "x"]);
/// assert_eq!(bad.err(), Some(std::process::ExitCode::from(2)));
/// ```
pub fn parse_args_from<T: clap::Parser, I, S>(
    program: &str,
    status: u8,
    args: I,
) -> Result<T, std::process::ExitCode>
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    T::try_parse_from(args).map_err(|e| match clap_error_line(&e) {
        None => {
            let _ = e.print();
            std::process::ExitCode::SUCCESS
        }
        Some(line) => {
            crate::errln!("{program}: {line}");
            std::process::ExitCode::from(status)
        }
    })
}

/// [`parse_args_from`] on the process's own arguments.
pub fn parse_args<T: clap::Parser>(program: &str, status: u8) -> Result<T, std::process::ExitCode> {
    parse_args_from(program, status, std::env::args_os())
}

/// Parses a memory size: `512M`, `2G`, `1.5G`, `64K`, or a bare number of
/// bytes (powers of 1024: `1K` is 1,024 bytes). At least 1 MiB: a smaller
/// budget leaves no room to work.
///
/// ```
/// assert_eq!(csp_cli::parse_size("2G"), Ok(2 << 30));
/// assert_eq!(csp_cli::parse_size("1.5M"), Ok(3 << 19));
/// assert_eq!(csp_cli::parse_size("1048576"), Ok(1 << 20));
/// assert!(csp_cli::parse_size("12").is_err());
/// assert!(csp_cli::parse_size("3X").is_err());
/// assert!(csp_cli::parse_size("99999999999G").is_err());
/// ```
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (number, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => (&t[..i], t[i..].to_ascii_uppercase()),
        None => (t, String::new()),
    };
    let scale: u64 = match unit.as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        "T" | "TB" | "TIB" => 1 << 40,
        _ => return Err(format!("expected a size such as 512M or 2G, not `{s}`")),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("expected a size such as 512M or 2G, not `{s}`"))?;
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes > u64::MAX as f64 / 2.0 {
        return Err(format!("`{s}` is too large"));
    }
    if bytes < f64::from(1u32 << 20) {
        return Err(format!("`{s}` is less than 1M: too small to work in"));
    }
    Ok(bytes as u64)
}

/// Parses `500ms`, `2s`, `1.5s`, `3m`, `1h`, or a bare number of seconds.
///
/// ```
/// use std::time::Duration;
/// assert_eq!(csp_cli::parse_duration("250ms"), Ok(Duration::from_millis(250)));
/// assert_eq!(csp_cli::parse_duration("1.5"), Ok(Duration::from_millis(1500)));
/// assert!(csp_cli::parse_duration("-1s").is_err());
/// assert!(csp_cli::parse_duration("soon").is_err());
/// ```
pub fn parse_duration(s: &str) -> Result<Duration, DurationError> {
    let s = s.trim();
    let shown = input::quote(s);
    // The unit is the trailing run of letters, so that `1e9s` is read as the
    // number `1e9` with unit `s` (and refused as a number), not as unit `e9s`.
    let split = s
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphabetic())
        .last()
        .map_or(s.len(), |(i, _)| i);
    let (number, unit) = s.split_at(split);
    let unit = if unit.is_empty() { "s" } else { unit };
    let plain = !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && number.bytes().filter(|&b| b == b'.').count() <= 1
        && number.bytes().any(|b| b.is_ascii_digit());
    if !plain {
        return Err(DurationError::NotADuration(shown));
    }
    let scale = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => {
            return Err(DurationError::UnknownUnit {
                unit: input::quote(unit),
                text: shown,
            });
        }
    };
    let x: f64 = number
        .parse()
        .map_err(|_| DurationError::NotADuration(shown.clone()))?;
    Duration::try_from_secs_f64(x * scale).map_err(|_| DurationError::TooLong(shown))
}

/// Why [`parse_duration`] refused a text (quoted, at most ~80 characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// Not a plain number with an optional unit.
    #[error(
        "'{0}' is not a duration: write a plain number and a unit, such as 500ms, 2s, 1.5s or 3m"
    )]
    NotADuration(String),
    /// A unit other than ms, s, m (min) or h.
    #[error("unknown time unit '{unit}' in '{text}' (use ms, s, m or h)")]
    UnknownUnit {
        /// The unit written.
        unit: String,
        /// The whole text.
        text: String,
    },
    /// More than a `Duration` holds.
    #[error("'{0}' is too long a duration")]
    TooLong(String),
}

/// The most threads `--threads` accepts.
pub const MAX_THREADS: usize = 256;

/// Parses `--threads T`: a whole number from 1 to [`MAX_THREADS`], refused in
/// one line before any thread is created.
///
/// ```
/// assert_eq!(csp_cli::parse_threads("4"), Ok(4));
/// assert_eq!(
///     csp_cli::parse_threads("100000"),
///     Err("100000 threads is too many (at most 256)".to_string())
/// );
/// assert!(csp_cli::parse_threads("0").is_err());
/// ```
pub fn parse_threads(s: &str) -> Result<usize, String> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "'{}' is not a number of threads (a whole number from 1 to {MAX_THREADS})",
            input::quote(t)
        ));
    }
    match t.parse::<usize>() {
        Ok(0) => Err(format!(
            "0 threads cannot count (a whole number from 1 to {MAX_THREADS})"
        )),
        Ok(n) if n <= MAX_THREADS => Ok(n),
        _ => Err(format!(
            "{} threads is too many (at most {MAX_THREADS})",
            input::quote(t)
        )),
    }
}

/// Writes the statistics as MiniZinc `%%%mzn-stat:` lines, then any `extra`
/// lines, then `%%%mzn-stat-end`.
pub fn write_stats(
    out: &mut impl Write,
    stats: &SearchStats,
    status: SearchStatus,
    extra: &[(&str, String)],
) -> std::io::Result<()> {
    for (name, value) in stats.mzn_stats() {
        writeln!(out, "%%%mzn-stat: {name}={value}")?;
    }
    writeln!(out, "%%%mzn-stat: status=\"{status}\"")?;
    for (name, value) in extra {
        writeln!(out, "%%%mzn-stat: {name}={value}")?;
    }
    writeln!(out, "%%%mzn-stat-end")
}

/// Prints the statistics to standard error (see [`write_stats`]).
pub fn print_stats(stats: &SearchStats, status: SearchStatus, extra: &[(&str, String)]) {
    let _ = write_stats(&mut std::io::stderr().lock(), stats, status, extra);
}

/// Prints `error: message` on standard error and exits with status 2 (bad input).
/// A quoted piece of input longer than 80 characters is shortened
/// ([`input::shorten_quoted`]), so the line stays readable.
pub fn exit_usage(message: impl std::fmt::Display) -> ! {
    crate::errln!("error: {}", input::shorten_quoted(&message.to_string()));
    std::process::exit(2)
}

/// A command-line error from clap as one line, without clap's `error: ` prefix:
/// the first paragraph of its report joined with spaces (so a list of possible
/// values stays), or `None` when clap only wants to print help or the version.
///
/// clap's own report spans several lines (the error, a tip, a usage line); the
/// programs here promise one line on standard error.
///
/// ```
/// use clap::Parser;
/// #[derive(Parser, Debug)]
/// struct Cli {
///     #[arg(long, value_parser = ["fast", "slow"])]
///     speed: String,
/// }
/// let err = Cli::try_parse_from(["prog", "--speed", "x"]).unwrap_err();
/// assert_eq!(
///     csp_cli::clap_error_line(&err).unwrap(),
///     "invalid value 'x' for '--speed <SPEED>' [possible values: fast, slow]"
/// );
/// let help = Cli::try_parse_from(["prog", "--help"]).unwrap_err();
/// assert_eq!(csp_cli::clap_error_line(&help), None);
/// ```
pub fn clap_error_line(err: &clap::Error) -> Option<String> {
    use clap::error::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        return None;
    }
    let text = err.render().to_string();
    let first: Vec<&str> = text
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .collect();
    let joined = first.join(" ");
    let joined = joined.strip_prefix("error: ").unwrap_or(&joined).trim();
    Some(if joined.is_empty() {
        "invalid arguments".to_string()
    } else {
        input::shorten_quoted(joined)
    })
}

/// A cancel flag that Ctrl-C sets, so that a search stops and reports what it
/// found. A second Ctrl-C exits at once with status 130. SIGTERM and SIGHUP
/// (Unix) set it too, so that a job stopped by a scheduler reports as well.
pub fn cancel_on_ctrl_c() -> CancelFlag {
    let flag = CancelFlag::new();
    let handle = flag.clone();
    let _ = ctrlc::set_handler(move || {
        if handle.is_cancelled() {
            std::process::exit(130);
        }
        handle.cancel();
    });
    flag
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_block_ends_with_the_end_marker() {
        let mut out = Vec::new();
        let stats = SearchStats {
            tried: 26,
            ..Default::default()
        };
        write_stats(
            &mut out,
            &stats,
            SearchStatus::Complete,
            &[("method", "\"engine\"".into())],
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("%%%mzn-stat: nodes=26\n"));
        assert!(text.contains("%%%mzn-stat: method=\"engine\"\n"));
        assert!(text.ends_with("%%%mzn-stat-end\n"));
    }

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("3m"), Ok(Duration::from_secs(180)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        assert!(parse_duration("2x").is_err());
        assert!(parse_duration("inf").is_err());
        let message = |s: &str| parse_duration(s).unwrap_err().to_string();
        assert_eq!(
            message("1e9s"),
            "'1e9s' is not a duration: write a plain number and a unit, such as 500ms, 2s, 1.5s or 3m"
        );
        assert_eq!(
            message("2x"),
            "unknown time unit 'x' in '2x' (use ms, s, m or h)"
        );
        assert_eq!(
            message("99999999999999999999999h"),
            "'99999999999999999999999h' is too long a duration"
        );
        assert_eq!(parse_duration("1.5m"), Ok(Duration::from_secs(90)));
    }
}
