//! The instance's variables: single variables and arrays (with undefined
//! cells), numbered in declaration order, and their domains.

use std::collections::HashMap;

use xcsp3_serde::{Instance, SimpleRef};

use crate::error::{Error, Result, one_line};

/// The most variables (array cells included) an instance may declare.
pub const MAX_VARIABLES: usize = 4_000_000;

/// The most values a domain given as a union of ranges may hold.
pub const MAX_LISTED_VALUES: u64 = 1 << 20;

/// One declared variable.
#[derive(Clone, Debug, PartialEq)]
pub struct VarInfo {
    /// Its name as XCSP3 writes it: `x` or `x[2][0]`.
    pub name: String,
    /// Its domain: sorted, disjoint, non-empty inclusive ranges.
    pub domain: Vec<(i64, i64)>,
}

impl VarInfo {
    /// Whether `v` is in the domain.
    pub fn contains(&self, v: i64) -> bool {
        self.domain.iter().any(|&(lo, hi)| lo <= v && v <= hi)
    }
}

/// A declaration, in document order, for printing solutions.
#[derive(Clone, Debug, PartialEq)]
pub enum Decl {
    /// `<var id="x">`: its variable.
    Single(usize),
    /// `<array id="x" size="[..]">`: its name, sizes and cells (row-major),
    /// `None` for a cell without a domain (not a variable).
    Array(String, Vec<usize>, Vec<Option<usize>>),
}

/// The variables of an instance.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// Every variable, numbered as the model numbers them.
    pub vars: Vec<VarInfo>,
    /// The declarations in document order.
    pub decls: Vec<Decl>,
    singles: HashMap<String, usize>,
    arrays: HashMap<String, usize>,
}

fn ranges(r: &xcsp3_serde::RangeList<i64>) -> Vec<(i64, i64)> {
    r.iter()
        .map(|x| (*x.start(), *x.end()))
        .filter(|(a, b)| a <= b)
        .collect()
}

impl Names {
    /// Numbers the variables of `instance`.
    pub fn new(instance: &Instance) -> Result<Self> {
        let mut names = Names::default();
        for v in &instance.variables {
            let id = names.vars.len();
            names.add(&v.identifier)?;
            names.vars.push(VarInfo {
                name: v.identifier.clone(),
                domain: ranges(&v.domain),
            });
            names.singles.insert(v.identifier.clone(), id);
            names.decls.push(Decl::Single(id));
        }
        for a in &instance.arrays {
            names.add(&a.identifier)?;
            let cells = a
                .size
                .iter()
                .try_fold(1usize, |acc, &s| acc.checked_mul(s))
                .filter(|&n| n <= MAX_VARIABLES.saturating_sub(names.vars.len()))
                .ok_or_else(|| {
                    Error::Translate(format!(
                        "array {} has more cells than the limit of {MAX_VARIABLES} variables",
                        a.identifier
                    ))
                })?;
            let unrolled = a
                .unroll()
                .map_err(|e| Error::Translate(one_line(&e.to_string())))?;
            let mut domains: Vec<Option<Vec<(i64, i64)>>> = vec![None; cells];
            let mut others = None;
            for (refs, dom) in &unrolled.domains {
                for r in refs {
                    match r {
                        SimpleRef::Ident(name) if name == "others" => others = Some(ranges(dom)),
                        SimpleRef::ArrayAccess(name, idx) if name == &a.identifier => {
                            let cell = flat_index(&a.size, idx).ok_or_else(|| {
                                Error::Translate(format!("domain for a cell outside array {name}"))
                            })?;
                            domains[cell] = Some(ranges(dom));
                        }
                        other => {
                            return Err(Error::Translate(format!(
                                "domain of array {} given for {}",
                                a.identifier,
                                ref_name(other)
                            )));
                        }
                    }
                }
            }
            let mut ids = Vec::with_capacity(cells);
            for (cell, dom) in domains.into_iter().enumerate() {
                match dom.or_else(|| others.clone()) {
                    Some(domain) => {
                        ids.push(Some(names.vars.len()));
                        let name = format!("{}{}", a.identifier, index_text(&a.size, cell));
                        names.vars.push(VarInfo { name, domain });
                    }
                    None => ids.push(None),
                }
            }
            names.arrays.insert(a.identifier.clone(), names.decls.len());
            names
                .decls
                .push(Decl::Array(a.identifier.clone(), a.size.clone(), ids));
        }
        Ok(names)
    }

