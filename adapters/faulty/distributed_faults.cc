// Faults in the ops of distributed and stateful programs: random numbers
// drawn from the wrong distribution, control flow that takes the wrong
// branch or one iteration too many, collectives that walk their groups
// backwards, a transfer that loses part of its message, and a call that
// mixes up its arguments.
#include <algorithm>
#include <cstring>
#include <map>

#include "adapters/faulty/faulty_internal.h"
#include "core/case_attributes.h"
#include "core/element_value.h"

namespace hlocheck::faulty {
namespace {

// rng NORMAL with one and a half times the standard deviation asked for.
class RngWideNormalFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    const Attribute* distribution = c.FindAttribute("rng_distribution");
    const auto* name = distribution ? std::get_if<EnumValue>(distribution) : nullptr;
    if (name == nullptr || name->name != "NORMAL") return cpu().Run(c);
    Case wide = c;
    Tensor& b = wide.operands[1];
    DispatchElementType(b.element_type(), [&]<ElementType T>() {
      if constexpr (IsFloat(T)) {
        uint8_t flags = 0;
        b.values<T>()[0] = FromExact<T>(ExactValue::FromDouble(1.5 * ToDouble<T>(b.values<T>()[0])),
                                        RoundingMode::kNearestEven, &flags);
      }
    });
    return cpu().Run(wide);
  }
};

// rng UNIFORM on integers over [a, b] instead of [a, b): b itself drawn.
class RngClosedIntervalFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Case closed = c;
    Tensor& b = closed.operands[1];
    DispatchElementType(b.element_type(), [&]<ElementType T>() {
      if constexpr (IsInteger(T) && !IsBool(T)) {
        b.values<T>()[0] = WrapInteger<T>(IntegerBits<T>(b.values<T>()[0]) + 1);
      }
    });
    // Where b + 1 wraps, [a, b + 1) is no longer an interval: as asked.
    if (IsInteger(b.element_type()) && !IsBool(b.element_type())) {
      bool wrapped = false;
      DispatchElementType(b.element_type(), [&]<ElementType T>() {
        if constexpr (IsInteger(T) && !IsBool(T)) {
          wrapped = ToDouble<T>(b.values<T>()[0]) < ToDouble<T>(c.operands[1].values<T>()[0]);
        }
      });
      if (wrapped) return cpu().Run(c);
    }
    return cpu().Run(closed);
  }
};

// case with its index clamped into range: a negative index runs branch 0
// instead of the last branch (the spec sends every out-of-range index to
// branches[-1]; a lowering to a clamped jump table gets only the high side
// right).
class CaseClampedIndexFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Case clamped = c;
    if (clamped.operands.size() == 1 && clamped.operands[0].element_type() == ElementType::kSI32 &&
        clamped.operands[0].num_elements() == 1) {
      int32_t& index = clamped.operands[0].values<ElementType::kSI32>()[0];
      index = std::max(index, 0);
    }
    return cpu().Run(clamped);
  }
};

// while whose cond compares with LE where it says LT: one iteration too
// many for a counting loop (an off-by-one in a loop-bound rewrite). Not
// where the bound is its type's largest value (si2's, ui2's counters):
// there LE never turns false and the loop would run until the CPU adapter
// gives up (2^24 iterations).
class WhileLessEqualFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Case off_by_one = c;
    if (!off_by_one.regions.empty()) {
      for (Block& block : off_by_one.regions[0].blocks) {
        // The integer constants of the cond: whether each is its type's
        // largest value.
        std::map<ValueId, bool> at_maximum;
        for (const Operation& op : block.operations) {
          auto value = op.attributes.find("value");
          if (op.name != "stablehlo.constant" || value == op.attributes.end() ||
              !std::holds_alternative<Tensor>(value->second) || op.results.size() != 1) {
            continue;
          }
          const Tensor& t = std::get<Tensor>(value->second);
          DispatchElementType(t.element_type(), [&]<ElementType T>() {
            if constexpr (IsInteger(T)) {
              if (t.num_elements() == 1) {
                at_maximum[op.results[0]] =
                    static_cast<uint64_t>(t.values<T>()[0]) == IntegerMaxUnsigned(T);
              }
            }
          });
        }
        for (Operation& op : block.operations) {
          auto direction = op.attributes.find("comparison_direction");
          if (op.name == "stablehlo.compare" && op.operands.size() == 2 &&
              direction != op.attributes.end() &&
              std::holds_alternative<EnumValue>(direction->second) &&
              std::get<EnumValue>(direction->second).name == "LT" &&
              at_maximum.count(op.operands[1]) && !at_maximum[op.operands[1]]) {
            direction->second = EnumValue{"LE"};
          }
        }
      }
    }
    return cpu().Run(off_by_one);
  }
};

