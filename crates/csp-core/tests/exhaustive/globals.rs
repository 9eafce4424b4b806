//! The global constraints in the exhaustive harness: global cardinality,
//! cumulative, disjunctive, circuit, inverse, regular and lexicographic order.
//! Each reference semantics below is written from the documentation, not from
//! the constraint's `check`.

use csp_core::Value;
use csp_core::constraints::{
    Automaton, Circuit, Cumulative, Diffn, Disjunctive, GlobalCardinality, Inverse, LexLessEq,
    Regular,
};

use super::{Case, Strength, assert_trustworthy, case, x};

/// A case sampled down to `limit` sub-domain combinations.
fn sampled(mut c: Case, limit: usize) -> Case {
    c.max_combos = limit;
    c
}

fn gcc_spec(n: usize, values: Vec<Value>) -> impl Fn(&[Value]) -> bool + Send + Sync {
    move |v: &[Value]| {
        values.iter().enumerate().all(|(j, &value)| {
            let mut k = 0;
            for &a in &v[..n] {
                if a == value {
                    k += 1;
                }
            }
            v[n + j] == k
        })
    }
}

#[test]
fn global_cardinality_is_sound_and_gac_with_one_open_variable() {
    let c = GlobalCardinality::new(&[x(0), x(1), x(2)], &[1, 2], &[x(3), x(4)]).unwrap();
    assert_trustworthy(sampled(
        case(
            "gcc(x0..x2; 1 -> x3, 2 -> x4)",
            c,
            &[&[0, 1, 2], &[1, 2], &[-1, 1, 2], &[0, 1, 2], &[0, 1, 3]],
            gcc_spec(3, vec![1, 2]),
        )
        .everywhere(Strength::GacWhenOneOpen),
        1_500,
    ));
    // A value listed twice, and a count that is also counted.
    let c = GlobalCardinality::new(&[x(0), x(1), x(2)], &[1, 1], &[x(2), x(3)]).unwrap();
    assert_trustworthy(sampled(
        case(
            "gcc(x0, x1, x2; 1 -> x2, 1 -> x3)",
            c,
            &[&[0, 1, 2], &[1, 2], &[0, 1, 2, 3], &[1, 2]],
            |v: &[Value]| {
                let k = v[..3].iter().filter(|&&a| a == 1).count() as Value;
                v[3] == k && v[4] == k
            },
        ),
        1_500,
    ));
}

#[test]
fn global_cardinality_with_variable_counts_is_sound() {
    // Counts that the sum reasoning narrows: the values cover only part of the
    // domains, so the counts' sum lies between the variables with no other
    // value and those that can take one of them.
    let c = GlobalCardinality::new(&[x(0), x(1), x(2)], &[0, 1], &[x(3), x(4)]).unwrap();
    assert_trustworthy(sampled(
        case(
            "gcc(x0..x2; 0 -> x3, 1 -> x4)",
            c,
            &[&[0, 1], &[0, 1, 2], &[1, 2], &[0, 1, 2, 3], &[0, 1, 2, 3]],
            gcc_spec(3, vec![0, 1]),
        )
        .everywhere(Strength::GacWhenOneOpen),
        2_000,
    ));
    // A magic sequence of length 4: the counts are the variables themselves
    // (the scope is s0..s3 twice).
    let s = [x(0), x(1), x(2), x(3)];
    let c = GlobalCardinality::new(&s, &[0, 1, 2, 3], &s).unwrap();
    assert_trustworthy(sampled(
        case(
            "gcc(s0..s3; i -> s[i])",
            c,
            &[&[0, 1, 2, 3], &[0, 1, 2], &[0, 1, 2, 3], &[0, 1]],
            |v: &[Value]| {
                (0..4).all(|i| v[..4].iter().filter(|&&a| a == i as Value).count() as Value == v[i])
            },
        ),
        2_000,
    ));
}

/// The load at every time `t` is at most the capacity, which is not negative;
/// durations and demands are not negative.
fn cumulative_spec(n: usize) -> impl Fn(&[Value]) -> bool + Send + Sync {
    move |v: &[Value]| {
        let (s, rest) = v.split_at(n);
        let (d, rest) = rest.split_at(n);
        let (r, cap) = rest.split_at(n);
        if d.iter().chain(r).any(|&a| a < 0) || cap[0] < 0 {
            return false;
        }
        (-10..20).all(|t| {
            let load: Value = (0..n)
                .filter(|&i| s[i] <= t && t < s[i] + d[i])
                .map(|i| r[i])
                .sum();
            load <= cap[0]
        })
    }
}

