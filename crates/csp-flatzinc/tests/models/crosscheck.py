#!/usr/bin/env python3
"""Brute-force cross-checks of the answers in expected.txt, in plain Python and independent
of csp (the remaining models are checked against the literature and Gecode, see
docs/minizinc.md). Run: python3 crosscheck.py"""
from itertools import permutations, product


def tdiv(a, b):  # MiniZinc div rounds towards zero
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def tmod(a, b):  # MiniZinc mod has the sign of the dividend
    return a - b * tdiv(a, b)


def arithmetic():
    count = 0
    for x, y, e in product(range(-6, 7), range(-6, 7), range(1, 5)):
        z = x * y
        ok = (tmod(z, 3) == 1 or tdiv(z, 4) == -2) and abs(x - y) >= 2 \
            and max(x, y) - min(x, y) <= 9 and y ** e <= 40 and (e == 2 or x > 0)
        count += ok
    return count


def knapsack01():
    weight = [5, 8, 3, 11, 7, 9, 4, 10]
    value = [9, 13, 5, 16, 10, 14, 6, 15]
    best = 0
    for take in product([0, 1], repeat=8):
        if sum(w * t for w, t in zip(weight, take)) <= 30:
            best = max(best, sum(v * t for v, t in zip(value, take)))
    return best


def knights_knaves():
    count = 0
    for p in product([False, True], repeat=6):
        p1, p2, p3, p4, p5, p6 = p
        ok = (p1 or p2 or not p3) and (p2 != p4) and (not p3 or (p5 and p6)) \
            and ((p1 == p5) or p6) and not (p1 and p2 and p3) and sum(p) <= 4 \
            and (p4 or p5 or p6) and (p1 or p6) and (p2 or p5 or p6)
        count += ok
    return count


def bool_lin():
    count = 0
    for b in product([0, 1], repeat=6):
        all_first = b[0] and b[1] and b[2]
        any_last = b[3] or b[4] or b[5]
        ok = sum(b) == 3 and 2 * b[0] + 3 * b[1] + b[5] <= 3 and not all_first \
            and (not any_last or not b[2])
        count += ok
    return count


def set_domains():
    count = 0
    for a, b, c in product([1, 3, 5, 7, 9], [2, 4, 6, 8], range(0, 11)):
        ok = c in (0, 5, 10) and ((7 <= a + b <= 11) == (c == 10)) \
            and (a in (1, 9) or b == 4) and a + b + c <= 21
        count += ok
    return count


def car_config():
    allowed = {(1, 1, 1), (1, 2, 1), (1, 3, 2), (2, 1, 2), (2, 2, 3), (3, 2, 3), (3, 3, 1)}
    pairs = {(1, 1), (2, 2), (2, 3), (3, 1), (3, 3)}
    count = 0
    for e, c, t, w in product(range(1, 4), repeat=4):
        count += (e, c, t) in allowed and (c, w) in pairs and (e != t or w == 3)
    return count


def assignment():
    cost = [[7, 5, 9, 8, 11], [9, 12, 7, 11, 10], [8, 5, 4, 6, 9], [7, 3, 6, 9, 6],
            [4, 6, 7, 5, 11]]
    return min(sum(cost[w][t] for w, t in enumerate(p)) for p in permutations(range(5)))


def magic_sequence():
    n = 7
    count = 0
    # s[i] <= n and sum(s) = n: enumerate compositions only.
    def rec(prefix, left):
        nonlocal count
        if len(prefix) == n:
            count += left == 0 and all(prefix[i] == prefix.count(i) for i in range(n))
            return
        for v in range(left + 1):
            rec(prefix + [v], left - v)
    rec([], n)
    return count


def all_interval():
    n = 8
    return sum(
        len({abs(x[i + 1] - x[i]) for i in range(n - 1)}) == n - 1
        for x in permutations(range(n)))


def langford():
    n = 7
    count = 0
    def rec(seq, k):
        nonlocal count
        if k == 0:
            count += 1
            return
        for i in range(2 * n - k - 1):
            if seq[i] == 0 and seq[i + k + 1] == 0:
                seq[i] = seq[i + k + 1] = k
                rec(seq, k - 1)
                seq[i] = seq[i + k + 1] = 0
    rec([0] * (2 * n), n)
    return count


