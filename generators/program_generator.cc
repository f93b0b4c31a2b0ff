#include "generators/program_generator.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <random>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "generators/case_generator.h"

namespace hlocheck {
namespace {

// Left out of programs (ProgramOps).
const std::set<std::string>& ExcludedOps() {
  static const auto* excluded = new std::set<std::string>{
      // Tokens and tuples: values no backend returns at @main's boundary;
      // tuples come in as round trips (TupleRoundTrip), their elements
      // plain tensors that can be outputs.
      "after_all", "create_token", "tuple", "get_tuple_element",
      // Data crossing the program's boundary while it runs.
      "infeed", "outfeed", "send", "recv",
      // The collectives and the process ids need a grid of processes.
      "all_gather", "all_reduce", "all_to_all", "collective_broadcast", "collective_permute",
      "collective_reduce", "reduce_scatter", "replica_id", "partition_id",
      // A distribution, not values: nothing downstream could be compared.
      "rng",
      // Functions and targets of their own.
      "call", "custom_call", "composite"};
  return *excluded;
}

// Ops whose operands must keep the data their recipe drew: a while loop's
// initial values decide whether it terminates.
bool KeepsItsOwnData(const std::string& op) { return op == "while"; }

uint64_t Mix(uint64_t a, uint64_t b) {
  uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The element types programs prefer to stay in, so that values connect
// without a convert between every op.
constexpr ElementType kFavouriteTypes[] = {
    ElementType::kF32,  ElementType::kF16, ElementType::kBF16, ElementType::kF64,
    ElementType::kSI32, ElementType::kSI8, ElementType::kUI8,  ElementType::kI1};

// The least and greatest values of type `from` (as 0-dimensional tensors of
// it) that convert to integer type `to` within its range, where some value
// of `from` does not: for a float type (the integer ends rounded towards
// zero; a NaN still passes), or a wider or differently signed integer
// type. None where no clamp is needed or `from` cannot hold them.
std::optional<std::pair<Tensor, Tensor>> RangeOf(ElementType from, ElementType to) {
  if (!IsInteger(to) || to == ElementType::kI1) return std::nullopt;
  const int bits = BitWidth(to);
  const __int128 to_min = IsSignedInt(to) ? -(__int128{1} << (bits - 1)) : 0;
  const __int128 to_max =
      IsSignedInt(to) ? (__int128{1} << (bits - 1)) - 1 : (__int128{1} << bits) - 1;
  auto exact = [](__int128 x) {
    return x < 0 ? ExactValue::FromInt64(static_cast<int64_t>(x))
                 : ExactValue::FromUint64(static_cast<uint64_t>(x));
  };
  Tensor low(TensorType{{}, from}), high(TensorType{{}, from});
  if (IsFloat(from)) {
    const FloatFormat& format = Format(from);
    if (!format.has_zero_and_subnormals) return std::nullopt;
    uint8_t flags = 0;
    const uint64_t low_bits = EncodeFloat(format, exact(to_min), RoundingMode::kTowardZero, &flags);
    const uint64_t high_bits =
        EncodeFloat(format, exact(to_max), RoundingMode::kTowardZero, &flags);
    if (flags & kConversionUnrepresentable) return std::nullopt;
    const size_t bytes = static_cast<size_t>(ContainerBytes(from));
    std::memcpy(low.bytes().data(), &low_bits, bytes);
    std::memcpy(high.bytes().data(), &high_bits, bytes);
    return std::make_pair(std::move(low), std::move(high));
  }
  if (!IsInteger(from) || from == ElementType::kI1) return std::nullopt;
  const int from_bits = BitWidth(from);
  const __int128 from_min = IsSignedInt(from) ? -(__int128{1} << (from_bits - 1)) : 0;
  const __int128 from_max =
      IsSignedInt(from) ? (__int128{1} << (from_bits - 1)) - 1 : (__int128{1} << from_bits) - 1;
  if (from_min >= to_min && from_max <= to_max) return std::nullopt;
  for (auto [x, t] : {std::pair{std::max(from_min, to_min), &low},
                      std::pair{std::min(from_max, to_max), &high}}) {
    const bool negative = x < 0;
    const int64_t signed_value = static_cast<int64_t>(x);
    const uint64_t unsigned_value = static_cast<uint64_t>(x);
    ConvertElements(negative ? ElementType::kSI64 : ElementType::kUI64,
                    negative ? static_cast<const void*>(&signed_value)
                             : static_cast<const void*>(&unsigned_value),
                    from, t->raw(), 1);
  }
  return std::make_pair(std::move(low), std::move(high));
}

// A quantized tensor's values, (q - zero_point) * scale, in its expressed
// type.
Tensor Dequantized(const Tensor& q) {
  const UniformQuantization& u = *q.type().quantization;
  const Shape& shape = q.shape();
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  Tensor wide(shape, ElementType::kF64);
  auto out = wide.values<ElementType::kF64>();
  DispatchElementType(q.element_type(), [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      auto in = q.values<T>();
      for (size_t i = 0; i < in.size(); ++i) {
        size_t k = 0;
        if (u.quantization_dimension) {
          const size_t d = static_cast<size_t>(*u.quantization_dimension);
          k = static_cast<size_t>((static_cast<int64_t>(i) / strides[d]) % shape[d]);
        }
        const int64_t value = static_cast<int64_t>(IntegerBits<T>(in[i]));
        out[i] = static_cast<double>(value - u.zero_points[k]) * u.scales[k];
      }
    }
  });
  Tensor expressed(TensorType{shape, u.expressed_type});
  ConvertElements(ElementType::kF64, wide.raw(), u.expressed_type, expressed.raw(),
                  wide.num_elements());
  return expressed;
}

// One op of @main (without regions, of plain tensors) moved into a private
// function @callee that @main calls instead (func.call, or half the time a
// stablehlo.composite whose decomposition it is: compilers inline it);
// nullopt where none qualifies.
std::optional<Function> Outline(Function& main, std::mt19937_64& random) {
  Block& block = main.body.blocks[0];
  std::vector<size_t> candidates;
  for (size_t i = 0; i + 1 < block.operations.size(); ++i) {
    const Operation& op = block.operations[i];
    bool plain = op.regions.empty() && op.name != "stablehlo.constant" && !op.results.empty();
    for (const auto* types : {&op.operand_types, &op.result_types}) {
      for (const ValueType& t : *types) plain = plain && t.is_tensor();
    }
    if (plain) candidates.push_back(i);
  }
  if (candidates.empty()) return std::nullopt;
  Operation& op = block.operations[candidates[random() % candidates.size()]];
  Function callee;
  callee.name = "callee";
  callee.is_public = false;
  Block body;
  ValueId next = MaxValueId(main.body) + 1;
  Operation inner = op;
  for (size_t k = 0; k < op.operands.size(); ++k) {
    body.arguments.push_back(next);
    body.argument_types.push_back(op.operand_types[k]);
    inner.operands[k] = next++;
  }
  Operation ret;
  ret.name = "func.return";
  ret.operands = op.results;
  ret.operand_types = op.result_types;
  body.operations = {std::move(inner), std::move(ret)};
  callee.type.inputs = body.argument_types;
  callee.type.outputs = op.result_types;
  callee.body.blocks = {std::move(body)};
  // @main's op becomes the call, with the same operands and results.
  Operation call;
  call.operands = op.operands;
  call.operand_types = op.operand_types;
  call.results = op.results;
  call.result_types = op.result_types;
  if (random() % 2 == 0) {
    call.name = "func.call";
    call.attributes["callee"] = std::string("callee");
  } else {
    call.name = "stablehlo.composite";
    call.attributes["name"] = std::string("hlocheck.outlined");
    call.attributes["decomposition"] = std::string("callee");
  }
  op = std::move(call);
  RenumberValues(callee);  // its own numbering, as it reads back
  return callee;
}

class ProgramBuilder {
 public:
  ProgramBuilder(const ProgramOptions& options, std::mt19937_64& random)
      : options_(options), random_(random) {}

