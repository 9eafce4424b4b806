//! Graph colouring: the k-colouring model, bounds (clique, DSATUR), and the chromatic number.

use std::fmt;

use csp_core::{
    Config, CspError, Model, Relation, SearchStats, SearchStatus, Solver, StopReason, Value, VarId,
};

use crate::budget::Budget;
use crate::graph::Graph;

/// How to search for the chromatic number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// One search that minimises the number of colours (branch and bound).
    #[default]
    #[value(name = "bnb")]
    BranchAndBound,
    /// A k-colouring search for each k, from the heuristic's count downwards,
    /// until one fails.
    #[value(name = "decreasing")]
    Decreasing,
}

/// A colouring model: a colour variable per vertex and `!=` per edge.
#[derive(Debug)]
pub struct ColoringModel {
    /// The model.
    pub model: Model,
    /// The colour of each vertex, `0..k`.
    pub colors: Vec<VarId>,
    /// Under branch and bound: the number of colours used (at least every colour + 1).
    pub num_colors: Option<VarId>,
}

impl ColoringModel {
    /// Colourings of `graph` with colours `0..k`. The vertices of `clique` (a
    /// clique) get colours `0, 1, ...` in order, which removes the symmetry of
    /// renaming colours without losing any colouring up to renaming.
    ///
    /// ```
    /// use csp_core::{Config, Solver};
    /// use csp_examples::{graph::Graph, graph_coloring::ColoringModel};
    /// let c5 = Graph::new(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)])?;
    /// let count = |k| Solver::new(&ColoringModel::k_coloring(&c5, k, &[]).unwrap().model, Config::textbook())
    ///     .unwrap().count().solutions;
    /// assert_eq!((count(2), count(3)), (0, 30)); // an odd cycle: (k-1)^5 - (k-1)
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn k_coloring(graph: &Graph, k: usize, clique: &[usize]) -> Result<Self, CspError> {
        let mut model = Model::new();
        let top = k as Value - 1;
        let colors = (0..graph.num_vertices())
            .map(|v| {
                let name = format!("color[{}]", v + 1);
                match clique.iter().position(|&c| c == v) {
                    Some(i) if (i as Value) <= top => {
                        model.named_int_var(name, i as Value..=i as Value)
                    }
                    _ => model.named_int_var(name, 0..=top),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        for &(u, v) in graph.edges() {
            model.not_equal(colors[u], colors[v])?;
        }
        Ok(ColoringModel {
            model,
            colors,
            num_colors: None,
        })
    }

    /// Colourings with at most `upper` colours and at least `lower`, with a
    /// variable counting the colours, to minimise.
    pub fn minimizing(
        graph: &Graph,
        lower: usize,
        upper: usize,
        clique: &[usize],
    ) -> Result<Self, CspError> {
        let mut m = ColoringModel::k_coloring(graph, upper, clique)?;
        let count = m
            .model
            .named_int_var("colors", lower as Value..=upper as Value)?;
        for &c in &m.colors {
            m.model.linear(&[1, -1], &[c, count], Relation::Le, -1)?;
        }
        m.num_colors = Some(count);
        Ok(m)
    }
}

/// A large clique found greedily: a lower bound on the chromatic number.
///
/// ```
/// use csp_examples::{graph_coloring::greedy_clique, graph_generators::queen_graph};
/// assert_eq!(greedy_clique(&queen_graph(6, 6)).len(), 6); // a row
/// ```
pub fn greedy_clique(graph: &Graph) -> Vec<usize> {
    greedy_clique_within(graph, &Budget::unlimited()).0
}

/// [`greedy_clique`] within `budget`: when the time limit or Ctrl-C stops it,
/// the largest clique found so far (still a clique, so still a lower bound)
/// and the reason.
pub fn greedy_clique_within(graph: &Graph, budget: &Budget) -> (Vec<usize>, Option<StopReason>) {
    let n = graph.num_vertices();
    let adj = graph.adjacency();
    let mut best: Vec<usize> = Vec::new();
    let mut stopped = None;
    // For each candidate, its neighbours among the candidates, kept up to date
    // as the candidates shrink: O(edges) per seed instead of O(candidates^2)
    // per pick.
    let mut in_candidates = vec![false; n];
    let mut links = vec![0usize; n];
    let mut beside_pick = vec![false; n];
    'seeds: for (seed, neighbours) in adj.iter().enumerate() {
        // A clique through `seed` has at most its degree + 1 vertices.
        if neighbours.len() < best.len() {
            continue;
        }
        let mut clique = vec![seed];
        let mut candidates = neighbours.clone();
        for &v in &candidates {
            in_candidates[v] = true;
        }
        for &v in &candidates {
            links[v] = adj[v].iter().filter(|&&w| in_candidates[w]).count();
        }
        while !candidates.is_empty() {
            if let Some(reason) = budget.stopped() {
                // The clique being grown is a clique too.
                if clique.len() > best.len() {
                    best = clique;
                }
                for &v in &candidates {
                    in_candidates[v] = false;
                }
                stopped = Some(reason);
                break 'seeds;
            }
            // The candidate with the most neighbours among the candidates
            // (ties: the smallest vertex).
            let mut pick = candidates[0];
            for &v in &candidates {
                if (links[v], usize::MAX - v) > (links[pick], usize::MAX - pick) {
                    pick = v;
                }
            }
            clique.push(pick);
            // Leave the candidates that are not neighbours of `pick` (and
            // `pick` itself), and take them off their neighbours' counts.
            for &w in &adj[pick] {
                beside_pick[w] = true;
            }
            let (kept, left): (Vec<usize>, Vec<usize>) =
                candidates.iter().partition(|&&w| beside_pick[w]);
            for &w in &adj[pick] {
                beside_pick[w] = false;
            }
            for &r in &left {
                in_candidates[r] = false;
            }
            for &r in &left {
                for &w in &adj[r] {
                    if in_candidates[w] {
                        links[w] -= 1;
                    }
                }
            }
            candidates = kept;
        }
        if clique.len() > best.len() {
            best = clique;
        }
    }
    if best.is_empty() && n > 0 {
        best.push(0);
    }
    best.sort_unstable();
    (best, stopped)
}

/// Brélaz's DSATUR colouring: repeatedly colour the vertex with the most
/// differently coloured neighbours (ties: most uncoloured neighbours) with the
/// smallest colour it can take. An upper bound on the chromatic number.
///
/// ```
/// use csp_examples::{graph::Graph, graph_coloring::dsatur};
/// let c5 = Graph::new(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)])?;
/// let colors = dsatur(&c5);
/// assert!(c5.is_proper_coloring(&colors));
/// assert_eq!(Graph::colors_used(&colors), 3);
/// # Ok::<(), csp_examples::graph::GraphError>(())
/// ```
pub fn dsatur(graph: &Graph) -> Vec<usize> {
    dsatur_within(graph, &Budget::unlimited()).0
}

/// [`dsatur`] within `budget`: when the time limit or Ctrl-C stops it, the
/// vertices not yet coloured get the smallest colour free among their
/// neighbours, in vertex order (linear time), so the colouring is still proper
/// (an upper bound, perhaps a weaker one); the reason is returned with it.
pub fn dsatur_within(graph: &Graph, budget: &Budget) -> (Vec<usize>, Option<StopReason>) {
    let n = graph.num_vertices();
    let adj = graph.adjacency();
    let mut color: Vec<Option<usize>> = vec![None; n];
    // Kept up to date as vertices are coloured: the colours among each
    // vertex's neighbours, and its uncoloured neighbours.
    let mut seen: Vec<std::collections::HashSet<usize>> = vec![Default::default(); n];
    let mut free_degree: Vec<usize> = adj.iter().map(Vec::len).collect();
    let mut stopped = None;
    'steps: for _ in 0..n {
        let mut best: Option<(usize, (usize, usize))> = None;
        for v in (0..n).filter(|&v| color[v].is_none()) {
            if v % 1024 == 0
                && let Some(reason) = budget.stopped()
            {
                stopped = Some(reason);
                break 'steps;
            }
            let key = (seen[v].len(), free_degree[v]);
            if best.is_none_or(|(_, k)| key > k) {
                best = Some((v, key));
            }
        }
        let Some((v, _)) = best else {
            break;
        };
        let c = smallest_free(&adj[v], &color);
        color[v] = Some(c);
        for &w in &adj[v] {
            seen[w].insert(c);
            free_degree[w] -= 1;
        }
        if let Some(reason) = budget.stopped() {
            stopped = Some(reason);
            break;
        }
    }
    for v in 0..n {
        if color[v].is_none() {
            color[v] = Some(smallest_free(&adj[v], &color));
        }
    }
    (color.into_iter().map(|c| c.unwrap_or(0)).collect(), stopped)
}

/// The smallest colour no neighbour has (time linear in the degree).
fn smallest_free(neighbours: &[usize], color: &[Option<usize>]) -> usize {
    let mut used = vec![false; neighbours.len() + 1];
    for c in neighbours.iter().filter_map(|&w| color[w]) {
        if let Some(slot) = used.get_mut(c) {
            *slot = true;
        }
    }
    used.iter().position(|&u| !u).unwrap_or(neighbours.len())
}

/// One k-colouring search of [`Method::Decreasing`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// Colours allowed.
    pub k: usize,
    /// Whether a colouring was found.
    pub found: bool,
    /// How the search ended.
    pub status: SearchStatus,
    /// Nodes it visited.
    pub nodes: u64,
}

