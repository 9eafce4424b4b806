//! Solutions as XCSP3 `<instantiation>` elements, and reading them back.

use xcsp3_serde::{Instantiation, SimpleRef, VarRef};

use crate::error::{Error, Result, one_line};
use crate::names::{Decl, Names};

/// The `<instantiation>` of `values` (indexed by variable number): every
/// declared variable, arrays in compact form (`x[][]`) with `*` for cells
/// that are not variables. `cost` adds the objective value.
///
/// ```
/// let xml = r#"<instance format="XCSP3" type="CSP"><variables><var id="y"> 0..3 </var>
///   <array id="x" size="[2]"> 0..1 </array></variables><constraints/></instance>"#;
/// let p = csp_xcsp::Problem::new(&csp_xcsp::parse_instance(xml)?)?;
/// let text = csp_xcsp::output::instantiation(&p.names, &[3, 1, 0], None);
/// assert_eq!(text, "<instantiation type=\"solution\">\n  <list> y x[] </list>\n  <values> 3 1 0 </values>\n</instantiation>");
/// assert_eq!(csp_xcsp::output::read_solution(&p.names, &text)?, vec![3, 1, 0]);
/// # Ok::<(), csp_xcsp::Error>(())
/// ```
pub fn instantiation(names: &Names, values: &[i64], cost: Option<i64>) -> String {
    let mut list = Vec::new();
    let mut vals = Vec::new();
    for d in &names.decls {
        match d {
            Decl::Single(i) => {
                list.push(names.vars[*i].name.clone());
                vals.push(values[*i].to_string());
            }
            Decl::Array(name, size, cells) => {
                list.push(format!("{name}{}", "[]".repeat(size.len())));
                vals.extend(
                    cells
                        .iter()
                        .map(|c| c.map_or("*".to_string(), |i| values[i].to_string())),
                );
            }
        }
    }
    let head = match cost {
        Some(c) => format!("<instantiation type=\"solution\" cost=\"{c}\">"),
        None => "<instantiation type=\"solution\">".to_string(),
    };
    format!(
        "{head}\n  <list> {} </list>\n  <values> {} </values>\n</instantiation>",
        list.join(" "),
        vals.join(" ")
    )
}

/// Reads an `<instantiation>` (optionally as competition `v ` lines, other
/// lines ignored) into values indexed by variable number; every variable of
/// the instance must get a value.
pub fn read_solution(names: &Names, text: &str) -> Result<Vec<i64>> {
    let has_v = text.lines().any(|l| l.starts_with("v "));
    let xml: String = if has_v {
        text.lines()
            .filter_map(|l| l.strip_prefix("v "))
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        text.to_string()
    };
    let start = xml
        .find("<instantiation")
        .ok_or_else(|| Error::Solution("no <instantiation> in the solution".into()))?;
    let inst: Instantiation = quick_xml::de::from_str(&xml[start..]).map_err(|e| {
        Error::Solution(format!(
            "invalid instantiation: {}",
            one_line(&e.to_string())
        ))
    })?;
    let mut refs = Vec::new();
    for r in &inst.list {
        refs.extend(expand(names, r)?);
    }
    if refs.len() != inst.values.len() {
        return Err(Error::Solution(format!(
            "the instantiation lists {} variables and {} values",
            refs.len(),
            inst.values.len()
        )));
    }
    let mut values: Vec<Option<i64>> = vec![None; names.vars.len()];
    for (r, v) in refs.iter().zip(&inst.values) {
        match (names.lookup(r)?, v) {
            (Some(i), Some(v)) => values[i] = Some(*v),
            (None, _) => {}
            (Some(i), None) => {
                return Err(Error::Solution(format!(
                    "no value for {}",
                    names.vars[i].name
                )));
            }
        }
    }
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.ok_or_else(|| Error::Solution(format!("no value for {}", names.vars[i].name)))
        })
        .collect()
}

fn expand(names: &Names, r: &VarRef) -> Result<Vec<SimpleRef<String>>> {
    match r {
        VarRef::Ident(n) => Ok(vec![SimpleRef::Ident(n.clone())]),
        VarRef::ArrayAccess(n, idx) => {
            let size = names
                .decls
                .iter()
                .find_map(|d| match d {
                    Decl::Array(name, size, _) if name == n => Some(size.clone()),
                    _ => None,
                })
                .ok_or_else(|| Error::Solution(format!("unknown array {n}")))?;
            if size.len() != idx.len() {
                return Err(Error::Solution(format!(
                    "{n} has {} dimensions",
                    size.len()
                )));
            }
            let mut out: Vec<Vec<usize>> = vec![vec![]];
            for (d, ix) in idx.iter().enumerate() {
                let range = match ix {
                    xcsp3_serde::Indexing::Single(i) => *i..=*i,
                    xcsp3_serde::Indexing::Range(a, b) => *a..=*b,
                    xcsp3_serde::Indexing::Full => 0..=size[d].saturating_sub(1),
                };
                if *range.end() >= size[d] {
                    return Err(Error::Solution(format!("index out of bounds in {n}")));
                }
                out = out
                    .into_iter()
                    .flat_map(|p| range.clone().map(move |i| [&p[..], &[i]].concat()))
                    .collect();
            }
            Ok(out
                .into_iter()
                .map(|i| SimpleRef::ArrayAccess(n.clone(), i))
                .collect())
        }
        VarRef::Placeholder(_) => Err(Error::Solution("a placeholder in a solution".into())),
    }
}