#[test]
fn cumulative_is_sound() {
    let vars: Vec<_> = (0..10).map(x).collect();
    let c = Cumulative::new(&vars[0..3], &vars[3..6], &vars[6..9], vars[9]).unwrap();
    assert_trustworthy(sampled(
        case(
            "cumulative(3 tasks)",
            c,
            &[
                &[0, 1, 2, 3],
                &[0, 1, 3],
                &[-1, 1, 2],
                &[2],
                &[1, 3],
                &[0, 2],
                &[1],
                &[1, 2],
                &[2],
                &[-1, 2, 3],
            ],
            cumulative_spec(3),
        ),
        1_500,
    ));
    // Negative durations and demands, and a start shared by two tasks.
    let c = Cumulative::new(&[x(0), x(0)], &[x(1), x(2)], &[x(3), x(3)], x(4)).unwrap();
    assert_trustworthy(sampled(
        case(
            "cumulative(x0 twice)",
            c,
            &[&[0, 1, 2], &[-1, 1, 2], &[0, 1], &[-1, 1, 2], &[1, 2, 3]],
            cumulative_spec(2),
        ),
        1_500,
    ));
    // A demand that is also another task's start (demand filtering then
    // moves a start: propagation repeats until neither moves).
    let c = Cumulative::new(&[x(0), x(1)], &[x(2), x(2)], &[x(1), x(3)], x(4)).unwrap();
    assert_trustworthy(sampled(
        case(
            "cumulative(demand = start)",
            c,
            &[&[0, 1, 2], &[0, 1, 2, 3], &[1, 2], &[0, 1], &[1, 2]],
            cumulative_spec(2),
        ),
        1_500,
    ));
}

#[test]
fn disjunctive_is_sound() {
    let c = Disjunctive::new(&[x(0), x(1), x(2)], &[x(3), x(4), x(5)]).unwrap();
    let spec = |v: &[Value]| {
        let (s, d) = v.split_at(3);
        d.iter().all(|&a| a >= 0)
            && (0..3).all(|i| {
                (0..3).all(|j| {
                    // No time is covered by two tasks.
                    i == j
                        || (-10..20).all(|t| {
                            !(s[i] <= t && t < s[i] + d[i] && s[j] <= t && t < s[j] + d[j])
                        })
                })
            })
    };
    assert_trustworthy(sampled(
        case(
            "disjunctive(3 tasks)",
            c,
            &[
                &[0, 1, 2, 4],
                &[0, 2, 3],
                &[-1, 1, 2],
                &[2],
                &[0, 1, 3],
                &[-1, 2],
            ],
            spec,
        ),
        1_500,
    ));
}

#[test]
fn disjunctive_with_fixed_durations_is_sound_under_edge_finding() {
    let c = Disjunctive::new(&[x(0), x(1), x(2), x(3)], &[x(4), x(5), x(6), x(7)]).unwrap();
    let spec = |v: &[Value]| {
        let (s, d) = v.split_at(4);
        (0..4).all(|i| (i + 1..4).all(|j| s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i]))
    };
    assert_trustworthy(sampled(
        case(
            "disjunctive(4 tasks of fixed durations)",
            c,
            &[
                &[0, 1, 2, 4, 5],
                &[0, 2, 3, 5],
                &[1, 2, 3, 6],
                &[0, 3, 4, 6],
                &[2],
                &[1],
                &[3],
                &[2],
            ],
            spec,
        ),
        1_500,
    ));
}

