//! Set variables (`var set of`): every FlatZinc set constraint, plain and
//! reified, with variables and constants as arguments, against a brute force
//! that enumerates the sets and checks MiniZinc's meaning of each constraint;
//! the printed solutions are compared one by one.

use std::collections::BTreeSet;

use csp_core::{Pruning, VarOrder};
use csp_flatzinc::{Options, parse, run, translate};

/// A tiny deterministic generator (xorshift), so that failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A subset of `1..=4`.
    fn subset(&mut self) -> Vec<i64> {
        (1..=4).filter(|_| self.below(2) == 0).collect()
    }
    /// A subset of four values at and near the ends of `i64`.
    fn edge_subset(&mut self) -> Vec<i64> {
        [i64::MIN + 1, -1, 3, i64::MAX]
            .into_iter()
            .filter(|_| self.below(2) == 0)
            .collect()
    }
}

fn literal(set: &[i64]) -> String {
    let items: Vec<String> = set.iter().map(i64::to_string).collect();
    format!("{{{}}}", items.join(","))
}

/// The subsets of `universe`, each sorted.
fn subsets(universe: &[i64]) -> Vec<Vec<i64>> {
    (0..1u32 << universe.len())
        .map(|mask| {
            (0..universe.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| universe[i])
                .collect()
        })
        .collect()
}

/// One random instance: three set variables `x`, `y`, `z` with random
/// universes, an integer `i`, a Boolean `b`, and one constraint.
struct Instance {
    universes: [Vec<i64>; 3],
    /// A constant standing in for `y` (`None`: `y` itself).
    y_const: Option<Vec<i64>>,
    name: &'static str,
}

const INT_RANGE: std::ops::RangeInclusive<i64> = -1..=4;
/// The set constraints of `SUPPORTED` (`set_in` and `set_in_reif` also
/// take constant sets, as integer builtins).
fn names() -> impl Iterator<Item = &'static str> {
    csp_flatzinc::SUPPORTED
        .iter()
        .copied()
        .filter(|n| n.starts_with("set_") || n.ends_with("_set_element"))
}
/// The constant sets of `array_set_element`.
const TABLE: [&[i64]; 3] = [&[1, 2], &[], &[2, 4]];

impl Instance {
    fn y(&self) -> String {
        match &self.y_const {
            Some(c) => literal(c),
            None => "y".into(),
        }
    }

    fn fzn(&self) -> String {
        let mut s = String::new();
        for (name, u) in ["x", "y", "z"].iter().zip(&self.universes) {
            s.push_str(&format!(
                "var set of {}: {name} :: output_var;\n",
                literal(u)
            ));
        }
        s.push_str("var -1..4: i :: output_var;\nvar bool: b :: output_var;\n");
        let y = self.y();
        let c = match self.name {
            "set_card" => "set_card(x, i)".to_string(),
            "set_in" => "set_in(i, x)".to_string(),
            "set_in_reif" => "set_in_reif(i, x, b)".to_string(),
            "array_set_element" => {
                let t: Vec<String> = TABLE.iter().map(|s| literal(s)).collect();
                format!("array_set_element(i, [{}], z)", t.join(", "))
            }
            "array_var_set_element" => format!("array_var_set_element(i, [x, {y}], z)"),
            n if ["union", "intersect", "diff", "symdiff"]
                .iter()
                .any(|o| n.ends_with(o)) =>
            {
                format!("{n}(x, {y}, z)")
            }
            n if n.ends_with("_reif") => format!("{n}(x, {y}, b)"),
            n => format!("{n}(x, {y})"),
        };
        s.push_str(&format!("constraint {c};\nsolve satisfy;\n"));
        s
    }

