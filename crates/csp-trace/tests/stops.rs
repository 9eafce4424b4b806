//! The explorer page and the SVG tree stop on a time limit or Ctrl-C
//! (issue 29): every test sets the deadline in the past, or the flag,
//! before the work starts, so none depends on the machine's speed.

use std::time::{Duration, Instant};

use csp_core::{CancelFlag, Config, Model, Pruning, SearchStatus, Solver, StopReason};
use csp_trace::{
    ExploreOptions, ExploreRun, StopAtCap, SvgOptions, TraceRecorder, explore_html, page_stopped,
};

/// N-queens, pairwise not-equal constraints.
fn queens(n: usize) -> Model {
    let mut m = Model::new();
    let q = m.int_var_array("q", n, 0..=(n as i64 - 1)).unwrap();
    for i in 0..n {
        for j in i + 1..n {
            let d = (j - i) as i64;
            m.not_equal(q[i], q[j]).unwrap();
            m.not_equal_offset(q[i], q[j], d).unwrap();
            m.not_equal_offset(q[i], q[j], -d).unwrap();
        }
    }
    m
}

fn recorded(m: &Model) -> csp_trace::Trace {
    let config = Config::textbook().with_pruning(Pruning::ForwardChecking);
    let mut s = Solver::with_observer(m, config, TraceRecorder::new(1_000_000)).unwrap();
    s.count();
    s.into_observer().finish()
}

#[test]
fn a_page_past_its_deadline_or_cancelled_is_not_built() {
    let m = queens(8);
    let trace = recorded(&m);
    let runs = [ExploreRun::new("fc", &m, &trace)];
    let past = ExploreOptions {
        deadline: Some(Instant::now()),
        ..ExploreOptions::default()
    };
    let err = explore_html(&runs, &past).unwrap_err();
    assert!(page_stopped(&err), "{err}");
    let flag = CancelFlag::new();
    flag.cancel();
    let cancelled = ExploreOptions {
        cancel: Some(flag),
        ..ExploreOptions::default()
    };
    assert!(page_stopped(&explore_html(&runs, &cancelled).unwrap_err()));
    // With time to spare, the same page is built; other errors are not "stopped".
    let later = ExploreOptions {
        deadline: Some(Instant::now() + Duration::from_secs(3600)),
        ..ExploreOptions::default()
    };
    assert!(explore_html(&runs, &later).unwrap().contains("csp-trace-0"));
    assert!(!page_stopped(
        &explore_html(&[], &ExploreOptions::default()).unwrap_err()
    ));
}

#[test]
fn the_recording_leaves_the_page_its_time() {
    // A deadline already passed: the recorder stops the search at its first
    // reading of the clock (1,024 observer calls), and says why.
    let m = queens(10);
    let mut config = Config::textbook().with_pruning(Pruning::Check);
    let recorder = StopAtCap::new(10_000_000, &mut config)
        .with_page_deadline(Instant::now(), Duration::from_micros(3));
    let mut solver = Solver::with_observer(&m, config, recorder).unwrap();
    solver.count();
    assert_eq!(
        solver.status(),
        SearchStatus::Stopped(StopReason::Cancelled)
    );
    let recorder = solver.into_observer();
    assert!(recorder.out_of_time());
    assert!(!recorder.cancelled());
    let trace = recorder.finish();
    assert!(!trace.is_truncated());
    // The solver reads its cancel flag every few nodes (up to 256).
    assert!(trace.events.len() <= 5_000, "{}", trace.events.len());
    // Without a deadline the whole search is recorded.
    let mut config = Config::textbook().with_pruning(Pruning::Check);
    let recorder = StopAtCap::new(10_000_000, &mut config);
    let mut solver = Solver::with_observer(&m, config, recorder).unwrap();
    assert_eq!(solver.count().solutions, 724);
    assert!(!solver.into_observer().out_of_time());
}

