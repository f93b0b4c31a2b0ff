#include "adapters/cuda/cuda_adapter.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/machines.h"
#include "core/status_macros.h"

namespace hlocheck {
namespace cuda {

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    if (machine_ != nullptr && data_ != nullptr) machine_->Free(data_);
    machine_ = std::exchange(other.machine_, nullptr);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

Buffer::~Buffer() {
  if (machine_ != nullptr && data_ != nullptr) machine_->Free(data_);
}

absl::StatusOr<Buffer> Context::Allocate(size_t bytes) {
  void* data = nullptr;
  const std::string error = machine_.Allocate(bytes, &data);
  if (!error.empty()) return absl::ResourceExhaustedError(error);
  return Buffer(&machine_, data, bytes);
}

absl::StatusOr<Buffer> Context::Upload(const Tensor& tensor) {
  HLOCHECK_ASSIGN_OR_RETURN(Buffer buffer, Allocate(tensor.bytes().size()));
  const std::string error =
      machine_.CopyIn(buffer.data(), tensor.bytes().data(), tensor.bytes().size());
  if (!error.empty()) return absl::InternalError(error);
  return buffer;
}

absl::StatusOr<Tensor> Context::Download(const Buffer& buffer, const TensorType& type) {
  Tensor result(type);
  if (result.bytes().size() > buffer.bytes()) {
    return absl::InternalError("a result buffer is smaller than its tensor");
  }
  const std::string error =
      machine_.CopyOut(result.bytes().data(), buffer.data(), result.bytes().size());
  if (!error.empty()) return absl::InternalError(error);
  return result;
}

absl::Status Context::Check(const Case& c, const std::string& error) const {
  if (error.empty()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(c.op, ": ", error));
}

absl::StatusOr<Buffer> UploadAs(const Case& c, Context& context, const Tensor& tensor,
                                ElementType type) {
  HLOCHECK_ASSIGN_OR_RETURN(Buffer buffer, context.Upload(tensor));
  if (tensor.element_type() == type) return buffer;
  std::optional<ElementKind> from = KindOf(tensor.element_type());
  std::optional<ElementKind> to = KindOf(type);
  if (!from.has_value() || !to.has_value()) {
    return absl::UnimplementedError(c.op + ": complex types are not implemented on CUDA yet");
  }
  const int64_t count = tensor.num_elements();
  HLOCHECK_ASSIGN_OR_RETURN(Buffer converted,
                            context.Allocate(static_cast<size_t>(count) * ContainerBytes(type)));
  ElementwiseArgs convert;
  convert.op = ElementOp::kConvert;
  convert.in = *from;
  convert.out = *to;
  convert.a = buffer.data();
  convert.z = converted.data();
  convert.n = count;
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Elementwise(convert)));
  return converted;
}

std::optional<ElementKind> KindOf(ElementType type) {
  if (IsComplex(type)) return std::nullopt;
  ElementKind kind;
  kind.bits = BitWidth(type);
  kind.bytes = ContainerBytes(type);
  if (IsBool(type)) {
    kind.storage = Storage::kBool;
  } else if (IsSignedInt(type)) {
    kind.storage = Storage::kSigned;
  } else if (IsUnsignedInt(type)) {
    kind.storage = Storage::kUnsigned;
  } else if (type == ElementType::kF32) {
    kind.storage = Storage::kF32;
  } else if (type == ElementType::kF64) {
    kind.storage = Storage::kF64;
  } else {
    const FloatFormat& format = Format(type);
    kind.storage = kind.bytes == 1 ? Storage::kMini8 : Storage::kMini16;
    kind.mini.exponent_bits = format.exponent_bits;
    kind.mini.mantissa_bits = format.mantissa_bits;
    kind.mini.bias = format.bias;
    kind.mini.has_sign = format.has_sign;
    kind.mini.has_infinity = format.has_infinity;
    kind.mini.has_zero_and_subnormals = format.has_zero_and_subnormals;
    kind.mini.nan_encoding = static_cast<int>(format.nan_encoding);
  }
  return kind;
}