def graph_colouring():
    edges = [(1, 2), (2, 3), (3, 4), (4, 5), (5, 1), (6, 8), (8, 10), (10, 7), (7, 9), (9, 6),
             (1, 6), (2, 7), (3, 8), (4, 9), (5, 10)]
    return sum(all(c[a - 1] != c[b - 1] for a, b in edges) for c in product(range(3), repeat=10))


def nqueens():
    n = 8
    return sum(len({q[i] + i for i in range(n)}) == n and len({q[i] - i for i in range(n)}) == n
               for q in permutations(range(n)))


def golomb():
    m = 6
    best = None
    def rec(marks, dists):
        nonlocal best
        if len(marks) == m:
            if (marks[1] - marks[0]) < (marks[-1] - marks[-2]) and (best is None or marks[-1] < best):
                best = marks[-1]
            return
        for nxt in range(marks[-1] + 1, (best if best is not None else m * m + 1)):
            new = {nxt - x for x in marks}
            if new.isdisjoint(dists):
                rec(marks + [nxt], dists | new)
    rec([0], set())
    return best


def jobshop():
    machine = [[1, 2, 3], [2, 1, 3], [2, 3, 1]]
    duration = [[3, 2, 2], [2, 4, 1], [4, 1, 3]]
    # Every optimal schedule is semi-active: enumerate the job order on each machine and
    # schedule each step as early as its job and machine predecessors allow.
    steps = {m: [(j, s) for j in range(3) for s in range(3) if machine[j][s] == m] for m in (1, 2, 3)}
    best = None
    for o1 in permutations(steps[1]):
        for o2 in permutations(steps[2]):
            for o3 in permutations(steps[3]):
                order = {1: o1, 2: o2, 3: o3}
                start = {}
                progress = True
                while progress and len(start) < 9:
                    progress = False
                    for j in range(3):
                        for s in range(3):
                            if (j, s) in start:
                                continue
                            if s > 0 and (j, s - 1) not in start:
                                continue
                            seq = order[machine[j][s]]
                            k = seq.index((j, s))
                            if k > 0 and seq[k - 1] not in start:
                                continue
                            t = 0
                            if s > 0:
                                t = start[(j, s - 1)] + duration[j][s - 1]
                            if k > 0:
                                pj, ps = seq[k - 1]
                                t = max(t, start[seq[k - 1]] + duration[pj][ps])
                            start[(j, s)] = t
                            progress = True
                if len(start) == 9:
                    span = max(start[(j, 2)] + duration[j][2] for j in range(3))
                    best = span if best is None else min(best, span)
    return best


def nurse_rostering():
    wish = [[1, 1, 0, 0, 2, 2, 0], [2, 2, 1, 1, 0, 0, 1], [0, 0, 2, 2, 1, 1, 1],
            [1, 0, 1, 0, 1, 2, 2]]
    days, nurses = 7, 4
    # Dynamic programming over days; state = (yesterday's shifts, shifts worked, had a day off).
    states = {(None, (0,) * nurses, (False,) * nurses): 0}
    for d in range(days):
        nxt = {}
        for (prev, worked, off), cost in states.items():
            for today in product(range(3), repeat=nurses):
                if today.count(2) != 1 or today.count(1) < 1:
                    continue
                if prev is not None and any(p == 2 and t == 1 for p, t in zip(prev, today)):
                    continue
                w = tuple(x + (t != 0) for x, t in zip(worked, today))
                if max(w) > 5:
                    continue
                o = tuple(x or t == 0 for x, t in zip(off, today))
                c = cost + sum(t != wish[n][d] for n, t in enumerate(today))
                key = (today, w, o)
                if c < nxt.get(key, 1 << 30):
                    nxt[key] = c
        states = nxt
    return min(c for (_, _, o), c in states.items() if all(o))


