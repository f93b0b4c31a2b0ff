// The global functions of the spec's notation (seed 002, "Functions"), plus
// the Python built-ins its formulas use. Each one is written the way the spec
// defines it, on the Value model; the type functions are in type_functions.cc.
#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "spec/formula/evaluator.h"
#include "spec/formula/function_support.h"
#include "spec/formula/operators.h"

namespace hlocheck::spec {
namespace {

absl::StatusOr<Value> Dim(const Value& x, const Value& axis) {
  auto shape = ShapeOf("dim", x);
  HLOCHECK_RETURN_IF_ERROR(shape.status());
  auto pick = [&](const Value& a) -> absl::StatusOr<Value> {
    auto index = IntArgument("dim", a);
    HLOCHECK_RETURN_IF_ERROR(index.status());
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
  if (x.is_type() && x.as_type().kind == ValueType::Kind::kTuple) {
    return Value(static_cast<int64_t>(x.as_type().elements.size()));
  }
  if (x.is_none()) return Value(int64_t{0});
  auto shape = ShapeOf("size", x);
  HLOCHECK_RETURN_IF_ERROR(shape.status());
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
    HLOCHECK_RETURN_IF_ERROR(items.status());
    if (items->empty()) {
      return absl::InvalidArgumentError(std::string(name) + "() of an empty list");
    }
    Value best = (*items)[0];
    for (const Value& item : *items) {
      auto next = pick(best, item);
      if (!next.ok()) return next;
      best = *next;
    }
    return best;
  }
  // Element-wise with broadcasting over any number of arguments:
  // max(shape(operand) - 1, 0) in pad.
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
  if (args.empty()) return ArityError(name, 2, 0);
  Value result = args[0];
  for (size_t i = 1; i < args.size(); ++i) {
    auto next = apply(result, args[i]);
    if (!next.ok()) return next;
    result = *std::move(next);
  }
  return result;
}

void RegisterShapeFunctions(FunctionTable& t) {
  Define<1>(t, "shape", [](Args a) -> absl::StatusOr<Value> {
    auto shape = ShapeOf("shape", a[0]);
    HLOCHECK_RETURN_IF_ERROR(shape.status());
    return Value::IntList(*shape);
  });
  Define<1>(t, "rank", [](Args a) -> absl::StatusOr<Value> {
    auto shape = ShapeOf("rank", a[0]);
    HLOCHECK_RETURN_IF_ERROR(shape.status());
    return Value(static_cast<int64_t>(shape->size()));
  });
  Define<2>(t, "dim", [](Args a) { return Dim(a[0], a[1]); });
  Define<2>(t, "dims", [](Args a) -> absl::StatusOr<Value> {
    if (!a[1].is_list()) return ArgumentError("dims", "a list of axes", a[1]);
    return Dim(a[0], a[1]);
  });
  Define<1>(t, "size", [](Args a) { return Size(a[0]); });
  Define<1>(t, "num_elements", [](Args a) { return Size(a[0]); });
  Define<1>(t, "len", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("len", a[0]);
    if (!items.ok()) return Size(a[0]);
    return Value(static_cast<int64_t>(items->size()));
  });
  Define<1>(t, "axes", [](Args a) -> absl::StatusOr<Value> {
    auto shape = ShapeOf("axes", a[0]);
    HLOCHECK_RETURN_IF_ERROR(shape.status());
    std::vector<Value> axes;
    for (size_t i = 0; i < shape->size(); ++i) axes.emplace_back(static_cast<int64_t>(i));
    return Value(std::move(axes));
  });
  // The indices of a tensor in row-major order (small tensors only).
  Define<1>(t, "index_space", [](Args a) -> absl::StatusOr<Value> {
    auto shape = ShapeOf("index_space", a[0]);
    HLOCHECK_RETURN_IF_ERROR(shape.status());
    if (NumElements(*shape) > (int64_t{1} << 20)) {
      return absl::InvalidArgumentError("index_space(): too many elements");
    }
    std::vector<Value> indices;
    for (IndexIterator it(*shape); !it.done(); it.Next())
      indices.push_back(Value::IntList(it.index()));
    return Value(std::move(indices));
  });
}

void RegisterListFunctions(FunctionTable& t) {
  t.Register("range", [](Args a) -> absl::StatusOr<Value> {
    if (a.empty() || a.size() > 2) return ArityError("range", 1, a.size());
    int64_t start = 0;
    auto stop = IntArgument("range", a.back());
    HLOCHECK_RETURN_IF_ERROR(stop.status());
    if (a.size() == 2) {
      auto first = IntArgument("range", a[0]);
      HLOCHECK_RETURN_IF_ERROR(first.status());
      start = *first;
    }
    // The length in unsigned arithmetic: stop - start overflows int64 for far-apart bounds.
    if (*stop > start &&
        static_cast<uint64_t>(*stop) - static_cast<uint64_t>(start) > (uint64_t{1} << 24)) {
      return absl::InvalidArgumentError("range() too large");
    }
    std::vector<Value> items;
    for (int64_t i = start; i < *stop; ++i) items.emplace_back(i);
    return Value(std::move(items));
  });
  Define<1>(t, "is_unique", [](Args a) -> absl::StatusOr<Value> {
    auto items = FlatItems("is_unique", a[0]);
    HLOCHECK_RETURN_IF_ERROR(items.status());
    for (size_t i = 0; i < items->size(); ++i) {
      for (size_t j = i + 1; j < items->size(); ++j) {
        if ((*items)[i] == (*items)[j]) return Value(false);
      }
    }
    return Value(true);
  });
  Define<1>(t, "is_sorted", [](Args a) -> absl::StatusOr<Value> {
    auto items = FlatItems("is_sorted", a[0]);
    HLOCHECK_RETURN_IF_ERROR(items.status());
    for (size_t i = 1; i < items->size(); ++i) {
      auto less = ApplyCompare("<", (*items)[i], (*items)[i - 1]);
      if (!less.ok()) return less;
      if (less->Holds()) return Value(false);
    }
    return Value(true);
  });
  Define<1>(t, "same", [](Args a) -> absl::StatusOr<Value> {
    auto items = FlatItems("same", a[0]);
    HLOCHECK_RETURN_IF_ERROR(items.status());
    for (const Value& item : *items) {
      if (!(item == (*items)[0])) return Value(false);
    }
    return Value(true);
  });
  Define<1>(t, "is_empty", [](Args a) -> absl::StatusOr<Value> {
    if (a[0].is_none()) return Value(true);
    if (a[0].is_list()) return Value(a[0].items().empty());
    if (a[0].is_string()) return Value(a[0].as_string().empty());
    return Value(false);
  });
  Define<1>(t, "all", [](Args a) -> absl::StatusOr<Value> { return Value(a[0].Holds()); });
  Define<1>(t, "any", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("any", a[0]);
    HLOCHECK_RETURN_IF_ERROR(items.status());
    for (const Value& item : *items) {
      if (item.Holds()) return Value(true);
    }
    return Value(false);
  });
  Define<1>(t, "sorted", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("sorted", a[0]);
    HLOCHECK_RETURN_IF_ERROR(items.status());
    std::vector<Value> result = *items;
    for (const Value& item : result) {
      if (!item.is_number()) return ArgumentError("sorted", "a list of numbers", a[0]);
    }
    std::stable_sort(result.begin(), result.end(), [](const Value& x, const Value& y) {
      return ApplyCompare("<", x, y)->as_bool();
    });
    return Value(std::move(result));
  });
  auto fold = [&t](const char* name, int64_t start, const char* op) {
    Define<1>(t, name, [name, start, op](Args a) -> absl::StatusOr<Value> {
      auto items = ListArgument(name, a[0]);
      HLOCHECK_RETURN_IF_ERROR(items.status());
      Value total(start);
      for (const Value& item : *items) {
        auto next = ApplyBinary(op, total, item);
        if (!next.ok()) return next;
        total = *next;
      }
      return total;
    });
  };
  fold("sum", 0, "+");
  fold("product", 1, "*");
  Define<2>(t, "index_of", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("index_of", a[0]);
    HLOCHECK_RETURN_IF_ERROR(items.status());
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
  // concatenate(a, b, ...): the lists one after another (the op's name in
  // the public spec's gather and scatter constraints).
  t.Register("concatenate", [](Args a) -> absl::StatusOr<Value> {
    std::vector<Value> items;
    for (const Value& list : a) {
      if (!list.is_list()) return ArgumentError("concatenate", "lists", list);
      items.insert(items.end(), list.items().begin(), list.items().end());
    }
    return Value(std::move(items));
  });
}

void RegisterArithmetic(FunctionTable& t) {
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
  Define<1>(t, "is_finite", [](Args a) -> absl::StatusOr<Value> {
    if (!a[0].is_number()) return ArgumentError("is_finite", "a number", a[0]);
    return Value(std::isfinite(a[0].ToDouble()));
  });
}

FunctionTable BuildSpecFunctions() {
  FunctionTable t;
  RegisterTypeFunctions(t);
  RegisterShapeFunctions(t);
  RegisterListFunctions(t);
  RegisterArithmetic(t);
  RegisterElementwiseUnaryFunctions(t);
  RegisterElementwiseBinaryFunctions(t);
  RegisterDataMovementFunctions(t);
  RegisterReductionFunctions(t);
  RegisterControlCollectiveFunctions(t);
  RegisterMiscFunctions(t);
  return t;
}

}  // namespace

const FunctionTable& SpecFunctions() {
  static const FunctionTable* table = new FunctionTable(BuildSpecFunctions());
  return *table;
}

}  // namespace hlocheck::spec
