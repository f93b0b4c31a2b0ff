#!/usr/bin/env python3
"""A fuzzing campaign survives kill -9.

Runs a reference campaign (one worker, never interrupted), then the same
campaign with two workers on another store, killed with SIGKILL 20 times at
random moments: the campaign process itself (its workers die with it) or one
of its workers (the campaign requeues that worker's case and starts another).
After every kill the store must pass PRAGMA integrity_check, its counters
must not have gone backwards and must add up. Run to its end, the killed
campaign must have exactly the reference's totals and findings (signature
and count): at most the cases in flight were lost, and they were run again.
Last, a worker that dies of SIGSEGV on a case makes that case a
"backend crash" finding.

usage: campaign_kill_test.py HLOCHECK_BINARY OUTPUT_DIR
"""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

ARGS = ["--backend", "faulty-transpose-swap", "--ops", "transpose,add,slice,reverse",
        "--cases", "200000", "--seed", "7"]
KILLS = 20

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)


def counters(store):
    db = sqlite3.connect(os.path.join(store, "findings.sqlite"), timeout=60)
    try:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        values = dict(db.execute("SELECT name, value FROM counters"))
        findings = sorted(db.execute("SELECT signature, count FROM findings"))
    finally:
        db.close()
    return integrity, values, findings


def children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(entry))
        except (OSError, IndexError, ValueError):
            pass
    return found


def main():
    hlocheck, out = sys.argv[1], sys.argv[2]
    subprocess.run(["rm", "-rf", out], check=True)
    os.makedirs(out)
    rng = random.Random(20261128)
    reference, killed = os.path.join(out, "reference"), os.path.join(out, "killed")

    result = subprocess.run([hlocheck, "fuzz", *ARGS, "--workers", "1", "--store", reference],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(result.returncode == 1, f"the reference campaign exited {result.returncode}, not 1 "
          f"(a finding): {result.stdout[-2000:]}")
    _, want, want_findings = counters(reference)
    check(want["cases"] == 200000 and want["failed"] > 0,
          f"the reference campaign ran {want.get('cases')} cases, {want.get('failed')} failing")

    previous = None
    kills = 0
    while kills < KILLS:
        campaign = subprocess.Popen([hlocheck, "fuzz", *ARGS, "--workers", "2", "--store", killed],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0.1, 0.5))
        if campaign.poll() is not None:
            break  # finished before this kill: the campaign is done
        if kills % 2 == 1:
            workers = children(campaign.pid)
            if workers:
                os.kill(rng.choice(workers), signal.SIGKILL)
                time.sleep(rng.uniform(0.05, 0.3))
        if campaign.poll() is None:
            campaign.kill()  # SIGKILL; its workers die with it (PR_SET_PDEATHSIG)
        campaign.wait()
        kills += 1
        time.sleep(0.05)
        try:
            integrity, now, _ = counters(killed)
        except sqlite3.OperationalError as error:
            # Killed while starting, before its store was made (a loaded
            # machine starts slower than the first kill's 0.1-0.5 s): there
            # is nothing to check yet. Once a store exists, it must open.
            check(previous is None, f"kill {kills}: the store does not open: {error}")
            print(f"kill {kills}: before the store was made ({error})")
            continue
        check(integrity == "ok", f"kill {kills}: integrity_check says {integrity}")
        total = now["passed"] + now["failed"] + now["deviating"] + now["skipped"] + \
            now["differs_from_convention"]
        check(total == now["cases"] == now["units_done"],
              f"kill {kills}: counters do not add up: {now}")
        if previous is not None:
            for name, value in previous.items():
                check(now[name] >= value, f"kill {kills}: {name} went back from {value} to "
                      f"{now[name]}")
        previous = now
    print(f"{kills} kills; then the campaign runs to its end")
    result = subprocess.run([hlocheck, "fuzz", *ARGS, "--workers", "2", "--store", killed],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(result.returncode == 1, f"the resumed campaign exited {result.returncode}: "
          f"{result.stdout[-2000:]}")
    integrity, got, got_findings = counters(killed)
    check(integrity == "ok", f"at the end: integrity_check says {integrity}")
    for name in ("cases", "passed", "failed", "deviating", "skipped", "units_done"):
        check(got[name] == want[name], f"{name}: {got[name]} after the kills, {want[name]} "
              f"uninterrupted")
    check(got_findings == want_findings,
          f"the findings differ from the uninterrupted campaign's: "
          f"{set(got_findings) ^ set(want_findings)}")
    check(kills >= KILLS, f"only {kills} kills happened before the campaign finished")

    # A worker that dies of a signal other than SIGKILL: a crash finding.
    crashed = os.path.join(out, "crash")
    crash_args = ["--backend", "cpu", "--ops", "dot_general", "--seed", "3", "--budget", "20s"]
    found = False
    for attempt in range(10):
        campaign = subprocess.Popen([hlocheck, "fuzz", *crash_args, "--workers", "1", "--store",
                                     crashed], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        for worker in children(campaign.pid):
            os.kill(worker, signal.SIGSEGV)
        time.sleep(0.5)
        campaign.kill()
        campaign.wait()
        try:
            db = sqlite3.connect(os.path.join(crashed, "findings.sqlite"), timeout=60)
            rows = db.execute("SELECT kind, summary, details FROM findings").fetchall()
            db.close()
        except sqlite3.OperationalError as error:
            print(f"attempt {attempt}: no store yet ({error}); again")  # a slow start
            continue
        if any(kind == "backend crash" and "signal 11" in details for kind, _, details in rows):
            found = True
            break
    check(found, "a worker killed by SIGSEGV on a case left no backend crash finding")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
