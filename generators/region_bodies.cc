#include "generators/region_bodies.h"

#include <algorithm>

#include "core/element_value.h"
#include "core/literal.h"
#include "core/tensor.h"

namespace hlocheck {
namespace {

bool IsScalarTensor(const ValueType& t) { return t.is_tensor() && t.shape.empty(); }

bool IsIntegerScalar(const ValueType& t) {
  return IsScalarTensor(t) && !t.quantization && IsInteger(t.element_type);
}

ValueType BoolScalar() { return ValueType::Of(TensorType{{}, ElementType::kI1}); }

// Builds one block: arguments get ids 0..n-1, each emitted op the next id.
class BodyBuilder {
 public:
  explicit BodyBuilder(const std::vector<ValueType>& inputs) {
    for (const ValueType& t : inputs) {
      block_.arguments.push_back(next_++);
      block_.argument_types.push_back(t);
      types_.push_back(t);
    }
  }
  ValueId Emit(std::string name, std::vector<ValueId> operands, ValueType result_type,
               std::map<std::string, Attribute> attributes = {}) {
    Operation op;
    op.name = std::move(name);
    for (ValueId v : operands) op.operand_types.push_back(types_[v]);
    op.operands = std::move(operands);
    op.results = {next_++};
    op.result_types = {result_type};
    op.attributes = std::move(attributes);
    types_.push_back(result_type);
    block_.operations.push_back(std::move(op));
    return next_ - 1;
  }
  ValueId Zero(const ValueType& type) {
    TensorType tensor_type{type.shape, type.element_type};
    // All-zero bits: zero for every type (2^-127 for f8E8M0FNU, which has no zero).
    Tensor zero(tensor_type);
    return Emit("stablehlo.constant", {}, type, {{"value", zero}});
  }
  ValueId IntConstant(const ValueType& type, int64_t value) {
    Tensor t(TensorType{type.shape, type.element_type});
    // Integer scalars only (checked by the callers); ParseElementLiteral
    // writes the value in the type's own encoding.
    (void)ParseElementLiteral(std::to_string(value), type.element_type, t.raw());
    return Emit("stablehlo.constant", {}, type, {{"value", t}});
  }
  Region Return(std::vector<ValueId> values) {
    Operation ret;
    ret.name = "stablehlo.return";
    for (ValueId v : values) ret.operand_types.push_back(types_[v]);
    ret.operands = std::move(values);
    block_.operations.push_back(std::move(ret));
    Region region;
    region.blocks.push_back(std::move(block_));
    return region;
  }

 private:
  Block block_;
  std::vector<ValueType> types_;
  ValueId next_ = 0;
};

bool IsCombinerSignature(const FunctionType& s) {
  size_t n = s.outputs.size();
  if (n == 0 || s.inputs.size() != 2 * n) return false;
  for (size_t i = 0; i < n; ++i) {
    if (!IsScalarTensor(s.inputs[i]) || !(s.inputs[i] == s.inputs[n + i]) ||
        !(s.inputs[i] == s.outputs[i])) {
      return false;
    }
  }
  return true;
}

bool IsComparatorSignature(const FunctionType& s) {
  return s.inputs.size() >= 2 && s.inputs.size() % 2 == 0 && s.outputs.size() == 1 &&
         s.outputs[0] == BoolScalar() && IsScalarTensor(s.inputs[0]) && s.inputs[0] == s.inputs[1];
}

const std::vector<std::string>& CombinerKinds() {
  static const auto* kinds = new std::vector<std::string>{
      "add", "multiply", "maximum", "minimum", "and", "or", "xor", "replace", "first"};
  return *kinds;
}

bool CombinerAccepts(std::string_view kind, ElementType type, bool quantized) {
  bool logical = kind == "and" || kind == "or" || kind == "xor";
  if (logical) return !quantized && (type == ElementType::kI1 || IsInteger(type));
  if (kind == "maximum" || kind == "minimum") return !IsComplex(type);
  return true;
}

// compare's C3 (spec/ops/compare.yaml): FLOAT for quantized values, which
// compare dequantized.
std::string CompareType(ElementType type, bool total, bool quantized = false) {
  if (quantized) return "FLOAT";
  if (IsFloat(type)) return total ? "TOTALORDER" : "FLOAT";
  if (type == ElementType::kI1 || IsUnsignedInt(type)) return "UNSIGNED";
  return "SIGNED";
}

}  // namespace

std::optional<size_t> LoopCounterArgument(const std::vector<ValueType>& inputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (IsIntegerScalar(inputs[i])) return i;
  }
  return std::nullopt;
}

