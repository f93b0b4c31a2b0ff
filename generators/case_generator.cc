#include "generators/case_generator.h"

#include <algorithm>

#include "absl/status/status.h"
#include "core/literal.h"
#include "core/status_macros.h"
#include "generators/choice.h"
#include "generators/element_halving.h"
#include "generators/quantized_types.h"
#include "generators/region_bodies.h"
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
  const spec::OpSpec* op = nullptr;
  const GenerationOptions* options = nullptr;
  int64_t budget = 1;
  int max_rank = 6;
  bool primary_taken = false;  // pick_element_type has returned the run's type
};

// The draw in progress on this thread, which the recipe functions read: so
// their table is built once for every op and draw, rather than copied from
// SpecFunctions()'s hundred-odd entries at each draw. Draws on other threads
// have their own; a draw sets it for its duration (DrawScope).
thread_local DrawState* current_draw = nullptr;

DrawState& CurrentDraw() {
  if (current_draw == nullptr) {
    throw rc::GenerationFailure("a recipe function was called outside of a draw");
  }
  return *current_draw;
}

class DrawScope {
 public:
  explicit DrawScope(DrawState* state) : previous_(current_draw) { current_draw = state; }
  ~DrawScope() { current_draw = previous_; }
  DrawScope(const DrawScope&) = delete;
  DrawScope& operator=(const DrawScope&) = delete;

 private:
  DrawState* previous_;
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
      // Now and then a size at a kernel boundary (vector widths, unrolled
      // tails, tile sizes), as far as the element budget allows.
      if (r.next() % 24 == 0) {
        std::span<const int64_t> boundaries = KernelBoundarySizes();
        size_t pick = r.next() % boundaries.size();
        while (pick > 0 && boundaries[pick] > remaining) --pick;
        if (boundaries[pick] <= remaining) dim = boundaries[pick];
      }
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
        // All one smaller together: keeps equal sizes equal where halving
        // would collapse them (3x3 to 2x2, not 1x1).
        Shape decremented = shape;
        for (int64_t& d : decremented) d = d > 1 ? d - 1 : d;
        if (decremented != simpler.back()) simpler.push_back(std::move(decremented));
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

void RegisterGenerationFunctions(spec::FunctionTable& table) {
  // A random shape: rank and dimension sizes grow with RapidCheck's size.
  table.Register("gen_shape", [](Args args) -> absl::StatusOr<Value> {
    if (!args.empty()) return absl::InvalidArgumentError("gen_shape() takes no arguments");
    DrawState& state = CurrentDraw();
    int rank_cap = std::min(state.max_rank, 1 + CurrentSize() / 16);
    return DrawDimensions(state, 0, rank_cap);
  });
  // gen_dims(lo, hi): between lo and hi dimension sizes.
  table.Register("gen_dims", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 2) return absl::InvalidArgumentError("gen_dims(lo, hi) takes 2 arguments");
    auto lo = IntArg("gen_dims", args[0]);
    HLOCHECK_RETURN_IF_ERROR(lo.status());
    auto hi = IntArg("gen_dims", args[1]);
    HLOCHECK_RETURN_IF_ERROR(hi.status());
    if (*lo < 0 || *lo > *hi) return absl::InvalidArgumentError("gen_dims(): empty range");
    return DrawDimensions(CurrentDraw(), *lo, *hi);
  });
  // gen_int(lo, hi): an integer in [lo, hi], shrinking towards lo.
  table.Register("gen_int", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 2) return absl::InvalidArgumentError("gen_int(lo, hi) takes 2 arguments");
    auto lo = IntArg("gen_int", args[0]);
    HLOCHECK_RETURN_IF_ERROR(lo.status());
    auto hi = IntArg("gen_int", args[1]);
    HLOCHECK_RETURN_IF_ERROR(hi.status());
    if (*lo > *hi) {
      return absl::InvalidArgumentError("gen_int(" + std::to_string(*lo) + ", " +
                                        std::to_string(*hi) + "): empty range");
    }
    return Value(*rc::gen::inRange<int64_t>(*lo, *hi + 1));
  });
  table.Register("gen_bool", [](Args args) -> absl::StatusOr<Value> {
    if (!args.empty()) return absl::InvalidArgumentError("gen_bool() takes no arguments");
    return Value(Choose(rc::gen::element(false, true)));
  });
  // gen_permutation(n): a permutation of range(n), shrinking towards the identity.
  table.Register("gen_permutation", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 1) return absl::InvalidArgumentError("gen_permutation(n) takes 1 argument");
    auto n = IntArg("gen_permutation", args[0]);
    HLOCHECK_RETURN_IF_ERROR(n.status());
    std::vector<int64_t> permutation(*n);
    for (int64_t i = 0; i < *n; ++i) permutation[i] = i;
    for (int64_t i = 0; i + 1 < *n; ++i) {
      int64_t j = Choose(rc::gen::inRange<int64_t>(i, *n));
      std::swap(permutation[i], permutation[j]);
    }
    return Value::IntList(permutation);
  });
  // gen_one_of(list): one of the items, shrinking towards the first.
  table.Register("gen_one_of", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 1 || !args[0].is_list() || args[0].items().empty()) {
      return absl::InvalidArgumentError("gen_one_of() takes one non-empty list");
    }
    return Choose(rc::gen::elementOf(args[0].items()));
  });
}

