// The process grid on the CPU: replica_id, partition_id and the collectives
// that move data (all_gather, all_to_all, collective_permute,
// collective_broadcast) or reduce it (all_reduce, reduce_scatter,
// collective_reduce). A case on a grid holds every process's operands
// (Case's process order). A backend runs one program per device, and the
// devices meet where a collective exchanges data; here the processes' steps
// run one after another on one thread, in the order those meetings impose:
// every process posts its operands, and only then does each read what the
// op sends it from the others' posts and build its own results. (A thread
// per process and a barrier gave the same results at about 2.4 ms a case:
// most of the collectives' time in the gate.) In one case every process
// runs the same op; a program whose processes do not is the oracle's to
// report (oracle/collectives.h). Written apart from the oracle's: this file
// computes the process groups itself.
#include <functional>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/combiner_kernels.h"
#include "adapters/cpu/data_movement_internal.h"
#include "adapters/cpu/quantization_internal.h"
#include "adapters/cpu/region.h"
#include "adapters/region/process_groups.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

struct Grid {
  int64_t replicas = 1;
  int64_t partitions = 1;
  int64_t size() const { return replicas * partitions; }
};

// to[..., to_start + i, ...] = from[..., from_start + i, ...] along
// `dimension` for i < count, between tensors that agree in every other
// dimension.
void CopySlab(const Tensor& from, int64_t from_start, Tensor& to, int64_t to_start,
              int64_t dimension, int64_t count) {
  const Shape& f = from.shape();
  const Shape& t = to.shape();
  const auto bytes = static_cast<int64_t>(ContainerBytes(from.element_type()));
  int64_t outer = 1;
  for (int64_t d = 0; d < dimension; ++d) outer *= f[d];
  int64_t inner = bytes;
  for (size_t d = dimension + 1; d < f.size(); ++d) inner *= f[d];
  if (count == 0 || inner == 0 || outer == 0) return;  // empty: no storage to touch
  const auto* src = static_cast<const std::byte*>(from.raw());
  auto* dst = static_cast<std::byte*>(to.raw());
  for (int64_t o = 0; o < outer; ++o) {
    std::memcpy(dst + (o * t[dimension] + to_start) * inner,
                src + (o * f[dimension] + from_start) * inner, count * inner);
  }
}

// Operand k of the group's member at index g (a whole post, or the part of
// it a reduce_scatter process reduces).
using MemberOperand = std::function<const Tensor&(size_t g, int64_t k)>;

