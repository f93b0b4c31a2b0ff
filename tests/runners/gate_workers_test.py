#!/usr/bin/env python3
"""hlocheck run --workers N writes the report one process writes.

Runs the same gate on a deliberately faulty backend (so findings, shrunk,
are part of what must agree) with 1 and with 3 worker processes, and
compares the two report.json files, wall times aside; also with a shard of
a sharded run (worker w of W in shard I of N).

usage: gate_workers_test.py HLOCHECK_BINARY OUTPUT_DIR
"""
import json
import os
import shutil
import subprocess
import sys

ARGS = ["--backend", "faulty-slice-stride", "--ops", "slice,add,transpose,reduce,exponential",
        "--cases", "80", "--quiet"]


def report(hlocheck, out, *extra):
    result = subprocess.run([hlocheck, "run", *ARGS, *extra, "--out", out],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 1:
        print(result.stdout[-3000:])
        raise SystemExit(f"FAIL: run {' '.join(extra)} exited {result.returncode}, not 1")
    data = json.load(open(os.path.join(out, "report.json")))
    for key in ("seconds", "started_at", "command_line"):
        data.pop(key, None)
    for group in data["groups"]:
        group.pop("seconds")
    return data


def main():
    hlocheck, out = sys.argv[1], sys.argv[2]
    shutil.rmtree(out, ignore_errors=True)
    failures = 0
    for extra in ([], ["--shard", "1/2"]):
        one = report(hlocheck, os.path.join(out, "one"), *extra)
        three = report(hlocheck, os.path.join(out, "three"), "--workers", "3", *extra)
        if one != three:
            failures += 1
            for a, b in zip(one["groups"], three["groups"]):
                if a != b:
                    print(f"FAIL {extra}: {a['op']} {a['element_type']} differs")
                    break
            print(f"FAIL {extra}: totals {one['totals']} vs {three['totals']}, "
                  f"{len(one['groups'])} vs {len(three['groups'])} groups")
        else:
            print(f"same report with 1 and 3 workers {extra}: {one['totals']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
