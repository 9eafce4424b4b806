//! Search annotations (`int_search`, `bool_search`, `set_search`, `seq_search`) read into phases: variables with their heuristics; `restart_*` into a restart policy.

use csp_core::{Restarts, ValOrder, VarId};

use crate::ast::{Annotation, Expr};
use crate::error::TranslateError;
use crate::translate::{Context, Scalar};

/// One `int_search` or `bool_search`: decide these variables first, in this way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    /// The variables, in the annotation's order (constants dropped).
    pub vars: Vec<VarId>,
    /// Which of them to decide next.
    pub var_choice: VarChoice,
    /// In which order to try its values.
    pub val_choice: ValChoice,
}

/// The variable choices of FlatZinc search annotations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarChoice {
    /// `input_order`: the first one left.
    InputOrder,
    /// `first_fail`: the smallest domain.
    FirstFail,
    /// `anti_first_fail`: the largest domain.
    AntiFirstFail,
    /// `smallest`: the smallest value in its domain.
    Smallest,
    /// `largest`: the largest value in its domain.
    Largest,
    /// `occurrence`: the most constraints on other undecided variables.
    Occurrence,
    /// `most_constrained`: the smallest domain, ties to the most constraints.
    MostConstrained,
    /// `max_regret`: the largest gap between the two smallest values.
    MaxRegret,
    /// `dom_w_deg`: the smallest domain size over weighted degree.
    DomWDeg,
}

impl VarChoice {
    /// Every choice with its FlatZinc name.
    pub const ALL: [(&'static str, VarChoice); 9] = [
        ("input_order", VarChoice::InputOrder),
        ("first_fail", VarChoice::FirstFail),
        ("anti_first_fail", VarChoice::AntiFirstFail),
        ("smallest", VarChoice::Smallest),
        ("largest", VarChoice::Largest),
        ("occurrence", VarChoice::Occurrence),
        ("most_constrained", VarChoice::MostConstrained),
        ("max_regret", VarChoice::MaxRegret),
        ("dom_w_deg", VarChoice::DomWDeg),
    ];

    /// The choice named `name` in a search annotation.
    ///
    /// ```
    /// use csp_flatzinc::VarChoice;
    /// assert_eq!(VarChoice::from_name("dom_w_deg"), Some(VarChoice::DomWDeg));
    /// assert_eq!(VarChoice::from_name("impact"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|&(_, c)| c)
    }
}

/// The value choices of FlatZinc search annotations.
///
/// `indomain_split` and `indomain_reverse_split` halve the domain (`x <= m | x > m`
/// and `x > m | x <= m`, `m = ⌊(min + max) / 2⌋`) at the `propagators` level, where
/// `fzn-csp` makes binary choices; at the textbook levels (`--pruning`) a node
/// assigns a value, and they try values ascending and descending, the order in
/// which halving reaches them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValChoice {
    /// `indomain_min` (and `indomain`): ascending.
    Min,
    /// `indomain_max`: descending.
    Max,
    /// `indomain_median` and `indomain_middle`: the median first, then outwards.
    Median,
    /// `indomain_split`: lower half first ([`ValOrder::Split`]).
    Split,
    /// `indomain_reverse_split`: upper half first ([`ValOrder::ReverseSplit`]).
    ReverseSplit,
    /// `indomain_random`: shuffled, from the `-r` seed.
    Random,
}

impl ValChoice {
    /// Every choice with its FlatZinc name.
    pub const ALL: [(&'static str, ValChoice); 8] = [
        ("indomain_min", ValChoice::Min),
        ("indomain", ValChoice::Min),
        ("indomain_max", ValChoice::Max),
        ("indomain_median", ValChoice::Median),
        ("indomain_middle", ValChoice::Median),
        ("indomain_split", ValChoice::Split),
        ("indomain_reverse_split", ValChoice::ReverseSplit),
        ("indomain_random", ValChoice::Random),
    ];

    /// The choice named `name` in a search annotation.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|&(_, c)| c)
    }

