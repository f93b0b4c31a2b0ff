#include "adapters/faulty/faulty_adapters.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "adapters/cpu/cpu_adapter.h"
#include "adapters/faulty/faulty_internal.h"
#include "core/case_attributes.h"
#include "core/element_value.h"
#include "core/quantized_case.h"
#include "core/status_macros.h"

namespace hlocheck {
namespace {

using faulty::DistributedFaults;
using faulty::FaultEntry;
using faulty::FaultyAdapter;
using faulty::Make;

// exp(x) one ULP too large whenever x < 0, as a polynomial with a biased
// coefficient on one side of zero would give.
class ExponentialUlpFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    auto results = cpu().Run(c);
    if (!results.ok()) return results;
    Tensor& result = (*results)[0];
    const Tensor& operand = c.operands[0];
    DispatchElementType(operand.element_type(), [&]<ElementType T>() {
      if constexpr (IsFloat(T)) {
        auto in = operand.values<T>();
        auto out = result.values<T>();
        for (size_t i = 0; i < out.size(); ++i) {
          if (ToDouble<T>(in[i]) < 0) {
            out[i] = FloatFromBits<T>(NextFloatBits(Format(T), FloatBits<T>(out[i]), false));
          }
        }
      }
    });
    return results;
  }
};

// Signed integer add of two scalars (rank 0) one too large when an operand
// holds its type's minimum or maximum, as a saturation fix-up applied to a scalar
// fast path would do: a fault at a combination of boundary features (rank
// 0, special values), which the campaigns' guidance benchmark plants
// (bench/guided_vs_uniform.py).
class AddScalarExtremeFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    auto results = cpu().Run(c);
    if (!results.ok()) return results;
    if (!c.operands[0].shape().empty()) return results;
    DispatchElementType(c.operands[0].element_type(), [&]<ElementType T>() {
      // Whole-byte signed integers only: their containers wrap as the type does.
      if constexpr (IsSignedInt(T) && BitWidth(T) >= 8) {
        bool extreme = false;
        for (const Tensor& operand : c.operands) {
          const auto v = operand.values<T>()[0];
          extreme = extreme || static_cast<int64_t>(v) == IntegerMin(T) ||
                    static_cast<uint64_t>(v) == IntegerMaxUnsigned(T);
        }
        if (extreme) {
          auto out = (*results)[0].values<T>();
          out[0] = static_cast<ContainerT<T>>(out[0] + 1);
        }
      }
    });
    return results;
  }
};

// Transposes with two permutation entries swapped when the result cannot
// tell from its shape: two result dimensions of the same size.
class TransposeSwapFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Case swapped = c;
    auto& permutation = std::get<std::vector<int64_t>>(swapped.attributes["permutation"]);
    const Shape& shape = c.result_types[0].shape;
    for (size_t i = 0; i < shape.size(); ++i) {
      for (size_t j = i + 1; j < shape.size(); ++j) {
        if (shape[i] == shape[j] && shape[i] > 1) {
          std::swap(permutation[i], permutation[j]);
          return cpu().Run(swapped);
        }
      }
    }
    return cpu().Run(c);
  }
};

// Steps through the innermost dimension with stride - 1 when the stride is
// larger than one (the result keeps its shape).
class SliceStrideFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    if (c.operands[0].rank() == 0) return cpu().Run(c);
    Case wrong = c;
    auto& strides = std::get<std::vector<int64_t>>(wrong.attributes["strides"]);
    auto& limits = std::get<std::vector<int64_t>>(wrong.attributes["limit_indices"]);
    const auto& starts = std::get<std::vector<int64_t>>(wrong.attributes["start_indices"]);
    size_t last = strides.size() - 1;
    int64_t count = c.result_types[0].shape[last];
    if (strides[last] < 2 || count == 0) return cpu().Run(c);
    strides[last] -= 1;
    limits[last] = starts[last] + (count - 1) * strides[last] + 1;
    return cpu().Run(wrong);
  }
};

