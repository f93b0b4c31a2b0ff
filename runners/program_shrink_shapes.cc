// Shape shrinking (program_shrink.h, ShrinkShapes): every value cut down to
// the box of elements that the failing output element is computed from.
//
// A backward pass gives each value the bounding box of what its readers
// need: the output, its failing element; an op with a rule (below), the
// boxes of its operands that its result's box is computed from; any other
// op, all of each operand. A forward pass then rewrites @main: arguments
// and constants hold their box's elements, ops with a rule compute their
// result's box (attributes moved with it), and where a reader needs less
// than a value holds, a slice gives it its part.
//
// Rules, for a result box B: elementwise ops (and map) read B of each
// operand of the result's shape (a scalar operand whole); transpose reads
// B permuted; reverse, B mirrored along its dimensions; broadcast_in_dim, B
// on the mapped dimensions (an expanded dimension of size 1 whole); slice,
// the strided range under B; reduce, B on the kept dimensions and the
// reduced ones whole; dot_general, B on the batch and free dimensions and
// the contracting ones whole; sort (one input), B where B holds whole rows
// along the sorted dimension; concatenate, each input's part of B along the
// dimension (possibly none of it), B elsewhere; pad, the operand elements
// that land in B (the padding value whole, the edge padding moved so that
// the result is B); iota, B where it starts at 0 along the iota dimension;
// a constant, its elements under B.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "generators/program_generator.h"
#include "runners/program_shrink.h"
#include "spec/registry.h"

namespace hlocheck {
namespace {

struct Box {
  std::vector<int64_t> lo, hi;  // per dimension, [lo, hi)
  bool operator==(const Box&) const = default;
  Shape Extents() const {
    Shape s;
    for (size_t d = 0; d < lo.size(); ++d) s.push_back(hi[d] - lo[d]);
    return s;
  }
};

Box Full(const Shape& shape) { return {std::vector<int64_t>(shape.size(), 0), shape}; }

void Widen(std::optional<Box>& into, const Box& box) {
  if (!into) {
    into = box;
    return;
  }
  for (size_t d = 0; d < box.lo.size(); ++d) {
    into->lo[d] = std::min(into->lo[d], box.lo[d]);
    into->hi[d] = std::max(into->hi[d], box.hi[d]);
  }
}

// The elements of `t` under `box`, row-major.
Tensor Cut(const Tensor& t, const Box& box) {
  TensorType type = t.type();  // quantized or not
  type.shape = box.Extents();
  Tensor out(type);
  const size_t bytes = static_cast<size_t>(ContainerBytes(t.element_type()));
  const Shape& shape = t.shape();
  const size_t rank = shape.size();
  std::vector<int64_t> at(box.lo);
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) offset = offset * shape[d] + at[d];
    std::copy_n(
        t.bytes().begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(offset) * bytes), bytes,
        out.bytes().begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(i) * bytes));
    for (size_t d = rank; d-- > 0;) {
      if (++at[d] < box.hi[d]) break;
      at[d] = box.lo[d];
    }
  }
  return out;
}

const std::vector<int64_t>* Ints(const Operation& op, const std::string& name) {
  auto it = op.attributes.find(name);
  return it == op.attributes.end() ? nullptr : std::get_if<std::vector<int64_t>>(&it->second);
}

bool IsElementwise(const std::string& mnemonic) {
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) return false;
  const spec::OpSpec* spec = (*registry)->Find(mnemonic);
  return spec != nullptr && (spec->category == "elementwise" || mnemonic == "map");
}

// The operand boxes op's result box `b` is computed from, where op has a
// rule (file comment); nullopt otherwise. Single-result ops.
// sort's dimension, counted from 0.
std::optional<size_t> SortDimension(const Operation& op) {
  auto it = op.attributes.find("dimension");
  if (op.name != "stablehlo.sort" || it == op.attributes.end() ||
      !std::holds_alternative<int64_t>(it->second) || op.result_types.empty()) {
    return std::nullopt;
  }
  const auto rank = static_cast<int64_t>(op.result_types[0].shape.size());
  int64_t dimension = std::get<int64_t>(it->second);
  if (dimension < 0) dimension += rank;
  if (dimension < 0 || dimension >= rank) return std::nullopt;
  return static_cast<size_t>(dimension);
}

