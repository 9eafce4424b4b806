"""python-constraint's constraints. Each built-in one posts engine constraints
(`_post`); a user's subclass with its own `__call__` is called back from the
engine."""

from __future__ import annotations

from fractions import Fraction
from functools import reduce
from math import lcm
from typing import Any, Callable, Dict, List, Optional, Sequence

from ._domain import Unassigned


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


#: The largest denominator by which decimal multipliers and bounds are scaled
#: to integers for the engine (0.01 -> 1/100).
MAX_SCALE = 10 ** 6


def _scaled(numbers: Sequence[Any]) -> Optional[List[int]]:
    """Integers and decimal floats (as written: 0.05 is 5/100) times their
    least common denominator, or None if some is neither or the scale is too large."""
    fractions = []
    for x in numbers:
        if _is_int(x):
            fractions.append(Fraction(x))
        elif isinstance(x, float) and x == x and abs(x) != float("inf"):
            fractions.append(Fraction(repr(x)))
        else:
            return None
    scale = 1
    for f in fractions:
        scale = lcm(scale, f.denominator)
        if scale > MAX_SCALE:
            return None
    return [int(f * scale) for f in fractions]


class Constraint:
    """Base class of constraints: `__call__(variables, domains, assignments,
    forwardcheck=False)` says whether the (partial) assignment may still
    satisfy it; `preProcess` may prune domains before the search."""

    def __call__(self, variables: Sequence[Any], domains: Dict[Any, Any], assignments: Dict[Any, Any],
                 forwardcheck: bool = False) -> bool:
        return True

    def preProcess(self, variables: Sequence[Any], domains: Dict[Any, Any], constraints: List[Any],
                   vconstraints: Dict[Any, Any]) -> None:
        """A constraint on one variable filters its domain and is removed."""
        if len(variables) == 1:
            variable = variables[0]
            domain = domains[variable]
            for value in domain[:]:
                if not self(variables, domains, {variable: value}):
                    domain.remove(value)
            constraints.remove((self, variables))
            vconstraints[variable].remove((self, variables))

    def forwardCheck(self, variables: Sequence[Any], domains: Dict[Any, Any], assignments: Dict[Any, Any],
                     _unassigned: Any = Unassigned) -> bool:
        """With one variable left unassigned, hides its values that break the constraint."""
        unassigned = _unassigned
        for variable in variables:
            if variable not in assignments:
                if unassigned is _unassigned:
                    unassigned = variable
                else:
                    break
        else:
            if unassigned is not _unassigned:
                domain = domains[unassigned]
                if domain:
                    for value in domain[:]:
                        assignments[unassigned] = value
                        if not self(variables, domains, assignments):
                            domain.hideValue(value)
                    del assignments[unassigned]
                if not domain:
                    return False
        return True

    def _post(self, b: Any, variables: Sequence[Any]) -> None:
        """Posts the constraint through the builder `b` (a callback by default)."""
        b.generic(self, variables)


class _Builtin(Constraint):
    """A built-in constraint: an engine model, and `_holds` on complete assignments."""

    def _holds(self, variables: Sequence[Any], values: Sequence[Any]) -> bool:
        raise NotImplementedError

    def _scope(self, variables: Sequence[Any]) -> Sequence[Any]:
        return variables

    def __call__(self, variables: Sequence[Any], domains: Dict[Any, Any], assignments: Dict[Any, Any],
                 forwardcheck: bool = False) -> bool:
        scope = self._scope(variables)
        if any(v not in assignments for v in scope):
            return True
        return bool(self._holds(variables, [assignments[v] for v in scope]))

    def preProcess(self, variables: Sequence[Any], domains: Dict[Any, Any], constraints: List[Any],
                   vconstraints: Dict[Any, Any]) -> None:
        # The engine filters the domains itself.
        pass

    def _fallback(self, b: Any, variables: Sequence[Any]) -> None:
        b.python(self._scope(variables), lambda *vals: self._holds(variables, vals))


class FunctionConstraint(Constraint):
    """`func(*values)` decides the constraint (called once every variable of
    the scope is assigned, or with `Unassigned` placeholders when
    `assigned=False`)."""

    def __init__(self, func: Callable[..., Any], assigned: bool = True) -> None:
        self._func = func
        self._assigned = assigned

    def __call__(self, variables: Sequence[Any], domains: Dict[Any, Any], assignments: Dict[Any, Any],
                 forwardcheck: bool = False, _unassigned: Any = Unassigned) -> bool:
        parms = [assignments.get(x, _unassigned) for x in variables]
        missing = parms.count(_unassigned)
        if missing:
            return (self._assigned or self._func(*parms)) and (
                not forwardcheck or missing != 1 or self.forwardCheck(variables, domains, assignments))
        return self._func(*parms)

    def _post(self, b: Any, variables: Sequence[Any]) -> None:
        if type(self).__call__ is not FunctionConstraint.__call__:
            b.generic(self, variables)
            return
        b.python(list(variables), self._func, None if self._assigned else self._func)