AdapterSupport SupportsTensors(const Case& c, bool bytes_only) {
  if (!c.operand_structure.empty() || !c.result_structure.empty()) {
    return AdapterSupport::No(c.op + " with tokens or tuples is not implemented on CUDA");
  }
  if (c.ProcessCount() != 1) {
    return AdapterSupport::No(c.op + " on a process grid is not implemented on CUDA");
  }
  std::vector<TensorType> types = c.result_types;
  for (const Tensor& operand : c.operands) types.push_back(operand.type());
  for (const TensorType& type : types) {
    if (type.quantization.has_value()) {
      return AdapterSupport::No(c.op + ": quantized tensors are not implemented on CUDA");
    }
    if (!bytes_only && !KindOf(type.element_type).has_value()) {
      return AdapterSupport::No(absl::StrCat(c.op, ": ", std::string(Name(type.element_type)),
                                             " is not implemented on CUDA yet"));
    }
  }
  return AdapterSupport::Yes();
}

absl::Status CheckCounts(const Case& c, size_t operands, size_t results) {
  if (c.operands.size() != operands || c.result_types.size() != results) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, " takes ", operands, " operands and ",
                                                   results, " results, not ", c.operands.size(),
                                                   " and ", c.result_types.size()));
  }
  return absl::OkStatus();
}

StridedCopyArgs PermutingCopy(const Shape& in_shape, const Shape& out_shape,
                              std::span<const int64_t> source, int element_bytes, const void* in,
                              void* out) {
  StridedCopyArgs args;
  args.rank = static_cast<int>(out_shape.size());
  args.element_bytes = element_bytes;
  args.in = in;
  args.out = out;
  const std::vector<int64_t> in_strides = RowMajorStrides(in_shape);
  const std::vector<int64_t> out_strides = RowMajorStrides(out_shape);
  for (int d = 0; d < args.rank; ++d) {
    args.dims[d] = out_shape[d];
    args.out_strides[d] = out_strides[d];
    args.div[d] = 1;
    const int64_t s = source[d];
    // A broadcast dimension reads coordinate 0 of nothing: multiplier 0.
    args.mul[d] = s < 0 ? 0 : 1;
    args.in_dims[d] = s < 0 ? 1 : in_shape[s];
    args.in_strides[d] = s < 0 ? 0 : in_strides[s];
  }
  return args;
}

}  // namespace cuda

namespace {

const std::vector<cuda::OpEntry>& OpTable() {
  static const std::vector<cuda::OpEntry> table = [] {
    std::vector<cuda::OpEntry> ops;
    for (const auto& family : {cuda::ElementwiseArithmeticOps(),
                               cuda::ElementwiseBitwiseOps(),
                               cuda::ElementwiseCompareSelectOps(),
                               cuda::ElementwiseConversionOps(),
                               cuda::ElementwiseComplexOps(),
                               cuda::ElementwiseMapOps(),
                               cuda::ElementwiseRoundingOps(),
                               cuda::ElementwiseTranscendentalOps(),
                               cuda::ReductionOps(),
                               cuda::ContractionOps(),
                               cuda::BatchNormOps(),
                               cuda::LinearAlgebraOps(),
                               cuda::DataMovementShapeOps(),
                               cuda::DataMovementIndexingOps(),
                               cuda::DataMovementValuesOps(),
                               cuda::DataMovementSortOps(),
                               cuda::DataMovementScatterOps(),
                               cuda::DataMovementTuplesOps(),
                               cuda::ControlFlowOps(),
                               cuda::CallsOps(),
                               cuda::SideEffectsOps(),
                               cuda::CollectivesOps(),
                               cuda::RandomNumbersOps(),
                               cuda::FftOps(),
                               cuda::QuantizationOps()}) {
      ops.insert(ops.end(), family.begin(), family.end());
    }
    return ops;
  }();
  return table;
}

}  // namespace