  struct Snapshot {
    size_t operations, arguments, values;
    ValueId next;
    std::vector<int> uses;
  };
  Snapshot Save() const {
    return {block_.operations.size(), arguments_.size(), values_.size(), next_, uses_};
  }
  void Restore(const Snapshot& s) {
    block_.operations.resize(s.operations);
    block_.arguments.resize(s.arguments);
    block_.argument_types.resize(s.arguments);
    arguments_.resize(s.arguments);
    values_.resize(s.values);
    next_ = s.next;
    uses_ = s.uses;
  }

  bool Transferable(ElementType type) const {
    return !options_.transferable || options_.transferable(type);
  }

  // A quantized operand's data enters as its values, quantized in the
  // program: quantized tensors stay inside @main (a compiler need not take
  // them at its boundary; XLA does not).
  ValueId NewQuantizedArgument(const Tensor& data) {
    const ValueId values = NewArgument(Dequantized(data));
    return Emit("uniform_quantize", {values}, {data.type()})[0];
  }

  ValueId NewArgument(Tensor data) {
    const ValueId id = next_++;
    block_.arguments.push_back(id);
    block_.argument_types.push_back(ValueType::Of(data.type()));
    arguments_.push_back(std::move(data));
    Remember(id, block_.argument_types.back().tensor(), /*is_argument=*/true);
    return id;
  }