    /// The csp-core value order that implements it.
    ///
    /// ```
    /// use csp_core::ValOrder;
    /// use csp_flatzinc::ValChoice;
    /// assert_eq!(ValChoice::Median.order(0), ValOrder::MiddleOut);
    /// assert_eq!(ValChoice::Random.order(7), ValOrder::Random(7));
    /// ```
    pub fn order(self, seed: u64) -> ValOrder {
        match self {
            ValChoice::Min => ValOrder::Ascending,
            ValChoice::Max => ValOrder::Descending,
            ValChoice::Split => ValOrder::Split,
            ValChoice::ReverseSplit => ValOrder::ReverseSplit,
            ValChoice::Median => ValOrder::MiddleOut,
            ValChoice::Random => ValOrder::Random(seed),
        }
    }
}

/// The phases of a solve item's annotations, in order (`seq_search` flattened),
/// and its restart annotation if it has one.
pub(crate) fn phases(
    cx: &Context,
    annotations: &[Annotation],
) -> Result<(Vec<Phase>, Option<Restarts>), TranslateError> {
    let mut out = Vec::new();
    let mut restarts = None;
    for ann in annotations {
        if ann.name.starts_with("restart_") {
            let r = restart(ann)?;
            if restarts.replace(r).is_some() {
                return Err(TranslateError::BadArgument {
                    context: format!("annotation `{}`", ann.name),
                    expected: "one restart annotation".to_string(),
                    line: ann.pos.line,
                });
            }
        } else {
            collect(cx, ann, &mut out)?;
        }
    }
    Ok((out, restarts))
}

/// MiniZinc's restart annotations (`restart_none`, `restart_constant(scale)`,
/// `restart_linear(scale)`, `restart_luby(scale)`, `restart_geometric(base,
/// scale)`) as a csp-core policy. MiniZinc's geometric `base` is the growth
/// factor and `scale` the first run's budget; the budgets count failures.
fn restart(ann: &Annotation) -> Result<Restarts, TranslateError> {
    let bad = |expected: &str| TranslateError::BadArgument {
        context: format!("annotation `{}`", ann.name),
        expected: expected.to_string(),
        line: ann.pos.line,
    };
    let positive = |e: &Expr| match e {
        Expr::Int(n) if *n >= 1 => Ok(*n as u64),
        _ => Err(bad("a positive integer scale")),
    };
    match (ann.name.as_str(), ann.args.as_slice()) {
        ("restart_none", []) => Ok(Restarts::Never),
        ("restart_constant", [s]) => Ok(Restarts::Constant {
            scale: positive(s)?,
        }),
        ("restart_linear", [s]) => Ok(Restarts::Linear {
            scale: positive(s)?,
        }),
        ("restart_luby", [s]) => Ok(Restarts::Luby {
            scale: positive(s)?,
        }),
        ("restart_geometric", [f, s]) => {
            let factor = match f {
                Expr::Float(x) => *x,
                Expr::Int(n) => *n as f64,
                _ => return Err(bad("(a growth factor >= 1, a positive integer scale)")),
            };
            if !(factor.is_finite() && factor >= 1.0) {
                return Err(bad("(a growth factor >= 1, a positive integer scale)"));
            }
            Ok(Restarts::Geometric {
                base: positive(s)?,
                factor,
            })
        }
        ("restart_none", _) => Err(bad("no arguments")),
        ("restart_constant" | "restart_linear" | "restart_luby", _) => {
            Err(bad("(a positive integer scale)"))
        }
        ("restart_geometric", _) => Err(bad("(a growth factor >= 1, a positive integer scale)")),
        (other, _) => Err(unsupported(other, ann)),
    }
}

fn unsupported(name: &str, ann: &Annotation) -> TranslateError {
    TranslateError::UnsupportedAnnotation {
        name: name.to_string(),
        line: ann.pos.line,
    }
}

