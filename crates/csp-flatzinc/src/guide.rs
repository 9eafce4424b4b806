//! The objective's guide for the default search (issue 30, item 7): which
//! value of each variable makes the objective best, and how far each
//! variable can move it.
//!
//! MiniZinc writes an objective as a chain of defining constraints: the
//! objective is `int_lin_eq(..) :: defines_var(obj)` over terms, a term may
//! be `bool2int(b, t) :: defines_var(t)` or `array_int_element(i, costs, t)
//! :: defines_var(t)`, or itself a sum. Walking that chain from the objective
//! gives each variable a *weight* (how much one more unit of it adds to the
//! objective, signed so that more is better: +1 for the objective of a
//! maximisation, -1 for a minimisation) and, for the index of an element,
//! the table of what each index adds. An unannotated optimisation model then
//! tries first, for each such variable, the value with the best
//! contribution: the largest value of a variable that counts positively, the
//! smallest of one that counts negatively, the index of the best entry of a
//! cost table. The other variables keep the default order (smallest first).
//!
//! The walk follows only defining constraints (`defines_var`) and views, in
//! topological order from the objective, so that a variable reached along
//! several paths gets the sum of its shares; it takes time linear in the
//! size of the constraints it visits.

use crate::hash::HashMap;

use csp_core::branching::Sweep;
use csp_core::{Choice, Domain, Goal, Value, ValueContext, ValueSelector, VarId};

use crate::ast::{self, Annotation, Expr};
use crate::translate::{Context, Scalar, Symbol};

/// Domains up to this many values (and no more than the entries of their
/// cost tables) get their values ranked one by one when a cost table
/// applies; wider ones are walked by the sign of their weight.
const RANKED_UP_TO: u128 = 1 << 16;

/// At most this many cost-table entries are copied by the walk (32 MB);
/// tables met once the budget is spent, and tables longer than
/// [`RANKED_UP_TO`], rank nothing.
const TABLE_BUDGET: usize = 1 << 22;

/// How the default search orders one variable's values.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueGuide {
    /// Smallest first (larger values make the objective worse).
    Up,
    /// Largest first (larger values make the objective better).
    Down,
    /// These values in this order: the best contribution to the objective
    /// first, ties smallest first. Lists every value of the declared domain.
    Ranked(Vec<Value>),
}

/// One variable of the objective: its value order and its *stake*, how far
/// its value can move the objective (the best contribution minus the worst
/// over its declared domain).
#[derive(Clone, Debug, PartialEq)]
pub struct Guided {
    /// The variable (never a view, never the objective itself).
    pub var: VarId,
    /// Its value order.
    pub values: ValueGuide,
    /// How far its value can move the objective.
    pub stake: f64,
}

/// What a defining constraint makes of the variable it defines.
enum Edge {
    /// `defined = factor * var + ...`.
    Linear(VarId, f64),
    /// `defined = table[scale * var + offset]` (1-based; scale 1 and offset
    /// 0 unless the index is a view of `var`).
    Table(VarId, Table),
}

/// A cost table and how a variable's value indexes it.
struct Table {
    entries: Vec<Value>,
    scale: Value,
    offset: Value,
}

impl Table {
    /// The entry that `value` selects, if any.
    fn entry(&self, value: Value) -> Option<Value> {
        let i = value
            .checked_mul(self.scale)?
            .checked_add(self.offset)?
            .checked_sub(1)?;
        self.entries.get(usize::try_from(i).ok()?).copied()
    }
}

