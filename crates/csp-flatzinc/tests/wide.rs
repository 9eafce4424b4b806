//! Wide domains end to end: variables over more than 2^24 values (up to the
//! whole of `i64`), with holes, solved by `fzn-csp` and checked against brute
//! force over the values the constraints leave.

use std::process::Command;

/// Runs `fzn-csp ARGS` on `src` (written to a temporary file); its output.
fn fzn_csp(args: &[&str], name: &str, src: &str) -> String {
    let path = std::env::temp_dir().join(format!(
        "csp-flatzinc-wide-{}-{name}.fzn",
        std::process::id()
    ));
    std::fs::write(&path, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .args(args)
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_wide_objective_is_minimised_to_the_brute_force_optimum() {
    // A cost over 260..36000000 and a slack over all of -4e9..4e9, each with
    // a hole where the first optimum would be.
    let src = "var 0..1000: a :: output_var;
var 0..1000: b :: output_var;
var 260..36000000: cost :: output_var;
var -4000000000..4000000000: slack :: output_var;
constraint int_lin_eq([1,-1000,-37],[cost,a,b],0);
constraint int_lin_le([-1,-1],[a,b],-3);
constraint int_ne(cost, 296);
constraint int_lin_eq([1,-1,1],[slack,cost,a],7);
constraint int_ne(slack, 340);
solve minimize cost;
";
    let mut best: Option<(i64, i64, i64, i64)> = None;
    for a in 0..=1000i64 {
        for b in 0..=1000i64 {
            let cost = 1000 * a + 37 * b;
            let slack = cost - a + 7;
            let feasible =
                a + b >= 3 && (260..=36_000_000).contains(&cost) && cost != 296 && slack != 340;
            if feasible && best.is_none_or(|(c, ..)| cost < c) {
                best = Some((cost, a, b, slack));
            }
        }
    }
    let (cost, a, b, slack) = best.unwrap();
    assert_eq!(
        fzn_csp(&[], "objective", src),
        format!("a = {a};\nb = {b};\ncost = {cost};\nslack = {slack};\n----------\n==========\n")
    );
}

#[test]
fn every_solution_over_the_whole_of_i64_is_found_once() {
    // x over 2 * 10^10 values, z over all but the two ends of i64: x = 3y - 1,
    // x != 5, x >= 0, z = x * x, z != 121.
    let src = "var -10000000000..10000000000: x :: output_var;
var 0..5: y :: output_var;
var -9223372036854775807..9223372036854775807: z :: output_var;
constraint int_lin_eq([1,-3],[x,y],-1);
constraint int_ne(x, 5);
constraint int_le(0, x);
constraint int_times(x, x, z);
constraint int_ne(z, 121);
solve satisfy;
";
    let mut want = Vec::new();
    for y in 0..=5i64 {
        let x = 3 * y - 1;
        if x != 5 && x >= 0 && x * x != 121 {
            want.push(format!("x = {x};\ny = {y};\nz = {};\n", x * x));
        }
    }
    want.sort();
    for order in ["asc", "desc", "split"] {
        let out = fzn_csp(&["-a", "-f", "--val", order], "all", src);
        let body = out.strip_suffix("==========\n").expect("complete");
        let mut got: Vec<String> = body
            .split_terminator("----------\n")
            .map(String::from)
            .collect();
        got.sort();
        assert_eq!(got, want, "{order}");
    }
}
