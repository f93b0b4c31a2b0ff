// The CUDA adapter on the process grid: replica_id and partition_id, and the
// collectives, with every process's data on the one device. The groups are
// computed as every backend computes them (adapters/region/process_groups.h);
// each process's results are then built on the device from the group
// members' operands by this adapter's own ops: all_gather concatenates,
// all_to_all slices and concatenates, collective_permute and
// collective_broadcast copy, and all_reduce, reduce_scatter and
// collective_reduce fold the members' operands (in group order) with the
// op their computation is (a 2-argument body of one add, multiply,
// maximum, minimum, and, or or xor). Computations over several operands
// at once are not implemented on CUDA yet. (The design, the grid's
// processes as streams, would run the processes concurrently; here they run
// one after another, which gives the same values.)
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "adapters/region/process_groups.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

AdapterSupport SupportsProcessId(const Case& c) {
  if (!c.operands.empty() || c.result_types.size() != static_cast<size_t>(c.ProcessCount())) {
    return AdapterSupport::No(c.op + " takes no operands and gives one id per process");
  }
  return AdapterSupport::Yes();
}

// replica_id, partition_id: each process's own (process p is replica
// p / num_partitions, partition p % num_partitions).
absl::StatusOr<Results> RunProcessId(const Case& c, Context& context) {
  Results results;
  for (int64_t p = 0; p < c.ProcessCount(); ++p) {
    Tensor id(Shape{}, ElementType::kUI32);
    id.values<ElementType::kUI32>()[0] =
        static_cast<uint32_t>(c.op == "replica_id" ? p / c.num_partitions : p % c.num_partitions);
    HLOCHECK_ASSIGN_OR_RETURN(Tensor copy, ThroughMachine(context, id));
    results.push_back(std::move(copy));
  }
  return results;
}

bool Reduces(const std::string& op) {
  return op == "all_reduce" || op == "reduce_scatter" || op == "collective_reduce";
}

const char* CombinerOpName(Combiner combiner) {
  switch (combiner) {
    case Combiner::kAdd:
      return "add";
    case Combiner::kMultiply:
      return "multiply";
    case Combiner::kMaximum:
      return "maximum";
    case Combiner::kMinimum:
      return "minimum";
    case Combiner::kAnd:
      return "and";
    case Combiner::kOr:
      return "or";
    case Combiner::kXor:
      return "xor";
  }
  return "add";
}

AdapterSupport SupportsCollective(const Case& c) {
  for (const Tensor& t : c.operands) {
    if (t.type().quantization || !KindOf(t.element_type()).has_value()) {
      return AdapterSupport::No(c.op + " of " + t.type().ToString() +
                                " is not implemented on CUDA");
    }
  }
  for (const TensorType& t : c.result_types) {
    if (t.quantization || !KindOf(t.element_type).has_value()) {
      return AdapterSupport::No(c.op + " into " + t.ToString() + " is not implemented on CUDA");
    }
    if (t.shape.empty() && (c.op == "all_gather" || c.op == "all_to_all")) {
      return AdapterSupport::No(c.op + " of 0-dimensional tensors");
    }
  }
  if (!c.operand_structure.empty() || !c.result_structure.empty()) {
    return AdapterSupport::No(c.op + " with tokens or tuples is not implemented on CUDA");
  }
  if (Reduces(c.op)) {
    if (c.regions.size() != 1 || c.result_types.empty() ||
        !CombinerOf(c.regions[0], c.result_types[0].element_type).has_value()) {
      return AdapterSupport::No(
          c.op +
          ": only a computation of one add, multiply, maximum, minimum, and, or or xor of "
          "its two arguments is implemented on CUDA");
    }
    for (const TensorType& t : c.result_types) {
      if (t.element_type != c.result_types[0].element_type) {
        return AdapterSupport::No(c.op + " of results of several types on CUDA");
      }
    }
  }
  return AdapterSupport::Yes();
}

