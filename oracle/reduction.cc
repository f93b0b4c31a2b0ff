// Reductions (seed 002: reduce, reduce_window, select_and_scatter).
// reduce_window pads its inputs with the init values and reduces each window
// as reduce does; select_and_scatter reduces the source values each operand
// element is selected for. The
// spec applies the body over an
// implementation-defined full binary tree whose in-order traversal is the
// slice of the inputs in ascending index order, interspersed with an
// implementation-defined number of init values at implementation-defined
// positions. The reference is the public interpreter's schedule (the init
// value once, then the slice from left to right); what every other tree
// allows, element by element and result by result:
// - a body output recognised as one order-independent op of its two
//   arguments (integer and boolean add and multiply, maximum and minimum of
//   reals, and, or, xor), with an init value that is that op's identity: the
//   same value in every tree, compared exactly;
// - float add and multiply (complex add part by part) with an identity init
//   value: the exact value and Higham's bound for any tree (accumulation.h),
//   free where some tree may overflow;
// - anything else (another body, or an init value that is not the
//   identity, so that the number of init values in the tree shows): free,
//   with the interpreter's schedule as the de facto convention, since XLA
//   too uses each init value once. docs/numerics.md says the same.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/element_value.h"
#include "core/status_macros.h"
#include "oracle/accumulation.h"
#include "oracle/data_movement_helpers.h"
#include "oracle/element_comparison.h"
#include "oracle/element_encoding.h"
#include "oracle/element_results.h"
#include "oracle/quantization.h"
#include "oracle/quantized_fold.h"

namespace hlocheck::oracle {
namespace {

constexpr std::string_view kOtherTreeReason =
    "the body or its init value is not a recognised monoid (an order-independent op with its "
    "identity): the spec leaves the reduction tree and the number of init values to the "
    "implementation; the reference is the public interpreter's (the init value once, then the "
    "slice "
    "left to right)";
// The collectives' reductions have no init value.
constexpr std::string_view kOtherScheduleReason =
    "the computation is not a recognised order-independent op: the spec leaves the reduction "
    "schedule (a binary tree over the group's operands) to the implementation; the reference "
    "folds the group's operands in group order";
constexpr std::string_view kOverflowReason =
    "some reduction order of the float values overflows (or underflows a product) and another "
    "does not";

Tensor ConvertedTo(const Tensor& t, ElementType type) {
  if (t.element_type() == type) return t;
  Tensor out(TensorType{t.shape(), type});
  ConvertElements(t.element_type(), t.bytes().data(), type, out.bytes().data(), t.num_elements());
  return out;
}

// to_destination_type(x, the body's type E) for an input of a reduction.
// Quantized: is_promotable allows a wider storage type of the same
// expressed type; with the same scale and zero point, quantize(x, E) keeps
// every storage integer. Other parameters would requantize (not here).
absl::StatusOr<Tensor> ConvertedToBodyType(const Tensor& t, const TensorType& result) {
  if (!result.quantization && !t.type().quantization) return ConvertedTo(t, result.element_type);
  const UniformQuantization* from = t.type().quantization ? &*t.type().quantization : nullptr;
  const UniformQuantization& to = *result.quantization;
  if (from == nullptr || from->scales != to.scales || from->zero_points != to.zero_points ||
      from->expressed_type != to.expressed_type) {
    return absl::UnimplementedError(
        "unsupported: a reduction whose body's quantized type has another scale or zero point "
        "than its input's (requantizing the inputs is not in the oracle)");
  }
  TensorType type(t.shape(), result.element_type);
  type.quantization = to;
  return Tensor::Reusing(type, ConvertedTo(t, result.element_type));
}

// One result of a reduction and what an implementation may return instead:
// exact elements, and (once one needs it) an error bound per element.
class ReductionResult {
 public:
  ReductionResult(const TensorType& type)
      : reference_(type), free_(static_cast<size_t>(type.num_elements())) {}

  Tensor& reference() { return reference_; }
  FreeElements& free() { return free_; }