    /// Whether the constraint holds.
    fn holds(&self, x: &[i64], y: &[i64], z: &[i64], i: i64, b: bool) -> bool {
        let set = |v: &[i64]| v.iter().copied().collect::<BTreeSet<i64>>();
        let (sx, sy) = (set(x), set(y));
        let value = |v: BTreeSet<i64>| v.into_iter().collect::<Vec<i64>>();
        // MiniZinc orders sets as their increasing sequences, lexicographically.
        match self.name {
            "set_card" => x.len() as i64 == i,
            "set_in" => sx.contains(&i),
            "set_in_reif" => b == sx.contains(&i),
            "set_union" => value(&sx | &sy) == z,
            "set_intersect" => value(&sx & &sy) == z,
            "set_diff" => value(&sx - &sy) == z,
            "set_symdiff" => value(&sx ^ &sy) == z,
            "set_eq" => sx == sy,
            "set_eq_reif" => b == (sx == sy),
            "set_ne" => sx != sy,
            "set_ne_reif" => b == (sx != sy),
            "set_subset" => sx.is_subset(&sy),
            "set_subset_reif" => b == sx.is_subset(&sy),
            "set_superset" => sx.is_superset(&sy),
            "set_superset_reif" => b == sx.is_superset(&sy),
            "set_le" => x <= y,
            "set_le_reif" => b == (x <= y),
            "set_lt" => x < y,
            "set_lt_reif" => b == (x < y),
            "array_set_element" => (1..=3).contains(&i) && TABLE[i as usize - 1] == z,
            "array_var_set_element" => match i {
                1 => x == z,
                2 => y == z,
                _ => false,
            },
            other => panic!("no meaning for {other}"),
        }
    }

