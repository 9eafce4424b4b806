"""csp_rs: constraint satisfaction by backtracking search on the csp engine.

Two ways in:

- the native API: `Model`, its variables and expressions, the engine's
  constraints by their Rust names, and `Solver`;
- `csp_rs.constraint`: python-constraint's API (`Problem`, `addVariable`,
  `addConstraint`, `getSolutions`, ...), solved by the same engine.

>>> from csp_rs import Model, Solver
>>> m = Model()
>>> q = m.int_vars(4, 0, 3, "q")
>>> for i in range(4):
...     for j in range(i + 1, 4):
...         m.add(q[i] != q[j], q[i] != q[j] + (j - i), q[i] != q[j] - (j - i))
>>> Solver(m).count()
2
"""

from ._expr import And, BoolExpr, Expr, LinExpr, Lit, Or, Rel
from ._model import IntVar, Model
from ._solver import Optimization, SearchIter, Solution, Solver, Trace
from . import nqueens
from ._compare import Comparison, compare

__all__ = [
    "And", "BoolExpr", "Expr", "IntVar", "LinExpr", "Lit", "Model", "Optimization", "Or", "Rel",
    "SearchIter", "Solution", "Solver", "Trace", "nqueens", "Comparison", "compare",
]
__version__ = "0.1.0"
