#include "generators/case_generator.h"

#include <algorithm>
#include <memory>

#include "absl/status/status.h"
#include "spec/attributes.h"
#include "spec/formula/evaluator.h"

namespace hlocheck {
namespace {

using spec::Value;
using Args = std::span<const Value>;

// State shared by the random functions of one case: the budget keeps the
// product of all dimensions a case draws (and so the work of any op on
// them, contractions included) below a size-dependent limit.
struct DrawState {
  int64_t budget = 1;
  int max_rank = 6;
};

int CurrentSize() {
  return *rc::gen::withSize([](int size) { return rc::gen::just(size); });
}

// A list of `min_count`..`max_count` dimension sizes, drawn as one value so
// that it shrinks as a whole: dropping dimensions, halving all of them
// together (which keeps equal sizes equal), or making one smaller. Sizes are
// occasionally 0; the product of the non-zero ones stays within `budget`.
rc::Gen<Shape> DimensionsGen(int64_t min_count, int64_t max_count, int64_t cap, int64_t budget) {
  return rc::Gen<Shape>([=](const rc::Random& random, int) {
    rc::Random r = random;
    int64_t count = min_count + static_cast<int64_t>(r.next() % (max_count - min_count + 1));
    Shape dims;
    int64_t remaining = budget;
    for (int64_t i = 0; i < count; ++i) {
      if (r.next() % 16 == 0) {
        dims.push_back(0);
        continue;
      }
      int64_t limit = std::max<int64_t>(1, std::min(cap, remaining));
      int64_t dim = 1 + static_cast<int64_t>(r.next() % limit);
      remaining = std::max<int64_t>(1, remaining / dim);
      dims.push_back(dim);
    }
    return rc::shrinkable::shrinkRecur(std::move(dims), [min_count](const Shape& shape) {
      std::vector<Shape> simpler;
      if (static_cast<int64_t>(shape.size()) > min_count) {
        for (size_t i = 0; i < shape.size(); ++i) {
          Shape fewer = shape;
          fewer.erase(fewer.begin() + i);
          simpler.push_back(std::move(fewer));
        }
      }
      if (std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d > 1; })) {
        Shape halved = shape;
        for (int64_t& d : halved) d = d > 1 ? d / 2 : d;
        simpler.push_back(std::move(halved));
      }
      for (size_t i = 0; i < shape.size(); ++i) {
        for (int64_t smaller : {int64_t{1}, shape[i] / 2, shape[i] - 1}) {
          if (smaller >= 1 && smaller < shape[i]) {
            Shape one = shape;
            one[i] = smaller;
            simpler.push_back(std::move(one));
          }
        }
      }
      return rc::seq::fromContainer(std::move(simpler));
    });
  });
}

Value DrawDimensions(DrawState& state, int64_t min_count, int64_t max_count) {
  int64_t cap = 1 + CurrentSize() / 8;
  Shape dims = *DimensionsGen(min_count, max_count, cap, state.budget);
  for (int64_t d : dims) {
    if (d > 0) state.budget = std::max<int64_t>(1, state.budget / d);
  }
  return Value::IntList(dims);
}

absl::StatusOr<int64_t> IntArg(std::string_view function, const Value& v) {
  if (!v.is_int()) {
    return absl::InvalidArgumentError(std::string(function) + "() expects integers, got " +
                                      v.ToString());
  }
  return v.as_int();
}