  // Element `position`'s parts (one for real, two for complex types) have
  // the given centers and bounds; its reference becomes the center rounded.
  template <ElementType T>
  void Bound(int64_t position, const OrderFreeValue* parts) {
    constexpr int kParts = IsComplex(T) ? 2 : 1;
    if (bound_.empty()) {
      const size_t count = static_cast<size_t>(reference_.num_elements()) * kParts;
      center_hi_.assign(count, 0.0);
      center_lo_.assign(count, 0.0);
      bound_.assign(count, 0.0);
      has_bound_.assign(static_cast<size_t>(reference_.num_elements()), 0);
    }
    has_bound_[position] = 1;
    double rounded[kParts];
    for (int p = 0; p < kParts; ++p) {
      center_hi_[position * kParts + p] = parts[p].hi;
      center_lo_[position * kParts + p] = parts[p].lo;
      bound_[position * kParts + p] = parts[p].bound;
      rounded[p] = parts[p].hi + parts[p].lo;
    }
    constexpr ElementType kPart = ComponentType(T);
    if constexpr (IsComplex(T)) {
      reference_.values<T>()[position] = {RoundDouble<kPart>(rounded[0]),
                                          RoundDouble<kPart>(rounded[1])};
    } else {
      reference_.values<T>()[position] = RoundDouble<T>(rounded[0]);
    }
  }

  // Element `position` of a quantized result: its storage integer and the
  // range every tree allows (the first range makes the result a range one;
  // elements without one are exact).
  void Range(int64_t position, int64_t reference, int64_t low, int64_t high) {
    if (low_.empty()) {
      const auto count = static_cast<size_t>(reference_.num_elements());
      low_.resize(count);
      high_.resize(count);
      has_range_.assign(count, 0);
    }
    SetStorage(reference_, position, reference);
    low_[position] = low;
    high_[position] = high;
    has_range_[position] = 1;
  }

  ResultExpectation Finish() && {
    ResultExpectation e;
    e.check = Check::kExact;
    if (!low_.empty()) {
      e.check = Check::kStorageRange;
      for (size_t p = 0; p < has_range_.size(); ++p) {
        if (has_range_[p]) continue;
        low_[p] = high_[p] = StorageAt(reference_, static_cast<int64_t>(p));
      }
      e.storage_low = std::move(low_);
      e.storage_high = std::move(high_);
    }
    if (!bound_.empty()) {
      e.check = Check::kErrorBound;
      // The exact elements: center = their value, bound 0.
      DispatchElementType(reference_.element_type(), [&]<ElementType T>() {
        if constexpr (IsFloat(T) || IsComplex(T)) {
          constexpr int kParts = IsComplex(T) ? 2 : 1;
          auto values = reference_.values<T>();
          for (size_t p = 0; p < has_bound_.size(); ++p) {
            if (has_bound_[p]) continue;
            if constexpr (IsComplex(T)) {
              center_hi_[p * kParts] = values[p].real();
              center_hi_[p * kParts + 1] = values[p].imag();
            } else {
              center_hi_[p] = ToDouble<T>(values[p]);
            }
          }
        }
      });
      e.center_hi = std::move(center_hi_);
      e.center_lo = std::move(center_lo_);
      e.bound = std::move(bound_);
    }
    e.reference = std::move(reference_);
    std::move(free_).MoveInto(e);
    return e;
  }

