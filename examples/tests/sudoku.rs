//! Sudoku: the shipped puzzles are solved validly and uniquely under several
//! pruning levels, and an independent bitmask solver agrees.

mod common;

use csp_core::{Config, Pruning, VarOrder};
use csp_examples::sudoku::{Sudoku, Uniqueness, parse_puzzles, solve};

const DATA: &str = include_str!("../data/sudoku.txt");

/// An independent solver (bitmasks, fewest candidates first): the number of
/// solutions, stopping at `limit`, and the first one.
fn brute_force(cells: &[u8; 81], limit: usize) -> (usize, Option<[u8; 81]>) {
    fn peers(i: usize) -> impl Iterator<Item = usize> {
        let (r, c) = (i / 9, i % 9);
        (0..81).filter(move |&j| {
            let (r2, c2) = (j / 9, j % 9);
            j != i && (r == r2 || c == c2 || (r / 3 == r2 / 3 && c / 3 == c2 / 3))
        })
    }
    fn go(g: &mut [u8; 81], limit: usize, found: &mut usize, first: &mut Option<[u8; 81]>) {
        let mut best: Option<(usize, u16)> = None;
        for i in 0..81 {
            if g[i] != 0 {
                continue;
            }
            let used = peers(i).fold(0u16, |m, j| m | (1 << g[j]));
            let free = !used & 0b11_1111_1110;
            if best.is_none_or(|(_, b)| free.count_ones() < b.count_ones()) {
                best = Some((i, free));
            }
        }
        let Some((i, free)) = best else {
            *found += 1;
            first.get_or_insert(*g);
            return;
        };
        for d in 1..=9u8 {
            if free & (1 << d) != 0 && *found < limit {
                g[i] = d;
                go(g, limit, found, first);
                g[i] = 0;
            }
        }
    }
    let mut g = *cells;
    let (mut found, mut first) = (0, None);
    go(&mut g, limit, &mut found, &mut first);
    (found, first)
}

#[test]
fn shipped_puzzles_have_unique_valid_solutions_under_three_pruning_levels() {
    let entries = parse_puzzles(DATA).unwrap();
    assert!(
        entries.len() >= 5,
        "the data file lists {} puzzles",
        entries.len()
    );
    for e in &entries {
        let (n, reference) = brute_force(e.puzzle.cells(), 2);
        assert_eq!(n, 1, "{:?} is not a proper puzzle", e.label);
        // Plain `check` needs up to 10^9 nodes on these puzzles: it is left out.
        for pruning in [
            Pruning::ForwardChecking,
            Pruning::ArcConsistency,
            Pruning::Propagators,
        ] {
            let config = Config::textbook()
                .with_pruning(pruning)
                .with_var_order(VarOrder::FirstFail);
            let r = solve(&e.puzzle, config).unwrap();
            assert_eq!(
                r.uniqueness,
                Uniqueness::Unique,
                "{:?} under {pruning}",
                e.label
            );
            let s = r.solution.unwrap();
            assert!(s.solves(&e.puzzle));
            assert_eq!(Some(*s.cells()), reference);
        }
    }
}

#[test]
fn inkala_2012_has_the_published_solution() {
    let p: Sudoku =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
            .parse()
            .unwrap();
    let want = "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
    for pruning in [Pruning::ForwardChecking, Pruning::ArcConsistency] {
        let config = Config::textbook()
            .with_pruning(pruning)
            .with_var_order(VarOrder::FirstFail);
        let r = solve(&p, config).unwrap();
        assert_eq!(r.solution.unwrap().to_line(), want);
    }
}

#[test]
fn a_puzzle_with_two_solutions_is_reported_as_not_unique() {
    // A solved grid with the four cells of a "deadly rectangle" blanked: two
    // rows in different bands, two columns in one stack, holding a b / b a. The
    // two digits can be swapped, so there are exactly two solutions.
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let mut cells: Vec<char> = solved.chars().collect();
    let grid: Vec<u8> = solved.bytes().map(|b| b - b'0').collect();
    let mut blanked = None;
    'search: for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            if r1 / 3 == r2 / 3 {
                continue;
            }
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    let (a, b) = (grid[r1 * 9 + c1], grid[r1 * 9 + c2]);
                    if c1 / 3 == c2 / 3 && grid[r2 * 9 + c1] == b && grid[r2 * 9 + c2] == a {
                        blanked = Some([r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2]);
                        break 'search;
                    }
                }
            }
        }
    }
    for i in blanked.expect("the grid has a swappable rectangle") {
        cells[i] = '.';
    }
    let p: Sudoku = cells.into_iter().collect::<String>().parse().unwrap();
    assert_eq!(brute_force(p.cells(), 3).0, 2);
    for pruning in common::LEVELS {
        let r = solve(&p, Config::textbook().with_pruning(pruning)).unwrap();
        assert_eq!(r.uniqueness, Uniqueness::Multiple, "{pruning}");
    }
}