spec::FunctionTable GenerationFunctions(std::shared_ptr<DrawState> state) {
  spec::FunctionTable table = spec::SpecFunctions();

  // A random shape: rank and dimension sizes grow with RapidCheck's size.
  table.Register("gen_shape", [state](Args args) -> absl::StatusOr<Value> {
    if (!args.empty()) return absl::InvalidArgumentError("gen_shape() takes no arguments");
    int rank_cap = std::min(state->max_rank, 1 + CurrentSize() / 16);
    return DrawDimensions(*state, 0, rank_cap);
  });
  // gen_dims(lo, hi): between lo and hi dimension sizes.
  table.Register("gen_dims", [state](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 2) return absl::InvalidArgumentError("gen_dims(lo, hi) takes 2 arguments");
    auto lo = IntArg("gen_dims", args[0]);
    if (!lo.ok()) return lo.status();
    auto hi = IntArg("gen_dims", args[1]);
    if (!hi.ok()) return hi.status();
    if (*lo < 0 || *lo > *hi) return absl::InvalidArgumentError("gen_dims(): empty range");
    return DrawDimensions(*state, *lo, *hi);
  });
  // gen_int(lo, hi): an integer in [lo, hi], shrinking towards lo.
  table.Register("gen_int", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 2) return absl::InvalidArgumentError("gen_int(lo, hi) takes 2 arguments");
    auto lo = IntArg("gen_int", args[0]);
    if (!lo.ok()) return lo.status();
    auto hi = IntArg("gen_int", args[1]);
    if (!hi.ok()) return hi.status();
    if (*lo > *hi) {
      return absl::InvalidArgumentError("gen_int(" + std::to_string(*lo) + ", " +
                                        std::to_string(*hi) + "): empty range");
    }
    return Value(*rc::gen::inRange<int64_t>(*lo, *hi + 1));
  });
  table.Register("gen_bool", [](Args args) -> absl::StatusOr<Value> {
    if (!args.empty()) return absl::InvalidArgumentError("gen_bool() takes no arguments");
    return Value(*rc::gen::element(false, true));
  });
  // gen_permutation(n): a permutation of range(n), shrinking towards the identity.
  table.Register("gen_permutation", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 1) return absl::InvalidArgumentError("gen_permutation(n) takes 1 argument");
    auto n = IntArg("gen_permutation", args[0]);
    if (!n.ok()) return n.status();
    std::vector<int64_t> permutation(*n);
    for (int64_t i = 0; i < *n; ++i) permutation[i] = i;
    for (int64_t i = 0; i + 1 < *n; ++i) {
      int64_t j = *rc::gen::inRange<int64_t>(i, *n);
      std::swap(permutation[i], permutation[j]);
    }
    return Value::IntList(permutation);
  });
  // gen_one_of(list): one of the items, shrinking towards the first.
  table.Register("gen_one_of", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 1 || !args[0].is_list() || args[0].items().empty()) {
      return absl::InvalidArgumentError("gen_one_of() takes one non-empty list");
    }
    return *rc::gen::elementOf(args[0].items());
  });
  return table;
}

// pick_element_type(name): an element type the named operand or result
// accepts; the run's chosen type for the op's first operand. It takes the
// *name* of an operand or result, which has no
// value yet when the recipe picks its type; so the recipe's evaluator binds
// every operand and result name to a marker string until the recipe binds it.
constexpr std::string_view kUnboundPrefix = "unbound:";

void RegisterPickElementType(spec::FunctionTable& table, const spec::OpSpec& op,
                             const GenerationOptions& options) {
  table.Register("pick_element_type", [&op, options](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 1 || !args[0].is_string() ||
        args[0].as_string().rfind(kUnboundPrefix, 0) != 0) {
      return absl::InvalidArgumentError(
          "pick_element_type() takes the name of an operand or result not yet bound");
    }
    std::string name = args[0].as_string().substr(kUnboundPrefix.size());
    const spec::ValueSpec* value = op.FindOperand(name);
    if (value == nullptr) value = op.FindResult(name);
    if (value == nullptr) return absl::InvalidArgumentError("no operand or result '" + name + "'");
    const std::vector<ElementType>& allowed = value->types.element_types;
    if (allowed.empty())
      return absl::InvalidArgumentError("'" + name + "' accepts no element type");
    if (!op.operands.empty() && name == op.operands[0].name && options.primary_type) {
      if (!value->types.Contains(*options.primary_type)) {
        return absl::InvalidArgumentError(std::string(Name(*options.primary_type)) +
                                          " is not an element type of " + name);
      }
      return Value(*options.primary_type);
    }
    return Value(*rc::gen::elementOf(allowed));
  });
}

[[noreturn]] void Fail(const spec::OpSpec& op, const std::string& message) {
  throw rc::GenerationFailure(op.file + ": recipe of " + op.name + ": " + message);
}

