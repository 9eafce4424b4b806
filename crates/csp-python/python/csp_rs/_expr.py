"""Expressions over a model's variables: Python operators build the engine's
constraints (linear, not-equal with offset, distance, times, reified clauses)."""

from __future__ import annotations

from typing import Dict, Iterable, List, Tuple, Union

Number = int
Term = Union["Expr", int]

_NEGATE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", "<=": ">", ">": "<="}
_FLIP = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}


def _check_int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(
            f"expressions take integers and variables, not {type(value).__name__} ({value!r})"
        )
    return value


class Expr:
    """An integer expression; arithmetic and comparisons build new expressions
    and constraints, evaluated by the engine."""

    __slots__ = ()

    def _lin(self) -> "LinExpr":
        raise NotImplementedError

    def __add__(self, other: Term) -> "LinExpr":
        return self._lin()._combine(as_expr(other)._lin(), 1)

    def __radd__(self, other: Term) -> "LinExpr":
        return self.__add__(other)

    def __sub__(self, other: Term) -> "LinExpr":
        return self._lin()._combine(as_expr(other)._lin(), -1)

    def __rsub__(self, other: Term) -> "LinExpr":
        return as_expr(other)._lin()._combine(self._lin(), -1)

    def __neg__(self) -> "LinExpr":
        return self._lin()._scale(-1)

    def __pos__(self) -> "LinExpr":
        return self._lin()

    def __mul__(self, other: Term) -> "LinExpr":
        a, b = self._lin(), as_expr(other)._lin()
        if not b.terms:
            return a._scale(b.const)
        if not a.terms:
            return b._scale(a.const)
        return LinExpr({Product(a, b): 1}, 0)

    def __rmul__(self, other: Term) -> "LinExpr":
        return self.__mul__(other)

    def __abs__(self) -> "LinExpr":
        a = self._lin()
        if not a.terms:
            return LinExpr({}, abs(a.const))
        return LinExpr({Abs(a): 1}, 0)

    def _rel(self, other: Term, op: str) -> "Rel":
        return Rel(self._lin()._combine(as_expr(other)._lin(), -1), op)

    def __eq__(self, other: Term) -> "Rel":  # type: ignore[override]
        return self._rel(other, "==")

    def __ne__(self, other: Term) -> "Rel":  # type: ignore[override]
        return self._rel(other, "!=")

    def __lt__(self, other: Term) -> "Rel":
        return self._rel(other, "<")

    def __le__(self, other: Term) -> "Rel":
        return self._rel(other, "<=")

    def __gt__(self, other: Term) -> "Rel":
        return self._rel(other, ">")

    def __ge__(self, other: Term) -> "Rel":
        return self._rel(other, ">=")

    # Identity hashing: `==` builds a constraint, so it cannot be equality.
    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        raise TypeError(
            "an expression has no truth value; post constraints with model.add(...)"
        )


class LinExpr(Expr):
    """`sum coeff * node + const`, a node being a variable or a product or
    absolute value of expressions."""

    __slots__ = ("terms", "const")

    def __init__(self, terms: Dict[object, int], const: int) -> None:
        self.terms = {n: c for n, c in terms.items() if c != 0}
        self.const = const

    def _lin(self) -> "LinExpr":
        return self

    def _combine(self, other: "LinExpr", sign: int) -> "LinExpr":
        terms = dict(self.terms)
        for n, c in other.terms.items():
            terms[n] = terms.get(n, 0) + sign * c
        return LinExpr(terms, self.const + sign * other.const)

    def _scale(self, k: int) -> "LinExpr":
        k = _check_int(k)
        return LinExpr({n: c * k for n, c in self.terms.items()}, self.const * k)

    def __repr__(self) -> str:
        parts = [f"{c}*{n!r}" for n, c in self.terms.items()]
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts)


class Product:
    """`a * b` of two non-constant expressions (an auxiliary variable when posted)."""

    __slots__ = ("a", "b")

    def __init__(self, a: LinExpr, b: LinExpr) -> None:
        self.a, self.b = a, b

    def __repr__(self) -> str:
        return f"({self.a!r})*({self.b!r})"


