#!/usr/bin/env python3
"""Random RCPSP instances in the format of the shared set's rcpsp.mzn.

Like PSPLIB's J30 (Kolisch et al.): four renewable resources, durations 1..10,
each task needs one to three resources (demand 1..10), every task has one to
three successors among the later tasks, capacities between the largest single
demand and a fraction of the total. Fixed seeds: the files are reproducible.

    python3 bench/scheduling/gen_rcpsp.py   # writes bench/scheduling/*.dzn
"""
import os
import random


def instance(seed, n_tasks, tightness):
    rnd = random.Random(seed)
    n_res = 4
    d = [rnd.randint(1, 10) for _ in range(n_tasks)]
    rr = [[0] * n_tasks for _ in range(n_res)]
    for t in range(n_tasks):
        for r in rnd.sample(range(n_res), rnd.randint(1, 3)):
            rr[r][t] = rnd.randint(1, 10)
    rc = []
    for r in range(n_res):
        need = [x for x in rr[r] if x > 0]
        peak = max(need) if need else 1
        rc.append(max(peak, int(tightness * sum(need) / 3)))
    suc = []
    for t in range(n_tasks):
        later = list(range(t + 2, min(n_tasks, t + 12) + 1))  # 1-based
        k = min(len(later), rnd.randint(1, 3))
        suc.append(sorted(rnd.sample(later, k)) if t < n_tasks - 3 else [])
    return n_res, rc, d, rr, suc


def write(path, inst):
    n_res, rc, d, rr, suc = inst
    with open(path, "w") as f:
        f.write(f"n_res = {n_res};\nrc = {rc};\nn_tasks = {len(d)};\nd = {d};\n")
        f.write("rr = [|" + "\n      |".join(", ".join(map(str, row)) for row in rr) + " |];\n")
        f.write("suc = [" + ",\n       ".join("{" + ", ".join(map(str, s)) + "}" for s in suc) + "];\n")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for name, seed, n, tight in [
        ("rcpsp20a", 11, 20, 0.40),
        ("rcpsp20b", 24, 20, 0.40),
        ("rcpsp20c", 30, 20, 0.40),
        ("rcpsp24a", 13, 24, 0.55),
        ("rcpsp24b", 26, 24, 0.40),
    ]:
        write(os.path.join(here, name + ".dzn"), instance(seed, n, tight))