// A collective walking each group's processes in reverse order (the
// group's last process first), as a ring implementation that walks the
// ring the wrong way would: all_gather concatenates the operands backwards,
// reduce_scatter hands each process another's part, collective_reduce keeps
// the result on the group's last process instead of its source.
class ReplicaGroupsReversedFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Case reversed = c;
    auto groups = reversed.attributes.find("replica_groups");
    if (groups != reversed.attributes.end() && std::holds_alternative<Tensor>(groups->second)) {
      Tensor& t = std::get<Tensor>(groups->second);
      if (t.shape().size() == 2 && t.element_type() == ElementType::kSI64) {
        auto ids = t.values<ElementType::kSI64>();
        const int64_t columns = t.shape()[1];
        for (int64_t row = 0; row < t.shape()[0]; ++row) {
          std::reverse(ids.begin() + row * columns, ids.begin() + (row + 1) * columns);
        }
      }
    }
    return cpu().Run(reversed);
  }
};

// outfeed copying only the first half of each tensor's elements to the
// host (a transfer of half the length: elements counted as bytes of a
// 2-byte type, say); the host's buffer keeps zeros after them.
class OutfeedHalfCopiedFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    absl::StatusOr<std::vector<Tensor>> results = cpu().Run(c);
    if (!results.ok()) return results;
    for (size_t i = results->size() - static_cast<size_t>(c.outgoing); i < results->size(); ++i) {
      Tensor& sent = (*results)[i];
      const size_t element = ContainerBytes(sent.element_type());
      const auto kept = static_cast<size_t>((sent.num_elements() + 1) / 2);
      auto bytes = sent.bytes();
      if (bytes.size() > kept * element) {
        std::memset(bytes.data() + kept * element, 0, bytes.size() - kept * element);
      }
    }
    return results;
  }
};

// func.call passing its first two arguments of one type in each other's
// places, as a calling convention that numbers its registers the other way
// round would.
class CallSwappedArgumentsFault : public FaultyAdapter {
 public:
  using FaultyAdapter::FaultyAdapter;

 protected:
  absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) override {
    Case swapped = c;
    for (size_t i = 0; i < swapped.operands.size(); ++i) {
      for (size_t j = i + 1; j < swapped.operands.size(); ++j) {
        if (swapped.operands[i].type() == swapped.operands[j].type()) {
          std::swap(swapped.operands[i], swapped.operands[j]);
          return cpu().Run(swapped);
        }
      }
    }
    return cpu().Run(c);
  }
};

}  // namespace

std::vector<FaultEntry> DistributedFaults() {
  return {
      {{"faulty-rng-wide-normal", "rng",
        "rng NORMAL with 1.5 times the standard deviation asked for"},
       Make<RngWideNormalFault>},
      {{"faulty-rng-closed-interval", "rng",
        "rng UNIFORM on integers over [a, b] instead of [a, b)"},
       Make<RngClosedIntervalFault>},
      {{"faulty-case-clamped-index", "case",
        "case running branch 0, not the last branch, for a negative index"},
       Make<CaseClampedIndexFault>},
      {{"faulty-while-less-equal", "while",
        "while comparing with LE where its cond says LT (one iteration too many)"},
       Make<WhileLessEqualFault>},
      {{"faulty-all-gather-reversed", "all_gather",
        "all_gather concatenating each group's operands last process first"},
       Make<ReplicaGroupsReversedFault>},
      {{"faulty-reduce-scatter-reversed", "reduce_scatter",
        "reduce_scatter giving the process at index i of its group part n-1-i"},
       Make<ReplicaGroupsReversedFault>},
      {{"faulty-collective-reduce-reversed", "collective_reduce",
        "collective_reduce keeping the result on the group's last process, not its first"},
       Make<ReplicaGroupsReversedFault>},
      {{"faulty-outfeed-half-copied", "outfeed",
        "outfeed giving the host only the first half of each tensor's elements"},
       Make<OutfeedHalfCopiedFault>},
      {{"faulty-call-swapped-arguments", "call",
        "func.call passing its first two arguments of one type in each other's places"},
       Make<CallSwappedArgumentsFault>},
  };
}

}  // namespace hlocheck::faulty