/// What the chromatic-number search established.
#[derive(Clone, Debug)]
pub struct ChromaticReport {
    /// The best colouring found (colours `0..`), one per vertex.
    pub coloring: Vec<usize>,
    /// The colours it uses: an upper bound on the chromatic number.
    pub upper: usize,
    /// A proven lower bound (the clique found, or a failed k-colouring plus one).
    pub lower: usize,
    /// The clique behind the first lower bound.
    pub clique: Vec<usize>,
    /// The colours of the DSATUR heuristic, where the search started.
    pub heuristic: usize,
    /// Under [`Method::Decreasing`]: each k tried.
    pub attempts: Vec<Attempt>,
    /// The work of all searches together.
    pub stats: SearchStats,
    /// `Complete` when `lower == upper` is proven, else the limit that stopped it.
    pub status: SearchStatus,
}

impl ChromaticReport {
    /// The chromatic number, when proven.
    pub fn chromatic_number(&self) -> Option<usize> {
        (self.lower == self.upper).then_some(self.upper)
    }
}

impl fmt::Display for ChromaticReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.chromatic_number() {
            Some(k) => write!(f, "chromatic number {k}"),
            None => write!(
                f,
                "chromatic number between {} and {}",
                self.lower, self.upper
            ),
        }
    }
}

