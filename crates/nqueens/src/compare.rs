//! Strategy comparisons on N-Queens: the model variants, the default ladder of strategies, and the dedicated counter as one more entry.
//!
//! This is the N-Queens side of [`csp_compare`]: [`build`] makes the
//! model for a size and a [`ModelVariant`], [`parse_entries`] reads a list of
//! strategies such as `check,fc,mac+dom-wdeg,propagators@global,dedicated`,
//! [`default_ladder`] is the list `nqueens compare` runs by default, and
//! [`compare()`] runs and verifies them all.
//!
//! # Writing a list of strategies
//! Entries are separated by commas. Each is `[NAME=]STRATEGY[@VARIANT]`:
//! - `STRATEGY` is a [`Strategy`] spelling, `pruning[+var[+val]]` by
//!   position: a pruning level (`none`, `check`, `fc`, `mac`, `propagators`, or with a look-back suffix `check-gbj`, `check-cbj`, `fc-cbj`, `mac-cbj`),
//!   optionally the variable order (`input`, `first-fail`, `mrv-degree`,
//!   `dom-wdeg`, `random:SEED`), then optionally the value order (`asc`,
//!   `lcv`, `middle`, `random:SEED`), each spelled as `--var` and `--val`
//!   spell it;
//! - `VARIANT` is the model ([`ModelVariant`]): `pairwise` (the default),
//!   `global` or `columns`;
//! - `NAME` is what the tables show (by default the entry as written);
//! - the word `dedicated` is the dedicated method instead of the engine: the
//!   bitboard counter ([`bitboard::count`]) in count
//!   mode, the closed-form placement ([`construct`](crate::construct::construct))
//!   in first-solution mode; the row is labelled as written (`dedicated`,
//!   or `bitboard` / `construct`, which name the same method).
//!
//! ```
//! use csp_compare::{CompareOptions, Mode};
//! use nqueens::compare::{compare, parse_entries};
//!
//! let entries = parse_entries("check, fc+first-fail, leaves=check@columns, dedicated")?;
//! let table = compare(&entries, &[6, 8], &CompareOptions::default())?;
//! let nodes = |name: &str, n: usize| {
//!     table.rows.iter().find(|r| r.strategy == name && r.size == n).and_then(|r| r.nodes)
//! };
//! assert_eq!(nodes("check", 8), Some(15_720)); // the textbook figure
//! assert!(nodes("fc+first-fail", 8) < nodes("check", 8));
//! assert!(nodes("leaves", 8) > nodes("check", 8));
//! assert_eq!(nodes("dedicated", 8), None); // it does not count nodes
//! assert!(table.rows.iter().all(|r| r.solutions == if r.size == 6 { 4 } else { 92 }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use csp_compare::{
    self, CompareError, CompareOptions, CustomOutcome, Entry, MethodError, Mode, Row, Table,
};
use csp_core::{CspError, Model, Strategy, UnknownName, Value};

use crate::{Error, Variant, bitboard, construct};

mod leaves;
#[cfg(test)]
mod tests;

pub use leaves::{DiagonalsAtLeaves, columns_then_leaves};

/// The node limit `nqueens compare` gives every run unless told otherwise:
/// large enough for every default strategy except generate-and-test and the
/// columns-only model to count n = 12, small enough that those two stop
/// within seconds (their rows say `limit`).
pub const DEFAULT_NODE_LIMIT: u64 = 100_000_000;

/// The model variants a comparison can use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ModelVariant {
    /// One "do not attack" constraint per pair of rows ([`Variant::Pairwise`]):
    /// the classic `promising` test, arc consistent under `mac`. The default,
    /// because heuristics such as dom/wdeg learn from many small constraints.
    #[default]
    Pairwise,
    /// Three all-different constraints ([`Variant::Global`]).
    Global,
    /// Only the columns are checked during the search (all-different), and
    /// the diagonals once every row has a queen ([`DiagonalsAtLeaves`]): the
    /// classic "column flags, then check the full board" program.
    Columns,
}

