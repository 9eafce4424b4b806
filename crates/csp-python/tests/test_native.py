"""The native API: variables, expressions, every global, custom constraints,
the solver's options; solution sets against brute force."""

import itertools
import math

import pytest

from csp_rs import Model, Solver
from helpers import brute, engine

STRATEGIES = [None, "check", "fc", "mac", "propagators", "fc+first-fail", "mac+dom-wdeg+lcv"]


def trunc_div(x, y):
    return int(x / y)


def vars3(m, lo=-2, hi=2):
    return [m.int_var(lo, hi, f"x{i}") for i in range(3)]


def test_domains_from_ranges_and_iterables():
    m = Model()
    a = m.int_var(1, 3, "a")
    b = m.int_var(range(0, 10, 1), name="b")
    c = m.int_var([9, 1, 4, 4], name="c")
    d = m.int_var({2, 5})
    e = m.bool_var("e")
    assert a.bounds == (1, 3) and b.bounds == (0, 9)
    assert c.values == [1, 4, 9] and d.values == [2, 5] and e.values == [0, 1]
    xs = m.int_vars(3, 0, 2, "q")
    assert [x.name for x in xs] == ["q[0]", "q[1]", "q[2]"]
    assert Solver(m).count() == 3 * 10 * 3 * 2 * 2 * 27


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_linear_and_not_equal_offset(strategy):
    m = Model()
    x, y, z = vars3(m)
    m.add(x + 2 * y - z <= 1, x != y + 3, 3 * x - y != z - 1, -x < 2)
    got = engine(Solver(m, strategy=strategy), [x, y, z])
    want = brute([range(-2, 3)] * 3, lambda a, b, c: a + 2 * b - c <= 1 and a != b + 3
                 and 3 * a - b != c - 1 and -a < 2)
    assert got == want and want


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_abs_times_and_distance(strategy):
    m = Model()
    x, y, z = vars3(m, -3, 3)
    d = m.int_var(0, 6, "d")
    m.add(abs(x - y) == d, x * y == z, abs(z) != 2, abs(x - z) != 1)
    got = engine(Solver(m, strategy=strategy), [x, y, z, d])
    want = brute([range(-3, 4)] * 3 + [range(7)],
                 lambda a, b, c, e: abs(a - b) == e and a * b == c and abs(c) != 2 and abs(a - c) != 1)
    assert got == want and want


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_reification_or_and_not(strategy):
    m = Model()
    x, y, z = vars3(m, 0, 3)
    b = m.bool_var("b")
    m.add((x < y) | (z == 0), ~((x == 1) & (y == 2)), b | (x + y == 3), (~b) | (z >= 2))
    got = engine(Solver(m, strategy=strategy), [x, y, z, b])
    want = brute([range(4)] * 3 + [range(2)],
                 lambda a, c, e, f: (a < c or e == 0) and not (a == 1 and c == 2)
                 and (f == 1 or a + c == 3) and (f == 0 or e >= 2))
    assert got == want and want


def test_chained_comparison_is_refused():
    m = Model()
    x, y, z = vars3(m)
    with pytest.raises(TypeError, match="no truth value"):
        m.add(x < y < z)


def test_constant_constraints():
    m = Model()
    x = m.int_var(0, 3)
    m.add(x - x == 0)
    assert Solver(m).count() == 4
    m.add(x - x == 1)
    assert Solver(m).count() == 0


