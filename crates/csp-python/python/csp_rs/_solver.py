"""`Solver`: searches a `Model` with the engine, without the GIL; Ctrl-C stops it."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

from . import _native
from ._expr import Abs, Expr, LinExpr, Product, as_expr
from ._model import IntVar, Model


class Solution:
    """One solution: `sol[x]` for a variable or expression, `sol[[x, y]]` for
    several; `sol.values` has one value per variable of the model."""

    __slots__ = ("model", "values")

    def __init__(self, model: Model, values: List[int]) -> None:
        self.model, self.values = model, values

    def _eval(self, e: LinExpr) -> int:
        total = e.const
        for node, c in e.terms.items():
            total += c * self._node(node)
        return total

    def _node(self, node: object) -> int:
        if isinstance(node, IntVar):
            return self.values[node.index]
        if isinstance(node, Product):
            return self._eval(node.a) * self._eval(node.b)
        if isinstance(node, Abs):
            return abs(self._eval(node.a))
        raise TypeError(f"not an expression: {node!r}")

    def __getitem__(self, key: Union[Expr, int, Sequence[Any]]) -> Any:
        if isinstance(key, (list, tuple)):
            return [self[k] for k in key]
        if isinstance(key, IntVar):
            if key.model is not self.model:
                raise ValueError(f"variable {key.name} belongs to another model")
            return self.values[key.index]
        return self._eval(as_expr(key)._lin())  # type: ignore[arg-type]

    def as_dict(self) -> Dict[str, int]:
        """`{name: value}` for every variable of the model."""
        return {v.name: self.values[v.index] for v in self.model._vars}

    def __repr__(self) -> str:
        return f"Solution({self.as_dict()!r})"


class SearchIter:
    """A running search's solutions, lazily; `stats` and `status` once it is over."""

    def __init__(self, model: Model, search: "_native.NativeSearch", owner: "Solver") -> None:
        self._model, self._search, self._owner = model, search, owner
        self._ready: List[List[int]] = []
        self._pos = 0

    def __iter__(self) -> "SearchIter":
        return self

    def _next_values(self) -> Optional[List[int]]:
        if self._pos == len(self._ready):
            # Every solution the worker has ready, in one call.
            self._ready, self._pos = self._search.take(), 0
            if not self._ready:
                self._owner._last = self._search
                return None
        values = self._ready[self._pos]
        self._pos += 1
        return values

    def values(self) -> Iterator[List[int]]:
        """The remaining solutions as plain lists of values (one per variable)."""
        while True:
            values = self._next_values()
            if values is None:
                return
            yield values

    def __next__(self) -> Solution:
        values = self._next_values()
        if values is None:
            raise StopIteration
        return Solution(self._model, values)

    def close(self) -> None:
        """Stops the search."""
        self._search.cancel()

    @property
    def status(self) -> str:
        """`"complete"`, or the limit that stopped the search."""
        return self._search.status

    @property
    def stats(self) -> Dict[str, Any]:
        """The search's statistics (see `Solver.stats`)."""
        return self._search.stats


class Optimization(SearchIter):
    """Branch and bound: iterating gives each improving solution as it is found;
    `best`, `objective` and `optimal` wait for the end."""

    def _finish(self) -> None:
        if not self._search.done:
            best = None
            for s in self:
                best = s
            self._best = best
        if not hasattr(self, "_best"):
            self._best = None

    def __next__(self) -> Solution:
        s = super().__next__()
        self._best = s
        return s

    @property
    def best(self) -> Optional[Solution]:
        """The best solution found (optimal when `optimal`)."""
        self._finish()
        return self._best

    @property
    def objective(self) -> Optional[int]:
        """The objective's value in `best`."""
        self._finish()
        return self._search.objective

    @property
    def optimal(self) -> bool:
        """Whether the search proved `best` optimal (or that there is no solution)."""
        self._finish()
        return self._search.status == "complete"


