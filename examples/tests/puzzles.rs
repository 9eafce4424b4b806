//! Known answers of the puzzle models, each under several pruning levels and
//! checked against an independent enumeration where one is cheap.

mod common;

use csp_core::{Config, Pruning, Solver, Value};
use csp_examples::langford::{Langford, is_langford};
use csp_examples::latin_square::LatinSquare;
use csp_examples::magic_square::{MagicSquare, is_magic};
use csp_examples::send_more_money::{Cryptarithm, CryptarithmModel};
use csp_examples::zebra::{NextTo, Zebra};

/// Every permutation of `items`, by Heap's algorithm.
fn permutations(items: &[Value]) -> Vec<Vec<Value>> {
    fn heap(k: usize, a: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
        if k <= 1 {
            out.push(a.clone());
            return;
        }
        for i in 0..k {
            heap(k - 1, a, out);
            let j = if k % 2 == 0 { i } else { 0 };
            a.swap(j, k - 1);
        }
    }
    let mut out = Vec::new();
    heap(items.len(), &mut items.to_vec(), &mut out);
    out
}

#[test]
fn send_more_money_has_one_solution() {
    let p = Cryptarithm::send_more_money();
    // Independently: every assignment of distinct digits to the 8 letters.
    let mut brute = Vec::new();
    let mut digits = [0; 8];
    fn go(i: usize, used: u16, d: &mut [Value; 8], p: &Cryptarithm, out: &mut Vec<[Value; 8]>) {
        if i == 8 {
            if p.is_solution(d) {
                out.push(*d);
            }
            return;
        }
        for v in 0..10 {
            if used & (1 << v) == 0 {
                d[i] = v;
                go(i + 1, used | (1 << v), d, p, out);
            }
        }
    }
    go(0, 0, &mut digits, &p, &mut brute);
    assert_eq!(brute.len(), 1);
    let m = CryptarithmModel::new(&p).unwrap();
    // Generate and test (81 million leaves) is left out.
    for pruning in Pruning::ALL.into_iter().skip(1) {
        let sols: Vec<_> = Solver::new(&m.model, Config::textbook().with_pruning(pruning))
            .unwrap()
            .solutions()
            .map(|s| s.values_of(&m.digits))
            .collect();
        assert_eq!(sols, vec![brute[0].to_vec()], "{pruning}");
        assert_eq!(p.show(&sols[0]), "9567 + 1085 = 10652");
    }
}

#[test]
fn other_cryptarithms_match_brute_force() {
    // TWO + TWO = FOUR: 6 letters; count by trying all digit assignments.
    let p: Cryptarithm = "TWO + TWO = FOUR".parse().unwrap();
    let k = p.letters().len();
    let mut expected = 0;
    let mut d = vec![0; k];
    loop {
        expected += u64::from(p.is_solution(&d));
        let mut i = 0;
        while i < k {
            d[i] += 1;
            if d[i] < 10 {
                break;
            }
            d[i] = 0;
            i += 1;
        }
        if i == k {
            break;
        }
    }
    assert!(expected > 1);
    let m = CryptarithmModel::new(&p).unwrap();
    for pruning in common::LEVELS {
        assert_eq!(common::count(&m.model, pruning), expected, "{pruning}");
    }
}