 private:
  Tensor reference_;
  FreeElements free_;
  std::vector<double> center_hi_, center_lo_, bound_;
  std::vector<uint8_t> has_bound_;
  std::vector<int64_t> low_, high_;
  std::vector<uint8_t> has_range_;
};

// Where one result element's values come from: positions in the inputs,
// or kInitValue for an element of padding (reduce_window pads with the init
// values).
constexpr int64_t kInitValue = -1;

// Float add or multiply of one result element in every tree: per part, the
// values it reduces (an identity init value changes nothing, however often
// the tree holds it).
template <ElementType T>
void BoundElement(ReductionResult& result, Combiner kind, const Tensor& input,
                  const Tensor& init_value, const std::vector<int64_t>& positions,
                  int64_t position) {
  constexpr int kParts = IsComplex(T) ? 2 : 1;
  auto values = input.values<T>();
  std::vector<double> terms[kParts];
  // OrderFreeProduct counts its first factor in every partial product: the
  // identity, so that any sub-product of the values is covered.
  if (kind == Combiner::kMultiply) {
    for (int p = 0; p < kParts; ++p) terms[p].push_back(1.0);
  }
  for (int64_t at : positions) {
    const auto x = at == kInitValue ? init_value.values<T>()[0] : values[at];
    if constexpr (IsComplex(T)) {
      terms[0].push_back(x.real());
      terms[1].push_back(x.imag());
    } else {
      terms[0].push_back(ToDouble<T>(x));
    }
  }
  const FloatFormat& format = Format(ComponentType(T));
  OrderFreeValue parts[kParts];
  for (int p = 0; p < kParts; ++p) {
    parts[p] = kind == Combiner::kAdd ? OrderFreeSum(terms[p], format)
                                      : OrderFreeProduct(terms[p], format);
    if (parts[p].free) result.free().Mark(static_cast<size_t>(position), kOverflowReason);
  }
  result.Bound<T>(position, parts);
}

// What one result's elements are checked by (kQuantized: quantized_fold.h).
enum class Policy { kExact, kBound, kQuantized, kConvention };

// A quantized result element over the values at `positions`: exact, a
// storage range, or open with an integer kernel's value as the convention.
void FoldQuantizedElement(ReductionResult& result, Combiner kind, const Tensor& input,
                          const Tensor& init_value, const std::vector<int64_t>& positions,
                          int64_t position, bool with_init) {
  std::vector<int64_t> storages;
  storages.reserve(positions.size() + 1);
  if (with_init) storages.push_back(StorageAt(init_value, 0));
  for (int64_t at : positions) {
    storages.push_back(at == kInitValue ? StorageAt(init_value, 0) : StorageAt(input, at));
  }
  const QuantizedFold fold = FoldQuantized(kind, storages, input.type());
  if (fold.outcome == QuantizedFold::Outcome::kOpen) {
    SetStorage(result.reference(), position, fold.reference);
    result.free().MarkConventional(static_cast<size_t>(position), std::string(fold.reason));
    return;
  }
  result.Range(position, fold.reference, fold.low, fold.high);
}

// The body's value for a recognised combiner of `current` and `next`, as
// the oracle's own ops compute it (add and multiply of integers wrap, i1
// add is or and multiply and; maximum and minimum are the ops' own
// Extremum): for the exact policies, where every tree gives this value, so
// that the body need not be interpreted element by element. Float add and
// multiply never come here (their elements are bounded), nor complex
// numbers (never exact).
template <ElementType T>
ContainerT<T> CombineDirectly(Combiner kind, ContainerT<T> current, ContainerT<T> next) {
  using C = ContainerT<T>;
  switch (kind) {
    case Combiner::kKeep:
      return current;
    case Combiner::kReplace:
      return next;
    case Combiner::kMaximum:
      return Extremum<T, true>(current, next).value;
    case Combiner::kMinimum:
      return Extremum<T, false>(current, next).value;
    default:
      break;
  }
  if constexpr (IsBool(T)) {
    const bool a = current != 0, b = next != 0;
    switch (kind) {
      case Combiner::kAdd:
      case Combiner::kOr:
        return static_cast<C>(a || b);
      case Combiner::kMultiply:
      case Combiner::kAnd:
        return static_cast<C>(a && b);
      default:  // kXor
        return static_cast<C>(a != b);
    }
  } else if constexpr (IsInteger(T)) {
    const uint64_t a = IntegerBits<T>(current), b = IntegerBits<T>(next);
    switch (kind) {
      case Combiner::kAdd:
        return WrapInteger<T>(a + b);
      case Combiner::kMultiply:
        return WrapInteger<T>(a * b);
      case Combiner::kAnd:
        return WrapInteger<T>(a & b);
      case Combiner::kOr:
        return WrapInteger<T>(a | b);
      default:  // kXor
        return WrapInteger<T>(a ^ b);
    }
  } else {
    return current;  // CombinesDirectly admits no other kind for floats
  }
}

// Whether CombineDirectly computes `kind` for `type` (the exact policies'
// combiners).
bool CombinesDirectly(Combiner kind, ElementType type) {
  if (kind == Combiner::kKeep || kind == Combiner::kReplace) return true;
  return OrderIndependent(kind, type) && !IsComplex(type) &&
         (IsFloat(type) ? kind == Combiner::kMaximum || kind == Combiner::kMinimum : true);
}

// reduce and reduce_window alike: result element p of every result is the
// body applied over a tree of the values at `positions(p, out)` of the
// inputs (converted to the body's types E) and of init values; see the file
// comment for the tree. `what` names the op in errors.
//
// Without init values (all_reduce: `raw_init_values` empty) the tree's
// leaves are the values alone, at least one: the reference folds them left
// to right from the first, and keep and replace are exact too (any tree
// whose in-order traversal is the values keeps the first, or the last).
template <typename Positions>
Results ReduceEach(std::span<const Tensor> raw_inputs, std::span<const Tensor> raw_init_values,
                   const Region& body, std::span<const TensorType> result_types,
                   std::string_view what, Positions&& positions) {
  const size_t n = raw_inputs.size();
  const bool with_init = !raw_init_values.empty();
  std::vector<Tensor> inputs, init_values;
  std::vector<ReductionResult> results;
  for (size_t i = 0; i < n; ++i) {
    HLOCHECK_ASSIGN_OR_RETURN(Tensor input, ConvertedToBodyType(raw_inputs[i], result_types[i]));
    inputs.push_back(std::move(input));
    // Without init values, BoundElement never reads one (no position is
    // kInitValue): the input stands in.
    if (with_init) {
      HLOCHECK_ASSIGN_OR_RETURN(Tensor init,
                                ConvertedToBodyType(raw_init_values[i], result_types[i]));
      init_values.push_back(std::move(init));
    } else {
      init_values.push_back(inputs.back());
    }
    results.emplace_back(result_types[i]);
  }

  const std::vector<Combiner> kinds = ClassifyCombiners(body, n);
  std::vector<Policy> policies(n, Policy::kConvention);
  for (size_t i = 0; i < n; ++i) {
    const ElementType e = result_types[i].element_type;
    if (!with_init && (kinds[i] == Combiner::kKeep || kinds[i] == Combiner::kReplace)) {
      policies[i] = Policy::kExact;
      continue;
    }
    // A quantized body computes on dequantized values: its storage
    // integers do not add, multiply or compare as the storage type's do.
    if (result_types[i].quantization) {
      if (FoldsQuantized(kinds[i]) &&
          (!with_init ||
           IsQuantizedIdentity(kinds[i], StorageAt(init_values[i], 0), result_types[i]))) {
        policies[i] = Policy::kQuantized;
      }
      continue;
    }
    if (with_init && !IsIdentity(kinds[i], e, init_values[i].bytes().data())) continue;
    if (OrderIndependent(kinds[i], e)) policies[i] = Policy::kExact;
    if (Bounded(kinds[i], e)) policies[i] = Policy::kBound;
  }

  // Where no result needs the body's own value (every one exact with a
  // combiner computed directly, or bounded), the body is not interpreted:
  // the same references, at a fraction of the cost.
  bool direct = true;
  for (size_t i = 0; i < n; ++i) {
    const ElementType e = result_types[i].element_type;
    direct = direct && (policies[i] == Policy::kBound || policies[i] == Policy::kQuantized ||
                        (policies[i] == Policy::kExact && CombinesDirectly(kinds[i], e)));
  }
  const int64_t count = result_types[0].num_elements();
  std::vector<int64_t> at;
  if (direct) {
    // One result at a time, its element type dispatched once.
    for (size_t i = 0; i < n; ++i) {
      absl::Status status =
          DispatchElementType(result_types[i].element_type, [&]<ElementType T>() -> absl::Status {
            const auto input = inputs[i].values<T>();
            const ContainerT<T> init = init_values[i].values<T>().empty()
                                           ? ContainerT<T>{}
                                           : init_values[i].values<T>()[0];
            auto reference = results[i].reference().values<T>();
            for (int64_t position = 0; position < count; ++position) {
              at.clear();
              positions(position, at);
              if (!with_init && at.empty()) {
                return absl::InvalidArgumentError(std::string(what) + ": nothing to reduce");
              }
              if (policies[i] == Policy::kQuantized) {
                FoldQuantizedElement(results[i], kinds[i], inputs[i], init_values[i], at, position,
                                     with_init);
                continue;
              }
              if (policies[i] == Policy::kBound && !at.empty()) {
                if constexpr (IsFloat(T) || IsComplex(T)) {
                  BoundElement<T>(results[i], kinds[i], inputs[i], init_values[i], at, position);
                }
                continue;
              }
              // The left fold from the init value (or the first value).
              auto value = [&](int64_t a) { return a == kInitValue ? init : input[a]; };
              size_t k = 0;
              ContainerT<T> folded = with_init ? init : value(at[k++]);
              for (; k < at.size(); ++k)
                folded = CombineDirectly<T>(kinds[i], folded, value(at[k]));
              reference[position] = folded;
            }
            return absl::OkStatus();
          });
      HLOCHECK_RETURN_IF_ERROR(status);
    }
    std::vector<ResultExpectation> expectations;
    for (ReductionResult& result : results) expectations.push_back(std::move(result).Finish());
    return expectations;
  }

  PreparedRegion prepared(body);
  std::vector<Tensor> arguments(2 * n);
  for (int64_t position = 0; position < count; ++position) {
    at.clear();
    positions(position, at);
    size_t first = 0;
    if (with_init) {
      for (size_t i = 0; i < n; ++i) CopyElementTo(init_values[i], 0, arguments[i]);
    } else {
      if (at.empty()) return absl::InvalidArgumentError(std::string(what) + ": nothing to reduce");
      for (size_t i = 0; i < n; ++i) CopyElementTo(inputs[i], at[0], arguments[i]);
      first = 1;
    }
    for (size_t k = first; k < at.size(); ++k) {
      const int64_t a = at[k];
      for (size_t i = 0; i < n; ++i) {
        CopyElementTo(a == kInitValue ? init_values[i] : inputs[i], a == kInitValue ? 0 : a,
                      arguments[n + i]);
      }
      HLOCHECK_ASSIGN_OR_RETURN(std::span<const Tensor> values, prepared.Call(arguments));
      if (values.size() != n) {
        return absl::InvalidArgumentError(std::string(what) + ": body returned " +
                                          std::to_string(values.size()) + " values, not " +
                                          std::to_string(n));
      }
      for (size_t i = 0; i < n; ++i) CopyElementTo(values[i], 0, arguments[i]);
    }
    for (size_t i = 0; i < n; ++i) {
      Tensor& reference = results[i].reference();
      const size_t bytes = ContainerBytes(reference.element_type());
      std::memcpy(reference.bytes().data() + position * bytes, arguments[i].bytes().data(), bytes);
      if (policies[i] == Policy::kQuantized) {
        FoldQuantizedElement(results[i], kinds[i], inputs[i], init_values[i], at, position,
                             with_init);
        continue;
      }
      // Nothing to reduce leaves only init values: with an identity, any
      // number of them is the identity.
      if (policies[i] == Policy::kExact || (at.empty() && policies[i] != Policy::kConvention)) {
        continue;
      }
      if (policies[i] == Policy::kConvention) {
        results[i].free().MarkConventional(position,
                                           with_init ? kOtherTreeReason : kOtherScheduleReason);
        continue;
      }
      DispatchElementType(reference.element_type(), [&]<ElementType T>() {
        if constexpr (IsFloat(T) || IsComplex(T)) {
          BoundElement<T>(results[i], kinds[i], inputs[i], init_values[i], at, position);
        }
      });
    }
  }
  std::vector<ResultExpectation> expectations;
  for (ReductionResult& result : results) expectations.push_back(std::move(result).Finish());
  return expectations;
}

// reduce: results...[j] = body applied over a tree of the slice
// inputs...[j0, ..., :, ..., jR-1] and init values.
Results Reduce(const Case& c) {
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> dimensions, IntListAttribute(c, "dimensions"));
  // Each result element's slice: its base offset in the inputs (the kept
  // dimensions) plus the offsets of the reduced dimensions, ascending.
  const Shape& shape = InputTensors(c, 0)[0].shape();
  std::sort(dimensions.begin(), dimensions.end());
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (!std::binary_search(dimensions.begin(), dimensions.end(), d)) kept.push_back(d);
  }
  const std::vector<int64_t> bases = SubspaceOffsets(shape, kept);
  const std::vector<int64_t> slice = SubspaceOffsets(shape, dimensions);
  return ReduceEach(InputTensors(c, 0), InputTensors(c, 1), c.regions[0], c.result_types, "reduce",
                    [&](int64_t position, std::vector<int64_t>& at) {
                      for (int64_t offset : slice) at.push_back(bases[position] + offset);
                    });
}

