// The CUDA adapter's sort: every input's rows along `dimension` permuted
// into the order of the first input's keys, for a comparator that is one
// compare LT or GT of the first input's pair of arguments (kernels/
// sort_kernels.h: a stable merge sort, whatever is_stable says, which
// allows it). The sorted dimension is moved last by a strided copy and back
// where it is not last already. Other comparators are not implemented on
// CUDA yet.
#include <optional>
#include <string>
#include <vector>

#include "adapters/cuda/data_movement_internal.h"
#include "core/case_attributes.h"

namespace hlocheck::cuda {
namespace {

struct KeyOrder {
  bool descending = false;
  CompareType compare_type = CompareType::kFloat;
};

// The comparator's order, when it is `compare(a0, b0), LT or GT` (either
// argument order) with a comparison type that fits the key type.
std::optional<KeyOrder> ClassifyComparator(const Region& region, ElementType key) {
  if (region.blocks.size() != 1) return std::nullopt;
  const Block& block = region.blocks[0];
  if (block.arguments.size() < 2 || block.operations.size() != 2) return std::nullopt;
  const Operation& compare = block.operations[0];
  const Operation& terminator = block.operations[1];
  if (compare.name != "stablehlo.compare" || compare.operands.size() != 2 ||
      compare.results.size() != 1 || terminator.name != "stablehlo.return" ||
      terminator.operands.size() != 1 || terminator.operands[0] != compare.results[0]) {
    return std::nullopt;
  }
  const bool forward =
      compare.operands[0] == block.arguments[0] && compare.operands[1] == block.arguments[1];
  const bool backward =
      compare.operands[0] == block.arguments[1] && compare.operands[1] == block.arguments[0];
  const std::string direction = EnumName(compare, "comparison_direction");
  if ((!forward && !backward) || (direction != "LT" && direction != "GT")) return std::nullopt;
  KeyOrder order;
  // compare(a, b) LT and compare(b, a) GT both say a < b.
  order.descending = (direction == "LT") != forward;
  const std::string type = EnumName(compare, "compare_type");
  if (IsComplex(key)) return std::nullopt;
  if (type == "TOTALORDER" && IsFloat(key)) {
    order.compare_type = CompareType::kTotalOrder;
  } else if (type == "FLOAT" || (type.empty() && IsFloat(key))) {
    if (!IsFloat(key)) return std::nullopt;
    order.compare_type = CompareType::kFloat;
  } else if (type == "SIGNED" || (type.empty() && IsSignedInt(key))) {
    if (IsFloat(key)) return std::nullopt;
    order.compare_type = CompareType::kSigned;
  } else if (type == "UNSIGNED" || type.empty()) {
    if (IsFloat(key)) return std::nullopt;
    order.compare_type = CompareType::kUnsigned;
  } else {
    return std::nullopt;
  }
  return order;
}

AdapterSupport SupportsSort(const Case& c) {
  if (AdapterSupport movement = SupportsMovement(c); !movement.supported) return movement;
  if (c.operands.empty() || c.regions.size() != 1) return AdapterSupport::No("sort: no inputs");
  if (!ClassifyComparator(c.regions[0], c.operands[0].element_type()).has_value()) {
    return AdapterSupport::No(
        "sort: only a comparator of one compare LT or GT of the first input is implemented on "
        "CUDA");
  }
  if (c.operands[0].num_elements() > (int64_t{1} << 31)) {
    return AdapterSupport::No("sort: more than 2^31 elements");
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunSort(const Case& c, Context& context) {
  if (c.operands.empty() || c.regions.size() != 1 || c.result_types.size() != c.operands.size()) {
    return absl::InvalidArgumentError("sort needs inputs, as many results and a comparator");
  }
  const Shape& shape = c.operands[0].shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  HLOCHECK_ASSIGN_OR_RETURN(int64_t dimension, IntAttribute(c, "dimension"));
  if (dimension < 0) dimension += rank;
  if (rank == 0 || dimension < 0 || dimension >= rank) {
    return absl::InvalidArgumentError("sort: dimension out of range");
  }
  for (size_t i = 0; i < c.operands.size(); ++i) {
    if (c.operands[i].shape() != shape || c.result_types[i] != c.operands[i].type()) {
      return absl::InvalidArgumentError("sort: inputs and results of different shapes");
    }
  }
  std::optional<KeyOrder> key_order =
      ClassifyComparator(c.regions[0], c.operands[0].element_type());
  std::optional<ElementKind> key_kind = KindOf(c.operands[0].element_type());
  if (!key_order.has_value() || !key_kind.has_value()) {
    return absl::UnimplementedError("sort: this comparator is not implemented on CUDA");
  }
  // The sorted dimension last (rows of `length`), and the order back.
  std::vector<int64_t> to_rows = IdentityOrder(rank);
  to_rows.erase(to_rows.begin() + dimension);
  to_rows.push_back(dimension);
  std::vector<int64_t> from_rows(rank);
  for (int64_t d = 0; d < rank; ++d) from_rows[to_rows[d]] = d;
  Shape row_shape;
  for (int64_t d : to_rows) row_shape.push_back(shape[d]);
  const bool moved = dimension != rank - 1;
  const int64_t length = shape[dimension];
  const int64_t rows = length == 0 ? 0 : c.operands[0].num_elements() / length;
  const size_t count = static_cast<size_t>(c.operands[0].num_elements());

  // Each input in rows.
  std::vector<Buffer> inputs;
  for (const Tensor& operand : c.operands) {
    HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(operand));
    if (moved) {
      const int bytes = ContainerBytes(operand.element_type());
      HLOCHECK_ASSIGN_OR_RETURN(Buffer row_major, context.Allocate(count * bytes));
      HLOCHECK_RETURN_IF_ERROR(
          context.Check(c, context.machine().StridedCopy(PermutingCopy(
                               shape, row_shape, to_rows, bytes, in.data(), row_major.data()))));
      in = std::move(row_major);
    }
    inputs.push_back(std::move(in));
  }
  HLOCHECK_ASSIGN_OR_RETURN(Buffer order, context.Allocate(count * sizeof(uint32_t)));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer scratch, context.Allocate(count * sizeof(uint32_t)));
  SortRowsArgs sort;
  sort.key_kind = *key_kind;
  sort.compare_type = key_order->compare_type;
  sort.descending = key_order->descending;
  sort.rows = rows;
  sort.length = length;
  sort.keys = inputs[0].data();
  sort.order = static_cast<uint32_t*>(order.data());
  sort.scratch = static_cast<uint32_t*>(scratch.data());
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().SortRows(sort)));

  Results results;
  for (size_t i = 0; i < c.operands.size(); ++i) {
    const int bytes = ContainerBytes(c.operands[i].element_type());
    HLOCHECK_ASSIGN_OR_RETURN(Buffer sorted, context.Allocate(count * bytes));
    PermuteRowsArgs permute;
    permute.element_bytes = bytes;
    permute.rows = rows;
    permute.length = length;
    permute.in = inputs[i].data();
    permute.order = sort.order;
    permute.out = sorted.data();
    HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().PermuteRows(permute)));
    if (moved) {
      HLOCHECK_ASSIGN_OR_RETURN(Buffer back, context.Allocate(count * bytes));
      HLOCHECK_RETURN_IF_ERROR(
          context.Check(c, context.machine().StridedCopy(PermutingCopy(
                               row_shape, shape, from_rows, bytes, sorted.data(), back.data()))));
      sorted = std::move(back);
    }
    HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(sorted, c.result_types[i]));
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace

std::vector<OpEntry> DataMovementSortOps() { return {{"sort", &SupportsSort, &RunSort}}; }

}  // namespace hlocheck::cuda