impl ModelVariant {
    /// Every variant.
    pub const ALL: [ModelVariant; 3] = [
        ModelVariant::Pairwise,
        ModelVariant::Global,
        ModelVariant::Columns,
    ];

    /// The name used in lists of strategies: `pairwise`, `global`, `columns`.
    pub fn as_str(self) -> &'static str {
        match self {
            ModelVariant::Pairwise => "pairwise",
            ModelVariant::Global => "global",
            ModelVariant::Columns => "columns",
        }
    }
}

impl fmt::Display for ModelVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ModelVariant {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "" | "pairwise" => Ok(ModelVariant::Pairwise),
            "global" => Ok(ModelVariant::Global),
            "columns" => Ok(ModelVariant::Columns),
            _ => Err(SpecError::UnknownVariant(s.to_string())),
        }
    }
}

/// Builds the model of `variant` (a [`ModelVariant`] name, `""` for the
/// default) for `n` queens: the builder [`csp_compare::compare`] takes.
///
/// ```
/// use csp_core::{Config, Solver};
/// let m = nqueens::compare::build(8, "columns")?;
/// assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 92);
/// assert!(nqueens::compare::build(8, "diagonal-free").is_err());
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub fn build(n: usize, variant: &str) -> Result<Model, CspError> {
    let variant: ModelVariant = variant
        .parse()
        .map_err(|e: SpecError| invalid(e.to_string()))?;
    let built = match variant {
        ModelVariant::Pairwise => crate::model(n, Variant::Pairwise),
        ModelVariant::Global => crate::model(n, Variant::Global),
        ModelVariant::Columns => columns_then_leaves(n),
    };
    match built {
        Ok((m, _)) => Ok(m),
        Err(Error::Csp(e)) => Err(e),
        Err(e) => Err(invalid(e.to_string())),
    }
}

fn invalid(message: String) -> CspError {
    CspError::InvalidArgument {
        context: "n-queens model".to_string(),
        message,
    }
}

/// A list of strategies that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The list has no entry.
    #[error("the list of strategies is empty")]
    Empty,
    /// A strategy spelling was not understood.
    #[error("'{entry}': {source}")]
    Strategy {
        /// The entry as written.
        entry: String,
        /// What the strategy parser said.
        source: UnknownName,
    },
    /// An unknown model variant after `@`.
    #[error("unknown model variant '{0}' (expected pairwise, global or columns)")]
    UnknownVariant(String),
    /// Two entries have the same name.
    #[error("two entries are named '{0}'; name them apart with NAME=STRATEGY")]
    Duplicate(String),
}

/// How one entry of a comparison solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The engine with a strategy on a model variant.
    Engine(Strategy, ModelVariant),
    /// The bitboard counter (count mode) or the closed-form placement (first mode).
    Dedicated,
}

/// One entry of a list of strategies: its name and its method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrySpec {
    /// The name shown in tables.
    pub name: String,
    /// How it solves.
    pub method: Method,
}

impl EntrySpec {
    /// The comparison entry for `mode`, labelled as the list wrote it
    /// (`dedicated`, `bitboard`, `construct` or `NAME=`).
    pub fn entry(&self, _mode: Mode) -> Entry {
        match self.method {
            Method::Engine(strategy, variant) => {
                Entry::engine(self.name.clone(), strategy, variant.as_str())
            }
            Method::Dedicated => Entry::custom(self.name.clone(), dedicated),
        }
    }
}

/// The dedicated method: count with the bitboard counter, or place by the
/// closed form (whose board the comparison checks against the model).
fn dedicated(n: usize, mode: Mode) -> Result<CustomOutcome, MethodError> {
    match mode {
        Mode::Count => {
            // Past u32 the counter refuses the board as too large anyway.
            let n = u32::try_from(n).unwrap_or(u32::MAX);
            let solutions = bitboard::count(n).map_err(MethodError::new)?;
            Ok(CustomOutcome {
                solutions,
                solution: None,
                nodes: None,
            })
        }
        Mode::First => match construct::construct(n) {
            Ok(columns) => Ok(CustomOutcome {
                solutions: 1,
                solution: Some(columns.into_iter().map(|c| c as Value).collect()),
                nodes: None,
            }),
            Err(construct::ConstructError::NoSolution { .. }) => Ok(CustomOutcome {
                solutions: 0,
                solution: None,
                nodes: None,
            }),
        },
        Mode::Minimize | Mode::Maximize => Err(MethodError::new(std::io::Error::other(
            "N-Queens has nothing to optimise",
        ))),
    }
}