// The box an op computes when its readers need `b`: b itself, or for sort b
// with whole rows along the sorted dimension (an element's place in its
// row depends on the whole row); readers then get their part by a slice.
Box WholeRows(const Operation& op, Box b) {
  if (const std::optional<size_t> d = SortDimension(op)) {
    b.lo[*d] = 0;
    b.hi[*d] = op.result_types[0].shape[*d];
  }
  return b;
}

std::optional<std::vector<Box>> OperandBoxes(const Operation& op, const Box& b) {
  if (op.results.size() != 1 || !op.result_types[0].is_tensor()) return std::nullopt;
  const std::string mnemonic = op.name.rfind("stablehlo.", 0) == 0 ? op.name.substr(10) : "";
  const Shape& result = op.result_types[0].shape;
  std::vector<Box> boxes;
  // Per-axis quantized values keep their shape: their scales go with it.
  auto per_axis = [](const ValueType& t) {
    return t.quantization && t.quantization->quantization_dimension.has_value();
  };
  for (const ValueType& t : op.operand_types) {
    if (!t.is_tensor() || per_axis(t)) return std::nullopt;
  }
  if (per_axis(op.result_types[0])) return std::nullopt;
  auto operand_shape = [&](size_t k) -> const Shape& { return op.operand_types[k].shape; };
  if (IsElementwise(mnemonic) && (op.regions.empty() || mnemonic == "map")) {
    for (size_t k = 0; k < op.operands.size(); ++k) {
      if (operand_shape(k) == result) {
        boxes.push_back(b);
      } else if (operand_shape(k).empty()) {
        boxes.push_back(Full(operand_shape(k)));
      } else {
        return std::nullopt;
      }
    }
    return boxes;
  }
  if (!op.regions.empty() && mnemonic != "reduce" && mnemonic != "sort") return std::nullopt;
  if (mnemonic == "transpose") {
    const auto* permutation = Ints(op, "permutation");
    if (!permutation || permutation->size() != b.lo.size()) return std::nullopt;
    Box c = Full(operand_shape(0));
    for (size_t i = 0; i < permutation->size(); ++i) {
      c.lo[static_cast<size_t>((*permutation)[i])] = b.lo[i];
      c.hi[static_cast<size_t>((*permutation)[i])] = b.hi[i];
    }
    return std::vector<Box>{c};
  }
  if (mnemonic == "reverse") {
    const auto* dimensions = Ints(op, "dimensions");
    if (!dimensions) return std::nullopt;
    Box c = b;
    for (int64_t d : *dimensions) {
      const size_t k = static_cast<size_t>(d);
      c.lo[k] = result[k] - b.hi[k];
      c.hi[k] = result[k] - b.lo[k];
    }
    return std::vector<Box>{c};
  }
  if (mnemonic == "broadcast_in_dim") {
    const auto* dimensions = Ints(op, "broadcast_dimensions");
    if (!dimensions) return std::nullopt;
    Box c = Full(operand_shape(0));
    for (size_t j = 0; j < dimensions->size(); ++j) {
      const size_t to = static_cast<size_t>((*dimensions)[j]);
      if (operand_shape(0)[j] == 1 && result[to] != 1) continue;
      c.lo[j] = b.lo[to];
      c.hi[j] = b.hi[to];
    }
    return std::vector<Box>{c};
  }
  if (mnemonic == "slice") {
    const auto* start = Ints(op, "start_indices");
    const auto* strides = Ints(op, "strides");
    if (!start || !strides) return std::nullopt;
    Box c = b;
    for (size_t d = 0; d < b.lo.size(); ++d) {
      c.lo[d] = (*start)[d] + b.lo[d] * (*strides)[d];
      c.hi[d] = (*start)[d] + (b.hi[d] - 1) * (*strides)[d] + 1;
    }
    return std::vector<Box>{c};
  }
  if (mnemonic == "reduce") {
    const auto* dimensions = Ints(op, "dimensions");
    if (!dimensions || op.operands.size() != 2) return std::nullopt;
    Box c = Full(operand_shape(0));
    size_t kept = 0;
    for (size_t d = 0; d < c.lo.size(); ++d) {
      if (std::find(dimensions->begin(), dimensions->end(), static_cast<int64_t>(d)) !=
          dimensions->end()) {
        continue;
      }
      c.lo[d] = b.lo[kept];
      c.hi[d] = b.hi[kept];
      ++kept;
    }
    return std::vector<Box>{c, Full(operand_shape(1))};
  }
  if (mnemonic == "dot_general") {
    const auto* lb = Ints(op, "lhs_batching_dimensions");
    const auto* rb = Ints(op, "rhs_batching_dimensions");
    const auto* lc = Ints(op, "lhs_contracting_dimensions");
    const auto* rc = Ints(op, "rhs_contracting_dimensions");
    if (!lb || !rb || !lc || !rc || op.operands.size() != 2) return std::nullopt;
    Box lhs = Full(operand_shape(0)), rhs = Full(operand_shape(1));
    size_t next = 0;
    for (size_t i = 0; i < lb->size(); ++i, ++next) {
      lhs.lo[static_cast<size_t>((*lb)[i])] = rhs.lo[static_cast<size_t>((*rb)[i])] = b.lo[next];
      lhs.hi[static_cast<size_t>((*lb)[i])] = rhs.hi[static_cast<size_t>((*rb)[i])] = b.hi[next];
    }
    for (auto [box, batch, contracting] : {std::tuple{&lhs, lb, lc}, std::tuple{&rhs, rb, rc}}) {
      for (size_t d = 0; d < box->lo.size(); ++d) {
        const auto is = [&](const std::vector<int64_t>* list) {
          return std::find(list->begin(), list->end(), static_cast<int64_t>(d)) != list->end();
        };
        if (is(batch) || is(contracting)) continue;
        box->lo[d] = b.lo[next];
        box->hi[d] = b.hi[next];
        ++next;
      }
    }
    return std::vector<Box>{lhs, rhs};
  }
  if (mnemonic == "reshape") {
    // One element is one element of the operand (row-major order is kept);
    // a larger box need not be a box of the operand.
    int64_t flat = 0;
    for (size_t d = 0; d < b.lo.size(); ++d) {
      if (b.hi[d] - b.lo[d] != 1) return std::nullopt;
      flat = flat * result[d] + b.lo[d];
    }
    const Shape& from = operand_shape(0);
    Box c = Full(from);
    for (size_t d = from.size(); d-- > 0;) {
      if (from[d] == 0) return std::nullopt;
      c.lo[d] = flat % from[d];
      c.hi[d] = c.lo[d] + 1;
      flat /= from[d];
    }
    return std::vector<Box>{c};
  }
  if (mnemonic == "sort") {
    // A row sorts as a whole (WholeRows widened B): the input's box is B.
    const std::optional<size_t> d = SortDimension(op);
    if (!d || b.lo[*d] != 0 || b.hi[*d] != result[*d]) return std::nullopt;
    return std::vector<Box>(op.operands.size(), b);
  }
  if (mnemonic == "concatenate") {
    auto it = op.attributes.find("dimension");
    if (it == op.attributes.end() || !std::holds_alternative<int64_t>(it->second)) {
      return std::nullopt;
    }
    const auto dimension = static_cast<size_t>(std::get<int64_t>(it->second));
    int64_t offset = 0;
    for (size_t k = 0; k < op.operands.size(); ++k) {
      Box c = b;
      const int64_t size = operand_shape(k)[dimension];
      // The part of B within [offset, offset + size), shifted to the input
      // (empty where B holds none of it).
      c.lo[dimension] = std::clamp(b.lo[dimension] - offset, int64_t{0}, size);
      c.hi[dimension] = std::clamp(b.hi[dimension] - offset, c.lo[dimension], size);
      boxes.push_back(c);
      offset += size;
    }
    return boxes;
  }
  if (mnemonic == "pad") {
    const auto* low = Ints(op, "edge_padding_low");
    const auto* interior = Ints(op, "interior_padding");
    if (!low || !interior || op.operands.size() != 2) return std::nullopt;
    Box c = Full(operand_shape(0));
    for (size_t d = 0; d < c.lo.size(); ++d) {
      // Operand element j lands at j * step + low: those in [B.lo, B.hi).
      const int64_t step = (*interior)[d] + 1;
      const auto ceil_div = [](int64_t a, int64_t q) { return a >= 0 ? (a + q - 1) / q : a / q; };
      const auto floor_div = [](int64_t a, int64_t q) {
        return a >= 0 ? a / q : -((-a + q - 1) / q);
      };
      const int64_t first = std::max<int64_t>(0, ceil_div(b.lo[d] - (*low)[d], step));
      const int64_t last =
          std::min<int64_t>(operand_shape(0)[d] - 1, floor_div(b.hi[d] - 1 - (*low)[d], step));
      c.lo[d] = std::min(first, operand_shape(0)[d]);
      c.hi[d] = std::max(c.lo[d], last + 1);
    }
    return std::vector<Box>{c, Full(operand_shape(1))};
  }
  if (mnemonic == "iota") {
    auto it = op.attributes.find("iota_dimension");
    if (it == op.attributes.end() || !std::holds_alternative<int64_t>(it->second)) {
      return std::nullopt;
    }
    if (b.lo[static_cast<size_t>(std::get<int64_t>(it->second))] != 0) return std::nullopt;
    return std::vector<Box>{};
  }
  if (mnemonic == "constant") return std::vector<Box>{};
  return std::nullopt;
}

}  // namespace

