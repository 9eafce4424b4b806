//! The shipped data files: the `.col` files equal the generator's output, and
//! every file parses.
//!
//! Regenerate the graphs with `CSP_EXAMPLES_BLESS=1 cargo test -p csp-examples --test data_files`.

use std::path::PathBuf;

use csp_examples::{dimacs, graph_generators::shipped_instances, sudoku};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data")
}

#[test]
fn shipped_graphs_equal_the_generators_output() {
    let bless = std::env::var_os("CSP_EXAMPLES_BLESS").is_some();
    for instance in shipped_instances() {
        let path = data_dir().join(format!("{}.col", instance.name));
        let expected = instance.to_dimacs();
        if bless {
            std::fs::write(&path, &expected).unwrap();
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (regenerate with CSP_EXAMPLES_BLESS=1)",
                path.display()
            )
        });
        assert!(
            actual == expected,
            "{} differs from the generator (regenerate with CSP_EXAMPLES_BLESS=1)",
            path.display()
        );
        assert_eq!(dimacs::parse(&actual).unwrap(), instance.graph);
    }
}

#[test]
fn sudoku_file_parses() {
    let text = std::fs::read_to_string(data_dir().join("sudoku.txt")).unwrap();
    let entries = sudoku::parse_puzzles(&text).unwrap();
    assert_eq!(entries.len(), 7);
    assert!(entries.iter().all(|e| e.label.is_some()));
}