  std::vector<ValueId> Emit(const std::string& op, const std::vector<ValueId>& operands,
                            const std::vector<TensorType>& results,
                            std::map<std::string, Attribute> attributes = {},
                            std::vector<Region> regions = {}, bool adaptation = true) {
    Operation operation;
    operation.name = "stablehlo." + op;
    operation.operands = operands;
    for (ValueId v : operands) {
      operation.operand_types.push_back(ValueType::Of(TypeOf(v)));
      ++uses_[static_cast<size_t>(IndexOf(v))];
    }
    for (const TensorType& type : results) {
      operation.results.push_back(next_++);
      operation.result_types.push_back(ValueType::Of(type));
    }
    operation.attributes = std::move(attributes);
    for (Region& region : regions) {
      ShiftValueIds(region, next_);
      next_ = std::max(next_, MaxValueId(region) + 1);
    }
    operation.regions = std::move(regions);
    block_.operations.push_back(operation);
    if (adaptation) ++adaptation_ops_;
    for (size_t i = 0; i < results.size(); ++i) Remember(operation.results[i], results[i], false);
    return operation.results;
  }

  // A tuple of one to three earlier values, and its elements read back out
  // (the first always, each other now and then) as new values: a
  // compiler's tuple simplification must keep them what they were.
  void TupleRoundTrip() {
    if (values_.empty()) return;
    const size_t count = 1 + Below(std::min<size_t>(3, values_.size()));
    Operation tuple;
    tuple.name = "stablehlo.tuple";
    std::vector<ValueType> elements;
    for (size_t k = 0; k < count; ++k) {
      const size_t pick = Chance(0.5) ? values_.size() - 1 : Below(values_.size());
      tuple.operands.push_back(values_[pick].id);
      elements.push_back(ValueType::Of(values_[pick].type));
      ++uses_[pick];
    }
    tuple.operand_types = elements;
    const ValueId t = next_++;
    tuple.results = {t};
    tuple.result_types = {ValueType::Tuple(elements)};
    block_.operations.push_back(std::move(tuple));
    ++adaptation_ops_;
    for (size_t k = 0; k < count; ++k) {
      if (k > 0 && !Chance(0.6)) continue;
      Operation get;
      get.name = "stablehlo.get_tuple_element";
      get.operands = {t};
      get.operand_types = {ValueType::Tuple(elements)};
      get.attributes["index"] = static_cast<int64_t>(k);
      const ValueId e = next_++;
      get.results = {e};
      get.result_types = {elements[k]};
      block_.operations.push_back(std::move(get));
      ++adaptation_ops_;
      Remember(e, elements[k].tensor(), false);
    }
  }

