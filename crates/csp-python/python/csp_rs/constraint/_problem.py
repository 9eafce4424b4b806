"""`Problem`: python-constraint's problem definition, solved by the engine.

Values of any hashable type are mapped to integers: integers stand for
themselves (when they fit the engine's domains), other values get codes of
their own; solutions give back the original objects."""

from __future__ import annotations

import copy
import itertools
from operator import itemgetter
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from .. import _native
from .._model import IntVar, Model
from .._solver import Solver as EngineSolver
from . import _parser
from ._constraints import Constraint, FunctionConstraint, _Builtin
from ._domain import Domain, Unassigned
from ._solvers import OptimizedBacktrackingSolver, Solver


#: A Python constraint whose scope has at most this many combinations of
#: values is tabulated: called once per combination before the search, and
#: posted as the engine's table constraint.
TABULATE_LIMIT = 4096


def _owner(cls: type, name: str) -> type:
    for k in cls.__mro__:
        if name in k.__dict__:
            return k
    return object


def _copy_domain(d: Domain) -> Domain:
    """A copy with the same visible and hidden values and saved states."""
    c = Domain(d)
    c._hidden = list(d._hidden)
    c._states = list(d._states)
    return c


class _Build:
    """One engine model of a problem: variables, value codes, constraints."""

    def __init__(self, domains: Dict[Any, Domain]) -> None:
        self.model = Model()
        self.domains = domains
        self.order = list(domains)
        ints: List[int] = []
        for var, dom in domains.items():
            for value in dom:
                try:
                    hash(value)
                except TypeError:
                    raise TypeError(
                        f"variable {var!r}: value {value!r} is unhashable ({type(value).__name__}); "
                        "values must be hashable") from None
                if type(value) is int:
                    ints.append(value)
        identity = bool(ints) and max(ints) - min(ints) < _native.MAX_DOMAIN_WIDTH // 2 \
            and -(2 ** 62) < min(ints) and max(ints) < 2 ** 62
        self.code: Dict[Any, int] = {}
        next_code = (max(ints) + 1) if identity else 0
        if identity:
            for i in ints:
                self.code[i] = i
        self.decode: Dict[Any, Dict[int, Any]] = {}
        self._numeric: Dict[Any, bool] = {}
        self.var: Dict[Any, IntVar] = {}
        for var, dom in domains.items():
            table: Dict[int, Any] = {}
            for value in dom:
                if value not in self.code:
                    self.code[value] = next_code
                    next_code += 1
                c = self.code[value]
                table.setdefault(c, value)
            self.decode[var] = table
            self._numeric[var] = identity and all(type(v) is int for v in dom)
            self.var[var] = self.model.int_var(sorted(table), name=str(var))
        self._identity = all(self._numeric.values())

    def vars(self, variables: Sequence[Any]) -> List[IntVar]:
        """The engine variables of problem variables."""
        return [self.var[v] for v in variables]

    def numeric(self, variables: Sequence[Any]) -> bool:
        """Whether every value of these variables is an integer standing for itself."""
        return all(self._numeric[v] for v in variables)

    def add_compare(self, expr: Any, op: str, bound: int) -> None:
        """Posts `expr op bound`."""
        self.model.add(expr._rel(bound, op))

    def membership(self, var: Any, test: Callable[[Any], bool]) -> IntVar:
        """A 0/1 variable that is 1 exactly when `test(value of var)`."""
        b = self.model.bool_var()
        tuples = [[c, int(bool(test(value)))] for c, value in self.decode[var].items()]
        self.model.table([self.var[var], b], tuples)
        return b

    def _decoder(self, variables: Sequence[Any]) -> Optional[List[Dict[int, Any]]]:
        if self.numeric(variables):
            return None
        return [self.decode[v] for v in variables]

    def python(self, variables: Sequence[Any], check: Callable[..., Any],
               promising: Optional[Callable[..., Any]] = None) -> None:
        """A constraint evaluated in Python on the original values: `check` on
        complete assignments; `promising`, if given, on partial ones, with
        `Unassigned` for the unassigned variables. Small scopes are tabulated."""
        variables = list(variables)
        if promising is None and self._tabulate(variables, check):
            return
        dec = self._decoder(variables)
        engine_check = check
        if dec is not None:
            def engine_check(*codes: int) -> Any:
                return check(*[d[c] for d, c in zip(dec, codes)])
        engine_promising = None
        if promising is not None:
            tables = dec if dec is not None else [None] * len(variables)

            def engine_promising(*codes: Optional[int]) -> Any:
                return promising(*[Unassigned if c is None else (c if d is None else d[c])
                                   for d, c in zip(tables, codes)])
        self.model.predicate(self.vars(variables), engine_check, engine_promising, name="python")

    def _tabulate(self, variables: List[Any], check: Callable[..., Any]) -> bool:
        """Posts `check` as a table if its scope is small; False (nothing
        posted) if it is not, or if `check` raised: then the search calls it,
        and raises what it raises if it meets that combination."""
        if len(variables) != len(set(variables)):
            return False
        size = 1
        for v in variables:
            size *= len(self.decode[v])
            if size > TABULATE_LIMIT:
                return False
        tables = [list(self.decode[v].items()) for v in variables]
        allowed = []
        try:
            for combo in itertools.product(*tables):
                if check(*[value for _, value in combo]):
                    allowed.append([c for c, _ in combo])
        except Exception:  # noqa: BLE001 - the search will raise it if it matters
            return False
        if allowed:
            self.model.table(self.vars(variables), allowed)
        else:
            self.model.add(False)
        return True

    def generic(self, constraint: Constraint, variables: Sequence[Any]) -> None:
        """A user's `Constraint`: its `__call__` on complete and partial
        assignments of its scope."""
        variables = list(variables)
        domains = self.domains

        def promising(*vals: Any) -> Any:
            assignments = {v: x for v, x in zip(variables, vals) if x is not Unassigned}
            return constraint(variables, domains, assignments, False)

        def check(*vals: Any) -> Any:
            return constraint(variables, domains, dict(zip(variables, vals)), False)

        if not self._tabulate(variables, check):
            self.python(variables, check, promising)

    def solution(self, values: List[int]) -> Dict[Any, Any]:
        """A solution as `{variable: value}`."""
        if self._identity:
            # The problem's variables are the model's first ones, values their codes.
            return dict(zip(self.order, values))
        return {v: self.decode[v][values[self.var[v].index]] for v in self.order}


