// The CUDA adapter's elementwise ops, whichever topic file lists them
// (elementwise_internal.h): the case checked, its operands uploaded, one
// launch of the elementwise kernel over the result with its op and element
// storage decided here once (kernels/elementwise_kernels.h), the result
// downloaded. Complex numbers and map are not implemented on CUDA yet.
#include <algorithm>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/elementwise_internal.h"
#include "core/case_attributes.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

bool Allows(Types types, ElementType t) {
  switch (types) {
    case Types::kAny:
      return true;
    case Types::kFloat:
      return IsFloat(t);
    case Types::kInt:
      return IsInteger(t);
    case Types::kBoolOrInt:
      return IsBool(t) || IsInteger(t);
    case Types::kIntOrFloat:
      return IsInteger(t) || IsFloat(t);
    case Types::kSignedIntOrFloat:
      return IsSignedInt(t) || IsFloat(t);
  }
  return false;
}

const ElementwiseOp* Find(std::string_view name) {
  if (name.starts_with("stablehlo.")) name.remove_prefix(10);
  for (auto table : {ArithmeticTable(), BitwiseTable(), CompareSelectTable(), ConversionTable(),
                     RoundingTable(), TranscendentalTable()}) {
    for (const ElementwiseOp& op : table) {
      if (op.name == name) return &op;
    }
  }
  return nullptr;
}

// The operand whose element type the op's constraints are about: select's
// and clamp's operand, not the predicate or the bounds... of which clamp's
// min has the operand's type anyway.
size_t TypedOperand(ElementOp op) { return op == ElementOp::kSelect ? 1 : 0; }

// How the elementwise kernels store `type`: KindOf's, and complex types for
// the ops that take them.
std::optional<ElementKind> KindFor(const ElementwiseOp& op, ElementType type) {
  if (op.takes_complex && IsComplex(type)) {
    ElementKind kind;
    kind.storage = type == ElementType::kComplexF32 ? Storage::kComplex64 : Storage::kComplex128;
    kind.bits = BitWidth(type);
    kind.bytes = ContainerBytes(type);
    return kind;
  }
  return KindOf(type);
}