class Trace:
    """A recorded search: its state-space tree as SVG (drawn inline by Jupyter
    through `_repr_svg_`), as indented text and as JSON Lines (the trace format
    of docs/trace-format.md), with the search's `stats` and `status`."""

    def __init__(self, svg: str, text: str, json_lines: str, stats: Dict[str, Any], status: str,
                 solutions: int, explore: Optional[str] = None, explore_error: Optional[str] = None) -> None:
        self.svg, self.text, self.json_lines = svg, text, json_lines
        self.stats, self.status, self.solutions = stats, status, solutions
        self._explore, self._explore_error = explore, explore_error

    def explore_html(self) -> str:
        """The interactive explorer page (the one `nqueens explore` writes): a
        self-contained HTML document to save and open in a browser. ValueError
        if the page cannot show this model (a domain too wide for its grid)."""
        if self._explore is None:
            raise ValueError(self._explore_error or "no explorer page for this trace")
        return self._explore

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: str) -> None:
        """Writes the SVG picture to `path`."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)

    def __repr__(self) -> str:
        return f"Trace({self.stats.get('nodes')} nodes, {self.solutions} solutions, {self.status})"


class Solver:
    """Searches a model. With no options it uses the engine's default
    configuration; `strategy` is spelled as on every command line
    (`"fc+first-fail"`, `"mac+dom-wdeg+lcv"`); `pruning`, `var` and `val`
    override its parts; `decision_vars` are branched on first; `time_limit` (in
    seconds) and `node_limit` stop the search (its `status` then says so)."""

    def __init__(self, model: Model, strategy: Optional[str] = None, pruning: Optional[str] = None,
                 var: Optional[str] = None, val: Optional[str] = None,
                 decision_vars: Optional[Sequence[IntVar]] = None,
                 time_limit: Optional[float] = None, node_limit: Optional[int] = None) -> None:
        if not isinstance(model, Model):
            raise TypeError(f"Solver takes a csp_rs.Model, not {type(model).__name__}")
        self.model = model
        if decision_vars is not None:
            for v in decision_vars:
                if not isinstance(v, IntVar):
                    raise TypeError(f"decision_vars takes variables, not {type(v).__name__}")
                model._own(v)
        self._options: Dict[str, Any] = dict(
            strategy=strategy, pruning=pruning, var=var, val=val,
            decision_vars=None if decision_vars is None else [v.index for v in decision_vars],
            time_limit=time_limit, node_limit=node_limit,
        )
        if strategy is not None:
            _native.check_strategy(strategy)
        self._last: Optional[_native.NativeSearch] = None

    def _start(self, task: str, objective: Optional[int] = None) -> "_native.NativeSearch":
        return _native.start(self.model._native.native, task, objective, **self._options)

    def solve(self) -> Optional[Solution]:
        """The first solution, or `None` if there is none (or a limit stopped
        the search first: see `status`)."""
        s = self._start("first")
        values = s.next()
        while s.next() is not None:  # drains the end of the search
            pass
        self._last = s
        return None if values is None else Solution(self.model, values)

    def solutions(self) -> SearchIter:
        """Every solution, lazily, in the engine's order."""
        return SearchIter(self.model, self._start("all"), self)

    def count(self) -> int:
        """The number of solutions, none stored (exact when `status` is
        `"complete"`)."""
        s = self._start("count")
        while s.next() is not None:
            pass
        self._last = s
        return s.count

    def _optimize(self, expr: Union[Expr, int], task: str) -> Optimization:
        obj = self.model.var_of(expr)
        it = Optimization(self.model, self._start(task, obj), self)
        return it

    def minimize(self, expr: Union[Expr, int]) -> Optimization:
        """Branch and bound for the smallest value of `expr`."""
        return self._optimize(expr, "minimize")

    def maximize(self, expr: Union[Expr, int]) -> Optimization:
        """Branch and bound for the largest value of `expr`."""
        return self._optimize(expr, "maximize")

    def trace(self, all: bool = False, max_events: int = 100_000, max_nodes: int = 2_000) -> Trace:
        """Searches for the first solution (every one with `all=True`) while
        recording the search (at most `max_events` events; the search itself
        is not cut), and draws the state-space tree with csp-trace, the
        renderer of `nqueens tree` (at most `max_nodes` nodes)."""
        s = _native.start(self.model._native.native, "trace-all" if all else "trace-first",
                          trace_cap=max_events, max_nodes=max_nodes, **self._options)
        while s.next() is not None:
            pass
        self._last = s
        svg, text, json_lines, explore = s.trace
        return Trace(svg, text, json_lines, s.stats, s.status, s.count, explore, s.explore_error)

    @property
    def status(self) -> str:
        """How the last finished search ended: `"complete"` or the limit."""
        if self._last is None:
            raise RuntimeError("no search has finished yet")
        return self._last.status

    @property
    def stats(self) -> Dict[str, Any]:
        """The last finished search's statistics, under MiniZinc's names
        (`nodes`, `failures`, `solutions`, `solveTime`, `peakDepth`,
        `propagations` = checks + propagator calls, `restarts`) and the
        textbook ones (`tried`, `accepted`, `rejected`, `backtracks`, `checks`,
        `propagatorCalls`, `revisions`, `pruned`, `peak_depth`, `elapsed`)."""
        if self._last is None:
            raise RuntimeError("no search has finished yet")
        return self._last.stats
