//! Exam timetabling with room capacity: exams that share a student sit in
//! different slots, and each slot holds at most `capacity` exams.

use csp_core::{CspError, Model, Value, VarId};

/// Exams and who takes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exams {
    /// The exams' names.
    pub names: Vec<String>,
    /// Each student's exams (indices into `names`).
    pub students: Vec<Vec<usize>>,
}

impl Exams {
    /// Eight exams and eight students: 14 pairs of exams share a student. With 4
    /// slots there are 960 conflict-free timetables, 144 of them with at most 2
    /// exams per slot; with 3 slots, 24.
    pub fn sample() -> Exams {
        let names = [
            "Algebra",
            "Biology",
            "Chemistry",
            "Databases",
            "English",
            "French",
            "Geography",
            "History",
        ];
        let students = [
            vec![0, 1, 2],
            vec![0, 3],
            vec![1, 4, 5],
            vec![2, 6],
            vec![3, 7, 4],
            vec![5, 6],
            vec![0, 7],
            vec![2, 4],
        ];
        Exams {
            names: names.iter().map(|s| s.to_string()).collect(),
            students: students.to_vec(),
        }
    }

    /// `exams` exams (`E001`, `E002`, ...) and `students` students, each
    /// taking `per_student` exams drawn at random from `seed`, except the
    /// first, who takes `busiest` (the first `busiest` exams). Refuses more
    /// exams per student than there are exams, and fewer than one exam.
    ///
    /// ```
    /// use csp_examples::exam_timetable::Exams;
    /// let e = Exams::random(100, 90, 3, 6, 1)?;
    /// assert_eq!((e.names.len(), e.students.len()), (100, 90));
    /// assert_eq!(e.students[0], [0, 1, 2, 3, 4, 5]);
    /// # Ok::<(), csp_core::CspError>(())
    /// ```
    pub fn random(
        exams: usize,
        students: usize,
        per_student: usize,
        busiest: usize,
        seed: u64,
    ) -> Result<Exams, CspError> {
        if exams == 0 || per_student > exams || busiest > exams || exams > 100_000 {
            return Err(CspError::InvalidArgument {
                context: "random exams".into(),
                message: format!(
                    "{exams} exams (1 to 100000) cannot give each student {per_student} \
                     and the busiest {busiest}"
                ),
            });
        }
        let mut rng = csp_core::rng::SplitMix64::new(seed);
        let names = (1..=exams).map(|i| format!("E{i:03}")).collect();
        let mut all = Vec::with_capacity(students);
        if students > 0 {
            all.push((0..busiest).collect());
        }
        while all.len() < students {
            let mut taken: Vec<usize> = Vec::with_capacity(per_student);
            while taken.len() < per_student {
                let e = rng.below(exams as u64) as usize;
                if !taken.contains(&e) {
                    taken.push(e);
                }
            }
            all.push(taken);
        }
        Ok(Exams {
            names,
            students: all,
        })
    }

    /// The pairs `(a, b)`, `a < b`, of exams that share a student, each once.
    pub fn conflicts(&self) -> Vec<(usize, usize)> {
        let mut pairs: Vec<(usize, usize)> = self
            .students
            .iter()
            .flat_map(|s| {
                s.iter()
                    .flat_map(move |&a| s.iter().map(move |&b| (a, b)))
                    .filter(|(a, b)| a < b)
            })
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// Whether `slots_of` (one slot per exam) is a timetable: conflicting exams
    /// apart, every slot in `0..slots` and holding at most `capacity` exams.
    pub fn is_timetable(&self, slots: usize, capacity: usize, slots_of: &[Value]) -> bool {
        slots_of.len() == self.names.len()
            && slots_of
                .iter()
                .all(|&s| usize::try_from(s).is_ok_and(|s| s < slots))
            && self
                .conflicts()
                .iter()
                .all(|&(a, b)| slots_of[a] != slots_of[b])
            && (0..slots as Value).all(|s| slots_of.iter().filter(|&&t| t == s).count() <= capacity)
    }
}

/// How the capacity of a slot is stated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capacity {
    /// `at_most(slot, s, capacity)` for each slot `s`.
    AtMost,
    /// `count(slot, s, load[s])` with `load[s]` in `0..=capacity`: the same
    /// timetables, with each slot's load as a variable.
    Count,
}

