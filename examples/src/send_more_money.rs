//! Cryptarithms such as SEND + MORE = MONEY: one linear equation and all-different.

use std::fmt;
use std::str::FromStr;

use csp_core::{CspError, Model, Relation, Value, VarId};

use crate::InputError;

/// The most letters in one word (the place values must fit in an `i64`).
pub const MAX_WORD_LEN: usize = 18;

/// An addition puzzle: words whose letters stand for distinct digits, the
/// leading letter of a word of two or more letters not zero.
///
/// ```
/// use csp_examples::send_more_money::Cryptarithm;
/// let p: Cryptarithm = "SEND + MORE = MONEY".parse()?;
/// assert_eq!(p.letters(), &['S', 'E', 'N', 'D', 'M', 'O', 'R', 'Y']);
/// assert_eq!(p.to_string(), "SEND + MORE = MONEY");
/// let e = "SEND + MORE = ".parse::<Cryptarithm>().unwrap_err();
/// assert_eq!(e.to_string(), "column 15: expected a word after '='");
/// # Ok::<(), csp_examples::InputError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cryptarithm {
    addends: Vec<String>,
    sum: String,
    letters: Vec<char>,
}

impl Cryptarithm {
    /// The classic puzzle of Dudeney (1924).
    pub fn send_more_money() -> Self {
        // A valid literal: parsing cannot fail.
        "SEND + MORE = MONEY"
            .parse()
            .unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// The distinct letters, in order of first appearance.
    pub fn letters(&self) -> &[char] {
        &self.letters
    }

    /// The words added up.
    pub fn addends(&self) -> &[String] {
        &self.addends
    }

    /// The word they add up to.
    pub fn sum(&self) -> &str {
        &self.sum
    }

    /// The number a word spells under `digits` (one per letter of [`letters`](Self::letters)).
    pub fn value_of(&self, word: &str, digits: &[Value]) -> Value {
        word.chars().fold(0, |acc, ch| {
            let i = self.letters.iter().position(|&l| l == ch).unwrap_or(0);
            acc * 10 + digits[i]
        })
    }

    /// Whether `digits` solves the puzzle, checked by arithmetic.
    pub fn is_solution(&self, digits: &[Value]) -> bool {
        let distinct = digits
            .iter()
            .enumerate()
            .all(|(i, d)| !digits[..i].contains(d));
        let leading_ok = self
            .addends
            .iter()
            .chain(std::iter::once(&self.sum))
            .all(|w| w.len() == 1 || self.value_of(&w[..1], digits) != 0);
        let total: Value = self.addends.iter().map(|w| self.value_of(w, digits)).sum();
        distinct
            && leading_ok
            && digits.iter().all(|d| (0..=9).contains(d))
            && total == self.value_of(&self.sum, digits)
    }

    /// `digits` written into the puzzle: `9567 + 1085 = 10652`.
    pub fn show(&self, digits: &[Value]) -> String {
        let words: Vec<String> = self
            .addends
            .iter()
            .map(|w| self.value_of(w, digits).to_string())
            .collect();
        format!(
            "{} = {}",
            words.join(" + "),
            self.value_of(&self.sum, digits)
        )
    }
}

impl fmt::Display for Cryptarithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.addends.join(" + "), self.sum)
    }
}

impl FromStr for Cryptarithm {
    type Err = InputError;

    /// `WORD + WORD [+ WORD ...] = WORD`, letters A-Z (case ignored), spaces allowed.
    fn from_str(s: &str) -> Result<Self, InputError> {
        let mut addends: Vec<String> = Vec::new();
        let mut word = String::new();
        let mut word_start = 0;
        let mut closed = false; // a space ended the current word
        let mut equals = false;
        let end = s.chars().count() + 1;
        let finish = |word: &mut String, col: usize, what: &str| -> Result<String, InputError> {
            if word.is_empty() {
                return Err(InputError::at_column(
                    col,
                    format!("expected a word {what}"),
                ));
            }
            if word.len() > MAX_WORD_LEN {
                return Err(InputError::at_column(
                    col,
                    format!("a word has at most {MAX_WORD_LEN} letters"),
                ));
            }
            Ok(std::mem::take(word))
        };
        for (i, ch) in s.chars().enumerate() {
            let col = i + 1;
            match ch {
                c if c.is_ascii_alphabetic() => {
                    if closed {
                        return Err(InputError::at_column(
                            col,
                            "expected '+' or '=' between words",
                        ));
                    }
                    if word.is_empty() {
                        word_start = col;
                    }
                    word.push(c.to_ascii_uppercase());
                }
                c if c.is_whitespace() => closed = !word.is_empty(),
                '+' if equals => {
                    return Err(InputError::at_column(
                        col,
                        "'+' after '=' (the sum is one word)",
                    ));
                }
                '=' if equals => return Err(InputError::at_column(col, "a second '='")),
                '+' | '=' => {
                    let at = if word.is_empty() { col } else { word_start };
                    addends.push(finish(&mut word, at, &format!("before {ch:?}"))?);
                    closed = false;
                    equals = ch == '=';
                }
                c => {
                    return Err(InputError::at_column(
                        col,
                        format!("unexpected {c:?} (expected letters, '+' or '=')"),
                    ));
                }
            }
        }
        if !equals {
            return Err(InputError::at_column(end, "expected '=' and the sum"));
        }
        let at = if word.is_empty() { end } else { word_start };
        let total = finish(&mut word, at, "after '='")?;
        let mut letters = Vec::new();
        for ch in addends
            .iter()
            .chain(std::iter::once(&total))
            .flat_map(|w| w.chars())
        {
            if !letters.contains(&ch) {
                letters.push(ch);
            }
        }
        if letters.len() > 10 {
            return Err(InputError::new(format!(
                "{} different letters, but there are only 10 digits",
                letters.len()
            )));
        }
        Ok(Cryptarithm {
            addends,
            sum: total,
            letters,
        })
    }
}

