"""python-constraint's solvers, each mapped to the engine's nearest strategy.

| solver | strategy | provides |
|---|---|---|
| `BacktrackingSolver(forwardcheck=True)` | `fc` (`check` without forward checking) | one, all, iteration |
| `RecursiveBacktrackingSolver(forwardcheck=True)` | `fc` (`check`) | one, all, iteration |
| `OptimizedBacktrackingSolver(forwardcheck=True)` | `fc+first-fail` (`check+first-fail`) | one, all, iteration |
| `MinConflictsSolver(steps=1000, rand=None)` | `fc+first-fail` (a complete search) | one |
| `ParallelSolver(process_mode=False)` | `fc+first-fail` | all |
"""

from __future__ import annotations

from typing import Any, Optional


class Solver:
    """Base class of the solvers: a strategy and what the solver provides."""

    #: Whether python-constraint's version pickles the problem (never here).
    requires_pickling = False
    _one = True
    _all = True
    _iter = True

    def _strategy(self) -> str:
        raise NotImplementedError(f"{self.__class__.__name__} is an abstract class")

    def _refuse(self, what: str) -> None:
        name = self.__class__.__name__
        if what == "one" and not self._one:
            raise NotImplementedError(f"{name} only provides all solutions")
        if what == "all" and not self._all:
            raise NotImplementedError(f"{name} provides only a single solution")
        if what == "iter" and not self._iter:
            raise NotImplementedError(f"{name} doesn't provide iteration")
        if type(self) is Solver:
            raise NotImplementedError(f"{name} is an abstract class")


class BacktrackingSolver(Solver):
    """Depth-first backtracking in input order: the engine's `fc` (or `check`)."""

    def __init__(self, forwardcheck: bool = True) -> None:
        self._forwardcheck = forwardcheck

    def _strategy(self) -> str:
        return "fc" if self._forwardcheck else "check"


class RecursiveBacktrackingSolver(BacktrackingSolver):
    """The recursive backtracker: the same search as `BacktrackingSolver`."""


class OptimizedBacktrackingSolver(Solver):
    """Backtracking with the most constrained variables first: the engine's
    `fc+first-fail` (or `check+first-fail`)."""

    def __init__(self, forwardcheck: bool = True) -> None:
        self._forwardcheck = forwardcheck

    def _strategy(self) -> str:
        return "fc+first-fail" if self._forwardcheck else "check+first-fail"


class MinConflictsSolver(Solver):
    """Local search in python-constraint; here a complete search
    (`fc+first-fail`), so it finds a solution whenever there is one."""

    _all = False
    _iter = False

    def __init__(self, steps: int = 1000, rand: Optional[Any] = None) -> None:
        self._steps = steps
        self._rand = rand

    def _strategy(self) -> str:
        return "fc+first-fail"


class ParallelSolver(Solver):
    """All solutions only, as in python-constraint; one engine search
    (`fc+first-fail`)."""

    _one = False
    _iter = False

    def __init__(self, process_mode: bool = False) -> None:
        self._process_mode = process_mode

    def _strategy(self) -> str:
        return "fc+first-fail"