// pick_element_type(name): an element type the named operand or result
// accepts; the run's chosen type for the op's first operand. It takes the
// *name* of an operand or result, which has no
// value yet when the recipe picks its type; so the recipe's evaluator binds
// every operand and result name to a marker string until the recipe binds it.
constexpr std::string_view kUnboundPrefix = "unbound:";

void RegisterPickElementType(spec::FunctionTable& table) {
  table.Register("pick_element_type", [](Args args) -> absl::StatusOr<Value> {
    DrawState& state = CurrentDraw();
    const spec::OpSpec& op = *state.op;
    const GenerationOptions& options = *state.options;
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
    // The first draw for the first operand is the run's type; later draws
    // (further values of a variadic operand) range over every type.
    const spec::ValueSpec* primary = PrimaryValue(op);
    if (primary != nullptr && name == primary->name && options.primary_type &&
        !state.primary_taken) {
      state.primary_taken = true;
      if (!value->types.Contains(*options.primary_type)) {
        return absl::InvalidArgumentError(std::string(Name(*options.primary_type)) +
                                          " is not an element type of " + name);
      }
      return Value(*options.primary_type);
    }
    return Value(Choose(rc::gen::elementOf(allowed)));
  });
}

[[noreturn]] void Fail(const spec::OpSpec& op, const std::string& message) {
  throw rc::GenerationFailure(op.file + ": recipe of " + op.name + ": " + message);
}

// A recipe's `assume` step was false: the draw is rejected and redrawn.
struct Rejected {};