/// Finds the chromatic number of `graph`: a clique gives the lower bound, DSATUR
/// the upper bound, and the search closes the gap with `method`.
///
/// ```
/// use csp_core::{Config, Pruning};
/// use csp_examples::graph_coloring::{chromatic_number, Method};
/// use csp_examples::graph_generators::mycielski;
/// let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
/// let report = chromatic_number(&mycielski(3), Method::BranchAndBound, config)?;
/// assert_eq!(report.chromatic_number(), Some(4));
/// assert!(mycielski(3).is_proper_coloring(&report.coloring));
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub fn chromatic_number(
    graph: &Graph,
    method: Method,
    config: Config,
) -> Result<ChromaticReport, CspError> {
    let budget = Budget::new(&config);
    let (clique, clique_stopped) = greedy_clique_within(graph, &budget);
    let (coloring, dsatur_stopped) = match clique_stopped {
        // Out of time already: a proper colouring in linear time.
        Some(reason) => (dsatur_within(graph, &Budget::spent(reason)).0, Some(reason)),
        None => dsatur_within(graph, &budget),
    };
    let heuristic = Graph::colors_used(&coloring);
    let mut report = ChromaticReport {
        upper: heuristic,
        lower: clique.len().min(heuristic),
        coloring,
        clique,
        heuristic,
        attempts: Vec::new(),
        stats: SearchStats::default(),
        status: SearchStatus::Complete,
    };
    if report.lower == report.upper {
        return Ok(report);
    }
    if let Some(reason) = dsatur_stopped {
        report.status = SearchStatus::Stopped(reason);
        return Ok(report);
    }
    match method {
        Method::BranchAndBound => {
            let m = ColoringModel::minimizing(graph, report.lower, report.upper, &report.clique)?;
            let Some(count) = m.num_colors else {
                return Ok(report);
            };
            // What is left of the time limit once the model is built (building
            // it for a large graph takes a while too).
            let mut solver = Solver::new(&m.model, budget.remaining(config))?;
            let optimum = solver.minimize(count)?;
            report.stats = optimum.stats;
            report.status = optimum.status;
            if let (Some(best), Some(k)) = (&optimum.best, optimum.objective) {
                let k = usize::try_from(k).unwrap_or(report.upper);
                if k < report.upper {
                    report.upper = k;
                    report.coloring = colors_of(best.values(), &m.colors);
                }
            }
            if optimum.status.is_complete() {
                // No colouring with fewer colours than the best exists.
                report.lower = report.upper;
            }
        }
        Method::Decreasing => {
            while report.upper > report.lower {
                let k = report.upper - 1;
                let m = ColoringModel::k_coloring(graph, k, &report.clique)?;
                // The limits are for the whole run, not for each k: the time
                // left on the clock (model building included), the nodes left.
                let mut step = budget.remaining(config.clone());
                step.limits.nodes = step
                    .limits
                    .nodes
                    .map(|n| n.saturating_sub(report.stats.tried));
                let mut solver = Solver::new(&m.model, step)?;
                let result = solver.first();
                report.stats.merge(&result.stats);
                report.attempts.push(Attempt {
                    k,
                    found: result.solution.is_some(),
                    status: result.status,
                    nodes: result.stats.tried,
                });
                match result.solution {
                    Some(s) => {
                        report.coloring = colors_of(s.values(), &m.colors);
                        report.upper = Graph::colors_used(&report.coloring);
                    }
                    None if result.status.is_complete() => report.lower = k + 1,
                    None => {
                        report.status = result.status;
                        break;
                    }
                }
            }
        }
    }
    Ok(report)
}

