// Internal to the CUDA adapter: its op tables (one per file, named after the
// CPU adapter's and the oracle's files of the same chapter), machine
// buffers, and the helpers the files share. The op code here only reads the
// case, checks it and plans kernels; the kernels themselves are
// kernels/*_kernels.h, run by a Machine.
#ifndef HLOCHECK_ADAPTERS_CUDA_CUDA_INTERNAL_H_
#define HLOCHECK_ADAPTERS_CUDA_CUDA_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "adapters/adapter.h"
#include "adapters/cuda/kernels/kernel_api.h"
#include "adapters/region/tensor_region.h"
#include "core/case.h"
#include "core/element_type.h"
#include "core/tensor.h"

namespace hlocheck::cuda {

// Faults planted on purpose (faulty-cuda-* backends): each must make the
// gate fail (tests/adapters/cuda_adapter_test.cc, and scripts/gpu-check on
// a GPU).
struct Faults {
  bool flush_subnormals = false;     // f32 elementwise ops as with -ftz=true
  bool tf32 = false;                 // dot_general rounds f32 operands to TF32
  bool drop_last_block = false;      // reduce skips a row's last partial block
  bool transpose_tile_edge = false;  // transpose reads a neighbour on tile edges
};

// One tensor's bytes in machine memory, freed with it.
class Buffer {
 public:
  Buffer() = default;
  Buffer(Machine* machine, void* data, size_t bytes)
      : machine_(machine), data_(data), bytes_(bytes) {}
  Buffer(Buffer&& other) noexcept { *this = std::move(other); }
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }

 private:
  Machine* machine_ = nullptr;
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

// What an op runs with: the machine, the faults, and memory.
class Context {
 public:
  Context(Machine& machine, const Faults& faults) : machine_(machine), faults_(faults) {}
  Machine& machine() const { return machine_; }
  const Faults& faults() const { return faults_; }

  absl::StatusOr<Buffer> Allocate(size_t bytes);
  absl::StatusOr<Buffer> Upload(const Tensor& tensor);
  // The result of `type` from `buffer`, once the machine has finished.
  absl::StatusOr<Tensor> Download(const Buffer& buffer, const TensorType& type);
  // A kernel's error text as a status ("" is OK), naming the op.
  absl::Status Check(const Case& c, const std::string& error) const;

 private:
  Machine& machine_;
  const Faults& faults_;
};

using Results = std::vector<Tensor>;

struct OpEntry {
  std::string_view name;
  AdapterSupport (*supports)(const Case&);
  absl::StatusOr<Results> (*run)(const Case&, Context&);
};

std::vector<OpEntry> ElementwiseArithmeticOps();
std::vector<OpEntry> ElementwiseBitwiseOps();
std::vector<OpEntry> ElementwiseCompareSelectOps();
std::vector<OpEntry> ElementwiseConversionOps();
std::vector<OpEntry> ElementwiseComplexOps();
std::vector<OpEntry> ElementwiseMapOps();
std::vector<OpEntry> ElementwiseRoundingOps();
std::vector<OpEntry> ElementwiseTranscendentalOps();
std::vector<OpEntry> DataMovementShapeOps();
std::vector<OpEntry> DataMovementIndexingOps();
std::vector<OpEntry> DataMovementValuesOps();
std::vector<OpEntry> DataMovementSortOps();
std::vector<OpEntry> DataMovementScatterOps();
std::vector<OpEntry> DataMovementTuplesOps();
std::vector<OpEntry> ControlFlowOps();
std::vector<OpEntry> CallsOps();
std::vector<OpEntry> SideEffectsOps();
std::vector<OpEntry> CollectivesOps();
std::vector<OpEntry> RandomNumbersOps();
std::vector<OpEntry> FftOps();
std::vector<OpEntry> QuantizationOps();
std::vector<OpEntry> ReductionOps();
std::vector<OpEntry> BatchNormOps();
std::vector<OpEntry> LinearAlgebraOps();
std::vector<OpEntry> ContractionOps();

// The combiner of a body `{ ^bb(a, b): r = OP(a, b) (or OP(b, a)); return r }`
// whose arguments are rank-0 tensors of `type` (reduce's, scatter's), for
// OP add, multiply, maximum, minimum, and (and or, xor for integers and
// booleans); nothing for any other body.
std::optional<Combiner> CombinerOf(const Region& region, ElementType type);

// `tensor` in machine memory, converted to `type` (as convert does) where
// it is of another element type: a body wider than its input's type (the
// public spec's promotion for reduce and scatter) computes in the wider one.
absl::StatusOr<Buffer> UploadAs(const Case& c, Context& context, const Tensor& tensor,
                                ElementType type);

// The adapter's table: the entry of an op ("add" or "stablehlo.add"), or
// null; and what the adapter answers for a case.
const OpEntry* FindOp(std::string_view name);
AdapterSupport SupportsCase(const Case& c);

// The entries for ops on quantized tensors (quantized_ops.cc), which take
// a case with a quantized operand or result (HasQuantizedTensor) other than
// uniform_quantize/dequantize's; null for an op without one.
const OpEntry* FindQuantizedOp(std::string_view name);

// The adapter's op table as a region's ops see it (control flow, calls):
// every op of a region a case of its own on this context's machine (null
// only for TensorRegion::Create, which runs nothing).
class CudaRegionOps : public RegionOps {
 public:
  explicit CudaRegionOps(Context* context = nullptr) : context_(context) {}
  bool Has(std::string_view name) const override { return FindOp(name) != nullptr; }
  AdapterSupport Supports(const Case& c) const override { return SupportsCase(c); }
  absl::StatusOr<std::vector<Tensor>> Run(const Case& c) const override;

 private:
  Context* context_;
};

// A copy of `tensor` made on the machine: uploaded and downloaded, so that
// the ops that only pass values on (tuples, transfers) still take the
// device's memory path.
absl::StatusOr<Tensor> ThroughMachine(Context& context, const Tensor& tensor);

// The results of a pass-through op (adapters/region/pass_through.h: tuples,
// custom_call's hlocheck targets, transfers), each its source through the
// machine.
absl::StatusOr<Results> PassThroughCopies(const Case& c, Context& context);

// How the kernels store and compute `type`; nothing for complex types,
// which have no kernels yet.
std::optional<ElementKind> KindOf(ElementType type);

// No unless every operand and result is an unquantized tensor (on a 1 x 1
// grid) of a type with kernels: real types only, unless the op only moves
// bytes (`bytes_only`), which works for complex ones too.
AdapterSupport SupportsTensors(const Case& c, bool bytes_only = false);

absl::Status CheckCounts(const Case& c, size_t operands, size_t results = 1);

// A strided copy of the whole of `in` (of shape `in_shape`) into the whole
// of `out`, result dimension d reading operand dimension source[d]
// (-1: a new, broadcast dimension), with nothing else changed; the ops
// that need more fill in StridedCopyArgs themselves.
StridedCopyArgs PermutingCopy(const Shape& in_shape, const Shape& out_shape,
                              std::span<const int64_t> source, int element_bytes, const void* in,
                              void* out);

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_CUDA_INTERNAL_H_