GLOBALS = {
    "all_different": (
        lambda m, x: m.all_different(x), lambda v: len(set(v)) == len(v)),
    "all_different_offsets": (
        lambda m, x: m.all_different(x, [0, 1, 2]), lambda v: len({v[0], v[1] + 1, v[2] + 2}) == 3),
    "table": (
        lambda m, x: m.table(x, [(0, 1, 2), (2, 2, 2), (1, -1, 0)]),
        lambda v: v in [(0, 1, 2), (2, 2, 2), (1, -1, 0)]),
    "element": (
        lambda m, x: m.element(x[0], [5, -1, 2, 0, 1], x[1]),
        lambda v: 0 <= v[0] < 5 and [5, -1, 2, 0, 1][v[0]] == v[1]),
    "element_offset": (
        lambda m, x: m.element(x[0], [2, 0, 1], x[1], offset=-1),
        lambda v: 0 <= v[0] + 1 < 3 and [2, 0, 1][v[0] + 1] == v[1]),
    "element_var": (
        lambda m, x: m.element(x[0], [x[1], x[2], 1], x[1]),
        lambda v: 0 <= v[0] < 3 and [v[1], v[2], 1][v[0]] == v[1]),
    "count": (
        lambda m, x: m.count(x[:2], 1, x[2]), lambda v: (v[0] == 1) + (v[1] == 1) == v[2]),
    "at_most": (
        lambda m, x: m.at_most(x, 0, 1), lambda v: v.count(0) <= 1),
    "at_least": (
        lambda m, x: m.at_least(x, 2, 2), lambda v: v.count(2) >= 2),
    "global_cardinality": (
        lambda m, x: m.global_cardinality(x[:2], [0], [x[2]]), lambda v: v[:2].count(0) == v[2]),
    "lex_less_eq": (
        lambda m, x: m.lex_less_eq(x[:2], [x[2], 1]), lambda v: (v[0], v[1]) <= (v[2], 1)),
    "min": (lambda m, x: m.min(x[:2], x[2]), lambda v: min(v[:2]) == v[2]),
    "max": (lambda m, x: m.max(x[:2], x[2]), lambda v: max(v[:2]) == v[2]),
    "abs": (lambda m, x: m.abs(x[0], x[1]), lambda v: abs(v[0]) == v[1]),
    "distance": (lambda m, x: m.distance(x[0], x[1], x[2]), lambda v: abs(v[0] - v[1]) == v[2]),
    "times": (lambda m, x: m.times(x[0], x[1], x[2]), lambda v: v[0] * v[1] == v[2]),
    "linear": (
        lambda m, x: m.linear([2, -1, 1], x, ">=", 1), lambda v: 2 * v[0] - v[1] + v[2] >= 1),
    "not_equal": (lambda m, x: m.not_equal(x[0], x[1], 2), lambda v: v[0] != v[1] + 2),
    "equal_less_than": (
        lambda m, x: (m.equal(x[0], x[1]), m.less_than(x[1], x[2])), lambda v: v[0] == v[1] < v[2]),
    "regular": (
        # words over {0, 1, 2} with no two 1s in a row
        lambda m, x: m.regular(x, 2, 0, [0, 1], [(0, 0, 0), (0, 2, 0), (0, 1, 1), (1, 0, 0), (1, 2, 0)]),
        lambda v: all(c in (0, 1, 2) for c in v) and "11" not in "".join(map(str, v))),
}


@pytest.mark.parametrize("name", sorted(GLOBALS))
@pytest.mark.parametrize("strategy", ["check", "fc", "propagators"])
def test_globals_against_brute_force(name, strategy):
    post, holds = GLOBALS[name]
    m = Model()
    x = vars3(m, -1, 2)
    post(m, x)
    got = engine(Solver(m, strategy=strategy), x)
    want = brute([range(-1, 3)] * 3, lambda *v: holds(v))
    assert got == want and want


def test_div_and_modulo():
    m = Model()
    x = m.int_var(-4, 4, "x")
    y = m.int_var([-2, -1, 1, 3], name="y")
    q, r = m.int_var(-10, 10, "q"), m.int_var(-10, 10, "r")
    m.div(x, y, q)
    m.modulo(x, y, r)
    got = engine(Solver(m), [x, y, q, r])
    want = {(a, b, trunc_div(a, b), a - b * trunc_div(a, b)) for a in range(-4, 5) for b in [-2, -1, 1, 3]}
    assert got == want


def test_scheduling_globals():
    m = Model()
    s = [m.int_var(0, 3, f"s{i}") for i in range(3)]
    d = [m.int_var(1, 2, f"d{i}") for i in range(3)]
    m.disjunctive(s, d)
    got = engine(Solver(m), s + d)

    def disjoint(v):
        st, du = v[:3], v[3:]
        return all(st[i] + du[i] <= st[j] or st[j] + du[j] <= st[i] for i in range(3) for j in range(i + 1, 3))
    assert got == brute([range(4)] * 3 + [range(1, 3)] * 3, lambda *v: disjoint(v))

    m = Model()
    s = [m.int_var(0, 3, f"s{i}") for i in range(3)]
    m.cumulative(s, [2, 1, 2], [1, 2, 1], 2)

    def fits(st):
        return all(sum(r for a, dd, r in zip(st, [2, 1, 2], [1, 2, 1]) if a <= t < a + dd) <= 2 for t in range(6))
    assert engine(Solver(m), s) == brute([range(4)] * 3, lambda *v: fits(v))

    m = Model()
    x = [m.int_var(0, 2, f"x{i}") for i in range(2)]
    y = [m.int_var(0, 2, f"y{i}") for i in range(2)]
    m.diffn(x, y, [2, 1], [1, 2])

    def apart(v):
        (x0, x1, y0, y1) = v
        return x0 + 2 <= x1 or x1 + 1 <= x0 or y0 + 1 <= y1 or y1 + 2 <= y0
    assert engine(Solver(m), x + y) == brute([range(3)] * 4, lambda *v: apart(v))