CounterRange CounterRangeOf(ElementType type) {
  const int64_t min = IntegerMin(type);
  const uint64_t max = IntegerMaxUnsigned(type);
  return {std::max<int64_t>(-8, min), static_cast<int64_t>(std::min<uint64_t>(4, max))};
}

std::vector<std::string> BodyKindsFor(const FunctionType& s) {
  std::vector<std::string> kinds;
  if (IsCombinerSignature(s)) {
    for (const std::string& kind : CombinerKinds()) {
      bool all = true;
      for (const ValueType& t : s.outputs) {
        all = all && CombinerAccepts(kind, t.element_type, t.quantization.has_value());
      }
      if (all) kinds.push_back(kind);
    }
  }
  if (IsComparatorSignature(s) && !IsComplex(s.inputs[0].element_type) &&
      !(s.inputs[0].quantization && s.inputs[0].quantization->quantization_dimension)) {
    for (const char* k : {"compare_LT", "compare_GT", "compare_LE", "compare_GE", "compare_EQ"}) {
      kinds.push_back(k);
    }
    if (IsFloat(s.inputs[0].element_type) && !s.inputs[0].quantization) {
      kinds.push_back("compare_LT_total");
      kinds.push_back("compare_GT_total");
    }
  }
  if (s.inputs == s.outputs) {
    kinds.push_back("identity");
    if (!s.inputs.empty() && IsIntegerScalar(s.inputs[0])) kinds.push_back("increment");
  }
  if (s.outputs.size() == 1 && s.outputs[0] == BoolScalar() && !s.inputs.empty() &&
      IsIntegerScalar(s.inputs[0])) {
    kinds.push_back("counter_lt_4");
  }
  if (s.outputs.size() == 1 && s.outputs[0] == BoolScalar() && LoopCounterArgument(s.inputs)) {
    kinds.push_back("counter_in_range");
  }
  if (s.inputs == s.outputs && LoopCounterArgument(s.inputs)) kinds.push_back("count_and_double");
  // Quantized outputs are constants of storage integers too.
  if (std::all_of(s.outputs.begin(), s.outputs.end(), [](const ValueType& t) {
        return t.is_tensor() || t.kind == ValueType::Kind::kToken;
      })) {
    kinds.push_back("data");
  }
  if (std::all_of(s.outputs.begin(), s.outputs.end(),
                  [](const ValueType& t) { return t.is_tensor(); })) {
    kinds.push_back("constant");
  }
  return kinds;
}

namespace {

// The identity of `kind` as one element of T, or nothing.
template <ElementType T>
std::optional<ContainerT<T>> IdentityElement(std::string_view kind) {
  using C = ContainerT<T>;
  const bool zero = kind == "add" || kind == "or" || kind == "xor";
  const bool one = kind == "multiply";
  const bool lowest = kind == "maximum";
  const bool highest = kind == "minimum";
  if constexpr (IsBool(T)) {
    // i1: add is or, multiply is and; false < true.
    if (zero || lowest) return C{0};
    if (one || highest || kind == "and") return C{1};
  } else if constexpr (IsInteger(T)) {
    constexpr int kBits = BitWidth(T);
    constexpr uint64_t kSign = uint64_t{1} << (kBits - 1);
    constexpr uint64_t kOnes = kBits == 64 ? ~uint64_t{0} : (uint64_t{1} << kBits) - 1;
    if (zero) return WrapInteger<T>(0);
    if (one) return WrapInteger<T>(1);
    if (kind == "and") return WrapInteger<T>(kOnes);
    if (lowest) return WrapInteger<T>(IsSignedInt(T) ? kSign : 0);
    if (highest) return WrapInteger<T>(IsSignedInt(T) ? kSign - 1 : kOnes);
  } else if constexpr (IsComplex(T)) {
    if (zero && kind == "add") return C{0, 0};
    if (one) return C{1, 0};
  } else {
    const FloatFormat& format = Format(T);
    const uint64_t largest =
        format.has_infinity ? format.infinity_bits() : format.max_finite_bits();
    if (kind == "add" && format.has_zero_and_subnormals) return FloatFromBits<T>(0);
    if (one) {
      C value;
      (void)ParseElementLiteral("1.0", T, &value);
      return value;
    }
    if (lowest) return FloatFromBits<T>(format.has_sign ? format.sign_mask() | largest : 0);
    if (highest) return FloatFromBits<T>(largest);
  }
  return std::nullopt;
}

}  // namespace