// reduce_window: padded_inputs = pad(inputs, init_values, padding low and
// high, interior base_dilations - 1); each result element reduces the window
// slice(padded_inputs, result_index * window_strides, window_end,
// window_dilations), window_end = window_start + (window_dimensions - 1) *
// window_dilations + 1, with the init values.
Results ReduceWindow(const Case& c) {
  const Shape& shape = InputTensors(c, 0)[0].shape();
  const auto rank = static_cast<int64_t>(shape.size());
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> window_dimensions,
                            IntListAttribute(c, "window_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> window_strides,
                            IntListAttribute(c, "window_strides", std::vector<int64_t>(rank, 1)));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> base_dilations,
                            IntListAttribute(c, "base_dilations", std::vector<int64_t>(rank, 1)));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> window_dilations,
                            IntListAttribute(c, "window_dilations", std::vector<int64_t>(rank, 1)));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> padding,
                            IntMatrixAttribute(c, "padding", rank, 2));
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  const Shape& result_shape = c.result_types[0].shape;
  Shape window_shape(window_dimensions.begin(), window_dimensions.end());
  return ReduceEach(InputTensors(c, 0), InputTensors(c, 1), c.regions[0], c.result_types,
                    "reduce_window", [&](int64_t position, std::vector<int64_t>& at) {
                      std::vector<int64_t> result_index(rank);
                      for (int64_t d = rank - 1, rest = position; d >= 0; --d) {
                        result_index[d] = result_shape[d] == 0 ? 0 : rest % result_shape[d];
                        rest = result_shape[d] == 0 ? 0 : rest / result_shape[d];
                      }
                      for (IndexIterator it(window_shape); !it.done(); it.Next()) {
                        // The padded index, then where it lies in the input: before or after
                        // it (low and high padding), between two elements (interior padding),
                        // or on one.
                        int64_t offset = 0;
                        for (int64_t d = 0; d < rank && offset != kInitValue; ++d) {
                          const int64_t padded = result_index[d] * window_strides[d] +
                                                 it.index()[d] * window_dilations[d];
                          const int64_t dilated = padded - padding[2 * d];
                          if (dilated < 0 || dilated % base_dilations[d] != 0 ||
                              dilated / base_dilations[d] >= shape[d]) {
                            offset = kInitValue;
                          } else {
                            offset += dilated / base_dilations[d] * strides[d];
                          }
                        }
                        at.push_back(offset);
                      }
                    });
}

