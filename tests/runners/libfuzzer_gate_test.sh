#!/usr/bin/env bash
# The gate as a libFuzzer target finds a planted fault: build/hlocheck-libfuzzer
# on a deliberately faulty backend, for at most 30 s, must stop with a crash
# file and the shrunk reproducer on stderr, and the crash file must fail
# again alone; on the CPU adapter 10 s must pass without a crash.
# Usage: libfuzzer_gate_test.sh FUZZER OUTPUT_DIR
set -uo pipefail
fuzzer=$1
out=$2
rm -rf "$out" && mkdir -p "$out"
HLOCHECK_FUZZ_BACKEND=faulty-transpose-swap HLOCHECK_FUZZ_OPS=transpose,add,slice \
  "$fuzzer" -max_total_time=30 -seed=20261128 -artifact_prefix="$out/" > "$out/faulty.log" 2>&1
status=$?
crash=$(ls "$out"/crash-* 2> /dev/null | head -1)
if [ "$status" -eq 0 ] || [ -z "$crash" ]; then
  tail -20 "$out/faulty.log"
  echo "FAIL: no crash file after 30 s on faulty-transpose-swap (exit $status)"
  exit 1
fi
if ! grep -q "=== hlocheck: mismatch: transpose" "$out/faulty.log" ||
   ! grep -q "^replay: build/hlocheck replay --backend faulty-transpose-swap hlocheck" "$out/faulty.log"; then
  tail -20 "$out/faulty.log"
  echo "FAIL: the crash did not print the finding and its replay command"
  exit 1
fi
# The crash file is the input: run again on it alone, it fails again.
if HLOCHECK_FUZZ_BACKEND=faulty-transpose-swap HLOCHECK_FUZZ_OPS=transpose,add,slice \
     "$fuzzer" "$crash" > "$out/rerun.log" 2>&1; then
  echo "FAIL: the crash file does not fail again"
  exit 1
fi
# The correct backend: 10 s without a crash.
if ! HLOCHECK_FUZZ_OPS=transpose,add,slice "$fuzzer" -max_total_time=10 -seed=1 \
     -artifact_prefix="$out/clean-" > "$out/clean.log" 2>&1; then
  tail -20 "$out/clean.log"
  echo "FAIL: the CPU adapter crashed the fuzzer"
  exit 1
fi
echo "found $(basename "$crash") on faulty-transpose-swap; $(grep -o 'Done [0-9]* runs' "$out/clean.log") clean on cpu"