// Type constructors and list choices that only recipes need.
void RegisterRecipeFunctions(spec::FunctionTable& table) {
  table.Register("elem", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 1 || !args[0].is_string()) {
      return absl::InvalidArgumentError("elem() takes an element type name such as \"si32\"");
    }
    auto type = ParseElementType(args[0].as_string());
    if (!type)
      return absl::InvalidArgumentError("elem(): unknown element type " + args[0].ToString());
    return Value(*type);
  });
  table.Register("token_type", [](Args args) -> absl::StatusOr<Value> {
    if (!args.empty()) return absl::InvalidArgumentError("token_type() takes no arguments");
    return Value(ValueType::Token());
  });
  table.Register("tuple_type", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 1 || !args[0].is_list()) {
      return absl::InvalidArgumentError("tuple_type() takes a list of types");
    }
    std::vector<ValueType> elements;
    for (const Value& item : args[0].items()) {
      if (!item.is_type())
        return absl::InvalidArgumentError("tuple_type(): " + item.ToString() + " is not a type");
      elements.push_back(item.as_type());
    }
    return Value(ValueType::Tuple(std::move(elements)));
  });
  // function_type(inputs, outputs): a region signature.
  table.Register("function_type", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 2 || !args[0].is_list() || !args[1].is_list()) {
      return absl::InvalidArgumentError("function_type() takes two lists of types");
    }
    FunctionType f;
    for (int side = 0; side < 2; ++side) {
      for (const Value& item : args[side].items()) {
        if (!item.is_type()) {
          return absl::InvalidArgumentError("function_type(): " + item.ToString() +
                                            " is not a type");
        }
        (side == 0 ? f.inputs : f.outputs).push_back(item.as_type());
      }
    }
    return Value(std::move(f));
  });
  // quant_type(shape, storage, expressed, scales, zero_points, axis): a
  // uniformly quantized tensor type, per tensor when axis is None (one scale
  // and zero point), per axis otherwise. The storage range is the type's.
  table.Register("quant_type", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 6 || !args[0].is_list() || !args[1].is_element_type() ||
        !args[2].is_element_type() || !args[3].is_list() || !args[4].is_list()) {
      return absl::InvalidArgumentError(
          "quant_type(shape, storage, expressed, scales, zero_points, axis) expects a shape, two "
          "element types, two lists and an axis or None");
    }
    ValueType t;
    for (const Value& d : args[0].items()) {
      if (!d.is_int()) return absl::InvalidArgumentError("quant_type(): shape must be integers");
      t.shape.push_back(d.as_int());
    }
    t.element_type = args[1].as_element_type();
    UniformQuantization q;
    q.expressed_type = args[2].as_element_type();
    int bits = BitWidth(t.element_type);
    bool is_signed = IsSignedInt(t.element_type);
    q.storage_min = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
    q.storage_max = is_signed ? (int64_t{1} << (bits - 1)) - 1
                              : static_cast<int64_t>((uint64_t{1} << bits) - 1);
    for (const Value& v : args[3].items()) {
      if (!v.is_number()) return absl::InvalidArgumentError("quant_type(): scales must be numbers");
      q.scales.push_back(v.is_float() ? v.as_float() : static_cast<double>(v.as_int()));
    }
    for (const Value& v : args[4].items()) {
      if (!v.is_int())
        return absl::InvalidArgumentError("quant_type(): zero points must be integers");
      q.zero_points.push_back(v.as_int());
    }
    if (args[5].is_int()) q.quantization_dimension = args[5].as_int();
    t.quantization = std::move(q);
    return Value(std::move(t));
  });
  // body_kinds(signature): the region body kinds that fit a function type,
  // most common first (generators/region_bodies.h).
  table.Register("body_kinds", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 1 || !args[0].is_function_type()) {
      return absl::InvalidArgumentError("body_kinds() takes a function type");
    }
    std::vector<Value> kinds;
    for (const std::string& kind : BodyKindsFor(args[0].as_function_type()))
      kinds.push_back(Value(kind));
    return Value(std::move(kinds));
  });
  // gen_dense(type): a dense literal of a plain tensor type, its values drawn
  // by one of the data policies, as operands' are (for constant's value).
  table.Register("gen_dense", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 1 || !args[0].is_type() || !args[0].as_type().is_tensor() ||
        args[0].as_type().quantization) {
      return absl::InvalidArgumentError("gen_dense() takes a plain tensor type");
    }
    const ValueType& t = args[0].as_type();
    DataPolicy policy =
        Choose(rc::gen::elementOf(DataPoliciesOfVersion(CurrentDraw().options->version)));
    Tensor tensor = *TensorData(TensorType{t.shape, t.element_type}, policy);
    return Value(PrintDenseAttribute(tensor));
  });
  // gen_subset(list): the items of a random subset, in list order.
  table.Register("gen_subset", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 1 || !args[0].is_list()) {
      return absl::InvalidArgumentError("gen_subset() takes one list");
    }
    std::vector<Value> chosen;
    for (const Value& item : args[0].items()) {
      if (Choose(rc::gen::element(false, true))) chosen.push_back(item);
    }
    return Value(std::move(chosen));
  });
}

// Every function a recipe may call, built on first use.
const spec::FunctionTable& RecipeFunctions() {
  static const spec::FunctionTable* table = [] {
    auto* functions = new spec::FunctionTable(spec::SpecFunctions());
    RegisterGenerationFunctions(*functions);
    RegisterRecipeFunctions(*functions);
    RegisterQuantizedTypeFunctions(*functions);
    RegisterPickElementType(*functions);
    return functions;
  }();
  return *table;
}

bool IsPlainTensor(const ValueType& t) { return t.is_tensor() && !t.quantization; }