def builtins_int_cmp():
    count = 0
    for a, b, c, d in product(range(-2, 3), range(-2, 3), range(0, 4), range(1, 4)):
        count += a <= c and b < c and a != b and d == c and -2 < b and a <= 1 and b != 2
    return count


def builtins_int_lin():
    count = 0
    for x, y, z in product(range(4), repeat=3):
        count += 2 * x - y + 3 * z <= 8 and x + y != 3 and 0 <= x + y <= 6
    return count


def builtins_int_arith():
    count = 0
    for a, b, e in product(range(-3, 4), range(-3, 4), range(0, 4)):
        if b == 0:  # div and mod by zero have no result
            continue
        d = tdiv(a, b)
        results = [a + b, a * b, abs(a), d, tmod(a, b), min(a, b), max(a, b), a ** e]
        domains = [(-6, 6), (-9, 9), (0, 3), (-3, 3), (-3, 3), (-3, 3), (-3, 3), (-27, 27)]
        count += all(lo <= r <= hi for r, (lo, hi) in zip(results, domains))
    return count


def builtins_element():
    t = [3, -1, 3, 7]
    first = sum(-5 <= t[i] <= 8 for i in range(4))
    second = sum(x1 != x2 and 1 <= [x1, x2, x3][j] <= 3
                 for j, x1, x2, x3 in product(range(3), range(1, 4), range(1, 4), range(2, 4)))
    third = 3
    fourth = 2 * 4
    return first * second * third * fourth


def builtins_bool():
    count = 0
    for a, b, c, d, e, f, g in product([0, 1], repeat=7):
        count += (d ^ e) and f == 1 - a and g == (a and b) and a <= c and f < (a or c) \
            and (a or d or not b) and (a ^ b ^ c ^ d) == 1 and 2 * d + e + f <= 2
    return count


def builtins_set_in():
    count = 0
    for x, y, z in product(range(10), range(-3, 4), [-1, 4, 6]):
        count += x in (1, 3, 5, 8) and -2 <= y <= 2 and 0 <= z <= 9
    return count * 1  # r and s are functions of x and y


def exam_capacity():
    clash = [(1, 2), (1, 3), (1, 4), (1, 8), (2, 3), (2, 5), (2, 6),
             (3, 5), (3, 7), (4, 5), (4, 8), (5, 6), (5, 8), (6, 7)]
    count = 0
    for slot in product(range(1, 5), repeat=8):
        count += all(slot[a - 1] != slot[b - 1] for a, b in clash) \
            and all(slot.count(s) <= 2 for s in range(1, 5))
    return count  # each load is a function of the slots


def builtins_count():
    count = 0
    for xs in product(range(1, 4), repeat=3):
        count += xs.count(1) <= 1 and xs.count(3) >= 1 and xs.count(3) == 1
    return count  # k is a function of the xs
def _circuit(nxt):
    seen, at = set(), 0
    while at not in seen:
        seen.add(at)
        at = nxt[at]
    return len(seen) == len(nxt) and at == 0


def routing():
    circuits = sum(1 for p in product(range(5), repeat=5) if _circuit(p) and p[0] != 1)
    inverses = sum(1 for f in permutations(range(1, 5)) if f[0] < f[1])  # g = f^-1
    return circuits * inverses


def sequences():
    d = {1: {1: 1, 2: 2, 3: 3}, 2: {1: 1, 3: 3}, 3: {1: 1, 2: 2, 3: 3}}

    def accepts(w):
        q = 1
        for s in w:
            if s not in d[q]:
                return False
            q = d[q][s]
        return q == 1

    count = 0
    for x in product(range(1, 4), repeat=5):
        if accepts(x) and list(x) <= list(reversed(x)) and x.count(2) >= 1 and x.count(3) <= 1:
            count += sum(1 for v in range(1, 4) if x.count(v) >= 2)  # c and k follow
    return count


def scheduling():
    dur, need, best = [3, 2, 2, 4], [1, 1, 2, 1], None
    for s in product(range(11), repeat=4):
        if not (s[0] + 3 <= s[1] or s[1] + 2 <= s[0]):
            continue
        if all(sum(need[i] for i in range(4) if s[i] <= t < s[i] + dur[i]) <= 2
               for t in range(15)):
            m = max(s[i] + dur[i] for i in range(4))
            best = m if best is None else min(best, m)
    return best