    fn add(&self, name: &str) -> Result<()> {
        if self.singles.contains_key(name) || self.arrays.contains_key(name) {
            return Err(Error::Translate(format!(
                "variable {name} is declared twice"
            )));
        }
        Ok(())
    }

    /// The variable `r` names: `Ok(None)` for an undefined array cell.
    pub fn lookup(&self, r: &SimpleRef<String>) -> Result<Option<usize>> {
        match r {
            SimpleRef::Ident(name) => self
                .singles
                .get(name)
                .map(|&i| Some(i))
                .ok_or_else(|| Error::Translate(format!("unknown variable {name}"))),
            SimpleRef::ArrayAccess(name, idx) => {
                let &d = self
                    .arrays
                    .get(name)
                    .ok_or_else(|| Error::Translate(format!("unknown array {name}")))?;
                let Decl::Array(_, size, cells) = &self.decls[d] else {
                    unreachable!("arrays map to array declarations")
                };
                let cell = flat_index(size, idx).ok_or_else(|| {
                    Error::Translate(format!("{} is outside its array", ref_name(r)))
                })?;
                Ok(cells[cell])
            }
        }
    }

    /// The variable `r` names, which must be defined.
    pub fn var(&self, r: &SimpleRef<String>) -> Result<usize> {
        self.lookup(r)?
            .ok_or_else(|| Error::Translate(format!("{} is an undefined array cell", ref_name(r))))
    }
}

/// `x[1][2]` for a reference.
pub fn ref_name(r: &SimpleRef<String>) -> String {
    match r {
        SimpleRef::Ident(n) => n.clone(),
        SimpleRef::ArrayAccess(n, idx) => {
            let mut s = n.clone();
            for i in idx {
                s.push_str(&format!("[{i}]"));
            }
            s
        }
    }
}

fn flat_index(size: &[usize], idx: &[usize]) -> Option<usize> {
    if size.len() != idx.len() {
        return None;
    }
    let mut cell = 0usize;
    for (&s, &i) in size.iter().zip(idx) {
        if i >= s {
            return None;
        }
        cell = cell * s + i;
    }
    Some(cell)
}

fn index_text(size: &[usize], mut cell: usize) -> String {
    let mut idx = vec![0; size.len()];
    for d in (0..size.len()).rev() {
        idx[d] = cell % size[d].max(1);
        cell /= size[d].max(1);
    }
    idx.iter().map(|i| format!("[{i}]")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_with_holes_and_others() {
        let xml = r#"<instance type="CSP"><variables><var id="y"> 1 3..4 </var>
            <array id="x" size="[2][2]"><domain for="x[0][1]"> 5 </domain><domain for="x[1][]"> 0..1 </domain></array>
            </variables><constraints/></instance>"#;
        let names = Names::new(&crate::parse_instance(xml).unwrap()).unwrap();
        assert_eq!(names.vars.len(), 4);
        assert_eq!(names.vars[0].domain, vec![(1, 1), (3, 4)]);
        assert_eq!(names.vars[1].name, "x[0][1]");
        let r = SimpleRef::ArrayAccess("x".to_string(), vec![0, 0]);
        assert_eq!(names.lookup(&r).unwrap(), None);
        assert!(names.var(&r).is_err());
        assert_eq!(
            names
                .var(&SimpleRef::ArrayAccess("x".into(), vec![1, 1]))
                .unwrap(),
            3
        );
    }
}