// One draw of the recipe: the instance, or Rejected.
GeneratedCase DrawInstance(const spec::OpSpec& op, const GenerationOptions& options) {
  DrawState state;
  state.op = &op;
  state.options = &options;
  state.max_rank = options.max_rank;
  state.budget = std::min<int64_t>(options.max_elements, 16 + 40 * int64_t{CurrentSize()});
  DrawScope scope(&state);
  spec::Evaluator evaluator(&RecipeFunctions());
  for (const auto& v : op.operands)
    evaluator.SetMember(v.name, std::string(kUnboundPrefix) + v.name);
  for (const auto& v : op.results)
    evaluator.SetMember(v.name, std::string(kUnboundPrefix) + v.name);
  for (const auto& [name, formula] : op.definitions) {
    evaluator.AddDefinition(name, formula.expr, formula.text);
  }
  evaluator.SetMember("generation", spec::Value(int64_t{options.version}));
  for (const spec::RecipeStep& step : op.recipe) {
    auto value = evaluator.Evaluate(*step.formula.expr, step.formula.text);
    if (!value.ok()) {
      Fail(op, step.formula.location.ToString() + ": " + step.name + ": " +
                   std::string(value.status().message()));
    }
    if (step.name == "assume") {
      if (!value->is_bool())
        Fail(op, step.formula.location.ToString() + ": assume must be a truth value");
      if (!value->as_bool()) throw Rejected{};
      continue;
    }
    evaluator.SetMember(step.name, *std::move(value));
  }

  auto bound = [&](const std::string& name) -> const Value& {
    const Value* value = evaluator.FindMember(name);
    if (value == nullptr ||
        (value->is_string() && value->as_string().rfind(kUnboundPrefix, 0) == 0)) {
      Fail(op, "the recipe does not bind '" + name + "'");
    }
    return *value;
  };
  auto as_type = [&](const std::string& name, const Value& value) -> ValueType {
    if (!value.is_type())
      Fail(op, "'" + name + "' must be bound to a type, got " + value.ToString());
    return value.as_type();
  };
  auto types_of = [&](const spec::ValueSpec& v) {
    const Value& value = bound(v.name);
    std::vector<ValueType> types;
    if (v.variadic) {
      if (!value.is_list()) Fail(op, "variadic '" + v.name + "' must be a list of types");
      for (const Value& item : value.items()) types.push_back(as_type(v.name, item));
    } else {
      types.push_back(as_type(v.name, value));
    }
    return types;
  };

  GeneratedCase g;
  spec::OpInstance& instance = g.instance;
  instance.op = op.name;
  for (const spec::ValueSpec& operand : op.operands) instance.operands.push_back(types_of(operand));
  for (const spec::ValueSpec& result : op.results) instance.results.push_back(types_of(result));
  for (const spec::AttributeSpec& attribute : op.attributes) {
    const Value* value = evaluator.FindMember(attribute.name);
    if (value == nullptr || value->is_none()) {
      if (attribute.optional || attribute.default_value) continue;
      Fail(op, "the recipe does not bind attribute '" + attribute.name + "'");
    }
    auto converted = spec::AttributeFromValue(attribute, *value);
    if (!converted.ok())
      Fail(op, attribute.name + ": " + std::string(converted.status().message()));
    instance.attributes[attribute.name] = *std::move(converted);
  }
  for (const char* grid : {"num_replicas", "num_partitions"}) {
    if (const Value* value = evaluator.FindMember(grid)) {
      if (!value->is_int() || value->as_int() < 1)
        Fail(op, std::string(grid) + " must be a positive integer");
      (std::string(grid) == "num_replicas" ? instance.num_replicas : instance.num_partitions) =
          value->as_int();
    }
  }
  for (const spec::RegionSpec& region : op.regions) {
    const Value& value = bound(region.name);
    std::vector<Value> signatures = region.variadic ? value.items() : std::vector<Value>{value};
    if (region.variadic && !value.is_list())
      Fail(op, "variadic region '" + region.name + "' must be a list");
    const Value* kinds = evaluator.FindMember(region.name + "_body");
    std::vector<FunctionType> types;
    for (size_t i = 0; i < signatures.size(); ++i) {
      if (!signatures[i].is_function_type()) {
        Fail(op, "region '" + region.name + "' must be bound to function_type(...), got " +
                     signatures[i].ToString());
      }
      const FunctionType& signature = signatures[i].as_function_type();
      std::string kind;
      if (kinds != nullptr) {
        const Value& k = region.variadic && kinds->is_list() ? kinds->items().at(i) : *kinds;
        if (!k.is_string()) Fail(op, region.name + "_body must name a body kind");
        kind = k.as_string();
      } else {
        std::vector<std::string> fits = BodyKindsFor(signature);
        if (fits.empty())
          Fail(op, "no body kind fits " + signature.ToString() + "; bind " + region.name + "_body");
        kind = fits.front();
      }
      auto body = BuildRegionBody(kind, signature);
      if (!body.ok()) Fail(op, region.name + ": " + std::string(body.status().message()));
      g.regions.push_back(*std::move(body));
      g.region_kinds.push_back(kind);
      types.push_back(signature);
    }
    g.region_segments.push_back(static_cast<int64_t>(types.size()));
    instance.regions.push_back(std::move(types));
  }
  return g;
}