def test_circuit_and_inverse():
    m = Model()
    succ = m.int_vars(4, 0, 3, "s")
    m.circuit(succ)

    def one_cycle(v):
        seen, i = set(), 0
        for _ in range(4):
            seen.add(i)
            i = v[i]
        return i == 0 and len(seen) == 4
    assert engine(Solver(m), succ) == brute([range(4)] * 4, lambda *v: one_cycle(v))
    assert Solver(m).count() == math.factorial(3)

    m = Model()
    f, g = m.int_vars(3, 0, 2, "f"), m.int_vars(3, 0, 2, "g")
    m.inverse(f, g)
    got = engine(Solver(m), f + g)
    assert got == brute([range(3)] * 6, lambda *v: all((v[i] == j) == (v[3 + j] == i)
                                                       for i in range(3) for j in range(3)))


def test_clause_linear_reif_and_view():
    m = Model()
    b = [m.bool_var(f"b{i}") for i in range(3)]
    m.clause([b[0], b[1]], [b[2]])
    x = m.int_var(0, 3, "x")
    m.linear_reif([1], [x], ">=", 2, b[2])
    w = m.view(x, 2, 1)
    got = engine(Solver(m), b + [x, w])
    want = {t + (2 * t[3] + 1,) for t in brute([range(2)] * 3 + [range(4)],
                                               lambda p, q, r, v: (p or q or not r) and r == (v >= 2))}
    assert got == want


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_equality_channel_against_brute_force(strategy):
    m = Model()
    x = m.int_var(-1, 3, "x")
    b = [m.bool_var(f"b{i}") for i in range(4)]
    literals = [(0, b[0], True), (2, b[1], True), (2, b[2], False), (5, b[3], True)]
    m.equality_channel(x, literals)
    m.clause([b[0], b[2]], [])
    got = engine(Solver(m, strategy=strategy), [x] + b)
    want = brute([range(-1, 4)] + [range(2)] * 4,
                  lambda v, *bs: all(bs[i] == int((v == c) == e) for i, (c, _, e) in enumerate(literals))
                  and (bs[0] or bs[2]))
    assert got == want
    with pytest.raises(ValueError):
        m.equality_channel(x, [(1, x, True)])
    with pytest.raises(ValueError):
        m._native.equality_channel(x.index, [(1, 99, True)])


def test_predicate_with_promising():
    m = Model()
    x = m.int_vars(4, 0, 3, "x")
    calls = {"check": 0, "promising": 0}

    def check(*v):
        calls["check"] += 1
        return sum(v) == 6 and v[0] < v[3]

    def promising(*v):
        calls["promising"] += 1
        return sum(a for a in v if a is not None) <= 6

    m.predicate(x, check, promising, name="sum6")
    got = engine(Solver(m, strategy="check"), x)
    assert got == brute([range(4)] * 4, lambda *v: sum(v) == 6 and v[0] < v[3])
    assert calls["check"] > 0 and calls["promising"] > 0


def test_exceptions_from_python_constraints_propagate():
    m = Model()
    x, y = m.int_var(0, 9, "x"), m.int_var(0, 9, "y")

    def bad(a, b):
        if a == 3:
            raise ZeroDivisionError("boom at 3")
        return a < b

    m.predicate([x, y], bad)
    for strategy in ["check", "fc", "mac"]:
        with pytest.raises(ZeroDivisionError, match="boom at 3"):
            Solver(m, strategy=strategy).count()
        with pytest.raises(ZeroDivisionError):
            list(Solver(m, strategy=strategy).solutions())
    m2 = Model()
    z = m2.int_var(0, 1)
    m2.predicate([z], lambda v: {}["missing"], promising=lambda v: True)
    with pytest.raises(KeyError):
        Solver(m2).solve()


