//! The zebra puzzle (Life International, 1962): five houses, fourteen clues.

use csp_core::{CspError, Model, Relation, Solution, Value, VarId};

/// The five categories and their items, in the order the houses table shows them.
pub const CATEGORIES: [(&str, [&str; 5]); 5] = [
    (
        "nationality",
        [
            "Englishman",
            "Spaniard",
            "Ukrainian",
            "Norwegian",
            "Japanese",
        ],
    ),
    ("colour", ["red", "green", "ivory", "yellow", "blue"]),
    ("drink", ["coffee", "tea", "milk", "orange juice", "water"]),
    (
        "smoke",
        [
            "Old Gold",
            "Kools",
            "Chesterfield",
            "Lucky Strike",
            "Parliament",
        ],
    ),
    ("pet", ["dog", "snails", "fox", "horse", "zebra"]),
];

/// How to post "lives next to" (`|x - y| = 1`), a relation no built-in states directly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum NextTo {
    /// A table of the eight allowed pairs of houses.
    #[default]
    Table,
    /// A closure `|a - b| == 1`, filtered by the generic algorithms.
    Predicate,
}

/// The model: a variable per item (25 in all) holding its house, `0..=4` from the
/// left; the items of a category are all different; each clue is one constraint.
///
/// ```
/// use csp_core::{Config, Solver};
/// use csp_examples::zebra::{NextTo, Zebra};
/// let z = Zebra::new(NextTo::Table)?;
/// let mut solver = Solver::new(&z.model, Config::textbook())?;
/// let s = solver.first().solution.unwrap();
/// assert_eq!(z.owner_of(&s, "zebra"), Some("Japanese"));
/// assert_eq!(z.owner_of(&s, "water"), Some("Norwegian"));
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Debug)]
pub struct Zebra {
    /// The model.
    pub model: Model,
    /// `items[c][i]`: the house of item `i` of category `c` of [`CATEGORIES`].
    pub items: Vec<Vec<VarId>>,
}

impl Zebra {
    /// The puzzle, with "next to" posted as `next_to` says.
    pub fn new(next_to: NextTo) -> Result<Self, CspError> {
        let mut model = Model::new();
        let mut items = Vec::new();
        for (_, names) in CATEGORIES {
            let vars = names
                .iter()
                .map(|n| model.named_int_var(*n, 0..=4))
                .collect::<Result<Vec<_>, _>>()?;
            model.all_different(&vars)?;
            items.push(vars);
        }
        let mut z = Zebra { model, items };
        let v = |z: &Zebra, name: &str| z.var(name);
        let same = [
            ("Englishman", "red"),            // 2
            ("Spaniard", "dog"),              // 3
            ("coffee", "green"),              // 4
            ("Ukrainian", "tea"),             // 5
            ("Old Gold", "snails"),           // 7
            ("Kools", "yellow"),              // 8
            ("Lucky Strike", "orange juice"), // 13
            ("Japanese", "Parliament"),       // 14
        ];
        for (a, b) in same {
            let (a, b) = (v(&z, a)?, v(&z, b)?);
            z.model.equal(a, b)?;
        }
        // 6. The green house is immediately to the right of the ivory house.
        let (green, ivory) = (v(&z, "green")?, v(&z, "ivory")?);
        z.model.linear(&[1, -1], &[green, ivory], Relation::Eq, 1)?;
        // 9. Milk is drunk in the middle house. 10. The Norwegian lives in the first.
        let (milk, norwegian) = (v(&z, "milk")?, v(&z, "Norwegian")?);
        z.model.linear(&[1], &[milk], Relation::Eq, 2)?;
        z.model.linear(&[1], &[norwegian], Relation::Eq, 0)?;
        // 11, 12, 15: neighbours.
        for (a, b) in [
            ("Chesterfield", "fox"),
            ("Kools", "horse"),
            ("Norwegian", "blue"),
        ] {
            let (a, b) = (v(&z, a)?, v(&z, b)?);
            match next_to {
                NextTo::Table => {
                    let pairs = (0..4)
                        .flat_map(|h| [vec![h, h + 1], vec![h + 1, h]])
                        .collect();
                    z.model.table(&[a, b], pairs)?;
                }
                NextTo::Predicate => {
                    z.model
                        .predicate("next to", &[a, b], |x| (x[0] - x[1]).abs() == 1)?;
                }
            }
        }
        Ok(z)
    }

    /// The variable of an item by its name.
    pub fn var(&self, name: &str) -> Result<VarId, CspError> {
        CATEGORIES
            .iter()
            .enumerate()
            .find_map(|(c, (_, names))| {
                names
                    .iter()
                    .position(|n| *n == name)
                    .map(|i| self.items[c][i])
            })
            .ok_or_else(|| CspError::InvalidArgument {
                context: "zebra".into(),
                message: format!("no item named {name}"),
            })
    }

    /// The nationality living in the house of `item` in `solution`.
    pub fn owner_of(&self, solution: &Solution, item: &str) -> Option<&'static str> {
        let house = solution[self.var(item).ok()?];
        let nationalities = &CATEGORIES[0].1;
        (0..5)
            .find(|&i| solution[self.items[0][i]] == house)
            .map(|i| nationalities[i])
    }

    /// The houses as a table, one line per house from the left.
    pub fn show(&self, solution: &Solution) -> String {
        let mut lines = vec![format!(
            "house  {}",
            CATEGORIES
                .iter()
                .map(|(c, _)| format!("{c:<14}"))
                .collect::<String>()
                .trim_end()
        )];
        for house in 0..5 as Value {
            let mut line = format!("{:<7}", house + 1);
            for (c, (_, names)) in CATEGORIES.iter().enumerate() {
                let item = (0..5)
                    .find(|&i| solution[self.items[c][i]] == house)
                    .map_or("?", |i| names[i]);
                line.push_str(&format!("{item:<14}"));
            }
            lines.push(line.trim_end().to_string());
        }
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{Config, Pruning, Solver};

    #[test]
    fn the_norwegian_lives_in_the_first_house_in_the_table() {
        let z = Zebra::new(NextTo::Predicate).unwrap();
        let s = Solver::new(
            &z.model,
            Config::textbook().with_pruning(Pruning::ArcConsistency),
        )
        .unwrap()
        .first()
        .solution
        .unwrap();
        let table = z.show(&s);
        assert_eq!(table.lines().count(), 6);
        assert!(
            table
                .lines()
                .nth(1)
                .unwrap()
                .starts_with("1      Norwegian"),
            "{table}"
        );
    }

    #[test]
    fn unknown_item_is_an_error() {
        let z = Zebra::new(NextTo::Table).unwrap();
        assert!(z.var("unicorn").is_err());
    }
}
