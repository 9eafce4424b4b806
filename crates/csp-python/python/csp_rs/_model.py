"""`Model` and `IntVar`: variables, expressions and every engine constraint by
its Rust name."""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _native
from ._expr import (
    Abs,
    And,
    BoolExpr,
    Expr,
    LinExpr,
    Lit,
    Or,
    Product,
    Rel,
    as_bool,
    as_expr,
    bounds_abs,
    bounds_product,
)

Term = Union[Expr, int]


class IntVar(Expr):
    """A variable of a `Model`; an expression in arithmetic and comparisons."""

    __slots__ = ("model", "index", "name")

    def __init__(self, model: "Model", index: int, name: str) -> None:
        self.model, self.index, self.name = model, index, name

    def _lin(self) -> LinExpr:
        return LinExpr({self: 1}, 0)

    @property
    def bounds(self) -> Tuple[int, int]:
        """The smallest and largest value of its declared domain."""
        return self.model._native.bounds(self.index)

    @property
    def values(self) -> List[int]:
        """The values of its declared domain, ascending."""
        return self.model._native.values(self.index)

    def __invert__(self) -> Lit:
        return Lit(self, False)

    def __or__(self, other: object) -> Or:  # type: ignore[override]
        return Or([Lit(self), as_bool(other)])

    def __ror__(self, other: object) -> Or:
        return Or([as_bool(other), Lit(self)])

    def __and__(self, other: object) -> And:
        return And([Lit(self), as_bool(other)])

    def __rand__(self, other: object) -> And:
        return And([as_bool(other), Lit(self)])

    def __repr__(self) -> str:
        return self.name


def _domain_of(lo: object, hi: Optional[int]) -> Tuple[str, object]:
    if hi is not None:
        if isinstance(lo, bool) or not isinstance(lo, int) or isinstance(hi, bool) or not isinstance(hi, int):
            raise TypeError("int_var(lo, hi) takes two integers")
        return "range", (lo, hi)
    if isinstance(lo, range) and lo.step == 1:
        return "range", (lo.start, lo.stop - 1)
    if isinstance(lo, int) and not isinstance(lo, bool):
        raise TypeError("int_var takes lo and hi, or one range or iterable of integers")
    values = list(lo)  # type: ignore[call-overload]
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"domain values must be integers, not {type(v).__name__} ({v!r})")
    return "values", values


#: NativeModel's methods that only read: not recorded.
_READS = frozenset({"bounds", "values", "var_name", "num_vars", "num_constraints", "is_solution"})


class _Recorded:
    """A NativeModel that records the calls that build it, so that `fresh()`
    can build another, equal one (csp_rs.compare runs each strategy on its own
    copy: the engine's models cannot be copied)."""

    __slots__ = ("native", "origin", "log")

    def __init__(self, origin: Callable[[], "_native.NativeModel"]) -> None:
        self.origin = origin
        self.native = origin()
        self.log: List[Tuple[str, tuple]] = []

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.native, name)
        if name in _READS:
            return method

        def recorded(*args: Any) -> Any:
            result = method(*args)
            self.log.append((name, args))
            return result
        return recorded

    def fresh(self) -> "_native.NativeModel":
        """A new NativeModel built by the same calls."""
        native = self.origin()
        for name, args in self.log:
            getattr(native, name)(*args)
        return native


