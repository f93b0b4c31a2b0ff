// libFuzzer target: the op file loader (ParseOpSpec) on arbitrary text must
// return an op or a file:line:column error, never crash, throw, hang or leak.
// Seeded with every spec/ops/*.yaml file.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/match.h"
#include "spec/op_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto op = hlocheck::spec::ParseOpSpec(text, "fuzz.yaml");
  if (!op.ok() && !absl::StartsWith(op.status().message(), "fuzz.yaml")) {
    std::fprintf(stderr, "an error that does not name the file: %s\n",
                 std::string(op.status().message()).c_str());
    std::abort();
  }
  return 0;
}