/// Reads a comma-separated list of `[NAME=]STRATEGY[@VARIANT]` entries (see
/// the [module documentation](self)).
///
/// ```
/// use nqueens::compare::{parse_entries, Method, ModelVariant};
/// let e = parse_entries("fc, régin=propagators+first-fail@global")?;
/// assert_eq!(e[0].name, "fc");
/// assert_eq!(e[1].name, "régin");
/// assert_eq!(e[1].method, Method::Engine("propagators+first-fail".parse()?, ModelVariant::Global));
/// assert!(parse_entries("fc+sideways").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_entries(list: &str) -> Result<Vec<EntrySpec>, SpecError> {
    let mut entries: Vec<EntrySpec> = Vec::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, body) = match item.split_once('=') {
            Some((name, body)) => (name.trim().to_string(), body.trim()),
            None => (item.to_string(), item),
        };
        let method = match body {
            "dedicated" | "bitboard" | "construct" => Method::Dedicated,
            _ => {
                let (strategy, variant) = body.split_once('@').unwrap_or((body, ""));
                let strategy = strategy
                    .trim()
                    .parse()
                    .map_err(|source| SpecError::Strategy {
                        entry: item.to_string(),
                        source,
                    })?;
                Method::Engine(strategy, variant.trim().parse()?)
            }
        };
        if entries.iter().any(|e| e.name == name) {
            return Err(SpecError::Duplicate(name));
        }
        entries.push(EntrySpec { name, method });
    }
    if entries.is_empty() {
        return Err(SpecError::Empty);
    }
    Ok(entries)
}

/// The default list: the classic programs' ladder and beyond.
pub const DEFAULT_LADDER: &str = "none, check@columns, check, fc, mac, fc+first-fail, \
mac+dom-wdeg, propagators@global, dedicated";

/// The default entries ([`DEFAULT_LADDER`]): generate-and-test (`none`);
/// column-only checks with the diagonals at the leaves (`check@columns`); the
/// pairwise promising check (`check`); forward checking (`fc`); arc
/// consistency (`mac`); forward checking with first-fail; MAC with dom/wdeg;
/// the global all-different model with its propagators (Régin's matching);
/// and the dedicated method (bitboard counter or closed-form placement).
///
/// ```
/// let ladder = nqueens::compare::default_ladder()?;
/// assert_eq!(ladder.len(), 9);
/// # Ok::<(), nqueens::compare::SpecError>(())
/// ```
pub fn default_ladder() -> Result<Vec<EntrySpec>, SpecError> {
    parse_entries(DEFAULT_LADDER)
}

/// Runs `entries` on every size in `sizes` with `options` and verifies that
/// they agree (see [`csp_compare::compare`]).
pub fn compare(
    entries: &[EntrySpec],
    sizes: &[usize],
    options: &CompareOptions,
) -> Result<Table, CompareError> {
    compare_with_progress(entries, sizes, options, |_, _| {})
}

/// [`compare()`], one size at a time, calling `progress(size, rows)` with each
/// size's verified rows as soon as they are measured (long comparisons can
/// report as they go). The agreement check is per size, so the result is the
/// same table. When `options.limits.cancel` is set during a size, that size's
/// runs stop (rows marked `cancelled`) and no later size is measured.
pub fn compare_with_progress(
    entries: &[EntrySpec],
    sizes: &[usize],
    options: &CompareOptions,
    progress: impl FnMut(usize, &[Row]),
) -> Result<Table, CompareError> {
    compare_reporting(entries, sizes, options, |_, _| {}, progress)
}