std::optional<ProgramUnderTest> ShrinkShapes(const ProgramUnderTest& program,
                                             const std::vector<std::optional<int64_t>>& elements) {
  const Block& block = MainOf(program.module).body.blocks[0];
  const Operation& ret = block.operations.back();
  // The box each output keeps: its element, or all of it.
  std::vector<Box> wanted;
  bool smaller = false;
  for (size_t k = 0; k < ret.operands.size(); ++k) {
    const ValueType& type = ret.operand_types[k];
    if (!type.is_tensor()) return std::nullopt;
    wanted.push_back(Full(type.shape));
    if (k >= elements.size() || !elements[k] || type.shape.empty()) continue;
    int64_t rest = *elements[k];
    for (size_t d = type.shape.size(); d-- > 0;) {
      wanted[k].lo[d] = rest % type.shape[d];
      wanted[k].hi[d] = wanted[k].lo[d] + 1;
      rest /= type.shape[d];
    }
    smaller = smaller || !(wanted[k] == Full(type.shape));
  }
  if (!smaller) return std::nullopt;

  // Backward: what each value's readers need, and each op's operand boxes.
  std::map<ValueId, ValueType> types;
  for (size_t a = 0; a < block.arguments.size(); ++a)
    types[block.arguments[a]] = block.argument_types[a];
  for (const Operation& op : block.operations) {
    for (size_t r = 0; r < op.results.size(); ++r) types[op.results[r]] = op.result_types[r];
  }
  std::map<ValueId, std::optional<Box>> need;
  auto need_all = [&](ValueId v) {
    if (types.count(v) && types[v].is_tensor()) Widen(need[v], Full(types[v].shape));
  };
  for (size_t k = 0; k < ret.operands.size(); ++k) Widen(need[ret.operands[k]], wanted[k]);
  for (const auto& [v, type] : types) {  // per-axis quantized: whole (its scales)
    if (type.quantization && type.quantization->quantization_dimension) need_all(v);
  }
  for (const Operation& op : block.operations) {  // read inside a region: whole
    std::set<ValueId> nested;
    for (const Region& region : op.regions) {
      for (const Block& b : region.blocks) {
        for (const Operation& inner : b.operations)
          nested.insert(inner.operands.begin(), inner.operands.end());
      }
    }
    for (ValueId v : nested) need_all(v);
  }
  std::map<const Operation*, std::vector<Box>> rule;  // ops computing their result's box
  for (size_t i = block.operations.size() - 1; i-- > 0;) {
    const Operation& op = block.operations[i];
    std::optional<Box> b = op.results.size() == 1 ? need[op.results[0]] : std::nullopt;
    if (b) {
      b = WholeRows(op, *b);
      need[op.results[0]] = b;
    }
    std::optional<std::vector<Box>> boxes;
    if (b && !(*b == Full(op.result_types[0].shape))) boxes = OperandBoxes(op, *b);
    if (boxes) {
      rule[&op] = *boxes;
      for (size_t k = 0; k < op.operands.size(); ++k) Widen(need[op.operands[k]], (*boxes)[k]);
    } else {
      for (ValueId v : op.operands) need_all(v);
      for (ValueId v : op.results) need_all(v);  // computed whole
    }
  }

  // Forward: the program on the boxes.
  ProgramUnderTest out = program;
  Function& main = MainOf(out.module);
  Block& rewritten = main.body.blocks[0];
  std::map<ValueId, Box> held;  // the box each value holds
  for (size_t a = 0; a < rewritten.arguments.size(); ++a) {
    const ValueId v = rewritten.arguments[a];
    ValueType& type = rewritten.argument_types[a];
    held[v] = need[v] ? *need[v] : Full(type.shape);
    if (!type.is_tensor()) continue;
    out.arguments[a] = Cut(out.arguments[a], held[v]);
    type.shape = held[v].Extents();
  }
  main.type.inputs = rewritten.argument_types;
  ValueId fresh = MaxValueId(main.body) + 1;
  std::vector<Operation> operations;
  // `v` as a reader needing `box` sees it: itself, or a slice of it.
  auto part = [&](ValueId v, const ValueType& type, const Box& box, ValueType* read_type) {
    *read_type = type;
    if (!held.count(v) || held[v] == box) {
      if (held.count(v)) read_type->shape = held[v].Extents();
      return v;
    }
    Operation slice;
    slice.name = "stablehlo.slice";
    slice.operands = {v};
    slice.operand_types = {type};
    slice.operand_types[0].shape = held[v].Extents();
    std::vector<int64_t> start, limit;
    for (size_t d = 0; d < box.lo.size(); ++d) {
      start.push_back(box.lo[d] - held[v].lo[d]);
      limit.push_back(box.hi[d] - held[v].lo[d]);
    }
    slice.attributes["start_indices"] = start;
    slice.attributes["limit_indices"] = limit;
    slice.attributes["strides"] = std::vector<int64_t>(box.lo.size(), 1);
    slice.results = {fresh};
    read_type->shape = box.Extents();
    slice.result_types = {*read_type};
    operations.push_back(std::move(slice));
    held[fresh] = box;
    return fresh++;
  };
  for (size_t i = 0; i < block.operations.size(); ++i) {
    const Operation& original = block.operations[i];
    Operation op = original;
    auto r = rule.find(&original);
    if (i + 1 == block.operations.size()) {  // the return
      for (size_t k = 0; k < op.operands.size(); ++k) {
        if (!op.operand_types[k].is_tensor()) continue;
        op.operands[k] =
            part(op.operands[k], original.operand_types[k], wanted[k], &op.operand_types[k]);
      }
      main.type.outputs = op.operand_types;
    } else if (r != rule.end()) {
      const Box& b = *need[op.results[0]];
      for (size_t k = 0; k < op.operands.size(); ++k) {
        op.operands[k] =
            part(op.operands[k], original.operand_types[k], r->second[k], &op.operand_types[k]);
      }
      op.result_types[0].shape = b.Extents();
      held[op.results[0]] = b;
      if (op.name == "stablehlo.slice") {
        const auto* strides = Ints(original, "strides");
        std::vector<int64_t> limit;
        for (size_t d = 0; d < b.lo.size(); ++d)
          limit.push_back((b.hi[d] - b.lo[d] - 1) * (*strides)[d] + 1);
        op.attributes["start_indices"] = std::vector<int64_t>(b.lo.size(), 0);
        op.attributes["limit_indices"] = limit;
      } else if (op.name == "stablehlo.pad") {
        // The operand's box padded to exactly B: its first element's place
        // in B below, what B holds past its last above (all of B below
        // where the box is empty).
        const auto* low = Ints(original, "edge_padding_low");
        const auto* interior = Ints(original, "interior_padding");
        const Box& from = r->second[0];
        std::vector<int64_t> new_low, new_high;
        for (size_t d = 0; d < b.lo.size(); ++d) {
          const int64_t step = (*interior)[d] + 1;
          if (from.hi[d] == from.lo[d]) {
            new_low.push_back(b.hi[d] - b.lo[d]);
            new_high.push_back(0);
            continue;
          }
          new_low.push_back(from.lo[d] * step + (*low)[d] - b.lo[d]);
          new_high.push_back(b.hi[d] - 1 - ((from.hi[d] - 1) * step + (*low)[d]));
        }
        op.attributes["edge_padding_low"] = new_low;
        op.attributes["edge_padding_high"] = new_high;
      } else if (op.name == "stablehlo.constant") {
        auto value = op.attributes.find("value");
        if (value == op.attributes.end() || !std::holds_alternative<Tensor>(value->second))
          return std::nullopt;
        value->second = Cut(std::get<Tensor>(value->second), b);
      }
    } else {
      for (size_t k = 0; k < op.operands.size(); ++k) {
        if (!op.operand_types[k].is_tensor()) continue;
        op.operands[k] = part(op.operands[k], original.operand_types[k],
                              Full(original.operand_types[k].shape), &op.operand_types[k]);
      }
      for (size_t k = 0; k < op.results.size(); ++k) {
        if (op.result_types[k].is_tensor()) held[op.results[k]] = Full(op.result_types[k].shape);
      }
    }
    operations.push_back(std::move(op));
  }
  rewritten.operations = std::move(operations);
  RemoveDeadCode(out);
  return out;
}

}  // namespace hlocheck
