// libFuzzer target: the MLIR reader on arbitrary bytes must return a
// program or a file:line:column error, never crash, hang or leak; a program
// it returns must print and read back to the same program.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "mlir/reader.h"
#include "mlir/writer.h"
#include "spec/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const hlocheck::spec::SpecRegistry* registry = [] {
    auto loaded = hlocheck::spec::DefaultRegistry();
    if (!loaded.ok()) std::abort();  // a broken spec directory is not the reader's bug
    return *loaded;
  }();
  std::string text(reinterpret_cast<const char*>(data), size);
  auto splits = hlocheck::mlir::ReadSplits(text, "fuzz.mlir", *registry);
  if (!splits.ok()) return 0;
  for (const hlocheck::mlir::Split& split : *splits) {
    std::string printed = hlocheck::mlir::PrintModule(split.module, *registry);
    auto again = hlocheck::mlir::ReadModule(printed, "printed.mlir", *registry);
    std::string difference;
    if (!again.ok() || !hlocheck::SameModule(split.module, *again, &difference)) {
      std::fprintf(stderr, "print/read round trip broke: %s\n%s\n",
                   again.ok() ? difference.c_str() : std::string(again.status().message()).c_str(),
                   printed.c_str());
      std::abort();
    }
  }
  return 0;
}
