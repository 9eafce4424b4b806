//! Parser tests: every FlatZinc construct we read, and malformed inputs that must give a located error.

use csp_flatzinc::ast::{
    Annotation, BasicParType, Decl, Expr, Goal, ParDecl, ParType, SetLit, VarArrayDecl, VarDecl,
    VarType,
};
use csp_flatzinc::{ParseErrorKind, Pos, parse};

fn with_solve(items: &str) -> String {
    format!("{items}\nsolve satisfy;\n")
}

fn only_decl(items: &str) -> Decl {
    let model = parse(&with_solve(items)).unwrap();
    assert_eq!(model.decls.len(), 1, "{items}");
    model.decls.into_iter().next().unwrap()
}

fn var(items: &str) -> VarDecl {
    match only_decl(items) {
        Decl::Var(v) => v,
        other => panic!("not a variable: {other:?}"),
    }
}

fn par(items: &str) -> ParDecl {
    match only_decl(items) {
        Decl::Par(p) => p,
        other => panic!("not a parameter: {other:?}"),
    }
}

fn var_array(items: &str) -> VarArrayDecl {
    match only_decl(items) {
        Decl::VarArray(a) => a,
        other => panic!("not a variable array: {other:?}"),
    }
}

/// The error for `src`, as (line, column, message).
fn error(src: &str) -> (u32, u32, String) {
    let err = parse(src).unwrap_err();
    (err.line(), err.column(), err.kind().to_string())
}

#[test]
fn int_variable_with_range_domain() {
    let v = var("var 1..9: x;");
    assert_eq!(v.name, "x");
    assert_eq!(v.ty, VarType::IntRange(1, 9));
    assert_eq!(v.value, None);
    assert_eq!(
        v.pos,
        Pos {
            line: 1,
            column: 11
        }
    );
}

#[test]
fn int_variable_with_negative_range() {
    assert_eq!(var("var -5..-1: x;").ty, VarType::IntRange(-5, -1));
}

#[test]
fn int_variable_with_set_domain_is_sorted_and_deduplicated() {
    assert_eq!(
        var("var {5, 1, 3, 1}: x;").ty,
        VarType::IntSet(vec![1, 3, 5])
    );
}

#[test]
fn unbounded_int_and_bool_variables() {
    assert_eq!(var("var int: x;").ty, VarType::Int);
    assert_eq!(var("var bool: b;").ty, VarType::Bool);
}

#[test]
fn float_and_set_variables_are_read_for_the_translation_to_reject() {
    assert_eq!(var("var float: f;").ty, VarType::Float);
    assert_eq!(var("var 0.5..1.5: f;").ty, VarType::FloatRange(0.5, 1.5));
    assert_eq!(
        var("var set of 1..3: s;").ty,
        VarType::SetOfInt(Some(SetLit::IntRange(1, 3)))
    );
    assert_eq!(var("var set of int: s;").ty, VarType::SetOfInt(None));
}

#[test]
fn variable_bound_to_constant_or_alias() {
    assert_eq!(var("var 1..3: x = 2;").value, Some(Expr::Int(2)));
    assert_eq!(var("var bool: b = true;").value, Some(Expr::Bool(true)));
    assert_eq!(
        var("var 1..3: x :: output_var = y;").value,
        Some(Expr::Ident("y".into()))
    );
}

#[test]
fn output_var_and_introduced_annotations() {
    let v = var("var 2..5: X_INTRODUCED_5_ ::var_is_introduced :: is_defined_var:: output_var;");
    let names: Vec<_> = v.annotations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["var_is_introduced", "is_defined_var", "output_var"]);
    assert!(Annotation::find(&v.annotations, "output_var").is_some());
}

#[test]
fn scalar_parameters_of_every_type() {
    let p = par("int: n = -4;");
    assert_eq!(
        (p.name.as_str(), &p.ty, &p.value),
        ("n", &ParType::Basic(BasicParType::Int), &Expr::Int(-4))
    );
    assert_eq!(par("bool: b = false;").value, Expr::Bool(false));
    assert_eq!(par("float: f = 2.5;").value, Expr::Float(2.5));
    let s = par("set of int: s = {3, 1};");
    assert_eq!(s.ty, ParType::Basic(BasicParType::SetOfInt));
    assert_eq!(s.value, Expr::Set(SetLit::Ints(vec![1, 3])));
    assert_eq!(
        par("set of int: r = 2..7;").value,
        Expr::Set(SetLit::IntRange(2, 7))
    );
    assert_eq!(
        par("set of int: e = {};").value,
        Expr::Set(SetLit::Ints(vec![]))
    );
}