/// The model: a digit per letter, all different, leading letters not zero, and
/// one linear equation `sum of addends - sum = 0` with place values as
/// coefficients (SEND + MORE = MONEY: `1000 S + 91 E - 90 N + D - 9000 M - 900 O + 10 R - Y = 0`).
#[derive(Debug)]
pub struct CryptarithmModel {
    /// The model.
    pub model: Model,
    /// The digit of each letter, in the order of [`Cryptarithm::letters`].
    pub digits: Vec<VarId>,
}

impl CryptarithmModel {
    /// Builds the model of `puzzle`.
    ///
    /// ```
    /// use csp_core::{Config, Solver};
    /// use csp_examples::send_more_money::{Cryptarithm, CryptarithmModel};
    /// let p = Cryptarithm::send_more_money();
    /// let m = CryptarithmModel::new(&p)?;
    /// let all: Vec<_> = Solver::new(&m.model, Config::textbook())?.solutions().collect();
    /// assert_eq!(all.len(), 1);
    /// assert_eq!(p.show(&all[0].values_of(&m.digits)), "9567 + 1085 = 10652");
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn new(puzzle: &Cryptarithm) -> Result<Self, CspError> {
        let mut model = Model::new();
        let leading = |ch: char| {
            puzzle
                .addends
                .iter()
                .chain(std::iter::once(&puzzle.sum))
                .any(|w| w.len() > 1 && w.starts_with(ch))
        };
        let digits = puzzle
            .letters
            .iter()
            .map(|&ch| model.named_int_var(ch.to_string(), if leading(ch) { 1..=9 } else { 0..=9 }))
            .collect::<Result<Vec<_>, _>>()?;
        let mut coeffs: Vec<Value> = vec![0; digits.len()];
        let mut add = |word: &str, sign: Value| {
            let mut place: Value = 1;
            for ch in word.chars().rev() {
                let i = puzzle.letters.iter().position(|&l| l == ch).unwrap_or(0);
                coeffs[i] += sign * place;
                place = place.saturating_mul(10);
            }
        };
        for w in &puzzle.addends {
            add(w, 1);
        }
        add(&puzzle.sum, -1);
        model.linear(&coeffs, &digits, Relation::Eq, 0)?;
        model.all_different(&digits)?;
        Ok(CryptarithmModel { model, digits })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coefficients_of_send_more_money_are_the_place_values() {
        let m = CryptarithmModel::new(&Cryptarithm::send_more_money()).unwrap();
        let (_, c) = m.model.constraints().next().unwrap();
        assert_eq!(c.name(), "linear");
        assert_eq!(c.scope().len(), 8);
    }

    #[test]
    fn lowercase_and_many_addends_parse() {
        let p: Cryptarithm = "a+b+c=de".parse().unwrap();
        assert_eq!(p.addends().len(), 3);
        assert_eq!(p.sum(), "DE");
    }

    #[test]
    fn malformed_puzzles_name_the_column() {
        let col = |s: &str| s.parse::<Cryptarithm>().unwrap_err().column;
        assert_eq!(col("SEND + + MORE = MONEY"), Some(8));
        assert_eq!(col("SEND * MORE = MONEY"), Some(6));
        assert_eq!(col("SEND + MORE"), Some(12));
        assert_eq!(col("A = B = C"), Some(7));
        assert_eq!(col("A = B C"), Some(7));
    }

    #[test]
    fn eleven_letters_are_too_many() {
        let e = "ABCDEF + GHIJK = AK".parse::<Cryptarithm>().unwrap_err();
        assert!(e.message.starts_with("11 different letters"), "{e}");
    }

    #[test]
    fn solution_check_rejects_leading_zero_and_wrong_sums() {
        let p = Cryptarithm::send_more_money();
        assert!(p.is_solution(&[9, 5, 6, 7, 1, 0, 8, 2]));
        assert!(!p.is_solution(&[9, 5, 6, 7, 1, 0, 8, 3]));
    }
}
