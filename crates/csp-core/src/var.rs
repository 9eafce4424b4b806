//! Identifiers of variables and constraints, and declared domains.

use std::fmt;
use std::ops::RangeInclusive;

use crate::Value;

/// A variable of a [`Model`](crate::Model): a small copyable index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(u32);

impl VarId {
    /// The variable with the given index (variables are numbered from 0 in the
    /// order they were declared).
    pub const fn new(index: usize) -> Self {
        VarId(index as u32)
    }

    /// The index of the variable.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A constraint of a [`Model`](crate::Model), numbered in posting order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConstraintId(u32);

impl ConstraintId {
    /// The constraint with the given index.
    pub const fn new(index: usize) -> Self {
        ConstraintId(index as u32)
    }

    /// The index of the constraint.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ConstraintId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.0)
    }
}

/// A declared domain: a range of integers or an explicit set.
///
/// ```
/// use csp_core::Domain;
/// assert_eq!(Domain::from(-1..=1).values(), vec![-1, 0, 1]);
/// assert_eq!(Domain::from(vec![7, -3, 7, 2]).values(), vec![-3, 2, 7]);
/// assert!(Domain::from(vec![]).is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Domain {
    /// Every integer from the first to the second bound, inclusive.
    Range(Value, Value),
    /// Exactly these values (kept sorted and without duplicates).
    Set(Vec<Value>),
}

impl Domain {
    /// A domain holding exactly `values` (duplicates are ignored).
    pub fn from_values(values: impl IntoIterator<Item = Value>) -> Self {
        let mut v: Vec<Value> = values.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        Domain::Set(v)
    }

    /// Whether the domain has no value.
    pub fn is_empty(&self) -> bool {
        match self {
            Domain::Range(lo, hi) => lo > hi,
            Domain::Set(v) => v.is_empty(),
        }
    }

    /// The smallest and largest value, if any.
    pub fn bounds(&self) -> Option<(Value, Value)> {
        match self {
            Domain::Range(lo, hi) if lo <= hi => Some((*lo, *hi)),
            Domain::Set(v) if !v.is_empty() => Some((v[0], v[v.len() - 1])),
            _ => None,
        }
    }

    /// Number of values.
    pub fn len(&self) -> u128 {
        match self {
            Domain::Range(lo, hi) if lo <= hi => (*hi as i128 - *lo as i128 + 1) as u128,
            Domain::Range(..) => 0,
            Domain::Set(v) => v.len() as u128,
        }
    }

    /// Whether `value` belongs to the domain.
    pub fn contains(&self, value: Value) -> bool {
        match self {
            Domain::Range(lo, hi) => (*lo..=*hi).contains(&value),
            Domain::Set(v) => v.binary_search(&value).is_ok(),
        }
    }

    /// All values in increasing order (allocates; meant for small domains).
    pub fn values(&self) -> Vec<Value> {
        match self {
            Domain::Range(lo, hi) => (*lo..=*hi).collect(),
            Domain::Set(v) => v.clone(),
        }
    }

    /// The explicit value list for a sparse set, `None` for a range.
    pub(crate) fn explicit(&self) -> Option<&[Value]> {
        match self {
            Domain::Range(..) => None,
            Domain::Set(v) => Some(v),
        }
    }
}

impl From<RangeInclusive<Value>> for Domain {
    fn from(r: RangeInclusive<Value>) -> Self {
        Domain::Range(*r.start(), *r.end())
    }
}

impl From<Vec<Value>> for Domain {
    fn from(v: Vec<Value>) -> Self {
        Domain::from_values(v)
    }
}

impl From<&[Value]> for Domain {
    fn from(v: &[Value]) -> Self {
        Domain::from_values(v.iter().copied())
    }
}

impl<const N: usize> From<[Value; N]> for Domain {
    fn from(v: [Value; N]) -> Self {
        Domain::from_values(v)
    }
}
