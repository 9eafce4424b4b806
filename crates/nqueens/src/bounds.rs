//! What a count read back from a file can possibly be: the known totals of OEIS A000170 and A002562, and the checks of shares and checkpoints against them.
//!
//! A checkpoint or a share line is checked for damage by its checksum, but a
//! deliberate edit can recompute that. These checks catch the edits that
//! cannot be true: more solutions than the board has (up to N = 27, where
//! the totals are known), more unique solutions than solutions, or fewer
//! than an eighth (each class under the eight symmetries of the board holds
//! at most eight), and a whole count that is not the known total. They do
//! not catch a plausible lie (a share a little smaller than it should be);
//! the keyed check (`--share-key`) is for that.
//!
//! ```
//! use nqueens::bounds::{check_counts, known_total};
//!
//! assert_eq!(known_total(12), Some((14_200, 1_787)));
//! assert!(check_counts(12, 14_200, None, true).is_ok());
//! assert_eq!(
//!     check_counts(12, 99_999, None, false).unwrap_err(),
//!     "99999 solutions is more than the 14200 that 12 queens have"
//! );
//! ```

/// OEIS A000170 and A002562: the solutions of `n` queens and the classes of
/// them under rotation and reflection, for `n` = 0 to 27.
const KNOWN: [(u64, u64); 28] = [
    (1, 1),
    (1, 1),
    (0, 0),
    (0, 0),
    (2, 1),
    (10, 2),
    (4, 1),
    (40, 6),
    (92, 12),
    (352, 46),
    (724, 92),
    (2_680, 341),
    (14_200, 1_787),
    (73_712, 9_233),
    (365_596, 45_752),
    (2_279_184, 285_053),
    (14_772_512, 1_846_955),
    (95_815_104, 11_977_939),
    (666_090_624, 83_263_591),
    (4_968_057_848, 621_012_754),
    (39_029_188_884, 4_878_666_808),
    (314_666_222_712, 39_333_324_973),
    (2_691_008_701_644, 336_376_244_042),
    (24_233_937_684_440, 3_029_242_658_210),
    (227_514_171_973_736, 28_439_272_956_934),
    (2_207_893_435_808_352, 275_986_683_743_434),
    (22_317_699_616_364_044, 2_789_712_466_510_289),
    (234_907_967_154_122_528, 29_363_495_934_315_694),
];

/// The solutions of `n` queens and their classes under the board's
/// symmetries, where known (`n <= 27`).
pub fn known_total(n: u32) -> Option<(u64, u64)> {
    KNOWN.get(n as usize).copied()
}

/// Checks `count` solutions (and `unique` classes, for the symmetry counter)
/// of part of the `n`-queens count, or of all of it when `whole`: within the
/// known total (equal to it when `whole`), and `unique <= count <= 8 * unique`.
/// The message says what is impossible.
pub fn check_counts(n: u32, count: u64, unique: Option<u64>, whole: bool) -> Result<(), String> {
    if let Some(unique) = unique {
        if unique > count {
            return Err(format!(
                "{unique} unique solutions is more than the {count} solutions"
            ));
        }
        if count > unique.saturating_mul(8) {
            return Err(format!(
                "{count} solutions is more than 8 times the {unique} unique ones (a class holds at most 8)"
            ));
        }
    }
    let Some((total, classes)) = known_total(n) else {
        return Ok(());
    };
    if count > total {
        return Err(format!(
            "{count} solutions is more than the {total} that {n} queens have"
        ));
    }
    if let Some(unique) = unique.filter(|&u| u > classes) {
        return Err(format!(
            "{unique} unique solutions is more than the {classes} that {n} queens have"
        ));
    }
    if whole && count != total {
        return Err(format!(
            "{count} solutions in all, but {n} queens have {total} (OEIS A000170)"
        ));
    }
    if whole && unique.is_some_and(|u| u != classes) {
        return Err(format!(
            "{} unique solutions in all, but {n} queens have {classes} (OEIS A002562)",
            unique.unwrap_or(0)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_agrees_with_the_counters() {
        for n in 0..=12 {
            let counted = crate::symmetry::count(n).unwrap();
            assert_eq!(
                known_total(n),
                Some((counted.total, counted.unique)),
                "n={n}"
            );
        }
        assert_eq!(known_total(28), None);
    }

    #[test]
    fn impossible_counts_are_named() {
        assert_eq!(
            check_counts(8, 10, Some(11), false).unwrap_err(),
            "11 unique solutions is more than the 10 solutions"
        );
        assert_eq!(
            check_counts(8, 90, Some(11), false).unwrap_err(),
            "90 solutions is more than 8 times the 11 unique ones (a class holds at most 8)"
        );
        assert_eq!(
            check_counts(8, 91, None, true).unwrap_err(),
            "91 solutions in all, but 8 queens have 92 (OEIS A000170)"
        );
        assert_eq!(
            check_counts(8, 92, Some(13), false).unwrap_err(),
            "13 unique solutions is more than the 12 that 8 queens have"
        );
        assert!(check_counts(8, 92, Some(12), true).is_ok());
        assert!(check_counts(30, u64::MAX, None, true).is_ok());
    }
}