#[test]
fn parameter_arrays() {
    let p = par("array [1..3] of int: a = [1, -2, 3];");
    assert_eq!(
        p.ty,
        ParType::Array {
            len: 3,
            element: BasicParType::Int
        }
    );
    assert_eq!(
        p.value,
        Expr::Array(vec![Expr::Int(1), Expr::Int(-2), Expr::Int(3)])
    );
    let p = par("array [1..2] of set of int: s = [1..2, {4}];");
    assert_eq!(
        p.value,
        Expr::Array(vec![
            Expr::Set(SetLit::IntRange(1, 2)),
            Expr::Set(SetLit::Ints(vec![4]))
        ])
    );
    let p = par("array [1..0] of bool: none = [];");
    assert_eq!(p.value, Expr::Array(vec![]));
}

#[test]
fn variable_array_with_output_array_annotation() {
    let a = var_array("array [1..4] of var int: grid:: output_array([1..2, 1..2]) = [a, b, 3, c];");
    assert_eq!(a.len, 4);
    assert_eq!(a.element, VarType::Int);
    assert_eq!(
        a.value.as_deref().unwrap()[2..],
        [Expr::Int(3), Expr::Ident("c".into())]
    );
    let ann = Annotation::find(&a.annotations, "output_array").unwrap();
    assert_eq!(
        ann.args,
        vec![Expr::Array(vec![
            Expr::Set(SetLit::IntRange(1, 2)),
            Expr::Set(SetLit::IntRange(1, 2))
        ])]
    );
}

#[test]
fn variable_array_without_literal_declares_fresh_variables() {
    let a = var_array("array [1..3] of var bool: bs;");
    assert_eq!((a.len, a.element, a.value), (3, VarType::Bool, None));
}

#[test]
fn constraint_with_arrays_and_defines_var() {
    let model = parse(&with_solve(
        "constraint int_lin_eq([1,-1],[X_1,X_2],-1):: defines_var(X_2);",
    ))
    .unwrap();
    let c = &model.constraints[0];
    assert_eq!(c.name, "int_lin_eq");
    assert_eq!(
        c.pos,
        Pos {
            line: 1,
            column: 12
        }
    );
    assert_eq!(
        c.args,
        vec![
            Expr::Array(vec![Expr::Int(1), Expr::Int(-1)]),
            Expr::Array(vec![Expr::Ident("X_1".into()), Expr::Ident("X_2".into())]),
            Expr::Int(-1)
        ]
    );
    assert_eq!(c.annotations[0].name, "defines_var");
    assert_eq!(c.annotations[0].args, vec![Expr::Ident("X_2".into())]);
}

#[test]
fn constraint_with_set_argument_and_array_access() {
    let model = parse(&with_solve("constraint set_in_reif(q[2], {1, 5}, b);")).unwrap();
    assert_eq!(
        model.constraints[0].args,
        vec![
            Expr::ArrayAccess {
                name: "q".into(),
                index: 2
            },
            Expr::Set(SetLit::Ints(vec![1, 5])),
            Expr::Ident("b".into())
        ]
    );
}

#[test]
fn solve_satisfy_minimize_maximize() {
    let goal = |s: &str| parse(s).unwrap().solve.goal;
    assert_eq!(goal("solve satisfy;"), Goal::Satisfy);
    assert_eq!(
        goal("var 0..9: c;\nsolve minimize c;"),
        Goal::Minimize(Expr::Ident("c".into()))
    );
    assert_eq!(
        goal("var 0..9: c;\nsolve maximize c;"),
        Goal::Maximize(Expr::Ident("c".into()))
    );
}

#[test]
fn int_search_annotation_with_atoms() {
    let model =
        parse("solve :: int_search(q, first_fail, indomain_split, complete) satisfy;").unwrap();
    let ann = &model.solve.annotations[0];
    assert_eq!(ann.name, "int_search");
    assert_eq!(
        ann.args,
        ["q", "first_fail", "indomain_split", "complete"]
            .map(|s| Expr::Ident(s.to_string()))
            .to_vec()
    );
}

