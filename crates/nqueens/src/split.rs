//! Splitting a count into replayable subproblems and deterministic shares that merge back.
//!
//! A [`Subproblem`] is plain data: the columns of the first rows and the
//! mirror weight of that prefix. The list from [`subproblems`] is ordered and
//! depends only on `n` and the depth, so share `I` of `K` ([`count_share`]:
//! every `K`-th subproblem starting at the `I`-th) means the same work on
//! every machine. Each share is reported as a one-line [`PartialCount`]
//! (`nqueens-partial n=16 part=3/8 method=bitboard count=123456 format=2
//! program=0.1.0`) and [`merge`] sums the lines after checking that all `K`
//! shares of one `n`, one method and one program version are there exactly
//! once, and that the counts are possible ([`bounds`](crate::bounds)). The symmetry counter and the engine
//! split their own searches the same way (`nqueens count --part I/K --method
//! symmetry|engine`; [`ShareMethod`]).
//!
//! ```
//! use nqueens::split::{count_share, merge, PartialCount};
//!
//! let lines: Vec<String> = (1..=3)
//!     .map(|part| count_share(10, part, 3).map(|p| p.to_string()))
//!     .collect::<Result<_, _>>()?;
//! assert_eq!(lines[0].split(' ').take(3).collect::<Vec<_>>(), ["nqueens-partial", "n=10", "part=1/3"]);
//!
//! let shares: Vec<PartialCount> = lines.iter().map(|l| l.parse()).collect::<Result<_, _>>()?;
//! assert_eq!(merge(&shares)?.total, 724);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::bitboard::{CounterError, Masks, check_size};

/// Rows fixed in the subproblems that make up the shares of [`count_share`].
///
/// Part of the share format: changing it changes which work a share number
/// means, so shares computed by different versions would not merge.
pub const SHARE_DEPTH: usize = 3;

/// The solutions that start with given columns in the first rows, counted
/// `weight` times (2 for a first-row queen in the left half, whose mirror
/// image is not enumerated; 1 otherwise).
///
/// ```
/// use nqueens::split::Subproblem;
///
/// let prefix = Subproblem { n: 6, columns: vec![1, 3], weight: 2 };
/// assert_eq!(prefix.count()?, 2); // 1,3,5,0,2,4 and its mirror image
/// # Ok::<(), nqueens::bitboard::CounterError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Subproblem {
    /// The board size.
    pub n: u32,
    /// The column of the queen in each of the first rows.
    pub columns: Vec<u32>,
    /// How many times each completion counts.
    pub weight: u64,
}

impl Subproblem {
    /// Counts the completions of the prefix times the weight. A prefix that is
    /// not a partial solution (attacking queens, a column `>= n`) has none.
    /// Errors when `n` exceeds [`MAX_N`](crate::bitboard::MAX_N).
    pub fn count(&self) -> Result<u64, CounterError> {
        check_size(self.n)?;
        let mut masks = Masks::empty(self.n)?;
        for &column in &self.columns {
            if column >= self.n {
                return Ok(0);
            }
            let bit = 1 << column;
            if masks.free() & bit == 0 {
                return Ok(0);
            }
            masks = masks.place(bit);
        }
        self.weight
            .checked_mul(masks.completions())
            .ok_or(CounterError::Overflow { n: self.n })
    }
}

/// Lists every partial solution of the first `depth` rows (at most `n`), with
/// the first-row queen restricted to the left half and the middle column, in
/// lexicographic order of the columns. Their weighted counts sum to the number
/// of solutions; `depth = 0` gives the whole problem with weight 1.
///
/// ```
/// use nqueens::split::subproblems;
///
/// let prefixes = subproblems(4, 1)?;
/// let firsts: Vec<_> = prefixes.iter().map(|s| (s.columns.clone(), s.weight)).collect();
/// assert_eq!(firsts, [(vec![0], 2), (vec![1], 2)]);
/// # Ok::<(), nqueens::bitboard::CounterError>(())
/// ```
pub fn subproblems(n: u32, depth: usize) -> Result<Vec<Subproblem>, CounterError> {
    check_size(n)?;
    let depth = depth.min(n as usize);
    let mut out = Vec::new();
    let mut columns = Vec::with_capacity(depth);
    if depth == 0 {
        out.push(Subproblem {
            n,
            columns,
            weight: 1,
        });
        return Ok(out);
    }
    let empty = Masks::empty(n)?;
    for first in 0..n.div_ceil(2) {
        let weight = if 2 * first + 1 == n { 1 } else { 2 };
        columns.push(first);
        enumerate(
            n,
            depth,
            weight,
            empty.place(1 << first),
            &mut columns,
            &mut out,
        );
        columns.pop();
    }
    Ok(out)
}