// The reduction's result j for one group of `members`: the members'
// operands j converted to the result's type E and folded left to right
// with the computation, one element at a time (2N arguments: all operands
// together, the other operands' values taken from their posts; 2
// arguments: operand j alone).
absl::StatusOr<Tensor> ReduceGroup(const Case& c, size_t members, int64_t n, int64_t j,
                                   const MemberOperand& operand_of, const TensorType& type,
                                   const Device& device) {
  if (c.regions.size() != 1 || c.regions[0].blocks.empty()) {
    return absl::InvalidArgumentError(c.op + " needs its computation");
  }
  const auto arguments = static_cast<int64_t>(c.regions[0].blocks[0].arguments.size());
  const bool joint = arguments == 2 * n && n > 1;
  if (!joint && arguments != 2) {
    return absl::InvalidArgumentError(c.op + ": the computation's arguments do not fit");
  }
  // The operands the computation takes: all n, or operand j alone.
  std::vector<int64_t> taken;
  for (int64_t k = 0; k < n; ++k) {
    if (joint || k == j) taken.push_back(k);
  }
  const size_t m = taken.size();
  // The computation's scalars: quantized (per tensor) where the results are,
  // and then the computation runs on quantized scalars.
  std::vector<TensorType> scalars;
  for (int64_t k : taken) scalars.push_back(ScalarOf(c.result_types[k]));
  std::vector<ElementType> types;
  for (const TensorType& scalar : scalars) types.push_back(scalar.element_type);
  std::vector<TensorType> argument_types = scalars;
  argument_types.insert(argument_types.end(), scalars.begin(), scalars.end());
  HLOCHECK_ASSIGN_OR_RETURN(
      RegionEvaluator body,
      RegionEvaluator::Create(c.regions[0], argument_types, scalars, c.op + ": computation"));
  if (!body.support().supported) return absl::UnimplementedError(body.support().reason);
  // The members' operands in E (a quantized operand has its result's type:
  // SupportsCollective).
  std::vector<std::vector<Tensor>> converted(members);
  for (size_t g = 0; g < members; ++g) {
    for (size_t t = 0; t < m; ++t) {
      const Tensor& from = operand_of(g, taken[t]);
      Tensor to(TensorType(from.shape(), types[t]));
      if (to.num_elements() != type.num_elements()) {
        return absl::InvalidArgumentError(c.op + ": an operand of another size than its result");
      }
      ConvertElements(from.element_type(), from.raw(), types[t], to.raw(), from.num_elements());
      converted[g].push_back(std::move(to));
    }
  }
  const size_t position = joint ? static_cast<size_t>(j) : 0;
  Tensor result(type);
  // A computation whose result `position` is one recognised op of that
  // operand's pair of arguments: folded with the op's kernel, in the same
  // group order (not on quantized values, whose ops are not the storage
  // type's).
  const Combiner kind = ClassifyCombiners(c.regions[0], m).at(position);
  if (!type.quantization && KernelCovers(kind, types[position]) &&
      types[position] == type.element_type) {
    bool folded = false;
    DispatchElementType(type.element_type, [&]<ElementType T>() {
      folded = WithCombineFunction<T>(kind, [&](const auto& combine) {
        auto out = result.values<T>();
        const auto first = converted[0][position].values<T>();
        std::copy(first.begin(), first.end(), out.begin());
        for (size_t g = 1; g < members; ++g) {
          const auto in = converted[g][position].values<T>();
          for (size_t e = 0; e < out.size(); ++e) out[e] = combine(out[e], in[e]);
        }
      });
    });
    if (folded) return result;
  }
  const Device inline_device = InlineDevice(device);
  std::vector<std::vector<std::byte>> accumulator(m), next(m);
  for (size_t t = 0; t < m; ++t) {
    accumulator[t].resize(ContainerBytes(types[t]));
    next[t].resize(ContainerBytes(types[t]));
  }
  std::vector<const void*> in(2 * m);
  std::vector<void*> out(m);
  for (int64_t e = 0; e < type.num_elements(); ++e) {
    for (size_t t = 0; t < m; ++t) {
      const size_t bytes = accumulator[t].size();
      std::memcpy(accumulator[t].data(),
                  static_cast<const std::byte*>(converted[0][t].raw()) + e * bytes, bytes);
    }
    for (size_t g = 1; g < members; ++g) {
      for (size_t t = 0; t < m; ++t) {
        const size_t bytes = accumulator[t].size();
        in[t] = accumulator[t].data();
        in[m + t] = static_cast<const std::byte*>(converted[g][t].raw()) + e * bytes;
        out[t] = next[t].data();
      }
      HLOCHECK_RETURN_IF_ERROR(body.Evaluate(in, out, inline_device));
      std::swap(accumulator, next);
    }
    const size_t bytes = accumulator[position].size();
    std::memcpy(static_cast<std::byte*>(result.raw()) + e * bytes, accumulator[position].data(),
                bytes);
  }
  return result;
}

// A result before anything is written to it: zeros, for a quantized type
// quantize(0) (its zero point's storage, per axis where it is).
Tensor ZerosOf(const TensorType& type) {
  Tensor zeros(type);
  if (!type.quantization) return zeros;
  const AxisWalk walk(type);
  DispatchElementType(type.element_type, [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      auto out = zeros.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = static_cast<ContainerT<T>>(
            type.quantization->zero_points[walk.At(static_cast<int64_t>(i))]);
      }
    }
  });
  return zeros;
}

