// The CUDA adapter's reductions of one input whose body is a single
// commutative op of its two arguments (add, multiply, maximum, minimum, and,
// or, xor; kernels/reduction_kernels.h): reduce, as a tree over rows (the
// reduced dimensions moved last by a strided copy first where they are not
// already), reduce_window, one thread per result element, and
// select_and_scatter (a select of one compare), one thread per window. Other
// bodies and several inputs are not implemented on CUDA yet (Supports says
// so).
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/case_attributes.h"
#include "core/element_value.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {

// The combiner of a body `{ ^bb(a, b): r = OP(a, b) (or OP(b, a)); return r }`
// whose arguments are rank-0 tensors of `type`.
std::optional<Combiner> CombinerOf(const Region& region, ElementType type) {
  if (region.blocks.size() != 1) return std::nullopt;
  const Block& block = region.blocks[0];
  if (block.arguments.size() != 2 || block.operations.size() != 2) return std::nullopt;
  for (const ValueType& argument : block.argument_types) {
    if (!argument.is_tensor() || argument.tensor().element_type != type ||
        !argument.tensor().shape.empty()) {
      return std::nullopt;
    }
  }
  const Operation& op = block.operations[0];
  const Operation& terminator = block.operations[1];
  if (terminator.name != "stablehlo.return" || terminator.operands.size() != 1 ||
      op.results.size() != 1 || terminator.operands[0] != op.results[0] ||
      op.operands.size() != 2 || !op.regions.empty()) {
    return std::nullopt;
  }
  const ValueId a = block.arguments[0];
  const ValueId b = block.arguments[1];
  const bool of_pair =
      (op.operands[0] == a && op.operands[1] == b) || (op.operands[0] == b && op.operands[1] == a);
  if (!of_pair) return std::nullopt;
  const bool logical = IsBool(type) || IsInteger(type);
  if (op.name == "stablehlo.add") return Combiner::kAdd;
  if (op.name == "stablehlo.multiply") return Combiner::kMultiply;
  if (op.name == "stablehlo.maximum") return Combiner::kMaximum;
  if (op.name == "stablehlo.minimum") return Combiner::kMinimum;
  if (logical && op.name == "stablehlo.and") return Combiner::kAnd;
  if (logical && op.name == "stablehlo.or") return Combiner::kOr;
  if (logical && op.name == "stablehlo.xor") return Combiner::kXor;
  return std::nullopt;
}

