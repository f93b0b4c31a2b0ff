#include "core/quantized_case.h"

#include <utility>
#include <variant>

namespace hlocheck {

namespace {

constexpr std::string_view kStorageOps[] = {"bitcast_convert", "broadcast_in_dim",
                                            "concatenate",     "constant",
                                            "dynamic_slice",   "dynamic_update_slice",
                                            "gather",          "pad",
                                            "reshape",         "reverse",
                                            "slice",           "transpose"};

constexpr std::string_view kExpressedOps[] = {"abs",
                                              "add",
                                              "atan2",
                                              "batch_norm_grad",
                                              "batch_norm_inference",
                                              "batch_norm_training",
                                              "cbrt",
                                              "ceil",
                                              "cholesky",
                                              "clamp",
                                              "compare",
                                              "convolution",
                                              "cosine",
                                              "divide",
                                              "dot_general",
                                              "exponential",
                                              "exponential_minus_one",
                                              "floor",
                                              "iota",
                                              "log",
                                              "log_plus_one",
                                              "logistic",
                                              "maximum",
                                              "minimum",
                                              "multiply",
                                              "negate",
                                              "power",
                                              "reduce_precision",
                                              "remainder",
                                              "round_nearest_afz",
                                              "round_nearest_even",
                                              "rsqrt",
                                              "select",
                                              "sign",
                                              "sine",
                                              "sqrt",
                                              "subtract",
                                              "tan",
                                              "tanh",
                                              "triangular_solve"};

}  // namespace

std::span<const std::string_view> QuantizedStorageOps() { return kStorageOps; }

std::span<const std::string_view> QuantizedExpressedOps() { return kExpressedOps; }

TensorType StorageType(const TensorType& type) {
  return type.quantization ? TensorType(type.shape, type.element_type) : type;
}

Case OnStorage(const Case& c) {
  Case s = c;
  for (Tensor& t : s.operands) {
    if (t.type().quantization) t = Tensor::Reusing(StorageType(t.type()), std::move(t));
  }
  for (TensorType& t : s.result_types) t = StorageType(t);
  for (auto& [name, attribute] : s.attributes) {
    if (Tensor* t = std::get_if<Tensor>(&attribute); t != nullptr && t->type().quantization) {
      *t = Tensor::Reusing(StorageType(t->type()), std::move(*t));
    }
  }
  return s;
}

TensorType ExpressedType(const TensorType& type) {
  return type.quantization ? TensorType(type.shape, type.quantization->expressed_type) : type;
}

Case WithExpressedTypes(const Case& c, std::vector<Tensor> operands) {
  Case f = c;
  f.operands = std::move(operands);
  for (TensorType& t : f.result_types) t = ExpressedType(t);
  return f;
}

absl::StatusOr<std::vector<Tensor>> FromStorage(const Case& c, std::vector<Tensor> results) {
  if (results.size() != c.result_types.size()) {
    return absl::InternalError(c.op + ": another number of results");
  }
  for (size_t r = 0; r < results.size(); ++r) {
    results[r] = Tensor::Reusing(c.result_types[r], std::move(results[r]));
  }
  return results;
}

}  // namespace hlocheck