// select_and_scatter's select, when it is one compare of its two
// arguments, in order, returned: LT/LE/GT/GE pick the first or last extreme
// of a window in every tree, since they are associative on a total order.
// `total`: also with NaN (TOTALORDER, or a type that has no NaN).
struct SelectOrder {
  bool recognised = false;
  bool total = false;
};

std::string EnumOf(const Operation& op, const std::string& name) {
  auto it = op.attributes.find(name);
  if (it == op.attributes.end()) return "";
  if (const auto* e = std::get_if<EnumValue>(&it->second)) return e->name;
  if (const auto* text = std::get_if<std::string>(&it->second)) return *text;
  return "";
}

SelectOrder ClassifySelect(const Region& select, ElementType type) {
  SelectOrder order;
  if (select.blocks.size() != 1) return order;
  const Block& block = select.blocks[0];
  if (block.arguments.size() != 2 || block.operations.size() != 2) return order;
  const Operation& compare = block.operations[0];
  const Operation& ret = block.operations[1];
  if (compare.name != "stablehlo.compare" || compare.results.size() != 1 ||
      compare.operands != block.arguments || ret.operands.size() != 1 ||
      ret.operands[0] != compare.results[0]) {
    return order;
  }
  const std::string direction = EnumOf(compare, "comparison_direction");
  if (direction != "LT" && direction != "LE" && direction != "GT" && direction != "GE")
    return order;
  if (IsComplex(type)) return order;
  order.recognised = true;
  order.total =
      !IsFloat(type) || !Format(type).has_nan() || EnumOf(compare, "compare_type") == "TOTALORDER";
  return order;
}