#[test]
fn seq_search_nests_bool_search_and_int_search() {
    let model = parse(
        "solve :: seq_search([bool_search([b1, b2], input_order, indomain_max, complete),\n\
         int_search([x, y], dom_w_deg, indomain_median, complete)]) minimize x;",
    )
    .unwrap();
    let seq = &model.solve.annotations[0];
    assert_eq!(seq.name, "seq_search");
    let Expr::Array(parts) = &seq.args[0] else {
        panic!("seq_search takes an array")
    };
    let names: Vec<_> = parts
        .iter()
        .map(|p| match p {
            Expr::Annotation(a) => (a.name.as_str(), a.pos.line),
            other => panic!("not an annotation: {other:?}"),
        })
        .collect();
    assert_eq!(names, [("bool_search", 1), ("int_search", 2)]);
}

#[test]
fn annotations_take_strings() {
    let model =
        parse("constraint int_le(x, y) :: mzn_path(\"m.mzn|3|1\");\nsolve satisfy;").unwrap();
    assert_eq!(
        model.constraints[0].annotations[0].args,
        vec![Expr::Str("m.mzn|3|1".into())]
    );
}

#[test]
fn predicate_items_are_counted_not_interpreted() {
    let model = parse(
        "predicate fzn_all_different_int(array [int] of var int: x);\n\
         predicate fzn_table_int(array [int] of var int: x, array [int] of int: t);\n\
         solve satisfy;",
    )
    .unwrap();
    let arities: Vec<_> = model
        .predicates
        .iter()
        .map(|p| (p.name.as_str(), p.arity, p.pos.line))
        .collect();
    assert_eq!(
        arities,
        [("fzn_all_different_int", 1, 1), ("fzn_table_int", 2, 2)]
    );
}

#[test]
fn comments_and_odd_spacing_are_fine() {
    let model = parse(
        "% generated\nvar 1..2:x::output_var;/* block */constraint int_ne(x,1);solve\nsatisfy ;",
    )
    .unwrap();
    assert_eq!(model.decls.len(), 1);
    assert_eq!(model.constraints.len(), 1);
    assert_eq!(
        model.solve.pos,
        Pos {
            line: 2,
            column: 58
        }
    );
}

#[test]
fn declarations_keep_file_order() {
    let model = parse(&with_solve(
        "int: n = 2;\nvar 1..2: a;\narray [1..1] of var int: xs = [a];\nbool: t = true;",
    ))
    .unwrap();
    let names: Vec<_> = model.decls.iter().map(Decl::name).collect();
    assert_eq!(names, ["n", "a", "xs", "t"]);
}

// ---- malformed input: the message names the problem and the position ----

#[test]
fn missing_semicolon_points_at_next_item() {
    assert_eq!(
        error("var 1..3: x\nsolve satisfy;"),
        (2, 1, "expected `;`, found `solve`".into())
    );
}

#[test]
fn missing_solve_item_points_at_end() {
    assert_eq!(error("var 1..3: x;\n"), (2, 1, "missing solve item".into()));
}

#[test]
fn second_solve_item_is_rejected() {
    assert_eq!(
        error("solve satisfy;\nsolve satisfy;"),
        (2, 1, "more than one solve item".into())
    );
}

#[test]
fn unknown_item_keyword() {
    assert_eq!(
        error("output [\"x\"];\nsolve satisfy;"),
        (1, 1, "expected an item, found `output`".into())
    );
}

#[test]
fn incomplete_range_domain() {
    assert_eq!(
        error("var 1..: x;\nsolve satisfy;"),
        (1, 8, "expected an integer, found `:`".into())
    );
}

#[test]
fn unknown_variable_type() {
    assert_eq!(
        error("var string: s;\nsolve satisfy;"),
        (1, 5, "expected a variable type, found `string`".into())
    );
}

#[test]
fn array_length_must_match_index_set() {
    assert_eq!(
        error("array [1..3] of int: a = [1, 2];\nsolve satisfy;"),
        (
            1,
            26,
            "array `a` is declared with 3 elements but given 2".into()
        )
    );
}

#[test]
fn array_index_set_must_start_at_one() {
    assert_eq!(
        error("array [0..3] of int: a = [1, 2, 3, 4];\nsolve satisfy;"),
        (1, 8, "array index set must be 1..n, found 0..3".into())
    );
}

