"""SEND + MORE = MONEY: one linear equation and all-different digits.

    python examples/python/send_more.py
"""

from csp_rs import Model, Solver


def main() -> None:
    m = Model()
    s, e, n, d, o, r, y = (m.int_var(0, 9, c) for c in "sendory")
    mm = m.int_var(1, 9, "m")
    m.add(s >= 1)
    m.all_different([s, e, n, d, mm, o, r, y])
    send = 1000 * s + 100 * e + 10 * n + d
    more = 1000 * mm + 100 * o + 10 * r + e
    money = 10000 * mm + 1000 * o + 100 * n + 10 * e + y
    m.add(send + more == money)
    solver = Solver(m, strategy="propagators+first-fail")
    sols = list(solver.solutions())
    assert len(sols) == 1
    sol = sols[0]
    print(f"{sol[send]} + {sol[more]} = {sol[money]}")
    print("stats:", {k: solver.stats[k] for k in ("nodes", "failures", "solutions")})


if __name__ == "__main__":
    main()
