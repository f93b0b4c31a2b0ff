// The public StableHLO interpreter's tests (../shared/corpus/stablehlo-interpret)
// run on the oracle: every file parses, and every function whose ops the
// oracle implements passes. Prints parsed / passed / failed / unsupported per file.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>

#include "runners/interpret.h"

namespace hlocheck {
namespace {

namespace fs = std::filesystem;
using Kind = FunctionOutcome::Kind;

// Corpus functions that the spec calls invalid: the public interpreter's
// tests use them, but a numbered constraint of both spec versions (seed 002
// and ../shared/reference) forbids them. Each must be reported invalid for
// exactly that constraint, and nothing else may be.
struct KnownInvalid {
  std::string_view file;
  std::string_view function;
  std::string_view constraint;  // as the verifier names it
  std::string_view why;
};
constexpr KnownInvalid kKnownInvalid[] = {
    {"convolution.mlir", "convolution_op_test_si8", "C27 violated",
     "i8 operands with an i32 result: C27 asks lhs, rhs and result to have one element type "
     "(the interpreter accepts it; the spec does not)"},
};

const KnownInvalid* FindKnownInvalid(const std::string& file, const std::string& function) {
  for (const KnownInvalid& known : kKnownInvalid) {
    if (file.ends_with(known.file) && function == known.function) return &known;
  }
  return nullptr;
}

TEST(CorpusTest, EveryFileParsesAndEveryRunnableFunctionPasses) {
  fs::path directory =
      fs::path(HLOCHECK_SOURCE_DIR).parent_path() / "shared" / "corpus" / "stablehlo-interpret";
  if (!fs::is_directory(directory)) {
    GTEST_SKIP() << "the corpus is not at " << directory << " (../shared absent); skipped";
  }
  auto registry = spec::DefaultRegistry();
  ASSERT_TRUE(registry.ok()) << registry.status();
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(directory)) {
    if (entry.path().extension() == ".mlir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  int totals[8] = {};
  int splits = 0;
  for (const fs::path& file : files) {
    auto outcome = InterpretFile(file, **registry);
    ASSERT_TRUE(outcome.ok()) << outcome.status();
    splits += outcome->splits;
    std::set<std::string> unsupported;
    for (const FunctionOutcome& f : outcome->functions) {
      ++totals[static_cast<int>(f.kind)];
      unsupported.insert(f.unsupported.begin(), f.unsupported.end());
      if (const KnownInvalid* known = FindKnownInvalid(file.string(), f.function)) {
        EXPECT_EQ(f.kind, Kind::kInvalid) << file.string() << ": @" << f.function << ": "
                                          << known->why << "; now " << KindName(f.kind);
        EXPECT_NE(f.message.find(known->constraint), std::string::npos) << f.message;
        continue;
      }
      EXPECT_TRUE(f.kind != Kind::kFailed && f.kind != Kind::kInvalid && f.kind != Kind::kError)
          << file.string() << ":" << f.line << ": @" << f.function << ": " << KindName(f.kind)
          << ": " << f.message;
    }
    std::cout << fs::relative(file, directory).string() << ": " << outcome->splits << " parsed, "
              << outcome->Count(Kind::kPassed) << " passed, " << outcome->Count(Kind::kFailed)
              << " failed, " << outcome->Count(Kind::kUnsupported) << " unsupported";
    if (outcome->Count(Kind::kJudged) > 0) {
      std::cout << ", " << outcome->Count(Kind::kJudged) << " passed by the judge";
    }
    if (outcome->Count(Kind::kFree) > 0) {
      std::cout << ", " << outcome->Count(Kind::kFree) << " implementation-defined";
    }
    if (outcome->Count(Kind::kSkipped) > 0) {
      std::cout << ", " << outcome->Count(Kind::kSkipped) << " skipped";
    }
    if (!unsupported.empty()) {
      std::cout << " (";
      for (const std::string& op : unsupported) std::cout << " " << op;
      std::cout << " )";
    }
    std::cout << "\n";
  }
  std::cout << files.size() << " files, " << splits << " splits: " << totals[0] << " passed, "
            << totals[7] << " passed by the judge, " << totals[1] << " failed, " << totals[2]
            << " implementation-defined, " << totals[3] << " unsupported, " << totals[4]
            << " invalid, " << totals[5] << " errors, " << totals[6] << " skipped\n";
  // A floor that only rises as the oracle grows (487 when last raised:
  // control flow, composite, the collectives on a grid, the transfers,
  // uniform_quantize, uniform_dequantize and bitcast_convert of quantized
  // tensors, quantized add).
  EXPECT_GE(totals[0], 487);
}

}  // namespace
}  // namespace hlocheck
