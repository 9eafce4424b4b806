//! Bounds for `var int` variables declared without a domain, inferred from the constraints that define them.
//!
//! csp-core needs a finite domain for every variable. MiniZinc usually computes
//! bounds, but it may leave an introduced variable as `var int` when, say, it is the
//! result of `int_pow`. Such a variable is nearly always the output of a functional
//! constraint (`z = x * y`, `int_lin_eq` with one unknown term, ...), so interval
//! arithmetic on its inputs bounds it. Inference repeats until nothing changes, so
//! chains of defined variables are bounded too.

use crate::hash::{HashMap, HashSet};

use csp_core::constraints::{divide_range, scaled_range};

use crate::ast::{ConstraintItem, Decl, Expr, Model, ParType, VarType};
use csp_core::Value;

/// A closed interval of integers, in `i128` so that interval arithmetic cannot overflow.
type Interval = (i128, i128);

/// What inference found: bounds by name, and the names whose bounds were cut
/// to 64 bits.
#[derive(Debug, Default)]
pub(crate) struct Inferred {
    /// Bounds for the unbounded integer variables the constraints define.
    pub(crate) bounds: HashMap<String, (Value, Value)>,
    /// Variables whose inferred values reach beyond 64-bit integers: their
    /// domains are cut to 64 bits, so the model may have solutions (or a
    /// better optimum) the search cannot represent; fzn-csp then claims
    /// neither UNSATISFIABLE nor completeness (`int_plus(x, y, z)` with
    /// `x = 2^63 - 1`, `y >= 1`).
    pub(crate) clamped: Vec<String>,
}

/// Bounds for the unbounded integer variables that the constraints define, by name.
/// Variables it cannot bound are absent.
pub(crate) fn infer(model: &Model) -> Inferred {
    let mut facts = Facts::default();
    for decl in &model.decls {
        facts.declare(decl);
    }
    let mut inferred = Inferred::default();
    if facts.unknown.is_empty() {
        return inferred;
    }
    loop {
        let mut progress = false;
        for c in &model.constraints {
            if let Some((name, interval)) = facts.derive(c) {
                facts.known.insert(name.clone(), interval);
                facts.unknown.remove(&name);
                let clamp = |v: i128| v.clamp(i128::from(Value::MIN), i128::from(Value::MAX));
                let (lo, hi) = (clamp(interval.0), clamp(interval.1));
                if (lo, hi) != interval {
                    inferred.clamped.push(name.clone());
                }
                inferred.bounds.insert(name, (lo as Value, hi as Value));
                progress = true;
            }
        }
        if !progress || facts.unknown.is_empty() {
            return inferred;
        }
    }
}

#[derive(Default)]
struct Facts<'a> {
    /// Bounds of scalars whose bounds are known.
    known: HashMap<String, Interval>,
    /// Unbounded `var int` names.
    unknown: HashSet<String>,
    /// The elements of arrays, for `a[i]` and array arguments.
    arrays: HashMap<&'a str, &'a [Expr]>,
}

impl<'a> Facts<'a> {
    fn declare(&mut self, decl: &'a Decl) {
        match decl {
            Decl::Par(p) => match (&p.ty, &p.value) {
                (ParType::Array { .. }, Expr::Array(items)) => {
                    self.arrays.insert(&p.name, items);
                }
                (_, value) => {
                    if let Some(b) = self.bounds(value) {
                        self.known.insert(p.name.clone(), b);
                    }
                }
            },
            Decl::Var(v) => {
                let declared = match &v.ty {
                    VarType::Bool => Some((0, 1)),
                    VarType::IntRange(lo, hi) => Some((i128::from(*lo), i128::from(*hi))),
                    VarType::IntSet(values) => match (values.first(), values.last()) {
                        (Some(&lo), Some(&hi)) => Some((i128::from(lo), i128::from(hi))),
                        _ => None,
                    },
                    _ => None,
                };
                let assigned = v.value.as_ref().and_then(|e| self.bounds(e));
                match declared.or(assigned) {
                    Some(b) => {
                        self.known.insert(v.name.clone(), b);
                    }
                    None if v.ty == VarType::Int => {
                        self.unknown.insert(v.name.clone());
                    }
                    None => {}
                }
            }
            Decl::VarArray(a) => {
                if let Some(items) = &a.value {
                    self.arrays.insert(&a.name, items);
                }
            }
        }
    }

