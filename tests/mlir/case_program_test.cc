// A case as a program for a compiler (PrintCaseProgram): @main takes the
// inputs as arguments or builds them as constants, returns the result
// tensors in the case's order, and builds and takes apart tuples and
// tokens itself, passes quantized tensors as their storage integers; the
// text reads back.
#include <gtest/gtest.h>

#include "mlir/op_attributes.h"
#include "mlir/reader.h"
#include "mlir/writer.h"
#include "tests/support/case_builders.h"
#include "tests/support/spec_registry.h"

namespace hlocheck::mlir {
namespace {

using ::hlocheck::testing::Literal;
using ::hlocheck::testing::MakeCase;
using ::hlocheck::testing::QuantizedLiteral;
using ::hlocheck::testing::TestRegistry;
using ::hlocheck::testing::TupleCase;
using ::hlocheck::testing::ValueTypeOf;

std::string Program(const Case& c, ProgramInputs inputs) {
  const spec::OpSpec* op = TestRegistry().Find(c.op);
  EXPECT_NE(op, nullptr) << c.op;
  return PrintCaseProgram(TestRegistry(), *op, c, inputs);
}

TEST(CaseProgramTest, InputsAsArguments) {
  Case c = MakeCase(
      "add", {Literal("dense<[1, 2]> : tensor<2xi32>"), Literal("dense<[3, 4]> : tensor<2xi32>")},
      TensorType({2}, ElementType::kSI32));
  EXPECT_EQ(Program(c, ProgramInputs::kArguments),
            "module @hlocheck_case {\n"
            "  func.func public @main(%lhs: tensor<2xi32>, %rhs: tensor<2xi32>) -> "
            "(tensor<2xi32>) {\n"
            "    %result = \"stablehlo.add\"(%lhs, %rhs) : (tensor<2xi32>, tensor<2xi32>) -> "
            "tensor<2xi32>\n"
            "    func.return %result : tensor<2xi32>\n"
            "  }\n"
            "}\n");
  auto module = ReadModule(Program(c, ProgramInputs::kArguments), "add.mlir", TestRegistry());
  EXPECT_TRUE(module.ok()) << module.status();
}

// A compiler's runtime takes and gives plain tensors: a quantized argument
// is its storage integers, bitcast to the quantized type inside @main, and
// a quantized result is bitcast back to its storage before it returns.
TEST(CaseProgramTest, QuantizedTensorsCrossTheBoundaryAsStorage) {
  const std::string in = "tensor<2x!quant.uniform<i8:f32, 0.5:1>>";
  const std::string out = "tensor<2x!quant.uniform<i8:f32, 1.0:3>>";
  Case c = MakeCase("add",
                    {QuantizedLiteral(in, "dense<[2, -2]> : tensor<2xi8>"),
                     QuantizedLiteral(in, "dense<[3, 4]> : tensor<2xi8>")},
                    ValueTypeOf(out).tensor());
  const std::string text = Program(c, ProgramInputs::kArguments);
  EXPECT_EQ(
      text,
      "module @hlocheck_case {\n"
      "  func.func public @main(%lhs_storage: tensor<2xi8>, %rhs_storage: tensor<2xi8>) -> "
      "(tensor<2xi8>) {\n"
      "    %lhs = stablehlo.bitcast_convert %lhs_storage : (tensor<2xi8>) -> " +
          in + "\n" + "    %rhs = stablehlo.bitcast_convert %rhs_storage : (tensor<2xi8>) -> " +
          in + "\n" + "    %result = \"stablehlo.add\"(%lhs, %rhs) : (" + in + ", " + in + ") -> " +
          out + "\n    %result_storage_0 = stablehlo.bitcast_convert %result : (" + out +
          ") -> tensor<2xi8>\n"
          "    func.return %result_storage_0 : tensor<2xi8>\n"
          "  }\n"
          "}\n");
  auto module = ReadModule(text, "add.mlir", TestRegistry());
  EXPECT_TRUE(module.ok()) << module.status();
  // As constants: the storage integers in a quantized constant (generic
  // form), the result bitcast as before.
  const std::string constants = Program(c, ProgramInputs::kConstants);
  EXPECT_NE(constants.find("@main() -> (tensor<2xi8>)"), std::string::npos) << constants;
  EXPECT_NE(constants.find("{value = dense<[2, -2]> : tensor<2xi8>} : () -> " + in),
            std::string::npos)
      << constants;
  module = ReadModule(constants, "add.mlir", TestRegistry());
  EXPECT_TRUE(module.ok()) << module.status();
}

// StableHLO's parser requires both members of a channel handle: the
// collectives, whose spec has a channel_id only, print type = 0 (as the
// spec's examples do); send and recv print their channel_type.
TEST(CaseProgramTest, ChannelHandlesHaveBothMembers) {
  const spec::OpSpec* all_gather = TestRegistry().Find("all_gather");
  ASSERT_NE(all_gather, nullptr);
  std::vector<std::string> entries =
      EncodeAttributes(*all_gather, {{"channel_id", Attribute(int64_t{3})}});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0], "channel_handle = #stablehlo.channel_handle<handle = 3, type = 0>");
  const spec::OpSpec* send = TestRegistry().Find("send");
  ASSERT_NE(send, nullptr);
  entries = EncodeAttributes(*send, {{"channel_id", Attribute(int64_t{1})},
                                     {"channel_type", Attribute(EnumValue{"DEVICE_TO_HOST"})}});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0], "channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>");
}

