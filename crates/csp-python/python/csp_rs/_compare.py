"""`compare`: csp-compare's verified strategy comparison from Python."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from . import _native
from ._model import Model


class Comparison:
    """A verified comparison: `rows` (one dict per strategy and size: strategy,
    size, solutions, complete, stopped_by, nodes, failures, pruned,
    propagations, seconds, runs), the table as Markdown or CSV, and the chart
    as SVG (drawn inline by Jupyter)."""

    def __init__(self, rows: List[Dict[str, Any]], markdown: str, csv: str, svg: str) -> None:
        self.rows, self._markdown, self._csv, self.svg = rows, markdown, csv, svg

    def to_markdown(self) -> str:
        """The table in Markdown."""
        return self._markdown

    def to_csv(self) -> str:
        """The table as CSV."""
        return self._csv

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (pandas must be installed)."""
        try:
            import pandas
        except ImportError:
            raise ImportError("to_pandas needs pandas (pip install pandas); the plain rows are in .rows") from None
        return pandas.DataFrame(self.rows)

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return self._markdown


def compare(model: Union[Model, Callable[[int], Model]], strategies: Sequence[str],
            sizes: Optional[Sequence[int]] = None, mode: str = "count",
            time_limit: Optional[float] = None, node_limit: Optional[int] = None) -> Comparison:
    """Runs each strategy (`"check"`, `"fc+first-fail"`, ...) with csp-compare,
    which verifies that every complete run finds the same number of solutions
    (count mode) or agrees on satisfiability with a valid solution (first mode):
    a disagreement is a ValueError naming both strategies. `model` is a Model,
    or a function building the model for each of `sizes`. `time_limit` (seconds)
    and `node_limit` bound each run alike. Ctrl-C stops it."""
    if isinstance(model, Model):
        if sizes is not None:
            raise TypeError("sizes go with a function building the model for a size, not with a model")
        recorded = model._native

        def build(size: int) -> "_native.NativeModel":
            return recorded.fresh()
        sizes = [recorded.num_vars()]
        label = "variables"
    elif callable(model):
        if sizes is None:
            raise TypeError("compare(build, strategies, sizes): a builder needs the sizes")
        builder = model

        def build(size: int) -> "_native.NativeModel":
            m = builder(size)
            if not isinstance(m, Model):
                raise TypeError(f"the builder must return a csp_rs.Model, not {type(m).__name__}")
            return m._native.fresh()
        label = "n"
    else:
        raise TypeError(f"compare takes a csp_rs.Model or a function of the size, not {type(model).__name__}")
    if isinstance(strategies, str):
        strategies = [strategies]
    rows, markdown, csv, svg = _native.compare(build, list(strategies), list(sizes), mode, time_limit,
                                               node_limit, label)
    return Comparison(rows, markdown, csv, svg)