class Problem:
    """A problem: variables with domains, and constraints (python-constraint's
    `Problem`)."""

    def __init__(self, solver: Optional[Solver] = None) -> None:
        self._solver = solver or OptimizedBacktrackingSolver()
        self._constraints: List[Tuple[Constraint, Any]] = []
        self._str_constraints: List[str] = []
        self._variables: Dict[Any, Domain] = {}
        assert isinstance(self._solver, Solver), \
            f"`solver` is not instance of Solver class (is {type(self._solver)})."

    def reset(self) -> None:
        """Removes every variable and constraint."""
        del self._constraints[:]
        del self._str_constraints[:]
        self._variables.clear()

    def setSolver(self, solver: Solver) -> None:
        """Changes the solver."""
        self._solver = solver

    def getSolver(self) -> Solver:
        """The solver in use."""
        return self._solver

    def addVariable(self, variable: Any, domain: Any) -> None:
        """Adds a variable with a domain (list, tuple, range, set or `Domain`)."""
        if variable in self._variables:
            raise ValueError(f"Tried to insert duplicated variable {repr(variable)}")
        if not isinstance(domain, (list, tuple, Domain)) and not hasattr(domain, "__getitem__"):
            try:
                domain = list(domain)
            except TypeError:
                raise TypeError("Domains must be instances of subclasses of the Domain class") from None
        if isinstance(domain, Domain):
            domain = copy.deepcopy(domain)
        elif hasattr(domain, "__getitem__"):
            domain = Domain(domain)
        else:
            raise TypeError("Domains must be instances of subclasses of the Domain class")
        if not domain:
            raise ValueError("Domain is empty")
        self._variables[variable] = domain

    def addVariables(self, variables: Sequence[Any], domain: Any) -> None:
        """Adds several variables with the same domain."""
        for variable in variables:
            self.addVariable(variable, domain)

    def addConstraint(self, constraint: Any, variables: Optional[Sequence[Any]] = None) -> None:
        """Adds a constraint: a `Constraint`, a callable, a string expression or
        a list of strings; `variables` defaults to every variable (strings name
        their own)."""
        if isinstance(constraint, str):
            self._str_constraints.append(constraint)
            return
        if isinstance(constraint, list):
            assert all(isinstance(c, str) for c in constraint), \
                f"Expected constraints to be strings, got {constraint}"
            self._str_constraints.extend(constraint)
            return
        if not isinstance(constraint, Constraint):
            if callable(constraint):
                constraint = FunctionConstraint(constraint)
            else:
                raise ValueError("Constraints must be instances of subclasses of the Constraint class")
        self._constraints.append((constraint, variables))

    # ----- solving -----

    def _build(self) -> Optional[_Build]:
        # Preprocessing may change the domains: it gets copies.
        domains = {v: _copy_domain(d) for v, d in self._variables.items()}
        allvariables = list(domains)
        position = {v: i for i, v in enumerate(allvariables)}
        constraints: List[Tuple[Any, Any]] = []
        for constraint, variables in self._constraints:
            constraints.append((constraint, list(variables) if variables else list(allvariables)))
        strings = list(self._str_constraints)
        for s in strings:
            # A string naming no variable is an error (python-constraint's parser
            # cannot place it either); its variables must exist.
            _parser.names(s, position)
        vconstraints: Dict[Any, List[Any]] = {v: [] for v in domains}
        for constraint, variables in constraints:
            for variable in variables:
                if variable not in vconstraints:
                    raise KeyError(variable)
                vconstraints[variable].append((constraint, variables))
        for constraint, variables in constraints[:]:
            constraint.preProcess(variables, domains, constraints, vconstraints)
        for domain in domains.values():
            domain.resetState()
            if not domain:
                return None
        if not domains:
            return None
        b = _Build(domains)
        for s in strings:
            _parser.post(b, s, position)
        for constraint, variables in constraints:
            if isinstance(constraint, _Builtin) and _owner(type(constraint), "__call__") is not _Builtin:
                b.generic(constraint, variables)
            else:
                constraint._post(b, variables)
        return b

    def _search(self, what: str) -> Tuple[Optional[_Build], Optional[EngineSolver]]:
        self._solver._refuse(what)
        b = self._build()
        if b is None:
            return None, None
        return b, EngineSolver(b.model, strategy=self._solver._strategy(),
                               decision_vars=[b.var[v] for v in b.order])

    def getSolution(self) -> Optional[Dict[Any, Any]]:
        """One solution as `{variable: value}`, or `None`."""
        b, s = self._search("one")
        if b is None or s is None:
            return None
        sol = s.solve()
        return None if sol is None else b.solution(sol.values)

    def getSolutions(self) -> List[Dict[Any, Any]]:
        """Every solution."""
        b, s = self._search("all")
        if b is None or s is None:
            return []
        if b._identity:
            order = b.order
            return [dict(zip(order, values)) for values in s.solutions().values()]
        solution = b.solution
        return [solution(values) for values in s.solutions().values()]

    def getSolutionIter(self) -> Iterator[Dict[Any, Any]]:
        """The solutions, lazily."""
        b, s = self._search("iter")
        if b is None or s is None:
            return iter(())
        return map(b.solution, s.solutions().values())

    def getSolutionsOrderedList(self, order: Optional[List[Any]] = None) -> List[Tuple[Any, ...]]:
        """The solutions as tuples, their values in `order`."""
        solutions = self.getSolutions()
        if order is None or len(order) == 1:
            return [tuple(solution.values()) for solution in solutions]
        get_in_order = itemgetter(*order)
        return [get_in_order(params) for params in solutions]

    def getSolutionsAsListDict(self, order: Optional[List[Any]] = None, validate: bool = True
                               ) -> Tuple[List[Tuple[Any, ...]], Dict[Tuple[Any, ...], int], int]:
        """The solutions as tuples, a dict from tuple to index, and their number."""
        solutions_list = self.getSolutionsOrderedList(order)
        size_list = len(solutions_list)
        solutions_dict = dict(zip(solutions_list, range(size_list)))
        if validate and size_list != len(solutions_dict):
            raise ValueError(f"{size_list - len(solutions_dict)} duplicate parameter configurations")
        return solutions_list, solutions_dict, size_list