/// The guided variables of the objective of `ast`, sorted by variable;
/// empty for a satisfaction model. Constraints it cannot read are left out,
/// never an error.
pub(crate) fn objective_guide(
    cx: &mut Context,
    ast: &ast::Model,
    objective: Option<(VarId, Goal)>,
) -> Result<Vec<Guided>, crate::TranslateError> {
    let Some((objective, goal)) = objective else {
        return Ok(Vec::new());
    };
    // The defining constraint of each variable (the first one).
    let mut defined_by: HashMap<VarId, usize> = HashMap::default();
    for (i, item) in ast.constraints.iter().enumerate() {
        if !matches!(
            item.name.as_str(),
            "int_lin_eq" | "bool2int" | "array_int_element"
        ) {
            continue;
        }
        cx.poll()?;
        let Some(defines) = Annotation::find(&item.annotations, "defines_var") else {
            continue;
        };
        if let Some(v) = defines.args.first().and_then(|e| var_of(cx, e)) {
            defined_by.entry(v).or_insert(i);
        }
    }
    // `budget`: how many more table entries may be copied (`None`: copy
    // none, the tables' entries are left empty).
    let edges = |cx: &Context, v: VarId, budget: Option<&mut usize>| -> Vec<Edge> {
        if let Some((base, scale, _)) = cx.model.view_of(v) {
            return vec![Edge::Linear(base, scale as f64)];
        }
        let Some(&i) = defined_by.get(&v) else {
            return Vec::new();
        };
        let item = &ast.constraints[i];
        match (item.name.as_str(), &item.args[..]) {
            ("int_lin_eq", [coeffs, vars, _]) => {
                let (Ok(coeffs), Ok(vars)) = (cx.ints(coeffs, ""), cx.scalars(vars, "")) else {
                    return Vec::new();
                };
                let vars: Vec<Option<VarId>> = vars.iter().map(|s| scalar_var(*s)).collect();
                let Some(k) = vars.iter().position(|&x| x == Some(v)) else {
                    return Vec::new();
                };
                let own = coeffs.get(k).copied().unwrap_or(0);
                if own == 0 || coeffs.len() != vars.len() {
                    return Vec::new();
                }
                (0..vars.len())
                    .filter(|&j| j != k)
                    .filter_map(|j| {
                        let x = vars[j].filter(|&x| x != v)?;
                        Some(Edge::Linear(x, -(coeffs[j] as f64) / own as f64))
                    })
                    .collect()
            }
            ("bool2int", [b, i]) if var_of(cx, i) == Some(v) => var_of(cx, b)
                .map(|b| Edge::Linear(b, 1.0))
                .into_iter()
                .collect(),
            ("array_int_element", [index, table, result]) if var_of(cx, result) == Some(v) => {
                let len = table_len(cx, table).filter(|&n| n <= RANKED_UP_TO as usize);
                let entries = match (len, budget) {
                    (None, _) => return Vec::new(),
                    (Some(_), None) => Ok(Vec::new()),
                    (Some(n), Some(budget)) if n <= *budget => {
                        *budget -= n;
                        cx.ints(table, "")
                    }
                    // The budget is spent: the edge stays (the walk's
                    // counts need it), without entries.
                    (Some(_), Some(_)) => Ok(Vec::new()),
                };
                match (var_of(cx, index), entries) {
                    (Some(index), Ok(entries)) => {
                        let (var, scale, offset) = cx.model.view_of(index).unwrap_or((index, 1, 0));
                        vec![Edge::Table(
                            var,
                            Table {
                                entries,
                                scale,
                                offset,
                            },
                        )]
                    }
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    };
    // The variables the objective depends on, and how many definitions
    // (among them) each one appears in.
    let mut indegree: HashMap<VarId, usize> = HashMap::default();
    let mut stack = vec![objective];
    indegree.insert(objective, 0);
    while let Some(v) = stack.pop() {
        cx.poll()?;
        for edge in edges(cx, v, None) {
            let (Edge::Linear(x, _) | Edge::Table(x, _)) = edge;
            if x == v {
                // `bool2int(b, i)` where `i` names `b` itself.
                continue;
            }
            let seen = indegree.contains_key(&x);
            *indegree.entry(x).or_insert(0) += 1;
            if !seen {
                stack.push(x);
            }
        }
    }
    // Weights and tables, in topological order from the objective (a
    // variable on a cycle of definitions is never reached).
    let mut weight: HashMap<VarId, f64> = HashMap::default();
    let mut tables: HashMap<VarId, Vec<(f64, Table)>> = HashMap::default();
    weight.insert(objective, if goal == Goal::Maximize { 1.0 } else { -1.0 });
    let mut ready = vec![objective];
    let mut budget = TABLE_BUDGET;
    while let Some(v) = ready.pop() {
        cx.poll()?;
        let w = weight.get(&v).copied().unwrap_or(0.0);
        for edge in edges(cx, v, Some(&mut budget)) {
            if let Edge::Linear(x, _) | Edge::Table(x, _) = &edge
                && *x == v
            {
                continue;
            }
            let x = match edge {
                Edge::Linear(x, factor) => {
                    *weight.entry(x).or_insert(0.0) += w * factor;
                    x
                }
                Edge::Table(x, table) => {
                    tables.entry(x).or_default().push((w, table));
                    x
                }
            };
            if let Some(d) = indegree.get_mut(&x) {
                *d -= 1;
                if *d == 0 {
                    ready.push(x);
                }
            }
        }
    }
    let mut guided = Vec::new();
    for (&var, &d) in &indegree {
        if d != 0 || var == objective || cx.model.view_of(var).is_some() {
            continue;
        }
        let w = weight.get(&var).copied().unwrap_or(0.0);
        let tables = tables.remove(&var).unwrap_or_default();
        let Ok(domain) = cx.model.domain(var) else {
            continue;
        };
        let Some((lo, hi)) = domain.bounds() else {
            continue;
        };
        if let Some(g) = guide(domain, lo, hi, w, &tables) {
            guided.push(Guided { var, ..g });
        }
    }
    guided.sort_by_key(|g| g.var);
    Ok(guided)
}

/// The guide of a variable of domain `domain` (bounds `lo..=hi`), weight
/// `w` and cost tables `tables`; `None` if it has no share in the
/// objective. The `var` field is a placeholder.
fn guide(domain: &Domain, lo: Value, hi: Value, w: f64, tables: &[(f64, Table)]) -> Option<Guided> {
    let width = (hi as f64 - lo as f64) * w.abs();
    let by_sign = |w: f64| {
        let values = if w > 0.0 {
            ValueGuide::Down
        } else {
            ValueGuide::Up
        };
        Guided {
            var: VarId::new(0),
            values,
            stake: width,
        }
    };
    // A ranked list is no longer than the variable's tables together (so
    // that the lists take memory in proportion to the file) nor than
    // RANKED_UP_TO.
    let entries: usize = tables.iter().map(|(_, t)| t.entries.len()).sum();
    if tables.is_empty() || domain.len() > RANKED_UP_TO || domain.len() > entries as u128 {
        return (w != 0.0).then(|| by_sign(w));
    }
    let score = |v: Value| {
        let mut s = w * v as f64;
        for (tw, table) in tables {
            if let Some(c) = table.entry(v) {
                s += tw * c as f64;
            }
        }
        s
    };
    let mut scored: Vec<(f64, Value)> =
        domain.values().into_iter().map(|v| (score(v), v)).collect();
    // Best score first, ties smallest value first (the sort is stable and
    // the values come sorted).
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let best = scored.first()?.0;
    let worst = scored.last()?.0;
    Some(Guided {
        var: VarId::new(0),
        values: ValueGuide::Ranked(scored.into_iter().map(|(_, v)| v).collect()),
        stake: best - worst,
    })
}

/// How many entries an array argument has, without copying it.
fn table_len(cx: &Context, e: &Expr) -> Option<usize> {
    match e {
        Expr::Array(items) => Some(items.len()),
        Expr::Ident(name) => match cx.symbol(name).ok()? {
            Symbol::Array(items) => Some(items.len()),
            _ => None,
        },
        _ => None,
    }
}

/// The variable an expression names (a constant names none).
fn var_of(cx: &Context, e: &Expr) -> Option<VarId> {
    cx.scalar(e, "").ok().and_then(scalar_var)
}

fn scalar_var(s: Scalar) -> Option<VarId> {
    match s {
        Scalar::IntVar(v) | Scalar::BoolVar(v) => Some(v),
        Scalar::Int(_) | Scalar::Bool(_) => None,
    }
}

/// Orders the values of the guided variables by their guide (the
/// objective's, or 1 first for the elements of set variables) and the
/// others by `rest`.
pub(crate) struct GuidedValues<R> {
    guided: Vec<Guided>,
    rest: R,
}

impl<R> GuidedValues<R> {
    /// `guided` sorted by variable.
    pub(crate) fn new(guided: Vec<Guided>, rest: R) -> Self {
        GuidedValues { guided, rest }
    }

    fn find(&self, var: VarId) -> Option<&ValueGuide> {
        let k = self.guided.binary_search_by_key(&var, |g| g.var).ok()?;
        Some(&self.guided[k].values)
    }
}

impl<R: ValueSelector> ValueSelector for GuidedValues<R> {
    fn order(&mut self, var: VarId, ctx: &mut ValueContext<'_>, out: &mut Vec<Value>) {
        match self.find(var) {
            None => self.rest.order(var, ctx, out),
            Some(ValueGuide::Up) => out.extend(ctx.domains().values(var)),
            Some(ValueGuide::Down) => {
                out.extend(ctx.domains().values(var));
                out.reverse();
            }
            Some(ValueGuide::Ranked(values)) => {
                let d = ctx.domains();
                out.extend(values.iter().copied().filter(|&v| d.contains(var, v)));
            }
        }
    }

    fn sweep(&self, var: VarId) -> Option<Sweep> {
        match self.find(var) {
            None => self.rest.sweep(var),
            Some(ValueGuide::Up) => Some(Sweep::Up),
            Some(ValueGuide::Down) => Some(Sweep::Down),
            Some(ValueGuide::Ranked(_)) => None,
        }
    }

    fn split(&self, var: VarId) -> Option<Choice> {
        match self.find(var) {
            None => self.rest.split(var),
            Some(_) => None,
        }
    }

    fn name(&self) -> &str {
        if self.guided.is_empty() {
            self.rest.name()
        } else {
            "guided"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Options, parse, solve, translate};

    /// The guide of each guided variable of `src`, by name.
    fn guides(src: &str) -> Vec<(String, ValueGuide, f64)> {
        let t = translate(&parse(src).unwrap(), &Default::default()).unwrap();
        let mut out: Vec<_> = t
            .objective_guide
            .iter()
            .map(|g| (t.model.var_name(g.var), g.values.clone(), g.stake))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    const SUM: &str = "var 0..1: a;\nvar 0..1: b;\nvar 0..3: c;\nvar -10..10: obj :: is_defined_var;\n\
        constraint int_lin_eq([3,-2,1,-1],[a,b,c,obj],0) :: defines_var(obj);\n";

    #[test]
    fn a_sum_guides_by_the_sign_of_each_coefficient() {
        let max = guides(&format!("{SUM}solve maximize obj;"));
        assert_eq!(
            max,
            vec![
                ("a".into(), ValueGuide::Down, 3.0),
                ("b".into(), ValueGuide::Up, 2.0),
                ("c".into(), ValueGuide::Down, 3.0),
            ]
        );
        let min = guides(&format!("{SUM}solve minimize obj;"));
        assert_eq!(
            min,
            vec![
                ("a".into(), ValueGuide::Up, 3.0),
                ("b".into(), ValueGuide::Down, 2.0),
                ("c".into(), ValueGuide::Up, 3.0),
            ]
        );
        assert!(guides(&format!("{SUM}solve satisfy;")).is_empty());
    }

    #[test]
    fn an_element_ranks_the_indices_by_their_entries() {
        let src = "array [1..4] of int: t = [5,1,3,1];\nvar 1..4: i;\nvar 1..5: z :: is_defined_var;\n\
            constraint array_int_element(i,t,z) :: defines_var(z);\n";
        let min = guides(&format!("{src}solve minimize z;"));
        assert_eq!(
            min,
            vec![("i".into(), ValueGuide::Ranked(vec![2, 4, 3, 1]), 4.0)]
        );
        let max = guides(&format!("{src}solve maximize z;"));
        assert_eq!(
            max,
            vec![("i".into(), ValueGuide::Ranked(vec![1, 3, 2, 4]), 4.0)]
        );
        // Indexed through a view (as for a row of a two-dimensional table):
        // k = 2j - 1 picks the entries 5, 3 for j = 1, 2.
        let src = "array [1..4] of int: t = [5,1,3,1];\nvar 1..2: j;\nvar 1..4: k :: is_defined_var;\n\
            var 1..5: z :: is_defined_var;\n\
            constraint int_lin_eq([2,-1],[j,k],1) :: defines_var(k);\n\
            constraint array_int_element(k,t,z) :: defines_var(z);\nsolve minimize z;";
        assert_eq!(
            guides(src),
            vec![("j".into(), ValueGuide::Ranked(vec![2, 1]), 2.0)]
        );
        // An index whose domain is wider than its table is not ranked (the
        // list would take memory out of proportion to the file).
        let src = "array [1..2] of int: t = [5,1];\nvar 1..1000: i;\nvar 1..5: z :: is_defined_var;\n\
            constraint array_int_element(i,t,z) :: defines_var(z);\nsolve minimize z;";
        assert!(guides(src).is_empty());
        // A table longer than RANKED_UP_TO is not copied.
        let long = vec!["1"; RANKED_UP_TO as usize + 1].join(",");
        let src = format!(
            "array [1..{}] of int: t = [{long}];\nvar 1..3: i;\nvar 1..5: z :: is_defined_var;\n\
             constraint array_int_element(i,t,z) :: defines_var(z);\nsolve minimize z;",
            RANKED_UP_TO + 1
        );
        assert!(guides(&src).is_empty());
    }

    #[test]
    fn shares_along_several_paths_add_up_and_cancel() {
        // obj = s + u, s = 2x + y + bool2int(p), u = x - y: x counts 3, y 0,
        // p 1; the sums s and u count 1 each (the search may branch on them
        // once the declared variables are fixed).
        let src = "var 0..4: x;\nvar 0..4: y;\nvar bool: p;\nvar 0..1: q :: is_defined_var;\n\
            var 0..20: s :: is_defined_var;\nvar -4..4: u :: is_defined_var;\nvar -20..30: obj :: is_defined_var;\n\
            constraint bool2int(p,q) :: defines_var(q);\n\
            constraint int_lin_eq([1,-2,-1,-1],[s,x,y,q],0) :: defines_var(s);\n\
            constraint int_lin_eq([1,-1,1],[u,x,y],0) :: defines_var(u);\n\
            constraint int_lin_eq([1,1,-1],[s,u,obj],0) :: defines_var(obj);\n\
            solve maximize obj;";
        assert_eq!(
            guides(src),
            vec![
                ("p".into(), ValueGuide::Down, 1.0),
                ("s".into(), ValueGuide::Down, 20.0),
                ("u".into(), ValueGuide::Down, 8.0),
                ("x".into(), ValueGuide::Down, 12.0),
            ]
        );
    }

    #[test]
    fn only_defining_constraints_are_followed() {
        // The sum is not marked as defining obj: nothing is guided.
        let src = "var 0..1: a;\nvar 0..1: b;\nvar 0..2: obj;\n\
            constraint int_lin_eq([1,1,-1],[a,b,obj],0);\nsolve maximize obj;";
        assert!(guides(src).is_empty());
    }

    #[test]
    fn the_first_solution_takes_the_best_values_and_the_optimum_is_unchanged() {
        // A 0/1 knapsack: a, b and c worth 4, 3 and 5, weighing 2, 2 and 3,
        // capacity 4. The first solution takes the most valuable item first.
        let src = "var 0..1: a :: output_var;\nvar 0..1: b :: output_var;\nvar 0..1: c :: output_var;\n\
            var 0..12: obj :: output_var :: is_defined_var;\n\
            constraint int_lin_le([2,2,3],[a,b,c],4);\n\
            constraint int_lin_eq([4,3,5,-1],[a,b,c,obj],0) :: defines_var(obj);\nsolve maximize obj;";
        let t = translate(&parse(src).unwrap(), &Default::default()).unwrap();
        for (guided, first) in [(true, vec![0, 0, 1, 5]), (false, vec![0, 0, 0, 0])] {
            let options = Options {
                all_solutions: true,
                val_order: (!guided).then_some(csp_core::ValOrder::Ascending),
                ..Options::default()
            };
            let mut found = Vec::new();
            let outcome = solve(&t, &options, &mut |v| found.push(v.to_vec())).unwrap();
            assert_eq!(found[0], first, "guided: {guided}");
            assert_eq!(outcome.objective, Some(7), "guided: {guided}");
            assert!(outcome.status.is_complete());
        }
    }

    #[test]
    fn optima_at_the_i64_edges_are_proved() {
        let max = i64::MAX;
        let min = i64::MIN;
        let cases = [
            (
                format!(
                    "var {}..{}: x;\nvar 0..1: b;\nvar {}..{max}: obj :: is_defined_var;\n\
                     constraint int_lin_eq([1,1,-1],[x,b,obj],0) :: defines_var(obj);\nsolve maximize obj;",
                    max - 3,
                    max - 1,
                    max - 3
                ),
                max,
            ),
            (
                format!(
                    "var {}..{}: x;\nvar 0..1: b;\nvar {min}..{}: obj :: is_defined_var;\n\
                     constraint int_lin_eq([1,-1,-1],[x,b,obj],0) :: defines_var(obj);\nsolve minimize obj;",
                    min + 1,
                    min + 3,
                    min + 3
                ),
                min,
            ),
        ];
        for (src, best) in cases {
            let t = translate(&parse(&src).unwrap(), &Default::default()).unwrap();
            assert_eq!(t.objective_guide.len(), 2, "{src}");
            for pruning in [
                csp_core::Pruning::Propagators,
                csp_core::Pruning::ForwardChecking,
            ] {
                let options = Options {
                    pruning,
                    ..Options::default()
                };
                let outcome = solve(&t, &options, &mut |_| {}).unwrap();
                assert_eq!(outcome.objective, Some(best), "{src} ({pruning})");
                assert!(outcome.status.is_complete(), "{src} ({pruning})");
            }
        }
    }

    #[test]
    fn random_models_reach_the_brute_force_optimum() {
        // Three variables in 0..=3, a cost table on the first, a random sum
        // as objective and a random sum bounded above; the guided default
        // must prove the optimum that enumeration finds.
        let mut seed = 0x9e37_79b9_u64;
        let mut next = |n: i64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            ((seed >> 33) as i64).rem_euclid(n)
        };
        for round in 0..60 {
            let table: Vec<i64> = (0..4).map(|_| next(19) - 9).collect();
            let obj: Vec<i64> = (0..3).map(|_| next(11) - 5).collect();
            let side: Vec<i64> = (0..3).map(|_| next(7) - 3).collect();
            let bound = next(9) - 2;
            let maximize = next(2) == 0;
            let mut best: Option<i64> = None;
            for x in 0..=3i64 {
                for y in 0..=3i64 {
                    for z in 0..=3i64 {
                        let v = [x, y, z];
                        if (0..3).map(|i| side[i] * v[i]).sum::<i64>() > bound {
                            continue;
                        }
                        let o = table[x as usize] + (0..3).map(|i| obj[i] * v[i]).sum::<i64>();
                        best = Some(match best {
                            None => o,
                            Some(b) if maximize => b.max(o),
                            Some(b) => b.min(o),
                        });
                    }
                }
            }
            let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
            let src = format!(
                "array [1..4] of int: t = [{}];\nvar 0..3: x;\nvar 0..3: y;\nvar 0..3: z;\n\
                 var 1..4: k :: is_defined_var;\nvar -9..9: c :: is_defined_var;\n\
                 var -100..100: obj :: is_defined_var;\n\
                 constraint int_lin_eq([1,-1],[x,k],-1) :: defines_var(k);\n\
                 constraint array_int_element(k,t,c) :: defines_var(c);\n\
                 constraint int_lin_eq([{},1,-1],[x,y,z,c,obj],0) :: defines_var(obj);\n\
                 constraint int_lin_le([{}],[x,y,z],{bound});\nsolve {} obj;",
                list(&table),
                list(&obj),
                list(&side),
                if maximize { "maximize" } else { "minimize" }
            );
            let t = translate(&parse(&src).unwrap(), &Default::default()).unwrap();
            assert!(!t.objective_guide.is_empty(), "round {round}");
            // Binary choices take the first value; the textbook levels walk
            // the whole list.
            for pruning in [
                csp_core::Pruning::Propagators,
                csp_core::Pruning::ForwardChecking,
            ] {
                let options = Options {
                    pruning,
                    ..Options::default()
                };
                let outcome = solve(&t, &options, &mut |_| {}).unwrap();
                assert_eq!(outcome.objective, best, "round {round} ({pruning}): {src}");
                assert!(outcome.status.is_complete(), "round {round} ({pruning})");
            }
        }
    }
}
