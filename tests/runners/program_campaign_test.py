#!/usr/bin/env python3
"""hlocheck fuzz --programs: a campaign of multi-op programs in the findings
store; hlocheck replay of a program file. A faulty program backend's findings are stored shrunk, each with a
`hlocheck programs` command that finds it again; the CPU backend gives
none; a second run on the store resumes it; a store of a single-op campaign
refuses a programs campaign (a store holds one campaign)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def check(condition, message):
    if not condition:
        print("FAILED: " + message)
        sys.exit(1)


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=300, **kwargs)


def main():
    hlocheck, root = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="program-campaign-")
    try:
        store = os.path.join(work, "faulty")
        common = ["fuzz", "--programs", "--seed", "1", "--workers", "2", "--store", store]
        result = run([hlocheck, *common, "--backend", "faulty-program-update-in-place",
                      "--cases", "150"], cwd=root)
        check(result.returncode == 1, "a faulty backend's campaign exits 1, got %d: %s%s"
              % (result.returncode, result.stdout, result.stderr))
        check("150 cases" in result.stdout, "150 programs counted: " + result.stdout)
        listed = run([hlocheck, "findings", "list", "--store", store])
        check(listed.returncode == 0 and "mismatch" in listed.stdout,
              "the findings list them: " + listed.stdout)
        shown = run([hlocheck, "findings", "show", "1", "--store", store])
        check("func.func @main" in shown.stdout, "a shrunk reproducer is stored: " + shown.stdout)
        command = re.search(r"command: build/hlocheck (programs .*)", shown.stdout)
        check(command is not None, "a command finds it again: " + shown.stdout)
        again = run([hlocheck, *command.group(1).split(), "--out", os.path.join(work, "again")],
                    cwd=root)
        check(again.returncode == 1 and "finding 1" in again.stdout,
              "the stored command finds it again: " + again.stdout + again.stderr)

        # Resumed: the same campaign, a larger budget, counts only grow.
        resumed = run([hlocheck, *common, "--backend", "faulty-program-update-in-place",
                       "--cases", "200"], cwd=root)
        check("200 cases" in resumed.stdout, "the second run resumes to 200: " + resumed.stdout)

        clean = os.path.join(work, "cpu")
        result = run([hlocheck, "fuzz", "--programs", "--seed", "1", "--workers", "2", "--store",
                      clean, "--backend", "cpu", "--cases", "120"], cwd=root)
        check(result.returncode == 0 and "0 distinct finding" in result.stdout,
              "the CPU backend passes 120 programs: " + result.stdout + result.stderr)

        single = os.path.join(work, "single")
        result = run([hlocheck, "fuzz", "--store", single, "--cases", "3", "--ops", "add",
                      "--types", "f32"], cwd=root)
        check(result.returncode == 0, "a single-op campaign runs: " + result.stdout + result.stderr)
        result = run([hlocheck, "fuzz", "--programs", "--store", single, "--cases", "3"], cwd=root)
        check(result.returncode == 2, "its store refuses a programs campaign: " + result.stdout +
              result.stderr)
        # A program file replays as a program, its constants as arguments
        # by default (as the run had them) or as constants.
        program = os.path.join(work, "nan.mlir")
        with open(program, "w") as f:
            f.write('func.func @main() -> (tensor<2xf32>) {\n'
                    '  %0 = "stablehlo.constant"() {value = dense<[0x7FC00000, 1.0]> : '
                    'tensor<2xf32>} : () -> tensor<2xf32>\n'
                    '  %1 = "stablehlo.subtract"(%0, %0) : (tensor<2xf32>, tensor<2xf32>) -> '
                    'tensor<2xf32>\n'
                    '  %2 = "stablehlo.abs"(%1) : (tensor<2xf32>) -> tensor<2xf32>\n'
                    '  "func.return"(%2) : (tensor<2xf32>) -> ()\n}\n')
        ok = run([hlocheck, "replay", "--backend", "cpu", program], cwd=root)
        check(ok.returncode == 0 and "pass" in ok.stdout and "as arguments" in ok.stdout,
              "the CPU backend passes the program: " + ok.stdout + ok.stderr)
        for inputs in ["arguments", "constants"]:
            bad = run([hlocheck, "replay", "--backend", "faulty-program-fold-self-subtract",
                       "--inputs", inputs, program], cwd=root)
            check(bad.returncode == 1 and "mismatch" in bad.stdout,
                  "x - x folded to 0 fails with " + inputs + ": " + bad.stdout + bad.stderr)
        print("program campaign: OK")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
