// The global functions of the spec's notation (seed 002, "Functions"), plus
// the Python built-ins its formulas use. Each one is written the way the spec
// defines it, on the Value model.
#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "spec/formula/evaluator.h"
#include "spec/formula/operators.h"

namespace hlocheck::spec {
namespace {

using Args = std::span<const Value>;

absl::Status ArityError(std::string_view name, size_t expected, size_t got) {
  return absl::InvalidArgumentError(std::string(name) + "() takes " + std::to_string(expected) +
                                    " argument(s), got " + std::to_string(got));
}

absl::Status ArgumentError(std::string_view name, std::string_view expected, const Value& got) {
  return absl::InvalidArgumentError(std::string(name) + "() expects " + std::string(expected) +
                                    ", got " + got.ToString());
}

// The shape of a type-like value: a tensor type, or a list seen as a 1-D tensor.
absl::StatusOr<Shape> ShapeOf(std::string_view name, const Value& v) {
  if (v.is_type()) {
    if (v.as_type().kind != TypeValue::Kind::kTensor) {
      return ArgumentError(name, "a tensor", v);
    }
    return v.as_type().tensor.shape;
  }
  if (v.is_list()) {
    // A nested list has the shape of its nesting, like a tensor literal.
    Shape shape;
    const Value* level = &v;
    while (level->is_list()) {
      shape.push_back(static_cast<int64_t>(level->items().size()));
      if (level->items().empty()) break;
      level = &level->items()[0];
    }
    return shape;
  }
  if (v.is_number()) return Shape{};
  return ArgumentError(name, "a tensor", v);
}

absl::StatusOr<ElementType> ElementTypeOf(std::string_view name, const Value& v) {
  if (v.is_element_type()) return v.as_element_type();
  if (v.is_type() && v.as_type().kind == TypeValue::Kind::kTensor) {
    return v.as_type().tensor.element_type;
  }
  return ArgumentError(name, "a tensor or an element type", v);
}

absl::StatusOr<int64_t> IntArgument(std::string_view name, const Value& v) {
  if (v.is_int()) return v.as_int();
  if (v.is_bool()) return v.as_bool() ? 1 : 0;
  return ArgumentError(name, "an integer", v);
}

absl::StatusOr<std::vector<Value>> ListArgument(std::string_view name, const Value& v) {
  if (v.is_list()) return v.items();
  return ArgumentError(name, "a list", v);
}

// Registers a function of a fixed number of arguments.
template <size_t N, typename Fn>
void Define(FunctionTable& table, std::string name, Fn fn) {
  table.Register(name, [name, fn](Args args) -> absl::StatusOr<Value> {
    if (args.size() != N) return ArityError(name, N, args.size());
    return fn(args);
  });
}

absl::StatusOr<Value> Dim(const Value& x, const Value& axis) {
  auto shape = ShapeOf("dim", x);
  if (!shape.ok()) return shape.status();
  auto pick = [&](const Value& a) -> absl::StatusOr<Value> {
    auto index = IntArgument("dim", a);
    if (!index.ok()) return index.status();
    int64_t i = *index < 0 ? *index + static_cast<int64_t>(shape->size()) : *index;
    if (i < 0 || i >= static_cast<int64_t>(shape->size())) {
      return absl::InvalidArgumentError("dim(): axis " + std::to_string(*index) +
                                        " out of range for rank " + std::to_string(shape->size()));
    }
    return Value((*shape)[i]);
  };
  if (!axis.is_list()) return pick(axis);
  // dim(x, [a, b]) is dims(x, [a, b]), as the spec writes it in dot_general C12.
  std::vector<Value> dims;
  for (const Value& a : axis.items()) {
    auto d = pick(a);
    if (!d.ok()) return d;
    dims.push_back(*std::move(d));
  }
  return Value(std::move(dims));
}

absl::StatusOr<Value> Size(const Value& x) {
  if (x.is_list()) return Value(static_cast<int64_t>(x.items().size()));
  auto shape = ShapeOf("size", x);
  if (!shape.ok()) return shape.status();
  return Value(NumElements(*shape));
}

absl::StatusOr<Value> Rounding(std::string_view name, const Value& x, double (*round)(double)) {
  if (x.is_list()) {
    std::vector<Value> items;
    for (const Value& item : x.items()) {
      auto r = Rounding(name, item, round);
      if (!r.ok()) return r;
      items.push_back(*std::move(r));
    }
    return Value(std::move(items));
  }
  if (x.is_int()) return x;
  if (!x.is_number()) return ArgumentError(name, "a number", x);
  return Value(static_cast<int64_t>(round(x.ToDouble())));
}

absl::StatusOr<Value> Extremum(std::string_view name, Args args, bool maximum) {
  auto pick = [maximum](const Value& a, const Value& b) -> absl::StatusOr<Value> {
    auto less = ApplyCompare("<", a, b);
    if (!less.ok()) return less;
    return less->as_bool() == maximum ? b : a;
  };
  if (args.size() == 1) {
    auto items = ListArgument(name, args[0]);
    if (!items.ok()) return items.status();
    if (items->empty())
      return absl::InvalidArgumentError(std::string(name) + "() of an empty list");
    Value best = (*items)[0];
    for (const Value& item : *items) {
      auto next = pick(best, item);
      if (!next.ok()) return next;
      best = *next;
    }
    return best;
  }
  if (args.size() != 2) return ArityError(name, 2, args.size());
  // Element-wise with broadcasting: max(shape(operand) - 1, 0) in pad.
  std::function<absl::StatusOr<Value>(const Value&, const Value&)> apply =
      [&](const Value& a, const Value& b) -> absl::StatusOr<Value> {
    if (a.is_list() || b.is_list()) {
      size_t n = a.is_list() ? a.items().size() : b.items().size();
      if (a.is_list() && b.is_list() && a.items().size() != b.items().size()) {
        return absl::InvalidArgumentError(std::string(name) + "() of lists of different lengths");
      }
      std::vector<Value> items;
      for (size_t i = 0; i < n; ++i) {
        auto item = apply(a.is_list() ? a.items()[i] : a, b.is_list() ? b.items()[i] : b);
        if (!item.ok()) return item;
        items.push_back(*std::move(item));
      }
      return Value(std::move(items));
    }
    return pick(a, b);
  };
  return apply(args[0], args[1]);
}

FunctionTable BuildSpecFunctions() {
  FunctionTable t;

  // --- Types ---------------------------------------------------------------
  Define<1>(t, "type", [](Args a) -> absl::StatusOr<Value> {
    if (a[0].is_type()) return a[0];
    return ArgumentError("type", "a value with a type", a[0]);
  });
  Define<1>(t, "element_type", [](Args a) -> absl::StatusOr<Value> {
    auto type = ElementTypeOf("element_type", a[0]);
    if (!type.ok()) return type.status();
    return Value(*type);
  });
  // Quantized tensor types reset their scales and zero points here; plain
  // tensor types are their own baseline.
  Define<1>(t, "baseline_type", [](Args a) -> absl::StatusOr<Value> {
    if (a[0].is_type() || a[0].is_element_type()) return a[0];
    return ArgumentError("baseline_type", "a type", a[0]);
  });
  Define<1>(t, "baseline_element_type", [](Args a) -> absl::StatusOr<Value> {
    auto type = ElementTypeOf("baseline_element_type", a[0]);
    if (!type.ok()) return type.status();
    return Value(*type);
  });
  Define<2>(t, "tensor_type", [](Args a) -> absl::StatusOr<Value> {
    auto shape = ListArgument("tensor_type", a[0]);
    if (!shape.ok()) return shape.status();
    auto element = ElementTypeOf("tensor_type", a[1]);
    if (!element.ok()) return element.status();
    TensorType type{{}, *element};
    for (const Value& d : *shape) {
      auto dim = IntArgument("tensor_type", d);
      if (!dim.ok()) return dim.status();
      if (*dim < 0) return absl::InvalidArgumentError("tensor_type(): negative dimension");
      type.shape.push_back(*dim);
    }
    return Value::TensorTypeValue(std::move(type));
  });
  // Quantization queries. The element types this evaluator represents are
  // all unquantized, for which the spec's answers are false / None.
  for (const char* name : {"is_quantized", "is_per_tensor_quantized", "is_per_axis_quantized",
                           "is_quantized_tensor"}) {
    Define<1>(t, name, [](Args) -> absl::StatusOr<Value> { return Value(false); });
  }
  for (const char* name :
       {"quantization_dimension", "storage_type", "expressed_type", "scales", "zero_points"}) {
    Define<1>(t, name, [](Args) -> absl::StatusOr<Value> { return Value(NoneValue{}); });
  }
  auto kind_predicate = [&t](const char* name, bool (*test)(ElementType)) {
    Define<1>(t, name, [name, test](Args a) -> absl::StatusOr<Value> {
      auto type = ElementTypeOf(name, a[0]);
      if (!type.ok()) return type.status();
      return Value(test(*type));
    });
  };
  kind_predicate("is_bool", [](ElementType e) { return IsBool(e); });
  kind_predicate("is_integer", [](ElementType e) { return IsInteger(e); });
  kind_predicate("is_signed_integer", [](ElementType e) { return IsSignedInt(e); });
  kind_predicate("is_unsigned_integer", [](ElementType e) { return IsUnsignedInt(e); });
  kind_predicate("is_float", [](ElementType e) { return IsFloat(e); });
  kind_predicate("is_complex", [](ElementType e) { return IsComplex(e); });
  for (const char* name : {"num_bits", "bitwidth"}) {
    Define<1>(t, name, [name](Args a) -> absl::StatusOr<Value> {
      auto type = ElementTypeOf(name, a[0]);
      if (!type.ok()) return type.status();
      return Value(int64_t{BitWidth(*type)});
    });
  }

  // --- Shapes --------------------------------------------------------------
  Define<1>(t, "shape", [](Args a) -> absl::StatusOr<Value> {
    auto shape = ShapeOf("shape", a[0]);
    if (!shape.ok()) return shape.status();
    return Value::IntList(*shape);
  });
  Define<1>(t, "rank", [](Args a) -> absl::StatusOr<Value> {
    auto shape = ShapeOf("rank", a[0]);
    if (!shape.ok()) return shape.status();
    return Value(static_cast<int64_t>(shape->size()));
  });
  Define<2>(t, "dim", [](Args a) { return Dim(a[0], a[1]); });
  Define<2>(t, "dims", [](Args a) -> absl::StatusOr<Value> {
    if (!a[1].is_list()) return ArgumentError("dims", "a list of axes", a[1]);
    return Dim(a[0], a[1]);
  });
  Define<1>(t, "size", [](Args a) { return Size(a[0]); });
  Define<1>(t, "len", [](Args a) { return Size(a[0]); });
  Define<1>(t, "axes", [](Args a) -> absl::StatusOr<Value> {
    auto shape = ShapeOf("axes", a[0]);
    if (!shape.ok()) return shape.status();
    std::vector<Value> axes;
    for (size_t i = 0; i < shape->size(); ++i) axes.emplace_back(static_cast<int64_t>(i));
    return Value(std::move(axes));
  });

  // --- Values and lists ----------------------------------------------------
  t.Register("range", [](Args a) -> absl::StatusOr<Value> {
    if (a.empty() || a.size() > 2) return ArityError("range", 1, a.size());
    int64_t start = 0;
    auto stop = IntArgument("range", a.back());
    if (!stop.ok()) return stop.status();
    if (a.size() == 2) {
      auto first = IntArgument("range", a[0]);
      if (!first.ok()) return first.status();
      start = *first;
    }
    if (*stop - start > (int64_t{1} << 24)) return absl::InvalidArgumentError("range() too large");
    std::vector<Value> items;
    for (int64_t i = start; i < *stop; ++i) items.emplace_back(i);
    return Value(std::move(items));
  });
  Define<1>(t, "is_unique", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("is_unique", a[0]);
    if (!items.ok()) return items.status();
    for (size_t i = 0; i < items->size(); ++i) {
      for (size_t j = i + 1; j < items->size(); ++j) {
        if ((*items)[i] == (*items)[j]) return Value(false);
      }
    }
    return Value(true);
  });
  Define<1>(t, "is_sorted", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("is_sorted", a[0]);
    if (!items.ok()) return items.status();
    for (size_t i = 1; i < items->size(); ++i) {
      auto less = ApplyCompare("<", (*items)[i], (*items)[i - 1]);
      if (!less.ok()) return less;
      if (less->Holds()) return Value(false);
    }
    return Value(true);
  });
  Define<1>(t, "same", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("same", a[0]);
    if (!items.ok()) return items.status();
    for (const Value& item : *items) {
      if (!(item == (*items)[0])) return Value(false);
    }
    return Value(true);
  });
  Define<1>(t, "all", [](Args a) -> absl::StatusOr<Value> { return Value(a[0].Holds()); });
  Define<1>(t, "any", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("any", a[0]);
    if (!items.ok()) return items.status();
    for (const Value& item : *items) {
      if (item.Holds()) return Value(true);
    }
    return Value(false);
  });
  Define<1>(t, "sorted", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("sorted", a[0]);
    if (!items.ok()) return items.status();
    std::vector<Value> result = *items;
    for (const Value& item : result) {
      if (!item.is_number()) return ArgumentError("sorted", "a list of numbers", a[0]);
    }
    std::stable_sort(result.begin(), result.end(), [](const Value& x, const Value& y) {
      return ApplyCompare("<", x, y)->as_bool();
    });
    return Value(std::move(result));
  });
  Define<1>(t, "sum", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("sum", a[0]);
    if (!items.ok()) return items.status();
    Value total(int64_t{0});
    for (const Value& item : *items) {
      auto next = ApplyBinary("+", total, item);
      if (!next.ok()) return next;
      total = *next;
    }
    return total;
  });
  Define<2>(t, "index_of", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("index_of", a[0]);
    if (!items.ok()) return items.status();
    for (size_t i = 0; i < items->size(); ++i) {
      if ((*items)[i] == a[1]) return Value(static_cast<int64_t>(i));
    }
    return absl::InvalidArgumentError("index_of(): " + a[1].ToString() + " not in " +
                                      a[0].ToString());
  });
  t.Register("zip", [](Args a) -> absl::StatusOr<Value> {
    size_t n = SIZE_MAX;
    for (const Value& list : a) {
      if (!list.is_list()) return ArgumentError("zip", "lists", list);
      n = std::min(n, list.items().size());
    }
    if (a.empty()) n = 0;
    std::vector<Value> rows;
    for (size_t i = 0; i < n; ++i) {
      std::vector<Value> row;
      for (const Value& list : a) row.push_back(list.items()[i]);
      rows.emplace_back(std::move(row));
    }
    return Value(std::move(rows));
  });
  Define<2>(t, "add", [](Args a) { return ElementwiseAdd(a[0], a[1]); });
  Define<1>(t, "ceil", [](Args a) { return Rounding("ceil", a[0], std::ceil); });
  Define<1>(t, "floor", [](Args a) { return Rounding("floor", a[0], std::floor); });
  Define<1>(t, "abs", [](Args a) -> absl::StatusOr<Value> {
    if (a[0].is_int()) return Value(a[0].as_int() < 0 ? -a[0].as_int() : a[0].as_int());
    if (a[0].is_float()) return Value(std::fabs(a[0].as_float()));
    return ArgumentError("abs", "a number", a[0]);
  });
  t.Register("max", [](Args a) { return Extremum("max", a, true); });
  t.Register("min", [](Args a) { return Extremum("min", a, false); });
  Define<1>(t, "min_value", [](Args a) -> absl::StatusOr<Value> {
    auto type = ElementTypeOf("min_value", a[0]);
    if (!type.ok()) return type.status();
    if (IsBool(*type)) return Value(false);
    if (IsInteger(*type)) return Value(IntegerMin(*type));
    return Value(NoneValue{});
  });
  Define<1>(t, "max_value", [](Args a) -> absl::StatusOr<Value> {
    auto type = ElementTypeOf("max_value", a[0]);
    if (!type.ok()) return type.status();
    if (IsBool(*type)) return Value(true);
    if (IsInteger(*type)) {
      uint64_t max = IntegerMaxUnsigned(*type);
      if (max > static_cast<uint64_t>(INT64_MAX)) return Value(static_cast<double>(max));
      return Value(static_cast<int64_t>(max));
    }
    return Value(NoneValue{});
  });
  return t;
}

}  // namespace

const FunctionTable& SpecFunctions() {
  static const FunctionTable* table = new FunctionTable(BuildSpecFunctions());
  return *table;
}

}  // namespace hlocheck::spec