namespace {

// reduce and reduce_window of one input with one init value, whose body is
// one combiner of the result's type (which the public spec lets be wider
// than the input's: the input is converted to it first).
AdapterSupport SupportsOneInputReduction(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c); !tensors.supported) return tensors;
  if (c.operands.size() != 2 || c.result_types.size() != 1 || c.regions.size() != 1) {
    return AdapterSupport::No(c.op + " of several inputs is not implemented on CUDA yet");
  }
  if (c.operands[0].rank() > kMaxRank) return AdapterSupport::No(c.op + ": rank above 8");
  if (!CombinerOf(c.regions[0], c.result_types[0].element_type).has_value()) {
    return AdapterSupport::No(
        c.op +
        ": only a body of one add, multiply, maximum, minimum, and, or or xor of its "
        "arguments is implemented on CUDA");
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunReduce(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  if (c.regions.size() != 1) return absl::InvalidArgumentError("reduce needs a body");
  const Tensor& input = c.operands[0];
  const Tensor& init = c.operands[1];
  const TensorType& type = c.result_types[0];
  const ElementType element = type.element_type;
  std::optional<Combiner> combiner = CombinerOf(c.regions[0], element);
  std::optional<ElementKind> kind = KindOf(element);
  if (!combiner.has_value() || !kind.has_value()) {
    return absl::UnimplementedError("reduce: this body or type is not implemented on CUDA");
  }
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> dims, IntListAttribute(c, "dimensions"));
  const Shape& shape = input.shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<bool> reduced(rank, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank || reduced[d]) {
      return absl::InvalidArgumentError("reduce: dimensions are not distinct operand dimensions");
    }
    reduced[d] = true;
  }
  // The kept dimensions in order, then the reduced ones in order.
  std::vector<int64_t> order;
  Shape kept_shape;
  int64_t rows = 1;
  int64_t columns = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d]) {
      order.push_back(d);
      kept_shape.push_back(shape[d]);
      rows *= shape[d];
    }
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (reduced[d]) {
      order.push_back(d);
      columns *= shape[d];
    }
  }
  if (type.shape != kept_shape || init.rank() != 0 || init.element_type() != input.element_type()) {
    return absl::InvalidArgumentError("reduce: the result or init value does not fit");
  }
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in, UploadAs(c, context, input, element));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer init_buffer, UploadAs(c, context, init, element));
  const int bytes = ContainerBytes(element);
  Buffer moved;
  const void* rows_data = in.data();
  if (!std::is_sorted(order.begin(), order.end())) {
    Shape moved_shape;
    for (int64_t d : order) moved_shape.push_back(shape[d]);
    HLOCHECK_ASSIGN_OR_RETURN(moved,
                              context.Allocate(static_cast<size_t>(input.num_elements()) * bytes));
    HLOCHECK_RETURN_IF_ERROR(
        context.Check(c, context.machine().StridedCopy(PermutingCopy(
                             shape, moved_shape, order, bytes, in.data(), moved.data()))));
    rows_data = moved.data();
  }
  HLOCHECK_ASSIGN_OR_RETURN(Buffer out, context.Allocate(static_cast<size_t>(rows * bytes)));
  ReduceRowsArgs args;
  args.combiner = *combiner;
  args.kind = *kind;
  args.rows = rows;
  args.columns = columns;
  args.in = rows_data;
  args.init = init_buffer.data();
  args.out = out.data();
  args.fault_drop_last_block = context.faults().drop_last_block;
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().ReduceRows(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

// -------------------------------------------------------- reduce_window

absl::StatusOr<Results> RunReduceWindow(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  if (c.regions.size() != 1) return absl::InvalidArgumentError("reduce_window needs a body");
  const Tensor& input = c.operands[0];
  const Tensor& init = c.operands[1];
  const TensorType& type = c.result_types[0];
  const ElementType element = type.element_type;
  std::optional<Combiner> combiner = CombinerOf(c.regions[0], element);
  std::optional<ElementKind> kind = KindOf(element);
  if (!combiner.has_value() || !kind.has_value()) {
    return absl::UnimplementedError("reduce_window: this body or type is not implemented on CUDA");
  }
  const Shape& shape = input.shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  const std::vector<int64_t> ones(static_cast<size_t>(rank), 1);
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> window, IntListAttribute(c, "window_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> strides,
                            IntListAttribute(c, "window_strides", ones));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> base, IntListAttribute(c, "base_dilations", ones));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> dilations,
                            IntListAttribute(c, "window_dilations", ones));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> padding,
                            IntMatrixAttribute(c, "padding", rank, 2));
  ReduceWindowArgs args;
  args.combiner = *combiner;
  args.kind = *kind;
  args.rank = static_cast<int>(rank);
  const std::vector<int64_t> in_strides = RowMajorStrides(shape);
  for (const std::vector<int64_t>* list : {&window, &strides, &base, &dilations}) {
    if (static_cast<int64_t>(list->size()) != rank ||
        std::any_of(list->begin(), list->end(), [](int64_t x) { return x < 1; })) {
      return absl::InvalidArgumentError(
          "reduce_window: window_dimensions, window_strides and the dilations need positive "
          "values, one per dimension");
    }
  }
  if (type.rank() != rank || init.rank() != 0 || init.element_type() != input.element_type()) {
    return absl::InvalidArgumentError("reduce_window: the result or init value does not fit");
  }
  for (int64_t d = 0; d < rank; ++d) {
    // The result's size along d, as the spec's shape function gives it.
    const int64_t dilated = shape[d] == 0 ? 0 : (shape[d] - 1) * base[d] + 1;
    const int64_t padded = padding[2 * d] + dilated + padding[2 * d + 1];
    const int64_t dilated_window = (window[d] - 1) * dilations[d] + 1;
    const int64_t size =
        padded <= 0 || dilated_window > padded ? 0 : (padded - dilated_window) / strides[d] + 1;
    if (padded < 0 || size != type.shape[d]) {
      return absl::InvalidArgumentError("reduce_window: the result's shape does not fit");
    }
    args.out_dims[d] = type.shape[d];
    args.in_dims[d] = shape[d];
    args.in_strides[d] = in_strides[d];
    args.window[d] = window[d];
    args.strides[d] = strides[d];
    args.base_dilations[d] = base[d];
    args.window_dilations[d] = dilations[d];
    args.pad_low[d] = padding[2 * d];
  }
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in, UploadAs(c, context, input, element));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer init_buffer, UploadAs(c, context, init, element));
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer out,
      context.Allocate(static_cast<size_t>(type.num_elements() * ContainerBytes(element))));
  args.in = in.data();
  args.init = init_buffer.data();
  args.out = out.data();
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().ReduceWindow(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

// --------------------------------------------------- select_and_scatter

// A select body `compare(a, b)` (or `compare(b, a)`) of its rank-0
// arguments of `type`, as SelectAndScatterArgs holds it.
bool ClassifySelect(const Region& region, ElementType type, SelectAndScatterArgs& args) {
  if (region.blocks.size() != 1 || IsComplex(type)) return false;
  const Block& block = region.blocks[0];
  if (block.arguments.size() != 2 || block.operations.size() != 2) return false;
  for (const ValueType& argument : block.argument_types) {
    if (!argument.is_tensor() || argument.tensor().element_type != type ||
        !argument.tensor().shape.empty()) {
      return false;
    }
  }
  const Operation& compare = block.operations[0];
  const Operation& terminator = block.operations[1];
  if (compare.name != "stablehlo.compare" || compare.operands.size() != 2 ||
      compare.results.size() != 1 || terminator.name != "stablehlo.return" ||
      terminator.operands.size() != 1 || terminator.operands[0] != compare.results[0]) {
    return false;
  }
  const bool forward =
      compare.operands[0] == block.arguments[0] && compare.operands[1] == block.arguments[1];
  const bool backward =
      compare.operands[0] == block.arguments[1] && compare.operands[1] == block.arguments[0];
  if (!forward && !backward) return false;
  args.swapped = backward;
  const std::string direction = EnumName(compare, "comparison_direction");
  const std::pair<const char*, CompareDirection> directions[] = {
      {"EQ", CompareDirection::kEq}, {"NE", CompareDirection::kNe}, {"GE", CompareDirection::kGe},
      {"GT", CompareDirection::kGt}, {"LE", CompareDirection::kLe}, {"LT", CompareDirection::kLt}};
  bool known = false;
  for (const auto& [name, value] : directions) {
    if (direction == name) {
      args.direction = value;
      known = true;
    }
  }
  if (!known) return false;
  const std::string compare_type = EnumName(compare, "compare_type");
  if (compare_type == "TOTALORDER" && IsFloat(type)) {
    args.compare_type = CompareType::kTotalOrder;
  } else if (IsFloat(type) && (compare_type.empty() || compare_type == "FLOAT")) {
    args.compare_type = CompareType::kFloat;
  } else if (!IsFloat(type) &&
             (compare_type == "SIGNED" || (compare_type.empty() && IsSignedInt(type)))) {
    args.compare_type = CompareType::kSigned;
  } else if (!IsFloat(type) && (compare_type == "UNSIGNED" || compare_type.empty())) {
    args.compare_type = CompareType::kUnsigned;
  } else {
    return false;
  }
  return true;
}

AdapterSupport SupportsSelectAndScatter(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c); !tensors.supported) return tensors;
  if (c.operands.size() != 3 || c.result_types.size() != 1 || c.regions.size() != 2) {
    return AdapterSupport::No("select_and_scatter needs 3 operands and two bodies");
  }
  if (c.operands[0].rank() > kMaxRank)
    return AdapterSupport::No("select_and_scatter: rank above 8");
  SelectAndScatterArgs args;
  if (!ClassifySelect(c.regions[0], c.operands[0].element_type(), args) ||
      !CombinerOf(c.regions[1], c.result_types[0].element_type).has_value()) {
    return AdapterSupport::No(
        "select_and_scatter: only a select of one compare and a scatter of one add, multiply, "
        "maximum, minimum, and, or or xor are implemented on CUDA");
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunSelectAndScatter(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 3));
  if (c.regions.size() != 2) return absl::InvalidArgumentError("select_and_scatter needs 2 bodies");
  const Tensor& operand = c.operands[0];
  const Tensor& source = c.operands[1];
  const Tensor& init = c.operands[2];
  const TensorType& type = c.result_types[0];
  SelectAndScatterArgs args;
  std::optional<Combiner> combiner = CombinerOf(c.regions[1], type.element_type);
  if (!ClassifySelect(c.regions[0], operand.element_type(), args) || !combiner.has_value()) {
    return absl::UnimplementedError("select_and_scatter: these bodies are not implemented on CUDA");
  }
  const Shape& shape = operand.shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  const std::vector<int64_t> ones(static_cast<size_t>(rank), 1);
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> window, IntListAttribute(c, "window_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> strides,
                            IntListAttribute(c, "window_strides", ones));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> padding,
                            IntMatrixAttribute(c, "padding", rank, 2));
  for (const std::vector<int64_t>* list : {&window, &strides}) {
    if (static_cast<int64_t>(list->size()) != rank ||
        std::any_of(list->begin(), list->end(), [](int64_t x) { return x < 1; })) {
      return absl::InvalidArgumentError(
          "select_and_scatter: window_dimensions and window_strides need positive values");
    }
  }
  if (type.shape != shape || Kind(type.element_type) != Kind(operand.element_type()) ||
      source.element_type() != operand.element_type() || init.rank() != 0 ||
      init.element_type() != operand.element_type() || source.rank() != rank) {
    return absl::InvalidArgumentError("select_and_scatter: operand, source and result do not fit");
  }
  args.operand_kind = *KindOf(operand.element_type());
  args.kind = *KindOf(type.element_type);
  args.combiner = *combiner;
  args.rank = static_cast<int>(rank);
  const std::vector<int64_t> in_strides = RowMajorStrides(shape);
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t padded = padding[2 * d] + shape[d] + padding[2 * d + 1];
    const int64_t windows =
        padded <= 0 || window[d] > padded ? 0 : (padded - window[d]) / strides[d] + 1;
    if (padded < 0 || source.shape()[d] != windows) {
      return absl::InvalidArgumentError("select_and_scatter: the source does not fit the windows");
    }
    args.in_dims[d] = shape[d];
    args.in_strides[d] = in_strides[d];
    args.source_dims[d] = source.shape()[d];
    args.window[d] = window[d];
    args.strides[d] = strides[d];
    args.pad_low[d] = padding[2 * d];
  }
  const int bytes = ContainerBytes(type.element_type);
  HLOCHECK_ASSIGN_OR_RETURN(Buffer operand_buffer, context.Upload(operand));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer source_buffer, UploadAs(c, context, source, type.element_type));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer result,
                            context.Allocate(static_cast<size_t>(type.num_elements() * bytes)));
  // The init value everywhere: a copy that reads nothing writes its padding.
  if (type.num_elements() > 0) {
    Tensor init_value(TensorType({}, type.element_type));
    ConvertElement(init.element_type(), init.bytes().data(), type.element_type,
                   init_value.bytes().data());
    const Shape flat = {type.num_elements()};
    const int64_t source_dim[] = {0};
    StridedCopyArgs fill = PermutingCopy(flat, flat, source_dim, bytes, nullptr, result.data());
    fill.in_dims[0] = 0;
    std::memcpy(fill.padding, init_value.bytes().data(), static_cast<size_t>(bytes));
    HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(fill)));
  }
  args.operand = operand_buffer.data();
  args.source = source_buffer.data();
  args.result = result.data();
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().SelectAndScatter(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor tensor, context.Download(result, type));
  Results results;
  results.push_back(std::move(tensor));
  return results;
}

}  // namespace

std::vector<OpEntry> ReductionOps() {
  return {
      {"reduce", &SupportsOneInputReduction, &RunReduce},
      {"reduce_window", &SupportsOneInputReduction, &RunReduceWindow},
      {"select_and_scatter", &SupportsSelectAndScatter, &RunSelectAndScatter},
  };
}

}  // namespace hlocheck::cuda