// `tensor` without the last index along `dimension`.
Tensor DropLastIndex(const Tensor& tensor, int64_t dimension) {
  Shape shape = tensor.shape();
  shape[dimension] -= 1;
  Tensor result(shape, tensor.element_type());
  std::vector<int64_t> strides = RowMajorStrides(tensor.shape());
  const size_t bytes = ContainerBytes(tensor.element_type());
  for (IndexIterator it(shape); !it.done(); it.Next()) {
    int64_t offset = 0;
    for (size_t d = 0; d < shape.size(); ++d) offset += it.index()[d] * strides[d];
    std::memcpy(result.bytes().data() + it.linear() * bytes, tensor.bytes().data() + offset * bytes,
                bytes);
  }
  return result;
}

// Loses the last term of the first contracting dimension, like a loop bound
// off by one in a tiled kernel.
class DotGeneralDropTermFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    const auto& lhs_contracting = c.attribute<std::vector<int64_t>>("lhs_contracting_dimensions");
    const auto& rhs_contracting = c.attribute<std::vector<int64_t>>("rhs_contracting_dimensions");
    if (lhs_contracting.empty() || c.operands[0].shape()[lhs_contracting[0]] < 2) {
      return cpu().Run(c);
    }
    Case shorter = c;
    shorter.operands[0] = DropLastIndex(c.operands[0], lhs_contracting[0]);
    shorter.operands[1] = DropLastIndex(c.operands[1], rhs_contracting[0]);
    return cpu().Run(shorter);
  }
};

// Loses the last element of every slice along the first reduced dimension,
// like a reduction loop that stops one short.
class ReduceDropTermFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    const auto& dimensions = c.attribute<std::vector<int64_t>>("dimensions");
    if (dimensions.empty() || c.operands[0].shape()[dimensions[0]] < 2) return cpu().Run(c);
    Case shorter = c;
    const size_t inputs = c.operand_segments.empty() ? 1 : c.operand_segments[0];
    for (size_t i = 0; i < inputs; ++i) {
      shorter.operands[i] = DropLastIndex(c.operands[i], dimensions[0]);
    }
    return cpu().Run(shorter);
  }
};

// Pads with zeros instead of the init values (a max pool whose padding
// wins over negative inputs): the padding, interior padding of base
// dilation included, is applied to the inputs explicitly, then the windows
// run unpadded.
class ReduceWindowZeroPaddingFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    const Shape& shape = c.operands[0].shape();
    const auto rank = static_cast<int64_t>(shape.size());
    const std::vector<int64_t> ones(static_cast<size_t>(rank), 1);
    auto dilations = IntListAttribute(c, "base_dilations", ones);
    auto padding = IntMatrixAttribute(c, "padding", rank, 2);
    if (!dilations.ok() || !padding.ok()) return cpu().Run(c);
    Shape padded_shape;
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t dilated = shape[d] == 0 ? 0 : (shape[d] - 1) * (*dilations)[d] + 1;
      padded_shape.push_back(
          std::max<int64_t>(0, (*padding)[2 * d] + dilated + (*padding)[2 * d + 1]));
    }
    Case zero_padded = c;
    zero_padded.attributes["padding"] = Tensor(Shape{rank, 2}, ElementType::kSI64);  // zeros
    zero_padded.attributes["base_dilations"] = ones;
    const size_t inputs = c.operand_segments.empty() ? 1 : c.operand_segments[0];
    const std::vector<int64_t> strides = RowMajorStrides(shape);
    for (size_t i = 0; i < inputs; ++i) {
      const Tensor& input = c.operands[i];
      const size_t bytes = ContainerBytes(input.element_type());
      Tensor padded(padded_shape, input.element_type());  // zeros
      for (IndexIterator it(padded_shape); !it.done(); it.Next()) {
        int64_t offset = 0;
        bool inside = true;
        for (int64_t d = 0; d < rank && inside; ++d) {
          const int64_t q = it.index()[d] - (*padding)[2 * d];
          inside = q >= 0 && q % (*dilations)[d] == 0 && q / (*dilations)[d] < shape[d];
          offset += inside ? q / (*dilations)[d] * strides[d] : 0;
        }
        if (inside) {
          std::memcpy(padded.bytes().data() + it.linear() * bytes,
                      input.bytes().data() + offset * bytes, bytes);
        }
      }
      zero_padded.operands[i] = std::move(padded);
    }
    return cpu().Run(zero_padded);
  }
};