    fn bounds(&self, e: &Expr) -> Option<Interval> {
        match e {
            Expr::Int(v) => Some((i128::from(*v), i128::from(*v))),
            Expr::Bool(b) => Some((i128::from(*b), i128::from(*b))),
            Expr::Ident(name) => self.known.get(name).copied(),
            Expr::ArrayAccess { name, index } => {
                let items = self.arrays.get(name.as_str())?;
                let i = usize::try_from(*index).ok()?.checked_sub(1)?;
                self.bounds(items.get(i)?)
            }
            _ => None,
        }
    }

    fn elements(&self, e: &'a Expr) -> Option<&'a [Expr]> {
        match e {
            Expr::Array(items) => Some(items),
            Expr::Ident(name) => self.arrays.get(name.as_str()).copied(),
            _ => None,
        }
    }

    /// The name of `e` if it is an unbounded variable.
    fn unknown_name(&self, e: &Expr) -> Option<String> {
        match e {
            Expr::Ident(name) if self.unknown.contains(name) => Some(name.clone()),
            _ => None,
        }
    }

    fn hull(&self, items: &[Expr]) -> Option<Interval> {
        let mut all = items.iter().map(|e| self.bounds(e));
        let first = all.next()??;
        all.try_fold(first, |(lo, hi), b| b.map(|(l, h)| (lo.min(l), hi.max(h))))
    }

    /// A variable this constraint bounds, if its inputs are bounded and it is not.
    fn derive(&self, c: &ConstraintItem) -> Option<(String, Interval)> {
        let a = &c.args;
        let unary = |i: usize, out: usize, f: &dyn Fn(Interval) -> Interval| {
            let name = self.unknown_name(a.get(out)?)?;
            Some((name, f(self.bounds(a.get(i)?)?)))
        };
        let binary = |f: &dyn Fn(Interval, Interval) -> Option<Interval>| {
            let name = self.unknown_name(a.get(2)?)?;
            Some((name, f(self.bounds(&a[0])?, self.bounds(&a[1])?)?))
        };
        match c.name.as_str() {
            "int_eq" => unary(0, 1, &|x| x).or_else(|| unary(1, 0, &|x| x)),
            "bool2int" => unary(0, 1, &|_| (0, 1)),
            "int_abs" => unary(0, 1, &|(lo, hi)| {
                if lo >= 0 {
                    (lo, hi)
                } else if hi <= 0 {
                    (-hi, -lo)
                } else {
                    (0, hi.max(-lo))
                }
            }),
            "int_plus" => binary(&|(al, ah), (bl, bh)| Some((al + bl, ah + bh)))
                .or_else(|| self.plus_operand(a)),
            "int_times" => binary(&|(al, ah), (bl, bh)| {
                let c = [al * bl, al * bh, ah * bl, ah * bh];
                Some((*c.iter().min()?, *c.iter().max()?))
            }),
            "int_min" => binary(&|(al, ah), (bl, bh)| Some((al.min(bl), ah.min(bh)))),
            "int_max" => binary(&|(al, ah), (bl, bh)| Some((al.max(bl), ah.max(bh)))),
            "int_div" => binary(&|(al, ah), _| {
                let m = al.abs().max(ah.abs());
                Some((-m, m))
            }),
            "int_mod" => binary(&|(al, ah), (bl, bh)| {
                let m = al
                    .abs()
                    .max(ah.abs())
                    .min(bl.abs().max(bh.abs()) - 1)
                    .max(0);
                Some(if al >= 0 { (0, m) } else { (-m, m) })
            }),
            "int_pow" => binary(&|(al, ah), (_, bh)| {
                if bh < 0 {
                    return Some((-1, 1));
                }
                let base = al.abs().max(ah.abs()).max(1);
                let m = base.checked_pow(u32::try_from(bh).ok()?)?;
                Some((-m, m))
            }),
            "array_int_element" | "array_var_int_element" => {
                let name = self.unknown_name(a.get(2)?)?;
                Some((name, self.hull(self.elements(a.get(1)?)?)?))
            }
            "int_lin_eq" => self.linear_unknown(a),
            // m = min(x) or max(x): between the smallest and the largest
            // of the elements' lower (min) or upper (max) bounds.
            "array_int_minimum" | "array_int_maximum" => {
                let name = self.unknown_name(a.first()?)?;
                let items = self.elements(a.get(1)?)?;
                let all: Option<Vec<Interval>> = items.iter().map(|e| self.bounds(e)).collect();
                let all = all?;
                let los = all.iter().map(|b| b.0);
                let his = all.iter().map(|b| b.1);
                let hull = if c.name == "array_int_minimum" {
                    (los.min()?, his.min()?)
                } else {
                    (los.max()?, his.max()?)
                };
                Some((name, hull))
            }
            _ => None,
        }
    }

    /// `a + b = c` with `a` or `b` unknown.
    fn plus_operand(&self, a: &[Expr]) -> Option<(String, Interval)> {
        let (cl, ch) = self.bounds(a.get(2)?)?;
        for (unknown, other) in [(0, 1), (1, 0)] {
            if let Some(name) = self.unknown_name(&a[unknown]) {
                let (ol, oh) = self.bounds(&a[other])?;
                return Some((name, (cl - oh, ch - ol)));
            }
        }
        None
    }

    /// `sum coeffs[i] * x_i = rhs` with exactly one unknown `x_i`.
    fn linear_unknown(&self, a: &[Expr]) -> Option<(String, Interval)> {
        let coeffs = self.elements(a.first()?)?;
        let vars = self.elements(a.get(1)?)?;
        let rhs = self.bounds(a.get(2)?)?;
        let mut target = None;
        let (mut lo, mut hi) = (0i128, 0i128);
        for (c, x) in coeffs.iter().zip(vars) {
            let (c, _) = self.bounds(c)?;
            match self.unknown_name(x) {
                Some(name) if target.is_none() && c != 0 => target = Some((name, c)),
                Some(_) => return None,
                None => {
                    let (xl, xh) = self.bounds(x)?;
                    let (p, q) = scaled_range(c, xl, xh);
                    lo += p;
                    hi += q;
                }
            }
        }
        let (name, c) = target?;
        // c * x = rhs - rest, with rest in [lo, hi].
        Some((name, divide_range(c, rhs.0 - hi, rhs.1 - lo)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds_of(src: &str) -> HashMap<String, (Value, Value)> {
        infer(&crate::parse(src).unwrap()).bounds
    }

    #[test]
    fn a_result_beyond_64_bits_is_cut_and_named() {
        let src = "var 9223372036854775807..9223372036854775807: x;\nvar 1..10: y;\nvar int: z;\n\
                   constraint int_plus(x, y, z);\nsolve satisfy;";
        let inferred = infer(&crate::parse(src).unwrap());
        assert_eq!(inferred.clamped, vec!["z".to_string()]);
        assert_eq!(inferred.bounds["z"], (Value::MAX, Value::MAX));
    }

    #[test]
    fn array_minimum_and_maximum_are_bounded_by_their_elements() {
        let b = bounds_of(
            "var 2..9: x;\nvar -4..5: y;\narray [1..3] of var int: a = [x, y, 7];\n\
             var int: lo;\nvar int: hi;\n\
             constraint array_int_minimum(lo, a);\n\
             constraint array_int_maximum(hi, [x, y]);\nsolve satisfy;",
        );
        assert_eq!(b["lo"], (-4, 5));
        assert_eq!(b["hi"], (2, 9));
    }

    #[test]
    fn pow_result_is_bounded_by_its_arguments() {
        let b = bounds_of(
            "var -6..6: y;\nvar 1..4: e;\nvar int: z;\nconstraint int_pow(y, e, z);\nsolve satisfy;",
        );
        assert_eq!(b["z"], (-1296, 1296));
    }

    #[test]
    fn chains_of_definitions_are_followed_in_any_order() {
        let b = bounds_of(
            "var 0..3: x;\nvar int: a;\nvar int: b;\n\
             constraint int_times(a, a, b);\n\
             constraint int_lin_eq([2, -1], [x, a], 1);\n\
             solve satisfy;",
        );
        assert_eq!(b["a"], (-1, 5));
        assert_eq!(b["b"], (-5, 25));
    }

    #[test]
    fn element_and_plus_bound_their_results() {
        let b = bounds_of(
            "array [1..3] of int: t = [4, -2, 9];\nvar 1..3: i;\nvar int: r;\nvar int: s;\n\
             constraint array_int_element(i, t, r);\nconstraint int_plus(s, i, r);\nsolve satisfy;",
        );
        assert_eq!(b["r"], (-2, 9));
        assert_eq!(b["s"], (-5, 8));
    }

    #[test]
    fn an_undefined_variable_stays_unbounded() {
        let b = bounds_of("var int: x;\nconstraint int_le(x, 3);\nsolve satisfy;");
        assert!(b.is_empty());
    }
}
