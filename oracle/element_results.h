// What an element-wise op returns: its one result, with the elements whose
// value the spec leaves to the implementation marked free, each with why.
// Shared by the oracle's op files.
#ifndef HLOCHECK_ORACLE_ELEMENT_RESULTS_H_
#define HLOCHECK_ORACLE_ELEMENT_RESULTS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "oracle/element_encoding.h"
#include "oracle/expectation.h"

namespace hlocheck::oracle {

// Elements of one result whose value the spec leaves to the implementation,
// each with why.
class FreeElements {
 public:
  explicit FreeElements(size_t count) : count_(count) {}

  void Mark(size_t index, std::string_view reason) { Set(index, kFreeAnyValue, reason); }
  // Free by the spec, but the public interpreter and XLA agree on a value,
  // which the reference holds: a backend that differs is told so (the
  // "differs from the de facto convention" verdict), not failed.
  void MarkConventional(size_t index, std::string_view reason) {
    Set(index, kFreeWithConvention, reason);
  }
  bool any() const { return !mask_.empty(); }

  void MoveInto(ResultExpectation& expectation) && {
    expectation.free = std::move(mask_);
    expectation.free_reason = std::move(reason_);
  }

 private:
  void Set(size_t index, uint8_t kind, std::string_view reason) {
    if (mask_.empty()) mask_.assign(count_, 0);
    mask_[index] = kind;
    // Ops mark element after element with the same reason: searching all
    // the reasons each time was a tenth of cholesky's oracle, so the last
    // one (kept as its place in reason_, which outlives any caller's
    // string) is compared first.
    if (reason.size() == last_length_ && reason_.compare(last_start_, last_length_, reason) == 0) {
      return;
    }
    size_t start = reason_.find(reason);
    if (start == std::string::npos) {
      if (!reason_.empty()) reason_ += "; ";
      start = reason_.size();
      reason_ += reason;
    }
    last_start_ = start;
    last_length_ = reason.size();
  }

  size_t count_;
  std::vector<uint8_t> mask_;  // empty until an element is marked
  std::string reason_;
  size_t last_start_ = 0;   // where the last call's reason is in reason_
  size_t last_length_ = 0;  // and its length (0: none yet)
};

// An error-bound expectation's reference tensor of `type`: every element's
// center (hi + lo; for complex types the real then the imaginary entry)
// rounded once to the element type.
inline Tensor ReferenceFromCenters(const TensorType& type, const ResultExpectation& e) {
  Tensor reference(type);
  DispatchElementType(type.element_type, [&]<ElementType T>() {
    auto out = reference.values<T>();
    if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = {RoundDouble<kPart>(e.center_hi[2 * i] + e.center_lo[2 * i]),
                  RoundDouble<kPart>(e.center_hi[2 * i + 1] + e.center_lo[2 * i + 1])};
      }
    } else if constexpr (IsFloat(T)) {
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = RoundDouble<T>(e.center_hi[i] + e.center_lo[i]);
      }
    }
  });
  return reference;
}

// What a float result that T cannot hold (see RoundDouble) is marked free with.
inline constexpr std::string_view kUnrepresentableReason =
    "the result (NaN, an infinity, zero or a negative value) does not exist in the element "
    "type; the spec does not say what it becomes";

// The one result of an element-wise op.
inline std::vector<ResultExpectation> OneResult(Tensor reference, Check check, FreeElements free) {
  std::vector<ResultExpectation> results(1);
  results[0].reference = std::move(reference);
  results[0].check = check;
  std::move(free).MoveInto(results[0]);
  return results;
}

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_ELEMENT_RESULTS_H_
