//! The declarative N-Queens model: one variable per row, whose value is the queen's column.
//!
//! Rows differ by construction (one variable each), so the constraints only say
//! that columns and diagonals differ. Two formulations are offered, to compare:
//!
//! - [`Variant::Pairwise`]: for every pair of rows `i < j`, one binary
//!   constraint "queens `i` and `j` do not attack each other", `q_i != q_j` and
//!   `|q_i - q_j| != j - i`: the `promising` test of the classic programs, as a
//!   [`BinaryRelation`](csp_core::BinaryRelation) filtered by support,
//!   `n (n - 1) / 2` constraints;
//! - [`Variant::Global`]: three all-different constraints over `q_i`, `q_i + i`
//!   and `q_i - i`, as MiniZinc and Gecode write it: 3 constraints whatever `n`.
//!
//! Both have the same solutions, and under the `check` pruning level they visit
//! the same state-space tree (the same values tried, accepted and rejected).
//! So do forward checking's (`fc`). Arc consistency differs: on the pairwise
//! model `mac` is real arc consistency on the queens' binary relation (a value
//! goes once no square of another row is compatible with it: 768 nodes for all
//! 8-queens solutions), while all-different under `mac` does value elimination
//! only (992 nodes), and Régin's matching filter under `propagators`.
//!
//! ```
//! use csp_core::{Config, Solver};
//! use nqueens::{model, Variant};
//!
//! for variant in Variant::ALL {
//!     let (m, rows) = model(8, variant)?;
//!     assert_eq!(rows.len(), 8);
//!     assert_eq!(Solver::new(&m, Config::textbook())?.count().solutions, 92);
//! }
//! # Ok::<(), nqueens::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use csp_core::{Model, Value, VarId};

use crate::Error;
use crate::construct::Line;

/// The largest board the pairwise model accepts: it posts `n (n - 1) / 2`
/// constraints, 124,750 at `n = 500`, each watched by both its rows. The
/// global model goes further.
pub const MAX_PAIRWISE_N: usize = 500;

/// The largest board the global model accepts. The engine stores every domain
/// as a bitset with an undo stamp per word, `n^2 / 4` bytes in all (25 MB at
/// `n = 10_000`); those bits, not csp-core's (which keeps a domain of more
/// than 2^24 values as bounds and holes), are the bound. Larger boards: use the constructive
/// placement ([`construct`](crate::construct::construct)).
pub const MAX_GLOBAL_N: usize = 10_000;

/// How the column and diagonal constraints are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// One "do not attack" constraint per pair of rows, like the classic `promising`.
    Pairwise,
    /// Three all-different constraints over `q_i`, `q_i + i`, `q_i - i` (the default).
    #[default]
    Global,
}

impl Variant {
    /// Both variants, pairwise first.
    pub const ALL: [Variant; 2] = [Variant::Pairwise, Variant::Global];