namespace cuda {

const OpEntry* FindOp(std::string_view name) {
  if (name.starts_with("stablehlo.")) name.remove_prefix(10);
  for (const OpEntry& entry : OpTable()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

// The entry that runs `c`: for a case with quantized tensors, the
// quantized path where the op has one.
const OpEntry* EntryFor(const Case& c) {
  if (HasQuantizedTensor(c)) {
    if (const OpEntry* quantized = FindQuantizedOp(c.op)) return quantized;
  }
  return FindOp(c.op);
}

AdapterSupport SupportsCase(const Case& c) {
  const OpEntry* op = EntryFor(c);
  if (op == nullptr) return AdapterSupport::No(c.op + " is not implemented on CUDA yet");
  return op->supports(c);
}

absl::StatusOr<std::vector<Tensor>> CudaRegionOps::Run(const Case& c) const {
  const OpEntry* op = EntryFor(c);
  if (op == nullptr || context_ == nullptr) {
    return absl::InternalError("region: cannot run " + c.op + " on CUDA");
  }
  return op->run(c, *context_);
}

absl::StatusOr<Tensor> ThroughMachine(Context& context, const Tensor& tensor) {
  HLOCHECK_ASSIGN_OR_RETURN(Buffer buffer, context.Upload(tensor));
  return context.Download(buffer, tensor.type());
}

}  // namespace cuda

CudaAdapter::CudaAdapter(std::string name, std::unique_ptr<cuda::Machine> machine,
                         cuda::Faults faults)
    : name_(std::move(name)), machine_(std::move(machine)), faults_(faults) {}

CudaAdapter::~CudaAdapter() = default;

absl::StatusOr<std::unique_ptr<CudaAdapter>> CudaAdapter::OnDevice(std::string name,
                                                                   cuda::Faults faults) {
  std::string why;
  std::unique_ptr<cuda::Machine> machine = cuda::CreateDeviceMachine(&why);
  if (machine == nullptr) return absl::FailedPreconditionError(absl::StrCat(name, ": ", why));
  return std::unique_ptr<CudaAdapter>(new CudaAdapter(std::move(name), std::move(machine), faults));
}

std::unique_ptr<CudaAdapter> CudaAdapter::OnHost(std::string name, cuda::Faults faults) {
  return std::unique_ptr<CudaAdapter>(
      new CudaAdapter(std::move(name), cuda::CreateHostMachine(), faults));
}

std::string CudaAdapter::DescribeMachine() const { return machine_->Describe(); }

std::vector<std::string> CudaAdapter::Ops() {
  std::vector<std::string> names;
  for (const cuda::OpEntry& entry : OpTable()) names.emplace_back(entry.name);
  return names;
}

AdapterSupport CudaAdapter::Supports(const Case& c) const { return cuda::SupportsCase(c); }

absl::StatusOr<std::vector<Tensor>> CudaAdapter::Run(const Case& c) {
  const cuda::OpEntry* op = cuda::EntryFor(c);
  if (op == nullptr) return absl::UnimplementedError(c.op + " is not implemented on CUDA yet");
  cuda::Context context(*machine_, faults_);
  absl::StatusOr<std::vector<Tensor>> results = op->run(c, context);
  // A kernel's error (an illegal address, say) shows at the next
  // synchronisation: make it this case's.
  const std::string pending = machine_->Synchronize();
  if (!pending.empty()) return absl::InternalError(absl::StrCat(c.op, ": ", pending));
  return results;
}

std::vector<CudaFaultDescription> CudaFaults() {
  std::vector<CudaFaultDescription> faults(4);
  faults[0] = {"ftz", "f32 elementwise ops flush subnormal inputs and results (-ftz=true)", {}};
  faults[0].faults.flush_subnormals = true;
  faults[1] = {"tf32", "dot_general rounds f32 operands to TF32 (tensor cores) unasked", {}};
  faults[1].faults.tf32 = true;
  faults[2] = {"reduce-drops-block",
               "reduce's tree drops the last partial block of a row whose length is not a "
               "multiple of the block",
               {}};
  faults[2].faults.drop_last_block = true;
  faults[3] = {"transpose-tile-edge",
               "transpose reads the neighbouring element on the last column of each 32-wide tile",
               {}};
  faults[3].faults.transpose_tile_edge = true;
  return faults;
}

}  // namespace hlocheck
