"""N-Queens timings for the Python package (CPU time, so that a shared machine
disturbs them less): docs/python.md keeps the figures.

1. n = 10, all solutions, python-constraint's classic model (AllDifferent on
   the columns, the diagonals as string constraints "abs(a - b) != k", then as
   lambdas): python-constraint2 against csp_rs.constraint.
2. n = 12, all solutions, the native API with nqueens's global model under
   `fc`, against `nqueens count 12 --pruning fc`.
3. The import time of csp_rs (and csp_rs.constraint).

    python bench/python/nqueens.py [--nqueens target/release/nqueens] [--repeat 3]
"""

import argparse
import os
import resource
import subprocess
import sys
import time


def cpu_of(f, repeat):
    """The smallest CPU time (all threads of this process) of `repeat` calls."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.process_time()
        result = f()
        best = min(best, time.process_time() - t)
    return best, result


def child_cpu(cmd, repeat):
    """The smallest CPU time (user + system) of a child process."""
    best, out = float("inf"), ""
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best, out


def classic(module, n, kind):
    parser = getattr(module, "_parser", None)
    if parser is not None:
        # csp_rs caches parsed strings: each repeat parses them again.
        parser._parse.cache_clear()
    p = module.Problem()
    cols = [f"q{i}" for i in range(n)]
    p.addVariables(cols, range(n))
    p.addConstraint(module.AllDifferentConstraint())
    for i in range(n):
        for j in range(i + 1, n):
            if kind == "strings":
                p.addConstraint(f"abs({cols[i]} - {cols[j]}) != {j - i}")
            else:
                p.addConstraint(lambda a, b, d=j - i: abs(a - b) != d, (cols[i], cols[j]))
    return len(p.getSolutions())


def native(n):
    from csp_rs import Model, Solver
    m = Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    m.all_different(q, list(range(n)))
    m.all_different(q, [-i for i in range(n)])
    return Solver(m, strategy="fc").count()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nqueens", default=os.path.join("target", "release", "nqueens"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    import csp_rs.constraint as ours
    try:
        import constraint as theirs
    except ImportError:
        theirs = None
        print("python-constraint2 is not installed (pip install python-constraint2): its rows are skipped")

    print("| case | CPU seconds | solutions |")
    print("|---|---|---|")
    rows = {}
    for kind in ("strings", "lambdas"):
        for name, module in (("python-constraint2", theirs), ("csp_rs.constraint", ours)):
            if module is None:
                continue
            t, count = cpu_of(lambda: classic(module, 10, kind), args.repeat)
            assert count == 724
            rows[(name, kind)] = t
            print(f"| n=10 {kind}, {name} | {t:.4f} | {count} |")
        if theirs is not None:
            ratio = rows[("python-constraint2", kind)] / rows[("csp_rs.constraint", kind)]
            print(f"| n=10 {kind}: csp_rs.constraint is {ratio:.1f}x faster | | |")
    t, count = cpu_of(lambda: native(12), args.repeat)
    assert count == 14200
    print(f"| n=12 native API, global model, fc | {t:.4f} | {count} |")
    if os.path.exists(args.nqueens):
        tq, out = child_cpu([args.nqueens, "count", "12", "--pruning", "fc"], args.repeat)
        assert out.split()[0] == "14200", out
        print(f"| n=12 `nqueens count 12 --pruning fc` | {tq:.4f} | 14200 |")
        print(f"| n=12: native API / nqueens = {t / tq:.2f} | | |")
    else:
        print(f"({args.nqueens} not found: cargo build --release -p nqueens)")
    base, _ = child_cpu([sys.executable, "-c", "pass"], 5)
    imp, _ = child_cpu([sys.executable, "-c", "import csp_rs, csp_rs.constraint"], 5)
    print(f"| import csp_rs, csp_rs.constraint (over a bare interpreter) | {imp - base:.4f} | |")


if __name__ == "__main__":
    main()
