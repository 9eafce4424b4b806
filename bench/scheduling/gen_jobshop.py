#!/usr/bin/env python3
"""Random job shops (Taillard-like: each job visits every machine once in a
random order, durations 1..20) in the data format of the shared set's
jobshop.mzn and of jobshop_disjunctive.mzn. Fixed seeds: reproducible.

    python3 bench/scheduling/gen_jobshop.py   # writes bench/scheduling/js*.dzn
"""
import os
import random


def write(path, seed, n_jobs, n_machines):
    rnd = random.Random(seed)
    machine = [rnd.sample(range(n_machines), n_machines) for _ in range(n_jobs)]
    duration = [[rnd.randint(1, 20) for _ in range(n_machines)] for _ in range(n_jobs)]
    with open(path, "w") as f:
        f.write(f"n_jobs = {n_jobs};\nn_machines = {n_machines};\n")
        f.write("job_task_machine = array2d(jobs, tasks, ["
                + ", ".join(str(x) for row in machine for x in row) + "]);\n")
        f.write("job_task_duration = array2d(jobs, tasks, ["
                + ", ".join(str(x) for row in duration for x in row) + "]);\n")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for name, seed, n_jobs, n_machines in [
        ("js6x6", 100, 6, 6),
        ("js8x6", 101, 8, 6),
        ("js10x5", 102, 10, 5),
        ("js8x8", 103, 8, 8),
    ]:
        write(os.path.join(here, name + ".dzn"), seed, n_jobs, n_machines)
