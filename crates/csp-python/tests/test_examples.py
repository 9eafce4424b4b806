"""The programs of examples/python run and print what they should."""

import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / "examples" / "python"


def run(name, *args):
    script = EXAMPLES / name
    if not script.exists():
        pytest.skip(f"{script} is not in this checkout")
    return subprocess.run([sys.executable, str(script), *args], check=True, capture_output=True,
                          text=True, timeout=120).stdout


def test_nqueens():
    out = run("nqueens.py", "8")
    assert "native: 92 solutions" in out and "csp_rs.constraint: 92 solutions" in out


def test_send_more():
    assert "9567 + 1085 = 10652" in run("send_more.py")


def test_timetable():
    out = run("timetable.py")
    assert "optimal: 5 of 5" in out
    assert len([line for line in out.splitlines() if "(" in line and ")" in line]) == 6