class AllDifferentConstraint(_Builtin):
    """The values of the variables are all different."""

    def _holds(self, variables: Sequence[Any], values: Sequence[Any]) -> bool:
        seen: List[Any] = []
        for v in values:
            if v in seen:
                return False
            seen.append(v)
        return True

    def _post(self, b: Any, variables: Sequence[Any]) -> None:
        b.model.all_different(b.vars(variables))


class AllEqualConstraint(_Builtin):
    """The values of the variables are all equal."""

    def _holds(self, variables: Sequence[Any], values: Sequence[Any]) -> bool:
        return all(v == values[0] for v in values)

    def _post(self, b: Any, variables: Sequence[Any]) -> None:
        vs = b.vars(variables)
        for v in vs[1:]:
            b.model.equal(vs[0], v)


class _Sum(_Builtin):
    _op = "=="

    def __init__(self, bound: Any, multipliers: Optional[Sequence[Any]] = None) -> None:
        self._bound = bound
        self._multipliers = multipliers

    def _total(self, values: Sequence[Any]) -> Any:
        mult = self._multipliers or [1] * len(values)
        total = sum(v * m for v, m in zip(values, mult))
        # python-constraint rounds float sums to 10 decimals.
        return round(total, 10) if isinstance(total, float) else total

    def _holds(self, variables: Sequence[Any], values: Sequence[Any]) -> bool:
        return _compare(self._total(values), self._op, self._bound)

    def _post(self, b: Any, variables: Sequence[Any]) -> None:
        mult = list(self._multipliers or [1] * len(variables))
        scaled = _scaled(mult + [self._bound])
        if b.numeric(variables) and scaled is not None:
            b.model.linear(scaled[:-1], b.vars(variables), self._op, scaled[-1])
        else:
            self._fallback(b, variables)


def _compare(a: Any, op: str, b: Any) -> bool:
    if op == "==":
        return bool(a == b)
    if op == ">=":
        return bool(a >= b)
    return bool(a <= b)


class ExactSumConstraint(_Sum):
    """`sum(multipliers[i] * values[i]) == exactsum`."""

    _op = "=="


class MinSumConstraint(_Sum):
    """`sum(multipliers[i] * values[i]) >= minsum`."""

    _op = ">="


class MaxSumConstraint(_Sum):
    """`sum(multipliers[i] * values[i]) <= maxsum`."""

    _op = "<="


class _VariableSum(_Builtin):
    _op = "=="

    def __init__(self, target_var: Any, sum_vars: Sequence[Any], multipliers: Optional[Sequence[Any]] = None) -> None:
        self.target_var = target_var
        self.sum_vars = list(sum_vars)
        self._multipliers = multipliers
        if multipliers:
            assert len(multipliers) == len(sum_vars) + 1, "Multipliers must match sum variables and +1 for target."
            assert all(isinstance(m, (int, float)) for m in multipliers), "Multipliers must be numbers."
            assert multipliers[-1] == 1, "Last multiplier must be 1, as it is the target variable."

    def _scope(self, variables: Sequence[Any]) -> Sequence[Any]:
        return self.sum_vars + [self.target_var]

    def _holds(self, variables: Sequence[Any], values: Sequence[Any]) -> bool:
        mult = self._multipliers or [1] * len(values)
        total = sum(v * m for v, m in zip(values[:-1], mult))
        return _compare(total, self._op, values[-1])

    def _post(self, b: Any, variables: Sequence[Any]) -> None:
        scope = self._scope(variables)
        mult = _scaled(list(self._multipliers or [1] * len(scope))[:-1] + [1])
        if b.numeric(scope) and mult is not None:
            b.model.linear(mult[:-1] + [-mult[-1]], b.vars(scope), self._op, 0)
        else:
            self._fallback(b, variables)


class VariableExactSumConstraint(_VariableSum):
    """`sum(sum_vars) == target_var`."""

    _op = "=="


class VariableMinSumConstraint(_VariableSum):
    """`sum(sum_vars) >= target_var`."""

    _op = ">="


class VariableMaxSumConstraint(_VariableSum):
    """`sum(sum_vars) <= target_var`."""

    _op = "<="


def _product(values: Sequence[Any]) -> Any:
    return reduce(lambda a, b: a * b, values, 1)


