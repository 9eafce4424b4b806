from pycsp3 import *

# SEND + MOST = MONEY, all letters different, MONEY as large as possible.
x = VarArray(size=8, dom=range(10))
s, e, n, d, m, o, t, y = x

satisfy(
    AllDifferent(x),
    s > 0,
    m > 0,
    [s, e, n, d] * [1000, 100, 10, 1] + [m, o, s, t] * [1000, 100, 10, 1]
    == [m, o, n, e, y] * [10000, 1000, 100, 10, 1],
)

maximize(
    [m, o, n, e, y] * [10000, 1000, 100, 10, 1]
)
