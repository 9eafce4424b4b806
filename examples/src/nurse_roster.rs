//! A nurse roster: who works which shift on which day, written as a newcomer
//! would write it with expressions, and solved with [`Config::default`].
//!
//! Each nurse works one shift a day or is off: `0` off, `1` early, `2` late,
//! `3` night. Every day needs at least its demand of each shift (`count`),
//! every nurse has at least `min_days_off` days off (`at_least`), no nurse
//! works a night and then the next day's early shift (two reified equalities
//! and a clause), and the nurses' wishes (a day off, no night) cost a
//! penalty when they are not met; the roster minimises the total penalty.
//!
//! ```
//! use csp_core::{Config, Solver};
//! use csp_examples::nurse_roster::Roster;
//! let roster = Roster::sample();
//! let built = roster.build()?;
//! let mut solver = Solver::new(&built.model, Config::default())?;
//! let best = solver.minimize(built.cost.clone())?;
//! assert!(best.status.is_complete());
//! let plan = best.best.unwrap();
//! assert_eq!(roster.cost_of(&built.shifts_of(plan.values())), best.objective);
//! # Ok::<(), csp_core::CspError>(())
//! ```
//!
//! [`Config::default`]: csp_core::Config::default

use csp_core::{CspError, LinExpr, Model, Value, VarId};

/// The shifts' names, by value.
pub const SHIFTS: [&str; 4] = ["off", "early", "late", "night"];

/// Off duty.
pub const OFF: Value = 0;
/// The early shift.
pub const EARLY: Value = 1;
/// The night shift.
pub const NIGHT: Value = 3;

/// A wish of one nurse for one day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wish {
    /// The nurse wants the day off.
    DayOff,
    /// The nurse does not want the night shift.
    NoNight,
}

/// A rostering problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roster {
    /// The nurses' names.
    pub nurses: Vec<String>,
    /// The number of days.
    pub days: usize,
    /// `demand[d][s - 1]`: nurses needed on day `d` for shift `s` (early,
    /// late, night).
    pub demand: Vec<[usize; 3]>,
    /// Days off every nurse must have, at least.
    pub min_days_off: usize,
    /// `(nurse, day, wish, penalty if not met)`.
    pub wishes: Vec<(usize, usize, Wish, Value)>,
}

/// A roster's model: the shift variables (`shifts[nurse][day]`) and the
/// penalty to minimise.
#[derive(Debug)]
pub struct BuiltRoster {
    /// The model.
    pub model: Model,
    /// `shifts[nurse][day]`, in `0..=3`.
    pub shifts: Vec<Vec<VarId>>,
    /// The total penalty of the unmet wishes.
    pub cost: LinExpr,
}

impl BuiltRoster {
    /// The shifts of a solution, `[nurse][day]`.
    pub fn shifts_of(&self, values: &[Value]) -> Vec<Vec<Value>> {
        self.shifts
            .iter()
            .map(|row| row.iter().map(|v| values[v.index()]).collect())
            .collect()
    }
}

impl Roster {
    /// Five nurses over a week: two early shifts on Monday to Wednesday, one
    /// on the other days, one late and one night shift every day, two days
    /// off each, and eleven wishes.
    pub fn sample() -> Roster {
        let nurses = ["Ada", "Ben", "Cleo", "Dev", "Eve"];
        let busy = [2, 1, 1];
        let calm = [1, 1, 1];
        use Wish::*;
        Roster {
            nurses: nurses.iter().map(|s| s.to_string()).collect(),
            days: 7,
            demand: vec![busy, busy, busy, calm, calm, calm, calm],
            min_days_off: 2,
            wishes: vec![
                (0, 5, DayOff, 3),
                (0, 6, DayOff, 3),
                (1, 0, DayOff, 2),
                (1, 2, NoNight, 1),
                (2, 4, DayOff, 4),
                (2, 5, NoNight, 2),
                (3, 1, DayOff, 2),
                (3, 3, NoNight, 2),
                (4, 0, DayOff, 1),
                (4, 6, DayOff, 5),
                (4, 2, NoNight, 1),
            ],
        }
    }

    /// The model, written with expressions and the globals a newcomer meets
    /// first.
    pub fn build(&self) -> Result<BuiltRoster, CspError> {
        let mut m = Model::new();
        let shifts: Vec<Vec<VarId>> = self
            .nurses
            .iter()
            .map(|name| m.int_var_array(name, self.days, OFF..=NIGHT))
            .collect::<Result<_, _>>()?;
        let n = self.nurses.len();
        for (d, need) in self.demand.iter().enumerate() {
            let today: Vec<VarId> = shifts.iter().map(|row| row[d]).collect();
            for (s, &k) in (EARLY..=NIGHT).zip(need) {
                // How many nurses work shift s today: at least the demand.
                let staffed = m.int_var(0..=n as Value)?;
                m.count(&today, s, staffed)?;
                m.post(staffed.ge(k as Value))?;
            }
        }
        for row in &shifts {
            m.at_least(row, OFF, self.min_days_off)?;
            for pair in row.windows(2) {
                // Not a night followed by an early shift.
                let night = m.post_reif(pair[0].eq(NIGHT))?;
                let early = m.post_reif(pair[1].eq(EARLY))?;
                m.clause(&[], &[night, early])?;
            }
        }
        let mut cost = LinExpr::default();
        for &(nurse, day, wish, penalty) in &self.wishes {
            let x = shifts[nurse][day];
            let unmet = match wish {
                Wish::DayOff => m.post_reif(x.ne(OFF))?,
                Wish::NoNight => m.post_reif(x.eq(NIGHT))?,
            };
            cost = cost + penalty * unmet;
        }
        Ok(BuiltRoster {
            model: m,
            shifts,
            cost,
        })
    }

