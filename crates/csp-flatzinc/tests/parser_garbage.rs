//! Property tests: the parser never panics, whatever it is fed, and mutations of a valid file give located errors.

use proptest::prelude::*;

const VALID: &str = "predicate fzn_all_different_int(array [int] of var int: x);
array [1..2] of int: c = [1,-1];
var 1..4: a :: output_var;
var {1, 3}: b;
var bool: t;
array [1..2] of var int: q :: output_array([1..2]) = [a, b];
constraint fzn_all_different_int(q);
constraint int_lin_le_reif(c, [a, b], -1, t) :: defines_var(t);
constraint set_in(a, 1..3);
solve :: seq_search([int_search(q, first_fail, indomain_min, complete)]) maximize a;
";

/// Strings over the characters FlatZinc is made of, so the parser gets deep before failing.
fn flatzinc_like() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("var "),
            Just("array "),
            Just("of "),
            Just("int"),
            Just("bool"),
            Just("set "),
            Just("constraint "),
            Just("solve "),
            Just("satisfy"),
            Just("minimize "),
            Just("predicate "),
            Just("x"),
            Just("1"),
            Just("-7"),
            Just("2.5"),
            Just(".."),
            Just(":"),
            Just("::"),
            Just(";"),
            Just(","),
            Just("("),
            Just(")"),
            Just("["),
            Just("]"),
            Just("{"),
            Just("}"),
            Just("="),
            Just("\""),
            Just("%"),
            Just("\n"),
            Just(" "),
            Just("/*"),
            Just("*/"),
            Just("true"),
            Just("0x"),
            Just("e"),
        ],
        0..60,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_never_panics(src in any::<String>()) {
        let _ = csp_flatzinc::parse(&src);
    }

    #[test]
    fn flatzinc_like_text_never_panics(src in flatzinc_like()) {
        let _ = csp_flatzinc::parse(&src);
    }

    #[test]
    fn cutting_a_valid_file_gives_an_error_inside_it(cut in 0..VALID.len()) {
        let src = &VALID[..cut];
        if let Err(err) = csp_flatzinc::parse(src) {
            let lines = src.lines().count().max(1) as u32;
            prop_assert!(err.line() >= 1 && err.line() <= lines + 1, "{err}");
        }
    }

    #[test]
    fn replacing_a_character_never_panics(at in 0..VALID.len(), c in any::<char>()) {
        let mut src = VALID.to_string();
        if src.is_char_boundary(at) && src.is_char_boundary(at + 1) {
            src.replace_range(at..at + 1, &c.to_string());
        }
        let _ = csp_flatzinc::parse(&src);
    }
}

#[test]
fn the_valid_file_parses() {
    let model = csp_flatzinc::parse(VALID).unwrap();
    assert_eq!(model.decls.len(), 5);
    assert_eq!(model.constraints.len(), 3);
}
