// Ops on quantized tensors on CUDA (uniform_quantize and uniform_dequantize
// themselves are quantization.cc's). The ops that only move elements, and
// bitcast_convert, run their kernels on the storage integers and give the
// results the quantized types the case asks for. The others run as
// StableHLO's stablehlo-legalize-quantized-op-to-qdq decomposition writes
// them: each quantized operand through the uniform_dequantize kernel, the
// op's own kernel in the expressed type, each quantized result through the
// uniform_quantize kernel; is_finite is true. There are no integer kernels
// on CUDA yet (the CPU adapter has them for add, dot_general, convolution
// and others).
#include <algorithm>
#include <string_view>

#include "adapters/cuda/cuda_internal.h"
#include "core/quantized_case.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

AdapterSupport SupportsOnStorage(const Case& c) { return SupportsCase(OnStorage(c)); }

absl::StatusOr<Results> RunOnStorage(const Case& c, Context& context) {
  const OpEntry* op = FindOp(c.op);
  if (op == nullptr) return absl::UnimplementedError(c.op + " is not implemented on CUDA yet");
  HLOCHECK_ASSIGN_OR_RETURN(Results results, op->run(OnStorage(c), context));
  return FromStorage(c, std::move(results));
}

// A one-operand uniform_quantize or uniform_dequantize case.
Case Conversion(std::string op, Tensor operand, TensorType result) {
  Case c;
  c.op = std::move(op);
  c.operands.push_back(std::move(operand));
  c.result_types.push_back(std::move(result));
  return c;
}

AdapterSupport SupportsThroughExpressed(const Case& c) {
  std::vector<Tensor> placeholders;
  for (const Tensor& t : c.operands) {
    if (!t.type().quantization) {
      placeholders.push_back(t);
      continue;
    }
    const Case dequantize =
        Conversion("uniform_dequantize", Tensor(t.type()), ExpressedType(t.type()));
    if (AdapterSupport s = SupportsCase(dequantize); !s.supported) return s;
    placeholders.emplace_back(ExpressedType(t.type()));
  }
  for (const TensorType& t : c.result_types) {
    if (!t.quantization) continue;
    const Case quantize = Conversion("uniform_quantize", Tensor(ExpressedType(t)), t);
    if (AdapterSupport s = SupportsCase(quantize); !s.supported) return s;
  }
  return SupportsCase(WithExpressedTypes(c, std::move(placeholders)));
}

absl::StatusOr<Results> RunThroughExpressed(const Case& c, Context& context) {
  const OpEntry* dequantize = FindOp("uniform_dequantize");
  const OpEntry* quantize = FindOp("uniform_quantize");
  const OpEntry* op = FindOp(c.op);
  if (dequantize == nullptr || quantize == nullptr || op == nullptr) {
    return absl::UnimplementedError(c.op + " on quantized tensors is not implemented on CUDA");
  }
  std::vector<Tensor> operands;
  for (const Tensor& t : c.operands) {
    if (!t.type().quantization) {
      operands.push_back(t);
      continue;
    }
    HLOCHECK_ASSIGN_OR_RETURN(
        Results expressed,
        dequantize->run(Conversion("uniform_dequantize", t, ExpressedType(t.type())), context));
    operands.push_back(std::move(expressed.at(0)));
  }
  HLOCHECK_ASSIGN_OR_RETURN(Results results,
                            op->run(WithExpressedTypes(c, std::move(operands)), context));
  if (results.size() != c.result_types.size()) {
    return absl::InternalError(c.op + ": another number of results");
  }
  for (size_t r = 0; r < results.size(); ++r) {
    if (!c.result_types[r].quantization) continue;
    HLOCHECK_ASSIGN_OR_RETURN(
        Results quantized,
        quantize->run(Conversion("uniform_quantize", std::move(results[r]), c.result_types[r]),
                      context));
    results[r] = std::move(quantized.at(0));
  }
  return results;
}

// is_finite of a quantized tensor: true everywhere (every storage integer
// stands for a finite value). No kernel: the answer does not depend on the
// data, as a compiler folds it.
AdapterSupport SupportsQuantizedIsFinite(const Case& c) {
  if (c.operands.size() != 1 || c.result_types.size() != 1 ||
      c.result_types[0].element_type != ElementType::kI1) {
    return AdapterSupport::No("is_finite: needs one operand and an i1 result");
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunQuantizedIsFinite(const Case& c, Context&) {
  if (AdapterSupport s = SupportsQuantizedIsFinite(c); !s.supported) {
    return absl::InvalidArgumentError(s.reason);
  }
  Tensor result(c.result_types[0]);
  auto out = result.values<ElementType::kI1>();
  std::fill(out.begin(), out.end(), 1);
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace

const OpEntry* FindQuantizedOp(std::string_view name) {
  static const std::vector<OpEntry> table = [] {
    std::vector<OpEntry> ops;
    for (std::string_view op : QuantizedStorageOps()) {
      ops.push_back({op, &SupportsOnStorage, &RunOnStorage});
    }
    for (std::string_view op : QuantizedExpressedOps()) {
      ops.push_back({op, &SupportsThroughExpressed, &RunThroughExpressed});
    }
    ops.push_back({"is_finite", &SupportsQuantizedIsFinite, &RunQuantizedIsFinite});
    return ops;
  }();
  if (name.starts_with("stablehlo.")) name.remove_prefix(10);
  for (const OpEntry& entry : table) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

}  // namespace hlocheck::cuda