    /// The penalty of a roster (`[nurse][day]`, shifts `0..=3`), or `None` if
    /// it breaks a rule: an independent check of the model.
    pub fn cost_of(&self, shifts: &[Vec<Value>]) -> Option<Value> {
        let days_ok = shifts.len() == self.nurses.len()
            && shifts.iter().all(|row| {
                row.len() == self.days
                    && row.iter().all(|s| (OFF..=NIGHT).contains(s))
                    && row.iter().filter(|&&s| s == OFF).count() >= self.min_days_off
                    && row.windows(2).all(|p| !(p[0] == NIGHT && p[1] == EARLY))
            });
        let staffed = self.demand.iter().enumerate().all(|(d, need)| {
            (EARLY..=NIGHT)
                .zip(need)
                .all(|(s, &k)| shifts.iter().filter(|row| row[d] == s).count() >= k)
        });
        (days_ok && staffed).then(|| {
            self.wishes
                .iter()
                .filter(|&&(nurse, day, wish, _)| match wish {
                    Wish::DayOff => shifts[nurse][day] != OFF,
                    Wish::NoNight => shifts[nurse][day] == NIGHT,
                })
                .map(|w| w.3)
                .sum()
        })
    }

    /// The roster as a table: one line per nurse, one column per day.
    pub fn show(&self, shifts: &[Vec<Value>]) -> Vec<String> {
        let width = self.nurses.iter().map(String::len).max().unwrap_or(0);
        self.nurses
            .iter()
            .zip(shifts)
            .map(|(name, row)| {
                let cells: Vec<String> = row
                    .iter()
                    .map(|&s| format!("{:<5}", SHIFTS[s as usize]))
                    .collect();
                format!("{name:<width$}  {}", cells.join(" ").trim_end())
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{Config, Solver};

    /// Three nurses, three days: small enough to try all 4^9 rosters.
    fn small() -> Roster {
        Roster {
            nurses: vec!["A".into(), "B".into(), "C".into()],
            days: 3,
            demand: vec![[1, 1, 0], [1, 0, 1], [1, 1, 0]],
            min_days_off: 1,
            wishes: vec![
                (0, 0, Wish::DayOff, 3),
                (1, 1, Wish::NoNight, 2),
                (2, 1, Wish::DayOff, 1),
                (2, 2, Wish::DayOff, 4),
                (0, 1, Wish::NoNight, 1),
            ],
        }
    }

    fn brute_force(r: &Roster) -> Option<Value> {
        let cells = r.nurses.len() * r.days;
        let mut best: Option<Value> = None;
        for code in 0..4u64.pow(cells as u32) {
            let mut c = code;
            let shifts: Vec<Vec<Value>> = (0..r.nurses.len())
                .map(|_| {
                    (0..r.days)
                        .map(|_| {
                            let s = (c % 4) as Value;
                            c /= 4;
                            s
                        })
                        .collect()
                })
                .collect();
            if let Some(cost) = r.cost_of(&shifts) {
                best = Some(best.map_or(cost, |b| b.min(cost)));
            }
        }
        best
    }

    #[test]
    fn the_default_search_proves_the_brute_force_optimum() {
        let r = small();
        let expected = brute_force(&r);
        assert!(expected.is_some());
        let built = r.build().unwrap();
        for config in [Config::default(), Config::textbook()] {
            let mut s = Solver::new(&built.model, config).unwrap();
            let best = s.minimize(built.cost.clone()).unwrap();
            assert!(best.status.is_complete());
            assert_eq!(best.objective, expected);
            let plan = built.shifts_of(best.best.unwrap().values());
            assert_eq!(r.cost_of(&plan), expected);
        }
    }

    #[test]
    fn the_sample_is_proved_optimal_by_the_default_search() {
        let r = Roster::sample();
        let built = r.build().unwrap();
        let mut s = Solver::new(&built.model, Config::default()).unwrap();
        let best = s.minimize(built.cost.clone()).unwrap();
        assert!(best.status.is_complete());
        let plan = built.shifts_of(best.best.unwrap().values());
        assert_eq!(r.cost_of(&plan), best.objective);
        assert_eq!(r.show(&plan).len(), 5);
    }
}