std::optional<Tensor> IdentityOfBody(std::string_view kind, const TensorType& type) {
  if (type.quantization) {
    // On quantized values the body computes on dequantized ones: add's
    // identity is quantized 0 (the zero point), maximum's the lowest storage
    // value and minimum's the highest; multiply has none that every scale
    // represents.
    const UniformQuantization& q = *type.quantization;
    if (q.quantization_dimension) return std::nullopt;
    int64_t storage = 0;
    if (kind == "add") {
      storage = q.zero_points.at(0);
    } else if (kind == "maximum") {
      storage = q.storage_min;
    } else if (kind == "minimum") {
      storage = q.storage_max;
    } else {
      return std::nullopt;
    }
    return DispatchElementType(type.element_type, [&]<ElementType T>() -> std::optional<Tensor> {
      if constexpr (IsInteger(T)) {
        Tensor tensor(type);
        for (auto& value : tensor.values<T>()) value = static_cast<ContainerT<T>>(storage);
        return tensor;
      }
      return std::nullopt;
    });
  }
  return DispatchElementType(type.element_type, [&]<ElementType T>() -> std::optional<Tensor> {
    const std::optional<ContainerT<T>> element = IdentityElement<T>(kind);
    if (!element) return std::nullopt;
    Tensor tensor(type);
    for (auto& value : tensor.values<T>()) value = *element;
    return tensor;
  });
}

