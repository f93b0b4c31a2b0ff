#include "oracle/collectives.h"

#include <cstring>
#include <functional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "oracle/accumulation.h"
#include "oracle/data_movement_helpers.h"
#include "oracle/quantization.h"

namespace hlocheck::oracle {

std::string ProcessId::ToString() const { return absl::StrCat("(", replica, ", ", partition, ")"); }

namespace {

absl::Status OutOfGrid(const char* what, int64_t id, int64_t limit) {
  return absl::InvalidArgumentError(
      absl::StrCat(what, " ", id, " is outside the grid's 0..", limit - 1));
}

}  // namespace

absl::StatusOr<ProcessGroups> CrossReplica(const std::vector<std::vector<int64_t>>& groups,
                                           const ProcessGrid& grid) {
  ProcessGroups result;
  for (int64_t partition = 0; partition < grid.partitions; ++partition) {
    for (const std::vector<int64_t>& group : groups) {
      std::vector<ProcessId>& processes = result.emplace_back();
      for (int64_t replica : group) {
        if (replica < 0 || replica >= grid.replicas) {
          return OutOfGrid("replica id", replica, grid.replicas);
        }
        processes.push_back({replica, partition});
      }
    }
  }
  return result;
}

absl::StatusOr<ProcessGroups> CrossPartition(const std::vector<std::vector<int64_t>>& groups,
                                             const ProcessGrid& grid) {
  ProcessGroups result;
  for (int64_t replica = 0; replica < grid.replicas; ++replica) {
    for (const std::vector<int64_t>& group : groups) {
      std::vector<ProcessId>& processes = result.emplace_back();
      for (int64_t partition : group) {
        if (partition < 0 || partition >= grid.partitions) {
          return OutOfGrid("partition id", partition, grid.partitions);
        }
        processes.push_back({replica, partition});
      }
    }
  }
  return result;
}

absl::StatusOr<ProcessGroups> CrossReplicaAndPartition(
    const std::vector<std::vector<int64_t>>& groups, const ProcessGrid& grid) {
  ProcessGroups result;
  // Partition by partition, the group's replicas within each (seed 002's
  // definition; [[0, 1]] on 2 partitions is (0,0), (1,0), (0,1), (1,1)).
  for (const std::vector<int64_t>& group : groups) {
    std::vector<ProcessId>& processes = result.emplace_back();
    for (int64_t partition = 0; partition < grid.partitions; ++partition) {
      for (int64_t replica : group) {
        if (replica < 0 || replica >= grid.replicas) {
          return OutOfGrid("replica id", replica, grid.replicas);
        }
        processes.push_back({replica, partition});
      }
    }
  }
  return result;
}

absl::StatusOr<ProcessGroups> FlattenedIds(const std::vector<std::vector<int64_t>>& groups,
                                           const ProcessGrid& grid) {
  ProcessGroups result;
  for (const std::vector<int64_t>& group : groups) {
    std::vector<ProcessId>& processes = result.emplace_back();
    for (int64_t id : group) {
      if (id < 0 || id >= grid.size()) return OutOfGrid("process id", id, grid.size());
      processes.push_back(grid.At(id));
    }
  }
  return result;
}

bool IsGridCollective(const std::string& op) {
  return op == "all_gather" || op == "all_to_all" || op == "collective_permute" ||
         op == "collective_broadcast" || op == "all_reduce" || op == "reduce_scatter" ||
         op == "collective_reduce";
}

namespace {

using Attributes = std::map<std::string, Attribute>;

int64_t IntOr(const Attributes& attributes, const std::string& name, int64_t missing) {
  auto it = attributes.find(name);
  return it != attributes.end() && std::holds_alternative<int64_t>(it->second)
             ? std::get<int64_t>(it->second)
             : missing;
}

bool BoolOr(const Attributes& attributes, const std::string& name, bool missing) {
  auto it = attributes.find(name);
  return it != attributes.end() && std::holds_alternative<bool>(it->second)
             ? std::get<bool>(it->second)
             : missing;
}

// A 2-dimensional integer attribute (replica_groups, source_target_pairs)
// as its rows; absent means none.
absl::StatusOr<std::vector<std::vector<int64_t>>> Rows(const Attributes& attributes,
                                                       const std::string& name) {
  std::vector<std::vector<int64_t>> rows;
  auto it = attributes.find(name);
  if (it == attributes.end()) return rows;
  if (!std::holds_alternative<Tensor>(it->second)) {
    return absl::InvalidArgumentError(name + " must be a 2-dimensional integer tensor");
  }
  const Tensor& t = std::get<Tensor>(it->second);
  if (t.shape().size() != 2 || !IsInteger(t.element_type())) {
    return absl::InvalidArgumentError(name + " must be a 2-dimensional integer tensor");
  }
  const int64_t columns = t.shape()[1];
  rows.assign(static_cast<size_t>(t.shape()[0]), std::vector<int64_t>(columns));
  DispatchElementType(t.element_type(), [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      auto values = t.values<T>();
      for (size_t i = 0; i < values.size(); ++i) {
        rows[i / columns][i % columns] = static_cast<int64_t>(values[i]);
      }
    }
  });
  // Ragged groups: a dense attribute pads the shorter rows with -1.
  for (std::vector<int64_t>& row : rows) {
    while (!row.empty() && row.back() == -1) row.pop_back();
  }
  return rows;
}

// The op's process groups (its summary in spec/ops says which strategy).
absl::StatusOr<ProcessGroups> GroupsOf(const std::string& op, const Attributes& attributes,
                                       const ProcessGrid& grid) {
  const int64_t channel_id = IntOr(attributes, "channel_id", 0);
  if (op == "collective_permute") {
    HLOCHECK_ASSIGN_OR_RETURN(auto pairs, Rows(attributes, "source_target_pairs"));
    return channel_id <= 0 ? CrossReplica(pairs, grid) : CrossPartition(pairs, grid);
  }
  HLOCHECK_ASSIGN_OR_RETURN(auto groups, Rows(attributes, "replica_groups"));
  if (op == "all_gather" || op == "all_reduce" || op == "reduce_scatter") {
    const bool global = BoolOr(attributes, "use_global_device_ids", false);
    if (channel_id <= 0 && !global) return CrossReplica(groups, grid);
    if (channel_id > 0 && !global) return CrossReplicaAndPartition(groups, grid);
    if (channel_id > 0 && global) return FlattenedIds(groups, grid);
    return absl::InvalidArgumentError(op + ": use_global_device_ids needs a channel (C4)");
  }
  return channel_id <= 0 ? CrossReplica(groups, grid) : CrossPartition(groups, grid);
}

// The tensors `pieces` concatenated along `dimension` into `type`.
absl::StatusOr<Tensor> Concatenate(const std::vector<const Tensor*>& pieces, int64_t dimension,
                                   const TensorType& type) {
  if (dimension < 0 || dimension >= static_cast<int64_t>(type.shape.size())) {
    return absl::InvalidArgumentError(absl::StrCat("dimension ", dimension, " out of range"));
  }
  std::vector<int64_t> starts;
  int64_t size = 0;
  for (const Tensor* piece : pieces) {
    Shape expected = type.shape;
    expected[dimension] =
        piece->shape().size() == type.shape.size() ? piece->shape()[dimension] : -1;
    if (piece->shape() != expected || piece->element_type() != type.element_type) {
      return absl::InvalidArgumentError("the pieces do not concatenate to " + type.ToString());
    }
    starts.push_back(size);
    size += piece->shape()[dimension];
  }
  if (size != type.shape[dimension]) {
    return absl::InvalidArgumentError("the pieces do not concatenate to " + type.ToString());
  }
  std::vector<ElementView> views;
  for (const Tensor* piece : pieces) views.emplace_back(*piece);
  std::vector<int64_t> index;
  return ResultFrom(type, [&](std::span<const int64_t> at) {
    index.assign(at.begin(), at.end());
    size_t k = 0;
    while (k + 1 < pieces.size() && index[dimension] >= starts[k + 1]) ++k;
    index[dimension] -= starts[k];
    return views[k].at(index);
  });
}

// Part `part` of `count` equal parts of `t` along `dimension`.
absl::StatusOr<Tensor> SplitPart(const Tensor& t, int64_t dimension, int64_t count, int64_t part) {
  if (dimension < 0 || dimension >= static_cast<int64_t>(t.shape().size()) || count <= 0 ||
      t.shape()[dimension] % count != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot split ", t.type().ToString(), " in ", count, " along ", dimension));
  }
  Shape shape = t.shape();
  const int64_t length = shape[dimension] / count;
  shape[dimension] = length;
  TensorType type(shape, t.element_type());
  // A per-tensor quantized part stays quantized (reduce_scatter's
  // computation runs on its scalars).
  if (t.type().quantization && !t.type().quantization->quantization_dimension) {
    type.quantization = t.type().quantization;
  }
  Tensor result{type};
  // Row-major: for each index before `dimension`, the part is one
  // contiguous run of length x (the dimensions after it) elements.
  int64_t outer = 1;
  int64_t inner = 1;
  for (int64_t d = 0; d < dimension; ++d) outer *= shape[d];
  for (size_t d = static_cast<size_t>(dimension) + 1; d < shape.size(); ++d) inner *= shape[d];
  const auto element_bytes = static_cast<size_t>(Info(t.element_type()).container_bytes);
  const size_t run = static_cast<size_t>(length * inner) * element_bytes;
  const std::byte* source = t.bytes().data();
  std::byte* destination = result.bytes().data();
  for (int64_t o = 0; o < outer; ++o) {
    const auto from = static_cast<size_t>((o * count + part) * length * inner) * element_bytes;
    std::memcpy(destination + static_cast<size_t>(o) * run, source + from, run);
  }
  return result;
}

absl::Status CheckType(const Tensor& result, const TensorType& type, const std::string& op) {
  if (result.type() != type) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": the result is ", result.type().ToString(), ", not ", type.ToString()));
  }
  return absl::OkStatus();
}

}  // namespace