#[test]
fn an_svg_asked_to_stop_is_not_drawn() {
    let m = queens(6);
    let trace = recorded(&m);
    let stop = || true;
    let mut options = SvgOptions {
        stop: Some(&stop),
        ..SvgOptions::default()
    };
    assert!(trace.try_to_svg(&m, &options).is_none());
    // The flag is only asked: without it, or when it says no, the same picture.
    let go = || false;
    options.stop = Some(&go);
    let drawn = trace.try_to_svg(&m, &options).unwrap();
    assert_eq!(drawn, trace.to_svg(&m, &SvgOptions::default()));
    assert!(drawn.starts_with("<svg"));
    // JSON Lines too.
    assert!(trace.json_lines_until(&m, None, &mut || true).is_none());
    assert_eq!(
        trace.json_lines_until(&m, None, &mut || false).unwrap(),
        trace.to_json_lines(&m)
    );
}

/// Counts the questions of a `stop` that always says no, then checks that a
/// `stop` saying yes at any one of them (the first, a flag set beforehand;
/// the last; every one between) makes `work` give up.
fn every_question_stops(work: &dyn Fn(&dyn Fn() -> bool) -> bool) -> usize {
    let asked = std::cell::Cell::new(0usize);
    assert!(work(&|| {
        asked.set(asked.get() + 1);
        false
    }));
    let total = asked.get();
    for k in 1..=total {
        let seen = std::cell::Cell::new(0usize);
        let done = work(&|| {
            seen.set(seen.get() + 1);
            seen.get() == k
        });
        assert!(!done, "went on after saying yes at question {k} of {total}");
    }
    total
}

#[test]
fn every_pass_of_the_svg_drawing_asks_whether_to_stop() {
    // 9-queens, all solutions, forward checking: several POLL_EVERY events.
    let m = queens(9);
    let trace = recorded(&m);
    let nodes = trace.nodes();
    assert!(
        trace.events.len() > 3 * csp_trace::POLL_EVERY,
        "{}",
        trace.events.len()
    );
    let asked = every_question_stops(&|stop| {
        let options = SvgOptions {
            stop: Some(stop),
            max_nodes: usize::MAX,
            ..SvgOptions::default()
        };
        trace.try_to_svg(&m, &options).is_some()
    });
    // Each pass over the events (reading the nodes back, gathering the
    // levels, solutions and counts) asks every `POLL_EVERY` events, and
    // each pass over the nodes (slots, words, drawing) every 1,024.
    let per_event_pass = trace.events.len().div_ceil(csp_trace::POLL_EVERY);
    let per_node_pass = nodes.len().div_ceil(1024);
    assert!(
        asked >= 2 * per_event_pass + 3 * per_node_pass,
        "{asked} questions for {} events and {} nodes",
        trace.events.len(),
        nodes.len()
    );
    // With the nodes built once by the caller, the same picture.
    let go = || false;
    let options = SvgOptions {
        stop: Some(&go),
        ..SvgOptions::default()
    };
    assert_eq!(
        trace.try_to_svg_of(&m, &nodes, &options),
        Some(trace.to_svg(&m, &SvgOptions::default()))
    );
}

#[test]
fn reading_the_nodes_back_counting_and_dot_ask_whether_to_stop() {
    let m = queens(9);
    let trace = recorded(&m);
    let events = trace.events.len();
    let asked = every_question_stops(&|stop| trace.nodes_until(&mut || stop()).is_some());
    assert_eq!(asked, events.div_ceil(csp_trace::POLL_EVERY));
    assert_eq!(trace.nodes_until(&mut || false), Some(trace.nodes()));
    let asked = every_question_stops(&|stop| trace.summary_until(&mut || stop()).is_some());
    assert_eq!(asked, events.div_ceil(csp_trace::POLL_EVERY));
    assert_eq!(trace.summary_until(&mut || false), Some(trace.summary()));
    // DOT: every 4,096 nodes, the same text when it is never told to stop.
    let nodes = trace.nodes();
    let asked = every_question_stops(&|stop| trace.to_dot_of(&m, &nodes, &mut || stop()).is_some());
    assert_eq!(asked, nodes.len().div_ceil(csp_trace::POLL_EVERY));
    assert_eq!(
        trace.to_dot_of(&m, &nodes, &mut || false),
        Some(trace.to_dot(&m))
    );
}