absl::StatusOr<Region> BuildRegionBody(std::string_view kind, const FunctionType& s) {
  auto refuse = [&](std::string_view why) {
    return absl::InvalidArgumentError("region body '" + std::string(kind) + "' does not fit " +
                                      s.ToString() + ": " + std::string(why));
  };
  BodyBuilder b(s.inputs);
  if (std::find(CombinerKinds().begin(), CombinerKinds().end(), kind) != CombinerKinds().end()) {
    if (!IsCombinerSignature(s)) return refuse("expected (T0..Tn-1, T0..Tn-1) -> (T0..Tn-1)");
    size_t n = s.outputs.size();
    std::vector<ValueId> out;
    for (size_t i = 0; i < n; ++i) {
      const ValueType& t = s.outputs[i];
      if (!CombinerAccepts(kind, t.element_type, t.quantization.has_value())) {
        return refuse("not defined on " + t.ToString());
      }
      ValueId lhs = static_cast<ValueId>(i);
      ValueId rhs = static_cast<ValueId>(n + i);
      if (kind == "replace") {
        out.push_back(rhs);
      } else if (kind == "first") {
        out.push_back(lhs);
      } else {
        out.push_back(b.Emit("stablehlo." + std::string(kind), {lhs, rhs}, t));
      }
    }
    return b.Return(out);
  }
  if (kind.starts_with("compare_")) {
    if (!IsComparatorSignature(s)) return refuse("expected (T, T, ...) -> tensor<i1>");
    std::string_view rest = kind.substr(8);
    bool total = rest.ends_with("_total");
    std::string direction(rest.substr(0, 2));
    if (direction != "LT" && direction != "GT" && direction != "LE" && direction != "GE" &&
        direction != "EQ") {
      return refuse("unknown direction");
    }
    ElementType element = s.inputs[0].element_type;
    if (IsComplex(element)) return refuse("complex values have no order");
    const bool quantized = s.inputs[0].quantization.has_value();
    if (quantized && total) return refuse("quantized values compare with FLOAT only");
    ValueId cmp = b.Emit("stablehlo.compare", {0, 1}, BoolScalar(),
                         {{"comparison_direction", EnumValue{direction}},
                          {"compare_type", EnumValue{CompareType(element, total, quantized)}}});
    return b.Return({cmp});
  }
  if (kind == "identity" || kind == "increment") {
    if (!(s.inputs == s.outputs)) return refuse("inputs and outputs differ");
    std::vector<ValueId> out;
    for (size_t i = 0; i < s.inputs.size(); ++i) out.push_back(static_cast<ValueId>(i));
    if (kind == "increment") {
      if (s.inputs.empty() || !IsIntegerScalar(s.inputs[0])) {
        return refuse("argument 0 must be an integer scalar");
      }
      ValueId one = b.IntConstant(s.inputs[0], 1);
      out[0] = b.Emit("stablehlo.add", {0, one}, s.inputs[0]);
    }
    return b.Return(out);
  }
  if (kind.starts_with("counter_lt_")) {
    std::string digits(kind.substr(11));
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
        digits.size() > 9) {
      return refuse("expected counter_lt_<integer>");
    }
    int64_t limit = std::stoll(digits);
    if (s.inputs.empty() || !IsIntegerScalar(s.inputs[0]) || s.outputs.size() != 1 ||
        !(s.outputs[0] == BoolScalar())) {
      return refuse("expected (integer scalar, ...) -> tensor<i1>");
    }
    ValueId k = b.IntConstant(s.inputs[0], limit);
    ValueId cmp =
        b.Emit("stablehlo.compare", {0, k}, BoolScalar(),
               {{"comparison_direction", EnumValue{"LT"}},
                {"compare_type", EnumValue{CompareType(s.inputs[0].element_type, false)}}});
    return b.Return({cmp});
  }
  if (kind == "counter_in_range") {
    const std::optional<size_t> counter = LoopCounterArgument(s.inputs);
    if (!counter || s.outputs.size() != 1 || !(s.outputs[0] == BoolScalar())) {
      return refuse("expected (..., integer scalar, ...) -> tensor<i1>");
    }
    const ValueType& type = s.inputs[*counter];
    const CounterRange range = CounterRangeOf(type.element_type);
    const auto c = static_cast<ValueId>(*counter);
    auto compare = [&](ValueId lhs, ValueId rhs, const char* direction) {
      return b.Emit("stablehlo.compare", {lhs, rhs}, BoolScalar(),
                    {{"comparison_direction", EnumValue{direction}},
                     {"compare_type", EnumValue{CompareType(type.element_type, false)}}});
    };
    ValueId below = compare(c, b.IntConstant(type, range.hi), "LT");
    // Unsigned counters start at their lower bound already.
    if (range.lo == IntegerMin(type.element_type)) return b.Return({below});
    ValueId above = compare(c, b.IntConstant(type, range.lo), "GE");
    return b.Return({b.Emit("stablehlo.and", {above, below}, BoolScalar())});
  }
  if (kind == "count_and_double") {
    const std::optional<size_t> counter = LoopCounterArgument(s.inputs);
    if (!(s.inputs == s.outputs) || !counter) {
      return refuse("expected (T0, ..., Tn-1) -> (T0, ..., Tn-1) with an integer scalar");
    }
    std::vector<ValueId> out;
    for (size_t i = 0; i < s.inputs.size(); ++i) {
      const ValueType& t = s.inputs[i];
      const auto arg = static_cast<ValueId>(i);
      if (i == *counter) {
        out.push_back(b.Emit("stablehlo.add", {arg, b.IntConstant(t, 1)}, t));
      } else if (t.is_tensor() && !t.quantization) {
        out.push_back(b.Emit("stablehlo.add", {arg, arg}, t));
      } else {
        out.push_back(arg);
      }
    }
    return b.Return(out);
  }
  if (kind == "data") {
    std::vector<ValueId> out;
    for (const ValueType& t : s.outputs) {
      if (t.kind == ValueType::Kind::kToken) {
        out.push_back(b.Emit("stablehlo.after_all", {}, t));
      } else if (t.is_tensor()) {
        out.push_back(b.Zero(t));
      } else {
        return refuse("outputs must be tensors or tokens");
      }
    }
    return b.Return(out);
  }
  if (kind == "constant") {
    std::vector<ValueId> out;
    for (const ValueType& t : s.outputs) {
      if (!t.is_tensor()) return refuse("outputs must be tensors");
      out.push_back(b.Zero(t));
    }
    return b.Return(out);
  }
  return absl::InvalidArgumentError("unknown region body kind '" + std::string(kind) + "'");
}

}  // namespace hlocheck
