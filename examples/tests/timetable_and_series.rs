//! The exam timetable (capacity with `at_most` and `count`) and the all-interval
//! series (`distance`): solver counts at every pruning level against
//! independent brute-force enumerations.

mod common;

use csp_core::{Config, Pruning, Solver, Value};
use csp_examples::all_interval::{AllInterval, is_all_interval};
use csp_examples::exam_timetable::{Capacity, ExamTimetable, Exams};

/// The timetables of `exams` by brute force: every assignment of slots.
fn brute_force_timetables(exams: &Exams, slots: usize, capacity: usize) -> u64 {
    let n = exams.names.len();
    let conflicts = exams.conflicts();
    let total = slots.pow(n as u32);
    let mut count = 0;
    let mut a = vec![0; n];
    for mut k in 0..total {
        let mut load = vec![0; slots];
        for v in a.iter_mut() {
            *v = k % slots;
            load[*v] += 1;
            k /= slots;
        }
        if load.iter().all(|&l| l <= capacity) && conflicts.iter().all(|&(x, y)| a[x] != a[y]) {
            count += 1;
        }
    }
    count
}

#[test]
fn exam_timetable_counts_match_brute_force_at_every_level() {
    let exams = Exams::sample();
    for (slots, capacity) in [(4, 2), (4, 3), (3, 2), (3, 3), (5, 2), (4, 1)] {
        let want = brute_force_timetables(&exams, slots, capacity);
        for form in [Capacity::AtMost, Capacity::Count] {
            let t = ExamTimetable::new(&exams, slots, capacity, form).unwrap();
            for pruning in Pruning::ALL {
                if pruning == Pruning::None && (slots > 4 || form == Capacity::Count) {
                    continue; // generate-and-test only where the tree is small
                }
                let mut s =
                    Solver::new(&t.model, Config::textbook().with_pruning(pruning)).unwrap();
                let mut found = 0;
                for sol in s.solutions() {
                    let slots_of: Vec<Value> = t.slot.iter().map(|&v| sol[v]).collect();
                    assert!(exams.is_timetable(slots, capacity, &slots_of));
                    for (k, &l) in t.load.iter().enumerate() {
                        let used = slots_of.iter().filter(|&&x| x == k as Value).count();
                        assert_eq!(sol[l], used as Value);
                    }
                    found += 1;
                }
                assert_eq!(
                    found, want,
                    "{slots} slots of {capacity}, {form:?}, {pruning}"
                );
            }
        }
    }
    // The figures quoted in the documentation.
    assert_eq!(brute_force_timetables(&exams, 4, 2), 144);
    assert_eq!(brute_force_timetables(&exams, 4, 8), 960);
    assert_eq!(brute_force_timetables(&exams, 3, 8), 24);
}

#[test]
fn capacity_prunes_before_every_exam_has_a_slot() {
    // The plain check rejects a third exam in a slot at once: far fewer nodes
    // than generate-and-test, and forward checking fewer still.
    let t = ExamTimetable::new(&Exams::sample(), 4, 2, Capacity::AtMost).unwrap();
    let nodes = |p: Pruning| {
        let mut s = Solver::new(&t.model, Config::textbook().with_pruning(p)).unwrap();
        s.count().stats.tried
    };
    let (none, check, fc) = (
        nodes(Pruning::None),
        nodes(Pruning::Check),
        nodes(Pruning::ForwardChecking),
    );
    assert!(check * 10 < none && fc < check, "{none} {check} {fc}");
}

/// Every permutation of `0..n` (Heap's algorithm).
fn permutations(n: usize) -> Vec<Vec<Value>> {
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
    heap(n, &mut (0..n as Value).collect(), &mut out);
    out
}

#[test]
fn all_interval_series_match_brute_force() {
    for n in 2..=8 {
        let mut want: Vec<Vec<Value>> = permutations(n)
            .into_iter()
            .filter(|p| is_all_interval(p))
            .collect();
        want.sort();
        for model in [
            AllInterval::new(n).unwrap(),
            AllInterval::x_first(n).unwrap(),
        ] {
            for pruning in common::LEVELS {
                let mut s =
                    Solver::new(&model.model, Config::textbook().with_pruning(pruning)).unwrap();
                let mut got: Vec<Vec<Value>> = s
                    .solutions()
                    .map(|sol| model.series(sol.values()))
                    .collect();
                got.sort();
                assert_eq!(got, want, "n = {n}, {pruning}");
            }
        }
    }
    assert_eq!(
        permutations(8)
            .iter()
            .filter(|p| is_all_interval(p))
            .count(),
        40
    );
}

#[test]
fn all_interval_of_length_ten_has_296_series() {
    let a = AllInterval::new(10).unwrap();
    let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
    let mut s = Solver::new(&a.model, config).unwrap();
    let mut n = 0;
    for sol in s.solutions() {
        assert!(is_all_interval(&a.series(sol.values())));
        n += 1;
    }
    assert_eq!(n, 296);
}

/// Whether the rules named `names` (pairs "A and B share a student", rooms
/// "room of slot S holds C exams") allow a timetable, by brute force over
/// every assignment of `slots` slots.
fn brute_force_rules_hold(exams: &Exams, slots: usize, capacity: usize, names: &[String]) -> bool {
    let n = exams.names.len();
    let pairs: Vec<(usize, usize)> = exams
        .conflicts()
        .into_iter()
        .filter(|&(a, b)| {
            names.contains(&format!(
                "{} and {} share a student",
                exams.names[a], exams.names[b]
            ))
        })
        .collect();
    let rooms: Vec<usize> = (0..slots)
        .filter(|s| names.contains(&format!("room of slot {} holds {capacity} exams", s + 1)))
        .collect();
    assert_eq!(
        pairs.len() + rooms.len(),
        names.len(),
        "unknown names in {names:?}"
    );
    let mut a = vec![0; n];
    (0..slots.pow(n as u32)).any(|mut k| {
        let mut load = vec![0; slots];
        for v in a.iter_mut() {
            *v = k % slots;
            load[*v] += 1;
            k /= slots;
        }
        rooms.iter().all(|&s| load[s] <= capacity) && pairs.iter().all(|&(x, y)| a[x] != a[y])
    })
}

#[test]
fn explanations_of_the_sample_are_minimal_by_brute_force() {
    let exams = Exams::sample();
    for (slots, capacity) in [(2, 4), (3, 2), (2, 8), (4, 1), (1, 8)] {
        for form in [Capacity::AtMost, Capacity::Count] {
            let t = ExamTimetable::new(&exams, slots, capacity, form).unwrap();
            let why = csp_core::explain::explain(&t.model, &Config::default()).unwrap();
            assert!(
                why.verdict.is_minimal(),
                "{slots} slots of {capacity}: {:?}",
                why.verdict
            );
            let names = why.names(&t.model);
            assert!(!names.is_empty());
            assert!(
                !brute_force_rules_hold(&exams, slots, capacity, &names),
                "{names:?}"
            );
            for i in 0..names.len() {
                let mut rest = names.clone();
                rest.remove(i);
                assert!(
                    brute_force_rules_hold(&exams, slots, capacity, &rest),
                    "{slots} slots of {capacity}: {names:?} without {} still clash",
                    names[i]
                );
            }
        }
    }
}
