#!/usr/bin/env bash
# ctest fuzz_reports_crash: scripts/fuzz on always_fails, a target that aborts
# on an easily found input, must exit 1 and save the crashing input. Exit 77
# (skipped) only when clang-14 is missing, which this script checks itself
# first: once it is installed, a crash that comes out as 77 fails this test.
set -uo pipefail
cd "$(dirname "$0")/../.."
scripts/fuzz --check || exit 77
rm -rf build-fuzz/crashes/always_fails
scripts/fuzz always_fails "${1:-60}"
status=$?
echo "scripts/fuzz always_fails exited $status (expected 1)"
[ "$status" -eq 1 ] || exit 1
if ! ls build-fuzz/crashes/always_fails/crash-* > /dev/null 2>&1; then
  echo "no crashing input saved under build-fuzz/crashes/always_fails" >&2
  exit 1
fi
grep -q '^boom' build-fuzz/crashes/always_fails/crash-* || {
  echo "the saved input is not the one that aborts" >&2; exit 1; }
