#!/usr/bin/env bash
# The gate as an AFL++ target finds a planted fault: build/hlocheck-afl under
# afl-fuzz on a deliberately faulty backend, until its first crash (at most
# 30 s), must leave a crash file that fails again alone and prints the
# finding and its replay command; on the CPU adapter 5 s leave none.
# Usage: afl_gate_test.sh FUZZER OUTPUT_DIR   (exit 77, skipped, without afl-fuzz)
set -uo pipefail
fuzzer=$1
out=$2
if ! command -v afl-fuzz > /dev/null; then
  echo "afl-fuzz (Debian's afl++) is not installed; skipped"
  exit 77
fi
rm -rf "$out" && mkdir -p "$out/seeds"
printf '\x00\x00\x00\x00' > "$out/seeds/first"
printf '\x01\x00\x05\x00seed' > "$out/seeds/other"
afl() {
  AFL_MAP_SIZE=65536 AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 \
    AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 HLOCHECK_FUZZ_OPS=transpose,add,slice \
    afl-fuzz -i "$out/seeds" -s 20261129 -t 1000+ "$@"
}
HLOCHECK_FUZZ_BACKEND=faulty-transpose-swap AFL_BENCH_UNTIL_CRASH=1 \
  afl -o "$out/faulty" -V 30 -- "$fuzzer" > "$out/faulty.log" 2>&1
crash=$(find "$out/faulty/default/crashes" -name 'id:*' 2> /dev/null | head -1)
if [ -z "$crash" ]; then
  tail -20 "$out/faulty.log"
  echo "FAIL: no crash file after 30 s on faulty-transpose-swap"
  exit 1
fi
# The crash file is the input: alone it fails again, printing the finding.
if HLOCHECK_FUZZ_BACKEND=faulty-transpose-swap HLOCHECK_FUZZ_OPS=transpose,add,slice \
     "$fuzzer" "$crash" > "$out/rerun.log" 2>&1; then
  echo "FAIL: the crash file does not fail again"
  exit 1
fi
if ! grep -q "=== hlocheck: mismatch: transpose" "$out/rerun.log" ||
   ! grep -q "^replay: build/hlocheck replay --backend faulty-transpose-swap hlocheck" \
     "$out/rerun.log"; then
  tail -20 "$out/rerun.log"
  echo "FAIL: the crash did not print the finding and its replay command"
  exit 1
fi
# The correct backend: 5 s, no crash file.
afl -o "$out/clean" -V 5 -- "$fuzzer" > "$out/clean.log" 2>&1
if [ -n "$(find "$out/clean/default/crashes" -name 'id:*' 2> /dev/null)" ]; then
  tail -20 "$out/clean.log"
  echo "FAIL: the CPU adapter crashed under AFL++"
  exit 1
fi
echo "found $(basename "$crash") on faulty-transpose-swap; none in 5 s on cpu"
