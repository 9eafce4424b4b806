"""Writes a random table model: python3 random_tables.py SEED VARS DOM TABLES ARITY TUPLES > model.mzn

Every constraint is a positive table over ARITY distinct random variables with
TUPLES random distinct tuples over 0..DOM-1, so any solver that filters each
table to generalised arc consistency walks the same tree (input order, min value).
"""
import random, sys
seed, n, dom, m, arity, k = map(int, sys.argv[1:7])
rng = random.Random(seed)
print(f"% random_tables.py {' '.join(sys.argv[1:7])}")
print('include "table.mzn";')
print(f"array[1..{n}] of var 0..{dom - 1}: x;")
for _ in range(m):
    scope = rng.sample(range(1, n + 1), arity)
    tuples = set()
    while len(tuples) < k:
        tuples.add(tuple(rng.randrange(dom) for _ in range(arity)))
    rows = " | ".join(", ".join(map(str, t)) for t in sorted(tuples))
    print(f"constraint table([{', '.join(f'x[{i}]' for i in scope)}], [| {rows} |]);")
print("solve :: int_search(x, input_order, indomain_min, complete) satisfy;")