namespace {

// The operands of `senders`, reduced element by element with `computation`
// in an order the spec leaves open (ReduceAcrossGroup): operand(sender, j)
// is the sender's operand j. One computation over all operands (2N
// arguments), or, in the public spec's variadic forms with a computation of
// two arguments, the same computation over each operand alone.
absl::StatusOr<std::vector<ResultExpectation>> ReduceGroup(
    const std::string& op, const std::vector<ProcessId>& senders,
    const std::function<const Tensor&(ProcessId, size_t)>& operand, const Region& computation,
    const std::vector<TensorType>& result_types) {
  const size_t n = result_types.size();
  // Operand j of every sender, one after another, as one flat tensor.
  std::vector<Tensor> stacked;
  for (size_t j = 0; j < n; ++j) {
    const Tensor& first = operand(senders.at(0), j);
    if (first.shape() != result_types[j].shape) {
      return absl::InvalidArgumentError(
          absl::StrCat(op, ": an operand of another shape than its result"));
    }
    // A per-tensor quantized operand stays quantized: the computation runs
    // on its quantized scalars.
    TensorType all_type({static_cast<int64_t>(senders.size()) * first.num_elements()},
                        first.element_type());
    if (first.type().quantization && !first.type().quantization->quantization_dimension) {
      all_type.quantization = first.type().quantization;
    }
    Tensor all(all_type);
    size_t offset = 0;
    for (ProcessId sender : senders) {
      const Tensor& t = operand(sender, j);
      if (t.type() != first.type()) {
        return absl::InvalidArgumentError(
            absl::StrCat(op, ": the group's operands differ in type"));
      }
      if (!t.bytes().empty()) {
        std::memcpy(all.bytes().data() + offset, t.bytes().data(), t.bytes().size());
      }
      offset += t.bytes().size();
    }
    stacked.push_back(std::move(all));
  }
  const size_t arguments = computation.blocks.empty() ? 0 : computation.blocks[0].arguments.size();
  const auto count = static_cast<int64_t>(senders.size());
  if (arguments == 2 * n || n == 1) {
    return ReduceAcrossGroup(stacked, computation, result_types, count);
  }
  if (arguments != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": a computation of ", arguments, " arguments for ", n, " operands"));
  }
  std::vector<ResultExpectation> reduced;
  for (size_t j = 0; j < n; ++j) {
    HLOCHECK_ASSIGN_OR_RETURN(
        std::vector<ResultExpectation> one,
        ReduceAcrossGroup(std::span<const Tensor>(&stacked[j], 1), computation,
                          std::span<const TensorType>(&result_types[j], 1), count));
    reduced.push_back(std::move(one.at(0)));
  }
  return reduced;
}