// Hands the computation its arguments in reverse order, as a lowering that
// mixes up operand order would: invisible for a commutative body, caught
// by a comparison.
class MapSwappedArgumentsFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    for (const Tensor& t : c.operands) {
      if (t.element_type() != c.operands[0].element_type()) return cpu().Run(c);
    }
    Case swapped = c;
    std::reverse(swapped.operands.begin(), swapped.operands.end());
    return cpu().Run(swapped);
  }
};

// Ignores window_reversal, as a lowering that drops the attribute would.
class ConvolutionNoReversalFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Case unreversed = c;
    if (const Attribute* a = c.FindAttribute("window_reversal")) {
      if (const auto* flags = std::get_if<std::vector<bool>>(a)) {
        unreversed.attributes["window_reversal"] = std::vector<bool>(flags->size(), false);
      }
    }
    return cpu().Run(unreversed);
  }
};

// Gives a tie in a window to the last element instead of the first (the
// select's GE read as GT, LE as LT), as a kernel that scans its windows
// backwards would.
class SelectAndScatterLastTieFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Case last_tie = c;
    for (Block& block : last_tie.regions.at(0).blocks) {
      for (Operation& op : block.operations) {
        auto it = op.attributes.find("comparison_direction");
        if (it == op.attributes.end()) continue;
        if (auto* direction = std::get_if<EnumValue>(&it->second)) {
          if (direction->name == "GE") direction->name = "GT";
          if (direction->name == "LE") direction->name = "LT";
        }
      }
    }
    return cpu().Run(last_tie);
  }
};

// A forward FFT whose twiddle factors have the wrong sign for odd lengths
// (the generic radix of a mixed-radix FFT): the inverse transform times N,
// which is the conjugate-twiddle transform.
class FftOddTwiddleFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    const Attribute* type = c.FindAttribute("fft_type");
    const auto* name = type == nullptr ? nullptr : std::get_if<EnumValue>(type);
    const auto& lengths = c.attribute<std::vector<int64_t>>("fft_length");
    if (name == nullptr || name->name != "FFT" || lengths.size() != 1 || lengths[0] < 3 ||
        lengths[0] % 2 == 0) {
      return cpu().Run(c);
    }
    Case inverse = c;
    inverse.attributes["fft_type"] = EnumValue{"IFFT"};
    absl::StatusOr<std::vector<Tensor>> results = cpu().Run(inverse);
    if (!results.ok()) return results;
    DispatchElementType(results->at(0).element_type(), [&]<ElementType T>() {
      if constexpr (IsComplex(T)) {
        for (auto& v : results->at(0).values<T>())
          v *= static_cast<typename ContainerT<T>::value_type>(lengths[0]);
      }
    });
    return results;
  }
};

// Forgets epsilon, as a kernel that adds it only in training would.
class BatchNormNoEpsilonFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Case without = c;
    without.attributes["epsilon"] = 0.0;
    return cpu().Run(without);
  }
};

// The values of a float tensor as doubles, and back.
std::vector<double> AsDoubles(const Tensor& t) {
  std::vector<double> values(static_cast<size_t>(t.num_elements()));
  ConvertElements(t.element_type(), t.raw(), ElementType::kF64, values.data(), t.num_elements(),
                  nullptr, RoundingMode::kNearestEven);
  return values;
}

Tensor FromDoubles(const std::vector<double>& values, const TensorType& type) {
  Tensor t(type);
  ConvertElements(ElementType::kF64, values.data(), type.element_type, t.raw(), t.num_elements(),
                  nullptr, RoundingMode::kNearestEven);
  return t;
}

// The sum over each feature of a batch norm operand: `keep(i, sum)` gives
// the partial sum after element i (row-major order), `last` marks the last
// element of its feature.
template <typename Step>
std::vector<double> FeatureSums(const Tensor& t, int64_t feature_index, Step step) {
  const int64_t features = t.shape()[feature_index];
  const int64_t inner = RowMajorStrides(t.shape())[feature_index];
  const std::vector<double> values = AsDoubles(t);
  std::vector<double> sums(static_cast<size_t>(features), 0.0);
  std::vector<int64_t> remaining(static_cast<size_t>(features), 0);
  for (size_t i = 0; i < values.size(); ++i) ++remaining[(i / inner) % features];
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t f = (static_cast<int64_t>(i) / inner) % features;
    sums[f] = step(sums[f], values[i], --remaining[f] == 0);
  }
  return sums;
}

