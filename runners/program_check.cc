#include "runners/program_check.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

#include "absl/status/status.h"
#include "core/exact_value.h"
#include "oracle/interpreter.h"
#include "runners/deviations.h"

namespace hlocheck {
namespace {

// What a float element is, for the deviations that depend on it.
enum : uint8_t { kSubnormal = 1, kNaN = 2, kNearUnderflow = 4 };

// Per element (both parts of a complex one): subnormal, NaN, or of
// magnitude at most twice the smallest normal (zero included), where a
// result with freedom may land on a subnormal a flushing backend zeroes.
std::vector<uint8_t> FloatClasses(const Tensor& tensor) {
  std::vector<uint8_t> classes(static_cast<size_t>(tensor.num_elements()), 0);
  const ElementType type = tensor.element_type();
  if (!IsFloat(type) && !IsComplex(type)) return classes;
  const FloatFormat& format = Format(IsComplex(type) ? ComponentType(type) : type);
  const int parts = IsComplex(type) ? 2 : 1;
  const size_t bytes = static_cast<size_t>(ContainerBytes(type)) / static_cast<size_t>(parts);
  const std::span<const std::byte> storage = tensor.bytes();
  const uint64_t exponent_mask = format.exponent_field_max() << format.mantissa_bits;
  for (size_t i = 0; i < classes.size(); ++i) {
    for (int part = 0; part < parts; ++part) {
      uint64_t bits = 0;
      std::memcpy(&bits, storage.data() + (i * static_cast<size_t>(parts) + part) * bytes, bytes);
      const uint64_t exponent = (bits & exponent_mask) >> format.mantissa_bits;
      const uint64_t mantissa = bits & format.mantissa_mask();
      if (IsNaNBits(format, bits)) classes[i] |= kNaN;
      if (!format.has_zero_and_subnormals) continue;
      if (IsSubnormal(format, bits)) classes[i] |= kSubnormal;
      if (exponent <= 1 || (exponent == 2 && mantissa == 0)) classes[i] |= kNearUnderflow;
    }
  }
  return classes;
}

bool IsElementwise(const spec::OpSpec& op) {
  return op.category == "elementwise" || op.name == "map";
}

// Folds per-element facts of the operands into a result of `result_size`
// elements: element by element from an operand of the result's shape
// (elementwise ops), as a whole from any other operand.
template <typename T>
std::vector<T> Inherit(bool elementwise, const Shape& result_shape, int64_t result_size,
                       const std::vector<const Tensor*>& operands,
                       const std::vector<std::vector<T>>& facts) {
  std::vector<T> inherited(static_cast<size_t>(result_size), 0);
  for (size_t k = 0; k < operands.size(); ++k) {
    const std::vector<T>& f = facts[k];
    if (elementwise && operands[k]->shape() == result_shape) {
      for (size_t i = 0; i < inherited.size(); ++i) inherited[i] |= f[i];
    } else {
      T any = 0;
      for (T x : f) any |= x;
      for (T& x : inherited) x |= any;
    }
  }
  return inherited;
}

bool HasFreedom(const ResultExpectation& e) {
  return !(e.check == Check::kExact || (e.check == Check::kUlp && e.allowed_ulp == 0)) ||
         e.FreeCount() > 0 || e.permutable != nullptr || e.distribution != nullptr ||
         e.other_reading != nullptr;
}

// The elements of a result the op itself leaves open.
std::vector<uint8_t> OwnFreedom(const ResultExpectation& e) {
  const size_t n = static_cast<size_t>(e.reference.num_elements());
  std::vector<uint8_t> open(n, 0);
  const bool approximate =
      !(e.check == Check::kExact || (e.check == Check::kUlp && e.allowed_ulp == 0));
  for (size_t i = 0; i < n; ++i) {
    open[i] = approximate || e.distribution != nullptr || (i < e.free.size() && e.free[i] != 0) ||
              (e.permutable && i < e.permutable->run.size() && e.permutable->run[i] >= 0) ||
              (i < e.reading_differs.size() && e.reading_differs[i] != 0);
  }
  return open;
}

class ProgramTracer {
 public:
  ProgramTracer(const spec::SpecRegistry& registry, const BackendProfile* profile,
                const Module& module, const Block& main)
      : registry_(registry), profile_(profile), module_(module) {
    for (size_t i = 0; i < main.operations.size(); ++i) {
      top_level_[&main.operations[i]] = i;
      for (const Region& region : main.operations[i].regions) Nest(region, i);
      NestCallee(main.operations[i], i);
    }
  }

