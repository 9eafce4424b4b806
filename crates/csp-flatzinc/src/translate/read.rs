//! Reading a FlatZinc item's arguments: names, constants, variables, arrays
//! and sets, as the translation's `Context` sees them.

use csp_core::{Domain, Value, VarId};

use super::{Context, Scalar, Symbol};
use crate::ast::{Expr, SetLit};
use crate::error::TranslateError;

impl Context {
    /// A constant or variable.
    pub(crate) fn scalar(&self, e: &Expr, what: &str) -> Result<Scalar, TranslateError> {
        match e {
            Expr::Int(v) => Ok(Scalar::Int(*v)),
            Expr::Bool(b) => Ok(Scalar::Bool(*b)),
            Expr::Ident(name) => match self.symbol(name)? {
                Symbol::Scalar(s) => Ok(*s),
                _ => Err(self.bad(what, "an integer or Boolean, constant or variable")),
            },
            Expr::ArrayAccess { name, index } => match self.symbol(name)? {
                Symbol::Array(items) => usize::try_from(*index)
                    .ok()
                    .and_then(|i| items.get(i.checked_sub(1)?))
                    .copied()
                    .ok_or_else(|| {
                        self.bad(what, &format!("an index of `{name}` in 1..{}", items.len()))
                    }),
                _ => Err(self.bad(what, &format!("`{name}` to be an array"))),
            },
            _ => Err(self.bad(what, "an integer or Boolean, constant or variable")),
        }
    }

    /// An integer constant.
    pub(crate) fn int(&self, e: &Expr, what: &str) -> Result<Value, TranslateError> {
        match self.scalar(e, what)? {
            Scalar::Int(v) => Ok(v),
            _ => Err(self.bad(what, "an integer constant")),
        }
    }

    /// The variable for a scalar; a constant gets a variable with one value.
    pub(crate) fn var_of(&mut self, s: Scalar) -> Result<VarId, TranslateError> {
        match s {
            Scalar::IntVar(v) | Scalar::BoolVar(v) => Ok(v),
            Scalar::Int(c) => self.const_var(c),
            Scalar::Bool(b) => self.const_var(Value::from(b)),
        }
    }

    /// A variable, or a constant as a fixed variable.
    pub(crate) fn var(&mut self, e: &Expr, what: &str) -> Result<VarId, TranslateError> {
        let s = self.scalar(e, what)?;
        self.var_of(s)
    }

    pub(crate) fn const_var(&mut self, c: Value) -> Result<VarId, TranslateError> {
        if let Some(&v) = self.consts.get(&c) {
            return Ok(v);
        }
        let v = match self.zero {
            Some(zero) => self.model.named_view(c.to_string(), zero, 1, c),
            None => self.model.named_int_var(c.to_string(), c..=c),
        }
        .map_err(|e| self.core(e))?;
        self.consts.insert(c, v);
        Ok(v)
    }

    /// An array of constants and variables: a literal or an array's name.
    pub(crate) fn scalars(&self, e: &Expr, what: &str) -> Result<Vec<Scalar>, TranslateError> {
        match e {
            Expr::Array(items) => items.iter().map(|item| self.scalar(item, what)).collect(),
            Expr::Ident(name) => match self.symbol(name)? {
                Symbol::Array(items) => Ok(items.clone()),
                _ => Err(self.bad(what, "an array")),
            },
            _ => Err(self.bad(what, "an array")),
        }
    }

    /// An array of variables (constants become fixed variables).
    pub(crate) fn vars(&mut self, e: &Expr, what: &str) -> Result<Vec<VarId>, TranslateError> {
        let items = self.scalars(e, what)?;
        items.into_iter().map(|s| self.var_of(s)).collect()
    }

    /// An array of integer constants.
    pub(crate) fn ints(&self, e: &Expr, what: &str) -> Result<Vec<Value>, TranslateError> {
        self.scalars(e, what)?
            .into_iter()
            .map(|s| match s {
                Scalar::Int(v) => Ok(v),
                _ => Err(self.bad(what, "an array of integer constants")),
            })
            .collect()
    }

    /// A constant set of integers: a literal or a parameter's name.
    pub(crate) fn set(&self, e: &Expr, what: &str) -> Result<Domain, TranslateError> {
        match e {
            Expr::Set(set) => self.set_literal(set, what),
            Expr::Ident(name) => match self.symbol(name)? {
                Symbol::Set(d) => Ok(d.clone()),
                _ => Err(self.bad(what, "a set of integers")),
            },
            Expr::ArrayAccess { name, index } => match self.symbol(name)? {
                Symbol::SetArray(sets) => usize::try_from(*index)
                    .ok()
                    .and_then(|i| sets.get(i.checked_sub(1)?))
                    .cloned()
                    .ok_or_else(|| self.bad(what, &format!("an index of `{name}`"))),
                _ => Err(self.bad(what, "a set of integers")),
            },
            _ => Err(self.bad(what, "a set of integers")),
        }
    }

    fn set_literal(&self, set: &SetLit, what: &str) -> Result<Domain, TranslateError> {
        match set {
            SetLit::IntRange(lo, hi) => Ok(Domain::Range(*lo, *hi)),
            SetLit::Ints(values) => Ok(Domain::Set(values.clone())),
            SetLit::FloatRange(..) | SetLit::Floats(_) => Err(self.bad(what, "a set of integers")),
        }
    }
}
