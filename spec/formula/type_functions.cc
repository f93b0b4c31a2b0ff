// The notation's functions on types (seed 002, "Functions on types" and
// "Quantization computations"): element types, baselines, quantization
// parameters, promotion, and the parts of tuple and function types.
#include <cmath>

#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/status_macros.h"
#include "spec/formula/function_support.h"

namespace hlocheck::spec {

absl::Status ArityError(std::string_view name, size_t expected, size_t got) {
  return absl::InvalidArgumentError(std::string(name) + "() takes " + std::to_string(expected) +
                                    " argument(s), got " + std::to_string(got));
}

absl::Status ArgumentError(std::string_view name, std::string_view expected, const Value& got) {
  return absl::InvalidArgumentError(std::string(name) + "() expects " + std::string(expected) +
                                    ", got " + got.ToString());
}

absl::StatusOr<Shape> ShapeOf(std::string_view name, const Value& v) {
  if (v.is_type()) {
    if (!v.as_type().is_tensor()) return ArgumentError(name, "a tensor", v);
    return v.as_type().shape;
  }
  if (v.is_list()) {
    if (v.as_list().tensor_type) return v.as_list().tensor_type->shape;
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

absl::StatusOr<int64_t> IntArgument(std::string_view name, const Value& v) {
  if (v.is_int()) return v.as_int();
  if (v.is_bool()) return v.as_bool() ? 1 : 0;
  return ArgumentError(name, "an integer", v);
}

absl::StatusOr<std::vector<Value>> ListArgument(std::string_view name, const Value& v) {
  if (v.is_list()) return v.items();
  return ArgumentError(name, "a list", v);
}

absl::StatusOr<std::vector<Value>> FlatItems(std::string_view name, const Value& v) {
  if (!v.is_list()) return ArgumentError(name, "a list or tensor", v);
  std::vector<Value> flat;
  // Only a tensor constant's nesting is its data; a plain list of lists
  // (such as shapes) compares whole items.
  std::function<void(const Value&)> add = [&](const Value& item) {
    if (item.is_list() && v.as_list().tensor_type) {
      for (const Value& inner : item.items()) add(inner);
    } else {
      flat.push_back(item);
    }
  };
  for (const Value& item : v.items()) add(item);
  return flat;
}

namespace {

// The element type of a type-like value, quantization included.
absl::StatusOr<ElementTypeValue> ElementTypeOf(std::string_view name, const Value& v) {
  if (v.is_element_type()) return v.as_element_type_value();
  if (v.is_type() && v.as_type().is_tensor()) {
    return ElementTypeValue{v.as_type().element_type, v.as_type().quantization};
  }
  if (v.is_list() && v.as_list().tensor_type) {
    const ValueType& type = *v.as_list().tensor_type;
    return ElementTypeValue{type.element_type, type.quantization};
  }
  return ArgumentError(name, "a tensor or an element type", v);
}

// Quantization parameters of a quantized type-like value, if any.
absl::StatusOr<std::optional<UniformQuantization>> QuantizationOf(std::string_view name,
                                                                  const Value& v) {
  auto element = ElementTypeOf(name, v);
  HLOCHECK_RETURN_IF_ERROR(element.status());
  return element->quantization;
}

// Scales 1 and zero points 0: quantized types compare without their parameters.
UniformQuantization Baseline(UniformQuantization q) {
  std::fill(q.scales.begin(), q.scales.end(), 1.0);
  std::fill(q.zero_points.begin(), q.zero_points.end(), 0);
  return q;
}

template <typename Extract>
void DefineQuantizationQuery(FunctionTable& t, const char* name, Extract extract) {
  Define<1>(t, name, [name, extract](Args a) -> absl::StatusOr<Value> {
    auto q = QuantizationOf(name, a[0]);
    HLOCHECK_RETURN_IF_ERROR(q.status());
    if (!q->has_value()) return Value(NoneValue{});
    auto element = ElementTypeOf(name, a[0]);
    return extract(**q, element->type);
  });
}

Value Types(const std::vector<ValueType>& types) {
  std::vector<Value> items;
  for (const ValueType& type : types) items.emplace_back(type);
  return Value(std::move(items));
}

}  // namespace

void RegisterTypeFunctions(FunctionTable& t) {
  Define<1>(t, "type", [](Args a) -> absl::StatusOr<Value> {
    if (a[0].is_type() || a[0].is_function_type()) return a[0];
    if (a[0].is_list() && a[0].as_list().tensor_type) return Value(*a[0].as_list().tensor_type);
    return ArgumentError("type", "a value with a type", a[0]);
  });
  Define<1>(t, "element_type", [](Args a) -> absl::StatusOr<Value> {
    auto type = ElementTypeOf("element_type", a[0]);
    HLOCHECK_RETURN_IF_ERROR(type.status());
    return Value(*type);
  });
  // The complex type with parts of a float type (f32, f64); None otherwise.
  // Recipes build a complex result from its parts' type with it.
  Define<1>(t, "complex_type", [](Args a) -> absl::StatusOr<Value> {
    auto type = ElementTypeOf("complex_type", a[0]);
    HLOCHECK_RETURN_IF_ERROR(type.status());
    if (type->type == ElementType::kF32) return Value(ElementType::kComplexF32);
    if (type->type == ElementType::kF64) return Value(ElementType::kComplexF64);
    return Value(NoneValue{});
  });
  Define<1>(t, "complex_element_type", [](Args a) -> absl::StatusOr<Value> {
    auto type = ElementTypeOf("complex_element_type", a[0]);
    HLOCHECK_RETURN_IF_ERROR(type.status());
    if (!IsComplex(type->type)) return Value(NoneValue{});
    return Value(ComponentType(type->type));
  });
  Define<1>(t, "baseline_type", [](Args a) -> absl::StatusOr<Value> {
    if (a[0].is_type()) {
      ValueType type = a[0].as_type();
      if (type.quantization) type.quantization = Baseline(*type.quantization);
      return Value(std::move(type));
    }
    if (a[0].is_element_type()) {
      ElementTypeValue type = a[0].as_element_type_value();
      if (type.quantization) type.quantization = Baseline(*type.quantization);
      return Value(std::move(type));
    }
    return ArgumentError("baseline_type", "a type", a[0]);
  });
  Define<1>(t, "baseline_element_type", [](Args a) -> absl::StatusOr<Value> {
    auto type = ElementTypeOf("baseline_element_type", a[0]);
    HLOCHECK_RETURN_IF_ERROR(type.status());
    if (type->quantization) type->quantization = Baseline(*type->quantization);
    return Value(*type);
  });
  Define<2>(t, "tensor_type", [](Args a) -> absl::StatusOr<Value> {
    auto shape = ListArgument("tensor_type", a[0]);
    HLOCHECK_RETURN_IF_ERROR(shape.status());
    auto element = ElementTypeOf("tensor_type", a[1]);
    HLOCHECK_RETURN_IF_ERROR(element.status());
    TensorType type({}, element->type, element->quantization);
    for (const Value& d : *shape) {
      auto dim = IntArgument("tensor_type", d);
      HLOCHECK_RETURN_IF_ERROR(dim.status());
      if (*dim < 0) return absl::InvalidArgumentError("tensor_type(): negative dimension");
      type.shape.push_back(*dim);
    }
    return Value::TensorTypeValue(std::move(type));
  });
  Define<1>(t, "types", [](Args a) -> absl::StatusOr<Value> {
    auto items = ListArgument("types", a[0]);
    HLOCHECK_RETURN_IF_ERROR(items.status());
    std::vector<Value> types;
    for (const Value& item : *items) {
      if (!item.is_type()) return ArgumentError("types", "a list of values", a[0]);
      types.push_back(item);
    }
    return Value(std::move(types));
  });

  // Quantization.
  Define<1>(t, "is_quantized", [](Args a) -> absl::StatusOr<Value> {
    auto q = QuantizationOf("is_quantized", a[0]);
    if (!q.ok()) {
      if (a[0].is_type()) return Value(false);  // tokens and tuples are not quantized
      return q.status();
    }
    return Value(q->has_value());
  });
  t.Register("is_quantized_tensor", *t.Find("is_quantized"));
  Define<1>(t, "is_per_tensor_quantized", [](Args a) -> absl::StatusOr<Value> {
    auto q = QuantizationOf("is_per_tensor_quantized", a[0]);
    if (!q.ok()) {
      if (a[0].is_type()) return Value(false);  // tokens and tuples are not quantized
      return q.status();
    }
    return Value(q->has_value() && !(*q)->quantization_dimension.has_value());
  });
  Define<1>(t, "is_per_axis_quantized", [](Args a) -> absl::StatusOr<Value> {
    auto q = QuantizationOf("is_per_axis_quantized", a[0]);
    if (!q.ok()) {
      if (a[0].is_type()) return Value(false);  // tokens and tuples are not quantized
      return q.status();
    }
    return Value(q->has_value() && (*q)->quantization_dimension.has_value());
  });
  DefineQuantizationQuery(t, "quantization_dimension",
                          [](const UniformQuantization& q, ElementType) -> absl::StatusOr<Value> {
                            if (!q.quantization_dimension) return Value(NoneValue{});
                            return Value(*q.quantization_dimension);
                          });
  DefineQuantizationQuery(
      t, "storage_type",
      [](const UniformQuantization&, ElementType storage) -> absl::StatusOr<Value> {
        return Value(storage);
      });
  DefineQuantizationQuery(t, "expressed_type",
                          [](const UniformQuantization& q, ElementType) -> absl::StatusOr<Value> {
                            return Value(q.expressed_type);
                          });
  DefineQuantizationQuery(t, "storage_min",
                          [](const UniformQuantization& q, ElementType) -> absl::StatusOr<Value> {
                            return Value(q.storage_min);
                          });
  DefineQuantizationQuery(t, "storage_max",
                          [](const UniformQuantization& q, ElementType) -> absl::StatusOr<Value> {
                            return Value(q.storage_max);
                          });
  DefineQuantizationQuery(t, "scales",
                          [](const UniformQuantization& q, ElementType) -> absl::StatusOr<Value> {
                            std::vector<Value> items;
                            for (double s : q.scales) items.emplace_back(s);
                            return Value(std::move(items));
                          });
  DefineQuantizationQuery(t, "zero_points",
                          [](const UniformQuantization& q, ElementType) -> absl::StatusOr<Value> {
                            return Value::IntList(q.zero_points);
                          });
  // is_promotable(x, y): same kind (quantized: same expressed type) and no
  // narrower (quantized: storage bit widths; complex: part bit widths).
  Define<2>(t, "is_promotable", [](Args a) -> absl::StatusOr<Value> {
    auto x = ElementTypeOf("is_promotable", a[0]);
    HLOCHECK_RETURN_IF_ERROR(x.status());
    auto y = ElementTypeOf("is_promotable", a[1]);
    HLOCHECK_RETURN_IF_ERROR(y.status());
    if (x->quantization.has_value() != y->quantization.has_value()) return Value(false);
    if (x->quantization) {
      return Value(x->quantization->expressed_type == y->quantization->expressed_type &&
                   BitWidth(x->type) <= BitWidth(y->type));
    }
    if (Kind(x->type) != Kind(y->type)) {
      // Signed and unsigned integers are both "integer" in is_same_type.
      if (!(IsInteger(x->type) && IsInteger(y->type))) return Value(false);
    }
    return Value(BitWidth(ComponentType(x->type)) <= BitWidth(ComponentType(y->type)));
  });

  // converts_exactly(x, y): every value of x is a value of y (plain types).
  Define<2>(t, "converts_exactly", [](Args a) -> absl::StatusOr<Value> {
    auto x = ElementTypeOf("converts_exactly", a[0]);
    HLOCHECK_RETURN_IF_ERROR(x.status());
    auto y = ElementTypeOf("converts_exactly", a[1]);
    HLOCHECK_RETURN_IF_ERROR(y.status());
    if (x->quantization || y->quantization) return Value(false);
    return Value(IsExactConversion(x->type, y->type));
  });

  // Kinds of types. A quantized element type is none of these.
  auto kind_predicate = [&t](const char* name, bool (*test)(ElementType)) {
    Define<1>(t, name, [name, test](Args a) -> absl::StatusOr<Value> {
      auto type = ElementTypeOf(name, a[0]);
      HLOCHECK_RETURN_IF_ERROR(type.status());
      return Value(!type->quantization && test(type->type));
    });
  };
  kind_predicate("is_bool", [](ElementType e) { return IsBool(e); });
  kind_predicate("is_boolean", [](ElementType e) { return IsBool(e); });
  kind_predicate("is_integer", [](ElementType e) { return IsInteger(e); });
  kind_predicate("is_signed_integer", [](ElementType e) { return IsSignedInt(e); });
  kind_predicate("is_unsigned_integer", [](ElementType e) { return IsUnsignedInt(e); });
  kind_predicate("is_float", [](ElementType e) { return IsFloat(e); });
  kind_predicate("is_complex", [](ElementType e) { return IsComplex(e); });
  auto value_kind = [&t](const char* name, ValueType::Kind kind) {
    Define<1>(t, name, [kind](Args a) -> absl::StatusOr<Value> {
      return Value(a[0].is_type() && a[0].as_type().kind == kind);
    });
  };
  value_kind("is_tensor", ValueType::Kind::kTensor);
  value_kind("is_token", ValueType::Kind::kToken);
  value_kind("is_tuple", ValueType::Kind::kTuple);
  for (const char* name : {"num_bits", "bitwidth"}) {
    Define<1>(t, name, [name](Args a) -> absl::StatusOr<Value> {
      auto type = ElementTypeOf(name, a[0]);
      HLOCHECK_RETURN_IF_ERROR(type.status());
      return Value(int64_t{BitWidth(type->type)});
    });
  }
  Define<1>(t, "min_value", [](Args a) -> absl::StatusOr<Value> {
    auto type = ElementTypeOf("min_value", a[0]);
    HLOCHECK_RETURN_IF_ERROR(type.status());
    if (IsBool(type->type)) return Value(false);
    if (IsInteger(type->type)) return Value(IntegerMin(type->type));
    if (IsFloat(type->type)) return Value(-HUGE_VAL);
    return Value(NoneValue{});
  });
  Define<1>(t, "max_value", [](Args a) -> absl::StatusOr<Value> {
    auto type = ElementTypeOf("max_value", a[0]);
    HLOCHECK_RETURN_IF_ERROR(type.status());
    if (IsBool(type->type)) return Value(true);
    if (IsInteger(type->type)) {
      uint64_t max = IntegerMaxUnsigned(type->type);
      if (max > static_cast<uint64_t>(INT64_MAX)) return Value(static_cast<double>(max));
      return Value(static_cast<int64_t>(max));
    }
    if (IsFloat(type->type)) return Value(HUGE_VAL);
    return Value(NoneValue{});
  });

  // is_value_of(x, t): x is a value of element type t (an integer in range,
  // a float exactly representable); the seed's `type(x) = t` for constants.
  Define<2>(t, "is_value_of", [](Args a) -> absl::StatusOr<Value> {
    auto type = ElementTypeOf("is_value_of", a[1]);
    HLOCHECK_RETURN_IF_ERROR(type.status());
    if (!a[0].is_number()) return Value(false);
    ElementType e = type->type;
    if (IsBool(e)) return Value(a[0].is_bool());
    if (IsInteger(e)) {
      if (!a[0].is_int()) return Value(false);
      int64_t v = a[0].as_int();
      if (v < IntegerMin(e)) return Value(false);
      return Value(v < 0 || static_cast<uint64_t>(v) <= IntegerMaxUnsigned(e));
    }
    if (IsFloat(e)) {
      double v = a[0].ToDouble();
      uint8_t flags = 0;
      uint64_t bits =
          EncodeFloat(Format(e), ExactValue::FromDouble(v), RoundingMode::kNearestEven, &flags);
      return Value(flags == 0 && (std::isnan(v) || DecodeFloat(Format(e), bits).ToDouble() == v));
    }
    return Value(false);
  });

  // Parts of tuple and function types.
  Define<1>(t, "tuple_element_types", [](Args a) -> absl::StatusOr<Value> {
    if (!a[0].is_type() || a[0].as_type().kind != ValueType::Kind::kTuple) {
      return ArgumentError("tuple_element_types", "a tuple", a[0]);
    }
    return Types(a[0].as_type().elements);
  });
  for (const char* name : {"input_types", "func_inputs"}) {
    Define<1>(t, name, [name](Args a) -> absl::StatusOr<Value> {
      if (!a[0].is_function_type()) return ArgumentError(name, "a function", a[0]);
      return Types(a[0].as_function_type().inputs);
    });
  }
  for (const char* name : {"output_types", "func_outputs"}) {
    Define<1>(t, name, [name](Args a) -> absl::StatusOr<Value> {
      if (!a[0].is_function_type()) return ArgumentError(name, "a function", a[0]);
      return Types(a[0].as_function_type().outputs);
    });
  }
}

}  // namespace hlocheck::spec