class Model:
    """Variables and constraints, solved by `Solver`.

    >>> m = Model()
    >>> x, y = m.int_var(0, 5, "x"), m.int_var(0, 5, "y")
    >>> m.add(x + 2 * y == 7, x != y)
    """

    def __init__(self) -> None:
        self._native: Any = _Recorded(_native.NativeModel)
        self._vars: List[IntVar] = []
        self._consts: Dict[int, int] = {}
        self._aux: Dict[int, Tuple[object, int]] = {}

    @classmethod
    def _adopt(cls, origin: Callable[[], "_native.NativeModel"]) -> "Model":
        """A model around a native one that `origin()` builds in Rust, its
        variables named as there."""
        m = cls()
        m._native = _Recorded(origin)
        for i in range(m._native.num_vars()):
            m._new_var(i, None)
        return m

    # ----- variables -----

    def _new_var(self, index: int, name: Optional[str]) -> IntVar:
        v = IntVar(self, index, name if name is not None else self._native.var_name(index))
        self._vars.append(v)
        return v

    def int_var(self, lo: object, hi: Optional[int] = None, name: Optional[str] = None) -> IntVar:
        """A variable with the values `lo..=hi`, or with the values of a range or
        iterable: `int_var(0, 9)`, `int_var(range(10))`, `int_var([1, 4, 9])`."""
        kind, dom = _domain_of(lo, hi)
        if kind == "range":
            i = self._native.int_var_range(dom[0], dom[1], name)  # type: ignore[index]
        else:
            i = self._native.int_var_values(dom, name)
        return self._new_var(i, name)

    def int_vars(self, n: int, lo: object, hi: Optional[int] = None, name: str = "x") -> List[IntVar]:
        """`n` variables named `name[0]`, `name[1]`, ..., each with the same domain."""
        return [self.int_var(lo, hi, f"{name}[{i}]") for i in range(n)]

    def bool_var(self, name: Optional[str] = None) -> IntVar:
        """A 0/1 variable."""
        return self._new_var(self._native.bool_var(name), name)

    @property
    def vars(self) -> List[IntVar]:
        """Every variable, auxiliary ones included, in declaration order."""
        return list(self._vars)

    @property
    def num_constraints(self) -> int:
        """Number of engine constraints posted."""
        return self._native.num_constraints()

    # ----- lowering expressions -----

    def _const(self, k: int) -> int:
        if k not in self._consts:
            self._consts[k] = self._new_var(self._native.int_var_range(k, k, None), str(k)).index
        return self._consts[k]

    def _bounds(self, e: LinExpr) -> Tuple[int, int]:
        lo = hi = e.const
        for node, c in e.terms.items():
            a, b = self._node_bounds(node)
            lo += min(c * a, c * b)
            hi += max(c * a, c * b)
        return lo, hi

    def _node_bounds(self, node: object) -> Tuple[int, int]:
        if isinstance(node, IntVar):
            self._own(node)
            return node.bounds
        if isinstance(node, Product):
            return bounds_product(self._bounds(node.a), self._bounds(node.b))
        if isinstance(node, Abs):
            return bounds_abs(self._bounds(node.a))
        raise TypeError(f"not an expression node: {node!r}")

    def _own(self, v: IntVar) -> None:
        if v.model is not self:
            raise ValueError(f"variable {v.name} belongs to another model")

    def _node_var(self, node: object) -> int:
        if isinstance(node, IntVar):
            self._own(node)
            return node.index
        key = id(node)
        if key in self._aux:
            return self._aux[key][1]
        lo, hi = self._node_bounds(node)
        aux = self._new_var(self._native.int_var_range(lo, hi, None), None).index
        if isinstance(node, Product):
            self._native.times(self.var_of(node.a), self.var_of(node.b), aux)
        else:
            assert isinstance(node, Abs)
            a = node.a
            if len(a.terms) == 2 and a.const == 0 and sorted(a.terms.values()) == [-1, 1]:
                (x, _), (y, _) = sorted(a.terms.items(), key=lambda t: -t[1])
                self._native.distance(self._node_var(x), self._node_var(y), aux)
            else:
                self._native.abs(self.var_of(a), aux)
        # Keep the node alive so that its id is not reused.
        self._aux[key] = (node, aux)
        return aux

    def _linear(self, e: LinExpr) -> Tuple[List[int], List[int], int]:
        coeffs, vars_ = [], []
        for node, c in e.terms.items():
            coeffs.append(c)
            vars_.append(self._node_var(node))
        return coeffs, vars_, e.const

    def var_of(self, term: Term) -> int:
        """The index of a variable equal to `term` (an auxiliary one for an
        expression, a fixed one for an integer)."""
        e = as_expr(term)._lin()
        if not e.terms:
            return self._const(e.const)
        if len(e.terms) == 1 and e.const == 0:
            (node, c), = e.terms.items()
            if c == 1:
                return self._node_var(node)
        lo, hi = self._bounds(e)
        coeffs, vars_, const = self._linear(e)
        aux = self._new_var(self._native.int_var_range(lo, hi, None), None).index
        self._native.linear(coeffs + [-1], vars_ + [aux], "==", -const)
        return aux

    def _vars_of(self, terms: Iterable[Term]) -> List[int]:
        return [self.var_of(t) for t in terms]

    # ----- posting -----

    def add(self, *constraints: object) -> None:
        """Posts constraints: comparisons (`x + 2*y <= 10`, `x != y + 3`,
        `abs(x - y) == d`, `x * y == z`), their combinations with `|`, `&`, `~`,
        0/1 variables, or lists of these."""
        for c in constraints:
            if isinstance(c, (list, tuple)):
                self.add(*c)
            elif isinstance(c, And):
                self.add(*c.parts)
            elif isinstance(c, Rel):
                self._post_rel(c)
            elif isinstance(c, bool):
                if not c:
                    self._infeasible()
            else:
                b = as_bool(c)
                pos, neg = self._clause_lits(b)
                self._native.clause(pos, neg)

    def _post_rel(self, r: Rel) -> None:
        e, op = r.lin, r.op
        if op == "!=" and self._post_not_equal(e):
            return
        if not e.terms:
            holds = {"==": 0 == -e.const, "!=": 0 != -e.const, "<": 0 < -e.const,
                     "<=": 0 <= -e.const, ">": 0 > -e.const, ">=": 0 >= -e.const}[op]
            if not holds:
                self._infeasible()
            return
        coeffs, vars_, const = self._linear(e)
        self._native.linear(coeffs, vars_, op, -const)

    def _infeasible(self) -> None:
        """A constraint on constants that never holds: the model has no solution."""
        self._native.linear([1], [self._const(0)], "==", 1)

    def _pair(self, e: LinExpr) -> Optional[Tuple[int, int]]:
        """`(x, y)` if `e` is `x - y + const`."""
        if len(e.terms) != 2 or sorted(e.terms.values()) != [-1, 1]:
            return None
        (x, _), (y, _) = sorted(e.terms.items(), key=lambda t: -t[1])
        return self._node_var(x), self._node_var(y)

    def _post_not_equal(self, e: LinExpr) -> bool:
        """`x != y + k` and `abs(x - y) != k` as the engine's not-equal with offset."""
        pair = self._pair(e)
        if pair is not None:
            # x - y + c != 0  <=>  x != y - c
            self._native.not_equal(pair[0], pair[1], -e.const)
            return True
        if len(e.terms) == 1:
            (node, s), = e.terms.items()
            if isinstance(node, Abs) and s in (1, -1):
                inner = self._pair(node.a)
                if inner is None:
                    return False
                k = -e.const * s  # |x - y + c0| != k
                c0 = node.a.const
                x, y = inner
                if k < 0:
                    return True
                self._native.not_equal(x, y, k - c0)
                if k != 0:
                    self._native.not_equal(x, y, -k - c0)
                return True
        return False

    def _literal(self, b: BoolExpr) -> Tuple[int, bool]:
        """A 0/1 variable (and its sign) equivalent to `b`."""
        if isinstance(b, Lit):
            v = b.var
            assert isinstance(v, IntVar)
            self._own(v)
            lo, hi = v.bounds
            if lo < 0 or hi > 1:
                raise ValueError(f"{v.name} is not a 0/1 variable: it cannot stand for a constraint")
            return v.index, b.positive
        r = self._native.bool_var(None)
        self._new_var(r, None)
        if isinstance(b, Rel):
            coeffs, vars_, const = self._linear(b.lin)
            if not coeffs:
                # A relation on constants: r is its truth value (r - 0 op -const).
                self._native.linear_reif([1], [self._const(0)], b.op, -const, r)
            else:
                self._native.linear_reif(coeffs, vars_, b.op, -const, r)
            return r, True
        if isinstance(b, Or):
            # r <=> OR(parts)
            lits = [self._literal(p) for p in b.parts]
            self._native.clause([v for v, s in lits if s], [v for v, s in lits if not s] + [r])
            for v, s in lits:
                self._native.clause([r] if s else [r, v], [v] if s else [])
            return r, True
        if isinstance(b, And):
            lits = [self._literal(p) for p in b.parts]
            self._native.clause([v for v, s in lits if not s] + [r], [v for v, s in lits if s])
            for v, s in lits:
                self._native.clause([v] if s else [], [r] if s else [r, v])
            return r, True
        raise TypeError(f"not a constraint: {b!r}")

    def _clause_lits(self, b: BoolExpr) -> Tuple[List[int], List[int]]:
        parts = b.parts if isinstance(b, Or) else [b]
        pos: List[int] = []
        neg: List[int] = []
        for p in parts:
            v, s = self._literal(p)
            (pos if s else neg).append(v)
        return pos, neg

    # ----- the engine's constraints, by their Rust names -----

    def linear(self, coeffs: Sequence[int], vars: Sequence[Term], relation: str, rhs: int) -> None:
        """`sum coeffs[i] * vars[i]  relation  rhs` (`==`, `!=`, `<=`, `<`, `>=`, `>`)."""
        self._native.linear(list(coeffs), self._vars_of(vars), relation, rhs)

    def linear_reif(self, coeffs: Sequence[int], vars: Sequence[Term], relation: str, rhs: int, b: Term) -> None:
        """`b <=> (sum coeffs[i] * vars[i]  relation  rhs)`, `b` a 0/1 variable."""
        self._native.linear_reif(list(coeffs), self._vars_of(vars), relation, rhs, self.var_of(b))

    def equality_channel(self, x: Term, literals: Sequence[Tuple[int, Term, bool]]) -> None:
        """`b <=> x == c` (or `b <=> x != c` when `equal` is False) for each
        `(c, b, equal)`, every `b` a 0/1 variable: the same solutions as one
        `linear_reif` per literal, in one propagator (a change of `x` wakes it
        once, not once per literal).

        >>> from csp_rs import Model, Solver
        >>> m = Model()
        >>> x = m.int_var(1, 3, "x")
        >>> two, not_three = m.bool_var("two"), m.bool_var("not_three")
        >>> m.equality_channel(x, [(2, two, True), (3, not_three, False)])
        >>> sorted((s[x], s[two], s[not_three]) for s in Solver(m).solutions())
        [(1, 0, 1), (2, 1, 1), (3, 0, 0)]
        """
        lits = [(int(c), self.var_of(b), bool(equal)) for c, b, equal in literals]
        self._native.equality_channel(self.var_of(x), lits)

    def not_equal(self, x: Term, y: Term, offset: int = 0) -> None:
        """`x != y + offset`."""
        self._native.not_equal(self.var_of(x), self.var_of(y), offset)

    def equal(self, x: Term, y: Term) -> None:
        """`x == y`."""
        self._native.linear([1, -1], [self.var_of(x), self.var_of(y)], "==", 0)

    def less_than(self, x: Term, y: Term) -> None:
        """`x < y`."""
        self._native.linear([1, -1], [self.var_of(x), self.var_of(y)], "<", 0)

    def all_different(self, vars: Sequence[Term], offsets: Optional[Sequence[int]] = None) -> None:
        """All of `vars[i] + offsets[i]` differ."""
        self._native.all_different(self._vars_of(vars), None if offsets is None else list(offsets))

    def table(self, vars: Sequence[Term], tuples: Iterable[Sequence[int]]) -> None:
        """The scope takes one of the tuples."""
        self._native.table(self._vars_of(vars), [list(t) for t in tuples])

    def element(self, index: Term, array: Sequence[Term], result: Term, offset: int = 0) -> None:
        """`result == array[index - offset]`; `array` of integers or of variables."""
        if all(isinstance(a, int) and not isinstance(a, bool) for a in array):
            self._native.element(self.var_of(index), list(array), self.var_of(result), offset)
        else:
            self._native.element_var(self.var_of(index), self._vars_of(array), self.var_of(result), offset)

    def count(self, vars: Sequence[Term], value: int, result: Term) -> None:
        """`result` is how many of `vars` equal `value`."""
        self._native.count(self._vars_of(vars), value, self.var_of(result))

    def at_most(self, vars: Sequence[Term], value: int, n: int) -> None:
        """At most `n` of `vars` equal `value`."""
        self._native.at_most(self._vars_of(vars), value, n)

    def at_least(self, vars: Sequence[Term], value: int, n: int) -> None:
        """At least `n` of `vars` equal `value`."""
        self._native.at_least(self._vars_of(vars), value, n)

    def global_cardinality(self, vars: Sequence[Term], values: Sequence[int], counts: Sequence[Term]) -> None:
        """`counts[i]` is how many of `vars` equal `values[i]`."""
        self._native.global_cardinality(self._vars_of(vars), list(values), self._vars_of(counts))

    def cumulative(self, starts: Sequence[Term], durations: Sequence[Term], demands: Sequence[Term], capacity: Term) -> None:
        """Tasks never use more than `capacity` at once."""
        self._native.cumulative(self._vars_of(starts), self._vars_of(durations), self._vars_of(demands), self.var_of(capacity))

    def disjunctive(self, starts: Sequence[Term], durations: Sequence[Term]) -> None:
        """Tasks never overlap."""
        self._native.disjunctive(self._vars_of(starts), self._vars_of(durations))

    def diffn(self, x: Sequence[Term], y: Sequence[Term], dx: Sequence[Term], dy: Sequence[Term]) -> None:
        """Rectangles `(x, y, dx, dy)` never overlap."""
        self._native.diffn(self._vars_of(x), self._vars_of(y), self._vars_of(dx), self._vars_of(dy))

    def circuit(self, successors: Sequence[Term]) -> None:
        """`successors` (node indices from 0) form one circuit through every node."""
        self._native.circuit(self._vars_of(successors))

    def inverse(self, f: Sequence[Term], g: Sequence[Term]) -> None:
        """`f[i] == j` exactly when `g[j] == i` (indices from 0)."""
        self._native.inverse(self._vars_of(f), self._vars_of(g))

    def regular(self, vars: Sequence[Term], states: int, start: int, accepting: Sequence[int],
                transitions: Iterable[Tuple[int, int, int]]) -> None:
        """The values of `vars` spell a word the automaton accepts (transitions
        `(from, symbol, to)`)."""
        self._native.regular(self._vars_of(vars), states, start, list(accepting), [tuple(t) for t in transitions])

    def lex_less_eq(self, xs: Sequence[Term], ys: Sequence[Term]) -> None:
        """`xs` is lexicographically at most `ys`."""
        self._native.lex_less_eq(self._vars_of(xs), self._vars_of(ys))

    def min(self, vars: Sequence[Term], result: Term) -> None:
        """`result == min(vars)`."""
        self._native.min(self._vars_of(vars), self.var_of(result))

    def max(self, vars: Sequence[Term], result: Term) -> None:
        """`result == max(vars)`."""
        self._native.max(self._vars_of(vars), self.var_of(result))

    def abs(self, x: Term, result: Term) -> None:
        """`result == |x|`."""
        self._native.abs(self.var_of(x), self.var_of(result))

    def distance(self, x: Term, y: Term, result: Term) -> None:
        """`result == |x - y|`."""
        self._native.distance(self.var_of(x), self.var_of(y), self.var_of(result))

    def times(self, x: Term, y: Term, result: Term) -> None:
        """`result == x * y`."""
        self._native.times(self.var_of(x), self.var_of(y), self.var_of(result))

    def div(self, x: Term, y: Term, result: Term) -> None:
        """`result == x / y` rounded toward zero."""
        self._native.div(self.var_of(x), self.var_of(y), self.var_of(result))

    def modulo(self, x: Term, y: Term, result: Term) -> None:
        """`result == x mod y`, with the sign of `x`."""
        self._native.modulo(self.var_of(x), self.var_of(y), self.var_of(result))

    def clause(self, positive: Sequence[IntVar], negative: Sequence[IntVar] = ()) -> None:
        """One of `positive` is 1 or one of `negative` is 0 (0/1 variables)."""
        self._native.clause(self._vars_of(positive), self._vars_of(negative))

    def view(self, x: IntVar, scale: int, offset: int) -> IntVar:
        """`scale * x + offset` as a variable of its own (an engine view)."""
        return self._new_var(self._native.view(self.var_of(x), scale, offset), None)

    def predicate(self, vars: Sequence[Term], check: Callable[..., object],
                  promising: Optional[Callable[..., object]] = None, name: Optional[str] = None) -> None:
        """A constraint written in Python: `check(*values)` decides complete
        assignments of `vars`; `promising(*values)`, if given, receives `None`
        for unassigned variables and may reject partial ones early. An exception
        in either stops the search and is raised by it."""
        if not callable(check) or (promising is not None and not callable(promising)):
            raise TypeError("predicate takes callables: check (and promising)")
        self._native.predicate(self._vars_of(vars), check, promising, name)