// rng's shape goes out as StableHLO's third operand, made by a constant
// just before the op, and the program reads back.
TEST(CaseProgramTest, RngShapeIsPrintedAsAConstantOperand) {
  Case c = MakeCase("rng", {Literal("dense<0> : tensor<i32>"), Literal("dense<2> : tensor<i32>")},
                    TensorType({2, 3}, ElementType::kSI32));
  c.attributes["shape"] = std::vector<int64_t>{2, 3};
  c.attributes["rng_distribution"] = EnumValue{"UNIFORM"};
  std::string text = Program(c, ProgramInputs::kArguments);
  EXPECT_NE(text.find("%shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>\n    %result = "
                      "\"stablehlo.rng\"(%a, %b, %shape)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(tensor<i32>, tensor<i32>, tensor<2xi64>) -> tensor<2x3xi32>"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("shape = array"), std::string::npos) << text;
  auto module = ReadModule(text, "rng.mlir", TestRegistry());
  EXPECT_TRUE(module.ok()) << module.status();
}

// use_global_device_ids is a unit attribute in StableHLO: its name when
// true, absent when false (XLA:GPU's parser refused `= true`); both read back.
TEST(CaseProgramTest, UnitAttributesAreNamesAlone) {
  const spec::OpSpec* all_reduce = TestRegistry().Find("all_reduce");
  ASSERT_NE(all_reduce, nullptr);
  EXPECT_EQ(EncodeAttributes(*all_reduce, {{"use_global_device_ids", Attribute(true)}}),
            std::vector<std::string>{"use_global_device_ids"});
  EXPECT_TRUE(EncodeAttributes(*all_reduce, {{"use_global_device_ids", Attribute(false)}}).empty());
}

TEST(CaseProgramTest, InputsAsConstants) {
  Case c = MakeCase(
      "add", {Literal("dense<[1, 2]> : tensor<2xi32>"), Literal("dense<[3, 4]> : tensor<2xi32>")},
      TensorType({2}, ElementType::kSI32));
  std::string text = Program(c, ProgramInputs::kConstants);
  EXPECT_NE(text.find("@main() -> (tensor<2xi32>)"), std::string::npos) << text;
  EXPECT_NE(text.find("%lhs = stablehlo.constant dense<[1, 2]> : tensor<2xi32>"), std::string::npos)
      << text;
  auto module = ReadModule(text, "add.mlir", TestRegistry());
  EXPECT_TRUE(module.ok()) << module.status();
}

// Cases batched into one module: each its own private function, @main
// takes every case's arguments and returns every case's results in order.
TEST(CaseProgramTest, ABatchCallsEachCaseFromMain) {
  Case add = MakeCase(
      "add", {Literal("dense<[1, 2]> : tensor<2xi32>"), Literal("dense<[3, 4]> : tensor<2xi32>")},
      TensorType({2}, ElementType::kSI32));
  Case negate =
      MakeCase("negate", {Literal("dense<1.5> : tensor<f32>")}, TensorType({}, ElementType::kF32));
  std::vector<BatchedCase> batch = {{TestRegistry().Find("add"), &add},
                                    {TestRegistry().Find("negate"), &negate}};
  EXPECT_EQ(PrintBatchProgram(TestRegistry(), batch, ProgramInputs::kArguments),
            "module @hlocheck_batch {\n"
            "  func.func private @case_0(%lhs: tensor<2xi32>, %rhs: tensor<2xi32>) -> "
            "(tensor<2xi32>) {\n"
            "    %result = \"stablehlo.add\"(%lhs, %rhs) : (tensor<2xi32>, tensor<2xi32>) -> "
            "tensor<2xi32>\n"
            "    func.return %result : tensor<2xi32>\n"
            "  }\n"
            "  func.func private @case_1(%operand: tensor<f32>) -> (tensor<f32>) {\n"
            "    %result = \"stablehlo.negate\"(%operand) : (tensor<f32>) -> tensor<f32>\n"
            "    func.return %result : tensor<f32>\n"
            "  }\n"
            "  func.func public @main(%case0_arg0: tensor<2xi32>, %case0_arg1: tensor<2xi32>, "
            "%case1_arg0: tensor<f32>) -> (tensor<2xi32>, tensor<f32>) {\n"
            "    %case0 = func.call @case_0(%case0_arg0, %case0_arg1) : (tensor<2xi32>, "
            "tensor<2xi32>) -> (tensor<2xi32>)\n"
            "    %case1 = func.call @case_1(%case1_arg0) : (tensor<f32>) -> (tensor<f32>)\n"
            "    func.return %case0, %case1 : tensor<2xi32>, tensor<f32>\n"
            "  }\n"
            "}\n");
  // As constants, @main takes nothing.
  std::string constants = PrintBatchProgram(TestRegistry(), batch, ProgramInputs::kConstants);
  EXPECT_NE(constants.find("@main() -> (tensor<2xi32>, tensor<f32>)"), std::string::npos)
      << constants;
  EXPECT_NE(constants.find("%case1 = func.call @case_1() : () -> (tensor<f32>)"), std::string::npos)
      << constants;
}

// A tuple's tensors arrive as arguments; the tuple is built inside and the
// result taken apart, so @main returns plain tensors in the case's order.
TEST(CaseProgramTest, TuplesAreBuiltAndTakenApartInside) {
  Case c = TupleCase({Literal("dense<1.0> : tensor<f32>"), Literal("dense<[2]> : tensor<1xi8>")},
                     {ValueTypeOf("tensor<f32>"), ValueTypeOf("tensor<1xi8>")});
  std::string text = Program(c, ProgramInputs::kArguments);
  EXPECT_NE(text.find("@main(%val0: tensor<f32>, %val1: tensor<1xi8>) -> (tensor<f32>, "
                      "tensor<1xi8>)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("stablehlo.get_tuple_element"), std::string::npos) << text;
  EXPECT_NE(text.find("func.return %result_0, %result_1 : tensor<f32>, tensor<1xi8>"),
            std::string::npos)
      << text;
  auto module = ReadModule(text, "tuple.mlir", TestRegistry());
  EXPECT_TRUE(module.ok()) << module.status();
}

}  // namespace
}  // namespace hlocheck::mlir