// Ops that pass their values through untouched (custom_call: hlocheck's
// targets only move them or write zeros; the transfers move their messages
// bit for bit): for them a token, a tuple
// or a quantized tensor is data like any other (the tensors inside, their
// storage bits), so their cases are runnable with such values too. Other
// ops compute on quantized values, which no runner takes as a Case yet.
bool PassesValuesThrough(const spec::OpSpec& op) {
  return op.name == "tuple" || op.name == "get_tuple_element" ||
         op.name == "optimization_barrier" || op.name == "custom_call" ||
         TransferOf(op.name) != Transfer::kNone;
}

bool IsStructured(const ValueType& t) { return !t.is_tensor(); }

// The control-flow ops carry tokens through their regions, and after_all
// and the transfers take and give them; their cases hold the tensors only
// (Case's structure), as the tuple ops' do.
bool CarriesTokens(const spec::OpSpec& op) {
  return op.name == "if" || op.name == "case" || op.name == "while" || op.name == "after_all" ||
         TransferOf(op.name) != Transfer::kNone;
}

// Quantized tensors carry data for the ops whose quantized form the oracle
// computes (spec::ComputesOnQuantized).
bool Carried(const spec::OpSpec& op, const ValueType& t) {
  return IsPlainTensor(t) || PassesValuesThrough(op) ||
         (CarriesTokens(op) && t.kind == ValueType::Kind::kToken) ||
         (spec::ComputesOnQuantized(op.quantized_semantics) && t.is_tensor());
}

// Draws the values of a "data" region body's constants (region_bodies.h).
void FillDataConstants(Region& region, DataPolicy policy) {
  for (Block& block : region.blocks) {
    for (Operation& op : block.operations) {
      if (op.name != "stablehlo.constant" || op.result_types.size() != 1) continue;
      std::vector<Tensor> value;
      AppendLeafData(op.result_types[0], policy, &value);
      if (value.size() == 1) op.attributes["value"] = std::move(value[0]);
    }
  }
}

