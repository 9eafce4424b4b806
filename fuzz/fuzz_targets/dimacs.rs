//! Fuzz target: the DIMACS `.col` reader (`csp_examples::dimacs`).
//!
//! Any text either reads as a graph or gets an `InputError` whose line is inside
//! the text and whose message is one line. A graph that reads must write back to
//! text that reads as the same graph, and a small one is coloured (with a node
//! limit): any colouring reported must be proper.

#![no_main]

use csp_core::{Config, Pruning, Solver, VarOrder};
use csp_examples::dimacs;
use csp_examples::graph_coloring::{ColoringModel, greedy_clique};
use libfuzzer_sys::fuzz_target;

mod input_error;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines = text.lines().count();
    match dimacs::parse(text) {
        Ok(graph) => {
            let written = dimacs::write(&graph, &["fuzz"]);
            assert_eq!(dimacs::parse(&written).as_ref(), Ok(&graph), "{written}");
            let n = graph.num_vertices();
            if (1..=40).contains(&n) {
                let clique = greedy_clique(&graph);
                let k = clique.len().max(1) + 1;
                let m = match ColoringModel::k_coloring(&graph, k, &clique) {
                    Ok(m) => m,
                    Err(e) => panic!("a graph that reads must build a model: {e}"),
                };
                let mut config = Config::textbook()
                    .with_pruning(Pruning::ForwardChecking)
                    .with_var_order(VarOrder::FirstFail);
                config.limits.nodes = Some(2_000);
                let mut solver = Solver::new(&m.model, config).expect("valid config");
                if let Some(s) = solver.next_solution() {
                    let colors: Vec<_> = m.colors.iter().map(|&v| s[v]).collect();
                    assert!(graph.is_proper_coloring(&colors), "{colors:?}");
                }
            }
        }
        Err(e) => input_error::check(&e, lines),
    }
});