/// Extends `columns` in every consistent way up to `depth` rows.
fn enumerate(
    n: u32,
    depth: usize,
    weight: u64,
    masks: Masks,
    columns: &mut Vec<u32>,
    out: &mut Vec<Subproblem>,
) {
    if columns.len() == depth {
        out.push(Subproblem {
            n,
            columns: columns.clone(),
            weight,
        });
        return;
    }
    let mut free = masks.free();
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        columns.push(bit.trailing_zeros());
        enumerate(n, depth, weight, masks.place(bit), columns, out);
        columns.pop();
    }
}

/// Which counter produced a share: shares of different methods (or, for the
/// engine, of a different model or strategy, which split the search
/// differently) never merge.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ShareMethod {
    /// The bitboard counter over [`subproblems`] of depth [`SHARE_DEPTH`].
    Bitboard,
    /// The symmetry counter over [`symmetry::subtrees`](crate::symmetry::subtrees);
    /// the line also carries the unique solutions.
    Symmetry,
    /// csp-core's engine over `csp_core::parallel::split` at depth
    /// [`ENGINE_SHARE_DEPTH`].
    Engine {
        /// The model variant's name (`global`, `pairwise`).
        model: String,
        /// The strategy as written on a command line (`fc+first-fail`).
        strategy: String,
    },
}

impl fmt::Display for ShareMethod {
    /// `method=bitboard`, `method=symmetry`, `method=engine model=global strategy=fc`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareMethod::Bitboard => f.write_str("method=bitboard"),
            ShareMethod::Symmetry => f.write_str("method=symmetry"),
            ShareMethod::Engine { model, strategy } => {
                write!(f, "method=engine model={model} strategy={strategy}")
            }
        }
    }
}

impl ShareMethod {
    /// The largest board this method counts.
    pub fn max_n(&self) -> Result<u32, String> {
        match self {
            ShareMethod::Bitboard | ShareMethod::Symmetry => Ok(crate::bitboard::MAX_N),
            ShareMethod::Engine { model, .. } => model
                .parse::<crate::Variant>()
                .map(|v| u32::try_from(v.max_n()).unwrap_or(u32::MAX))
                .map_err(|e| e.to_string()),
        }
    }
}

/// Decisions fixed in the engine's subproblems that make up an engine share
/// (the split of `csp_core::parallel`). Part of the share format, like
/// [`SHARE_DEPTH`].
pub const ENGINE_SHARE_DEPTH: usize = 3;

/// The count of one share of a split count, as written by `nqueens count
/// --part I/K` and read back by [`merge`]. Its [`Display`](fmt::Display) and
/// [`FromStr`] forms are one line:
/// `nqueens-partial n=16 part=3/8 method=bitboard count=123456 format=2 program=0.1.0`,
/// with `unique=U` after the count for the symmetry counter. The line format
/// is [`SHARE_FORMAT`]; a line without `format=` (written by versions before
/// it, which carried no program version) is refused, since the split it
/// was counted on is unknown. [`FromStr`] also refuses counts that cannot be
/// ([`bounds::check_counts`](crate::bounds::check_counts)).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PartialCount {
    /// The board size.
    pub n: u32,
    /// Which share, numbered from 1.
    pub part: usize,
    /// How many shares the count was split into.
    pub parts: usize,
    /// The counter, and for the engine its model and strategy.
    pub method: ShareMethod,
    /// The solutions counted in this share.
    pub count: u64,
    /// The symmetry counter's classes of solutions in this share (`None` for
    /// the other methods).
    pub unique: Option<u64>,
    /// The version of the program that counted it ([`PROGRAM_VERSION`] for
    /// a share counted here).
    pub program: String,
}

/// The layout of a share line written by this program (`format=2`; the
/// lines without `format=` are layout 1).
pub const SHARE_FORMAT: u32 = 2;

/// The program version written in (and compared between) share lines.
pub const PROGRAM_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The first word of a [`PartialCount`] line.
const TAG: &str = "nqueens-partial";