    /// The name used on command lines: `pairwise` or `global`.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Pairwise => "pairwise",
            Variant::Global => "global",
        }
    }

    /// The largest `n` this variant builds ([`MAX_PAIRWISE_N`], [`MAX_GLOBAL_N`]).
    pub fn max_n(self) -> usize {
        match self {
            Variant::Pairwise => MAX_PAIRWISE_N,
            Variant::Global => MAX_GLOBAL_N,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A model variant name that is neither `pairwise` nor `global`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown model '{0}' (expected pairwise or global)")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// ```
    /// use nqueens::Variant;
    /// assert_eq!("pairwise".parse(), Ok(Variant::Pairwise));
    /// assert!("clever".parse::<Variant>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "pairwise" => Ok(Variant::Pairwise),
            "global" => Ok(Variant::Global),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// Builds the `n`-queens model: variables `q[0]..q[n-1]` (returned in row
/// order), each with the columns `0..n` as its domain, and the constraints of
/// `variant`. Uses only csp-core's public API.
///
/// `n = 0` gives a model with no variable, whose one solution is the empty
/// board (OEIS A000170 counts it: `a(0) = 1`).
///
/// Fails with [`Error::TooLarge`] above [`Variant::max_n`].
///
/// ```
/// use csp_core::{Config, Pruning, Solver};
/// use nqueens::{model, Variant};
///
/// let (m, q) = model(4, Variant::Pairwise)?;
/// assert_eq!(m.num_constraints(), 6);
/// let mut solver = Solver::new(&m, Config::textbook().with_pruning(Pruning::Check))?;
/// assert_eq!(solver.first().solution.map(|s| s.values_of(&q)), Some(vec![1, 3, 0, 2]));
/// # Ok::<(), nqueens::Error>(())
/// ```
pub fn model(n: usize, variant: Variant) -> Result<(Model, Vec<VarId>), Error> {
    if n > variant.max_n() {
        return Err(Error::TooLarge {
            n,
            max: variant.max_n(),
            variant: variant.as_str(),
            why: match variant {
                Variant::Pairwise => {
                    "it posts n(n-1)/2 constraints; use the global model or --method construct"
                }
                Variant::Global => "the domains take n^2 bits; use --method construct",
            },
        });
    }
    build(n, variant)
}

/// The global model of [`model`] without its size cap, for searches that keep
/// no domain store (the cap is there because the engine's domains take n^2
/// bits): min-conflicts local search builds it for a million queens.
///
/// ```
/// use nqueens::model::global_model_any_size;
///
/// let (m, q) = global_model_any_size(1_000_000)?;
/// assert_eq!((q.len(), m.num_constraints()), (1_000_000, 3));
/// # Ok::<(), nqueens::Error>(())
/// ```
pub fn global_model_any_size(n: usize) -> Result<(Model, Vec<VarId>), Error> {
    build(n, Variant::Global)
}

/// The global model is csp-core's shared builder ([`csp_core::models::queens`]),
/// posted in the order [`constraint_line`] relies on; the pairwise one posts
/// [`no_attack`] for the pairs `(0, 1), (0, 2), …, (n - 2, n - 1)` in that order.
fn build(n: usize, variant: Variant) -> Result<(Model, Vec<VarId>), Error> {
    Ok(match variant {
        Variant::Pairwise => {
            let mut m = Model::new();
            let last = n as Value - 1;
            let q = m.int_var_array("q", n, 0..=last)?;
            for i in 0..n {
                for j in i + 1..n {
                    let d = (j - i) as Value;
                    m.binary_relation(PAIR_NAME, q[i], q[j], move |a, b| no_attack(a, b, d))?;
                }
            }
            (m, q)
        }
        Variant::Global => csp_core::models::queens(n)?,
    })
}

/// The name of the pairwise model's constraints.
pub const PAIR_NAME: &str = "no-attack";

/// Whether queens in columns `a` and `b` of two rows `distance` apart do not
/// attack each other: different columns, and not on one diagonal (the
/// seeds' `promising` test).
///
/// ```
/// use nqueens::model::no_attack;
/// assert!(no_attack(0, 2, 1));
/// assert!(!no_attack(0, 2, 2)); // one diagonal
/// assert!(!no_attack(3, 3, 5)); // one column
/// ```
#[inline]
pub fn no_attack(a: Value, b: Value, distance: Value) -> bool {
    a != b && (a - b).abs() != distance
}

/// The line a constraint of [`model(n, variant)`](model()) keeps free of a second
/// queen, by the constraint's index: `Column`, `Diagonal` (`q_i - i`, row − column
/// constant) or `AntiDiagonal` (`q_i + i`). `None` for an index the model does
/// not have, and for the pairwise model's constraints, which guard all three
/// lines between their two rows (the attack is then read from the board, see
/// [`rejection`](crate::attack::rejection)).
///
/// ```
/// use nqueens::construct::Line;
/// use nqueens::model::constraint_line;
/// use nqueens::Variant;
///
/// assert_eq!(constraint_line(Variant::Global, 8, 2), Some(Line::Diagonal));
/// assert_eq!(constraint_line(Variant::Global, 8, 3), None);
/// assert_eq!(constraint_line(Variant::Pairwise, 8, 1), None);
/// ```
pub fn constraint_line(variant: Variant, n: usize, constraint: usize) -> Option<Line> {
    if variant == Variant::Pairwise || n == 0 || constraint >= 3 {
        return None;
    }
    // Column, then the all-different of q_i + i (row + column constant), then
    // the other diagonal.
    Some(match constraint {
        0 => Line::Column,
        1 => Line::AntiDiagonal,
        _ => Line::Diagonal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairwise_posts_one_constraint_per_pair_and_global_three_in_all() {
        let (p, _) = model(6, Variant::Pairwise).unwrap();
        let (g, _) = model(6, Variant::Global).unwrap();
        assert_eq!(p.num_constraints(), 15);
        assert_eq!(g.num_constraints(), 3);
    }

    #[test]
    fn empty_board_has_no_variable_and_no_constraint() {
        for variant in Variant::ALL {
            let (m, q) = model(0, variant).unwrap();
            assert!(q.is_empty());
            assert_eq!(m.num_constraints(), 0);
            assert!(m.is_solution(&[]));
        }
    }

    #[test]
    fn refuses_boards_above_the_variant_limit() {
        let e = model(MAX_PAIRWISE_N + 1, Variant::Pairwise).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("n = 501 is too large for the pairwise model (at most 500)"),
            "{e}"
        );
        assert!(matches!(
            model(MAX_GLOBAL_N + 1, Variant::Global),
            Err(Error::TooLarge { .. })
        ));
    }

    #[test]
    fn constraint_lines_match_what_the_constraints_forbid() {
        // Rows 0 and 2 with queens one diagonal step apart per row.
        {
            let variant = Variant::Global;
            let (m, _) = model(3, variant).unwrap();
            let cases = [
                ([0, 1, 2], Line::Diagonal),
                ([2, 1, 0], Line::AntiDiagonal),
                ([0, 2, 0], Line::Column),
            ];
            for (values, line) in cases {
                let failing: Vec<Line> = m
                    .constraints()
                    .filter(|(_, c)| {
                        let vals: Vec<Value> =
                            c.scope().iter().map(|v| values[v.index()]).collect();
                        !c.check(&vals)
                    })
                    .filter_map(|(id, _)| constraint_line(variant, 3, id.index()))
                    .collect();
                assert!(
                    !failing.is_empty() && failing.iter().all(|&l| l == line),
                    "{variant} {values:?} {failing:?}"
                );
            }
        }
    }

    #[test]
    fn both_variants_accept_the_same_placements() {
        let (p, _) = model(5, Variant::Pairwise).unwrap();
        let (g, _) = model(5, Variant::Global).unwrap();
        for code in 0..5u32.pow(5) {
            let values: Vec<Value> = (0..5)
                .map(|i| ((code / 5u32.pow(i)) % 5) as Value)
                .collect();
            assert_eq!(p.is_solution(&values), g.is_solution(&values), "{values:?}");
        }
    }
}
