"""`Variable`, `Unassigned` and `Domain`, as python-constraint defines them."""

from __future__ import annotations

from typing import Any, Iterable, List


class Variable:
    """A named variable object (any hashable object may be a variable)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: The value a `FunctionConstraint(f, assigned=False)` receives for an
#: unassigned variable.
Unassigned = Variable("Unassigned")


class Domain(list):
    """A variable's values: a list that can hide values and restore them
    (`hideValue`, `pushState`, `popState`, `resetState`)."""

    def __init__(self, set: Iterable[Any]) -> None:  # noqa: A002 - python-constraint's name
        list.__init__(self, set)
        self._hidden: List[Any] = []
        self._states: List[int] = []

    def resetState(self) -> None:
        """Restores every hidden value."""
        self.extend(self._hidden)
        del self._hidden[:]
        del self._states[:]

    def pushState(self) -> None:
        """Saves the current state: values hidden after it come back at `popState`."""
        self._states.append(len(self))

    def popState(self) -> None:
        """Restores the state saved by the matching `pushState`."""
        diff = self._states.pop() - len(self)
        if diff:
            self.extend(self._hidden[-diff:])
            del self._hidden[-diff:]

    def hideValue(self, value: Any) -> None:
        """Hides `value` until the state before it is popped."""
        list.remove(self, value)
        self._hidden.append(value)
