//! What the memory limit charges beside the domains (issue 29): Régin's
//! graph and its list of removals, each decision's list of values, the tables, an observer's
//! recording. Past the limit the search stops with
//! `StopReason::MemoryLimit` (or `Solver::new` refuses), never an abort.

use csp_core::{
    Config, CspError, Model, Pruning, SearchObserver, SearchStatus, Solver, StopReason, ValOrder,
};

#[test]
fn regin_graph_past_the_limit_stops_the_search() {
    // 198 variables of 2,000 values, the even ones (no runs to shorten),
    // and two of {0, 2} (a Hall set, so that the filter cannot be skipped):
    // a graph of about 400,000 edges (1.6 MB and more), past a 1 MB limit;
    // the domains themselves are a few kilobytes.
    let mut m = Model::new();
    let even: Vec<i64> = (0..2_000).map(|v| 2 * v).collect();
    let mut x = m.int_var_array("x", 198, even).unwrap();
    x.extend(m.int_var_array("h", 2, vec![0, 2]).unwrap());
    m.all_different(&x).unwrap();
    let config = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_memory_limit(Some(1 << 20));
    let mut solver = Solver::new(&m, config).unwrap();
    let result = solver.first();
    assert_eq!(
        solver.status(),
        SearchStatus::Stopped(StopReason::MemoryLimit)
    );
    assert!(result.solution.is_none());
    // Under the default limit the same model is solved.
    let config = Config::textbook().with_pruning(Pruning::Propagators);
    let mut solver = Solver::new(&m, config).unwrap();
    assert!(solver.first().solution.is_some());
}

#[test]
fn regin_removals_past_the_limit_stop_the_search() {
    // A Hall set of 100 variables over 0..=99 and 100 more over 0..=199:
    // the graph (30,000 edges, but intervals: two words a variable) takes
    // about 20 KB, the 10,000 values it removes (each later variable loses
    // 0..=99) 320 KB more. Under a 300 KB limit the graph fits and the list
    // of removals does not.
    let mut m = Model::new();
    let mut x = m.int_var_array("h", 100, 0..=99).unwrap();
    x.extend(m.int_var_array("y", 100, 0..=199).unwrap());
    m.all_different(&x).unwrap();
    let config = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_memory_limit(Some(300_000));
    let mut solver = Solver::new(&m, config).unwrap();
    let result = solver.first();
    assert_eq!(
        solver.status(),
        SearchStatus::Stopped(StopReason::MemoryLimit)
    );
    assert!(result.solution.is_none());
    // With room for both, the same model is solved.
    let config = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_memory_limit(Some(2_000_000));
    let mut solver = Solver::new(&m, config).unwrap();
    assert!(solver.first().solution.is_some());
}

#[test]
fn a_decision_list_past_the_limit_is_not_made() {
    // A random value order lists the domain of each decision: 1.6 * 10^7
    // values (128 MB and more) past a 64 MB limit.
    let mut m = Model::new();
    let x = m.int_var(0..=15_999_999).unwrap();
    let y = m.int_var(0..=3).unwrap();
    m.not_equal(x, y).unwrap();
    let config = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_val_order(ValOrder::Random(7))
        .with_memory_limit(Some(64 << 20));
    let mut solver = Solver::new(&m, config).unwrap();
    let result = solver.first();
    assert_eq!(
        solver.status(),
        SearchStatus::Stopped(StopReason::MemoryLimit)
    );
    assert!(result.solution.is_none());
    assert_eq!(result.stats.tried, 0);
    // Ascending values walk the domain without a list: solved.
    let config = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_memory_limit(Some(64 << 20));
    let mut solver = Solver::new(&m, config).unwrap();
    assert!(solver.first().solution.is_some());
}

#[test]
fn tables_count_toward_the_limit() {
    // 20,000 rows of three columns: about 2 MB of rows and supports.
    let mut m = Model::new();
    let x = m.int_var_array("x", 3, 0..=19_999).unwrap();
    let rows: Vec<Vec<i64>> = (0..20_000).map(|i| vec![i, (i * 7) % 20_000, 5]).collect();
    m.table(&x, rows).unwrap();
    let config = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_memory_limit(Some(1 << 20));
    match Solver::new(&m, config) {
        Err(CspError::MemoryLimit {
            what,
            needed,
            limit,
        }) => {
            assert_eq!(what, "the domains and tables");
            assert!(needed > limit && limit == 1 << 20, "{needed} {limit}");
        }
        other => panic!("expected a memory limit error, got {:?}", other.err()),
    }
    let config = Config::textbook().with_pruning(Pruning::Propagators);
    let mut solver = Solver::new(&m, config).unwrap();
    assert!(solver.first().solution.is_some());
}

/// Claims a fixed amount of memory, as a recorder would.
struct Heavy(usize);

impl SearchObserver for Heavy {
    fn memory_bytes(&self) -> usize {
        self.0
    }
}

#[test]
fn an_observer_memory_counts_toward_the_limit() {
    let mut m = Model::new();
    let q = m.int_var_array("q", 10, 0..=9).unwrap();
    for i in 0..10 {
        for j in i + 1..10 {
            let d = (j - i) as i64;
            m.not_equal(q[i], q[j]).unwrap();
            m.not_equal_offset(q[i], q[j], d).unwrap();
            m.not_equal_offset(q[i], q[j], -d).unwrap();
        }
    }
    let config = || {
        Config::textbook()
            .with_pruning(Pruning::Check)
            .with_memory_limit(Some(1 << 20))
    };
    let mut solver = Solver::with_observer(&m, config(), Heavy(2 << 20)).unwrap();
    let count = solver.count();
    assert_eq!(count.status, SearchStatus::Stopped(StopReason::MemoryLimit));
    let mut solver = Solver::with_observer(&m, config(), Heavy(1 << 10)).unwrap();
    assert_eq!(solver.count().solutions, 724);
}

#[test]
fn holes_of_wide_variables_count_toward_the_limit() {
    // Ten variables over 0..=10^6 (wide: bounds and a list of holes), each
    // with 8,000 odd values forbidden (`x != v`): 80,000 holes of 16 bytes,
    // past a 1 MB limit. Under the default limit the same model is solved.
    let build = || {
        let mut m = Model::new();
        let xs = m.int_var_array("x", 10, 0..=1_000_000).unwrap();
        for &x in &xs {
            for k in 0..8_000 {
                m.linear(&[1], &[x], csp_core::Relation::Ne, 2 * k + 1)
                    .unwrap();
            }
        }
        m
    };
    let m = build();
    let config = Config::default().with_memory_limit(Some(1 << 20));
    let mut solver = Solver::new(&m, config).unwrap();
    let result = solver.first();
    assert_eq!(
        solver.status(),
        SearchStatus::Stopped(StopReason::MemoryLimit)
    );
    assert!(result.solution.is_none());
    let mut solver = Solver::new(&m, Config::default()).unwrap();
    assert!(solver.first().solution.is_some());
}