fn collect(cx: &Context, ann: &Annotation, out: &mut Vec<Phase>) -> Result<(), TranslateError> {
    let bad = |expected: &str| TranslateError::BadArgument {
        context: format!("annotation `{}`", ann.name),
        expected: expected.to_string(),
        line: ann.pos.line,
    };
    match ann.name.as_str() {
        "seq_search" => match ann.args.as_slice() {
            [Expr::Array(items)] => {
                for item in items {
                    match item {
                        Expr::Annotation(inner) => collect(cx, inner, out)?,
                        Expr::Ident(name) => {
                            let atom = Annotation {
                                name: name.clone(),
                                args: Vec::new(),
                                pos: ann.pos,
                            };
                            collect(cx, &atom, out)?;
                        }
                        _ => return Err(bad("an array of search annotations")),
                    }
                }
                Ok(())
            }
            _ => Err(bad("an array of search annotations")),
        },
        "int_search" | "bool_search" => {
            let (vars, var_choice, val_choice, strategy) = match ann.args.as_slice() {
                [v, a, b] => (v, a, b, None),
                [v, a, b, s] => (v, a, b, Some(s)),
                _ => return Err(bad("(variables, variable choice, value choice, complete)")),
            };
            fn atom(e: &Expr) -> Option<&str> {
                match e {
                    Expr::Ident(name) => Some(name.as_str()),
                    _ => None,
                }
            }
            let heuristic = || bad("a heuristic name");
            let var_name = atom(var_choice).ok_or_else(heuristic)?;
            let val_name = atom(val_choice).ok_or_else(heuristic)?;
            let var_choice =
                VarChoice::from_name(var_name).ok_or_else(|| unsupported(var_name, ann))?;
            let val_choice =
                ValChoice::from_name(val_name).ok_or_else(|| unsupported(val_name, ann))?;
            if let Some(s) = strategy {
                let s = atom(s).ok_or_else(heuristic)?;
                if s != "complete" {
                    return Err(unsupported(s, ann));
                }
            }
            let what = format!("the variables of `{}`", ann.name);
            let vars = cx
                .scalars(vars, &what)
                .map_err(|_| bad("an array of variables"))?
                .into_iter()
                .filter_map(|s| match s {
                    Scalar::IntVar(v) | Scalar::BoolVar(v) => Some(v),
                    Scalar::Int(_) | Scalar::Bool(_) => None,
                })
                .collect();
            out.push(Phase {
                vars,
                var_choice,
                val_choice,
            });
            Ok(())
        }
        "set_search" => {
            let [sets, var_choice, val_choice, rest @ ..] = ann.args.as_slice() else {
                return Err(bad("(sets, variable choice, value choice, complete)"));
            };
            fn name_of(e: &Expr) -> Option<&str> {
                match e {
                    Expr::Ident(n) => Some(n.as_str()),
                    _ => None,
                }
            }
            let name = |e| name_of(e).ok_or_else(|| bad("a heuristic name"));
            let var_name = name(var_choice)?;
            let var_choice =
                VarChoice::from_name(var_name).ok_or_else(|| unsupported(var_name, ann))?;
            // Gecode's set branchings: the least (or greatest) open element
            // of the first set, put in (indomain) or left out (outdomain).
            let (descending, val_choice) = match name(val_choice)? {
                "indomain_min" | "indomain" => (false, ValChoice::Max),
                "indomain_max" => (true, ValChoice::Max),
                "outdomain_min" => (false, ValChoice::Min),
                "outdomain_max" => (true, ValChoice::Min),
                other => return Err(unsupported(other, ann)),
            };
            match rest {
                [] => {}
                [s] if name(s)? == "complete" => {}
                [s] => return Err(unsupported(name(s)?, ann)),
                _ => return Err(bad("(sets, variable choice, value choice, complete)")),
            }
            let sets = crate::sets::search_sets(cx, sets)
                .ok_or_else(|| bad("an array of set variables"))?;
            let mut vars = Vec::new();
            for set in sets {
                let open = set
                    .elements
                    .into_iter()
                    .map(|(_, b)| b)
                    .filter(|&b| cx.model.domain(b).is_ok_and(|d| d.len() > 1));
                let start = vars.len();
                vars.extend(open);
                if descending {
                    vars[start..].reverse();
                }
            }
            out.push(Phase {
                vars,
                var_choice,
                val_choice,
            });
            Ok(())
        }
        other => Err(unsupported(other, ann)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{TranslateOptions, translate};

    fn plan(solve: &str) -> Result<Vec<Phase>, TranslateError> {
        restarts_of(solve).map(|(p, _)| p)
    }

    fn restarts_of(solve: &str) -> Result<(Vec<Phase>, Option<Restarts>), TranslateError> {
        let src = format!("array [1..2] of var 1..3: q;\nvar bool: b;\nvar 1..3: z;\n{solve}");
        translate(&crate::parse(&src).unwrap(), &TranslateOptions::default())
            .map(|t| (t.phases, t.restarts))
    }

    #[test]
    fn seq_search_gives_phases_in_order() {
        let phases = plan(
            "solve :: seq_search([bool_search([b], input_order, indomain_max, complete),\n\
             int_search(q, dom_w_deg, indomain_split, complete)]) satisfy;",
        )
        .unwrap();
        assert_eq!(phases.len(), 2);
        assert_eq!(
            (
                phases[0].var_choice,
                phases[0].val_choice,
                phases[0].vars.len()
            ),
            (VarChoice::InputOrder, ValChoice::Max, 1)
        );
        assert_eq!(
            (
                phases[1].var_choice,
                phases[1].val_choice,
                phases[1].vars.len()
            ),
            (VarChoice::DomWDeg, ValChoice::Split, 2)
        );
    }

    #[test]
    fn constants_in_a_search_are_skipped() {
        let phases = plan("solve :: int_search([z, 3], smallest, indomain_min) satisfy;").unwrap();
        assert_eq!(phases[0].vars.len(), 1);
    }

    #[test]
    fn unknown_heuristics_and_annotations_are_errors_naming_them() {
        let err = plan("solve :: int_search(q, impact, indomain_min, complete) satisfy;");
        assert_eq!(
            err.unwrap_err().to_string(),
            "line 4: unsupported annotation `impact`"
        );
        let err = plan("solve :: int_search(q, first_fail, outdomain_min, complete) satisfy;");
        assert_eq!(
            err.unwrap_err().to_string(),
            "line 4: unsupported annotation `outdomain_min`"
        );
        let err = plan("solve\n :: restart_random(100) satisfy;");
        assert_eq!(
            err.unwrap_err().to_string(),
            "line 5: unsupported annotation `restart_random`"
        );
        let err = plan("solve :: int_search(q, first_fail, indomain_min, credit) satisfy;");
        assert_eq!(
            err.unwrap_err().to_string(),
            "line 4: unsupported annotation `credit`"
        );
    }

    #[test]
    fn free_search_ignores_annotations() {
        let src = "var 1..3: z;\nsolve :: restart_luby(100) satisfy;";
        let options = TranslateOptions {
            free_search: true,
            ..Default::default()
        };
        let t = translate(&crate::parse(src).unwrap(), &options).unwrap();
        assert!(t.phases.is_empty());
    }

    #[test]
    fn restart_annotations_give_policies() {
        let cases = [
            ("restart_none", Restarts::Never),
            ("restart_constant(50)", Restarts::Constant { scale: 50 }),
            ("restart_linear(7)", Restarts::Linear { scale: 7 }),
            ("restart_luby(100)", Restarts::Luby { scale: 100 }),
            (
                "restart_geometric(1.5, 250)",
                Restarts::Geometric {
                    base: 250,
                    factor: 1.5,
                },
            ),
            (
                "restart_geometric(2, 10)",
                Restarts::Geometric {
                    base: 10,
                    factor: 2.0,
                },
            ),
        ];
        for (ann, expected) in cases {
            let (phases, restarts) = restarts_of(&format!("solve :: {ann} satisfy;")).unwrap();
            assert!(phases.is_empty());
            assert_eq!(restarts, Some(expected), "{ann}");
        }
        // Beside a search annotation, in either order.
        let (phases, restarts) = restarts_of(
            "solve :: restart_luby(10) :: int_search(q, dom_w_deg, indomain_min, complete) satisfy;",
        )
        .unwrap();
        assert_eq!(phases.len(), 1);
        assert_eq!(restarts, Some(Restarts::Luby { scale: 10 }));
        assert_eq!(restarts_of("solve satisfy;").unwrap().1, None);
    }

    #[test]
    fn bad_restart_annotations_are_errors() {
        for (ann, message) in [
            ("restart_luby(0)", "expected a positive integer scale"),
            ("restart_luby", "expected (a positive integer scale)"),
            ("restart_none(3)", "expected no arguments"),
            (
                "restart_geometric(0.5, 10)",
                "expected (a growth factor >= 1",
            ),
            ("restart_geometric(1.5)", "expected (a growth factor >= 1"),
            ("restart_constant(-4)", "expected a positive integer scale"),
            (
                "restart_luby(5) :: restart_none",
                "expected one restart annotation",
            ),
        ] {
            let err = restarts_of(&format!("solve :: {ann} satisfy;"))
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("line 4: "), "{ann}: {err}");
            assert!(err.contains(message), "{ann}: {err}");
        }
    }
}