// batch_norm_training whose batch_mean loses the last element of each
// feature (a reduction loop that stops one short); output and batch_var
// are right.
class BatchNormTrainingDropTermFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    absl::StatusOr<std::vector<Tensor>> results = cpu().Run(c);
    if (!results.ok()) return results;
    const Tensor& operand = c.operands[0];
    const int64_t feature_index = c.attribute<int64_t>("feature_index");
    const int64_t features = operand.shape()[feature_index];
    if (features == 0) return results;
    const double count = static_cast<double>(operand.num_elements() / features);
    std::vector<double> mean =
        FeatureSums(operand, feature_index,
                    [](double sum, double x, bool last) { return last ? sum : sum + x; });
    for (double& m : mean) m /= count;
    (*results)[1] = FromDoubles(mean, c.result_types[1]);
    return results;
  }
};

// batch_norm_grad whose grad_offset keeps its partial sums in bf16, as a
// backend accumulating in a narrower type than the operands' would; the
// other results are right.
class BatchNormGradBf16SumFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    absl::StatusOr<std::vector<Tensor>> results = cpu().Run(c);
    if (!results.ok()) return results;
    auto to_bf16 = [](double v) {
      uint16_t bits;
      ConvertElements(ElementType::kF64, &v, ElementType::kBF16, &bits, 1, nullptr,
                      RoundingMode::kNearestEven);
      double back;
      ConvertElements(ElementType::kBF16, &bits, ElementType::kF64, &back, 1, nullptr,
                      RoundingMode::kNearestEven);
      return back;
    };
    const std::vector<double> sums =
        FeatureSums(c.operands[4], c.attribute<int64_t>("feature_index"),
                    [&](double sum, double x, bool) { return to_bf16(sum + x); });
    (*results)[2] = FromDoubles(sums, c.result_types[2]);
    return results;
  }
};

// cholesky on bf16: the operand rounded to bf16, factored, and the factor
// widened back, as a backend computing a narrow type's factorisation would.
class CholeskyBf16Fault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    const TensorType wide = c.result_types[0];
    if (!IsFloat(wide.element_type) || c.operands[0].type().quantization) return cpu().Run(c);
    Case narrow = c;
    narrow.operands[0] = Tensor(c.operands[0].shape(), ElementType::kBF16);
    ConvertElements(wide.element_type, c.operands[0].raw(), ElementType::kBF16,
                    narrow.operands[0].raw(), c.operands[0].num_elements(), nullptr,
                    RoundingMode::kNearestEven);
    narrow.result_types[0].element_type = ElementType::kBF16;
    absl::StatusOr<std::vector<Tensor>> results = cpu().Run(narrow);
    if (!results.ok()) return results;
    Tensor widened(wide);
    ConvertElements(ElementType::kBF16, (*results)[0].raw(), wide.element_type, widened.raw(),
                    widened.num_elements(), nullptr, RoundingMode::kNearestEven);
    (*results)[0] = std::move(widened);
    return results;
  }
};

// triangular_solve ignoring transpose_a: TRANSPOSE and ADJOINT solve with
// a as it is.
class TriangularSolveNoTransposeFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Case untransposed = c;
    untransposed.attributes["transpose_a"] = EnumValue{"NO_TRANSPOSE"};
    return cpu().Run(untransposed);
  }
};

// dot_general running a split algorithm (bf16_3x, bf16_6x, tf32_3x, ...) as
// its single pass: only the first components' product, each operand rounded
// once to its precision type, as a backend that does not know the split
// would.
class DotAlgorithmSinglePassFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    if (c.FindAttribute("num_primitive_operations") == nullptr) return cpu().Run(c);
    Case single = c;
    single.attributes["lhs_component_count"] = int64_t{1};
    single.attributes["rhs_component_count"] = int64_t{1};
    single.attributes["num_primitive_operations"] = int64_t{1};
    return cpu().Run(single);
  }
};

// uniform_quantize subtracting the zero point instead of adding it (a sign
// slip in the rescale's offset).
class QuantizeZeroPointSubtractedFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Case negated = c;
    const TensorType type = c.result_types.at(0);
    if (!type.quantization) return cpu().Run(c);
    for (int64_t& zero_point : negated.result_types[0].quantization->zero_points) {
      zero_point = -zero_point;
    }
    absl::StatusOr<std::vector<Tensor>> results = cpu().Run(negated);
    if (!results.ok() || results->size() != 1) return results;
    (*results)[0] = Tensor::Reusing(type, std::move((*results)[0]));
    return results;
  }
};

