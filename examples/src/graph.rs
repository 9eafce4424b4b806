//! `Graph`: an undirected simple graph on vertices `0..n`, for the colouring examples.

use std::fmt;

/// An undirected graph without loops or parallel edges; vertices are `0..n`.
///
/// ```
/// use csp_examples::graph::Graph;
/// let triangle = Graph::new(3, [(0, 1), (1, 2), (2, 0), (1, 0)])?;
/// assert_eq!(triangle.num_edges(), 3); // the repeated edge counts once
/// assert!(triangle.is_proper_coloring(&[0, 1, 2]));
/// assert!(!triangle.is_proper_coloring(&[0, 1, 0]));
/// assert!(Graph::new(3, [(0, 0)]).is_err());
/// # Ok::<(), csp_examples::graph::GraphError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    n: usize,
    /// Edges `(u, v)` with `u < v`, sorted, without repeats.
    edges: Vec<(usize, usize)>,
}

/// Why a list of edges is not a simple graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphError {
    /// An edge names a vertex `>= n`.
    VertexOutOfRange {
        /// The vertex.
        vertex: usize,
        /// The number of vertices.
        n: usize,
    },
    /// An edge joins a vertex to itself (no colouring exists).
    SelfLoop {
        /// The vertex.
        vertex: usize,
    },
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::VertexOutOfRange { vertex, n } => {
                write!(
                    f,
                    "vertex {vertex} is out of range (the graph has {n} vertices)"
                )
            }
            GraphError::SelfLoop { vertex } => write!(f, "edge joins vertex {vertex} to itself"),
        }
    }
}

impl std::error::Error for GraphError {}

impl Graph {
    /// The graph on `n` vertices with the given edges (in either direction,
    /// repeats allowed).
    pub fn new(
        n: usize,
        edges: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<Self, GraphError> {
        let mut list = Vec::new();
        for (u, v) in edges {
            for vertex in [u, v] {
                if vertex >= n {
                    return Err(GraphError::VertexOutOfRange { vertex, n });
                }
            }
            if u == v {
                return Err(GraphError::SelfLoop { vertex: u });
            }
            list.push((u.min(v), u.max(v)));
        }
        list.sort_unstable();
        list.dedup();
        Ok(Graph { n, edges: list })
    }

    /// Number of vertices.
    pub fn num_vertices(&self) -> usize {
        self.n
    }

    /// Number of edges.
    pub fn num_edges(&self) -> usize {
        self.edges.len()
    }

    /// The edges `(u, v)`, `u < v`, sorted.
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }

    /// Whether `u` and `v` are adjacent.
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        self.edges.binary_search(&(u.min(v), u.max(v))).is_ok()
    }

    /// For each vertex, its neighbours in increasing order.
    pub fn adjacency(&self) -> Vec<Vec<usize>> {
        let mut adj = vec![Vec::new(); self.n];
        for &(u, v) in &self.edges {
            adj[u].push(v);
            adj[v].push(u);
        }
        for list in &mut adj {
            list.sort_unstable();
        }
        adj
    }

    /// Whether `colors` (one per vertex) gives adjacent vertices different colours.
    pub fn is_proper_coloring<C: PartialEq>(&self, colors: &[C]) -> bool {
        colors.len() == self.n && self.edges.iter().all(|&(u, v)| colors[u] != colors[v])
    }

    /// Number of different colours in `colors`.
    pub fn colors_used<C: Ord>(colors: &[C]) -> usize {
        let mut seen: Vec<&C> = colors.iter().collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_are_normalised_and_deduplicated() {
        let g = Graph::new(4, [(3, 1), (1, 3), (0, 2)]).unwrap();
        assert_eq!(g.edges(), &[(0, 2), (1, 3)]);
        assert!(g.has_edge(3, 1) && !g.has_edge(0, 1));
        assert_eq!(g.adjacency(), vec![vec![2], vec![3], vec![0], vec![1]]);
    }

    #[test]
    fn out_of_range_vertex_is_rejected() {
        assert_eq!(
            Graph::new(2, [(0, 2)]),
            Err(GraphError::VertexOutOfRange { vertex: 2, n: 2 })
        );
    }

    #[test]
    fn colors_used_counts_distinct_values() {
        assert_eq!(Graph::colors_used(&[3, 1, 3, 0]), 3);
    }
}
