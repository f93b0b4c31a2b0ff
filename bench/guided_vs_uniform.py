#!/usr/bin/env python3
"""Guided against uniform campaigns on a fault that only a rare feature
combination shows.

The planted fault (backend faulty-add-scalar-extreme): integer add of two
scalars one too large when the left operand is its type's extreme value.
For each of --seeds seeds, a uniform and a guided campaign (`hlocheck fuzz
[--guided] --workers 1 --stop-after-findings 1`) on the same plan run until
the fault is found (or --budget); printed per seed: the cases and seconds
each took, then the medians and their ratios. Same seeds, same plan, same
budget, in this one session.

usage: bench/guided_vs_uniform.py [--seeds N] [--budget SECONDS] [--ops LIST] [--types LIST]
"""
import argparse
import os
import sqlite3
import statistics
import subprocess
import tempfile

OPS = ("add,subtract,multiply,maximum,minimum,and,or,xor,compare,select,clamp,abs,negate,"
       "shift_left,remainder")
TYPES = "si8,si16,si32,si64,ui8,ui16,ui32,ui64"


def campaign(hlocheck, store, seed, guided, args):
    command = [hlocheck, "fuzz", "--backend", "faulty-add-scalar-extreme", "--ops", args.ops,
               "--types", args.types, "--seed", str(seed), "--workers", "1",
               "--stop-after-findings", "1", "--budget", f"{args.budget}s", "--store", store]
    if guided:
        command.append("--guided")
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = sqlite3.connect(os.path.join(store, "findings.sqlite"))
    start = db.execute("SELECT MIN(time) FROM progress").fetchone()[0]
    found = db.execute("SELECT first_unit, first_seen FROM findings WHERE op = 'add' "
                       "ORDER BY first_seen LIMIT 1").fetchone()
    cases = dict(db.execute("SELECT name, value FROM counters"))["cases"]
    db.close()
    if found is None:
        return None, None, cases
    return found[0] + 1, found[1] - start, cases


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--budget", type=int, default=120)
    parser.add_argument("--ops", default=OPS)
    parser.add_argument("--types", default=TYPES)
    parser.add_argument("--hlocheck", default=os.path.join(os.path.dirname(__file__), "..",
                                                           "build", "hlocheck"))
    args = parser.parse_args()
    results = {False: [], True: []}
    print(f"{'seed':>4} {'uniform cases':>14} {'s':>7} {'guided cases':>13} {'s':>7}")
    with tempfile.TemporaryDirectory() as out:
        for seed in range(1, args.seeds + 1):
            row = []
            for guided in (False, True):
                store = os.path.join(out, f"{seed}-{guided}")
                cases, seconds, ran = campaign(args.hlocheck, store, seed, guided, args)
                # Not found within the budget: counted as the whole budget.
                results[guided].append((cases if cases else ran, seconds if seconds else
                                        float(args.budget)))
                row += [f"{cases if cases else '>' + str(ran):>13}",
                        f"{seconds if seconds else float(args.budget):7.2f}"]
            print(f"{seed:>4} {row[0]:>14} {row[1]} {row[2]} {row[3]}", flush=True)
    med = {g: (statistics.median(c for c, _ in results[g]),
               statistics.median(s for _, s in results[g])) for g in results}
    print(f"median: uniform {med[False][0]:.0f} cases, {med[False][1]:.2f} s; guided "
          f"{med[True][0]:.0f} cases, {med[True][1]:.2f} s; guided finds it "
          f"{med[False][0] / med[True][0]:.2f}x sooner in cases, "
          f"{med[False][1] / med[True][1]:.2f}x in time")


if __name__ == "__main__":
    main()