class _Prod(_Builtin):
    _op = "=="

    def __init__(self, bound: Any) -> None:
        self._bound = bound

    def _holds(self, variables: Sequence[Any], values: Sequence[Any]) -> bool:
        return _compare(_product(values), self._op, self._bound)

    def _post(self, b: Any, variables: Sequence[Any]) -> None:
        if b.numeric(variables) and _is_int(self._bound):
            b.add_compare(_product(b.vars(variables)), self._op, self._bound)
        else:
            self._fallback(b, variables)


class ExactProdConstraint(_Prod):
    """The product of the values is `exactprod`."""

    _op = "=="


class MinProdConstraint(_Prod):
    """The product of the values is at least `minprod`."""

    _op = ">="


class MaxProdConstraint(_Prod):
    """The product of the values is at most `maxprod`."""

    _op = "<="


class _VariableProd(_Builtin):
    _op = "=="

    def __init__(self, target_var: Any, product_vars: Sequence[Any]) -> None:
        self.target_var = target_var
        self.product_vars = list(product_vars)

    def _scope(self, variables: Sequence[Any]) -> Sequence[Any]:
        return self.product_vars + [self.target_var]

    def _holds(self, variables: Sequence[Any], values: Sequence[Any]) -> bool:
        return _compare(_product(values[:-1]), self._op, values[-1])

    def _post(self, b: Any, variables: Sequence[Any]) -> None:
        scope = self._scope(variables)
        if b.numeric(scope):
            vs = b.vars(scope)
            b.add_compare(_product(vs[:-1]) - vs[-1], self._op, 0)
        else:
            self._fallback(b, variables)


class VariableExactProdConstraint(_VariableProd):
    """The product of `product_vars` equals `target_var`."""

    _op = "=="


class VariableMinProdConstraint(_VariableProd):
    """The product of `product_vars` is at least `target_var`."""

    _op = ">="


class VariableMaxProdConstraint(_VariableProd):
    """The product of `product_vars` is at most `target_var`."""

    _op = "<="


class InSetConstraint(_Builtin):
    """Every value is in `set` (applied to the domains before the search)."""

    def __init__(self, set: Any) -> None:  # noqa: A002
        self._set = set

    def _holds(self, variables: Sequence[Any], values: Sequence[Any]) -> bool:
        return all(v in self._set for v in values)

    def preProcess(self, variables: Sequence[Any], domains: Dict[Any, Any], constraints: List[Any],
                   vconstraints: Dict[Any, Any]) -> None:
        for variable in variables:
            domain = domains[variable]
            for value in domain[:]:
                if value not in self._set:
                    domain.remove(value)
            vconstraints[variable].remove((self, variables))
        constraints.remove((self, variables))

    def _post(self, b: Any, variables: Sequence[Any]) -> None:
        # Applied by preProcess.
        pass


class NotInSetConstraint(InSetConstraint):
    """No value is in `set` (applied to the domains before the search)."""

    def _holds(self, variables: Sequence[Any], values: Sequence[Any]) -> bool:
        return all(v not in self._set for v in values)

    def preProcess(self, variables: Sequence[Any], domains: Dict[Any, Any], constraints: List[Any],
                   vconstraints: Dict[Any, Any]) -> None:
        for variable in variables:
            domain = domains[variable]
            for value in domain[:]:
                if value in self._set:
                    domain.remove(value)
            vconstraints[variable].remove((self, variables))
        constraints.remove((self, variables))


class SomeInSetConstraint(_Builtin):
    """At least `n` values (exactly `n` if `exact`) are in `set`."""

    _inside = True

    def __init__(self, set: Any, n: int = 1, exact: bool = False) -> None:  # noqa: A002
        self._set = set
        self._n = n
        self._exact = exact

    def _holds(self, variables: Sequence[Any], values: Sequence[Any]) -> bool:
        found = sum(1 for v in values if (v in self._set) == self._inside)
        return found == self._n if self._exact else found >= self._n

    def _post(self, b: Any, variables: Sequence[Any]) -> None:
        flags = [b.membership(v, lambda value: (value in self._set) == self._inside) for v in variables]
        b.model.linear([1] * len(flags), flags, "==" if self._exact else ">=", self._n)


class SomeNotInSetConstraint(SomeInSetConstraint):
    """At least `n` values (exactly `n` if `exact`) are not in `set`."""

    _inside = False


#: The built-in constraints whose `__call__` the engine need not call.
BUILTINS = (
    AllDifferentConstraint, AllEqualConstraint, ExactSumConstraint, MinSumConstraint, MaxSumConstraint,
    VariableExactSumConstraint, VariableMinSumConstraint, VariableMaxSumConstraint,
    ExactProdConstraint, MinProdConstraint, MaxProdConstraint,
    VariableExactProdConstraint, VariableMinProdConstraint, VariableMaxProdConstraint,
    InSetConstraint, NotInSetConstraint, SomeInSetConstraint, SomeNotInSetConstraint,
)
