// Internal to the CPU adapter: the op tables (one per file, named after it
// and after the oracle's file of the same name: elementwise_arithmetic.cc's
// ElementwiseArithmeticOps(), ...) and the helpers the files share. Only the adapter's own .cc
// files include this; it pulls in Eigen's Tensor module, which is slow to compile.
#ifndef HLOCHECK_ADAPTERS_CPU_CPU_INTERNAL_H_
#define HLOCHECK_ADAPTERS_CPU_CPU_INTERNAL_H_

// Every translation unit that includes the Tensor module must agree on this,
// or the Eigen templates they share would differ (an ODR violation).
#ifndef EIGEN_USE_THREADS
#define EIGEN_USE_THREADS
#endif
#include <unsupported/Eigen/CXX11/Tensor>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "adapters/adapter.h"
#include "core/case.h"
#include "core/case_attributes.h"
#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/status_macros.h"
#include "core/tensor.h"

namespace hlocheck::cpu {

using Device = Eigen::ThreadPoolDevice;
using Results = std::vector<Tensor>;

// OpEntry::operands of an op whose operand count varies (concatenate,
// dynamic_slice, ...): its supports() checks the operand and result counts.
inline constexpr size_t kVariadic = static_cast<size_t>(-1);

// The result tensor of an op that writes every element of it: on the
// storage of a tensor of the same size that CpuAdapter::RunInto was handed,
// when there is one (taken from that list), else a new one.
Tensor NewResult(const TensorType& type);

// One op of the adapter's table. supports() answers for the element types
// and ranks (the adapter has already checked the op name and the operand and
// result counts). run() validates everything else and answers
// InvalidArgument for a malformed case rather than touch memory out of
// bounds.
struct OpEntry {
  std::string_view name;
  size_t operands;  // with 1 result; or kVariadic
  AdapterSupport (*supports)(const Case&);
  absl::StatusOr<Results> (*run)(const Case&, const Device&);
};

// The adapter's table, for the ops that run region bodies through it
// (region.h): the entry of an op ("add" or "stablehlo.add"), or null; and
// what CpuAdapter::Supports answers for a case.
const OpEntry* FindOp(std::string_view name);
AdapterSupport SupportsCase(const Case& c);

// The adapter's kernels for ops on quantized tensors (quantized_ops.cc),
// which take a case with a quantized operand or result (HasQuantizedTensor)
// before the op's own entry does: the op's integer kernel, or its kernel on
// the storage integers for an op that only moves elements; null for any
// other op.
const OpEntry* FindQuantizedOp(std::string_view name);

// The op tables, one per file.
std::vector<OpEntry> ElementwiseArithmeticOps();
std::vector<OpEntry> ElementwiseBitwiseOps();
std::vector<OpEntry> ElementwiseCompareSelectOps();
std::vector<OpEntry> ElementwiseComplexOps();
std::vector<OpEntry> ElementwiseMapOps();
std::vector<OpEntry> ElementwiseConversionOps();
std::vector<OpEntry> ElementwiseRoundingOps();
std::vector<OpEntry> ElementwiseTranscendentalOps();
std::vector<OpEntry> BatchNormOps();
std::vector<OpEntry> ContractionOps();
// if, case and while: they and the tuple ops take tokens (Case's structure).
std::vector<OpEntry> ControlFlowOps();
// composite and custom_call: they take tokens and tuples too.
std::vector<OpEntry> CallsOps();
// The collectives and replica_id/partition_id: a case holds every process's
// operands and results (Case's grid).
std::vector<OpEntry> CollectivesOps();
std::vector<OpEntry> FftOps();
std::vector<OpEntry> LinearAlgebraOps();
std::vector<OpEntry> RandomNumbersOps();
// uniform_quantize and uniform_dequantize: quantized tensors as their
// storage integers with their type's parameters.
std::vector<OpEntry> QuantizationOps();
std::vector<OpEntry> ReductionOps();
// after_all, infeed, outfeed, send and recv: tokens, and messages across the
// op's boundary (Case's incoming and outgoing).
std::vector<OpEntry> SideEffectsOps();
std::vector<OpEntry> DataMovementIndexingOps();
std::vector<OpEntry> DataMovementScatterOps();
std::vector<OpEntry> DataMovementShapeOps();
std::vector<OpEntry> DataMovementSortOps();
// optimization_barrier, tuple and get_tuple_element: the only ops that take
// a Case with tokens or tuples (Case's structure).
std::vector<OpEntry> DataMovementTuplesOps();
std::vector<OpEntry> DataMovementValuesOps();

// The Eigen kernels of data movement are instantiated for ranks up to this.
inline constexpr int kMaxRank = 8;

// Splits [0, n) into blocks for the pool. `bytes` and `cycles` are the cost
// of one element; Eigen uses them to decide how many threads pay off.
template <typename Fn>
void ParallelFor(const Device& device, int64_t n, double bytes, double cycles, Fn&& fn) {
  if (n <= 0) return;
  device.parallelFor(static_cast<Eigen::Index>(n), Eigen::TensorOpCost(bytes, bytes, cycles),
                     [&fn](Eigen::Index first, Eigen::Index last) {
                       fn(static_cast<int64_t>(first), static_cast<int64_t>(last));
                     });
}

// Transposes a dense row-major buffer of `shape` (elements of
// `container_bytes` bytes) so that result dimension d is operand dimension
// perm[d]. Requires a valid permutation and rank <= kMaxRank. Only the bytes
// move, so any element type of that container size goes through it.
void TransposeBytes(const void* source, const Shape& shape, std::span<const int64_t> perm,
                    int container_bytes, void* destination, const Device& device);

// True when transposing `shape` by `perm` leaves the bytes where they are
// (it only moves dimensions of size 1, or the tensor is empty).
bool TransposeIsIdentity(const Shape& shape, std::span<const int64_t> perm);

// Converts `count` elements as the spec's convert does (the shared
// conversion layer, in blocks on the pool).
void ConvertBuffer(ElementType from, const void* source, ElementType to, void* destination,
                   int64_t count, const Device& device);

// Float types narrower than f32 are computed in float. float holds every
// value of each of them exactly, and with 24 >= 2p + 2 significand bits one
// basic operation done in float and rounded once more to the narrow type is
// the correctly rounded result (Figueroa's double rounding theorem).
//
// Decoding the 1-byte float types is a table look-up: one table per type,
// built once from the shared, exhaustively verified decoder.
template <ElementType T>
const std::array<float, 256>& DecodeTable() {
  static_assert(kIsBitPatternFloat<T> && sizeof(ContainerT<T>) == 1);
  static const std::array<float, 256> table = [] {
    std::array<float, 256> values{};
    const FloatFormat& format = Format(T);
    const uint64_t mask = (uint64_t{1} << format.total_bits()) - 1;
    for (uint64_t bits = 0; bits < 256; ++bits) {
      values[bits] = static_cast<float>(DecodeFloat(format, bits & mask).ToDouble());
    }
    return values;
  }();
  return table;
}

template <ElementType T>
inline float ToFloat(ContainerT<T> value) {
  if constexpr (T == ElementType::kF16) {
    return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(value));
  } else if constexpr (T == ElementType::kBF16) {
    return static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(value));
  } else {
    return DecodeTable<T>()[value];
  }
}