// broadcast_in_dim(constant(0, element_type(result)), [], type(result)): a
// quantized zero is quantize(0), the zero point's storage.
Tensor ZerosOf(const TensorType& type) {
  Tensor zeros(type);
  if (type.quantization) {
    for (int64_t i = 0; i < type.num_elements(); ++i) {
      SetStorage(zeros, i, ParametersAt(type, i).zero_point);
    }
  }
  return zeros;
}

ResultExpectation ExactlyZero(const TensorType& type) {
  ResultExpectation e;
  e.reference = ZerosOf(type);
  e.check = Check::kExact;
  return e;
}

// The spec's has_dynamic_root: the last operand of every process is an si32
// array naming, for each data operand, the index in its group of the
// group's source (root). Whose array counts the spec does not say; the
// group's processes must agree, else the case is invalid.
absl::StatusOr<std::vector<int64_t>> DynamicRoots(const std::string& op,
                                                  const std::vector<ProcessId>& group,
                                                  const ProcessGrid& grid,
                                                  const std::vector<std::vector<Tensor>>& operands,
                                                  size_t data_operands) {
  std::vector<int64_t> roots;
  for (ProcessId member : group) {
    const std::vector<Tensor>& own = operands[grid.Flat(member)];
    if (own.size() != data_operands + 1 || own.back().element_type() != ElementType::kSI32 ||
        own.back().shape() != Shape{static_cast<int64_t>(data_operands)}) {
      return absl::InvalidArgumentError(absl::StrCat(
          op, ": has_dynamic_root needs a last operand tensor<", data_operands, "xi32>"));
    }
    std::vector<int64_t> mine;
    for (int32_t root : own.back().values<ElementType::kSI32>()) {
      if (root < 0 || root >= static_cast<int64_t>(group.size())) {
        return absl::InvalidArgumentError(
            absl::StrCat(op, ": root ", root, " of process ", member.ToString(),
                         " is outside its group of ", group.size(), " (C6)"));
      }
      mine.push_back(root);
    }
    if (member == group[0]) {
      roots = std::move(mine);
    } else if (mine != roots) {
      return absl::InvalidArgumentError(absl::StrCat(
          op, ": the processes of group ", group[0].ToString(), "... name different roots (",
          absl::StrJoin(roots, ","), " and ", absl::StrJoin(mine, ","), " at ", member.ToString(),
          "); the spec does not say whose root array counts"));
    }
  }
  return roots;
}