  // The oracle's runs of an op on its operands' bounds go through these.
  void set_corners(const Oracle* oracle, Interpreter* interpreter) {
    oracle_ = oracle;
    interpreter_ = interpreter;
  }

  void Argument(ValueId id, const Tensor& value) {
    const size_t n = static_cast<size_t>(value.num_elements());
    facts_[id] = ValueFacts{value,
                            std::vector<uint8_t>(n, 1),
                            std::vector<uint64_t>(n, 0),
                            ElementBounds::Exact(value),
                            {}};
    arguments_.insert(id);
  }

  void Observe(const Operation& op, const std::vector<ResultExpectation>& expectations) {
    if (top_level_.count(&op)) {
      expectations_[&op] = expectations;
      return;
    }
    auto nested = nested_in_.find(&op);
    if (nested == nested_in_.end()) return;
    for (const ResultExpectation& e : expectations) {
      if (HasFreedom(e)) inexact_inside_.insert(nested->second);
    }
  }

  void Values(const Operation& op, const std::vector<RuntimeValue>& operands,
              const std::vector<RuntimeValue>& results) {
    auto top = top_level_.find(&op);
    if (top == top_level_.end()) return;
    if (op.name == "stablehlo.tuple" && op.results.size() == 1) {
      tuple_elements_[op.results[0]] = op.operands;  // followed into get_tuple_element
      return;
    }
    std::vector<const Tensor*> operand_tensors;
    std::vector<std::vector<uint8_t>> open;
    std::vector<std::vector<uint64_t>> deviations;
    bool all_determined = true;
    for (size_t k = 0; k < op.operands.size(); ++k) {
      auto f = facts_.find(op.operands[k]);
      if (f == facts_.end() || !operands[k].type.is_tensor()) {
        // A token or tuple: nothing to follow element by element.
        all_determined = false;
        continue;
      }
      operand_tensors.push_back(&f->second.value);
      std::vector<uint8_t> o(f->second.determined.size());
      for (size_t i = 0; i < o.size(); ++i) o[i] = f->second.determined[i] ? 0 : 1;
      for (uint8_t x : o) all_determined = all_determined && x == 0;
      open.push_back(std::move(o));
      deviations.push_back(f->second.deviations);
    }
    auto expectations = expectations_.find(&op);
    const std::string mnemonic = op.name.rfind("stablehlo.", 0) == 0 ? op.name.substr(10) : "";
    const spec::OpSpec* spec = registry_.Find(mnemonic);
    const bool elementwise_op = spec != nullptr && IsElementwise(*spec);
    // Ops that only move data: which operand element each result element
    // is, so that facts follow elements rather than whole values.
    std::optional<std::vector<ElementSource>> sources;
    if (!all_determined && expectations != expectations_.end() &&
        operand_tensors.size() == op.operands.size()) {
      sources = Sources(op, operands, mnemonic, open);
    }
    std::vector<ElementBounds> carried;  // per result, where inputs are not fixed
    std::vector<std::vector<uint8_t>> unbounded;
    if (!all_determined && expectations != expectations_.end() && !sources) {
      carried = CarriedBounds(op, operands, mnemonic, elementwise_op, unbounded);
    }
    for (size_t r = 0; r < results.size(); ++r) {
      if (!results[r].type.is_tensor()) continue;
      const Tensor& value = results[r].tensor;
      const int64_t n = value.num_elements();
      if (op.name == "stablehlo.get_tuple_element" && op.operands.size() == 1 &&
          tuple_elements_.count(op.operands[0])) {
        // The element's facts, as it came into the tuple.
        auto index = op.attributes.find("index");
        const std::vector<ValueId>& elements = tuple_elements_[op.operands[0]];
        const int64_t* k =
            index == op.attributes.end() ? nullptr : std::get_if<int64_t>(&index->second);
        if (k != nullptr && *k >= 0 && static_cast<size_t>(*k) < elements.size() &&
            facts_.count(elements[static_cast<size_t>(*k)])) {
          const ValueId element = elements[static_cast<size_t>(*k)];
          facts_[op.results[r]] = facts_[element];
          if (output_expectations_.count(element)) {
            output_expectations_[op.results[r]] = output_expectations_[element];
          }
          continue;
        }
      }
      if (op.name == "stablehlo.optimization_barrier" && r < op.operands.size() &&
          facts_.count(op.operands[r])) {
        facts_[op.results[r]] = facts_[op.operands[r]];
        if (output_expectations_.count(op.operands[r])) {
          output_expectations_[op.results[r]] = output_expectations_[op.operands[r]];
        }
        continue;
      }
      const bool elementwise = spec != nullptr && IsElementwise(*spec);
      std::vector<uint8_t> inherited;
      std::vector<uint64_t> reach;
      if (sources) {
        inherited = FromSources(*sources, open);
        reach = FromSources(*sources, deviations);
      } else {
        inherited = Inherit<uint8_t>(elementwise, value.shape(), n, operand_tensors, open);
        reach = Inherit<uint64_t>(elementwise, value.shape(), n, operand_tensors, deviations);
      }
      ResultExpectation expectation;
      const ResultExpectation* expectation_of_op = nullptr;
      std::vector<uint8_t> own(static_cast<size_t>(n), 0);
      if (expectations != expectations_.end() && r < expectations->second.size()) {
        expectation = expectations->second[r];
        expectation_of_op = &expectations->second[r];
        own = OwnFreedom(expectation);
      } else {
        // Evaluated by the interpreter itself (constant, while, if, case):
        // exact, unless an op inside it has freedom, or it reads a value
        // that is not fixed (a loop's trip count may depend on it).
        expectation.reference = value;
        expectation.check = Check::kExact;
        const bool inexact = inexact_inside_.count(top->second) > 0 || !all_determined;
        std::fill(own.begin(), own.end(), inexact ? 1 : 0);
        if (inexact) {
          // Its value is not the spec's alone: not compared as an output
          // either (bounds are not carried through regions and callees).
          expectation.free.assign(static_cast<size_t>(n), kFreeAnyValue);
          expectation.free_reason =
              "computed inside a region or callee by an op with freedom, or from values the "
              "spec does not fix";
        }
        if (!op.regions.empty() || CalledFunction(op) != nullptr) {
          // What a deviation does inside it cannot be followed: any that
          // applies to a type it handles may reach every element.
          for (uint64_t& bits : reach) bits |= DeviationsOf(mnemonic, op, true);
        }
      }
      if (mnemonic == "bitcast_convert" && !operand_tensors.empty() &&
          !arguments_.count(op.operands[0])) {
        // A NaN's payload is the implementation's: its bits, seen as
        // another type, are not fixed.
        const std::vector<uint8_t> classes = FloatClasses(*operand_tensors[0]);
        std::vector<std::vector<uint8_t>> nan{std::vector<uint8_t>(classes.size())};
        for (size_t i = 0; i < classes.size(); ++i) nan[0][i] = (classes[i] & kNaN) ? 1 : 0;
        const std::vector<uint8_t> payload =
            Inherit<uint8_t>(true, value.shape(), n, {operand_tensors[0]}, nan);
        for (size_t i = 0; i < own.size(); ++i) {
          own[i] |= payload[i];
          if (payload[i]) inherited[i] = 1;  // not compared in this output either
        }
      }
      AddOwnDeviations(mnemonic, op, operand_tensors, value, own, elementwise, reach);
      ValueFacts facts{value,
                       std::vector<uint8_t>(static_cast<size_t>(n)),
                       std::move(reach),
                       ElementBounds::None(value),
                       {}};
      if (expectation.free.empty()) expectation.free.assign(static_cast<size_t>(n), 0);
      for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
        facts.determined[i] = inherited[i] == 0 && own[i] == 0;
        if (inherited[i] != 0 && expectation.free[i] == 0) expectation.free[i] = kFreeAnyValue;
      }
      if (expectation.permutable &&
          std::count(inherited.begin(), inherited.end(), 0) != static_cast<int64_t>(n)) {
        // Runs of an unstable sort are compared as multisets, free elements
        // and all: where some inputs are not fixed, its runs are not either.
        for (size_t i = 0; i < static_cast<size_t>(n) && i < expectation.permutable->run.size();
             ++i) {
          if (expectation.permutable->run[i] >= 0) expectation.free[i] = kFreeAnyValue;
        }
        expectation.permutable = nullptr;
      }
      if (expectation.free_reason.empty()) {
        expectation.free_reason = "computed from values the spec does not fix";
      }
      // Bounds: the op's own where its inputs are fixed, carried through
      // it where they are not (and where every input element it reads is
      // bounded), else none.
      ElementBounds bounds =
          expectations != expectations_.end() && r < expectations->second.size()
              ? BoundsOfExpectation(expectations->second[r])
              : (std::count(own.begin(), own.end(), 0) == static_cast<int64_t>(own.size())
                     ? ElementBounds::Exact(value)
                     : ElementBounds::None(value));
      if (sources) {
        // Each element's bounds are those of the operand element it is.
        const size_t bytes = static_cast<size_t>(ContainerBytes(value.element_type()));
        for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
          if (inherited[i] == 0) continue;
          const ElementSource& from = (*sources)[i];
          const ElementBounds& b = facts_[op.operands[static_cast<size_t>(from.operand)]].bounds;
          const size_t at = static_cast<size_t>(from.index);
          bounds.bounded[i] = b.bounded[at];
          std::memcpy(bounds.lo.bytes().data() + i * bytes, b.lo.bytes().data() + at * bytes,
                      bytes);
          std::memcpy(bounds.hi.bytes().data() + i * bytes, b.hi.bytes().data() + at * bytes,
                      bytes);
        }
      } else if (r < carried.size() && !unbounded.empty()) {
        const std::vector<uint8_t> unreachable =
            Inherit<uint8_t>(elementwise, value.shape(), n, operand_tensors, unbounded);
        for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
          if (inherited[i] == 0) continue;
          const bool ok = carried[r].bounded[i] && !unreachable[i];
          bounds.bounded[i] = ok ? 1 : 0;
          if (ok) {
            const size_t bytes = static_cast<size_t>(ContainerBytes(value.element_type()));
            std::memcpy(bounds.lo.bytes().data() + i * bytes,
                        carried[r].lo.bytes().data() + i * bytes, bytes);
            std::memcpy(bounds.hi.bytes().data() + i * bytes,
                        carried[r].hi.bytes().data() + i * bytes, bytes);
          }
        }
      } else {
        for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
          if (inherited[i] != 0) bounds.bounded[i] = 0;
        }
      }
      facts.lost_at = LostAt(op, mnemonic, value, bounds, expectation_of_op, sources, elementwise);
      facts.bounds = std::move(bounds);
      facts_[op.results[r]] = std::move(facts);
      output_expectations_[op.results[r]] = std::move(expectation);
    }
  }

  std::map<ValueId, ValueFacts>& facts() { return facts_; }
  const std::string& Cause(uint16_t lost_at) const { return causes_[lost_at - 1]; }
  std::map<ValueId, ResultExpectation>& output_expectations() { return output_expectations_; }

 private:
  // Where each element of a result without bounds lost them: where the
  // operand element it reads (elementwise ops, data movement), or any it
  // reads (other ops), lost them; else at this op.
  template <typename Sources>
  std::vector<uint16_t> LostAt(const Operation& op, const std::string& mnemonic,
                               const Tensor& value, const ElementBounds& bounds,
                               const ResultExpectation* expectation, const Sources& sources,
                               bool elementwise) {
    const size_t n = static_cast<size_t>(value.num_elements());
    std::vector<uint16_t> lost(n, 0);
    uint16_t any_operand = 0;  // where some operand element lost them
    std::vector<const ValueFacts*> operand_facts;
    for (ValueId id : op.operands) {
      auto f = facts_.find(id);
      operand_facts.push_back(f == facts_.end() ? nullptr : &f->second);
      if (f == facts_.end() || any_operand != 0) continue;
      for (uint16_t x : f->second.lost_at) {
        if (x != 0) {
          any_operand = x;
          break;
        }
      }
    }
    const std::vector<uint8_t> open =
        expectation != nullptr ? OwnFreedom(*expectation) : std::vector<uint8_t>(n, 0);
    const bool approximate =
        expectation != nullptr &&
        !(expectation->check == Check::kExact ||
          (expectation->check == Check::kUlp && expectation->allowed_ulp == 0));
    for (size_t i = 0; i < n; ++i) {
      if (bounds.bounded[i]) continue;
      uint16_t from = 0;
      if (sources) {
        const auto& s = (*sources)[i];
        const ValueFacts* f = operand_facts[static_cast<size_t>(s.operand)];
        if (f != nullptr && !f->lost_at.empty()) from = f->lost_at[static_cast<size_t>(s.index)];
      } else if (elementwise) {
        for (const ValueFacts* f : operand_facts) {
          if (f == nullptr || f->lost_at.empty()) continue;
          if (f->lost_at.size() == n && f->lost_at[i] != 0) {
            from = f->lost_at[i];
            break;
          }
          if (f->lost_at.size() != n) {
            for (uint16_t x : f->lost_at) from = from != 0 ? from : x;
            if (from != 0) break;
          }
        }
      } else {
        from = any_operand;
      }
      if (from == 0) {
        const bool left_open = i < open.size() && open[i] && !approximate;
        std::string cause =
            (mnemonic.empty() ? op.name : mnemonic) +
            (left_open                       ? " (elements left open by the spec)"
             : IsFloat(value.element_type()) ? " (no bound carried through it)"
                                             : " (a value the bounds do not follow)");
        auto known = std::find(causes_.begin(), causes_.end(), cause);
        if (known == causes_.end()) {
          if (causes_.size() >= 65535) continue;
          causes_.push_back(cause);
          known = causes_.end() - 1;
        }
        from = static_cast<uint16_t>(known - causes_.begin() + 1);
      }
      lost[i] = from;
    }
    return lost;
  }

  // Where a result element of a data-movement op comes from; operand -1:
  // from none that can be open (nothing, in practice: such ops copy).
  struct ElementSource {
    int operand = -1;
    int64_t index = 0;
  };

  template <typename T>
  static std::vector<T> FromSources(const std::vector<ElementSource>& sources,
                                    const std::vector<std::vector<T>>& facts) {
    std::vector<T> out(sources.size(), 0);
    for (size_t i = 0; i < sources.size(); ++i) {
      if (sources[i].operand >= 0) {
        out[i] =
            facts[static_cast<size_t>(sources[i].operand)][static_cast<size_t>(sources[i].index)];
      }
    }
    return out;
  }

  // For an op that only moves data (one result of its operands' element
  // type, each element a copy of one element of its data operands), the
  // operand element each result element copies: found by running the op on
  // the oracle with the data operands replaced by their elements' numbers
  // (si32, 1 + a running count; 0 never occurs). The other operands
  // (indices) must be fixed: they decide where elements go. None for any
  // other op, or where the oracle's answer leaves anything open.
  std::optional<std::vector<ElementSource>> Sources(const Operation& op,
                                                    const std::vector<RuntimeValue>& operands,
                                                    const std::string& mnemonic,
                                                    const std::vector<std::vector<uint8_t>>& open) {
    static const std::set<std::string> single = {
        "reshape", "transpose", "broadcast_in_dim", "slice", "reverse", "dynamic_slice", "gather"};
    std::vector<size_t> data;
    if (single.count(mnemonic)) {
      data = {0};
    } else if (mnemonic == "pad" || mnemonic == "dynamic_update_slice") {
      data = {0, 1};
    } else if (mnemonic == "concatenate") {
      for (size_t k = 0; k < operands.size(); ++k) data.push_back(k);
    } else {
      return std::nullopt;
    }
    if (oracle_ == nullptr || interpreter_ == nullptr || op.results.size() != 1)
      return std::nullopt;
    for (size_t k = 0; k < open.size(); ++k) {
      if (std::find(data.begin(), data.end(), k) != data.end()) continue;
      for (uint8_t x : open[k]) {
        if (x) return std::nullopt;  // an index that is not fixed
      }
    }
    Interpreter::Environment environment;
    auto c = interpreter_->OracleCase(op, operands, environment);
    if (!c.ok() || c->operands.size() != operands.size() || c->result_types.size() != 1 ||
        !c->regions.empty()) {
      return std::nullopt;
    }
    std::vector<int64_t> first;  // the number of data operand k's element 0
    int64_t next = 1;
    for (size_t k : data) {
      if (c->operands[k].element_type() != c->result_types[0].element_type) return std::nullopt;
      Tensor numbers(c->operands[k].shape(), ElementType::kSI32);
      auto v = numbers.values<ElementType::kSI32>();
      for (size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<int32_t>(next + static_cast<int64_t>(i));
      first.push_back(next);
      next += static_cast<int64_t>(v.size());
      c->operands[k] = std::move(numbers);
    }
    if (next > (int64_t{1} << 30)) return std::nullopt;
    c->result_types[0].element_type = ElementType::kSI32;
    auto expectations = oracle_->Compute(*c);
    if (!expectations.ok() || expectations->size() != 1) return std::nullopt;
    const ResultExpectation& e = (*expectations)[0];
    if (HasFreedom(e)) return std::nullopt;
    std::vector<ElementSource> sources;
    for (int32_t number : e.reference.values<ElementType::kSI32>()) {
      ElementSource from;
      for (size_t d = data.size(); d-- > 0;) {
        if (number >= first[d]) {
          from.operand = static_cast<int>(data[d]);
          from.index = number - first[d];
          break;
        }
      }
      if (from.operand < 0) return std::nullopt;  // not a copy of a data element
      sources.push_back(from);
    }
    return sources;
  }

  // The bounds of each result of `op` from its operands' bounds (corners
  // run on the oracle); `unbounded` receives, per operand, its elements
  // without bounds (they take their reference value in the corners, and
  // the results that read them get no bound). Empty when the op admits
  // none.
  std::vector<ElementBounds> CarriedBounds(const Operation& op,
                                           const std::vector<RuntimeValue>& operands,
                                           const std::string& mnemonic, bool elementwise,
                                           std::vector<std::vector<uint8_t>>& unbounded) {
    const CornerPolicy policy = CornerPolicyOf(mnemonic);
    if (policy == CornerPolicy::kNone || (!op.regions.empty() && policy != CornerPolicy::kByBody) ||
        oracle_ == nullptr || interpreter_ == nullptr) {
      return {};
    }
    std::vector<ElementBounds> operand_bounds;
    unbounded.clear();
    bool any_unbounded = false;
    for (ValueId id : op.operands) {
      auto f = facts_.find(id);
      if (f == facts_.end()) return {};
      ElementBounds b = f->second.bounds;
      std::vector<uint8_t> missing(b.bounded.size());
      for (size_t i = 0; i < missing.size(); ++i) {
        missing[i] = b.bounded[i] ? 0 : 1;
        any_unbounded = any_unbounded || missing[i];
        if (missing[i]) {  // its reference value stands in
          const size_t bytes = static_cast<size_t>(ContainerBytes(b.lo.element_type()));
          std::memcpy(b.lo.bytes().data() + i * bytes, f->second.value.bytes().data() + i * bytes,
                      bytes);
          std::memcpy(b.hi.bytes().data() + i * bytes, f->second.value.bytes().data() + i * bytes,
                      bytes);
          b.bounded[i] = 1;
        }
      }
      operand_bounds.push_back(std::move(b));
      unbounded.push_back(std::move(missing));
    }
    if (any_unbounded && !elementwise) return {};
    Interpreter::Environment environment;
    auto c = interpreter_->OracleCase(op, operands, environment);
    if (!c.ok()) return {};
    return PropagateBounds(*c, operand_bounds, policy,
                           [this](const Case& corner) { return oracle_->Compute(corner); });
  }

  void Nest(const Region& region, size_t top) {
    for (const Block& block : region.blocks) {
      for (const Operation& op : block.operations) {
        nested_in_[&op] = top;
        for (const Region& inner : op.regions) Nest(inner, top);
        NestCallee(op, top);
      }
    }
  }

  // A func.call's callee (a composite's decomposition) runs inside it: its
  // ops' freedom is the call's.
  void NestCallee(const Operation& op, size_t top) {
    const std::string* called = CalledFunction(op);
    if (called == nullptr) return;
    const Function* function = module_.Find(*called);
    if (function == nullptr || !nesting_.insert(function).second) return;  // recursion: once
    Nest(function->body, top);
    nesting_.erase(function);
  }

  // The deviations that apply to the op with any of its element types;
  // `any_op`: whichever ops they name (for an op whose regions hide them).
  uint64_t DeviationsOf(const std::string& mnemonic, const Operation& op, bool any_op) const {
    if (profile_ == nullptr) return 0;
    std::set<ElementType> types;
    for (const ValueType& t : op.operand_types) {
      if (t.is_tensor()) types.insert(t.element_type);
    }
    for (const ValueType& t : op.result_types) {
      if (t.is_tensor()) types.insert(t.element_type);
    }
    uint64_t bits = 0;
    for (size_t k = 0; k < profile_->deviations.size() && k < 64; ++k) {
      const Deviation& d = profile_->deviations[k];
      for (ElementType type : types) {
        const bool applies =
            any_op ? d.types.empty() || d.types.count(type) > 0 : d.AppliesTo(mnemonic, type);
        if (applies) bits |= uint64_t{1} << k;
      }
    }
    return bits;
  }

  // Marks the elements of one result that the profile's deviations may
  // change at this op; a max_ulp deviation also leaves them open downstream.
  void AddOwnDeviations(const std::string& mnemonic, const Operation& op,
                        const std::vector<const Tensor*>& operands, const Tensor& value,
                        std::vector<uint8_t>& own, bool elementwise,
                        std::vector<uint64_t>& reach) const {
    const uint64_t applicable = DeviationsOf(mnemonic, op, false);
    if (applicable == 0) return;
    const int64_t n = value.num_elements();
    std::vector<std::vector<uint8_t>> operand_classes;
    for (const Tensor* t : operands) operand_classes.push_back(FloatClasses(*t));
    const std::vector<uint8_t> result_classes = FloatClasses(value);
    for (size_t k = 0; k < profile_->deviations.size() && k < 64; ++k) {
      if (!(applicable & (uint64_t{1} << k))) continue;
      const Deviation& d = profile_->deviations[k];
      const uint64_t bit = uint64_t{1} << k;
      auto mark_where = [&](uint8_t operand_class, uint8_t result_class) {
        std::vector<std::vector<uint8_t>> hits;
        for (const std::vector<uint8_t>& classes : operand_classes) {
          std::vector<uint8_t> h(classes.size());
          for (size_t i = 0; i < h.size(); ++i) h[i] = (classes[i] & operand_class) ? 1 : 0;
          hits.push_back(std::move(h));
        }
        std::vector<uint8_t> at = Inherit<uint8_t>(elementwise, value.shape(), n, operands, hits);
        bool any_result = false;
        for (size_t i = 0; i < at.size(); ++i) {
          any_result = any_result || (result_classes[i] & result_class);
          if (elementwise) at[i] |= (result_classes[i] & result_class) ? 1 : 0;
        }
        for (size_t i = 0; i < at.size(); ++i) {
          if (at[i] || (!elementwise && any_result)) reach[i] |= bit;
        }
      };
      switch (d.kind) {
        case Deviation::Kind::kFlushSubnormals: {
          bool approximate = false;
          for (uint8_t o : own) approximate = approximate || o;
          mark_where(kSubnormal, approximate ? (kSubnormal | kNearUnderflow) : kSubnormal);
          break;
        }
        case Deviation::Kind::kNanMinMax:
          mark_where(kNaN, 0);
          break;
        case Deviation::Kind::kMaxUlp:
          for (size_t i = 0; i < own.size(); ++i) {
            reach[i] |= bit;
            own[i] = 1;
          }
          break;
      }
    }
  }

  const spec::SpecRegistry& registry_;
  const BackendProfile* profile_;
  const Oracle* oracle_ = nullptr;
  Interpreter* interpreter_ = nullptr;
  std::map<const Operation*, size_t> top_level_;
  std::map<const Operation*, size_t> nested_in_;
  std::set<size_t> inexact_inside_;
  std::set<ValueId> arguments_;
  std::map<const Operation*, std::vector<ResultExpectation>> expectations_;
  std::map<ValueId, ValueFacts> facts_;
  std::vector<std::string> causes_;  // ValueFacts::lost_at's
  const Module& module_;
  std::set<const Function*> nesting_;                       // callees being nested (recursion)
  std::map<ValueId, std::vector<ValueId>> tuple_elements_;  // a tuple's elements
  std::map<ValueId, ResultExpectation> output_expectations_;
};

}  // namespace

