//! Fuzz target: the XML front end (`parse_instance`, `Problem::new`,
//! `translate`) returns for every input, every error is one line, and a
//! translated instance small enough is searched briefly: every solution found
//! satisfies the verifier.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let problem = match csp_xcsp::parse_instance(text).and_then(|i| csp_xcsp::Problem::new(&i)) {
        Ok(p) => p,
        Err(e) => {
            assert!(!e.to_string().contains('\n'), "{e}");
            return;
        }
    };
    let t = match csp_xcsp::translate(&problem) {
        Ok(t) => t,
        Err(e) => {
            assert!(!e.to_string().contains('\n'), "{e}");
            return;
        }
    };
    let config = csp_xcsp::solve::default_config().with_node_limit(2_000);
    let Ok(mut solver) = csp_core::Solver::new(&t.model, config) else { return };
    for _ in 0..3 {
        let Some(s) = solver.next_solution() else { break };
        let values: Vec<i64> = t.vars.iter().map(|v| s.values()[v.index()]).collect();
        assert_eq!(problem.violated(&values), None, "a solution the verifier refuses");
    }
});