    /// Every solution as fzn-csp prints it (`y` is printed even when a
    /// constant stands for it in the constraint).
    fn brute_force(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for x in subsets(&self.universes[0]) {
            for y in subsets(&self.universes[1]) {
                let used = self.y_const.as_ref().unwrap_or(&y);
                for z in subsets(&self.universes[2]) {
                    for i in INT_RANGE {
                        for b in [false, true] {
                            if self.holds(&x, used, &z, i, b) {
                                out.insert(format!(
                                    "x = {};\ny = {};\nz = {};\ni = {i};\nb = {b};\n",
                                    literal(&x),
                                    literal(&y),
                                    literal(&z)
                                ));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// fzn-csp's solutions of `src`, all of them.
fn solutions(src: &str, pruning: Pruning) -> BTreeSet<String> {
    let options = Options {
        all_solutions: true,
        pruning,
        var_order: Some(VarOrder::Input),
        ..Default::default()
    };
    let mut out = Vec::new();
    run(src, &options, &mut out).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let text = String::from_utf8(out).unwrap();
    text.split("----------\n")
        .filter(|s| s.contains("x = "))
        .map(|s| s.replace(", ", ","))
        .collect()
}

#[test]
fn set_constraints_agree_with_brute_force() {
    assert_eq!(
        names().count(),
        21,
        "a set constraint without a meaning here"
    );
    let mut rng = Rng(0x5e7_5e7_5e7);
    for round in 0..16 {
        for name in names() {
            // Every fourth round the values sit at and near the ends of i64.
            let edge = round % 4 == 3;
            let mut subset = || {
                if edge {
                    rng.edge_subset()
                } else {
                    rng.subset()
                }
            };
            let universes = [subset(), subset(), subset()];
            let y_const = (round % 3 == 2 && !name.starts_with("array_set")).then(subset);
            let inst = Instance {
                universes,
                y_const,
                name,
            };
            let src = inst.fzn();
            let expected = inst.brute_force();
            // Forward checking refuses variables as wide as i64 (the order's
            // maxima are): there, the propagators level only.
            let levels: &[Pruning] = match edge {
                true => &[Pruning::Propagators],
                false => &[Pruning::Propagators, Pruning::ForwardChecking],
            };
            for &pruning in levels {
                let got = solutions(&src, pruning);
                assert_eq!(got, expected, "{name} at {pruning:?}\n{src}");
            }
        }
    }
}

#[test]
fn set_variables_print_as_sets_and_arrays_of_sets() {
    let src = "var set of 1..3: s :: output_var;\n\
               array [1..2] of var set of 1..3: a :: output_array([1..2]);\n\
               constraint set_card(s, 2);\nconstraint set_eq(a[1], s);\n\
               constraint set_eq(a[2], 1..0);\nconstraint set_in(3, s);\n\
               solve :: set_search([s], input_order, indomain_min, complete) satisfy;\n";
    let mut out = Vec::new();
    run(src, &Options::default(), &mut out).unwrap();
    // In the set first, smallest element first: {1,3}.
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "s = {1,3};\na = array1d(1..2, [{1,3}, {}]);\n----------\n"
    );
}

#[test]
fn set_search_value_choices_order_the_elements() {
    let src = |val: &str| {
        format!(
            "var set of 1..3: s :: output_var;\nconstraint set_card(s, 1);\n\
             solve :: set_search([s], input_order, {val}, complete) satisfy;\n"
        )
    };
    let first = |val: &str| {
        let mut out = Vec::new();
        run(&src(val), &Options::default(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(first("indomain_min"), "s = {1};");
    assert_eq!(first("indomain_max"), "s = {3};");
    // Out first: 1 leaves, then 2, and the last one left is in.
    assert_eq!(first("outdomain_min"), "s = {3};");
    assert_eq!(first("outdomain_max"), "s = {1};");
}

#[test]
fn declared_sets_are_decided_first_in_input_order() {
    let src = "var set of 1..4: s :: output_var;\nvar set of 1..4: t :: output_var;\n\
               constraint set_card(s, 2);\nconstraint set_card(t, 1);\n\
               constraint set_subset(t, s);\nsolve satisfy;\n";
    let t = translate(&parse(src).unwrap(), &Default::default()).unwrap();
    assert_eq!(t.set_decisions.len(), 8);
    assert_eq!(t.set_elements.len(), 8);
    let mut out = Vec::new();
    run(src, &Options::default(), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "s = {1,2};\nt = {1};\n----------\n"
    );
}

#[test]
fn unbounded_and_huge_set_variables_are_clear_errors() {
    for (src, needle) in [
        ("var set of int: s;\nsolve satisfy;", "finite universe"),
        (
            "var set of 1..100000000: s;\nsolve satisfy;",
            "possible elements",
        ),
        ("var set of 1.0..2.0: s;\nsolve satisfy;", "integer set"),
    ] {
        let err = match parse(src) {
            Ok(ast) => translate(&ast, &Default::default())
                .unwrap_err()
                .to_string(),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(needle), "{src}: {err}");
    }
}

#[test]
fn misused_sets_are_clear_errors() {
    for (src, needle) in [
        (
            "var set of 1..3: s = 5;\nsolve satisfy;",
            "a set of integers",
        ),
        (
            "var set of 1..3: s;\nconstraint int_le(s, 3);\nsolve satisfy;",
            "an integer",
        ),
        ("var set of 1..3: s;\nsolve minimize s;", "an integer"),
        (
            "var 1..3: x;\nconstraint set_card(x, 2);\nsolve satisfy;",
            "a set of integers",
        ),
        (
            "var set of 1..3: s;\nconstraint set_card(s);\nsolve satisfy;",
            "argument",
        ),
        (
            "var set of 1..3: s;\nsolve :: set_search(s, input_order, indomain_min, complete) satisfy;",
            "an array of set variables",
        ),
        (
            "var set of 1..3: s;\nsolve :: set_search([s], input_order, indomain_median, complete) satisfy;",
            "indomain_median",
        ),
        (
            "array [1..2000] of var set of 1..1000000: a;\nsolve satisfy;",
            "memory",
        ),
    ] {
        let err = translate(&parse(src).unwrap(), &Default::default())
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.contains(needle), "{src}: {err}");
    }
}