// Quantized add rescaling rhs with lhs's scales (a kernel that assumes its
// operands share their quantization parameters).
class QuantizedAddSharedScaleFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    if (c.operands.size() != 2 || !c.operands[0].type().quantization ||
        !c.operands[1].type().quantization ||
        c.operands[0].type().quantization->scales.size() !=
            c.operands[1].type().quantization->scales.size()) {
      return cpu().Run(c);
    }
    Case shared = c;
    TensorType rhs = c.operands[1].type();
    rhs.quantization->scales = c.operands[0].type().quantization->scales;
    shared.operands[1] = Tensor::Reusing(rhs, Tensor(c.operands[1]));
    return cpu().Run(shared);
  }
};

// A quantized reduction lowered onto its storage integers as a plain integer
// reduction: the quantization dropped from the operands, the results and
// the body's types (a lowering that forgets the zero points, which are then
// summed with the values, and wraps instead of saturating).
class QuantizedReduceOnStorageFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    if (!HasQuantizedTensor(c)) return cpu().Run(c);
    Case storage = OnStorage(c);
    for (Region& region : storage.regions) DropQuantization(region);
    HLOCHECK_ASSIGN_OR_RETURN(std::vector<Tensor> results, cpu().Run(storage));
    return FromStorage(c, std::move(results));
  }

 private:
  static void DropQuantization(Region& region) {
    for (Block& block : region.blocks) {
      for (ValueType& type : block.argument_types) type.quantization.reset();
      for (Operation& op : block.operations) {
        for (ValueType& type : op.result_types) type.quantization.reset();
        for (ValueType& type : op.operand_types) type.quantization.reset();
        for (Region& inner : op.regions) DropQuantization(inner);
      }
    }
  }
};

// Float-to-float conversions that truncate instead of rounding to nearest.
class ConvertTruncateFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    ElementType from = c.operands[0].element_type();
    ElementType to = c.result_types[0].element_type;
    bool floats = (IsFloat(from) || IsComplex(from)) && (IsFloat(to) || IsComplex(to));
    if (!floats) return cpu().Run(c);
    Tensor result(c.result_types[0]);
    ConvertElements(from, c.operands[0].raw(), to, result.raw(), result.num_elements(), nullptr,
                    RoundingMode::kTowardZero);
    std::vector<Tensor> results;
    results.push_back(std::move(result));
    return results;
  }
};

// shift_left with the amount masked to the bit width (x86's SHL): an amount
// of width or more shifts by amount mod width instead of giving 0. The spec
// leaves those elements open; the interpreter and XLA give 0, so this is
// the "differs from the de facto convention" verdict, not a failure.
class ShiftMaskedFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Tensor result(c.result_types[0]);
    const Tensor& lhs = c.operands[0];
    const Tensor& rhs = c.operands[1];
    DispatchElementType(result.element_type(), [&]<ElementType T>() {
      if constexpr (IsInteger(T)) {
        constexpr uint64_t kWidth = BitWidth(T);
        auto a = lhs.values<T>();
        auto b = rhs.values<T>();
        auto out = result.values<T>();
        for (size_t i = 0; i < out.size(); ++i) {
          const uint64_t amount = IntegerBits<T>(b[i]) & (kWidth - 1);
          out[i] = WrapInteger<T>(IntegerBits<T>(a[i]) << amount);
        }
      }
    });
    std::vector<Tensor> results;
    results.push_back(std::move(result));
    return results;
  }
};