// Marks `process` as written, once: groups must not overlap.
absl::Status Claim(const std::string& op, ProcessId process, const ProcessGrid& grid,
                   std::vector<bool>& written) {
  const int64_t flat = grid.Flat(process);
  if (written[flat]) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": process ", process.ToString(), " is in two process groups"));
  }
  written[flat] = true;
  return absl::OkStatus();
}

absl::Status EveryProcessClaimed(const std::string& op, const ProcessGrid& grid,
                                 const std::vector<bool>& written) {
  for (int64_t flat = 0; flat < grid.size(); ++flat) {
    if (!written[flat]) {
      return absl::InvalidArgumentError(
          absl::StrCat(op, ": process ", grid.At(flat).ToString(), " is in no group"));
    }
  }
  return absl::OkStatus();
}

using Expectations = std::vector<std::vector<ResultExpectation>>;

// all_reduce: within each group, every member's result is the group's
// operands reduced element by element (ReduceGroup).
absl::StatusOr<Expectations> AllReduce(const Attributes& attributes,
                                       const std::vector<Region>& regions,
                                       const std::vector<TensorType>& result_types,
                                       const ProcessGrid& grid,
                                       const std::vector<std::vector<Tensor>>& operands) {
  if (regions.size() != 1) return absl::InvalidArgumentError("all_reduce needs its computation");
  HLOCHECK_ASSIGN_OR_RETURN(const ProcessGroups groups, GroupsOf("all_reduce", attributes, grid));
  auto operand = [&](ProcessId sender, size_t j) -> const Tensor& {
    return operands[grid.Flat(sender)].at(j);
  };
  Expectations results(static_cast<size_t>(grid.size()));
  std::vector<bool> written(static_cast<size_t>(grid.size()), false);
  for (const std::vector<ProcessId>& group : groups) {
    if (group.empty()) continue;
    HLOCHECK_ASSIGN_OR_RETURN(std::vector<ResultExpectation> reduced,
                              ReduceGroup("all_reduce", group, operand, regions[0], result_types));
    for (ProcessId member : group) {
      HLOCHECK_RETURN_IF_ERROR(Claim("all_reduce", member, grid, written));
      results[grid.Flat(member)] = reduced;
    }
  }
  HLOCHECK_RETURN_IF_ERROR(EveryProcessClaimed("all_reduce", grid, written));
  return results;
}