#[test]
fn latin_squares_of_orders_3_and_4() {
    // Independently: squares whose rows are permutations with distinct columns.
    fn brute(n: usize) -> u64 {
        let perms = permutations(&(1..=n as Value).collect::<Vec<_>>());
        fn go(rows: &mut Vec<Vec<Value>>, n: usize, perms: &[Vec<Value>]) -> u64 {
            if rows.len() == n {
                return 1;
            }
            let mut c = 0;
            for p in perms {
                if rows.iter().all(|r| r.iter().zip(p).all(|(a, b)| a != b)) {
                    rows.push(p.clone());
                    c += go(rows, n, perms);
                    rows.pop();
                }
            }
            c
        }
        go(&mut Vec::new(), n, &perms)
    }
    for (n, known, reduced) in [(3, 12, 1), (4, 576, 4)] {
        assert_eq!(brute(n), known);
        let all = LatinSquare::new(n, false).unwrap();
        let red = LatinSquare::new(n, true).unwrap();
        // Generate and test would visit n^(n*n) leaves for n = 4: only for n = 3.
        let levels = if n == 3 {
            &Pruning::ALL[..]
        } else {
            &common::LEVELS[..]
        };
        for &pruning in levels {
            assert_eq!(
                common::count(&all.model, pruning),
                known,
                "n = {n}, {pruning}"
            );
            assert_eq!(
                common::count(&red.model, pruning),
                reduced,
                "n = {n}, {pruning}"
            );
        }
    }
    let five = LatinSquare::new(5, true).unwrap();
    for pruning in common::LEVELS {
        assert_eq!(common::count(&five.model, pruning), 56, "{pruning}");
    }
}

#[test]
fn magic_squares_of_order_3() {
    let brute = permutations(&(1..=9).collect::<Vec<_>>())
        .into_iter()
        .filter(|p| is_magic(&[p[0..3].to_vec(), p[3..6].to_vec(), p[6..9].to_vec()]))
        .count();
    assert_eq!(brute, 8);
    let all = MagicSquare::new(3, false).unwrap();
    let one = MagicSquare::new(3, true).unwrap();
    for pruning in common::LEVELS {
        assert_eq!(common::count(&all.model, pruning), 8, "{pruning}");
        assert_eq!(common::count(&one.model, pruning), 1, "{pruning}");
    }
}

#[test]
fn langford_counts_for_small_n() {
    // Independently: place the pairs n, n-1, ..., 1 into free slots.
    fn brute(n: usize) -> u64 {
        fn go(k: usize, seq: &mut Vec<Value>) -> u64 {
            if k == 0 {
                return 1;
            }
            let mut c = 0;
            for i in 0..seq.len().saturating_sub(k + 1) {
                if seq[i] == 0 && seq[i + k + 1] == 0 {
                    seq[i] = k as Value;
                    seq[i + k + 1] = k as Value;
                    c += go(k - 1, seq);
                    seq[i] = 0;
                    seq[i + k + 1] = 0;
                }
            }
            c
        }
        go(n, &mut vec![0; 2 * n])
    }
    // Sequences and their mirror images both counted (OEIS A176127).
    for (n, known) in [(3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
        assert_eq!(brute(n), known, "brute force, n = {n}");
        let l = Langford::new(n, false).unwrap();
        let half = Langford::new(n, true).unwrap();
        for pruning in common::LEVELS {
            assert_eq!(
                common::count(&l.model, pruning),
                known,
                "n = {n}, {pruning}"
            );
            assert_eq!(
                common::count(&half.model, pruning),
                known / 2,
                "n = {n}, {pruning}"
            );
        }
        let mut s = Solver::new(
            &l.model,
            Config::textbook().with_pruning(Pruning::ForwardChecking),
        )
        .unwrap();
        for sol in s.solutions() {
            assert!(is_langford(&l.sequence(sol.values())));
        }
    }
}

#[test]
fn the_japanese_owns_the_zebra_and_the_norwegian_drinks_water() {
    for next_to in [NextTo::Table, NextTo::Predicate] {
        let z = Zebra::new(next_to).unwrap();
        for pruning in Pruning::ALL.into_iter().skip(1) {
            let mut s = Solver::new(&z.model, Config::textbook().with_pruning(pruning)).unwrap();
            let all: Vec<_> = s.solutions().collect();
            assert_eq!(all.len(), 1, "{next_to:?} {pruning}");
            assert_eq!(z.owner_of(&all[0], "zebra"), Some("Japanese"));
            assert_eq!(z.owner_of(&all[0], "water"), Some("Norwegian"));
        }
    }
}
