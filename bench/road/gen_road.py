#!/usr/bin/env python3
"""Random instances of bench/road/road.mzn (road construction, wide objective).

n towns at random points of a 100 x 100 square; the candidate road between
two towns has the rounded Euclidean length (at least 1) and costs its length
times a terrain factor drawn from 1..4; 1 to 3 trips go between each pair;
the budget is a fraction above the cost of the cheapest spanning tree, so
that about a tree's worth of roads, plus a few, can be built. M = 10^6 is the
length charged for a pair that no road path joins. Fixed seeds: the files are
reproducible.

    python3 bench/road/gen_road.py   # writes bench/road/*.dzn
"""
import math
import os
import random

M = 1_000_000


def mst_cost(n, cost):
    # Prim's algorithm on the complete graph.
    inside = {0}
    best = {v: cost[0][v] for v in range(1, n)}
    total = 0
    while best:
        v = min(best, key=best.get)
        total += best.pop(v)
        inside.add(v)
        for u in best:
            best[u] = min(best[u], cost[v][u])
    return total


def instance(seed, n, slack):
    rnd = random.Random(seed)
    pts = [(rnd.randint(0, 100), rnd.randint(0, 100)) for _ in range(n)]
    length = [[0] * n for _ in range(n)]
    cost = [[0] * n for _ in range(n)]
    trips = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            (xi, yi), (xj, yj) = pts[i], pts[j]
            ell = max(1, round(math.hypot(xi - xj, yi - yj)))
            c = ell * rnd.randint(1, 4)
            t = rnd.randint(1, 3)
            length[i][j] = length[j][i] = ell
            cost[i][j] = cost[j][i] = c
            trips[i][j] = trips[j][i] = t
    budget = int(mst_cost(n, cost) * slack)
    return n, budget, length, cost, trips


def matrix(rows):
    return "[|" + "\n   |".join(", ".join(f"{x:3d}" for x in row) for row in rows) + " |]"


def write(path, inst, seed, slack):
    n, budget, length, cost, trips = inst
    with open(path, "w") as f:
        f.write(f"% bench/road/gen_road.py: seed {seed}, {n} towns, budget {slack} x spanning tree\n")
        f.write(f"n = {n};\nM = {M};\nbudget = {budget};\n")
        f.write(f"len = {matrix(length)};\n")
        f.write(f"cost = {matrix(cost)};\n")
        f.write(f"trips = {matrix(trips)};\n")


INSTANCES = [
    # name, seed, towns, budget / spanning-tree cost
    ("road9a", 2, 9, 1.3),
    ("road10a", 4, 10, 1.3),
    ("road11a", 8, 11, 1.2),
]

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for name, seed, n, slack in INSTANCES:
        write(os.path.join(here, name + ".dzn"), instance(seed, n, slack), seed, slack)