/// The model: `slot[e]` in `0..slots` per exam, `slot[a] != slot[b]` for
/// exams sharing a student, and the capacity of each slot (its room). Each
/// rule is a named group ([`Model::name_group`]), so that
/// [`csp_core::explain`] says which clash: `Algebra and Biology share a
/// student`, `room of slot 2 holds 2 exams`.
///
/// Without a capacity constraint, "at most 2 exams per slot" is one predicate
/// over all eight slot variables, which the plain check can only test once
/// every exam has a slot; `at_most` rejects a third exam in a slot at once and,
/// under forward checking, removes a full slot from the other exams.
///
/// ```
/// use csp_core::{Config, Solver};
/// use csp_examples::exam_timetable::{Capacity, ExamTimetable, Exams};
/// let exams = Exams::sample();
/// let t = ExamTimetable::new(&exams, 4, 2, Capacity::AtMost)?;
/// assert_eq!(Solver::new(&t.model, Config::textbook())?.count().solutions, 144);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Debug)]
pub struct ExamTimetable {
    /// The model.
    pub model: Model,
    /// Each exam's slot.
    pub slot: Vec<VarId>,
    /// Each slot's number of exams (with [`Capacity::Count`] only).
    pub load: Vec<VarId>,
    /// The number of slots.
    pub slots: usize,
}

impl ExamTimetable {
    /// The model for `exams` in `slots` slots of `capacity` exams each.
    pub fn new(
        exams: &Exams,
        slots: usize,
        capacity: usize,
        form: Capacity,
    ) -> Result<Self, CspError> {
        if slots == 0 || slots > 10_000 {
            return Err(CspError::InvalidArgument {
                context: "exam timetable".into(),
                message: format!("{slots} slots is not between 1 and 10000"),
            });
        }
        let mut model = Model::new();
        let last = slots as Value - 1;
        let slot: Vec<VarId> = exams
            .names
            .iter()
            .map(|name| model.named_int_var(name.clone(), 0..=last))
            .collect::<Result<_, _>>()?;
        for (a, b) in exams.conflicts() {
            let c = model.not_equal(slot[a], slot[b])?;
            let name = format!("{} and {} share a student", exams.names[a], exams.names[b]);
            model.name_group(name, &[c])?;
        }
        let mut load = Vec::new();
        let cap = capacity.min(exams.names.len()) as Value;
        for s in 0..=last {
            let c = match form {
                Capacity::AtMost => model.at_most(&slot, s, capacity)?,
                Capacity::Count => {
                    let l = model.named_int_var(format!("load[{s}]"), 0..=cap)?;
                    load.push(l);
                    model.count(&slot, s, l)?
                }
            };
            let name = format!("room of slot {} holds {capacity} exams", s + 1);
            model.name_group(name, &[c])?;
        }
        Ok(ExamTimetable {
            model,
            slot,
            load,
            slots,
        })
    }

    /// A solution as one line per slot: `slot 1: Algebra, English`.
    pub fn show(&self, exams: &Exams, values: &[Value]) -> Vec<String> {
        (0..self.slots as Value)
            .map(|s| {
                let names: Vec<&str> = self
                    .slot
                    .iter()
                    .zip(&exams.names)
                    .filter(|(v, _)| values[v.index()] == s)
                    .map(|(_, n)| n.as_str())
                    .collect();
                format!("slot {}: {}", s + 1, names.join(", "))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_has_fourteen_conflicts() {
        let exams = Exams::sample();
        let c = exams.conflicts();
        assert_eq!(c.len(), 14);
        assert!(c.contains(&(0, 1)) && c.contains(&(4, 7)) && !c.contains(&(0, 4)));
    }

    #[test]
    fn no_slot_is_an_error() {
        let e = ExamTimetable::new(&Exams::sample(), 0, 2, Capacity::AtMost).unwrap_err();
        assert_eq!(
            e.to_string(),
            "exam timetable: 0 slots is not between 1 and 10000"
        );
    }
}
