//! Colouring: the Australia count, the US map, and the chromatic numbers of the
//! shipped DIMACS graphs, each under several pruning levels.

mod common;

use csp_core::{Config, Pruning, Solver, VarOrder};
use csp_examples::dimacs;
use csp_examples::graph::Graph;
use csp_examples::graph_coloring::{ColoringModel, Method, chromatic_number, greedy_clique};
use csp_examples::map_coloring::{australia, usa};

/// Known chromatic numbers: the queen graphs from the DIMACS benchmark tables,
/// the Mycielski graphs from Mycielski (1955).
const KNOWN: [(&str, usize); 5] = [
    ("queen5_5", 5),
    ("queen6_6", 7),
    ("queen7_7", 7),
    ("myciel3", 4),
    ("myciel4", 5),
];

fn shipped(name: &str) -> Graph {
    let path = format!("{}/data/{name}.col", env!("CARGO_MANIFEST_DIR"));
    dimacs::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Proper k-colourings counted by trying every assignment (independent of the engine).
fn brute_force_colorings(g: &Graph, k: usize) -> u64 {
    let n = g.num_vertices();
    let mut colors = vec![0; n];
    let mut count = 0;
    loop {
        count += u64::from(g.is_proper_coloring(&colors));
        let mut i = 0;
        loop {
            if i == n {
                return count;
            }
            colors[i] += 1;
            if colors[i] < k {
                break;
            }
            colors[i] = 0;
            i += 1;
        }
    }
}

#[test]
fn australia_has_18_three_colourings() {
    let map = australia();
    assert_eq!(brute_force_colorings(&map.graph, 3), 18);
    let m = ColoringModel::k_coloring(&map.graph, 3, &[]).unwrap();
    for pruning in csp_core::Pruning::ALL {
        assert_eq!(common::count(&m.model, pruning), 18, "{pruning}");
    }
    // With two colours the triangle WA-NT-SA cannot be coloured.
    let two = ColoringModel::k_coloring(&map.graph, 2, &[]).unwrap();
    assert_eq!(common::count(&two.model, Pruning::ForwardChecking), 0);
}

#[test]
fn usa_needs_four_colours() {
    let map = usa();
    for pruning in [Pruning::ForwardChecking, Pruning::ArcConsistency] {
        let config = Config::textbook()
            .with_pruning(pruning)
            .with_var_order(VarOrder::MrvDegree);
        let three = ColoringModel::k_coloring(&map.graph, 3, &[]).unwrap();
        let r = Solver::new(&three.model, config.clone()).unwrap().first();
        assert!(r.solution.is_none() && r.status.is_complete(), "{pruning}");
        let four = ColoringModel::k_coloring(&map.graph, 4, &[]).unwrap();
        let s = Solver::new(&four.model, config)
            .unwrap()
            .first()
            .solution
            .unwrap();
        let colors: Vec<i64> = s.values_of(&four.colors);
        assert!(map.graph.is_proper_coloring(&colors));
    }
}

#[test]
fn shipped_graphs_have_their_known_chromatic_numbers() {
    for (name, chi) in KNOWN {
        let g = shipped(name);
        for method in [Method::BranchAndBound, Method::Decreasing] {
            for pruning in [Pruning::ForwardChecking, Pruning::ArcConsistency] {
                let config = Config::textbook()
                    .with_pruning(pruning)
                    .with_var_order(VarOrder::MrvDegree);
                let r = chromatic_number(&g, method, config).unwrap();
                assert_eq!(
                    r.chromatic_number(),
                    Some(chi),
                    "{name} {method:?} {pruning}"
                );
                assert!(g.is_proper_coloring(&r.coloring));
                assert_eq!(Graph::colors_used(&r.coloring), chi);
            }
        }
    }
}

#[test]
fn search_alone_separates_chi_minus_one_from_chi() {
    // Without the DSATUR and clique shortcuts: k = chi colours suffice, chi - 1 do not.
    for (name, chi) in KNOWN {
        let g = shipped(name);
        let clique = greedy_clique(&g);
        for pruning in [Pruning::ForwardChecking, Pruning::Propagators] {
            let config = Config::textbook()
                .with_pruning(pruning)
                .with_var_order(VarOrder::FirstFail);
            for (k, colourable) in [(chi - 1, false), (chi, true)] {
                let m = ColoringModel::k_coloring(&g, k, &clique).unwrap();
                let r = Solver::new(&m.model, config.clone()).unwrap().first();
                assert!(r.status != csp_core::SearchStatus::Paused || colourable);
                assert_eq!(
                    r.solution.is_some(),
                    colourable,
                    "{name} with {k} colours under {pruning}"
                );
            }
        }
    }
}

#[test]
fn lower_bounds_are_checked_independently_where_cheap() {
    // The queen graphs contain a row, a clique of n vertices.
    for (name, n) in [("queen5_5", 5), ("queen7_7", 7)] {
        let clique = greedy_clique(&shipped(name));
        assert_eq!(clique.len(), n);
        let g = shipped(name);
        assert!(
            clique
                .iter()
                .all(|&a| clique.iter().all(|&b| a == b || g.has_edge(a, b)))
        );
    }
    // The Grötzsch graph (myciel3) has no 3-colouring: all 3^11 tried.
    assert_eq!(brute_force_colorings(&shipped("myciel3"), 3), 0);
}