// Data for a runnable case, else the reason.
void AddData(const spec::OpSpec& op, const GenerationOptions& options, GeneratedCase& g) {
  bool structured = false;
  for (const auto& group : g.instance.operands) {
    for (const ValueType& t : group) {
      structured = structured || IsStructured(t);
      if (!Carried(op, t)) {
        g.not_runnable = "operand of type " + t.ToString() + " (only plain tensors carry data)";
        return;
      }
    }
  }
  bool structured_results = false;
  for (const auto& group : g.instance.results) {
    for (const ValueType& t : group) {
      structured_results = structured_results || IsStructured(t);
      if (!Carried(op, t)) {
        g.not_runnable = "result of type " + t.ToString();
        return;
      }
    }
  }
  g.plain_tensors = true;
  if (!options.with_data) {
    g.not_runnable = "generated without data";
    return;
  }
  Case c;
  c.op = op.name;
  // The policies the case's generation knew (a key of version 2 drew from
  // three).
  std::vector<DataPolicy> policies;
  const std::vector<DataPolicy> known = DataPoliciesOfVersion(options.version);
  for (DataPolicy p : options.data_policies) {
    if (std::find(known.begin(), known.end(), p) != known.end()) policies.push_back(p);
  }
  if (policies.empty()) policies = known;
  DataPolicy policy = Choose(rc::gen::elementOf(policies));
  // Index operands are drawn around the largest dimension of the case, so
  // that they land inside, at and beyond every bound the spec clamps at.
  int64_t bound = 1;
  for (const auto& group : g.instance.operands) {
    for (const ValueType& t : group) {
      for (int64_t d : t.shape) bound = std::max(bound, d);
    }
  }
  bool variadic = false;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    variadic = variadic || op.operands[i].variadic;
    bool indices = op.operands[i].data == "indices" && Choose(rc::gen::inRange(0, 4)) != 0;
    // Init values are the body's identity three times in four; otherwise
    // data like any other, which the spec makes implementation-defined.
    bool identity = op.operands[i].data == "identity" && !g.region_kinds.empty() &&
                    Choose(rc::gen::inRange(0, 4)) != 0;
    // Matrices the linear algebra ops are defined on three times in four;
    // otherwise data like any other (not positive definite, singular: the
    // spec leaves those undefined).
    std::optional<MatrixKind> matrix;
    if ((op.operands[i].data == "positive_definite" || op.operands[i].data == "triangular") &&
        Choose(rc::gen::inRange(0, 4)) != 0) {
      matrix = op.operands[i].data == "triangular" ? MatrixKind::kTriangular
                                                   : MatrixKind::kPositiveDefinite;
    }
    // The loop counter of a while whose cond counts (counter_in_range).
    std::optional<size_t> counter;
    if (op.operands[i].data == "loop_counter" && !g.region_kinds.empty() &&
        g.region_kinds[0] == "counter_in_range") {
      counter = LoopCounterArgument(g.instance.operands[i]);
    }
    for (size_t j = 0; j < g.instance.operands[i].size(); ++j) {
      const ValueType& t = g.instance.operands[i][j];
      if (structured) c.operand_structure.push_back(t);
      if (counter == j) {
        const CounterRange range = CounterRangeOf(t.element_type);
        if (std::optional<Tensor> start = Choose(LoopCounterData(t.tensor(), range.lo, range.hi))) {
          c.operands.push_back(*std::move(start));
          continue;
        }
      }
      // The identity of the first region body that has one (reduce's body,
      // select_and_scatter's scatter after its select).
      std::optional<Tensor> identity_value;
      for (size_t r = 0; identity && t.is_tensor() && !identity_value && r < g.region_kinds.size();
           ++r) {
        identity_value = IdentityOfBody(g.region_kinds[r], t.tensor());
      }
      if (identity_value) {
        c.operands.push_back(*std::move(identity_value));
      } else if (matrix && IsPlainTensor(t)) {
        const auto unit = g.instance.attributes.find("unit_diagonal");
        const bool unit_diagonal = unit != g.instance.attributes.end() &&
                                   std::holds_alternative<bool>(unit->second) &&
                                   std::get<bool>(unit->second);
        c.operands.push_back(Choose(MatrixData(t.tensor(), *matrix, unit_diagonal)));
      } else if (indices && IsPlainTensor(t)) {
        c.operands.push_back(*IndexData(t.tensor(), bound));
      } else {
        AppendLeafData(t, policy, &c.operands);
      }
    }
    c.operand_segments.push_back(static_cast<int64_t>(g.instance.operands[i].size()));
  }
  if (!variadic) c.operand_segments.clear();
  bool variadic_results = false;
  for (size_t i = 0; i < op.results.size(); ++i) {
    variadic_results = variadic_results || op.results[i].variadic;
    for (const ValueType& t : g.instance.results[i]) {
      if (structured_results) c.result_structure.push_back(t);
      AppendLeafTypes(t, &c.result_types);
    }
    c.result_segments.push_back(static_cast<int64_t>(g.instance.results[i].size()));
  }
  if (!variadic_results) c.result_segments.clear();
  // A message across the op's boundary: infeed's and recv's arrives, drawn
  // like operands; outfeed's and send's leaves, observed after the results.
  if (TransferOf(op.name) == Transfer::kIncoming) {
    for (const TensorType& type : c.result_types) c.incoming.push_back(LeafData(type, policy));
  } else if (TransferOf(op.name) == Transfer::kOutgoing) {
    for (const Tensor& t : c.operands) c.result_types.push_back(t.type());
    c.outgoing = static_cast<int64_t>(c.operands.size());
  }
  // On a grid every process has operands of its own, drawn alike, and the
  // same result types (Case's process order).
  if (const int64_t processes = g.instance.num_replicas * g.instance.num_partitions;
      processes > 1) {
    c.num_replicas = g.instance.num_replicas;
    c.num_partitions = g.instance.num_partitions;
    const std::vector<Tensor> first = c.operands;
    const std::vector<TensorType> types = c.result_types;
    for (int64_t p = 1; p < processes; ++p) {
      for (const Tensor& t : first) c.operands.push_back(LeafData(t.type(), policy));
      c.result_types.insert(c.result_types.end(), types.begin(), types.end());
    }
  }
  c.attributes = g.instance.attributes;
  c.regions = g.regions;
  for (size_t r = 0; r < c.regions.size() && r < g.region_kinds.size(); ++r) {
    if (HasDataConstants(g.region_kinds[r])) FillDataConstants(c.regions[r], policy);
  }
  bool variadic_regions = false;
  for (const spec::RegionSpec& r : op.regions) variadic_regions = variadic_regions || r.variadic;
  if (variadic_regions) c.region_segments = g.region_segments;
  g.runnable = std::move(c);
}

