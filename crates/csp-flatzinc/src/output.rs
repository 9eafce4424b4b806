//! MiniZinc's output format: `x = 3;`, `xs = array1d(1..n, [...]);`, `----------`, `==========` and the status lines.

use std::fmt::Write as _;

use csp_core::{SearchStatus, Value};

use crate::ast::{Annotation, Decl, Expr, SetLit};
use crate::error::TranslateError;
use crate::sets::SetVar;
use crate::translate::{Context, Scalar, Symbol};

/// Printed after each solution.
pub const SOLUTION_SEPARATOR: &str = "----------";
/// Printed when the search is complete: all solutions printed, or the last one optimal.
pub const SEARCH_COMPLETE: &str = "==========";
/// Printed when the search is complete and found no solution.
pub const UNSATISFIABLE: &str = "=====UNSATISFIABLE=====";
/// Printed when a limit stopped the search before it found anything.
pub const UNKNOWN: &str = "=====UNKNOWN=====";

/// One `output_var` or `output_array` item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The FlatZinc name.
    pub name: String,
    /// The index ranges of an array (`output_array([1..2, 1..3])`), `None` for a scalar.
    pub dims: Option<Vec<(Value, Value)>>,
    /// The value, or the array's values in row-major order (empty for sets).
    pub values: Vec<Scalar>,
    /// For a set variable or an array of them: the sets, printed instead of
    /// `values` (`{1,3}`).
    pub sets: Option<Vec<SetVar>>,
}

impl Output {
    /// The item as MiniZinc reads it, for the solution `solution` (one value per
    /// model variable).
    ///
    /// ```
    /// use csp_flatzinc::{Output, Scalar};
    /// use csp_core::VarId;
    /// let grid = Output {
    ///     name: "g".into(),
    ///     dims: Some(vec![(1, 2), (1, 2)]),
    ///     values: vec![Scalar::IntVar(VarId::new(0)), Scalar::Int(7), Scalar::Bool(true), Scalar::BoolVar(VarId::new(1))],
    ///     sets: None,
    /// };
    /// assert_eq!(grid.format(&[3, 0])?, "g = array2d(1..2, 1..2, [3, 7, true, false]);");
    /// // A solution of another model is an error, not a made-up value.
    /// assert!(grid.format(&[3]).is_err());
    /// # Ok::<(), csp_flatzinc::OutputError>(())
    /// ```
    pub fn format(&self, solution: &[Value]) -> Result<String, OutputError> {
        let mut s = format!("{} = ", self.name);
        let items = self.sets.as_ref().map_or(self.values.len(), Vec::len);
        let push = |s: &mut String, i: usize| match &self.sets {
            Some(sets) => push_set(s, &sets[i], solution),
            None => push_value(s, self.values[i], solution),
        };
        match &self.dims {
            None => {
                if items > 0 {
                    push(&mut s, 0)?;
                }
            }
            Some(dims) => {
                let _ = write!(s, "array{}d(", dims.len());
                for (lo, hi) in dims {
                    let _ = write!(s, "{lo}..{hi}, ");
                }
                s.push('[');
                for i in 0..items {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    push(&mut s, i)?;
                }
                s.push_str("])");
            }
        }
        s.push(';');
        Ok(s)
    }
}

/// An output item names a variable the solution does not have: the outputs
/// and the solution come from different models.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("an output refers to variable {var}, but the solution has {len} values")]
pub struct OutputError {
    /// The variable.
    pub var: csp_core::VarId,
    /// The number of values in the solution.
    pub len: usize,
}

fn push_value(s: &mut String, v: Scalar, solution: &[Value]) -> Result<(), OutputError> {
    let value = |var: csp_core::VarId| {
        solution.get(var.index()).copied().ok_or(OutputError {
            var,
            len: solution.len(),
        })
    };
    let _ = match v {
        Scalar::Int(c) => write!(s, "{c}"),
        Scalar::Bool(b) => write!(s, "{b}"),
        Scalar::IntVar(var) => write!(s, "{}", value(var)?),
        Scalar::BoolVar(var) => write!(s, "{}", value(var)? != 0),
    };
    Ok(())
}

/// A set as MiniZinc reads it: `{1,3}`, `{}`.
fn push_set(s: &mut String, set: &SetVar, solution: &[Value]) -> Result<(), OutputError> {
    s.push('{');
    let mut first = true;
    for &(v, var) in &set.elements {
        let held = solution.get(var.index()).copied().ok_or(OutputError {
            var,
            len: solution.len(),
        })?;
        if held != 0 {
            if !first {
                s.push(',');
            }
            first = false;
            let _ = write!(s, "{v}");
        }
    }
    s.push('}');
    Ok(())
}