fn colors_of(values: &[Value], vars: &[VarId]) -> Vec<usize> {
    vars.iter()
        .map(|v| usize::try_from(values[v.index()]).unwrap_or(0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph_generators::{mycielski, queen_graph};
    use csp_core::Pruning;

    #[test]
    fn clique_of_a_mycielski_graph_is_an_edge() {
        assert_eq!(greedy_clique(&mycielski(4)).len(), 2);
    }

    #[test]
    fn dsatur_colours_properly() {
        for g in [queen_graph(5, 5), mycielski(4)] {
            let c = dsatur(&g);
            assert!(g.is_proper_coloring(&c));
        }
    }

    #[test]
    fn both_methods_agree_on_the_five_cycle() {
        let c5 = Graph::new(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]).unwrap();
        for method in [Method::BranchAndBound, Method::Decreasing] {
            let r = chromatic_number(&c5, method, Config::textbook()).unwrap();
            assert_eq!(r.chromatic_number(), Some(3));
        }
    }

    fn complete(n: usize) -> Graph {
        let edges = (0..n).flat_map(|u| (u + 1..n).map(move |v| (u, v)));
        Graph::new(n, edges).unwrap()
    }

    #[test]
    fn a_spent_budget_still_gives_bounds() {
        let k = complete(60);
        let (clique, why) = greedy_clique_within(&k, &Budget::spent(StopReason::TimeLimit));
        assert_eq!((clique.len(), why), (1, Some(StopReason::TimeLimit)));
        let (colors, why) = dsatur_within(&k, &Budget::spent(StopReason::Cancelled));
        assert!(k.is_proper_coloring(&colors));
        assert_eq!(why, Some(StopReason::Cancelled));
    }

    #[test]
    fn a_time_limit_stops_the_bounds_of_a_large_complete_graph() {
        let k = complete(200);
        let config = Config::textbook().with_time_limit(std::time::Duration::from_millis(50));
        let started = std::time::Instant::now();
        let r = chromatic_number(&k, Method::BranchAndBound, config).unwrap();
        assert!(
            started.elapsed() < std::time::Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
        assert!(k.is_proper_coloring(&r.coloring));
        assert!(r.lower <= 200 && r.upper >= r.lower);
    }

    #[test]
    fn a_node_limit_leaves_bounds_not_an_answer() {
        let g = mycielski(4);
        let config = Config::textbook()
            .with_pruning(Pruning::Check)
            .with_node_limit(10);
        let r = chromatic_number(&g, Method::Decreasing, config).unwrap();
        assert!(r.chromatic_number().is_none());
        assert!(matches!(r.status, SearchStatus::Stopped(_)));
        assert!(g.is_proper_coloring(&r.coloring));
        assert!(r.lower < r.upper);
    }
}
