"""N-Queens, the workspace's first model: csp-core's own models from Python.

>>> from csp_rs import Solver, nqueens
>>> m, q = nqueens.model(8, kind="global")
>>> Solver(m, strategy="fc").count()
92
>>> nqueens.count(6, kind="pairwise", strategy="check")
4
"""

from typing import List, Optional, Tuple

from . import _native
from ._model import IntVar, Model
from ._solver import Solver


def model(n: int, kind: str = "pairwise") -> Tuple[Model, List[IntVar]]:
    """csp-core's N-Queens model with `n` rows (`q[i]` is row i's column):
    `"pairwise"` posts three not-equals per pair of rows (the classic promising
    function's tests), `"global"` three all-different constraints over `q[i]`,
    `q[i] + i` and `q[i] - i`. Returns the model and the row variables."""
    m = Model._adopt(lambda: _native.NativeModel.queens(n, kind))
    return m, m.vars[:n]


def count(n: int, kind: str = "global", strategy: Optional[str] = None) -> int:
    """The number of solutions, counted by the engine on `model(n, kind)`
    (not by the `nqueens` program's dedicated bitboard counter)."""
    m, _ = model(n, kind)
    return Solver(m, strategy=strategy).count()
