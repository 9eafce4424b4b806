//! The travelling salesman: visit every city once and come back, as cheaply as
//! possible, with one successor variable per city and [`Model::circuit`].

use csp_core::{CspError, Model, Relation, Value, VarId};

/// A symmetric instance: cities on a grid, distances rounded to the nearest
/// integer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tsp {
    /// The cities' `(x, y)` coordinates.
    pub cities: Vec<(Value, Value)>,
}

impl Tsp {
    /// `n` cities at pseudo-random points of a 100 x 100 grid, the same for the
    /// same `seed` (a linear congruential generator, so the instance is portable).
    pub fn random(n: usize, seed: u64) -> Self {
        let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % 100) as Value
        };
        Tsp {
            cities: (0..n).map(|_| (next(), next())).collect(),
        }
    }

    /// The distance from city `i` to city `j`, rounded to the nearest integer.
    pub fn distance(&self, i: usize, j: usize) -> Value {
        let (a, b) = (self.cities[i], self.cities[j]);
        let (dx, dy) = ((a.0 - b.0) as f64, (a.1 - b.1) as f64);
        dx.hypot(dy).round() as Value
    }

    /// The length of the tour that visits the cities in the order `tour` and
    /// returns to the first.
    pub fn tour_length(&self, tour: &[usize]) -> Value {
        (0..tour.len())
            .map(|k| self.distance(tour[k], tour[(k + 1) % tour.len()]))
            .sum()
    }
}

/// The model: `next[i]` is the city after city `i`; [`Model::circuit`] makes
/// the successors one tour (no sub-tours); `leg[i] = distance(i, next[i])` by
/// [`Model::element`]; `length = sum of legs`, to minimise.
///
/// ```
/// use csp_core::{Config, Solver};
/// use csp_examples::tsp::{Tsp, TspModel};
/// let tsp = Tsp::random(6, 1);
/// let m = TspModel::new(&tsp, None)?;
/// let best = Solver::new(&m.model, Config::textbook())?.minimize(m.length)?;
/// let tour = m.tour(best.best.unwrap().values());
/// assert_eq!(Some(tsp.tour_length(&tour)), best.objective);
/// # Ok::<(), csp_core::CspError>(())
/// ```
#[derive(Debug)]
pub struct TspModel {
    /// The model.
    pub model: Model,
    /// `next[i]`: the city visited after city `i`.
    pub next: Vec<VarId>,
    /// The tour's length.
    pub length: VarId,
}

impl TspModel {
    /// The model of `tsp`, with the length at most `max_length` if given. Fails
    /// with fewer than 2 cities.
    pub fn new(tsp: &Tsp, max_length: Option<Value>) -> Result<Self, CspError> {
        let n = tsp.cities.len();
        if n < 2 {
            return Err(CspError::InvalidArgument {
                context: "tsp".into(),
                message: format!("{n} cities: a tour needs at least 2"),
            });
        }
        let mut model = Model::new();
        let next = model.int_var_array("next", n, 0..=n as Value - 1)?;
        model.circuit(&next)?;
        let mut legs = Vec::with_capacity(n);
        let mut most = 0;
        for (i, &x) in next.iter().enumerate() {
            let row: Vec<Value> = (0..n).map(|j| tsp.distance(i, j)).collect();
            let (lo, hi) = (
                *row.iter().min().unwrap_or(&0),
                *row.iter().max().unwrap_or(&0),
            );
            most += hi;
            let leg = model.named_int_var(format!("leg{i}"), lo..=hi)?;
            model.element(x, &row, leg)?;
            legs.push(leg);
        }
        let length = model.named_int_var("length", 0..=max_length.unwrap_or(most).min(most))?;
        let mut coeffs = vec![1; n];
        coeffs.push(-1);
        let mut terms = legs.clone();
        terms.push(length);
        model.linear(&coeffs, &terms, Relation::Eq, 0)?;
        Ok(TspModel {
            model,
            next,
            length,
        })
    }

    /// A solution's tour, from city 0.
    pub fn tour(&self, values: &[Value]) -> Vec<usize> {
        let mut tour = vec![0];
        let mut at = 0;
        for _ in 1..self.next.len() {
            at = usize::try_from(values[self.next[at].index()]).unwrap_or(0);
            tour.push(at);
        }
        tour
    }
}