// Rounds a float to type T to nearest even, once, with T's own overflow rule.
// `format` is Format(T), hoisted out of the caller's loop.
template <ElementType T>
inline ContainerT<T> FromFloat(float value, const FloatFormat& format) {
  if constexpr (T == ElementType::kF16) {
    return Eigen::numext::bit_cast<uint16_t>(Eigen::half(value));
  } else if constexpr (T == ElementType::kBF16) {
    return Eigen::numext::bit_cast<uint16_t>(Eigen::bfloat16(value));
  } else {
    return static_cast<ContainerT<T>>(
        EncodeFloat(format, ExactValue::FromDouble(static_cast<double>(value))));
  }
}

// Typed views of tensor storage for Eigen expressions. Tensors are row-major.
template <typename S, int Rank = 1>
using ConstMap = Eigen::TensorMap<Eigen::Tensor<const S, Rank, Eigen::RowMajor, Eigen::Index>>;
template <typename S, int Rank = 1>
using Map = Eigen::TensorMap<Eigen::Tensor<S, Rank, Eigen::RowMajor, Eigen::Index>>;

// Debian's Abseil has its own string_view, which StrCat does not take from
// the std::string_view that Name() returns.
inline std::string TypeName(ElementType type) { return std::string(Name(type)); }

inline Results OneResult(Tensor tensor) {
  Results results;
  results.push_back(std::move(tensor));
  return results;
}

// No when an operand or result is quantized: this backend has no kernels
// for quantized tensors.
inline AdapterSupport SupportsUnquantized(const Case& c) {
  for (const Tensor& t : c.operands) {
    if (t.type().quantization.has_value()) {
      return AdapterSupport::No(std::string(c.op) + ": quantized tensors are not supported");
    }
  }
  for (const TensorType& t : c.result_types) {
    if (t.quantization.has_value()) {
      return AdapterSupport::No(std::string(c.op) + ": quantized tensors are not supported");
    }
  }
  return AdapterSupport::Yes();
}

// Checks the operand and result counts; the adapter's table also checks
// them, but every Run*() is callable on its own.
absl::Status CheckCounts(const Case& c, size_t operands, size_t results = 1);

// The tensors of each operand of the spec (`variadic`: which of them are),
// several for a variadic one: as operand_segments says, or when it is empty
// the variadic ones sharing the rest equally.
absl::StatusOr<std::vector<std::span<const Tensor>>> OperandGroups(
    const Case& c, const std::vector<bool>& variadic);

}  // namespace hlocheck::cpu

#endif  // HLOCHECK_ADAPTERS_CPU_CPU_INTERNAL_H_
