// The MLIR reader and writer on the public interpreter corpus, on every
// op's spec example, and on malformed input.
#include <gtest/gtest.h>

#include <filesystem>

#include "mlir/reader.h"
#include "mlir/writer.h"
#include "spec/attributes.h"
#include "spec/instance.h"
#include "spec/registry.h"
#include "tests/support/spec_registry.h"

namespace hlocheck::mlir {
namespace {

namespace fs = std::filesystem;

using ::hlocheck::testing::TestRegistry;

std::string CorpusDirectory() {
  return fs::path(HLOCHECK_SOURCE_DIR).parent_path() / "shared" / "corpus" / "stablehlo-interpret";
}

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> files;
  if (!fs::is_directory(CorpusDirectory())) return files;
  for (const auto& entry : fs::recursive_directory_iterator(CorpusDirectory())) {
    if (entry.path().extension() == ".mlir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ReaderTest, EveryCorpusFileParsesAndPrintsBackToTheSameProgram) {
  std::vector<std::string> files = CorpusFiles();
  if (files.empty()) GTEST_SKIP() << "no corpus at " << CorpusDirectory() << " (../shared absent)";
  int splits = 0;
  for (const std::string& file : files) {
    auto read = ReadFile(file, TestRegistry());
    ASSERT_TRUE(read.ok()) << read.status();
    for (const Split& split : *read) {
      ++splits;
      std::string printed = PrintModule(split.module, TestRegistry());
      auto again = ReadModule(printed, file + " (printed)", TestRegistry());
      ASSERT_TRUE(again.ok()) << again.status() << "\n" << printed;
      std::string difference;
      EXPECT_TRUE(SameModule(split.module, *again, &difference))
          << file << ":" << split.first_line << ": " << difference << "\n"
          << printed;
    }
  }
  EXPECT_GT(splits, 500);
}

// Each op's example in its YAML carries the MLIR text the spec shows; read
// as a snippet, it must give the example's attributes and types.
TEST(ReaderTest, EverySpecExampleSnippetReadsAsItsInstance) {
  int checked = 0;
  for (const spec::OpSpec& op : TestRegistry().ops()) {
    if (op.example.mlir.empty() || op.example.instance == nullptr) continue;
    // rng's shape is an operand in MLIR whose constant the snippet does not
    // define (the reader needs its value): RngShapeIsAConstantOperand.
    if (op.name == "rng") continue;
    auto region = ReadSnippet(op.example.mlir, op.file + " (example)", TestRegistry());
    ASSERT_TRUE(region.ok()) << region.status();
    const Operation* found = nullptr;
    for (const Operation& candidate : region->blocks[0].operations) {
      if (found == nullptr && candidate.name == "stablehlo." + op.name) found = &candidate;
    }
    ASSERT_NE(found, nullptr) << op.name << ": the example has no stablehlo." << op.name;
    const spec::OpInstance& instance = *op.example.instance;
    for (const auto& [name, value] : instance.attributes) {
      auto it = found->attributes.find(name);
      if (it == found->attributes.end()) {
        // Absent in MLIR means the default (a unit attribute's false, ...).
        const spec::AttributeSpec* attribute = op.FindAttribute(name);
        ASSERT_TRUE(attribute != nullptr && attribute->default_value.has_value())
            << op.name << ": attribute " << name << " not read";
        auto default_value = spec::AttributeFromYaml(*attribute, *attribute->default_value);
        ASSERT_TRUE(default_value.ok()) << default_value.status();
        EXPECT_TRUE(*default_value == value) << op.name << "." << name << " absent but not default";
        continue;
      }
      EXPECT_TRUE(it->second == value)
          << op.name << "." << name << ": read " << AttributeToString(it->second) << ", YAML has "
          << AttributeToString(value);
    }
    std::vector<ValueType> operand_types;
    for (const auto& group : instance.operands) {
      operand_types.insert(operand_types.end(), group.begin(), group.end());
    }
    EXPECT_EQ(found->operand_types, operand_types) << op.name;
    ++checked;
  }
  EXPECT_GE(checked, 90);
}

// rng's shape, an attribute in the spec, is StableHLO's third operand made
// by a constant: read, it is the attribute again and the operand is gone;
// printed, the constant and the operand come back; an operand that is not a
// constant is an error that says so.
TEST(ReaderTest, RngShapeIsAConstantOperand) {
  const std::string text =
      "func.func @main() {\n"
      "  %a = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %b = stablehlo.constant dense<2> : tensor<i32>\n"
      "  %shape = stablehlo.constant dense<[3, 3]> : tensor<2xi64>\n"
      "  %result = \"stablehlo.rng\"(%a, %b, %shape) {rng_distribution = "
      "#stablehlo<rng_distribution UNIFORM>} : (tensor<i32>, tensor<i32>, tensor<2xi64>) -> "
      "tensor<3x3xi32>\n"
      "  func.return\n"
      "}\n";
  auto module = ReadModule(text, "rng.mlir", TestRegistry());
  ASSERT_TRUE(module.ok()) << module.status();
  const Operation& rng = module->functions[0].body.blocks[0].operations[3];
  ASSERT_EQ(rng.name, "stablehlo.rng");
  EXPECT_EQ(rng.operands.size(), 2u);
  EXPECT_EQ(rng.operand_types.size(), 2u);
  ASSERT_TRUE(rng.attributes.count("shape"));
  EXPECT_TRUE(rng.attributes.at("shape") == Attribute(std::vector<int64_t>{3, 3}));

  std::string not_constant = text;
  not_constant.replace(not_constant.find("%a, %b, %shape"), 14, "%a, %b, %b");
  not_constant.replace(not_constant.find("tensor<i32>, tensor<i32>, tensor<2xi64>"), 39,
                       "tensor<i32>, tensor<i32>, tensor<i32>");
  auto bad = ReadModule(not_constant, "rng.mlir", TestRegistry());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("made by stablehlo.constant"), std::string::npos)
      << bad.status();
}

struct BadInput {
  std::string text;
  std::string expected_message;  // a part of the error
};

TEST(ReaderTest, BadInputNamesFileLineColumnAndWhatWasExpected) {
  const std::vector<BadInput> cases = {
      {"func.func @f() {\n  %0 = stablehlo.add %1, %1 : tensor<f32>\n  func.return\n}",
       "bad.mlir:2:22: use of undefined value %1"},
      {"func.func @f() {\n  %0 = stablehlo.constant dense<1> : tensor<f32>\n",
       "bad.mlir:3:1: expected '}' closing the region"},
      {"func.func @f() {\n  %0 = stablehlo.frobnicate %0 : tensor<f32>\n}",
       "use of undefined value %0"},
      {"func.func @f() {\n  %0 = stablehlo.constant dense<[1, 2> : tensor<2xf32>\n}",
       "bad.mlir:2:"},
      {"func.func @f() {\n  %0 = \"stablehlo.transpose\"(%0) {perm = array<i64: 1, 0>} : "
       "(tensor<2x3xf32>) -> tensor<3x2xf32>\n}",
       "use of undefined value"},
      {"func.func @f(%a: tensor<2x3xf32>) {\n  %0 = \"stablehlo.transpose\"(%a) {perm = "
       "array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>\n  func.return\n}",
       "bad.mlir:2:42: stablehlo.transpose has no attribute 'perm'; expected one of permutation"},
      {"func.func @f(%a: tensor<2xf32>) {\n  %0 = stablehlo.compare LT, %a, %a, BOGUS : "
       "(tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n  func.return\n}",
       "unexpected 'BOGUS'"},
      {"func.func @f(%a: tensor<2xf32>) {\n  %0 = stablehlo.add %a, %a : tensor<2xf33>\n}",
       "bad.mlir:2:31: bad type 'tensor<2xf33>'"},
      {"module {\n  func.func @f() {\n    func.return\n  }\n", "expected '}' closing the module"},
      {"func.func @f() {\n  \"stablehlo.add\"(\n",
       "bad.mlir:3:1: expected a value (%name), found the end"},
      // Numbers beyond 64 bits where the reader once threw out of stoul and
      // stoull (found by scripts/fuzz mlir_reader).
      {"func.func @f(%l: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x1xf32>) {\n  %r = "
       "stablehlo.convolution(%l, %k) dim_numbers = [b, 0, 99999999999999999999999, f]x[0, 1, i, "
       "o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : "
       "i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>\n}",
       "unexpected dimension '99999999999999999999999' in the input dimensions"},
      {"func.func @f(%x: tensor<2x2xf32>, %s: tensor<2xf32>) {\n  %0 = "
       "\"stablehlo.batch_norm_inference\"(%x, %s, %s, %s, %s) {epsilon = 0x123456789ABCDEF0123 "
       ": f32, feature_index = 1 : i64} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, "
       "tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>\n}",
       "too long hexadecimal number '0x123456789ABCDEF0123'"},
  };
  for (const BadInput& bad : cases) {
    auto read = ReadSplits(bad.text, "bad.mlir", TestRegistry());
    ASSERT_FALSE(read.ok()) << bad.text;
    EXPECT_NE(std::string(read.status().message()).find(bad.expected_message), std::string::npos)
        << "got: " << read.status().message() << "\nwanted: " << bad.expected_message;
  }
}

TEST(ReaderTest, SplitsKeepTheirLineNumbers) {
  std::string text =
      "func.func @a() {\n  func.return\n}\n// -----\nfunc.func @b() {\n  %0 = stablehlo.add\n}\n";
  auto read = ReadSplits(text, "split.mlir", TestRegistry());
  ASSERT_FALSE(read.ok());
  EXPECT_NE(std::string(read.status().message()).find("split.mlir:7:1"), std::string::npos)
      << read.status();
}

}  // namespace
}  // namespace hlocheck::mlir