AdapterSupport SupportsElementwise(const Case& c) {
  const ElementwiseOp* op = Find(c.op);
  if (op == nullptr) return AdapterSupport::No(c.op + " is not an elementwise op");
  if (AdapterSupport tensors = SupportsTensors(c, /*bytes_only=*/true); !tensors.supported) {
    return tensors;
  }
  std::vector<ElementType> types;
  for (const Tensor& operand : c.operands) types.push_back(operand.element_type());
  for (const TensorType& result : c.result_types) types.push_back(result.element_type);
  for (ElementType type : types) {
    if (!KindFor(*op, type).has_value()) {
      return AdapterSupport::No(
          absl::StrCat(c.op, " of ", std::string(Name(type)), " is not implemented on CUDA yet"));
    }
  }
  if (op->op == ElementOp::kCompare && !c.operands.empty() &&
      IsComplex(c.operands[0].element_type())) {
    absl::StatusOr<ComparisonDirection> direction =
        ComparisonDirectionAttribute(c, "comparison_direction");
    if (!direction.ok() ||
        (*direction != ComparisonDirection::kEq && *direction != ComparisonDirection::kNe)) {
      return AdapterSupport::No("compare of complex numbers other than EQ and NE on CUDA");
    }
  }
  if (c.operands.size() != op->operands || c.result_types.size() != 1) {
    return AdapterSupport::No(absl::StrCat(c.op, " needs ", op->operands, " operands"));
  }
  const ElementType type = c.operands[TypedOperand(op->op)].element_type();
  if (!Allows(op->types, type) && !(op->takes_complex && IsComplex(type))) {
    return AdapterSupport::No(absl::StrCat(c.op, " does not take ", std::string(Name(type))));
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<CompareType> CompareTypeOf(const Case& c, ElementType type) {
  HLOCHECK_ASSIGN_OR_RETURN(const std::string name, EnumAttribute(c, "compare_type", ""));
  if (name == "TOTALORDER") return CompareType::kTotalOrder;
  if (name == "FLOAT" || (name.empty() && (IsFloat(type) || IsComplex(type)))) {
    return CompareType::kFloat;
  }
  if (name == "SIGNED" || (name.empty() && IsSignedInt(type))) return CompareType::kSigned;
  if (name == "UNSIGNED" || name.empty()) return CompareType::kUnsigned;
  return absl::InvalidArgumentError(absl::StrCat("compare: unknown compare_type ", name));
}

absl::Status FillCompare(const Case& c, ElementwiseArgs& args) {
  HLOCHECK_ASSIGN_OR_RETURN(const ComparisonDirection direction,
                            ComparisonDirectionAttribute(c, "comparison_direction"));
  args.direction = static_cast<CompareDirection>(direction);
  HLOCHECK_ASSIGN_OR_RETURN(args.compare_type, CompareTypeOf(c, c.operands[0].element_type()));
  // A float compared as SIGNED or UNSIGNED is not valid; the kernels compare
  // floats by value or by totalOrder only.
  if ((IsFloat(c.operands[0].element_type()) || IsComplex(c.operands[0].element_type())) &&
      args.compare_type != CompareType::kFloat && args.compare_type != CompareType::kTotalOrder) {
    return absl::InvalidArgumentError("compare: a float compare_type must be FLOAT or TOTALORDER");
  }
  return absl::OkStatus();
}

// The shapes every operand must have: the result's, or rank 0 where the
// op broadcasts a scalar (select's predicate, clamp's bounds).
absl::Status CheckShapes(const Case& c, const ElementwiseOp& op) {
  const TensorType& result = c.result_types[0];
  for (size_t i = 0; i < c.operands.size(); ++i) {
    const Tensor& operand = c.operands[i];
    const bool may_broadcast =
        (op.op == ElementOp::kSelect && i == 0) || (op.op == ElementOp::kClamp && i != 1);
    if (operand.shape() != result.shape && !(may_broadcast && operand.shape().empty())) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": operand ", i, " is ",
                                                     operand.type().ToString(), ", the result ",
                                                     result.ToString()));
    }
  }
  // Same element types where the op keeps them.
  const ElementType typed = c.operands[TypedOperand(op.op)].element_type();
  for (size_t i = 0; i < c.operands.size(); ++i) {
    const bool predicate = op.op == ElementOp::kSelect && i == 0;
    if (!predicate && c.operands[i].element_type() != typed) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": operands of different types"));
    }
  }
  const bool bool_result = op.op == ElementOp::kCompare || op.op == ElementOp::kIsFinite;
  if (op.op != ElementOp::kConvert && !bool_result && result.element_type != typed) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.op, ": the result is not of the operands' type"));
  }
  if (bool_result && !IsBool(result.element_type)) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": the result is not i1"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Results> RunElementwise(const Case& c, Context& context) {
  const ElementwiseOp* op = Find(c.op);
  if (op == nullptr) return absl::UnimplementedError(c.op + " is not an elementwise op");
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, op->operands));
  HLOCHECK_RETURN_IF_ERROR(CheckShapes(c, *op));
  ElementwiseArgs args;
  args.op = op->op;
  std::optional<ElementKind> in = KindFor(*op, c.operands[TypedOperand(op->op)].element_type());
  std::optional<ElementKind> out = KindFor(*op, c.result_types[0].element_type);
  if (!in.has_value() || !out.has_value()) {
    return absl::UnimplementedError(c.op + ": complex types are not implemented on CUDA yet");
  }
  args.in = *in;
  args.out = *out;
  args.flush_subnormals = context.faults().flush_subnormals;
  if (op->op == ElementOp::kCompare) HLOCHECK_RETURN_IF_ERROR(FillCompare(c, args));
  if (op->op == ElementOp::kReducePrecision) {
    HLOCHECK_ASSIGN_OR_RETURN(const int64_t exponent, IntAttribute(c, "exponent_bits"));
    HLOCHECK_ASSIGN_OR_RETURN(const int64_t mantissa, IntAttribute(c, "mantissa_bits"));
    if (exponent < 1 || mantissa < 0) {
      return absl::InvalidArgumentError("reduce_precision: exponent_bits < 1 or mantissa_bits < 0");
    }
    // Beyond a format's own widths they change nothing.
    args.reduce_exponent_bits = static_cast<int>(std::min<int64_t>(exponent, 64));
    args.reduce_mantissa_bits = static_cast<int>(std::min<int64_t>(mantissa, 64));
  }

  std::vector<Buffer> operands;
  for (const Tensor& operand : c.operands) {
    HLOCHECK_ASSIGN_OR_RETURN(Buffer buffer, context.Upload(operand));
    operands.push_back(std::move(buffer));
  }
  const TensorType& result_type = c.result_types[0];
  args.n = result_type.num_elements();
  const void** inputs[] = {&args.a, &args.b, &args.c};
  int64_t* strides[] = {&args.a_stride, &args.b_stride, &args.c_stride};
  for (size_t i = 0; i < operands.size(); ++i) {
    *inputs[i] = operands[i].data();
    *strides[i] = c.operands[i].shape() == result_type.shape ? 1 : 0;
  }
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer result,
      context.Allocate(static_cast<size_t>(args.n) * ContainerBytes(result_type.element_type)));
  args.z = result.data();
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Elementwise(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor tensor, context.Download(result, result_type));
  Results results;
  results.push_back(std::move(tensor));
  return results;
}

}  // namespace

std::vector<OpEntry> ElementwiseEntries(std::span<const ElementwiseOp> table) {
  std::vector<OpEntry> ops;
  for (const ElementwiseOp& op : table) {
    ops.push_back({op.name, &SupportsElementwise, &RunElementwise});
  }
  return ops;
}

}  // namespace hlocheck::cuda