// reduce_scatter: the group's operands reduced as all_reduce does, split
// along scatter_dimension into one part per member; the member at index i
// of its group gets part i. The reduction is element by element, so part i
// of the reduced value is the reduction of every sender's part i: that is
// what is computed, without the parts no member receives.
absl::StatusOr<Expectations> ReduceScatter(const Attributes& attributes,
                                           const std::vector<Region>& regions,
                                           const std::vector<TensorType>& result_types,
                                           const ProcessGrid& grid,
                                           const std::vector<std::vector<Tensor>>& operands) {
  if (regions.size() != 1) {
    return absl::InvalidArgumentError("reduce_scatter needs its computation");
  }
  HLOCHECK_ASSIGN_OR_RETURN(const ProcessGroups groups,
                            GroupsOf("reduce_scatter", attributes, grid));
  const int64_t dimension = IntOr(attributes, "scatter_dimension", 0);
  Expectations results(static_cast<size_t>(grid.size()));
  std::vector<bool> written(static_cast<size_t>(grid.size()), false);
  for (const std::vector<ProcessId>& group : groups) {
    const auto parts = static_cast<int64_t>(group.size());
    for (int64_t i = 0; i < parts; ++i) {
      // Part i of every sender's operands, by flat process index.
      std::map<int64_t, std::vector<Tensor>> part_of;
      for (ProcessId sender : group) {
        for (const Tensor& t : operands[grid.Flat(sender)]) {
          HLOCHECK_ASSIGN_OR_RETURN(Tensor part, SplitPart(t, dimension, parts, i));
          part_of[grid.Flat(sender)].push_back(std::move(part));
        }
      }
      auto operand = [&](ProcessId sender, size_t j) -> const Tensor& {
        return part_of.at(grid.Flat(sender)).at(j);
      };
      HLOCHECK_ASSIGN_OR_RETURN(
          std::vector<ResultExpectation> reduced,
          ReduceGroup("reduce_scatter", group, operand, regions[0], result_types));
      HLOCHECK_RETURN_IF_ERROR(Claim("reduce_scatter", group[i], grid, written));
      results[grid.Flat(group[i])] = std::move(reduced);
    }
  }
  HLOCHECK_RETURN_IF_ERROR(EveryProcessClaimed("reduce_scatter", grid, written));
  return results;
}

