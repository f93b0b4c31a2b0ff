#!/usr/bin/env python3
"""What a campaign costs over the bare gate loop, and cases per second.

For each op family (a few representative ops each), in this one session:
the gate (`hlocheck run`, one process) over N cases per group, then a
campaign (`hlocheck fuzz --workers 1`) over the same number of cases, each
case claimed and completed in the SQLite store by a worker process. Prints
cases per second of both and the campaign's overhead as the ratio of the two
(these machines are noisy: the ratio, measured side by side, is the figure).

usage: bench/campaign_overhead.py [--cases N] [--hlocheck PATH]
"""
import argparse
import json
import os
import re
import subprocess
import tempfile
import time

FAMILIES = {
    "elementwise": "add,multiply,exponential,compare,convert",
    "data movement": "transpose,slice,concatenate,broadcast_in_dim,gather",
    "reduction": "reduce,dot_general,reduce_window",
    "sort/scatter": "sort,scatter",
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=200, help="cases per group")
    parser.add_argument("--hlocheck", default=os.path.join(os.path.dirname(__file__), "..",
                                                           "build", "hlocheck"))
    args = parser.parse_args()
    print(f"{'family':15} {'groups':>6} {'gate cases/s':>13} {'campaign cases/s':>17} "
          f"{'overhead':>9}")
    with tempfile.TemporaryDirectory() as out:
        for family, ops in FAMILIES.items():
            start = time.monotonic()
            subprocess.run([args.hlocheck, "run", "--ops", ops, "--cases", str(args.cases),
                            "--quiet", "--out", f"{out}/gate"], stdout=subprocess.DEVNULL)
            gate_seconds = time.monotonic() - start
            report = json.load(open(f"{out}/gate/report.json"))
            groups = len(report["groups"])
            cases = report["totals"]["cases"]
            store = f"{out}/store-{family.replace(' ', '_').replace('/', '_')}"
            # The campaign's first groups x cases cases: round 0 of the
            # same groups, in another order.
            start = time.monotonic()
            subprocess.run([args.hlocheck, "fuzz", "--ops", ops, "--cases",
                            str(groups * args.cases), "--workers", "1", "--store", store],
                           stdout=subprocess.DEVNULL)
            fuzz_seconds = time.monotonic() - start
            gate_rate = cases / gate_seconds
            fuzz_rate = groups * args.cases / fuzz_seconds
            print(f"{family:15} {groups:6} {gate_rate:13.0f} {fuzz_rate:17.0f} "
                  f"{gate_rate / fuzz_rate:8.2f}x", flush=True)


if __name__ == "__main__":
    main()