impl fmt::Display for PartialCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{TAG} n={} part={}/{} {} count={}",
            self.n, self.part, self.parts, self.method, self.count
        )?;
        if let Some(unique) = self.unique {
            write!(f, " unique={unique}")?;
        }
        write!(f, " format={SHARE_FORMAT} program={}", self.program)
    }
}

/// A line that is not a well-formed [`PartialCount`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a partial count line ({reason}): {line:?}")]
pub struct ParsePartialError {
    /// What is wrong with it.
    pub reason: String,
    /// The offending line.
    pub line: String,
}

/// What a line must look like, for the error of a line that is not one.
const EXPECTED: &str =
    "expected `nqueens-partial n=N part=I/K method=M count=C format=2 program=V`";

/// A whole number written with digits only (Rust's `parse` also takes `+5`).
fn whole<T: FromStr>(key: &str, value: &str) -> Result<T, String> {
    let digits = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
    let parsed = digits.then(|| value.parse().ok()).flatten();
    parsed.ok_or_else(|| format!("{key}={value} is not a whole number that fits"))
}

impl FromStr for PartialCount {
    type Err = ParsePartialError;

    fn from_str(line: &str) -> Result<Self, Self::Err> {
        parse_line(line).map_err(|reason| ParsePartialError {
            reason,
            line: line.to_owned(),
        })
    }
}

/// Parses the `key=value` words of a partial-count line.
fn parse_line(line: &str) -> Result<PartialCount, String> {
    let mut words = line.split_whitespace();
    if words.next() != Some(TAG) {
        return Err(EXPECTED.into());
    }
    let mut fields: Vec<(&str, &str)> = Vec::new();
    for word in words {
        let (key, value) = word.split_once('=').ok_or_else(|| EXPECTED.to_string())?;
        let known = [
            "n", "part", "method", "model", "strategy", "count", "unique", "format", "program",
        ];
        if !known.contains(&key) {
            return Err(format!("unknown field {key}="));
        }
        if fields.iter().any(|&(k, _)| k == key) {
            return Err(format!("{key}= given twice"));
        }
        fields.push((key, value));
    }
    let get = |key: &str| fields.iter().find(|&&(k, _)| k == key).map(|&(_, v)| v);
    let need = |key: &str| get(key).ok_or_else(|| format!("no {key}=; {EXPECTED}"));
    // The version first: the rest of a line of another layout means another thing.
    let format = get("format").ok_or_else(|| {
        format!(
            "no format=: a line written before share format {SHARE_FORMAT}, whose split \
             cannot be checked; count the share again with nqueens {PROGRAM_VERSION}"
        )
    })?;
    if format != SHARE_FORMAT.to_string() {
        return Err(format!(
            "format={format}; this nqueens reads format {SHARE_FORMAT} (count the share again with this version)"
        ));
    }
    let program = need("program")?;
    let (part, parts) = need("part")?
        .split_once('/')
        .ok_or_else(|| "part= must be I/K".to_string())?;
    let (part, parts) = (whole("part", part)?, whole("part", parts)?);
    if !(1..=parts).contains(&part) {
        return Err(format!("share {part}/{parts} does not exist"));
    }
    let method = match get("method").unwrap_or("bitboard") {
        "bitboard" => ShareMethod::Bitboard,
        "symmetry" => ShareMethod::Symmetry,
        "engine" => ShareMethod::Engine {
            model: need("model")?.to_string(),
            strategy: need("strategy")?.to_string(),
        },
        other => return Err(format!("unknown method={other}")),
    };
    let engine = matches!(method, ShareMethod::Engine { .. });
    for key in ["model", "strategy"] {
        if !engine && get(key).is_some() {
            return Err(format!("{key}= belongs to method=engine only"));
        }
    }
    let symmetry = method == ShareMethod::Symmetry;
    let unique = match get("unique") {
        Some(u) if symmetry => Some(whole("unique", u)?),
        None if symmetry => return Err("method=symmetry needs unique=".into()),
        Some(_) => return Err("unique= belongs to method=symmetry only".into()),
        None => None,
    };
    let n: u32 = whole("n", need("n")?)?;
    let max = method.max_n()?;
    if n > max {
        return Err(format!(
            "n={n} is more than {max}, the largest board of this method"
        ));
    }
    let count = whole("count", need("count")?)?;
    crate::bounds::check_counts(n, count, unique, false)?;
    Ok(PartialCount {
        n,
        part,
        parts,
        method,
        count,
        unique,
        program: program.to_string(),
    })
}