// collective_reduce (public spec): each data operand reduced over the group
// with computation, kept on the group's source process (its first, or the
// one has_dynamic_root names); every other process gets zeros, as do
// processes in no group.
absl::StatusOr<Expectations> CollectiveReduce(const Attributes& attributes,
                                              const std::vector<Region>& regions,
                                              const std::vector<TensorType>& result_types,
                                              const ProcessGrid& grid,
                                              const std::vector<std::vector<Tensor>>& operands) {
  if (regions.size() != 1) {
    return absl::InvalidArgumentError("collective_reduce needs its computation");
  }
  HLOCHECK_ASSIGN_OR_RETURN(const ProcessGroups groups,
                            GroupsOf("collective_reduce", attributes, grid));
  const size_t n = result_types.size();
  const bool dynamic_root = BoolOr(attributes, "has_dynamic_root", false);
  Expectations results(static_cast<size_t>(grid.size()));
  for (std::vector<ResultExpectation>& process : results) {
    for (const TensorType& type : result_types) process.push_back(ExactlyZero(type));
  }
  std::vector<bool> written(static_cast<size_t>(grid.size()), false);
  auto operand = [&](ProcessId sender, size_t j) -> const Tensor& {
    return operands[grid.Flat(sender)].at(j);
  };
  for (const std::vector<ProcessId>& group : groups) {
    if (group.empty()) continue;
    for (ProcessId member : group) {
      HLOCHECK_RETURN_IF_ERROR(Claim("collective_reduce", member, grid, written));
    }
    std::vector<int64_t> roots(n, 0);
    if (dynamic_root) {
      HLOCHECK_ASSIGN_OR_RETURN(roots, DynamicRoots("collective_reduce", group, grid, operands, n));
    }
    for (size_t j = 0; j < n; ++j) {
      auto operand_j = [&](ProcessId sender, size_t) -> const Tensor& {
        return operand(sender, j);
      };
      HLOCHECK_ASSIGN_OR_RETURN(
          std::vector<ResultExpectation> reduced,
          ReduceGroup("collective_reduce", group, operand_j, regions[0], {result_types[j]}));
      results[grid.Flat(group[roots[j]])][j] = std::move(reduced.at(0));
    }
  }
  return results;
}

