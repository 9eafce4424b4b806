//! Map colouring: named regions and their borders, coloured with k colours.

use crate::graph::Graph;

/// A map: region names and the graph of which regions share a border.
#[derive(Clone, Debug)]
pub struct Map {
    /// The map's name.
    pub name: &'static str,
    /// The regions; region `i` is vertex `i` of the graph.
    pub regions: Vec<&'static str>,
    /// Two regions are adjacent when they share a border (not just a point).
    pub graph: Graph,
}

impl Map {
    /// A map from its regions and its borders as pairs of region names.
    /// Fails on a name that is not a region.
    pub fn from_borders(
        name: &'static str,
        regions: &[&'static str],
        borders: &[(&str, &str)],
    ) -> Result<Self, String> {
        let index = |r: &str| {
            regions
                .iter()
                .position(|&x| x == r)
                .ok_or_else(|| format!("{name}: unknown region {r}"))
        };
        let edges = borders
            .iter()
            .map(|&(a, b)| Ok((index(a)?, index(b)?)))
            .collect::<Result<Vec<_>, String>>()?;
        let graph = Graph::new(regions.len(), edges).map_err(|e| format!("{name}: {e}"))?;
        Ok(Map {
            name,
            regions: regions.to_vec(),
            graph,
        })
    }

    /// The region named `name`, as a vertex.
    pub fn region(&self, name: &str) -> Option<usize> {
        self.regions.iter().position(|&r| r == name)
    }
}

/// Australia's seven states and territories, the textbook example of Russell
/// and Norvig (*AIMA*, ch. 6). Tasmania borders nothing.
///
/// ```
/// use csp_core::{Config, Solver};
/// use csp_examples::{graph_coloring::ColoringModel, map_coloring::australia};
/// let map = australia();
/// let m = ColoringModel::k_coloring(&map.graph, 3, &[])?;
/// assert_eq!(Solver::new(&m.model, Config::textbook())?.count().solutions, 18);
/// # Ok::<(), csp_core::CspError>(())
/// ```
pub fn australia() -> Map {
    const REGIONS: [&str; 7] = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
    const BORDERS: [(&str, &str); 9] = [
        ("WA", "NT"),
        ("WA", "SA"),
        ("NT", "SA"),
        ("NT", "Q"),
        ("SA", "Q"),
        ("SA", "NSW"),
        ("SA", "V"),
        ("Q", "NSW"),
        ("NSW", "V"),
    ];
    // The names above are consistent (checked by a unit test).
    Map::from_borders("Australia", &REGIONS, &BORDERS).unwrap_or_else(|e| unreachable!("{e}"))
}

/// The 48 contiguous United States, joined when they share a land border of
/// positive length (the Four Corners states meet diagonally at a point: Arizona
/// and Colorado, Utah and New Mexico are not neighbours; borders across a lake
/// or the sea do not count). Nevada's five neighbours form a ring of odd
/// length, so the map needs four colours.
pub fn usa() -> Map {
    const REGIONS: [&str; 48] = [
        "AL", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "ID", "IL", "IN", "IA", "KS", "KY",
        "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY",
        "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA",
        "WV", "WI", "WY",
    ];
    // Each state with its neighbours that come later in the alphabet of codes
    // above; the unit tests check the lists against each other's degrees.
    const NEIGHBOURS: [(&str, &[&str]); 48] = [
        ("AL", &["FL", "GA", "MS", "TN"]),
        ("AZ", &["CA", "NV", "NM", "UT"]),
        ("AR", &["LA", "MS", "MO", "OK", "TN", "TX"]),
        ("CA", &["NV", "OR"]),
        ("CO", &["KS", "NE", "NM", "OK", "UT", "WY"]),
        ("CT", &["MA", "NY", "RI"]),
        ("DE", &["MD", "NJ", "PA"]),
        ("FL", &["GA"]),
        ("GA", &["NC", "SC", "TN"]),
        ("ID", &["MT", "NV", "OR", "UT", "WA", "WY"]),
        ("IL", &["IN", "IA", "KY", "MO", "WI"]),
        ("IN", &["KY", "MI", "OH"]),
        ("IA", &["MN", "MO", "NE", "SD", "WI"]),
        ("KS", &["MO", "NE", "OK"]),
        ("KY", &["MO", "OH", "TN", "VA", "WV"]),
        ("LA", &["MS", "TX"]),
        ("ME", &["NH"]),
        ("MD", &["PA", "VA", "WV"]),
        ("MA", &["NH", "NY", "RI", "VT"]),
        ("MI", &["OH", "WI"]),
        ("MN", &["ND", "SD", "WI"]),
        ("MS", &["TN"]),
        ("MO", &["NE", "OK", "TN"]),
        ("MT", &["ND", "SD", "WY"]),
        ("NE", &["SD", "WY"]),
        ("NV", &["OR", "UT"]),
        ("NH", &["VT"]),
        ("NJ", &["NY", "PA"]),
        ("NM", &["OK", "TX"]),
        ("NY", &["PA", "VT"]),
        ("NC", &["SC", "TN", "VA"]),
        ("ND", &["SD"]),
        ("OH", &["PA", "WV"]),
        ("OK", &["TX"]),
        ("OR", &["WA"]),
        ("PA", &["WV"]),
        ("RI", &[]),
        ("SC", &[]),
        ("SD", &["WY"]),
        ("TN", &["VA"]),
        ("TX", &[]),
        ("UT", &["WY"]),
        ("VT", &[]),
        ("VA", &["WV"]),
        ("WA", &[]),
        ("WV", &[]),
        ("WI", &[]),
        ("WY", &[]),
    ];
    let borders: Vec<(&str, &str)> = NEIGHBOURS
        .iter()
        .flat_map(|&(a, list)| list.iter().map(move |&b| (a, b)))
        .collect();
    Map::from_borders("the contiguous United States", &REGIONS, &borders)
        .unwrap_or_else(|e| unreachable!("{e}"))
}

/// The maps by the names the `map_coloring` example takes.
pub fn by_name(name: &str) -> Option<Map> {
    match name {
        "australia" => Some(australia()),
        "usa" => Some(usa()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn australia_has_seven_regions_and_nine_borders() {
        let m = australia();
        assert_eq!((m.graph.num_vertices(), m.graph.num_edges()), (7, 9));
        assert!(m.graph.adjacency()[m.region("T").unwrap()].is_empty());
    }

    #[test]
    fn usa_has_the_known_degrees() {
        // 48 states and 105 borders (Knuth's contiguous-USA graph has 49 vertices
        // and 107 edges with the District of Columbia, which borders MD and VA).
        let m = usa();
        assert_eq!((m.graph.num_vertices(), m.graph.num_edges()), (48, 105));
        let adj = m.graph.adjacency();
        let degree = |s: &str| adj[m.region(s).unwrap()].len();
        // Tennessee and Missouri border eight states each; Maine one.
        assert_eq!((degree("TN"), degree("MO"), degree("ME")), (8, 8, 1));
        assert_eq!(degree("NV"), 5);
    }

    #[test]
    fn four_corners_states_meeting_at_a_point_are_not_neighbours() {
        let m = usa();
        let v = |s| m.region(s).unwrap();
        assert!(!m.graph.has_edge(v("AZ"), v("CO")));
        assert!(!m.graph.has_edge(v("UT"), v("NM")));
        assert!(m.graph.has_edge(v("AZ"), v("NM")));
    }

    #[test]
    fn unknown_region_is_an_error() {
        let e = Map::from_borders("x", &["A"], &[("A", "B")]).unwrap_err();
        assert_eq!(e, "x: unknown region B");
    }
}