def set_vars():
    sets = {frozenset(c) for c in product(range(1, 6), repeat=2)}
    return sum(len(s) for s in sets if len(s) == 2 and 1 in s and 2 not in s)


def steiner_sets():
    # Sets of 7 triples of 1..7, any two sharing at most one point (each
    # system once): the labelled Steiner triple systems on 7 points.
    from itertools import combinations
    triples = [frozenset(t) for t in combinations(range(1, 8), 3)]

    def extend(start, chosen):
        if len(chosen) == 7:
            return 1
        return sum(extend(k + 1, chosen + [t]) for k, t in enumerate(triples)
                   if k >= start and all(len(t & c) <= 1 for c in chosen))
    return extend(0, [])


def tables():
    allowed = {(0, 1, 2), (1, 1, 1), (2, 2, 0), (3, 0, 1), (1, 3, 3), (0, 0, 0), (2, 1, 3)}
    forbidden = {(0, 1, 1), (1, 2, 2), (2, 3, 4), (0, 2, 1), (1, 1, 4)}
    pairs = {(1, 0), (1, 1), (2, 2), (3, 3), (4, 1), (4, 0)}
    count = 0
    for x in product(range(4), repeat=3):
        for y in product(range(1, 5), repeat=2):
            count += x in allowed and (x[0], y[0], y[1]) not in forbidden \
                and (y[0], x[1]) in pairs
    return count  # b follows from x[3] and y[2]


def count_forms():
    # MiniZinc's count_leq(x, y, c) says c <= count(x = y), and so on.
    count = 0
    for x in product(range(3), repeat=4):
        for y, z, c in product(range(3), range(3), range(5)):
            k = x.count
            count += (k(y) == c and 1 <= k(z) and 2 >= k(z) and 0 < k(y)
                      and c > k(2) and y != k(z))
    magic = sum(all(s[i] == s.count(i) for i in range(5))
                for s in product(range(5), repeat=5))
    return count * magic


def count_reif():
    count = 0
    for x in product(range(3), repeat=4):
        for y, c, b in product(range(3), range(5), (False, True)):
            k = x.count
            count += (b == (k(y) == c) and (y == 0 or k(y) >= 2)
                      and (x[0] == 0 or k(x[0]) <= 2) and not k(2) < c - 2
                      and (k(y) != 1 or k(0) > 2))
    return count


def reified_decompositions():
    subsets = [frozenset(c) for c in ([], [1], [2], [1, 2])]
    count = 0
    for x in product((1, 2), repeat=3):
        for n, s, t, bs, card in product(range(4), subsets, subsets,
                                         product((False, True), repeat=2),
                                         product(range(4), repeat=2)):
            truths = (n == len(set(x)), n == x.count(1),
                      all(bs[i - 1] == (i in s) for i in (1, 2)), not (s & t),
                      t == frozenset(x[i - 1] for i in s),
                      x.count(1) <= 2 and x.count(2) <= 2,
                      card == (x.count(1), x.count(2)))
            count += sum(truths) == 3
    return count


def min_max():
    count = 0
    for x in product(range(-3, 7), repeat=4):
        lo, hi = min(x), max(x)
        count += (x[0] in (-3, 0, 2, 5) and hi - lo == 4 and lo >= -2
                  and max(x[0], x[1]) <= min(x[2], x[3]) + 1)
    return count


if __name__ == "__main__":
    for check in [arithmetic, knapsack01, knights_knaves, bool_lin, set_domains, car_config,
                  assignment, magic_sequence, all_interval, langford, graph_colouring, nqueens,
                  golomb, jobshop, nurse_rostering, builtins_int_cmp,
                  builtins_int_lin, builtins_int_arith, builtins_element, builtins_bool,
                  builtins_set_in, builtins_count, exam_capacity, routing, sequences,
                  scheduling, set_vars, steiner_sets, tables, count_forms, count_reif,
                  reified_decompositions, min_max]:
        print(check.__name__, check())
