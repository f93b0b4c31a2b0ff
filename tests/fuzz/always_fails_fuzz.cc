// libFuzzer target that fails on purpose: it aborts, as the reader's round-trip
// check does, on any input that starts with "boom" (libFuzzer's memcmp hooks
// find it within seconds). The ctest fuzz_reports_crash runs scripts/fuzz on it
// and passes only when the script exits 1: a crash that came out as 77 would
// read as "skipped" and let a broken target pass CI.
#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size >= 4 && std::memcmp(data, "boom", 4) == 0) std::abort();
  return 0;
}
