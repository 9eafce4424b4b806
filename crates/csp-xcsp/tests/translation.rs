//! Each constraint's translation against brute force: on tiny domains, the
//! engine's solutions (projected on the instance's variables) are exactly
//! the assignments the verifier accepts, at two pruning levels.

use std::collections::BTreeSet;

use csp_core::{Pruning, Solver};
use csp_xcsp::solve::default_config;
use csp_xcsp::{Problem, parse_instance, translate};

fn instance(vars: &str, constraints: &str, objective: &str) -> String {
    let ty = if objective.is_empty() { "CSP" } else { "COP" };
    format!(
        "<instance format=\"XCSP3\" type=\"{ty}\"><variables>{vars}</variables>\
         <constraints>{constraints}</constraints>{objective}</instance>"
    )
}

/// Every assignment of the instance's variables the verifier accepts.
fn brute(p: &Problem) -> BTreeSet<Vec<i64>> {
    let domains: Vec<Vec<i64>> = p
        .names
        .vars
        .iter()
        .map(|v| v.domain.iter().flat_map(|&(a, b)| a..=b).collect())
        .collect();
    let mut all = BTreeSet::new();
    let mut idx = vec![0usize; domains.len()];
    loop {
        let values: Vec<i64> = idx.iter().zip(&domains).map(|(&i, d)| d[i]).collect();
        if p.violated(&values).is_none() {
            all.insert(values);
        }
        let mut k = 0;
        while k < idx.len() {
            idx[k] += 1;
            if idx[k] < domains[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
        if k == idx.len() {
            return all;
        }
    }
}

fn engine(p: &Problem, pruning: Pruning) -> BTreeSet<Vec<i64>> {
    let t = translate(p).unwrap();
    let mut solver = Solver::new(&t.model, default_config().with_pruning(pruning)).unwrap();
    let mut all = BTreeSet::new();
    while let Some(s) = solver.next_solution() {
        all.insert(t.vars.iter().map(|v| s.values()[v.index()]).collect());
    }
    all
}

#[track_caller]
fn agree(vars: &str, constraints: &str) -> usize {
    let xml = instance(vars, constraints, "");
    let p = Problem::new(&parse_instance(&xml).unwrap()).unwrap();
    let expected = brute(&p);
    for pruning in [Pruning::ForwardChecking, Pruning::Propagators] {
        assert_eq!(
            engine(&p, pruning),
            expected,
            "{constraints} under {pruning:?}"
        );
    }
    expected.len()
}

const X3: &str = r#"<array id="x" size="[3]"> 0..2 </array>"#;
const X4: &str = r#"<array id="x" size="[4]"> -1..2 </array>"#;

#[test]
fn intension_arithmetic() {
    for e in [
        "eq(add(x[0],x[1]),x[2])",
        "ne(mul(x[0],x[1]),2)",
        "lt(dist(x[0],x[1]),x[2])",
        "eq(min(x[0],x[1]),max(x[2],1))",
        "eq(abs(sub(x[0],x[3])),2)",
        "eq(div(x[0],x[1]),x[2])",
        "eq(mod(x[0],x[1]),x[3])",
        "ge(if(gt(x[0],0),x[1],x[2]),1)",
        "eq(sqr(x[0]),add(x[1],x[2]))",
        "eq(pow(x[0],2),x[1])",
        "eq(neg(x[0]),sub(x[1],mul(2,x[2])))",
        "eq(x[0],x[1],x[2])",
    ] {
        agree(X4, &format!("<intension> {e} </intension>"));
    }
}

#[test]
fn intension_logic() {
    for e in [
        "or(eq(x[0],x[1]),gt(x[2],1))",
        "and(ne(x[0],x[1]),le(x[1],x[2]))",
        "xor(eq(x[0],0),eq(x[1],0),eq(x[2],0))",
        "iff(eq(x[0],1),lt(x[1],x[2]))",
        "imp(gt(x[0],0),eq(x[1],x[2]))",
        "not(eq(x[0],x[2]))",
        "in(x[0],set(0,2))",
        "eq(add(eq(x[0],x[1]),gt(x[2],0)),1)",
        "or(not(in(x[1],set(1))),eq(x[0],2))",
    ] {
        agree(X3, &format!("<intension> {e} </intension>"));
    }
}

#[test]
fn extension_supports_conflicts_and_stars() {
    agree(
        X3,
        "<extension><list> x[] </list><supports> (0,*,1)(2,2,*)(1,0,0) </supports></extension>",
    );
    agree(
        X3,
        "<extension><list> x[] </list><conflicts> (0,*,1)(2,2,2) </conflicts></extension>",
    );
    agree(
        X3,
        "<extension><list> x[0] x[0] x[1] </list><supports> (0,0,1)(1,2,0)(2,2,2) </supports></extension>",
    );
    agree(
        X4,
        "<extension><list> x[0] </list><supports> -1 1..2 </supports></extension>",
    );
    agree(
        X4,
        "<extension><list> x[1] </list><conflicts> 0..1 </conflicts></extension>",
    );
}

#[test]
fn all_different_all_equal_ordered_lex() {
    assert_eq!(agree(X3, "<allDifferent> x[] </allDifferent>"), 6);
    assert_eq!(agree(X3, "<allDifferent> x[1] </allDifferent>"), 27);
    agree(
        X4,
        "<allDifferent><list> x[] </list><except> 0 </except></allDifferent>",
    );
    agree(
        r#"<array id="m" size="[2][2]"> 0..2 </array>"#,
        "<allDifferent><matrix> m[][] </matrix></allDifferent>",
    );
    agree(X3, "<allEqual> x[] </allEqual>");
    agree(
        X4,
        "<ordered><list> x[] </list><operator> lt </operator></ordered>",
    );
    agree(
        X3,
        "<ordered><list> x[] </list><lengths> 1 0 </lengths><operator> le </operator></ordered>",
    );
    let two = r#"<array id="a" size="[2]"> 0..2 </array><array id="b" size="[2]"> 0..2 </array>"#;
    for op in ["lt", "le", "gt", "ge"] {
        agree(
            two,
            &format!("<lex><list> a[] </list><list> b[] </list><operator> {op} </operator></lex>"),
        );
    }
    agree(
        r#"<array id="m" size="[2][2]"> 0..1 </array>"#,
        "<lex><matrix> m[][] </matrix><operator> lt </operator></lex>",
    );
}

#[test]
fn sums_counts_and_values() {
    agree(
        X4,
        "<sum><list> x[] </list><coeffs> 2 -1 1 3 </coeffs><condition> (eq,3) </condition></sum>",
    );
    agree(
        X4,
        "<sum><list> x[0..2] </list><condition> (in,0..2) </condition></sum>",
    );
    agree(
        X3,
        "<sum><list> x[0..1] </list><coeffs> x[1] x[2] </coeffs><condition> (ge,3) </condition></sum>",
    );
    agree(
        X3,
        "<sum><list> x[] </list><condition> (ne,x[0]) </condition></sum>",
    );
    agree(
        X3,
        "<sum><list> x[] </list><condition> (in,set(1,4)) </condition></sum>",
    );
    agree(
        X4,
        "<count><list> x[] </list><values> 1 </values><condition> (eq,2) </condition></count>",
    );
    agree(
        X4,
        "<count><list> x[] </list><values> 0 2 </values><condition> (lt,x[0]) </condition></count>",
    );
    agree(
        X3,
        "<count><list> x[0..1] </list><values> x[2] </values><condition> (ge,1) </condition></count>",
    );
    agree(
        X4,
        "<nValues><list> x[] </list><condition> (eq,2) </condition></nValues>",
    );
    agree(
        X4,
        "<nValues><list> x[] </list><except> 0 </except><condition> (le,1) </condition></nValues>",
    );
}

#[test]
fn cardinality_extrema_element_channel() {
    let v = r#"<array id="x" size="[3]"> 0..2 </array><array id="c" size="[2]"> 0..3 </array>"#;
    agree(
        v,
        "<cardinality><list> x[] </list><values> 0 1 </values><occurs> c[] </occurs></cardinality>",
    );
    agree(
        X3,
        r#"<cardinality><list> x[] </list><values closed="true"> 0 2 </values><occurs> 1 2 </occurs></cardinality>"#,
    );
    agree(
        X4,
        "<cardinality><list> x[] </list><values> 0 1 </values><occurs> 0..1 1..2 </occurs></cardinality>",
    );
    agree(
        X4,
        "<maximum><list> x[0..2] </list><condition> (eq,x[3]) </condition></maximum>",
    );
    agree(
        X4,
        "<minimum><list> x[] </list><condition> (gt,-1) </condition></minimum>",
    );
    agree(
        X4,
        "<element><list> 3 -1 2 </list><index> x[0] </index><value> x[1] </value></element>",
    );
    agree(
        X4,
        r#"<element><list startIndex="1"> x[1..3] </list><index> x[0] </index><value> 2 </value></element>"#,
    );
    agree(
        X4,
        "<element><list> x[1..3] </list><index> x[0] </index><condition> (ne,x[1]) </condition></element>",
    );
    let grid = r#"<array id="m" size="[2][2]"> 0..2 </array><var id="i"> -1..2 </var><var id="j"> 0..2 </var><var id="v"> 0..2 </var>"#;
    agree(
        grid,
        "<element><matrix> m[][] </matrix><index> i j </index><value> v </value></element>",
    );
    agree(
        grid,
        "<element><matrix> (1,2)(0,1) </matrix><index> i j </index><value> v </value></element>",
    );
    agree(X3, "<channel><list> x[] </list></channel>");
    let two = r#"<array id="a" size="[3]"> 0..2 </array><array id="b" size="[3]"> 0..2 </array>"#;
    agree(
        two,
        "<channel><list> a[] </list><list> b[] </list></channel>",
    );
    let bits = r#"<array id="b" size="[3]"> 0..1 </array><var id="v"> 0..3 </var>"#;
    agree(
        bits,
        "<channel><list> b[] </list><value> v </value></channel>",
    );
}

#[test]
fn automata_scheduling_circuit() {
    agree(
        X4,
        "<regular><list> x[] </list><transitions> (a,0,a)(a,1,b)(b,1,b)(b,2,a)(b,-1,c)(c,0,c) </transitions>\
         <start> a </start><final> a c </final></regular>",
    );
    agree(
        X3,
        "<mdd><list> x[] </list><transitions> (r,0,n1)(r,1,n2)(n1,2,n3)(n2,0,n3)(n2,1,n3)(n3,1,t)(n3,2,t) </transitions></mdd>",
    );
    let tasks = r#"<array id="s" size="[3]"> 0..3 </array><array id="l" size="[3]"> 0..2 </array>"#;
    agree(
        tasks,
        "<cumulative><origins> s[] </origins><lengths> l[] </lengths><heights> 2 1 1 </heights><condition> (le,2) </condition></cumulative>",
    );
    agree(
        tasks,
        "<noOverlap><origins> s[] </origins><lengths> l[] </lengths></noOverlap>",
    );
    agree(
        tasks,
        r#"<noOverlap zeroIgnored="false"><origins> s[] </origins><lengths> l[] </lengths></noOverlap>"#,
    );
    agree(
        r#"<array id="s" size="[3]"> 0..3 </array>"#,
        "<noOverlap><origins> s[] </origins><lengths> 2 1 2 </lengths></noOverlap>",
    );
    let boxes = r#"<array id="x" size="[3]"> 0..2 </array><array id="y" size="[3]"> 0..1 </array>"#;
    agree(
        boxes,
        "<noOverlap><origins> (x[0],y[0])(x[1],y[1])(x[2],y[2]) </origins><lengths> (1,2)(2,1)(1,1) </lengths></noOverlap>",
    );
    assert_eq!(
        agree(
            r#"<array id="s" size="[4]"> 0..3 </array>"#,
            "<circuit> s[] </circuit>"
        ),
        20
    );
    agree(
        r#"<array id="s" size="[3]"> 1..3 </array>"#,
        r#"<circuit><list startIndex="1"> s[] </list></circuit>"#,
    );
    agree(
        X3,
        "<instantiation><list> x[0] x[2] </list><values> 1 2 </values></instantiation>",
    );
    agree(
        X4,
        "<precedence><list> x[] </list><values> 0 1 2 </values></precedence>",
    );
    agree(
        X3,
        r#"<precedence><list> x[] </list><values> 0 1 </values><covered> true </covered></precedence>"#,
    );
}

#[test]
fn groups_slides_and_blocks_unroll() {
    agree(
        X4,
        "<group><intension> ne(%0,%1) </intension><args> x[0..1] </args><args> x[2] x[3] </args></group>",
    );
    agree(
        X4,
        "<group><sum><list> %... </list><condition> (eq,%0) </condition></sum><args> x[0] x[1..3] </args></group>",
    );
    agree(
        X4,
        "<slide><list> x[] </list><intension> lt(%0,%1) </intension></slide>",
    );
    agree(
        X4,
        r#"<slide circular="true"><list> x[] </list><intension> ne(%0,%1) </intension></slide>"#,
    );
    agree(
        X4,
        "<block><allDifferent> x[0..2] </allDifferent><intension> gt(x[3],x[0]) </intension></block>",
    );
}

#[test]
fn objectives_reach_the_brute_force_optimum() {
    for (objective, minimize) in [
        (
            "<minimize type=\"sum\"><list> x[] </list><coeffs> 3 -2 1 1 </coeffs></minimize>",
            true,
        ),
        ("<maximize type=\"maximum\"> x[] </maximize>", false),
        ("<minimize type=\"minimum\"> x[0..2] </minimize>", true),
        ("<maximize type=\"nValues\"> x[] </maximize>", false),
        ("<minimize> add(mul(x[0],x[1]),x[2]) </minimize>", true),
    ] {
        let xml = instance(
            X4,
            "<allDifferent> x[0..2] </allDifferent>",
            &format!("<objectives>{objective}</objectives>"),
        );
        let p = Problem::new(&parse_instance(&xml).unwrap()).unwrap();
        let goal = p.goal.clone().unwrap();
        let values = brute(&p)
            .iter()
            .map(|s| goal.kind.eval(s).unwrap())
            .collect::<Vec<_>>();
        let best = if minimize {
            values.iter().min()
        } else {
            values.iter().max()
        }
        .copied();
        let mut out = Vec::new();
        let outcome = csp_xcsp::solve::run(&p, &Default::default(), &mut out).unwrap();
        assert_eq!(outcome.objective, best, "{objective}");
        assert_eq!(outcome.answer, csp_xcsp::solve::Answer::OptimumFound);
    }
}

#[test]
fn repeated_variables_in_lists() {
    agree(
        X3,
        "<regular><list> x[0] x[1] x[0] </list><transitions> (a,0,b)(a,1,a)(b,2,a)(b,0,b)(a,2,b) </transitions>\
         <start> a </start><final> a </final></regular>",
    );
    agree(
        X3,
        "<sum><list> x[0] x[1] x[0] </list><coeffs> 1 2 -1 </coeffs><condition> (eq,2) </condition></sum>",
    );
    agree(
        X3,
        "<count><list> x[0] x[1] x[0] </list><values> 1 </values><condition> (eq,2) </condition></count>",
    );
    agree(
        X3,
        "<element><list> x[0] x[1] x[2] </list><index> x[1] </index><value> x[0] </value></element>",
    );
    agree(
        X3,
        "<cardinality><list> x[0] x[0] x[1] </list><values> 0 1 2 </values><occurs> x[2] 1 x[2] </occurs></cardinality>",
    );
    agree(
        X3,
        "<lex><list> x[0] x[1] </list><list> x[1] x[0] </list><operator> lt </operator></lex>",
    );
    agree(
        X3,
        "<maximum><list> x[0] x[1] x[0] </list><condition> (eq,x[1]) </condition></maximum>",
    );
    agree(
        X3,
        "<nValues><list> x[0] x[1] x[0] x[2] </list><condition> (eq,2) </condition></nValues>",
    );
    agree(
        X3,
        "<mdd><list> x[0] x[0] </list><transitions> (r,0,n)(r,1,n)(n,1,t)(n,2,t) </transitions></mdd>",
    );
}
