"""N-Queens two ways: the native API (the engine's not-equal with offset) and
python-constraint's API (string constraints), with the same count.

    python examples/python/nqueens.py 8
"""

import sys

from csp_rs import Model, Solver
from csp_rs.constraint import AllDifferentConstraint, Problem


def native(n: int) -> int:
    m = Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    for i in range(n):
        for j in range(i + 1, n):
            m.add(q[i] != q[j] + (j - i), q[i] != q[j] - (j - i))
    solver = Solver(m, strategy="fc+first-fail")
    first = solver.solve()
    print("first:", first[q])
    count = solver.count()
    print(f"native: {count} solutions, {solver.stats['nodes']} nodes")
    return count


def compat(n: int) -> int:
    problem = Problem()
    cols = [f"q{i}" for i in range(n)]
    problem.addVariables(cols, range(n))
    problem.addConstraint(AllDifferentConstraint())
    for i in range(n):
        for j in range(i + 1, n):
            problem.addConstraint(f"abs(q{i} - q{j}) != {j - i}")
    count = len(problem.getSolutions())
    print(f"csp_rs.constraint: {count} solutions")
    return count


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    assert native(n) == compat(n)
