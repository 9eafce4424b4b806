#!/usr/bin/env python3
"""Random instances of bench/talent/talent.mzn (talent scheduling).

n scenes of 1 to 4 days; m actors paid 1 to 20 a day; each actor plays in a
random share of the scenes (between two scenes and half of them), and every
scene has at least one actor. Fixed seeds: the files are reproducible.

    python3 bench/talent/gen_talent.py   # writes bench/talent/*.dzn
"""
import os
import random


def instance(seed, n, m):
    rnd = random.Random(seed)
    duration = [rnd.randint(1, 4) for _ in range(n)]
    cost = [rnd.randint(1, 20) for _ in range(m)]
    cast = [[0] * n for _ in range(m)]
    for a in range(m):
        k = rnd.randint(2, max(2, n // 2))
        for s in rnd.sample(range(n), k):
            cast[a][s] = 1
    for s in range(n):
        if not any(cast[a][s] for a in range(m)):
            cast[rnd.randrange(m)][s] = 1
    return duration, cost, cast


def write(path, seed, n, m):
    duration, cost, cast = instance(seed, n, m)
    rows = "\n  | ".join(", ".join(map(str, row)) for row in cast)
    with open(path, "w") as f:
        f.write(f"% bench/talent/gen_talent.py, seed {seed}\n")
        f.write(f"nScenes = {n};\nnActors = {m};\n")
        f.write(f"duration = {duration};\ncost = {cost};\n")
        f.write(f"cast = [|\n  {rows} |];\n")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for name, seed, n, m in [
        ("talent10a", 7, 10, 6),
        ("talent12a", 1, 12, 7),
        ("talent13a", 2, 13, 8),
        ("talent14a", 3, 14, 8),
    ]:
        write(os.path.join(here, name + ".dzn"), seed, n, m)