const std::vector<FaultEntry>& FaultTable() {
  static const auto* table = [] {
    auto* faults = new std::vector<FaultEntry>{
        {{"faulty-exponential-ulp", "exponential",
          "exponential one ULP too large for negative inputs"},
         Make<ExponentialUlpFault>},
        {{"faulty-add-scalar-extreme", "add",
          "signed integer add of two scalars one too large when an operand is its type's "
          "minimum or maximum"},
         Make<AddScalarExtremeFault>},
        {{"faulty-transpose-swap", "transpose",
          "transpose with two permutation entries swapped when their result sizes match"},
         Make<TransposeSwapFault>},
        {{"faulty-slice-stride", "slice", "slice reading the innermost dimension with stride - 1"},
         Make<SliceStrideFault>},
        {{"faulty-dot-general-drop", "dot_general",
          "dot_general dropping the last term of its first contracting dimension"},
         Make<DotGeneralDropTermFault>},
        {{"faulty-dot-algorithm-single-pass", "dot_general",
          "dot_general running a split algorithm (bf16_3x, bf16_6x, tf32_3x) as one pass over "
          "the first components"},
         Make<DotAlgorithmSinglePassFault>},
        {{"faulty-reduce-drop", "reduce",
          "reduce dropping the last element of each slice along its first reduced dimension"},
         Make<ReduceDropTermFault>},
        {{"faulty-reduce-window-zero-padding", "reduce_window",
          "reduce_window padding with zeros instead of the init values"},
         Make<ReduceWindowZeroPaddingFault>},
        {{"faulty-map-swapped-arguments", "map",
          "map handing the computation its arguments in reverse order"},
         Make<MapSwappedArgumentsFault>},
        {{"faulty-convolution-no-reversal", "convolution", "convolution ignoring window_reversal"},
         Make<ConvolutionNoReversalFault>},
        {{"faulty-select-and-scatter-last-tie", "select_and_scatter",
          "select_and_scatter giving a tie in a window to its last element, not its first"},
         Make<SelectAndScatterLastTieFault>},
        {{"faulty-fft-odd-twiddle", "fft",
          "a 1-dimensional FFT of odd length with twiddle factors of the wrong sign"},
         Make<FftOddTwiddleFault>},
        {{"faulty-batch-norm-no-epsilon", "batch_norm_inference",
          "batch_norm_inference without epsilon"},
         Make<BatchNormNoEpsilonFault>},
        {{"faulty-batch-norm-training-drop", "batch_norm_training",
          "batch_norm_training whose batch_mean loses the last element of each feature"},
         Make<BatchNormTrainingDropTermFault>},
        {{"faulty-batch-norm-grad-bf16-sum", "batch_norm_grad",
          "batch_norm_grad summing grad_offset with bf16 partial sums"},
         Make<BatchNormGradBf16SumFault>},
        {{"faulty-cholesky-bf16", "cholesky",
          "cholesky factoring the operand rounded to bf16 (a narrow working precision)"},
         Make<CholeskyBf16Fault>},
        {{"faulty-triangular-solve-no-transpose", "triangular_solve",
          "triangular_solve ignoring transpose_a"},
         Make<TriangularSolveNoTransposeFault>},
        {{"faulty-quantize-zero-point-subtracted", "uniform_quantize",
          "uniform_quantize subtracting the zero point instead of adding it"},
         Make<QuantizeZeroPointSubtractedFault>},
        {{"faulty-quantized-add-shared-scale", "add",
          "quantized add rescaling rhs with lhs's scales (an integer kernel that assumes its "
          "operands share their quantization)"},
         Make<QuantizedAddSharedScaleFault>},
        {{"faulty-quantized-reduce-on-storage", "reduce",
          "quantized reduce run on the storage integers as a plain integer reduce (zero points "
          "summed with the values, wrap-around instead of saturation)"},
         Make<QuantizedReduceOnStorageFault>},
        {{"faulty-convert-truncate", "convert",
          "float-to-float convert rounding towards zero instead of to nearest even"},
         Make<ConvertTruncateFault>},
        {{"faulty-shift-masked", "shift_left",
          "shift_left masking the amount to the bit width, as x86 does (a free element: the "
          "de facto convention verdict, not a failure)"},
         Make<ShiftMaskedFault>},
    };
    for (FaultEntry& entry : DistributedFaults()) faults->push_back(std::move(entry));
    return faults;
  }();
  return *table;
}

}  // namespace

const std::vector<FaultDescription>& Faults() {
  static const auto* faults = [] {
    auto* list = new std::vector<FaultDescription>();
    for (const FaultEntry& entry : FaultTable()) list->push_back(entry.description);
    return list;
  }();
  return *faults;
}

std::unique_ptr<Adapter> CreateFaultyAdapter(const std::string& name,
                                             const AdapterOptions& options) {
  for (const FaultEntry& entry : FaultTable()) {
    if (entry.description.name == name) {
      return entry.create(name, entry.description.op, options);
    }
  }
  return nullptr;
}

}  // namespace hlocheck