/// Counts share `part` (numbered `1..=parts`) of the solutions of `n` queens:
/// the subproblems of depth [`SHARE_DEPTH`] whose index `i` (from 0) has
/// `i % parts == part - 1`. The shares of one `n` sum to the total for every
/// `parts`; shares beyond the number of subproblems count 0.
///
/// ```
/// use nqueens::split::count_share;
///
/// let share = count_share(8, 2, 4)?;
/// assert_eq!((share.n, share.part, share.parts), (8, 2, 4));
/// let total: u64 = (1..=4).map(|i| count_share(8, i, 4).map(|s| s.count)).sum::<Result<_, _>>()?;
/// assert_eq!(total, 92);
/// # Ok::<(), nqueens::bitboard::CounterError>(())
/// ```
pub fn count_share(n: u32, part: usize, parts: usize) -> Result<PartialCount, CounterError> {
    if !(1..=parts).contains(&part) {
        return Err(CounterError::InvalidShare { part, parts });
    }
    let count = subproblems(n, SHARE_DEPTH)?
        .iter()
        .skip(part - 1)
        .step_by(parts)
        .map(Subproblem::count)
        .try_fold(0, |sum, c| crate::bitboard::add(n, sum, c?))?;
    Ok(PartialCount {
        n,
        part,
        parts,
        method: ShareMethod::Bitboard,
        count,
        unique: None,
        program: PROGRAM_VERSION.to_string(),
    })
}

/// The shares of a split count added up: the total, and for the symmetry
/// counter the unique solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Merged {
    /// All solutions.
    pub total: u64,
    /// Classes of solutions under the symmetries of the board (symmetry shares only).
    pub unique: Option<u64>,
}

/// Why a set of [`PartialCount`]s does not make up one whole count.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no partial counts to merge")]
    Empty,
    /// Shares of different board sizes.
    #[error("partial counts for different board sizes: n={first} and n={other}")]
    MixedSizes {
        /// The size of the first share.
        first: u32,
        /// A different size found later.
        other: u32,
    },
    /// Shares of different splits.
    #[error("partial counts from different splits: {first} parts and {other} parts")]
    MixedParts {
        /// The number of parts of the first share.
        first: usize,
        /// A different number of parts found later.
        other: usize,
    },
    /// Shares of different methods, or engine shares of different models or strategies.
    #[error("partial counts from different methods: {first} and {other}")]
    MixedMethods {
        /// The method of the first share.
        first: ShareMethod,
        /// A different method found later.
        other: ShareMethod,
    },
    /// A share numbered outside `1..=parts`.
    #[error("share {part}/{parts} does not exist")]
    InvalidPart {
        /// The share number.
        part: usize,
        /// The number of shares.
        parts: usize,
    },
    /// A share given twice.
    #[error("share {part}/{parts} appears more than once")]
    Duplicate {
        /// The repeated share.
        part: usize,
        /// The number of shares.
        parts: usize,
    },
    /// A share missing.
    #[error("share {part}/{parts} is missing")]
    Missing {
        /// The first missing share.
        part: usize,
        /// The number of shares.
        parts: usize,
    },
    /// Shares counted by different versions of the program, which might split differently.
    #[error("partial counts from different versions of nqueens: {first} and {other}")]
    MixedVersions {
        /// The version of the first share.
        first: String,
        /// A different version found later.
        other: String,
    },
    /// The sum does not fit in a `u64`.
    #[error("the merged count overflows u64")]
    Overflow,
    /// The shares add up to a count that cannot be ([`bounds`](crate::bounds)).
    #[error("the shares cannot be right: {0}")]
    Impossible(String),
}

