"""Ctrl-C: SIGINT stops a long count within a bound and raises KeyboardInterrupt."""

import signal
import subprocess
import sys
import time

import pytest

SCRIPT = r"""
import sys, time
from csp_rs import Model, Solver
m = Model()
n = 20
q = m.int_vars(n, 0, n - 1, "q")
for i in range(n):
    for j in range(i + 1, n):
        m.add(q[i] != q[j], q[i] != q[j] + (j - i), q[i] != q[j] - (j - i))
KIND = sys.argv[1]
if KIND == "python":
    m.predicate(q[:2], lambda a, b: True)
print("ready", flush=True)
try:
    if KIND == "iterate":
        for _ in Solver(m, strategy="check").solutions():
            pass
    else:
        Solver(m, strategy="check").count()
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", time.time(), flush=True)
    sys.exit(3)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
@pytest.mark.parametrize("kind", ["count", "iterate", "python"])
def test_sigint_stops_a_long_search(kind):
    p = subprocess.Popen([sys.executable, "-c", SCRIPT, kind], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(0.3)  # the search is running
        sent = time.time()
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=10)
    finally:
        p.kill()
    word, caught = out.split()
    assert word == "interrupted" and p.returncode == 3
    # From the signal to the KeyboardInterrupt caught in the script: the wait
    # polls every 20 ms (docs/python.md); the bound leaves room for a loaded machine.
    assert float(caught) - sent < 0.5, float(caught) - sent
