#include "adapters/cpu/cpu_adapter.h"

#include <algorithm>
#include <array>
#include <thread>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/cpu_internal.h"
#include "adapters/cpu/tensor_region.h"
#include "core/status_macros.h"

namespace hlocheck {
namespace cpu {

absl::Status CheckCounts(const Case& c, size_t operands, size_t results) {
  if (c.operands.size() != operands || c.result_types.size() != results) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, " takes ", operands, " operands and has ",
                                                   results, results == 1 ? " result" : " results",
                                                   ", not ", c.operands.size(), " and ",
                                                   c.result_types.size()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::span<const Tensor>>> OperandGroups(
    const Case& c, const std::vector<bool>& variadic) {
  const size_t inputs = variadic.size();
  std::vector<int64_t> sizes = c.operand_segments;
  const auto count = static_cast<int64_t>(c.operands.size());
  if (sizes.empty()) {
    // No segment sizes (an op of a program, as MLIR writes it): the
    // variadic inputs share what the plain ones leave equally (MLIR's
    // SameVariadicOperandSize, which these ops declare).
    const auto plain = static_cast<int64_t>(std::count(variadic.begin(), variadic.end(), false));
    const auto shared = static_cast<int64_t>(inputs) - plain;
    const int64_t each = shared == 0 ? 1 : (count - plain) / shared;
    for (bool v : variadic) sizes.push_back(v ? each : 1);
  }
  bool valid = sizes.size() == inputs;
  int64_t total = 0;
  for (int64_t size : sizes) {
    valid = valid && size >= 0 && size <= count;
    total += valid ? size : 0;
  }
  if (!valid || total != count) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": ", c.operands.size(),
                                                   " operands do not make its ", inputs,
                                                   " inputs (operand_segments)"));
  }
  std::vector<std::span<const Tensor>> groups;
  std::span<const Tensor> all(c.operands);
  size_t start = 0;
  for (int64_t size : sizes) {
    groups.push_back(all.subspan(start, static_cast<size_t>(size)));
    start += static_cast<size_t>(size);
  }
  return groups;
}

}  // namespace cpu

namespace {

using cpu::OpEntry;

const std::vector<OpEntry>& OpTable() {
  static const std::vector<OpEntry> table = [] {
    std::vector<OpEntry> ops;
    for (const auto& family : {cpu::ElementwiseArithmeticOps(),
                               cpu::ElementwiseBitwiseOps(),
                               cpu::ElementwiseCompareSelectOps(),
                               cpu::ElementwiseComplexOps(),
                               cpu::ElementwiseMapOps(),
                               cpu::ElementwiseConversionOps(),
                               cpu::ElementwiseRoundingOps(),
                               cpu::ElementwiseTranscendentalOps(),
                               cpu::BatchNormOps(),
                               cpu::ContractionOps(),
                               cpu::ControlFlowOps(),
                               cpu::CallsOps(),
                               cpu::CollectivesOps(),
                               cpu::FftOps(),
                               cpu::LinearAlgebraOps(),
                               cpu::QuantizationOps(),
                               cpu::ReductionOps(),
                               cpu::SideEffectsOps(),
                               cpu::DataMovementIndexingOps(),
                               cpu::DataMovementScatterOps(),
                               cpu::DataMovementShapeOps(),
                               cpu::DataMovementSortOps(),
                               cpu::DataMovementTuplesOps(),
                               cpu::DataMovementValuesOps(),
                               cpu::RandomNumbersOps()}) {
      ops.insert(ops.end(), family.begin(), family.end());
    }
    return ops;
  }();
  return table;
}

}  // namespace

