"""Brute force: every assignment of small domains, filtered by a Python test."""

import itertools


def brute(domains, holds):
    """The tuples of `itertools.product(*domains)` for which `holds(*t)`."""
    return {t for t in itertools.product(*domains) if holds(*t)}


def engine(solver, xs):
    """The solutions of `solver` projected on `xs`, checking that no two
    solutions project to the same tuple (auxiliary variables are functions)."""
    sols = [tuple(s[xs]) for s in solver.solutions()]
    assert len(sols) == len(set(sols)), "repeated solution"
    return set(sols)