  // A value of type `to` made from `from`: itself, or through convert (real
  // first for a complex value going real), then reshape, slice or
  // broadcast_in_dim. Nullopt when no such chain exists (an empty value
  // cannot fill a non-empty one).
  std::optional<ValueId> Adapt(ValueId from, const TensorType& to) {
    ValueId v = from;
    TensorType current = TypeOf(from);
    if (current == to) return v;
    if (current.quantization) {
      // Its values, in the expressed type, first.
      TensorType expressed{current.shape, current.quantization->expressed_type};
      v = Emit("uniform_dequantize", {v}, {expressed})[0];
      current = expressed;
    }
    if (to.quantization) {
      // The values, in the expressed type and shape, then quantized.
      auto values = Adapt(v, TensorType{to.shape, to.quantization->expressed_type});
      if (!values) return std::nullopt;
      return Emit("uniform_quantize", {*values}, {to})[0];
    }
    if (current.element_type != to.element_type) {
      if (IsComplex(current.element_type) && !IsComplex(to.element_type)) {
        current.element_type = ComponentType(current.element_type);
        v = Emit("real", {v}, {current})[0];
      }
      if (current.element_type != to.element_type) {
        // Mostly clamped into the target's range first: the spec leaves a
        // conversion to an integer type out of range open, and all that
        // follows from it unchecked.
        if (auto range = RangeOf(current.element_type, to.element_type); range && Chance(0.9)) {
          TensorType scalar{{}, current.element_type};
          const ValueId low = Emit("constant", {}, {scalar}, {{"value", range->first}})[0];
          const ValueId high = Emit("constant", {}, {scalar}, {{"value", range->second}})[0];
          v = Emit("clamp", {low, v, high}, {current})[0];
        }
        current.element_type = to.element_type;
        v = Emit("convert", {v}, {current})[0];
      }
    }
    if (current.shape == to.shape) return v;
    const int64_t have = current.num_elements();
    const int64_t want = to.num_elements();
    if (have == want) return Emit("reshape", {v}, {to})[0];
    if (have == 0) return std::nullopt;
    if (current.rank() == to.rank() && Fits(to.shape, current.shape)) {
      return Slice(v, current, to);
    }
    if (current.rank() == 0) {
      return Emit("broadcast_in_dim", {v}, {to},
                  {{"broadcast_dimensions", std::vector<int64_t>{}}})[0];
    }
    TensorType flat{{have}, current.element_type};
    if (current.rank() != 1) v = Emit("reshape", {v}, {flat})[0];
    if (want > have) {
      const int64_t copies = (want + have - 1) / have;
      TensorType repeated{{copies, have}, current.element_type};
      v = Emit("broadcast_in_dim", {v}, {repeated},
               {{"broadcast_dimensions", std::vector<int64_t>{1}}})[0];
      flat = TensorType{{copies * have}, current.element_type};
      v = Emit("reshape", {v}, {flat})[0];
    }
    if (flat.shape[0] != want) v = Slice(v, flat, TensorType{{want}, current.element_type});
    if (to.rank() != 1) v = Emit("reshape", {v}, {to})[0];
    return v;
  }

  // An earlier value for an operand of type `want`: one of exactly that
  // type most of the time when there is one, else any value adapted.
  std::optional<ValueId> Reuse(const TensorType& want) {
    if (values_.empty()) return std::nullopt;
    std::vector<size_t> same;
    for (size_t i = 0; i < values_.size(); ++i) {
      if (values_[i].type == want) same.push_back(i);
    }
    if (!same.empty() && Chance(0.75)) return values_[same[Below(same.size())]].id;
    // Recent values more often, so that chains grow long.
    const size_t pick = Chance(0.5) ? values_.size() - 1 : Below(values_.size());
    return Adapt(values_[pick].id, want);
  }

  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(random_) < p; }
  size_t Below(size_t n) { return static_cast<size_t>(random_() % n); }