bool HasNaN(const Tensor& t, std::span<const int64_t> positions) {
  return DispatchElementType(t.element_type(), [&]<ElementType T>() -> bool {
    if constexpr (IsFloat(T)) {
      for (int64_t p : positions) {
        if (std::isnan(ToDouble<T>(t.values<T>()[p]))) return true;
      }
    }
    return false;
  });
}

// select_and_scatter: each window of operand (padding positions hold no
// operand element) selects one element, select folded over the window in
// an implementation-defined tree (reduce_window_without_init); each result
// element is the reduce, with scatter and init_value, of the source values
// whose windows selected it, in an implementation-defined order. Where
// the tree could change the selection (an unrecognised select over three or
// more candidates, or NaN under a FLOAT comparison), the window's candidates
// are free with the left fold's choice as the convention; a window without
// any operand element is unspecified (openxla/stablehlo#731), which leaves
// every element free with "no scatter" as the convention.
Results SelectAndScatter(const Case& c) {
  const Tensor& operand = c.operands[0];
  const Tensor& source = c.operands[1];
  const Shape& shape = operand.shape();
  const auto rank = static_cast<int64_t>(shape.size());
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> window_dimensions,
                            IntListAttribute(c, "window_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> window_strides,
                            IntListAttribute(c, "window_strides", std::vector<int64_t>(rank, 1)));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> padding,
                            IntMatrixAttribute(c, "padding", rank, 2));
  const Region& select = c.regions[0];
  const Region& scatter = c.regions[1];
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  const Shape window_shape(window_dimensions.begin(), window_dimensions.end());
  const SelectOrder order = ClassifySelect(select, operand.element_type());

  // Each window's selected operand position (-1: none), left fold.
  PreparedRegion select_body(select);
  std::vector<int64_t> selected(static_cast<size_t>(source.num_elements()), -1);
  std::vector<std::vector<int64_t>> ambiguous;  // candidates of windows the tree could change
  bool empty_window = false;
  std::vector<int64_t> candidates;
  std::vector<Tensor> arguments(2);
  int64_t window = 0;
  for (IndexIterator s(source.shape()); !s.done(); s.Next(), ++window) {
    candidates.clear();
    for (IndexIterator w(window_shape); !w.done(); w.Next()) {
      int64_t offset = 0;
      for (int64_t d = 0; d < rank && offset >= 0; ++d) {
        const int64_t at = s.index()[d] * window_strides[d] + w.index()[d] - padding[2 * d];
        offset = at < 0 || at >= shape[d] ? -1 : offset + at * strides[d];
      }
      if (offset >= 0) candidates.push_back(offset);
    }
    if (candidates.empty()) {
      empty_window = true;
      continue;
    }
    int64_t best = candidates[0];
    // Some comparison's answer allowed another (quantized values two
    // readings compare apart): the selection is not the spec's alone.
    bool answer_open = false;
    for (size_t k = 1; k < candidates.size(); ++k) {
      CopyElementTo(operand, best, arguments[0]);
      CopyElementTo(operand, candidates[k], arguments[1]);
      HLOCHECK_ASSIGN_OR_RETURN(std::span<const Tensor> keep, select_body.Call(arguments));
      if (keep.size() != 1 || keep[0].element_type() != ElementType::kI1) {
        return absl::InvalidArgumentError("select_and_scatter: select must return one i1");
      }
      if (keep[0].values<ElementType::kI1>()[0] == 0) best = candidates[k];
      answer_open = answer_open || select_body.last_call_open();
    }
    selected[window] = best;
    const bool tree_free =
        answer_open || (candidates.size() >= 3 &&
                        (!order.recognised || (!order.total && HasNaN(operand, candidates))));
    if (tree_free) ambiguous.push_back(candidates);
  }

  // The source values each result element gathers, in source order.
  std::vector<std::vector<int64_t>> gathered(static_cast<size_t>(operand.num_elements()));
  for (size_t w = 0; w < selected.size(); ++w) {
    if (selected[w] >= 0) gathered[selected[w]].push_back(static_cast<int64_t>(w));
  }
  const std::vector<Tensor> sources = {source};
  const std::vector<Tensor> init_values = {c.operands[2]};
  HLOCHECK_ASSIGN_OR_RETURN(
      std::vector<ResultExpectation> results,
      ReduceEach(sources, init_values, scatter, c.result_types, "select_and_scatter",
                 [&](int64_t position, std::vector<int64_t>& at) { at = gathered[position]; }));
  ResultExpectation& e = results[0];
  const auto count = static_cast<size_t>(e.reference.num_elements());
  auto mark = [&](size_t position, uint8_t kind, const std::string& why) {
    if (e.free.empty()) e.free.assign(count, 0);
    if (e.free[position] == kFreeAnyValue) return;
    e.free[position] = kind;
    if (e.free_reason.find(why) == std::string::npos) {
      e.free_reason += (e.free_reason.empty() ? "" : "; ") + why;
    }
  };
  for (const std::vector<int64_t>& window_candidates : ambiguous) {
    for (int64_t p : window_candidates) {
      mark(static_cast<size_t>(p), kFreeWithConvention,
           "select is not a recognised total order on this window: the selection tree decides "
           "which element receives the source value (the reference folds left to right)");
    }
  }
  if (empty_window) {
    for (size_t p = 0; p < count; ++p) {
      mark(p, kFreeWithConvention,
           "a window holds no operand element: what happens to its source value is unspecified "
           "(openxla/stablehlo#731); the reference scatters it nowhere");
    }
  }
  return results;
}

}  // namespace

Results ReduceAcrossGroup(std::span<const Tensor> stacked, const Region& body,
                          std::span<const TensorType> result_types, int64_t count) {
  const int64_t size = result_types.empty() ? 0 : result_types[0].num_elements();
  return ReduceEach(stacked, {}, body, result_types, "all_reduce",
                    [&](int64_t position, std::vector<int64_t>& at) {
                      for (int64_t k = 0; k < count; ++k) at.push_back(k * size + position);
                    });
}

std::vector<OpEntry> ReductionOps() {
  return {{"reduce", Reduce},
          {"reduce_window", ReduceWindow},
          {"select_and_scatter", SelectAndScatter}};
}

}  // namespace hlocheck::oracle