absl::StatusOr<ProgramReference> ReferenceOfProgram(const Oracle& oracle,
                                                    const spec::SpecRegistry& registry,
                                                    const Module& module,
                                                    const std::vector<Tensor>& arguments,
                                                    const BackendProfile* profile) {
  const Function* main = module.Find("main");
  if (main == nullptr || main->body.blocks.size() != 1) {
    return absl::InvalidArgumentError("the program has no @main of one block");
  }
  const Block& block = main->body.blocks[0];
  if (block.arguments.size() != arguments.size()) {
    return absl::InvalidArgumentError("@main takes " + std::to_string(block.arguments.size()) +
                                      " arguments, the program holds " +
                                      std::to_string(arguments.size()));
  }
  ProgramTracer tracer(registry, profile, module, block);
  std::vector<RuntimeValue> values;
  for (size_t i = 0; i < arguments.size(); ++i) {
    tracer.Argument(block.arguments[i], arguments[i]);
    values.push_back(RuntimeValue::Of(arguments[i]));
  }
  Interpreter interpreter(&oracle, &registry, &module);
  tracer.set_corners(&oracle, &interpreter);
  interpreter.set_observer(
      [&tracer](const Operation& op, const std::vector<ResultExpectation>& expectations) {
        tracer.Observe(op, expectations);
      });
  interpreter.set_value_observer([&tracer](const Operation& op,
                                           const std::vector<RuntimeValue>& operands,
                                           const std::vector<RuntimeValue>& results) {
    tracer.Values(op, operands, results);
  });
  auto outputs = interpreter.Call("main", std::move(values));
  HLOCHECK_RETURN_IF_ERROR(outputs.status());
  ProgramReference reference;
  const Operation& ret = block.operations.back();
  for (size_t i = 0; i < ret.operands.size(); ++i) {
    const ValueId id = ret.operands[i];
    auto facts = tracer.facts().find(id);
    if (facts == tracer.facts().end()) {
      return absl::InternalError("output " + std::to_string(i) + " has no traced value");
    }
    auto expectation = tracer.output_expectations().find(id);
    ResultExpectation e;
    if (expectation != tracer.output_expectations().end()) {
      e = expectation->second;
    } else {  // an argument returned as it is
      e.reference = facts->second.value;
      e.check = Check::kExact;
    }
    reference.output_elements += e.reference.num_elements();
    for (uint8_t d : facts->second.determined) reference.determined_elements += d;
    int64_t bounded = 0;
    for (size_t k = 0; k < e.free.size(); ++k) {
      bounded += e.free[k] != 0 && facts->second.bounds.bounded[k] ? 1 : 0;
    }
    reference.bounded_elements += bounded;
    reference.compared_elements += e.reference.num_elements() - e.FreeCount() + bounded;
    const std::vector<uint16_t>& lost_at = facts->second.lost_at;
    for (size_t k = 0; k < e.free.size() && k < lost_at.size(); ++k) {
      if (e.free[k] != 0 && !facts->second.bounds.bounded[k] && lost_at[k] != 0) {
        ++reference.unchecked_by_cause[tracer.Cause(lost_at[k])];
      }
    }
    reference.outputs.push_back(std::move(e));
    reference.output_deviations.push_back(facts->second.deviations);
    reference.output_bounds.push_back(facts->second.bounds);
  }
  reference.values = std::move(tracer.facts());
  return reference;
}

}  // namespace hlocheck