def test_solve_solutions_count_and_stats():
    m = Model()
    q = m.int_vars(6, 0, 5, "q")
    for i in range(6):
        for j in range(i + 1, 6):
            m.add(q[i] != q[j], q[i] != q[j] + (j - i), q[i] != q[j] - (j - i))
    s = Solver(m, strategy="fc")
    first = s.solve()
    assert first is not None and m._native.is_solution(first.values)
    assert s.status == "complete" or s.status == "paused"
    assert s.count() == 4 and s.status == "complete"
    stats = s.stats
    for key in ["nodes", "failures", "solutions", "solveTime", "peakDepth", "propagations", "restarts",
                "tried", "accepted", "rejected", "backtracks", "checks", "propagatorCalls", "revisions",
                "pruned", "peak_depth", "elapsed"]:
        assert key in stats, key
    assert stats["tried"] == stats["accepted"] + stats["rejected"] == stats["nodes"]
    assert stats["solutions"] == 4
    it = s.solutions()
    one = next(it)
    assert [one[v] for v in q] == one[q]
    rest = list(it)
    assert len(rest) == 3 and it.status == "complete"
    assert first.as_dict()["q[0]"] == first[q[0]]


def test_lazy_iterator_can_stop_and_model_unlocks():
    m = Model()
    x = m.int_vars(8, 0, 7, "x")
    m.all_different(x)
    it = Solver(m).solutions()
    assert next(it) is not None
    with pytest.raises(RuntimeError, match="cannot change while a search"):
        m.add(x[0] < x[1])
    it.close()
    del it
    m.add(x[0] < x[1])
    assert Solver(m, strategy="fc").count() == math.factorial(8) // 2


def test_minimize_and_maximize():
    m = Model()
    x, y = m.int_var(0, 6, "x"), m.int_var(0, 6, "y")
    m.add(x + y >= 5, x != y, abs(x - y) <= 3)
    opt = Solver(m).minimize(x * y + 2 * x)
    improving = [s[x * y + 2 * x] for s in opt]
    assert improving == sorted(improving, reverse=True) and len(set(improving)) == len(improving)
    want = min(a * b + 2 * a for a in range(7) for b in range(7) if a + b >= 5 and a != b and abs(a - b) <= 3)
    assert opt.objective == want and opt.optimal and opt.best[x * y + 2 * x] == want
    mx = Solver(m, strategy="fc").maximize(x - y)
    assert mx.objective == max(a - b for a in range(7) for b in range(7)
                               if a + b >= 5 and a != b and abs(a - b) <= 3)
    assert mx.optimal


def test_options_limits_and_decision_vars():
    m = Model()
    x = m.int_vars(10, 0, 9, "x")
    m.all_different(x)
    s = Solver(m, strategy="check", node_limit=100)
    n = s.count()
    assert s.status == "node limit" and n < math.factorial(10)
    s = Solver(m, strategy="fc", time_limit=0.05)
    s.count()
    assert s.status in ("time limit", "complete")
    s = Solver(m, pruning="fc", var="first-fail", val="desc", decision_vars=list(reversed(x)))
    first = s.solve()
    assert first[x[9]] == 9
    assert Solver(m, strategy="fc+input+random:7").solve() is not None


def test_bad_input_raises_one_line_errors():
    m = Model()
    with pytest.raises(ValueError) as e:
        m.int_var(3, 1, "x")
    assert "empty domain" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(ValueError):
        m.int_var([])
    with pytest.raises(TypeError):
        m.int_var([1, "a"])
    x = m.int_var(0, 3, "x")
    with pytest.raises(ValueError) as e:
        Solver(m, strategy="fc+sideways")
    assert "sideways" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(ValueError):
        Solver(m, pruning="lots").count()
    with pytest.raises(ValueError):
        Solver(m, time_limit=-1).count()
    other = Model()
    y = other.int_var(0, 1)
    with pytest.raises(ValueError, match="another model"):
        m.add(x == y)
    with pytest.raises(ValueError) as e:
        m._native.linear([1], [99], "==", 0)
    assert "\n" not in str(e.value)
    with pytest.raises(TypeError):
        Solver("not a model")