namespace cpu {

const OpEntry* FindOp(std::string_view name) {
  // Case ops may carry the dialect prefix ("stablehlo.add").
  if (name.starts_with("stablehlo.")) name.remove_prefix(10);
  for (const OpEntry& entry : OpTable()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

AdapterSupport SupportsCase(const Case& c) {
  if (HasQuantizedTensor(c)) {
    if (const OpEntry* quantized = FindQuantizedOp(c.op)) return quantized->supports(c);
  }
  const OpEntry* op = FindOp(c.op);
  if (op == nullptr) return AdapterSupport::No(absl::StrCat("op ", c.op, " is not implemented"));
  if (!c.operand_structure.empty() || !c.result_structure.empty()) {
    static const std::vector<OpEntry> tuple_ops = DataMovementTuplesOps();
    static const std::vector<OpEntry> control_flow_ops = ControlFlowOps();
    static const std::vector<OpEntry> calls_ops = CallsOps();
    static const std::vector<OpEntry> side_effects_ops = SideEffectsOps();
    bool takes_structure = false;
    for (const auto* ops : {&tuple_ops, &control_flow_ops, &calls_ops, &side_effects_ops}) {
      for (const OpEntry& entry : *ops) takes_structure |= entry.name == op->name;
    }
    if (!takes_structure) {
      return AdapterSupport::No(absl::StrCat(std::string(op->name), " takes no tokens or tuples"));
    }
  }
  if (op->operands != kVariadic &&
      (c.operands.size() != op->operands || c.result_types.size() != 1)) {
    return AdapterSupport::No(
        absl::StrCat(std::string(op->name), " needs ", op->operands, " operands and 1 result"));
  }
  return op->supports(c);
}

}  // namespace cpu

struct CpuAdapter::Pool {
  explicit Pool(int threads) : pool(threads), device(&pool, threads) {}
  Eigen::ThreadPool pool;
  Eigen::ThreadPoolDevice device;
};

CpuAdapter::CpuAdapter(const AdapterOptions& options) {
  int threads = options.threads;
  if (threads <= 0) threads = static_cast<int>(std::thread::hardware_concurrency());
  pool_ = std::make_unique<Pool>(std::max(threads, 1));
}

CpuAdapter::~CpuAdapter() = default;

int CpuAdapter::threads() const { return pool_->device.numThreads(); }

std::vector<std::string> CpuAdapter::Ops() {
  std::vector<std::string> names;
  for (const OpEntry& entry : OpTable()) names.emplace_back(entry.name);
  return names;
}

AdapterSupport CpuAdapter::Supports(const Case& c) const { return cpu::SupportsCase(c); }

namespace {

// The tensors RunInto was handed, for NewResult to build results on. Ops
// run on the calling thread (the pool only runs their kernels), so a
// thread-local list reaches them without threading it through every op's
// signature; outside RunInto it is null and NewResult allocates.
thread_local std::vector<Tensor>* recycled_results = nullptr;

}  // namespace

Tensor cpu::NewResult(const TensorType& type) {
  if (recycled_results != nullptr) {
    const int64_t bytes = type.num_elements() * ContainerBytes(type.element_type);
    for (Tensor& candidate : *recycled_results) {
      if (static_cast<int64_t>(candidate.bytes().size()) == bytes && bytes > 0) {
        return Tensor::Reusing(type, std::move(candidate));
      }
    }
  }
  return Tensor(type);
}

absl::Status CpuAdapter::RunInto(const Case& c, std::vector<Tensor>& results) {
  std::vector<Tensor> recycled = std::move(results);
  recycled_results = &recycled;
  absl::StatusOr<std::vector<Tensor>> ran = Run(c);
  recycled_results = nullptr;
  HLOCHECK_RETURN_IF_ERROR(ran.status());
  results = std::move(*ran);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Tensor>> CpuAdapter::Run(const Case& c) {
  // The caller asked Supports (adapter.h); asking again would double the
  // cost of the check on every case. Only an unknown op is refused here,
  // since there is no function to call.
  const OpEntry* op = nullptr;
  if (HasQuantizedTensor(c)) op = cpu::FindQuantizedOp(c.op);
  if (op == nullptr) op = cpu::FindOp(c.op);
  if (op == nullptr)
    return absl::UnimplementedError(absl::StrCat("op ", c.op, " is not implemented"));
  return op->run(c, pool_->device);
}

namespace {

// func.call ops, and composites whose decomposition is a function of the
// module, as the op table's `call`: the function's body becomes the op's
// region (its func.return the region's return), as a case of `call` holds
// it (a composite is a call of its decomposition).
absl::Status CallsAsRegions(Region& region, const Module& module, int depth) {
  if (depth > 16) return absl::UnimplementedError("calls nested more than 16 deep");
  for (Block& block : region.blocks) {
    for (Operation& op : block.operations) {
      for (Region& inner : op.regions) {
        HLOCHECK_RETURN_IF_ERROR(CallsAsRegions(inner, module, depth));
      }
      const std::string* called = CalledFunction(op);
      if (called == nullptr) continue;
      const Function* function = module.Find(*called);
      if (function == nullptr || function->body.blocks.size() != 1) {
        return absl::InvalidArgumentError(op.name + " names no function of one block");
      }
      Region body = function->body;
      Operation& ret = body.blocks[0].operations.back();
      if (ret.name == "func.return") ret.name = "stablehlo.return";
      HLOCHECK_RETURN_IF_ERROR(CallsAsRegions(body, module, depth + 1));
      op.name = "stablehlo.call";
      op.regions = {std::move(body)};
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<Tensor>> CpuAdapter::RunProgram(const Module& module,
                                                           std::span<const Tensor> inputs) {
  const Function* main = module.Find("main");
  if (main == nullptr) return absl::InvalidArgumentError("the program has no @main");
  // @main's body as a region: its func.return read as the region's return.
  Region region = main->body;
  if (region.blocks.size() == 1 && !region.blocks[0].operations.empty() &&
      region.blocks[0].operations.back().name == "func.return") {
    region.blocks[0].operations.back().name = "stablehlo.return";
  }
  HLOCHECK_RETURN_IF_ERROR(CallsAsRegions(region, module, 0));
  HLOCHECK_ASSIGN_OR_RETURN(
      cpu::TensorRegion body,
      cpu::TensorRegion::Create(region, main->type.inputs, "@main", cpu::CpuRegionOps()));
  if (!body.support().supported) return absl::UnimplementedError(body.support().reason);
  std::vector<cpu::Value> arguments;
  for (const Tensor& input : inputs) arguments.push_back({ValueType::Of(input.type()), input, {}});
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<cpu::Value> values,
                            body.Run(std::move(arguments), cpu::CpuRegionOps(&pool_->device)));
  std::vector<Tensor> results;
  for (cpu::Value& value : values) {
    if (!value.type.is_tensor()) return absl::UnimplementedError("@main returns a token or tuple");
    results.push_back(std::move(value.tensor));
  }
  return results;
}

}  // namespace hlocheck