/// Following the successors from node 0 visits all `n` nodes once and returns.
fn circuit_spec(offset: Value) -> impl Fn(&[Value]) -> bool + Send + Sync {
    move |v: &[Value]| {
        let n = v.len() as Value;
        if v.iter().any(|&a| a < offset || a >= offset + n) {
            return false;
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut at = 0;
        while seen.insert(at) {
            at = (v[at] - offset) as usize;
        }
        seen.len() as Value == n && at == 0
    }
}

#[test]
fn circuit_is_sound_and_gac_with_one_open_variable() {
    let xs: Vec<_> = (0..4).map(x).collect();
    assert_trustworthy(
        case(
            "circuit(x0..x3)",
            Circuit::new(&xs),
            &[&[0, 1, 2, 3], &[0, 2, 3], &[0, 1, 3, 4], &[-1, 0, 1, 2]],
            circuit_spec(0),
        )
        .everywhere(Strength::GacWhenOneOpen),
    );
    assert_trustworthy(
        case(
            "circuit from 1 (x0..x2)",
            Circuit::with_offset(&xs[..3], 1),
            &[&[0, 1, 2, 3], &[1, 2, 3], &[1, 2, 3]],
            circuit_spec(1),
        )
        .everywhere(Strength::GacWhenOneOpen),
    );
    assert_trustworthy(case(
        "circuit(x0)",
        Circuit::new(&xs[..1]),
        &[&[-1, 0, 1]],
        circuit_spec(0),
    ));
    // Nodes 0 and 1 with the same successor: never a circuit.
    assert_trustworthy(case(
        "circuit(x0, x0)",
        Circuit::new(&[x(0), x(0)]),
        &[&[0, 1]],
        circuit_spec(0),
    ));
}

#[test]
fn inverse_is_sound_and_gac_with_one_open_variable() {
    let xs: Vec<_> = (0..6).map(x).collect();
    let spec = |fo: Value, go: Value| {
        move |v: &[Value]| {
            let (f, g) = v.split_at(3);
            (0..3).all(|i| {
                let j = f[i] - go;
                (0..3).contains(&j) && g[j as usize] == i as Value + fo
            }) && (0..3).all(|j| {
                let i = g[j] - fo;
                (0..3).contains(&i) && f[i as usize] == j as Value + go
            })
        }
    };
    assert_trustworthy(sampled(
        case(
            "inverse(x0..x2, x3..x5)",
            Inverse::new(&xs[..3], &xs[3..]).unwrap(),
            &[
                &[0, 1, 2],
                &[0, 2, 3],
                &[0, 1],
                &[0, 1, 2],
                &[-1, 1, 2],
                &[0, 2],
            ],
            spec(0, 0),
        )
        .everywhere(Strength::GacWhenOneOpen),
        2_000,
    ));
    assert_trustworthy(sampled(
        case(
            "inverse with offsets 1 and 5",
            Inverse::with_offsets(&xs[..3], 1, &xs[3..], 5).unwrap(),
            &[
                &[5, 6, 7],
                &[5, 7, 1],
                &[6, 7],
                &[1, 2, 3],
                &[0, 1, 3],
                &[2, 3],
            ],
            spec(1, 5),
        )
        .everywhere(Strength::GacWhenOneOpen),
        2_000,
    ));
}

/// No two 1s in a row, and at least one 2 (states: 0 start, 1 after a 1,
/// 2 seen a 2, 3 seen a 2 and just read a 1).
fn automaton() -> Automaton {
    Automaton::new(
        4,
        0,
        &[2, 3],
        &[
            (0, 0, 0),
            (0, 1, 1),
            (0, 2, 2),
            (1, 0, 0),
            (1, 2, 2),
            (2, 0, 2),
            (2, 1, 3),
            (2, 2, 2),
            (3, 0, 2),
            (3, 2, 2),
        ],
    )
    .unwrap()
}

fn no_11_with_a_2(v: &[Value]) -> bool {
    v.iter().all(|a| (0..=2).contains(a)) && v.windows(2).all(|w| w != [1, 1]) && v.contains(&2)
}

#[test]
fn regular_is_sound_and_gac() {
    let xs: Vec<_> = (0..4).map(x).collect();
    assert_trustworthy(sampled(
        case(
            "regular(x0..x3)",
            Regular::new(&xs, &automaton()),
            &[&[0, 1, 2], &[1, 2, 3], &[-1, 0, 1], &[0, 1, 2]],
            no_11_with_a_2,
        )
        .everywhere(Strength::Gac),
        2_000,
    ));
    // Nondeterministic: words over {0, 1} whose second-to-last symbol is 1.
    let nfa = Automaton::new(
        3,
        0,
        &[2],
        &[(0, 0, 0), (0, 1, 0), (0, 1, 1), (1, 0, 2), (1, 1, 2)],
    )
    .unwrap();
    assert_trustworthy(
        case(
            "regular nfa(x0..x2)",
            Regular::new(&xs[..3], &nfa),
            &[&[0, 1], &[0, 1, 2], &[0, 1]],
            |v: &[Value]| v.iter().all(|a| (0..=1).contains(a)) && v[1] == 1,
        )
        .everywhere(Strength::Gac),
    );
    assert_trustworthy(case(
        "regular(x0, x1, x0)",
        Regular::new(&[x(0), x(1), x(0)], &automaton()),
        &[&[0, 1, 2], &[0, 1, 2, 3]],
        no_11_with_a_2,
    ));
}

fn lex_spec(nx: usize) -> impl Fn(&[Value]) -> bool + Send + Sync {
    move |v: &[Value]| {
        let (a, b) = v.split_at(nx);
        for (p, q) in a.iter().zip(b) {
            if p != q {
                return p < q;
            }
        }
        a.len() <= b.len()
    }
}

#[test]
fn lex_less_eq_is_sound_and_gac() {
    let xs: Vec<_> = (0..5).map(x).collect();
    assert_trustworthy(sampled(
        case(
            "lex(x0 x1, x2 x3)",
            LexLessEq::new(&xs[..2], &xs[2..4]),
            &[&[0, 1, 2], &[-1, 1, 2], &[0, 1, 3], &[0, 1, 2]],
            lex_spec(2),
        )
        .everywhere(Strength::Gac),
        2_000,
    ));
    for (nx, name) in [(3, "lex(x0 x1 x2, x3 x4)"), (2, "lex(x0 x1, x2 x3 x4)")] {
        assert_trustworthy(sampled(
            case(
                name,
                LexLessEq::new(&xs[..nx], &xs[nx..]),
                &[&[0, 1], &[0, 1, 2], &[1, 2], &[0, 1, 2], &[0, 2]],
                lex_spec(nx),
            )
            .everywhere(Strength::Gac),
            2_000,
        ));
    }
    assert_trustworthy(case(
        "lex(x0 x1, x1 x0)",
        LexLessEq::new(&[x(0), x(1)], &[x(1), x(0)]),
        &[&[0, 1, 2], &[-1, 1, 2]],
        lex_spec(2),
    ));
}

#[test]
fn diffn_is_sound() {
    // Three rectangles: x0..x2, y0..y2, dx0..dx2, dy0..dy2.
    let v: Vec<_> = (0..12).map(x).collect();
    let c = Diffn::new(&v[0..3], &v[3..6], &v[6..9], &v[9..12]).unwrap();
    // MiniZinc's definition: every pair is apart in x or in y.
    let spec = |v: &[Value]| {
        let at = |k: usize, i: usize| v[k * 3 + i];
        (0..3).all(|i| {
            (i + 1..3).all(|j| {
                (0..2).any(|k| {
                    at(k, i) + at(2 + k, i) <= at(k, j) || at(k, j) + at(2 + k, j) <= at(k, i)
                })
            })
        })
    };
    assert_trustworthy(sampled(
        case(
            "diffn(3 rectangles)",
            c,
            &[
                &[0, 1, 2],
                &[0, 2],
                &[1, 3],
                &[0, 1],
                &[0, 1],
                &[1],
                &[1, 2],
                &[0, 1],
                &[2],
                &[1],
                &[1, 2],
                &[0, 1],
            ],
            spec,
        ),
        3000,
    ));
}

/// MiniZinc's definition of diffn over `n` rectangles laid out as
/// `x[0..n], y[0..n], dx[0..n], dy[0..n]`: every pair is apart in x or in y.
fn diffn_spec(n: usize) -> impl Fn(&[Value]) -> bool + Send + Sync {
    move |v: &[Value]| {
        let at = |k: usize, i: usize| v[k * n + i];
        (0..n).all(|i| {
            (i + 1..n).all(|j| {
                (0..2).any(|k| {
                    at(k, i) + at(2 + k, i) <= at(k, j) || at(k, j) + at(2 + k, j) <= at(k, i)
                })
            })
        })
    }
}

#[test]
fn diffn_on_four_and_five_rectangles_is_sound() {
    // Four rectangles in a 3 x 3 box, two of them of open size.
    let v: Vec<_> = (0..16).map(x).collect();
    let c = Diffn::new(&v[0..4], &v[4..8], &v[8..12], &v[12..16]).unwrap();
    let four: [&[Value]; 16] = [
        &[0, 1, 2],
        &[0, 1],
        &[1, 2],
        &[0, 2],
        &[0, 1],
        &[0, 2],
        &[0, 1, 2],
        &[1],
        &[1, 2],
        &[1],
        &[1],
        &[1, 2],
        &[1],
        &[1, 2],
        &[1],
        &[1],
    ];
    assert_trustworthy(sampled(
        case("diffn(4 rectangles)", c, &four, diffn_spec(4)),
        400,
    ));
    // Five rectangles, one of them of size 0 in x (it overlaps nothing).
    let v: Vec<_> = (0..20).map(x).collect();
    let c = Diffn::new(&v[0..5], &v[5..10], &v[10..15], &v[15..20]).unwrap();
    let five: [&[Value]; 20] = [
        &[0, 1],
        &[0, 2],
        &[1, 2],
        &[0, 1],
        &[0, 2],
        &[0, 1],
        &[0],
        &[0, 1],
        &[1, 2],
        &[0, 1],
        &[1],
        &[1, 2],
        &[1],
        &[1],
        &[0],
        &[1, 2],
        &[1],
        &[1],
        &[2],
        &[1],
    ];
    assert_trustworthy(sampled(
        case("diffn(5 rectangles)", c, &five, diffn_spec(5)),
        200,
    ));
}