GeneratedCase BuildGenerated(const spec::OpSpec& op, const GenerationOptions& options) {
  if (op.recipe.empty()) Fail(op, "the op has no recipe");
  for (int attempt = 0; attempt < options.max_attempts; ++attempt) {
    try {
      GeneratedCase g = DrawInstance(op, options);
      g.discards = attempt;
      AddData(op, options, g);
      return g;
    } catch (const Rejected&) {
    }
  }
  Fail(op, "the recipe's assume steps rejected " + std::to_string(options.max_attempts) +
               " draws in a row");
}

}  // namespace

std::span<const int64_t> KernelBoundarySizes() {
  static constexpr int64_t kSizes[] = {3,  5,  7,  8,  9,   15,  16,  17,  31,  32,
                                       33, 63, 64, 65, 127, 128, 129, 255, 256, 257};
  return kSizes;
}

const spec::ValueSpec* PrimaryValue(const spec::OpSpec& op) {
  if (!op.operands.empty() && !op.operands[0].types.element_types.empty()) return &op.operands[0];
  // An op whose first operand is a token (recv, infeed) takes its type from
  // its first result (the payload); one without a typed result has none.
  if (!op.results.empty() && !op.results[0].types.element_types.empty()) return &op.results[0];
  return nullptr;
}

std::vector<ElementType> PrimaryTypes(const spec::OpSpec& op) {
  const spec::ValueSpec* primary = PrimaryValue(op);
  return primary == nullptr ? std::vector<ElementType>{} : primary->types.element_types;
}

rc::Gen<GeneratedCase> GeneratedCaseGenerator(const spec::OpSpec& op,
                                              const GenerationOptions& options) {
  return rc::gen::exec([&op, options] { return BuildGenerated(op, options); });
}

rc::Shrinkable<GeneratedCase> GenerateInstance(const spec::OpSpec& op,
                                               const GenerationOptions& options, uint64_t seed,
                                               int size) {
  return GeneratedCaseGenerator(op, options)(rc::Random(seed), size);
}

rc::Gen<Case> CaseGenerator(const spec::OpSpec& op, const GenerationOptions& options) {
  rc::Gen<Case> cases = rc::gen::exec([&op, options] {
    GeneratedCase g = BuildGenerated(op, options);
    if (!g.runnable) throw NotRunnable(op.name + " case not runnable: " + g.not_runnable);
    return *std::move(g.runnable);
  });
  const bool halves_first = options.halves_first;
  return rc::Gen<Case>([&op, cases, halves_first](const rc::Random& random, int size) {
    return WithElementHalving(op, cases(random, size), halves_first);
  });
}

rc::Shrinkable<Case> GenerateCase(const spec::OpSpec& op, const GenerationOptions& options,
                                  uint64_t seed, int size) {
  return CaseGenerator(op, options)(rc::Random(seed), size);
}

Operation GeneratedOperation(const spec::OpSpec& op, const GeneratedCase& g) {
  Operation operation;
  operation.name = "stablehlo." + op.name;
  ValueId next = 0;
  for (const auto& group : g.instance.operands) {
    for (const ValueType& t : group) {
      operation.operands.push_back(next++);
      operation.operand_types.push_back(t);
    }
  }
  for (const auto& group : g.instance.results) {
    for (const ValueType& t : group) {
      operation.results.push_back(next++);
      operation.result_types.push_back(t);
    }
  }
  operation.attributes = g.instance.attributes;
  operation.regions = g.regions;
  for (Region& region : operation.regions) ShiftValueIds(region, next);
  return operation;
}

}  // namespace hlocheck
