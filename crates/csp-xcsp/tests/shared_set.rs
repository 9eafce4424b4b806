//! The shared XCSP3 set (tests/xcsp3-benchmarks, a copy of
//! ../shared/xcsp3-benchmarks): every instance answered as ACE and Choco
//! answer it, every printed solution accepted by the verifier and, for
//! optimisation, its objective recomputed from the instance.

use std::path::PathBuf;
use std::time::Duration;

use csp_xcsp::solve::{Answer, Options, default_config, run};
use csp_xcsp::{Problem, parse_instance, read_instance_text};

/// Instances our search does not answer within seconds yet (bench/xcsp/run.sh
/// runs them with the full time limit): none since the default restarts.
const SLOW: &[&str] = &[];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/xcsp3-benchmarks")
}

#[test]
fn every_shared_instance_parses_and_resolves() {
    let expected = std::fs::read_to_string(dir().join("expected.tsv")).unwrap();
    let mut n = 0;
    for line in expected.lines().skip(1) {
        let file = line.split('\t').nth(1).unwrap();
        let text = read_instance_text(&dir().join(file)).unwrap();
        let problem =
            Problem::new(&parse_instance(&text).unwrap()).unwrap_or_else(|e| panic!("{file}: {e}"));
        csp_xcsp::translate(&problem).unwrap_or_else(|e| panic!("{file}: {e}"));
        n += 1;
    }
    assert_eq!(n, 30);
}

#[test]
fn shared_instances_are_answered_and_every_solution_verified() {
    let expected = std::fs::read_to_string(dir().join("expected.tsv")).unwrap();
    let mut solved = 0;
    for line in expected.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, kind, answer) = (cols[1], cols[2], cols[3]);
        if SLOW.contains(&file) {
            continue;
        }
        let text = read_instance_text(&dir().join(file)).unwrap();
        let problem = Problem::new(&parse_instance(&text).unwrap()).unwrap();
        let options = Options {
            config: default_config().with_time_limit(Duration::from_secs(30)),
            ..Options::default()
        };
        let mut out = Vec::new();
        let outcome = run(&problem, &options, &mut out).unwrap();
        let printed = String::from_utf8(out).unwrap();
        match (kind, answer) {
            ("satisfy", "sat") => assert_eq!(outcome.answer, Answer::Satisfiable, "{file}"),
            ("satisfy", _) => assert_eq!(outcome.answer, Answer::Unsatisfiable, "{file}"),
            _ => {
                assert_eq!(outcome.answer, Answer::OptimumFound, "{file}");
                assert_eq!(
                    outcome.objective.map(|o| o.to_string()).as_deref(),
                    Some(answer),
                    "{file}"
                );
            }
        }
        assert!(!outcome.solutions.is_empty() || answer == "unsat", "{file}");
        let goal = problem.goal.as_ref();
        let mut last_objective = None;
        for values in &outcome.solutions {
            assert_eq!(
                problem.violated(values),
                None,
                "{file}: a printed solution violates a constraint"
            );
            for (v, x) in problem.names.vars.iter().zip(values) {
                assert!(
                    v.contains(*x),
                    "{file}: {} = {x} outside its domain",
                    v.name
                );
            }
            if let Some(g) = goal {
                let o = g.kind.eval(values).unwrap();
                if let Some(prev) = last_objective {
                    assert!(
                        if g.minimize { o < prev } else { o > prev },
                        "{file}: not improving"
                    );
                }
                last_objective = Some(o);
            }
        }
        assert_eq!(last_objective, outcome.objective, "{file}");
        // The `v` lines read back as the last solution.
        if let Some(last) = outcome.solutions.last() {
            let back = csp_xcsp::output::read_solution(&problem.names, &printed).unwrap();
            assert_eq!(&back, last, "{file}");
        }
        solved += 1;
    }
    assert_eq!(solved, 30 - SLOW.len());
}