/// [`compare_with_progress`], also calling `starting(size, name)` before each
/// entry runs on a size: `nqueens compare` shows it on a terminal.
pub fn compare_reporting(
    entries: &[EntrySpec],
    sizes: &[usize],
    options: &CompareOptions,
    mut starting: impl FnMut(usize, &str),
    mut progress: impl FnMut(usize, &[Row]),
) -> Result<Table, CompareError> {
    let entries: Vec<Entry> = entries.iter().map(|e| e.entry(options.mode)).collect();
    let mut table = Table {
        mode: options.mode,
        rows: Vec::new(),
        single_model: false,
    };
    for &size in sizes {
        let part = csp_compare::compare_reporting(&build, &entries, &[size], options, |n, e| {
            starting(n, &e.name)
        })?;
        progress(size, &part.rows);
        table.rows.extend(part.rows);
        // Cancelled (Ctrl-C): the sizes measured so far are the result.
        if options
            .limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.is_cancelled())
        {
            break;
        }
    }
    Ok(table)
}

/// The most board sizes one comparison takes.
pub const MAX_SIZES: usize = 1_000;

/// Reads board sizes: `8`, `4..=12`, `4..12` (12 excluded), `4,6,8`, or a mix
/// (`4..=8,10,12`). Sizes stay in the order given; repeats are refused.
///
/// ```
/// use nqueens::compare::parse_sizes;
/// assert_eq!(parse_sizes("4..=6"), Ok(vec![4, 5, 6]));
/// assert_eq!(parse_sizes("4..7"), Ok(vec![4, 5, 6]));
/// assert_eq!(parse_sizes("8, 16,200"), Ok(vec![8, 16, 200]));
/// assert!(parse_sizes("6..4").is_err());
/// ```
pub fn parse_sizes(s: &str) -> Result<Vec<usize>, SizesError> {
    let number = |t: &str| -> Result<usize, SizesError> {
        let t = t.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(SizesError::NotASize(csp_cli::input::quote(t)));
        }
        t.parse()
            .map_err(|_| SizesError::TooLarge(csp_cli::input::quote(t)))
    };
    let mut sizes = Vec::new();
    for part in s.split(',').map(str::trim) {
        let shown = csp_cli::input::quote(part);
        // Ranges as u128 so that `0..=usize::MAX` is counted, not wrapped.
        let (from, to) = if let Some((a, b)) = part.split_once("..=") {
            (number(a)? as u128, number(b)? as u128 + 1)
        } else if let Some((a, b)) = part.split_once("..") {
            (number(a)? as u128, number(b)? as u128)
        } else {
            let n = number(part)? as u128;
            (n, n + 1)
        };
        if from >= to {
            return Err(SizesError::EmptyRange(shown));
        }
        // Checked before expanding: a range is never materialised past the cap.
        let total = sizes.len() as u128 + (to - from);
        if total > MAX_SIZES as u128 {
            return Err(SizesError::TooMany { part: shown, total });
        }
        for n in (from as usize)..(to as usize) {
            if sizes.contains(&n) {
                return Err(SizesError::Repeated(n));
            }
            sizes.push(n);
        }
    }
    Ok(sizes)
}

/// Why a list of board sizes was refused ([`parse_sizes`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizesError {
    /// A part that is not a whole number (quoted, at most ~80 characters).
    #[error("'{0}' is not a board size (a whole number, 0 or more)")]
    NotASize(String),
    /// A number too large for this machine's sizes.
    #[error("'{0}' is too large")]
    TooLarge(String),
    /// A range with nothing in it.
    #[error("'{0}' is an empty range")]
    EmptyRange(String),
    /// More sizes than [`MAX_SIZES`] in all.
    #[error("'{part}' makes {total} sizes; at most {MAX_SIZES} can be compared at once")]
    TooMany {
        /// The part that went over (quoted).
        part: String,
        /// The number of sizes with it.
        total: u128,
    },
    /// A size listed twice.
    #[error("size {0} is given twice")]
    Repeated(usize),
}