AdapterSupport SupportsCollective(const Case& c) {
  // The collectives that move data move quantized tensors' storage; those
  // that reduce run their computations on per-tensor quantized scalars of
  // the results' types (no storage promotion or requantization here).
  const bool moves = c.op == "all_gather" || c.op == "all_to_all" || c.op == "collective_permute" ||
                     c.op == "collective_broadcast";
  for (const Tensor& t : c.operands) {
    if (!t.type().quantization || moves) continue;
    bool matched = !t.type().quantization->quantization_dimension;
    bool same = false;
    for (const TensorType& r : c.result_types) {
      same =
          same || (r.element_type == t.element_type() && r.quantization == t.type().quantization);
    }
    if (!matched || !same) {
      return AdapterSupport::No(c.op +
                                " on per-axis quantized tensors or into another quantized type");
    }
  }
  for (const TensorType& t : c.result_types) {
    if (t.quantization && !moves && t.quantization->quantization_dimension) {
      return AdapterSupport::No(c.op + " on per-axis quantized tensors");
    }
    if (t.shape.empty() && (c.op == "all_gather" || c.op == "all_to_all")) {
      return AdapterSupport::No(c.op + " of 0-dimensional tensors");
    }
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunCollective(const Case& c, const Device& device) {
  const Grid grid{c.num_replicas, c.num_partitions};
  if (grid.size() < 1 || c.operands.size() % grid.size() != 0 ||
      c.result_types.size() % grid.size() != 0) {
    return absl::InvalidArgumentError(c.op + ": operands and results not a whole grid's");
  }
  // n results per process, from n operands, or n and a root array
  // (has_dynamic_root: which member of its group is operand j's source).
  const Attribute* dynamic_attribute = c.FindAttribute("has_dynamic_root");
  const bool dynamic_root = dynamic_attribute != nullptr &&
                            std::holds_alternative<bool>(*dynamic_attribute) &&
                            std::get<bool>(*dynamic_attribute);
  const auto n = static_cast<int64_t>(c.result_types.size()) / grid.size();
  const int64_t n_in = n + (dynamic_root ? 1 : 0);
  if (n_in != static_cast<int64_t>(c.operands.size()) / grid.size()) {
    return absl::InvalidArgumentError(c.op + ": as many operands as results per process" +
                                      (dynamic_root ? ", and the root array" : ""));
  }
  HLOCHECK_ASSIGN_OR_RETURN(const ProcessGroups process_groups, GroupsOf(c));
  const auto& groups = process_groups.groups;
  const auto& group_of = process_groups.group_of;
  const auto& index_in = process_groups.index_in;
  // The posts: every process's operands, before any process reads one.
  std::vector<const Tensor*> posts(static_cast<size_t>(grid.size() * n_in));
  for (int64_t p = 0; p < grid.size(); ++p) {
    for (int64_t j = 0; j < n_in; ++j) posts[p * n_in + j] = &c.operands[p * n_in + j];
  }
  Results results(static_cast<size_t>(grid.size() * n));
  // all_reduce of one f32 or f64 operand summed or multiplied: each group's
  // sum or product is computed once into the group's buffer, its elements
  // split among the pool's threads (a backend splits them among the
  // processes: reduce-scatter), and each process copies it (all-gather).
  // Every element is still folded in group order.
  Combiner fast = Combiner::kGeneral;
  if (c.op == "all_reduce" && n == 1 && c.regions.size() == 1) {
    const ElementType e = c.result_types[0].element_type;
    bool same = e == ElementType::kF32 || e == ElementType::kF64;
    for (const Tensor& operand : c.operands) same = same && operand.element_type() == e;
    const Combiner kind = ClassifyCombiners(c.regions[0], 1).at(0);
    if (same && (kind == Combiner::kAdd || kind == Combiner::kMultiply)) fast = kind;
  }
  if (fast != Combiner::kGeneral) {
    std::vector<Tensor> shared;
    for (size_t g = 0; g < groups.size(); ++g) shared.emplace_back(c.result_types[0]);
    for (size_t g = 0; g < groups.size(); ++g) {
      const std::vector<int64_t>& group = groups[g];
      DispatchElementType(c.result_types[0].element_type, [&]<ElementType T>() {
        if constexpr (T == ElementType::kF32 || T == ElementType::kF64) {
          auto out = shared[g].values<T>();
          const auto members = static_cast<double>(group.size());
          ParallelFor(device, static_cast<int64_t>(out.size()), members * sizeof(out[0]), members,
                      [&](int64_t first, int64_t last) {
                        const auto start = posts[group[0]]->values<T>();
                        for (int64_t e = first; e < last; ++e) out[e] = start[e];
                        for (size_t k = 1; k < group.size(); ++k) {
                          const auto in = posts[group[k]]->values<T>();
                          if (fast == Combiner::kAdd) {
                            for (int64_t e = first; e < last; ++e) out[e] += in[e];
                          } else {
                            for (int64_t e = first; e < last; ++e) out[e] *= in[e];
                          }
                        }
                      });
        }
      });
    }
    const auto result_bytes = static_cast<double>(shared.empty() ? 0 : shared[0].bytes().size());
    ParallelFor(device, grid.size(), result_bytes, result_bytes, [&](int64_t first, int64_t last) {
      for (int64_t p = first; p < last; ++p) {
        Tensor result = ZerosOf(c.result_types[p]);  // zeros: in no group
        const int64_t g = group_of[p];
        if (g >= 0 && !result.bytes().empty()) {
          std::memcpy(result.raw(), shared[g].raw(), shared[g].bytes().size());
        }
        results[p] = std::move(result);
      }
    });
    return results;
  }
  // Process p's results, from the posts.
  auto process = [&](int64_t p) -> absl::Status {
    // The index within its group of operand j's source, by this process's
    // own root array.
    auto source_index = [&](int64_t j) -> absl::StatusOr<int64_t> {
      if (!dynamic_root) return 0;
      const Tensor& roots = *posts[p * n_in + n];
      if (roots.element_type() != ElementType::kSI32 || roots.num_elements() != n) {
        return absl::InvalidArgumentError(c.op + ": the root array is not tensor<Nxi32>");
      }
      const int64_t root = roots.values<ElementType::kSI32>()[j];
      if (root < 0 || root >= static_cast<int64_t>(groups[group_of[p]].size())) {
        return absl::InvalidArgumentError(
            absl::StrCat(c.op, ": root ", root, " outside its group"));
      }
      return root;
    };
    std::vector<std::vector<Tensor>> scatter_parts;  // reduce_scatter: by member, by operand
    for (int64_t j = 0; j < n; ++j) {
      const TensorType& type = c.result_types[p * n + j];
      Tensor result = ZerosOf(type);
      const int64_t g = group_of[p];
      if (g < 0) {
        results[p * n + j] = std::move(result);  // zeros: in no group, or no one's target
        continue;
      }
      const std::vector<int64_t>& group = groups[g];
      auto post = [&](int64_t q) -> const Tensor& { return *posts[q * n_in + j]; };
      if (c.op == "all_reduce") {
        // Every process reduces its group's operands itself, in group
        // order, with an evaluator of its own (all_reduce's other results
        // are its other operands': see ReduceGroup).
        auto whole = [&](size_t g, int64_t k) -> const Tensor& {
          return *posts[group[g] * n_in + k];
        };
        HLOCHECK_ASSIGN_OR_RETURN(result, ReduceGroup(c, group.size(), n, j, whole, type, device));
        results[p * n + j] = std::move(result);
        continue;
      }
      if (c.op == "collective_reduce") {
        // Only the source reduces (with the computation over operand j
        // alone); the others keep their zeros.
        HLOCHECK_ASSIGN_OR_RETURN(const int64_t source, source_index(j));
        if (index_in[p] == source) {
          auto whole = [&](size_t g, int64_t) -> const Tensor& {
            return *posts[group[g] * n_in + j];
          };
          HLOCHECK_ASSIGN_OR_RETURN(result,
                                    ReduceGroup(c, group.size(), 1, 0, whole, type, device));
        }
        results[p * n + j] = std::move(result);
        continue;
      }
      if (c.op == "reduce_scatter") {
        // This process's part (its index in the group) of every member's
        // operands, cut once for all its results, then reduced.
        if (scatter_parts.empty()) {
          const int64_t dimension = IntAttributeOr(c, "scatter_dimension", 0);
          const auto count = static_cast<int64_t>(group.size());
          scatter_parts.resize(group.size());
          for (size_t g = 0; g < group.size(); ++g) {
            for (int64_t k = 0; k < n; ++k) {
              const Tensor& from = *posts[group[g] * n_in + k];
              if (dimension < 0 || dimension >= static_cast<int64_t>(from.shape().size()) ||
                  from.shape()[dimension] % count != 0) {
                return absl::InvalidArgumentError("reduce_scatter: shapes do not scatter");
              }
              Shape part_shape = from.shape();
              const int64_t length = part_shape[dimension] / count;
              part_shape[dimension] = length;
              Tensor& part =
                  scatter_parts[g].emplace_back(TensorType(part_shape, from.element_type()));
              CopySlab(from, index_in[p] * length, part, 0, dimension, length);
            }
          }
        }
        auto part_of = [&](size_t g, int64_t k) -> const Tensor& { return scatter_parts[g][k]; };
        HLOCHECK_ASSIGN_OR_RETURN(result,
                                  ReduceGroup(c, group.size(), n, j, part_of, type, device));
        results[p * n + j] = std::move(result);
        continue;
      }
      if (c.op == "collective_permute" || c.op == "collective_broadcast") {
        HLOCHECK_ASSIGN_OR_RETURN(const int64_t source, source_index(j));  // permute: 0
        const Tensor& from = post(group[source]);
        if (from.type() != type) return absl::InvalidArgumentError(c.op + ": types differ");
        if (!from.bytes().empty()) std::memcpy(result.raw(), from.raw(), from.bytes().size());
      } else if (c.op == "all_gather") {
        const int64_t dimension = IntAttributeOr(c, "all_gather_dim", 0);
        int64_t at = 0;
        for (int64_t q : group) {
          const Tensor& from = post(q);
          if (dimension < 0 || dimension >= static_cast<int64_t>(type.shape.size()) ||
              from.shape().size() != type.shape.size() ||
              at + from.shape()[dimension] > type.shape[dimension]) {
            return absl::InvalidArgumentError("all_gather: shapes do not gather");
          }
          CopySlab(from, 0, result, at, dimension, from.shape()[dimension]);
          at += from.shape()[dimension];
        }
      } else {  // all_to_all: part index_in[p] of every member, in order
        const int64_t split = IntAttributeOr(c, "split_dimension", 0);
        const int64_t concat = IntAttributeOr(c, "concat_dimension", 0);
        const auto count = static_cast<int64_t>(group.size());
        const int64_t rank = static_cast<int64_t>(type.shape.size());
        if (split < 0 || split >= rank || concat < 0 || concat >= rank ||
            IntAttributeOr(c, "split_count", 0) != count) {
          return absl::InvalidArgumentError("all_to_all: bad dimensions or split_count");
        }
        for (int64_t k = 0; k < count; ++k) {
          const Tensor& from = post(group[k]);
          const int64_t length = from.shape()[split] / count;
          // The part: a slab of `from` along split; placed at slab k along
          // concat. Element by element through a temporary when the two
          // dimensions differ.
          Shape part_shape = from.shape();
          part_shape[split] = length;
          Tensor part(TensorType(part_shape, from.element_type()));
          CopySlab(from, index_in[p] * length, part, 0, split, length);
          CopySlab(part, 0, result, k * part_shape[concat], concat, part_shape[concat]);
        }
      }
      results[p * n + j] = std::move(result);
    }
    return absl::OkStatus();
  };
  for (int64_t p = 0; p < grid.size(); ++p) HLOCHECK_RETURN_IF_ERROR(process(p));
  return results;
}

AdapterSupport SupportsProcessId(const Case&) { return AdapterSupport::Yes(); }

// replica_id, partition_id: each process's own.
absl::StatusOr<Results> RunProcessId(const Case& c, const Device&) {
  Results results;
  for (int64_t p = 0; p < c.ProcessCount(); ++p) {
    Tensor id(Shape{}, ElementType::kUI32);
    id.values<ElementType::kUI32>()[0] =
        static_cast<uint32_t>(c.op == "replica_id" ? p / c.num_partitions : p % c.num_partitions);
    results.push_back(std::move(id));
  }
  return results;
}

}  // namespace

std::vector<OpEntry> CollectivesOps() {
  return {
      {"all_gather", kVariadic, &SupportsCollective, &RunCollective},
      {"all_reduce", kVariadic, &SupportsCollective, &RunCollective},
      {"all_to_all", kVariadic, &SupportsCollective, &RunCollective},
      {"collective_broadcast", kVariadic, &SupportsCollective, &RunCollective},
      {"collective_permute", kVariadic, &SupportsCollective, &RunCollective},
      {"collective_reduce", kVariadic, &SupportsCollective, &RunCollective},
      {"partition_id", kVariadic, &SupportsProcessId, &RunProcessId},
      {"reduce_scatter", kVariadic, &SupportsCollective, &RunCollective},
      {"replica_id", kVariadic, &SupportsProcessId, &RunProcessId},
  };
}

}  // namespace hlocheck::cpu
