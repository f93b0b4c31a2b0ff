// What the program tests share: the oracle, the CPU program backend, a
// program read from text with its arguments, a trial on a backend.
#ifndef HLOCHECK_TESTS_RUNNERS_PROGRAM_TEST_UTIL_H_
#define HLOCHECK_TESTS_RUNNERS_PROGRAM_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "adapters/program/program_backend.h"
#include "generators/program_generator.h"
#include "mlir/reader.h"
#include "mlir/writer.h"
#include "runners/program_check.h"
#include "runners/program_shrink.h"
#include "tests/support/case_builders.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {

using ::hlocheck::testing::Literal;
using ::hlocheck::testing::TestRegistry;

inline const Oracle& TheOracle() {
  static const Oracle* oracle = new Oracle(&TestRegistry());
  return *oracle;
}

inline std::unique_ptr<ProgramBackend> Backend(const std::string& name) {
  AdapterOptions options(1);
  options.registry = &TestRegistry();
  auto handle = CreateProgramBackend(name, options);
  EXPECT_TRUE(handle.ok()) << handle.status();
  return handle.ok() ? std::move(handle->backend) : nullptr;
}

inline std::vector<TensorType> OutputTypes(const Module& module) {
  std::vector<TensorType> types;
  for (const ValueType& t : MainOf(module).type.outputs) types.push_back(t.tensor());
  return types;
}

inline ProgramTrial Trial(ProgramBackend& backend, const ProgramUnderTest& p,
                          const BackendProfile* profile = nullptr) {
  ProgramTrial trial{
      ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, profile), {}};
  if (trial.reference.ok()) {
    trial.outcome = JudgeProgram(*trial.reference,
                                 backend.Run(mlir::PrintModule(p.module, TestRegistry()),
                                             p.arguments, OutputTypes(p.module)),
                                 profile);
  }
  return trial;
}

inline ProgramUnderTest Read(const std::string& text, std::vector<Tensor> arguments) {
  auto module = mlir::ReadModule(text, "test.mlir", TestRegistry());
  EXPECT_TRUE(module.ok()) << module.status();
  return {module.ok() ? *module : Module{}, std::move(arguments)};
}

inline ProgramOptions SmallPrograms() {
  ProgramOptions options;
  options.max_ops = 12;
  options.max_elements = 64;
  return options;
}

// A one-element f32 tensor.
inline Tensor F32Scalar(float value) {
  Tensor t(Shape{1}, ElementType::kF32);
  t.values<ElementType::kF32>()[0] = value;
  return t;
}

// Two exact ops, then sine, then an add of sine's values.
inline constexpr char kChain[] = R"(
func.func @main(%a: tensor<3xbf16>, %b: tensor<3xbf16>) -> (tensor<3xbf16>, tensor<3xbf16>, tensor<3xbf16>) {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<3xbf16>, tensor<3xbf16>) -> tensor<3xbf16>
  %1 = "stablehlo.add"(%0, %a) : (tensor<3xbf16>, tensor<3xbf16>) -> tensor<3xbf16>
  %2 = "stablehlo.sine"(%1) : (tensor<3xbf16>) -> tensor<3xbf16>
  %3 = "stablehlo.add"(%2, %2) : (tensor<3xbf16>, tensor<3xbf16>) -> tensor<3xbf16>
  "func.return"(%1, %2, %3) : (tensor<3xbf16>, tensor<3xbf16>, tensor<3xbf16>) -> ()
}
)";

}  // namespace hlocheck

#endif  // HLOCHECK_TESTS_RUNNERS_PROGRAM_TEST_UTIL_H_