/// Sums the shares of one split count, checking that they all have the same
/// `n`, `parts`, method and program version, that every share `1..=parts` is
/// there exactly once, and that the sums are possible: the known total of
/// `n` queens where it is known ([`bounds::check_counts`](crate::bounds::check_counts)).
///
/// ```
/// use nqueens::split::{merge, MergeError, PartialCount, ShareMethod};
///
/// let share = |part, count| PartialCount {
///     n: 6, part, parts: 2, method: ShareMethod::Bitboard, count, unique: None,
///     program: nqueens::split::PROGRAM_VERSION.to_string(),
/// };
/// let (one, two) = (share(1, 3), share(2, 1));
/// assert_eq!(merge(&[two.clone(), one.clone()])?.total, 4);
/// assert_eq!(merge(&[one.clone()]), Err(MergeError::Missing { part: 2, parts: 2 }));
/// assert_eq!(merge(&[one.clone(), one, two]), Err(MergeError::Duplicate { part: 1, parts: 2 }));
/// # Ok::<(), MergeError>(())
/// ```
pub fn merge(shares: &[PartialCount]) -> Result<Merged, MergeError> {
    let first = shares.first().ok_or(MergeError::Empty)?;
    let parts = first.parts;
    let mut seen = vec![false; parts.min(shares.len())];
    let mut total: u64 = 0;
    let mut unique: Option<u64> = first.unique.map(|_| 0);
    for share in shares {
        if share.n != first.n {
            return Err(MergeError::MixedSizes {
                first: first.n,
                other: share.n,
            });
        }
        if share.parts != parts {
            return Err(MergeError::MixedParts {
                first: parts,
                other: share.parts,
            });
        }
        if share.method != first.method {
            return Err(MergeError::MixedMethods {
                first: first.method.clone(),
                other: share.method.clone(),
            });
        }
        if share.program != first.program {
            return Err(MergeError::MixedVersions {
                first: first.program.clone(),
                other: share.program.clone(),
            });
        }
        let part = share.part;
        if !(1..=parts).contains(&part) {
            return Err(MergeError::InvalidPart { part, parts });
        }
        // More parts than shares: some part is missing, report the first.
        let Some(slot) = seen.get_mut(part - 1) else {
            continue;
        };
        if std::mem::replace(slot, true) {
            return Err(MergeError::Duplicate { part, parts });
        }
        total = total.checked_add(share.count).ok_or(MergeError::Overflow)?;
        if let (Some(sum), Some(u)) = (unique.as_mut(), share.unique) {
            *sum = sum.checked_add(u).ok_or(MergeError::Overflow)?;
        }
    }
    match seen.iter().position(|&s| !s) {
        Some(missing) => Err(MergeError::Missing {
            part: missing + 1,
            parts,
        }),
        None if seen.len() < parts => Err(MergeError::Missing {
            part: seen.len() + 1,
            parts,
        }),
        None => {
            crate::bounds::check_counts(first.n, total, unique, true)
                .map_err(MergeError::Impossible)?;
            Ok(Merged { total, unique })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{count, tests::A000170};

    #[test]
    fn shares_sum_to_the_whole_count() {
        for n in [0, 1, 4, 5, 8, 10, 11, 12] {
            for parts in [1, 2, 3, 7, 64] {
                let shares: Vec<_> = (1..=parts)
                    .map(|part| count_share(n, part, parts).unwrap())
                    .collect();
                let merged = merge(&shares).unwrap();
                assert_eq!(merged.total, A000170[n as usize], "n={n} K={parts}");
                assert_eq!(merged.unique, None);
            }
        }
    }

    #[test]
    fn subproblems_of_every_depth_sum_to_the_whole_count() {
        for n in 0..=10 {
            for depth in 0..=5 {
                let total: u64 = subproblems(n, depth)
                    .unwrap()
                    .iter()
                    .map(|s| s.count().unwrap())
                    .sum();
                assert_eq!(total, count(n).unwrap(), "n={n} depth={depth}");
            }
        }
    }

    #[test]
    fn subproblems_are_ordered_partial_solutions() {
        let list = subproblems(9, 3).unwrap();
        assert!(list.windows(2).all(|w| w[0].columns < w[1].columns));
        assert!(
            list.iter()
                .all(|s| s.columns.len() == 3 && s.columns[0] <= 4)
        );
        assert!(
            list.iter()
                .all(|s| s.weight == if s.columns[0] == 4 { 1 } else { 2 })
        );
    }

    #[test]
    fn attacking_or_off_board_prefix_has_no_completion() {
        let attacking = Subproblem {
            n: 8,
            columns: vec![0, 1],
            weight: 2,
        };
        let off_board = Subproblem {
            n: 8,
            columns: vec![8],
            weight: 1,
        };
        assert_eq!(attacking.count().unwrap(), 0);
        assert_eq!(off_board.count().unwrap(), 0);
    }

    #[test]
    fn rejects_shares_outside_the_split() {
        for (part, parts) in [(0, 3), (4, 3), (1, 0)] {
            assert!(matches!(
                count_share(8, part, parts),
                Err(CounterError::InvalidShare { .. })
            ));
        }
        assert!(matches!(
            count_share(33, 1, 1),
            Err(CounterError::TooLarge { .. })
        ));
    }

    #[test]
    fn partial_count_line_round_trips() {
        let mut share = PartialCount {
            n: 16,
            part: 3,
            parts: 8,
            method: ShareMethod::Bitboard,
            count: 123_456,
            unique: None,
            program: "0.0.7".into(),
        };
        let line = share.to_string();
        assert_eq!(
            line,
            "nqueens-partial n=16 part=3/8 method=bitboard count=123456 format=2 program=0.0.7"
        );
        assert_eq!(line.parse(), Ok(share.clone()));
        assert_eq!(format!("  {line}\n").parse(), Ok(share.clone()));
        // Without a method, a share is a bitboard share.
        assert_eq!(
            "nqueens-partial n=16 part=3/8 count=123456 format=2 program=0.0.7".parse(),
            Ok(share.clone())
        );
        share.method = ShareMethod::Symmetry;
        share.unique = Some(19_999);
        let line = share.to_string();
        assert_eq!(
            line,
            "nqueens-partial n=16 part=3/8 method=symmetry count=123456 unique=19999 format=2 program=0.0.7"
        );
        assert_eq!(line.parse(), Ok(share.clone()));
        share.method = ShareMethod::Engine {
            model: "global".into(),
            strategy: "fc+first-fail".into(),
        };
        share.unique = None;
        let line = share.to_string();
        assert_eq!(
            line,
            "nqueens-partial n=16 part=3/8 method=engine model=global strategy=fc+first-fail count=123456 format=2 program=0.0.7"
        );
        assert_eq!(line.parse(), Ok(share));
    }

    #[test]
    fn rejects_malformed_partial_count_lines() {
        let reason = |line: &str| line.parse::<PartialCount>().unwrap_err().reason;
        for line in [
            "",
            "queens-partial n=16 part=3/8 count=1",
            "nqueens-partial n=16 part=3/8 count=1 extra",
        ] {
            assert_eq!(reason(line), EXPECTED, "{line:?}");
        }
        for (line, why) in [
            (
                "nqueens-partial n=16 part=3/8 format=2 program=9",
                "no count=; expected `nqueens-partial n=N part=I/K method=M count=C format=2 program=V`",
            ),
            (
                "nqueens-partial n=16 part=0/8 count=1 format=2 program=9",
                "share 0/8 does not exist",
            ),
            (
                "nqueens-partial n=16 part=9/8 count=1 format=2 program=9",
                "share 9/8 does not exist",
            ),
            (
                "nqueens-partial n=16 part=3-8 count=1 format=2 program=9",
                "part= must be I/K",
            ),
            (
                "nqueens-partial n=16 part=3/8 count=-1 format=2 program=9",
                "count=-1 is not a whole number that fits",
            ),
            (
                "nqueens-partial n=16 part=3/8 count=+5 format=2 program=9",
                "count=+5 is not a whole number that fits",
            ),
            (
                "nqueens-partial n=16 part=3/8 count=1 count=2 format=2 program=9",
                "count= given twice",
            ),
            (
                "nqueens-partial n=16 part=3/8 count=1 colour=red format=2 program=9",
                "unknown field colour=",
            ),
            (
                "nqueens-partial n=4000000000 part=1/2 count=1 format=2 program=9",
                "n=4000000000 is more than 32, the largest board of this method",
            ),
            (
                "nqueens-partial n=10001 part=1/2 method=engine model=global strategy=fc count=1 format=2 program=9",
                "n=10001 is more than 10000, the largest board of this method",
            ),
            (
                "nqueens-partial n=8 part=1/2 method=symmetry count=1 format=2 program=9",
                "method=symmetry needs unique=",
            ),
            (
                "nqueens-partial n=8 part=1/2 method=bitboard count=1 unique=1 format=2 program=9",
                "unique= belongs to method=symmetry only",
            ),
            (
                "nqueens-partial n=8 part=1/2 method=engine model=global count=1 format=2 program=9",
                "no strategy=; expected `nqueens-partial n=N part=I/K method=M count=C format=2 program=V`",
            ),
            (
                "nqueens-partial n=8 part=1/2 method=engine model=clever strategy=fc count=1 format=2 program=9",
                "unknown model 'clever' (expected pairwise or global)",
            ),
            (
                "nqueens-partial n=8 part=1/2 method=bitboard strategy=fc count=1 format=2 program=9",
                "strategy= belongs to method=engine only",
            ),
            (
                "nqueens-partial n=8 part=1/2 method=guess count=1 format=2 program=9",
                "unknown method=guess",
            ),
            (
                "nqueens-partial n=8 part=1/2 count=1 format=3 program=9",
                "format=3; this nqueens reads format 2 (count the share again with this version)",
            ),
            (
                "nqueens-partial n=8 part=1/2 count=1 format=2",
                "no program=; expected `nqueens-partial n=N part=I/K method=M count=C format=2 program=V`",
            ),
            (
                "nqueens-partial n=12 part=1/2 count=14201 format=2 program=9",
                "14201 solutions is more than the 14200 that 12 queens have",
            ),
            (
                "nqueens-partial n=12 part=1/2 method=symmetry count=5 unique=99999 format=2 program=9",
                "99999 unique solutions is more than the 5 solutions",
            ),
        ] {
            assert_eq!(reason(line), why, "{line:?}");
        }
        assert_eq!(
            reason("nqueens-partial n=8 part=1/2 method=bitboard count=1"),
            format!(
                "no format=: a line written before share format 2, whose split cannot be checked; count the share again with nqueens {PROGRAM_VERSION}"
            )
        );
    }

    #[test]
    fn merge_rejects_mixed_or_incomplete_shares() {
        let share = |n, part, parts| PartialCount {
            n,
            part,
            parts,
            method: ShareMethod::Bitboard,
            count: 1,
            unique: None,
            program: PROGRAM_VERSION.to_string(),
        };
        assert_eq!(merge(&[]), Err(MergeError::Empty));
        assert_eq!(
            merge(&[share(8, 1, 2), share(9, 2, 2)]),
            Err(MergeError::MixedSizes { first: 8, other: 9 })
        );
        assert_eq!(
            merge(&[share(8, 1, 2), share(8, 2, 3)]),
            Err(MergeError::MixedParts { first: 2, other: 3 })
        );
        let mut symmetric = share(8, 2, 2);
        symmetric.method = ShareMethod::Symmetry;
        symmetric.unique = Some(1);
        assert_eq!(
            merge(&[share(8, 1, 2), symmetric]).unwrap_err().to_string(),
            "partial counts from different methods: method=bitboard and method=symmetry"
        );
        assert_eq!(
            merge(&[share(8, 3, 2)]),
            Err(MergeError::InvalidPart { part: 3, parts: 2 })
        );
        assert_eq!(
            merge(&[share(8, 1, 1_000_000)]),
            Err(MergeError::Missing {
                part: 2,
                parts: 1_000_000
            })
        );
        assert_eq!(
            merge(&[share(8, 2, 3), share(8, 3, 3)]),
            Err(MergeError::Missing { part: 1, parts: 3 })
        );
        let mut older = share(8, 2, 2);
        older.program = "0.0.9".into();
        assert_eq!(
            merge(&[share(8, 1, 2), older]).unwrap_err().to_string(),
            format!(
                "partial counts from different versions of nqueens: {PROGRAM_VERSION} and 0.0.9"
            )
        );
        // Every share is there but the sum is not the known total.
        assert_eq!(
            merge(&[share(8, 1, 2), share(8, 2, 2)])
                .unwrap_err()
                .to_string(),
            "the shares cannot be right: 2 solutions in all, but 8 queens have 92 (OEIS A000170)"
        );
    }

    #[test]
    fn merge_adds_the_unique_counts_of_symmetry_shares() {
        let share = |part, count, unique| PartialCount {
            n: 8,
            part,
            parts: 2,
            method: ShareMethod::Symmetry,
            count,
            unique: Some(unique),
            program: PROGRAM_VERSION.to_string(),
        };
        assert_eq!(
            merge(&[share(1, 60, 8), share(2, 32, 4)]),
            Ok(Merged {
                total: 92,
                unique: Some(12)
            })
        );
    }
}
