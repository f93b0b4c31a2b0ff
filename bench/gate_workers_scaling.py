#!/usr/bin/env python3
"""The gate's scaling with worker processes (hlocheck run --workers N).

Runs the same gate with 1 and with N workers, alternated REPEATS times in
this one session (these machines are noisy), prints every wall time, the
ratio of the best times, and whether the two reports' totals are identical
(they must be). The default ops are elementwise groups; --ops overrides.

usage: bench/gate_workers_scaling.py [--workers N] [--repeats R] [--ops LIST]
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

ELEMENTWISE = ("add,multiply,subtract,divide,maximum,minimum,compare,convert,abs,negate,select,"
               "and,or,xor,clamp,remainder,power,sqrt,floor,round_nearest_even")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--ops", default=ELEMENTWISE)
    parser.add_argument("--hlocheck", default=os.path.join(os.path.dirname(__file__), "..",
                                                           "build", "hlocheck"))
    args = parser.parse_args()
    times = {1: [], args.workers: []}
    with tempfile.TemporaryDirectory() as out:
        for _ in range(args.repeats):
            for w in (1, args.workers):
                start = time.monotonic()
                subprocess.run([args.hlocheck, "run", "--ops", args.ops, "--cases", "1000",
                                "--quiet", "--workers", str(w), "--out", f"{out}/w{w}"],
                               stdout=subprocess.DEVNULL, check=False)
                times[w].append(time.monotonic() - start)
                print(f"workers {w}: {times[w][-1]:.2f} s", flush=True)
        totals = [json.load(open(f"{out}/w{w}/report.json"))["totals"] for w in times]
    one, many = min(times[1]), min(times[args.workers])
    print(f"best: 1 worker {one:.2f} s, {args.workers} workers {many:.2f} s: "
          f"{one / many:.2f}x; totals {'identical' if totals[0] == totals[1] else 'DIFFER'}")


if __name__ == "__main__":
    main()