Case BuildCase(const spec::OpSpec& op, const GenerationOptions& options) {
  auto state = std::make_shared<DrawState>();
  state->max_rank = options.max_rank;
  state->budget = std::min<int64_t>(options.max_elements, 16 + 40 * int64_t{CurrentSize()});
  spec::FunctionTable functions = GenerationFunctions(state);
  RegisterPickElementType(functions, op, options);
  spec::Evaluator evaluator(&functions);
  for (const auto& v : op.operands)
    evaluator.SetMember(v.name, std::string(kUnboundPrefix) + v.name);
  for (const auto& v : op.results)
    evaluator.SetMember(v.name, std::string(kUnboundPrefix) + v.name);
  for (const auto& [name, formula] : op.definitions) {
    evaluator.AddDefinition(name, formula.expr, formula.text);
  }
  for (const spec::RecipeStep& step : op.recipe) {
    auto value = evaluator.Evaluate(*step.formula.expr, step.formula.text);
    if (!value.ok()) {
      Fail(op, step.formula.location.ToString() + ": " + step.name + ": " +
                   std::string(value.status().message()));
    }
    evaluator.SetMember(step.name, *std::move(value));
  }

  auto bound_type = [&](const std::string& name, const Value& value) -> TensorType {
    if (!value.is_type() || value.as_type().kind != spec::TypeValue::Kind::kTensor) {
      Fail(op, "'" + name + "' must be bound to a tensor type, got " + value.ToString());
    }
    return value.as_type().tensor();
  };

  Case c;
  c.op = op.name;
  DataPolicy policy = *rc::gen::elementOf(options.data_policies);
  bool variadic = false;
  for (const spec::ValueSpec& operand : op.operands) {
    const Value& value = *evaluator.FindMember(operand.name);
    if (operand.variadic) {
      variadic = true;
      if (!value.is_list()) Fail(op, "variadic '" + operand.name + "' must be a list of types");
      for (const Value& item : value.items()) {
        c.operands.push_back(*TensorData(bound_type(operand.name, item), policy));
      }
      c.operand_segments.push_back(static_cast<int64_t>(value.items().size()));
    } else {
      c.operands.push_back(*TensorData(bound_type(operand.name, value), policy));
      c.operand_segments.push_back(1);
    }
  }
  if (!variadic) c.operand_segments.clear();
  for (const spec::AttributeSpec& attribute : op.attributes) {
    const Value* value = evaluator.FindMember(attribute.name);
    if (value == nullptr) {
      if (attribute.optional) continue;
      Fail(op, "the recipe does not bind attribute '" + attribute.name + "'");
    }
    auto converted = spec::AttributeFromValue(attribute, *value);
    if (!converted.ok()) Fail(op, std::string(converted.status().message()));
    c.attributes[attribute.name] = *std::move(converted);
  }
  bool variadic_results = false;
  for (const spec::ValueSpec& result : op.results) {
    const Value& value = *evaluator.FindMember(result.name);
    if (result.variadic) {
      variadic_results = true;
      if (!value.is_list()) Fail(op, "variadic '" + result.name + "' must be a list of types");
      for (const Value& item : value.items())
        c.result_types.push_back(bound_type(result.name, item));
      c.result_segments.push_back(static_cast<int64_t>(value.items().size()));
    } else {
      c.result_types.push_back(bound_type(result.name, value));
      c.result_segments.push_back(1);
    }
  }
  if (!variadic_results) c.result_segments.clear();
  return c;
}

}  // namespace

std::vector<ElementType> PrimaryTypes(const spec::OpSpec& op) {
  if (op.operands.empty()) return {};
  return op.operands[0].types.element_types;
}

rc::Gen<Case> CaseGenerator(const spec::OpSpec& op, const GenerationOptions& options) {
  return rc::gen::exec([&op, options] { return BuildCase(op, options); });
}

rc::Shrinkable<Case> GenerateCase(const spec::OpSpec& op, const GenerationOptions& options,
                                  uint64_t seed, int size) {
  return CaseGenerator(op, options)(rc::Random(seed), size);
}

}  // namespace hlocheck