class Abs:
    """`|a|` (an auxiliary variable when posted)."""

    __slots__ = ("a",)

    def __init__(self, a: LinExpr) -> None:
        self.a = a

    def __repr__(self) -> str:
        return f"abs({self.a!r})"


class Const(Expr):
    """An integer constant as an expression."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = _check_int(value)

    def _lin(self) -> LinExpr:
        return LinExpr({}, self.value)


def as_expr(x: Term) -> Expr:
    """`x` as an expression (integers become constants)."""
    if isinstance(x, Expr):
        return x
    return Const(x)


class BoolExpr:
    """A constraint that may be combined with `|`, `&` and `~` (reified by the
    engine) or posted with `model.add`."""

    __slots__ = ()

    def __or__(self, other: "BoolTerm") -> "Or":
        return Or([self, as_bool(other)])

    def __ror__(self, other: "BoolTerm") -> "Or":
        return Or([as_bool(other), self])

    def __and__(self, other: "BoolTerm") -> "And":
        return And([self, as_bool(other)])

    def __rand__(self, other: "BoolTerm") -> "And":
        return And([as_bool(other), self])

    def __invert__(self) -> "BoolExpr":
        raise NotImplementedError

    def __bool__(self) -> bool:
        raise TypeError(
            "a constraint has no truth value; post it with model.add(...) "
            "(write a < b < c as two constraints, and 'or'/'and' as | and &)"
        )


class Rel(BoolExpr):
    """`lin op 0`."""

    __slots__ = ("lin", "op")

    def __init__(self, lin: LinExpr, op: str) -> None:
        self.lin, self.op = lin, op

    def __invert__(self) -> "Rel":
        return Rel(self.lin, _NEGATE[self.op])

    def __repr__(self) -> str:
        return f"{self.lin!r} {self.op} 0"


class Or(BoolExpr):
    """At least one part holds."""

    __slots__ = ("parts",)

    def __init__(self, parts: Iterable[BoolExpr]) -> None:
        self.parts: List[BoolExpr] = []
        for p in parts:
            self.parts.extend(p.parts if isinstance(p, Or) else [p])

    def __invert__(self) -> "And":
        return And([~p for p in self.parts])


class And(BoolExpr):
    """Every part holds."""

    __slots__ = ("parts",)

    def __init__(self, parts: Iterable[BoolExpr]) -> None:
        self.parts: List[BoolExpr] = []
        for p in parts:
            self.parts.extend(p.parts if isinstance(p, And) else [p])

    def __invert__(self) -> "Or":
        return Or([~p for p in self.parts])


class Lit(BoolExpr):
    """A 0/1 variable as a constraint: it is 1 (or, negated, 0)."""

    __slots__ = ("var", "positive")

    def __init__(self, var: object, positive: bool = True) -> None:
        self.var, self.positive = var, positive

    def __invert__(self) -> "Lit":
        return Lit(self.var, not self.positive)


BoolTerm = Union[BoolExpr, "Expr"]


def as_bool(x: object) -> BoolExpr:
    """`x` as a constraint: a 0/1 variable stands for `x == 1`."""
    if isinstance(x, BoolExpr):
        return x
    from ._model import IntVar

    if isinstance(x, IntVar):
        return Lit(x)
    raise TypeError(f"expected a constraint or a 0/1 variable, not {type(x).__name__}")


def bounds_product(a: Tuple[int, int], b: Tuple[int, int]) -> Tuple[int, int]:
    """The bounds of `x * y` for `x` in `a`, `y` in `b`."""
    corners = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]
    return min(corners), max(corners)


def bounds_abs(a: Tuple[int, int]) -> Tuple[int, int]:
    """The bounds of `|x|` for `x` in `a`."""
    lo, hi = a
    if lo >= 0:
        return lo, hi
    if hi <= 0:
        return -hi, -lo
    return 0, max(-lo, hi)