  // The outputs: every value no op uses, and now and then one that some do.
  void Finish(Function& main) {
    std::vector<ValueId> outputs;
    for (size_t i = 0; i < values_.size(); ++i) {
      if (values_[i].is_argument || !Transferable(values_[i].type.element_type) ||
          values_[i].type.quantization) {
        continue;
      }
      if (uses_[i] == 0 || Chance(options_.extra_output)) outputs.push_back(values_[i].id);
    }
    if (outputs.empty()) {
      // Nothing transferable came out: convert the last value to a type
      // that is.
      for (ElementType type : {ElementType::kF32, ElementType::kSI32}) {
        if (!Transferable(type) || values_.empty()) continue;
        TensorType to = values_.back().type;
        to.element_type = type;
        to.quantization.reset();  // its values, dequantized and converted
        if (auto v = Adapt(values_.back().id, to)) outputs.push_back(*v);
        break;
      }
    }
    Operation ret;
    ret.name = "func.return";
    for (ValueId v : outputs) {
      ret.operands.push_back(v);
      ret.operand_types.push_back(ValueType::Of(TypeOf(v)));
    }
    block_.operations.push_back(ret);
    main.name = "main";
    main.type.inputs = block_.argument_types;
    main.type.outputs = ret.operand_types;
    main.body.blocks = {std::move(block_)};
    RenumberValues(main);
  }

  std::vector<Tensor> TakeArguments() { return std::move(arguments_); }
  int adaptation_ops() const { return adaptation_ops_; }
  bool empty() const { return values_.empty(); }

 private:
  struct Value {
    ValueId id;
    TensorType type;
    bool is_argument;
  };

  static bool Fits(const Shape& inner, const Shape& outer) {
    for (size_t d = 0; d < inner.size(); ++d) {
      if (inner[d] > outer[d]) return false;
    }
    return true;
  }

  ValueId Slice(ValueId v, const TensorType& from, const TensorType& to) {
    std::vector<int64_t> start, limit, strides;
    for (int64_t d = 0; d < from.rank(); ++d) {
      const int64_t slack = from.shape[d] - to.shape[d];
      start.push_back(slack == 0 ? 0 : static_cast<int64_t>(Below(slack + 1)));
      limit.push_back(start.back() + to.shape[d]);
      strides.push_back(1);
    }
    return Emit("slice", {v}, {to},
                {{"start_indices", start}, {"limit_indices", limit}, {"strides", strides}})[0];
  }

  void Remember(ValueId id, const TensorType& type, bool is_argument) {
    values_.push_back({id, type, is_argument});
    uses_.push_back(0);
  }
  int64_t IndexOf(ValueId id) const {
    for (size_t i = values_.size(); i-- > 0;) {
      if (values_[i].id == id) return static_cast<int64_t>(i);
    }
    return -1;
  }
  const TensorType& TypeOf(ValueId id) const { return values_[IndexOf(id)].type; }

  const ProgramOptions& options_;
  std::mt19937_64& random_;
  Block block_;
  std::vector<Tensor> arguments_;
  std::vector<Value> values_;
  std::vector<int> uses_;
  ValueId next_ = 0;
  int adaptation_ops_ = 0;
};

}  // namespace

std::vector<std::string> ProgramOps(const spec::SpecRegistry& registry) {
  std::vector<std::string> ops;
  for (const spec::OpSpec& op : registry.ops()) {
    if (!ExcludedOps().count(op.name)) ops.push_back(op.name);
  }
  return ops;
}

const Function& MainOf(const Module& module) { return *module.Find("main"); }
Function& MainOf(Module& module) { return const_cast<Function&>(*module.Find("main")); }