/// A whole solution: every output item on its line, then the separator.
///
/// ```
/// use csp_flatzinc::{Output, Scalar};
/// let x = Output { name: "x".into(), dims: None, values: vec![Scalar::Int(4)], sets: None };
/// assert_eq!(csp_flatzinc::format_solution(&[x], &[])?, "x = 4;\n----------\n");
/// # Ok::<(), csp_flatzinc::OutputError>(())
/// ```
pub fn format_solution(outputs: &[Output], solution: &[Value]) -> Result<String, OutputError> {
    let mut s = String::new();
    for o in outputs {
        s.push_str(&o.format(solution)?);
        s.push('\n');
    }
    s.push_str(SOLUTION_SEPARATOR);
    s.push('\n');
    Ok(s)
}

/// The line that ends the output, if any: `==========` for a complete search with
/// solutions, `=====UNSATISFIABLE=====` for a complete one without, `=====UNKNOWN=====`
/// for one stopped before finding anything, and nothing when solutions were printed
/// but the search was not finished.
///
/// ```
/// use csp_core::{SearchStatus, StopReason};
/// use csp_flatzinc::final_line;
/// assert_eq!(final_line(0, SearchStatus::Complete), Some("=====UNSATISFIABLE====="));
/// assert_eq!(final_line(0, SearchStatus::Stopped(StopReason::TimeLimit)), Some("=====UNKNOWN====="));
/// assert_eq!(final_line(3, SearchStatus::Complete), Some("=========="));
/// assert_eq!(final_line(1, SearchStatus::Stopped(StopReason::SolutionLimit)), None);
/// ```
pub fn final_line(solutions: u64, status: SearchStatus) -> Option<&'static str> {
    match (solutions, status.is_complete()) {
        (0, true) => Some(UNSATISFIABLE),
        (0, false) => Some(UNKNOWN),
        (_, true) => Some(SEARCH_COMPLETE),
        (_, false) => None,
    }
}

/// The output items of the declarations, in order.
pub(crate) fn outputs(cx: &Context, decls: &[Decl]) -> Result<Vec<Output>, TranslateError> {
    let mut out = Vec::new();
    for decl in decls {
        let annotations = match decl {
            Decl::Par(p) => &p.annotations,
            Decl::Var(v) => &v.annotations,
            Decl::VarArray(a) => &a.annotations,
        };
        let name = decl.name();
        let values = || match cx.symbol(name) {
            Ok(Symbol::Scalar(s)) => Ok((vec![*s], None)),
            Ok(Symbol::Array(items)) => Ok((items.clone(), None)),
            Ok(Symbol::SetVar(set)) => Ok((Vec::new(), Some(vec![set.clone()]))),
            Ok(Symbol::SetVarArray(sets)) => Ok((Vec::new(), Some(sets.clone()))),
            _ => Err(TranslateError::UnsupportedType {
                name: name.to_string(),
                what: "output of a type other than int or bool".into(),
                line: decl.pos().line,
            }),
        };
        if Annotation::find(annotations, "output_var").is_some() {
            let (values, sets) = values()?;
            out.push(Output {
                name: name.to_string(),
                dims: None,
                values,
                sets,
            });
        }
        if let Some(ann) = Annotation::find(annotations, "output_array") {
            let dims = dims(ann)?;
            let (values, sets) = values()?;
            let len = sets.as_ref().map_or(values.len(), Vec::len);
            // The index sets must hold exactly the array's elements, or the
            // printed `arrayNd(...)` is one MiniZinc cannot read.
            let size = dims.iter().try_fold(1i128, |acc, &(lo, hi)| {
                acc.checked_mul((i128::from(hi) - i128::from(lo) + 1).max(0))
            });
            if size != Some(len as i128) {
                return Err(TranslateError::BadArgument {
                    context: format!("annotation `output_array` of `{name}`"),
                    expected: format!(
                        "index sets with {} element{} in all, as many as the array has (they give {})",
                        len,
                        if len == 1 { "" } else { "s" },
                        size.map_or_else(|| "more than 2^127".to_string(), |n| n.to_string())
                    ),
                    line: ann.pos.line,
                });
            }
            out.push(Output {
                name: name.to_string(),
                dims: Some(dims),
                values,
                sets,
            });
        }
    }
    Ok(out)
}

/// The index ranges of `output_array([1..2, 1..3])`.
fn dims(ann: &Annotation) -> Result<Vec<(Value, Value)>, TranslateError> {
    let bad = || TranslateError::BadArgument {
        context: "annotation `output_array`".into(),
        expected: "an array of index ranges such as [1..2, 1..3]".into(),
        line: ann.pos.line,
    };
    let [Expr::Array(ranges)] = ann.args.as_slice() else {
        return Err(bad());
    };
    ranges
        .iter()
        .map(|r| match r {
            Expr::Set(SetLit::IntRange(lo, hi)) => Ok((*lo, *hi)),
            Expr::Set(SetLit::Ints(values)) if values.is_empty() => Ok((1, 0)),
            Expr::Set(SetLit::Ints(values)) => {
                let (lo, hi) = (values[0], values[values.len() - 1]);
                let contiguous = i128::from(hi) - i128::from(lo) + 1 == values.len() as i128;
                if contiguous { Ok((lo, hi)) } else { Err(bad()) }
            }
            _ => Err(bad()),
        })
        .collect()
}
