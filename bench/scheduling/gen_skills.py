#!/usr/bin/env python3
"""Random multi-skill scheduling instances for skills.mzn.

Each worker has one or two of the skills; each task needs one or two
skills, one or two workers of each (never more than have the skill);
durations 1..6; every task has up to three successors among the next ten.
Fixed seeds: the files are reproducible.

    python3 bench/scheduling/gen_skills.py   # writes bench/scheduling/skills*_*.dzn
"""
import os
import random


def instance(seed, n_workers, n_skills, n_tasks):
    rnd = random.Random(seed)
    skills = [sorted(rnd.sample(range(1, n_skills + 1), rnd.randint(1, 2)))
              for _ in range(n_workers)]
    have = {k: sum(k in s for s in skills) for k in range(1, n_skills + 1)}
    usable = [k for k in have if have[k] > 0]
    dur = [rnd.randint(1, 6) for _ in range(n_tasks)]
    need = [[0] * n_tasks for _ in range(n_skills)]
    for t in range(n_tasks):
        for k in rnd.sample(usable, min(len(usable), rnd.randint(1, 2))):
            need[k - 1][t] = min(have[k], rnd.randint(1, 2))
    after = []
    for t in range(n_tasks):
        later = list(range(t + 2, min(n_tasks, t + 10) + 1))  # 1-based
        after.append(sorted(rnd.sample(later, min(len(later), rnd.randint(0, 3)))))
    return skills, dur, need, after


def write(path, inst):
    skills, dur, need, after = inst
    sets = lambda xs: "[" + ", ".join("{" + ", ".join(map(str, s)) + "}" for s in xs) + "]"
    with open(path, "w") as f:
        f.write(f"n_workers = {len(skills)};\nn_skills = {len(need)};\nn_tasks = {len(dur)};\n")
        f.write(f"skills = {sets(skills)};\ndur = {dur};\n")
        f.write("need = [|" + "\n        |".join(", ".join(map(str, row)) for row in need) + " |];\n")
        f.write(f"after = {sets(after)};\n")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    # Seeds 1..12 of both sizes were generated; these are the ones whose
    # optimum Gecode 6.2 proves within 10 s (the others: no proof by either
    # solver within 10 s, so no known answer to check).
    for (workers, skills, tasks), seeds in [
        ((5, 3, 12), [1, 4, 5, 6, 7, 8, 10, 11]),
        ((6, 4, 14), [1, 2, 4, 5, 8, 9, 11, 12]),
    ]:
        for seed in seeds:
            name = f"skills{tasks}_{seed:02}.dzn"
            write(os.path.join(here, name), instance(seed, workers, skills, tasks))