def test_trace_draws_the_state_space_tree():
    m = Model()
    q = m.int_vars(4, 0, 3, "q")
    for i in range(4):
        for j in range(i + 1, 4):
            m.add(q[i] != q[j], q[i] != q[j] + (j - i), q[i] != q[j] - (j - i))
    s = Solver(m, strategy="check")
    t = s.trace(all=True)
    assert t.solutions == 2 and t.status == "complete"
    svg = t._repr_svg_()
    assert svg.startswith("<svg")
    # One box per node tried, one mark per solution (csp-trace's classes).
    assert svg.count('class="node"') == t.stats["tried"]
    assert s.count() == 2 and s.stats["tried"] == t.stats["tried"]  # recording changes nothing
    assert svg.count('class="solution"') == 2
    assert "q[0] = 1" in t.text and t.json_lines.count("\n") > 10
    page = t.explore_html()
    assert page.lstrip().lower().startswith("<!doctype html") and "q[0]" in page
    first = Solver(m, strategy="fc").trace()
    assert first.solutions == 1 and first.svg.count('class="solution"') == 1
    assert first.stats["tried"] < t.stats["tried"]


@pytest.mark.parametrize("kind", ["pairwise", "global"])
def test_nqueens_models(kind):
    from csp_rs import nqueens
    known = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92}
    for n, want in known.items():
        m, q = nqueens.model(n, kind=kind)
        assert [v.name for v in q] == [f"q[{i}]" for i in range(n)]
        assert Solver(m, strategy="fc").count() == want
        assert nqueens.count(n, kind=kind, strategy="check") == want
    m, q = nqueens.model(6, kind=kind)
    want6 = {t for t in itertools.permutations(range(6))
             if all(abs(t[i] - t[j]) != j - i for i in range(6) for j in range(i + 1, 6))}
    assert {tuple(s[q]) for s in Solver(m).solutions()} == want6 and len(want6) == 4
    with pytest.raises(ValueError, match="pairwise or global"):
        nqueens.model(4, kind="diagonal")


def test_doctests():
    import doctest

    import csp_rs
    import csp_rs._model
    import csp_rs.constraint
    import csp_rs.nqueens
    for module in (csp_rs, csp_rs._model, csp_rs.constraint, csp_rs.nqueens):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module


def queens_model(n):
    m = Model()
    q = m.int_vars(n, 0, n - 1, "q")
    for i in range(n):
        for j in range(i + 1, n):
            m.add(q[i] != q[j], q[i] != q[j] + (j - i), q[i] != q[j] - (j - i))
    return m


def test_compare_verifies_and_tabulates():
    from csp_rs import compare
    m = queens_model(6)
    c = compare(m, ["check", "fc", "fc+first-fail", "mac"])
    assert [r["strategy"] for r in c.rows] == ["check", "fc", "fc+first-fail", "mac"]
    assert all(r["solutions"] == 4 and r["complete"] for r in c.rows)
    assert c.rows[0]["nodes"] > c.rows[1]["nodes"]  # forward checking prunes more
    assert "fc+first-fail" in c.to_markdown() and c.to_csv().count("\n") >= 5
    assert c._repr_svg_().startswith("<svg")
    assert Solver(m).count() == 4  # the model is unchanged: each run had its own copy
    by_size = compare(queens_model, ["check", "fc"], sizes=[4, 5, 6])
    assert [r["solutions"] for r in by_size.rows] == [2, 2, 10, 10, 4, 4]
    first = compare(m, ["fc", "mac"], mode="first")
    assert all(r["solutions"] == 1 for r in first.rows)
    limited = compare(queens_model, ["check"], sizes=[9], node_limit=50)
    assert not limited.rows[0]["complete"] and limited.rows[0]["stopped_by"] == "node limit"
    try:
        import pandas  # noqa: F401
        assert len(c.to_pandas()) == 4
    except ImportError:
        with pytest.raises(ImportError, match="pandas"):
            c.to_pandas()


def test_compare_catches_disagreement_and_builder_errors():
    from csp_rs import compare
    calls = []

    def wrong(n):
        # The second model built loses a constraint: the comparison must see it.
        calls.append(n)
        m = Model()
        x = m.int_vars(3, 0, 2, "x")
        if len(calls) == 1:
            m.all_different(x)
        return m
    with pytest.raises(ValueError, match="at least one of them is wrong"):
        compare(wrong, ["check", "fc"], sizes=[3])

    def broken(n):
        raise ArithmeticError("no model today")
    with pytest.raises(ArithmeticError, match="no model today"):
        compare(broken, ["fc"], sizes=[3])
    with pytest.raises(ValueError, match="sideways"):
        compare(queens_model(4), ["fc+sideways"])
    with pytest.raises(TypeError):
        compare(queens_model(4), ["fc"], sizes=[4])