absl::StatusOr<GeneratedProgram> GenerateProgram(const spec::SpecRegistry& registry,
                                                 const ProgramOptions& options, uint64_t seed) {
  const std::vector<std::string> ops = options.ops.empty() ? ProgramOps(registry) : options.ops;
  if (ops.empty()) return absl::InvalidArgumentError("no ops to draw programs from");
  std::mt19937_64 random(Mix(seed, 0x70726f67));
  ProgramBuilder builder(options, random);
  GeneratedProgram program;
  const int count =
      options.min_ops + static_cast<int>(random() % static_cast<uint64_t>(std::max(
                                                        1, options.max_ops - options.min_ops + 1)));
  const ElementType favourite = kFavouriteTypes[random() % std::size(kFavouriteTypes)];
  constexpr int kAttemptsPerOp = 20;
  for (int step = 0; step < count; ++step) {
    if (!builder.empty() && builder.Chance(0.08)) builder.TupleRoundTrip();
    for (int attempt = 0; attempt < kAttemptsPerOp; ++attempt) {
      const spec::OpSpec* op = registry.Find(ops[random() % ops.size()]);
      if (op == nullptr) continue;
      std::vector<ElementType> types;
      for (ElementType type : PrimaryTypes(*op)) {
        if (!options.element_types.empty() && !options.element_types.count(type)) continue;
        if (!options.op_allowed || options.op_allowed(op->name, type)) types.push_back(type);
      }
      if (types.empty() && !PrimaryTypes(*op).empty()) continue;
      if (types.empty() && !options.element_types.empty()) continue;
      GenerationOptions generation;
      generation.max_elements = options.max_elements;
      generation.max_rank = options.max_rank;
      if (!types.empty()) {
        const bool favoured = std::find(types.begin(), types.end(), favourite) != types.end();
        generation.primary_type =
            favoured && builder.Chance(0.6) ? favourite : types[random() % types.size()];
      }
      Case c;
      try {
        c = GenerateCase(*op, generation, Mix(seed, static_cast<uint64_t>(step * 64 + attempt)),
                         static_cast<int>(random() % 100))
                .value();
      } catch (...) {
        continue;  // not runnable, or the recipe gave up: draw another
      }
      if (!c.operand_structure.empty() || !c.result_structure.empty() || c.ProcessCount() != 1 ||
          !c.incoming.empty() || c.outgoing != 0) {
        continue;
      }
      // Of a type the program may not have (a quantized one's storage and
      // expressed types), or quantized where the profile refuses it.
      bool outside = false;
      auto check = [&](const TensorType& type) {
        auto excluded = [&](ElementType t) {
          return !options.element_types.empty() && !options.element_types.count(t);
        };
        auto refused = [&](const std::string& name) {
          return options.quantized_allowed && !options.quantized_allowed(name);
        };
        outside =
            outside || excluded(type.element_type) ||
            (type.quantization &&
             (excluded(type.quantization->expressed_type) || !options.quantized ||
              refused(op->name) || refused("uniform_quantize") || refused("uniform_dequantize")));
      };
      for (const Tensor& operand : c.operands) check(operand.type());
      for (const TensorType& result : c.result_types) check(result);
      if (outside) continue;
      const ProgramBuilder::Snapshot before = builder.Save();
      std::vector<ValueId> operands;
      bool wired = true;
      for (const Tensor& operand : c.operands) {
        std::optional<ValueId> v;
        const bool must_reuse = !builder.Transferable(operand.element_type());
        if (!KeepsItsOwnData(op->name) && (must_reuse || builder.Chance(options.reuse))) {
          v = builder.Reuse(operand.type());
        }
        if (!v && !must_reuse) {
          v = operand.type().quantization ? builder.NewQuantizedArgument(operand)
                                          : builder.NewArgument(operand);
        }
        if (!v) {
          wired = false;
          break;
        }
        operands.push_back(*v);
      }
      bool results_ok = true;
      for (const TensorType& result : c.result_types) {
        results_ok = results_ok && result.num_elements() <= options.max_elements;
      }
      if (!wired || !results_ok) {
        builder.Restore(before);
        continue;
      }
      builder.Emit(op->name, operands, c.result_types, c.attributes, c.regions,
                   /*adaptation=*/false);
      program.drawn_ops.push_back(op->name);
      break;
    }
  }
  if (builder.empty()) return absl::InternalError("no op could be drawn for the program");
  Function main;
  builder.Finish(main);
  // Now and then one op moves into a function of its own that @main calls
  // (a compiler inlines, outlines or specializes calls).
  std::optional<Function> callee;
  if (builder.Chance(options.call)) callee = Outline(main, random);
  program.module.functions.push_back(std::move(main));
  program.arguments = builder.TakeArguments();
  program.adaptation_ops = builder.adaptation_ops();
  if (callee) {
    program.module.functions.push_back(std::move(*callee));
    ++program.adaptation_ops;  // the call
  }
  return program;
}

}  // namespace hlocheck