// Runs this adapter's op `name` on `operands` on the device: the building
// block of every collective.
absl::StatusOr<Tensor> RunOp(Context& context, const std::string& name,
                             std::vector<Tensor> operands, const TensorType& result,
                             std::map<std::string, Attribute> attributes = {}) {
  Case step;
  step.op = name;
  step.operands = std::move(operands);
  step.result_types = {result};
  step.attributes = std::move(attributes);
  const OpEntry* entry = FindOp(name);
  if (entry == nullptr) return absl::InternalError("collectives: no " + name + " on CUDA");
  HLOCHECK_ASSIGN_OR_RETURN(Results results, entry->run(step, context));
  if (results.size() != 1) return absl::InternalError("collectives: " + name + " gave no result");
  return std::move(results[0]);
}

// Slab `index` of `count` along `dimension`.
absl::StatusOr<Tensor> Slab(Context& context, const Tensor& from, int64_t dimension, int64_t index,
                            int64_t count) {
  const Shape& shape = from.shape();
  if (dimension < 0 || dimension >= static_cast<int64_t>(shape.size()) ||
      shape[dimension] % count != 0) {
    return absl::InvalidArgumentError("collectives: a dimension that does not split evenly");
  }
  const int64_t length = shape[dimension] / count;
  std::vector<int64_t> start(shape.size(), 0);
  std::vector<int64_t> limit(shape.begin(), shape.end());
  std::vector<int64_t> strides(shape.size(), 1);
  start[dimension] = index * length;
  limit[dimension] = (index + 1) * length;
  Shape part = shape;
  part[dimension] = length;
  return RunOp(context, "slice", {from}, TensorType(part, from.element_type()),
               {{"start_indices", start}, {"limit_indices", limit}, {"strides", strides}});
}

// The members' tensors folded left to right with the computation, in the
// result's type.
absl::StatusOr<Tensor> Fold(Context& context, const Case& c, const std::vector<Tensor>& members,
                            const TensorType& type) {
  const Combiner combiner = *CombinerOf(c.regions[0], type.element_type);
  auto as_result = [&](const Tensor& t) -> absl::StatusOr<Tensor> {
    if (t.type() == type) return t;
    if (t.shape() != type.shape) {
      return absl::InvalidArgumentError(c.op + ": an operand of another shape than its result");
    }
    return RunOp(context, "convert", {t}, type);
  };
  HLOCHECK_ASSIGN_OR_RETURN(Tensor acc, as_result(members[0]));
  for (size_t k = 1; k < members.size(); ++k) {
    HLOCHECK_ASSIGN_OR_RETURN(Tensor next, as_result(members[k]));
    HLOCHECK_ASSIGN_OR_RETURN(acc, RunOp(context, CombinerOpName(combiner), {acc, next}, type));
  }
  if (members.size() == 1) return ThroughMachine(context, acc);
  return acc;
}