// The collectives that move data: every result exact.
absl::StatusOr<std::vector<std::vector<Tensor>>> MovedResults(
    const std::string& op, const Attributes& attributes,
    const std::vector<TensorType>& result_types, const ProcessGrid& grid,
    const std::vector<std::vector<Tensor>>& operands) {
  if (!IsGridCollective(op)) {
    return absl::UnimplementedError("unsupported: stablehlo." + op +
                                    " across processes (issue 21)");
  }
  if (static_cast<int64_t>(operands.size()) != grid.size()) {
    return absl::InternalError(absl::StrCat(op, ": operands of ", operands.size(),
                                            " processes for a grid of ", grid.size()));
  }
  const size_t n = result_types.size();
  // collective_broadcast's has_dynamic_root: a last operand names the roots.
  const bool dynamic_root =
      op == "collective_broadcast" && BoolOr(attributes, "has_dynamic_root", false);
  for (const std::vector<Tensor>& process : operands) {
    if (process.size() != n + (dynamic_root ? 1 : 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat(op, ": ", process.size(), " operands for ", n, " results"));
    }
  }
  HLOCHECK_ASSIGN_OR_RETURN(const ProcessGroups groups, GroupsOf(op, attributes, grid));
  std::vector<std::vector<int64_t>> roots;  // by group, by operand
  for (const std::vector<ProcessId>& group : groups) {
    if (dynamic_root && !group.empty()) {
      HLOCHECK_ASSIGN_OR_RETURN(roots.emplace_back(), DynamicRoots(op, group, grid, operands, n));
    } else {
      roots.emplace_back(n, 0);
    }
  }
  std::vector<std::vector<Tensor>> results(static_cast<size_t>(grid.size()),
                                           std::vector<Tensor>(n));
  // The variadic forms (the public spec's) work operand by operand.
  for (size_t j = 0; j < n; ++j) {
    const TensorType& type = result_types[j];
    std::vector<bool> written(static_cast<size_t>(grid.size()), false);
    auto set = [&](ProcessId process, Tensor value) -> absl::Status {
      HLOCHECK_RETURN_IF_ERROR(CheckType(value, type, op));
      const int64_t flat = grid.Flat(process);
      if (written[flat]) {
        return absl::InvalidArgumentError(
            absl::StrCat(op, ": process ", process.ToString(), " is in two process groups"));
      }
      written[flat] = true;
      results[flat][j] = std::move(value);
      return absl::OkStatus();
    };
    auto operand = [&](ProcessId process) -> const Tensor& {
      return operands[grid.Flat(process)][j];
    };
    for (const std::vector<ProcessId>& group : groups) {
      if (op == "all_gather") {
        // result@process = concatenate(operand@sender for sender in group).
        std::vector<const Tensor*> pieces;
        for (ProcessId sender : group) pieces.push_back(&operand(sender));
        for (ProcessId receiver : group) {
          HLOCHECK_ASSIGN_OR_RETURN(
              Tensor gathered, Concatenate(pieces, IntOr(attributes, "all_gather_dim", 0), type));
          HLOCHECK_RETURN_IF_ERROR(set(receiver, std::move(gathered)));
        }
      } else if (op == "all_to_all") {
        // Each sender's operand in split_count parts; the receiver at index
        // i of the group gets part i of every sender, concatenated in order.
        const int64_t split_dimension = IntOr(attributes, "split_dimension", 0);
        const int64_t split_count = IntOr(attributes, "split_count", 0);
        if (split_count != static_cast<int64_t>(group.size())) {
          return absl::InvalidArgumentError(absl::StrCat("all_to_all: split_count ", split_count,
                                                         " for a group of ", group.size()));
        }
        for (size_t i = 0; i < group.size(); ++i) {
          std::vector<Tensor> parts;
          for (ProcessId sender : group) {
            HLOCHECK_ASSIGN_OR_RETURN(Tensor part, SplitPart(operand(sender), split_dimension,
                                                             split_count, static_cast<int64_t>(i)));
            parts.push_back(std::move(part));
          }
          std::vector<const Tensor*> pieces;
          for (const Tensor& part : parts) pieces.push_back(&part);
          HLOCHECK_ASSIGN_OR_RETURN(
              Tensor scattered,
              Concatenate(pieces, IntOr(attributes, "concat_dimension", 0), type));
          HLOCHECK_RETURN_IF_ERROR(set(group[i], std::move(scattered)));
        }
      } else if (op == "collective_permute") {
        // Each group is one [source, target] pair.
        if (group.size() != 2) {
          return absl::InvalidArgumentError("collective_permute: a pair of other than 2 ids");
        }
        HLOCHECK_RETURN_IF_ERROR(set(group[1], operand(group[0])));
      } else if (!group.empty()) {  // collective_broadcast: the group's source's operand.
        const ProcessId source = group.at(roots[&group - groups.data()][j]);
        for (ProcessId receiver : group) {
          HLOCHECK_RETURN_IF_ERROR(set(receiver, operand(source)));
        }
      }
    }
    // Processes no group writes: zeros (collective_permute's non-targets,
    // collective_broadcast's processes in no group). all_gather's and
    // all_to_all's groups cover every process (their constraints).
    for (int64_t flat = 0; flat < grid.size(); ++flat) {
      if (written[flat]) continue;
      if (op == "all_gather" || op == "all_to_all") {
        return absl::InvalidArgumentError(
            absl::StrCat(op, ": process ", grid.At(flat).ToString(), " is in no group"));
      }
      results[flat][j] = ZerosOf(type);
    }
  }
  return results;
}

}  // namespace

