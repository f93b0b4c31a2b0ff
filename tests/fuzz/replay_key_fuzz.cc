// libFuzzer target: the replay-string parser on arbitrary text must return a
// key or an error, never crash, throw or leak; a key it returns must print
// (FormatReplay) to a string that parses back to the same key and prints
// the same again.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/escaping.h"
#include "runners/replay_key.h"

namespace {

bool SameKey(const hlocheck::ReplayKey& a, const hlocheck::ReplayKey& b) {
  return a.op == b.op && a.type == b.type && a.seed == b.seed && a.size == b.size &&
         a.max_elements == b.max_elements && a.shrink_path == b.shrink_path &&
         a.violates == b.violates;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto key = hlocheck::ParseReplay(text);
  if (!key.ok()) return 0;
  std::string printed = hlocheck::FormatReplay(*key);
  auto again = hlocheck::ParseReplay(printed);
  if (!again.ok() || !SameKey(*key, *again) || hlocheck::FormatReplay(*again) != printed) {
    std::string third = again.ok() ? "reprinted: " + absl::CEscape(hlocheck::FormatReplay(*again))
                                   : std::string(again.status().message());
    std::fprintf(stderr, "replay string round trip broke:\n  input:   %s\n  printed: %s\n  %s\n",
                 absl::CEscape(text).c_str(), absl::CEscape(printed).c_str(), third.c_str());
    std::abort();
  }
  return 0;
}
