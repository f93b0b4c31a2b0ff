#include "runners/exhaustive.h"

#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/literal.h"
#include "core/status_macros.h"
#include "oracle/compare.h"
#include "spec/verifier.h"

namespace hlocheck {
namespace {

constexpr int kMaxUnaryBits = 16;
constexpr int kMaxBinaryBits = 8;

// Every bit pattern of `type` (a type of at most 16 bits), in order.
Tensor AllValues(ElementType type, int64_t repeat_each, int64_t repeat_all) {
  const int bits = BitWidth(type);
  const int64_t count = int64_t{1} << bits;
  Tensor t(Shape{count * repeat_each * repeat_all}, type);
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (!IsComplex(T)) {
      auto out = t.values<T>();
      int64_t next = 0;
      for (int64_t a = 0; a < repeat_all; ++a) {
        for (int64_t v = 0; v < count; ++v) {
          ContainerT<T> value;
          if constexpr (IsFloat(T)) {
            value = FloatFromBits<T>(static_cast<uint64_t>(v));
          } else if constexpr (IsInteger(T)) {
            value = WrapInteger<T>(static_cast<uint64_t>(v));
          } else {
            value = static_cast<ContainerT<T>>(v);  // i1: false, true
          }
          for (int64_t e = 0; e < repeat_each; ++e) out[next++] = value;
        }
      }
    }
  });
  return t;
}

std::string Literal(const Tensor& t, int64_t i) {
  return DispatchElementType(t.element_type(), [&]<ElementType T>() -> std::string {
    auto v = t.values<T>()[i];
    return PrintElementLiteral(T, &v);
  });
}

}  // namespace

absl::StatusOr<ExhaustiveResult> RunExhaustive(const spec::SpecRegistry& registry,
                                               const Oracle& oracle, Adapter& backend,
                                               const std::string& op_name, ElementType type) {
  const spec::OpSpec* op = registry.Find(op_name);
  if (op == nullptr) return absl::InvalidArgumentError("unknown op '" + op_name + "'");
  if (op->category != "elementwise" || op->operands.empty() || op->operands.size() > 2 ||
      !op->regions.empty()) {
    return absl::InvalidArgumentError(op_name +
                                      ": exhaustive mode takes unary and binary elementwise ops");
  }
  for (const spec::AttributeSpec& attribute : op->attributes) {
    if (!attribute.optional && !attribute.default_value) {
      return absl::InvalidArgumentError(op_name + " takes the attribute '" + attribute.name +
                                        "'; exhaustive mode takes ops without attributes");
    }
  }
  if (IsComplex(type)) return absl::InvalidArgumentError("complex types are not exhaustive here");
  const bool binary = op->operands.size() == 2;
  const int limit = binary ? kMaxBinaryBits : kMaxUnaryBits;
  if (BitWidth(type) > limit) {
    return absl::InvalidArgumentError(std::string(Name(type)) + " has " +
                                      std::to_string(BitWidth(type)) + " bits; exhaustive mode " +
                                      (binary ? "pairs types of up to 8" : "takes up to 16"));
  }
  Case c;
  c.op = op_name;
  const int64_t count = int64_t{1} << BitWidth(type);
  if (binary) {
    c.operands.push_back(AllValues(type, count, 1));  // lhs[i * count + j] = value i
    c.operands.push_back(AllValues(type, 1, count));  // rhs[i * count + j] = value j
  } else {
    c.operands.push_back(AllValues(type, 1, 1));
  }
  // The result type: the operand's, or i1 for predicates.
  ElementType result_type = type;
  if (op->results.size() == 1 && op->results[0].types.element_types.size() == 1 &&
      op->results[0].types.element_types[0] == ElementType::kI1) {
    result_type = ElementType::kI1;
  }
  c.result_types.push_back(TensorType{c.operands[0].shape(), result_type});
  spec::VerifyResult verdict = spec::Verify(*op, c, &registry);
  if (!verdict.valid()) {
    return absl::InvalidArgumentError(op_name + " does not accept " + std::string(Name(type)) +
                                      ":\n" + verdict.Report());
  }
  AdapterSupport support = backend.Supports(c);
  if (!support.supported) {
    return absl::UnimplementedError(std::string(backend.name()) + " does not run " + op_name +
                                    " on " + std::string(Name(type)) + ": " + support.reason);
  }
  auto expected = oracle.Compute(c);
  HLOCHECK_RETURN_IF_ERROR(expected.status());
  auto actual = backend.Run(c);
  HLOCHECK_RETURN_IF_ERROR(actual.status());
  if (actual->size() != 1) return absl::InternalError("the backend gave several results");
  ExhaustiveResult result;
  result.op = op_name;
  result.type = type;
  result.inputs = c.operands[0].num_elements();
  const ResultExpectation& e = (*expected)[0];
  result.allowed_ulp = e.allowed_ulp;
  ResultComparison comparison = CompareResult(e, (*actual)[0]);
  if (comparison.type_mismatch) return absl::InternalError(comparison.type_error);
  result.free = comparison.free;
  result.mismatches = comparison.mismatches;
  if (!comparison.first_mismatches.empty()) {
    const ElementMismatch& m = comparison.first_mismatches[0];
    result.first_mismatch = "input " + Literal(c.operands[0], m.index) +
                            (binary ? ", " + Literal(c.operands[1], m.index) : "") + ": expected " +
                            m.expected + ", got " + m.actual + " (" + m.allowed + ")";
  }
  if (IsFloat(result_type)) {
    const FloatFormat& format = Format(result_type);
    int64_t worst_index = -1;
    DispatchElementType(result_type, [&]<ElementType T>() {
      if constexpr (IsFloat(T)) {
        auto want = e.reference.values<T>();
        auto got = (*actual)[0].values<T>();
        for (size_t i = 0; i < want.size(); ++i) {
          if (!e.free.empty() && e.free[i]) continue;
          int64_t d = UlpDistance(format, FloatBits<T>(want[i]), FloatBits<T>(got[i]));
          if (d > result.worst_ulp) {
            result.worst_ulp = d;
            worst_index = static_cast<int64_t>(i);
          }
        }
      }
    });
    if (worst_index >= 0) {
      result.worst_input = Literal(c.operands[0], worst_index) +
                           (binary ? ", " + Literal(c.operands[1], worst_index) : "");
      result.worst_expected = Literal(e.reference, worst_index);
      result.worst_actual = Literal((*actual)[0], worst_index);
    }
  }
  return result;
}

}  // namespace hlocheck
