#!/usr/bin/env python3
"""Prints the hyperfine JSON exports in results/ as a Markdown table.

Usage: python3 bench/reference/summarize.py [results/*.json]
Median and min wall-clock time, mean user CPU time (hyperfine records no per-run
user times), number of runs.
"""
import json
import statistics
import sys
from pathlib import Path

files = [Path(f) for f in sys.argv[1:]] or sorted(
    (Path(__file__).parent / "results").glob("*.json")
)
print("| command | median wall (s) | min wall (s) | mean user (s) | runs |")
print("|---|---:|---:|---:|---:|")
for path in files:
    for r in json.loads(path.read_text())["results"]:
        command = r["command"].split("/")[-1]
        times = r["times"]
        print(
            f"| `{command}` | {statistics.median(times):.3f} | {min(times):.3f} "
            f"| {r['user']:.3f} | {len(times)} |"
        )