#[test]
fn nested_arrays_outside_annotations_are_rejected() {
    assert_eq!(
        error("constraint foo([[1]]);\nsolve satisfy;"),
        (1, 17, "expected an expression, found `[`".into())
    );
}

#[test]
fn strings_outside_annotations_are_rejected() {
    assert_eq!(
        error("constraint foo(\"s\");\nsolve satisfy;"),
        (1, 16, "expected an expression, found string \"s\"".into())
    );
}

#[test]
fn unclosed_constraint_call() {
    assert_eq!(
        error("constraint int_eq(x, y;\nsolve satisfy;"),
        (1, 23, "expected `)`, found `;`".into())
    );
}

#[test]
fn integer_overflow_is_reported_with_its_text() {
    assert_eq!(
        error("int: n = 99999999999999999999;\nsolve satisfy;"),
        (
            1,
            10,
            "integer literal 99999999999999999999 does not fit in 64 bits".into()
        )
    );
}

#[test]
fn mixed_set_literal_is_rejected() {
    assert_eq!(
        error("set of int: s = {1, 2.5};\nsolve satisfy;"),
        (1, 21, "expected an integer, found `2.5`".into())
    );
}

#[test]
fn bad_solve_goal() {
    assert_eq!(
        error("solve optimise x;"),
        (
            1,
            7,
            "expected `satisfy`, `minimize` or `maximize`, found `optimise`".into()
        )
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let src = format!(
        "solve :: a({}{}) satisfy;",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let err = parse(&src).unwrap_err();
    assert!(matches!(err.kind(), ParseErrorKind::TooDeep(_)), "{err}");
    assert_eq!(err.line(), 1);
    // `(` is level 1 and each `[` one more: the 65th `[` is refused.
    assert_eq!(
        err.to_string(),
        "line 1, column 76: nesting deeper than 64 levels"
    );
}

#[test]
fn empty_input_is_missing_solve() {
    assert_eq!(error(""), (1, 1, "missing solve item".into()));
}

#[test]
fn error_display_includes_line_and_column() {
    let err = parse("var 1..3: x;\nconstraint int_eq(x 1);\nsolve satisfy;").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 2, column 21: expected `)`, found `1`"
    );
}

/// The parser reads the tokens one at a time: a token that cannot be read
/// still gives its own error, also after a complete model (where the parser,
/// had it taken the bad token for the end, would have succeeded) and where the
/// parser would otherwise complain about the end of the input.
#[test]
fn a_bad_token_is_reported_even_after_a_complete_model() {
    let (line, column, message) = error("var 1..3: x;\nsolve satisfy;\n@");
    assert_eq!((line, column), (3, 1), "{message}");
    assert!(message.contains('@'), "{message}");
    let err = parse("var 1..3: x;\n/* never closed").unwrap_err();
    assert_eq!(err.kind(), &ParseErrorKind::UnterminatedComment);
    assert_eq!((err.line(), err.column()), (2, 1));
    let err = parse("var 1..3: x;\nsolve satisfy; \"open").unwrap_err();
    assert_eq!(err.kind(), &ParseErrorKind::UnterminatedString);
    let err = parse("var 1..3: x :: a(99999999999999999999);\nsolve satisfy;").unwrap_err();
    assert!(matches!(err.kind(), ParseErrorKind::IntegerOutOfRange(_)));
    assert_eq!((err.line(), err.column()), (1, 18));
}

/// Columns count characters, not bytes; white space beyond ASCII separates
/// tokens; strings keep their characters.
#[test]
fn columns_count_characters_beyond_ascii() {
    let err = parse("% é and ü\nvar 1..3: x; /* ö */ ¤").unwrap_err();
    assert_eq!(err.kind(), &ParseErrorKind::UnexpectedChar('¤'));
    assert_eq!((err.line(), err.column()), (2, 22));
    let model = parse("var\u{a0}1..3:\u{2003}x;\nsolve :: a(\"é\\\"ü\\n\") satisfy;").unwrap();
    assert_eq!(model.decls.len(), 1);
    assert_eq!(
        model.solve.annotations[0].args,
        vec![Expr::Str("é\"ü\n".into())]
    );
    assert_eq!(model.solve.pos, Pos { line: 2, column: 1 });
}
