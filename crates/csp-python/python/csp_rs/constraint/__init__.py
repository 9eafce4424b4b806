"""python-constraint's API on the csp engine: change `from constraint import *`
to `from csp_rs.constraint import *`.

>>> from csp_rs.constraint import Problem, AllDifferentConstraint
>>> p = Problem()
>>> p.addVariables(["a", "b"], [1, 2, 3])
>>> p.addConstraint(AllDifferentConstraint())
>>> p.addConstraint("a + 1 == b")
>>> sorted(sorted(s.items()) for s in p.getSolutions())
[[('a', 1), ('b', 2)], [('a', 2), ('b', 3)]]
"""

from ._constraints import (
    AllDifferentConstraint,
    AllEqualConstraint,
    Constraint,
    ExactProdConstraint,
    ExactSumConstraint,
    FunctionConstraint,
    InSetConstraint,
    MaxProdConstraint,
    MaxSumConstraint,
    MinProdConstraint,
    MinSumConstraint,
    NotInSetConstraint,
    SomeInSetConstraint,
    SomeNotInSetConstraint,
    VariableExactProdConstraint,
    VariableExactSumConstraint,
    VariableMaxProdConstraint,
    VariableMaxSumConstraint,
    VariableMinProdConstraint,
    VariableMinSumConstraint,
)
from ._domain import Domain, Unassigned, Variable
from . import _parser  # noqa: F401 - its cache is cleared by bench/python
from ._problem import Problem
from ._solvers import (
    BacktrackingSolver,
    MinConflictsSolver,
    OptimizedBacktrackingSolver,
    ParallelSolver,
    RecursiveBacktrackingSolver,
    Solver,
)

__all__ = [
    "AllDifferentConstraint", "AllEqualConstraint", "BacktrackingSolver", "Constraint", "Domain",
    "ExactProdConstraint", "ExactSumConstraint", "FunctionConstraint", "InSetConstraint",
    "MaxProdConstraint", "MaxSumConstraint", "MinConflictsSolver", "MinProdConstraint", "MinSumConstraint",
    "NotInSetConstraint", "OptimizedBacktrackingSolver", "ParallelSolver", "Problem",
    "RecursiveBacktrackingSolver", "SomeInSetConstraint", "SomeNotInSetConstraint", "Solver", "Unassigned",
    "Variable", "VariableExactProdConstraint", "VariableExactSumConstraint", "VariableMaxProdConstraint",
    "VariableMaxSumConstraint", "VariableMinProdConstraint", "VariableMinSumConstraint",
]