absl::StatusOr<std::vector<std::vector<ResultExpectation>>> GridExpectations(
    const std::string& op, const Attributes& attributes, const std::vector<Region>& regions,
    const std::vector<TensorType>& result_types, const ProcessGrid& grid,
    const std::vector<std::vector<Tensor>>& operands) {
  if (static_cast<int64_t>(operands.size()) != grid.size()) {
    return absl::InternalError(absl::StrCat(op, ": operands of ", operands.size(),
                                            " processes for a grid of ", grid.size()));
  }
  if (op == "all_reduce") return AllReduce(attributes, regions, result_types, grid, operands);
  if (op == "reduce_scatter") {
    return ReduceScatter(attributes, regions, result_types, grid, operands);
  }
  if (op == "collective_reduce") {
    return CollectiveReduce(attributes, regions, result_types, grid, operands);
  }
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<std::vector<Tensor>> moved,
                            MovedResults(op, attributes, result_types, grid, operands));
  std::vector<std::vector<ResultExpectation>> results(moved.size());
  for (size_t p = 0; p < moved.size(); ++p) {
    for (Tensor& t : moved[p]) {
      ResultExpectation e;
      e.reference = std::move(t);
      e.check = Check::kExact;
      results[p].push_back(std::move(e));
    }
  }
  return results;
}

absl::StatusOr<std::vector<std::vector<Tensor>>> GridResults(
    const std::string& op, const Attributes& attributes, const std::vector<Region>& regions,
    const std::vector<TensorType>& result_types, const ProcessGrid& grid,
    const std::vector<std::vector<Tensor>>& operands) {
  HLOCHECK_ASSIGN_OR_RETURN(
      auto expectations, GridExpectations(op, attributes, regions, result_types, grid, operands));
  std::vector<std::vector<Tensor>> results(expectations.size());
  for (size_t p = 0; p < expectations.size(); ++p) {
    for (ResultExpectation& e : expectations[p]) results[p].push_back(std::move(e.reference));
  }
  return results;
}

namespace {

// The case's grid and every process's operands (Case's process order).
ProcessGrid GridOf(const Case& c) { return {c.num_replicas, c.num_partitions}; }

Results AsExpectations(std::vector<std::vector<Tensor>> by_process) {
  std::vector<ResultExpectation> results;
  for (std::vector<Tensor>& process : by_process) {
    for (Tensor& t : process) {
      ResultExpectation e;
      e.reference = std::move(t);
      e.check = Check::kExact;
      results.push_back(std::move(e));
    }
  }
  return results;
}

// A collective on the case's grid: every process's results, one process
// after another.
Results OnTheGrid(const Case& c) {
  const ProcessGrid grid = GridOf(c);
  std::vector<std::vector<Tensor>> operands;
  for (int64_t p = 0; p < grid.size(); ++p) operands.push_back(OneProcess(c, p).operands);
  HLOCHECK_ASSIGN_OR_RETURN(
      auto results, GridExpectations(c.op, c.attributes, c.regions, OneProcess(c, 0).result_types,
                                     grid, operands));
  std::vector<ResultExpectation> flat;
  for (auto& process : results) {
    for (ResultExpectation& e : process) flat.push_back(std::move(e));
  }
  return flat;
}

// replica_id and partition_id: each process's own, as a tensor<ui32>.
Results ProcessIds(const Case& c) {
  const ProcessGrid grid = GridOf(c);
  std::vector<std::vector<Tensor>> results;
  for (int64_t p = 0; p < grid.size(); ++p) {
    Tensor id(Shape{}, ElementType::kUI32);
    const ProcessId process = grid.At(p);
    id.values<ElementType::kUI32>()[0] =
        static_cast<uint32_t>(c.op == "replica_id" ? process.replica : process.partition);
    results.push_back({std::move(id)});
  }
  return AsExpectations(std::move(results));
}

}  // namespace

std::vector<OpEntry> CollectivesOps() {
  return {{"all_gather", OnTheGrid},         {"all_reduce", OnTheGrid},
          {"all_to_all", OnTheGrid},         {"collective_broadcast", OnTheGrid},
          {"collective_permute", OnTheGrid}, {"collective_reduce", OnTheGrid},
          {"reduce_scatter", OnTheGrid},     {"partition_id", ProcessIds},
          {"replica_id", ProcessIds}};
}

}  // namespace hlocheck::oracle
