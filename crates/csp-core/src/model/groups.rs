//! Named groups of constraints: the names an explanation reports.

use crate::{ConstraintId, CspError};

/// The named groups of a model, each a list of constraints; a constraint
/// belongs to at most one group.
#[derive(Clone, Debug, Default)]
pub(crate) struct Groups {
    /// The groups in the order they were first named.
    named: Vec<(String, Vec<ConstraintId>)>,
    /// Per constraint (by id), its group's index, once it has one.
    of: Vec<Option<u32>>,
}

impl Groups {
    /// Adds `constraints` (ids below `count`) to the group `name`, creating it
    /// if it is new.
    pub(crate) fn name(
        &mut self,
        name: String,
        constraints: &[ConstraintId],
        count: usize,
    ) -> Result<(), CspError> {
        let invalid = |message: String| CspError::InvalidArgument {
            context: format!("name_group(\"{name}\")"),
            message,
        };
        if name.is_empty() {
            return Err(invalid("the name is empty".into()));
        }
        if let Some(c) = constraints.iter().find(|c| c.index() >= count) {
            return Err(invalid(format!(
                "unknown constraint {c} (the model has {count} constraints)"
            )));
        }
        let g = match self.named.iter().position(|(n, _)| *n == name) {
            Some(g) => g,
            None => self.named.len(),
        };
        // Naming a constraint of this group again (or twice) changes nothing.
        for c in constraints {
            if let Some(o) = self.of.get(c.index()).copied().flatten()
                && o as usize != g
            {
                let owner = &self.named[o as usize].0;
                return Err(invalid(format!(
                    "constraint {c} is already in group \"{owner}\""
                )));
            }
        }
        if g == self.named.len() {
            self.named.push((name, Vec::new()));
        }
        if self.of.len() < count {
            self.of.resize(count, None);
        }
        for &c in constraints {
            if self.of[c.index()].is_none() {
                self.of[c.index()] = Some(g as u32);
                self.named[g].1.push(c);
            }
        }
        Ok(())
    }

    /// The groups, in the order they were first named.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &[ConstraintId])> + '_ {
        self.named.iter().map(|(n, c)| (n.as_str(), c.as_slice()))
    }

    /// The index of the group of `c` (in [`iter`](Groups::iter)'s order), if any.
    pub(crate) fn index_of(&self, c: ConstraintId) -> Option<usize> {
        self.of
            .get(c.index())
            .copied()
            .flatten()
            .map(|g| g as usize)
    }
}

#[cfg(test)]
mod tests {
    use crate::{ConstraintId, Model};

    #[test]
    fn groups_grow_by_name_and_refuse_a_second_owner() {
        let mut m = Model::new();
        let x = m.int_var(0..=3).unwrap();
        let a = m.post(x.le(2)).unwrap();
        let b = m.post(x.ge(1)).unwrap();
        let c = m.post(x.ne(2)).unwrap();
        m.name_group("bounds", &[a]).unwrap();
        m.name_group("bounds", &[b, b, a]).unwrap();
        assert_eq!(m.groups().collect::<Vec<_>>(), [("bounds", &[a, b][..])]);
        assert_eq!(m.group_of(b), Some("bounds"));
        assert_eq!(m.group_of(c), None);
        let e = m.name_group("other", &[c, a]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "name_group(\"other\"): constraint c0 is already in group \"bounds\""
        );
        assert_eq!(m.groups().count(), 1, "a refused group is not made");
        let e = m.name_group("other", &[ConstraintId::new(9)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "name_group(\"other\"): unknown constraint c9 (the model has 3 constraints)"
        );
        let e = m.name_group("", &[c]).unwrap_err();
        assert_eq!(e.to_string(), "name_group(\"\"): the name is empty");
    }
}