absl::StatusOr<Results> RunCollective(const Case& c, Context& context) {
  const int64_t processes = c.ProcessCount();
  if (processes < 1 || c.operands.size() % processes != 0 ||
      c.result_types.size() % processes != 0) {
    return absl::InvalidArgumentError(c.op + ": operands and results not a whole grid's");
  }
  const Attribute* dynamic_attribute = c.FindAttribute("has_dynamic_root");
  const bool dynamic_root = dynamic_attribute != nullptr &&
                            std::holds_alternative<bool>(*dynamic_attribute) &&
                            std::get<bool>(*dynamic_attribute);
  const auto n = static_cast<int64_t>(c.result_types.size()) / processes;
  const int64_t n_in = n + (dynamic_root ? 1 : 0);
  if (n_in != static_cast<int64_t>(c.operands.size()) / processes) {
    return absl::InvalidArgumentError(c.op + ": as many operands as results per process");
  }
  if (Reduces(c.op) && (c.regions.size() != 1 || c.regions[0].blocks.empty() ||
                        c.regions[0].blocks[0].arguments.size() != 2)) {
    return absl::UnimplementedError(c.op + ": a computation over several operands on CUDA");
  }
  HLOCHECK_ASSIGN_OR_RETURN(const ProcessGroups grid, GroupsOf(c));
  auto operand = [&](int64_t q, int64_t j) -> const Tensor& { return c.operands[q * n_in + j]; };
  Results results;
  for (int64_t p = 0; p < processes; ++p) {
    const int64_t g = grid.group_of[p];
    for (int64_t j = 0; j < n; ++j) {
      const TensorType& type = c.result_types[p * n + j];
      if (g < 0) {  // in no group, or nobody's target: zeros
        HLOCHECK_ASSIGN_OR_RETURN(Tensor zeros, ThroughMachine(context, Tensor(type)));
        results.push_back(std::move(zeros));
        continue;
      }
      const std::vector<int64_t>& group = grid.groups[g];
      const auto members = static_cast<int64_t>(group.size());
      // The index within its group of operand j's source, by this process's
      // own root array (0 without one).
      int64_t source = 0;
      if (dynamic_root) {
        const Tensor& roots = operand(p, n);
        if (roots.element_type() != ElementType::kSI32 || roots.num_elements() != n) {
          return absl::InvalidArgumentError(c.op + ": the root array is not tensor<Nxi32>");
        }
        source = roots.values<ElementType::kSI32>()[j];
        if (source < 0 || source >= members) {
          return absl::InvalidArgumentError(
              absl::StrCat(c.op, ": root ", source, " outside its group"));
        }
      }
      Tensor result;
      if (c.op == "all_reduce") {
        std::vector<Tensor> parts;
        for (int64_t q : group) parts.push_back(operand(q, j));
        HLOCHECK_ASSIGN_OR_RETURN(result, Fold(context, c, parts, type));
      } else if (c.op == "collective_reduce") {
        if (grid.index_in[p] == source) {
          std::vector<Tensor> parts;
          for (int64_t q : group) parts.push_back(operand(q, j));
          HLOCHECK_ASSIGN_OR_RETURN(result, Fold(context, c, parts, type));
        } else {
          HLOCHECK_ASSIGN_OR_RETURN(result, ThroughMachine(context, Tensor(type)));
        }
      } else if (c.op == "reduce_scatter") {
        const int64_t dimension = IntAttributeOr(c, "scatter_dimension", 0);
        std::vector<Tensor> parts;
        for (int64_t q : group) {
          HLOCHECK_ASSIGN_OR_RETURN(
              Tensor part, Slab(context, operand(q, j), dimension, grid.index_in[p], members));
          parts.push_back(std::move(part));
        }
        HLOCHECK_ASSIGN_OR_RETURN(result, Fold(context, c, parts, type));
      } else if (c.op == "collective_permute" || c.op == "collective_broadcast") {
        const Tensor& from = operand(group[source], j);
        if (from.type() != type) return absl::InvalidArgumentError(c.op + ": types differ");
        HLOCHECK_ASSIGN_OR_RETURN(result, ThroughMachine(context, from));
      } else if (c.op == "all_gather") {
        const int64_t dimension = IntAttributeOr(c, "all_gather_dim", 0);
        std::vector<Tensor> parts;
        for (int64_t q : group) parts.push_back(operand(q, j));
        HLOCHECK_ASSIGN_OR_RETURN(
            result, RunOp(context, "concatenate", parts, type, {{"dimension", dimension}}));
      } else {  // all_to_all: part index_in[p] of every member, in order
        const int64_t split = IntAttributeOr(c, "split_dimension", 0);
        const int64_t concat = IntAttributeOr(c, "concat_dimension", 0);
        if (IntAttributeOr(c, "split_count", 0) != members) {
          return absl::InvalidArgumentError("all_to_all: split_count is not the group's size");
        }
        std::vector<Tensor> parts;
        for (int64_t q : group) {
          HLOCHECK_ASSIGN_OR_RETURN(Tensor part,
                                    Slab(context, operand(q, j), split, grid.index_in[p], members));
          parts.push_back(std::move(part));
        }
        HLOCHECK_ASSIGN_OR_RETURN(
            result, RunOp(context, "concatenate", parts, type, {{"dimension", concat}}));
      }
      if (result.type() != type) {
        return absl::InvalidArgumentError(c.op + ": the result's type does not fit");
      }
      results.push_back(std::move(result));
    }
  }
  return results;
}

}  // namespace

std::vector<OpEntry> CollectivesOps() {
  std::vector<OpEntry> ops = {
      {"replica_id", &SupportsProcessId, &RunProcessId},
      {"partition_id", &SupportsProcessId, &RunProcessId},
  };
  for (const char* name : {"all_gather", "all_reduce", "all_to_all", "collective_broadcast",
                           "collective_permute", "collective_reduce", "reduce_scatter"}) {
    ops.push_back({name, &SupportsCollective, &RunCollective});
  }
  return ops;
}

}  // namespace hlocheck::cuda
