// What the oracle says about one result of a case: the reference values and
// how a backend's result may differ from them, element by element.
#ifndef HLOCHECK_ORACLE_EXPECTATION_H_
#define HLOCHECK_ORACLE_EXPECTATION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace hlocheck {

enum class Check : uint8_t {
  // Bit for bit (NaN matches any NaN of the type).
  kExact,
  // Within the op's allowed ULP distance (from its YAML) of the correctly
  // rounded reference; for complex types, each part separately. A bound of
  // 0 means bit for bit.
  kUlp,
  // |actual - center| <= bound, element by element (two entries per element
  // for complex types: real part, then imaginary part).
  kErrorBound,
  // A quantized result: each element's storage integer within
  // [storage_low, storage_high], the values a quantization of any value the
  // op may produce can give (docs/numerics.md, "Ops on quantized tensors").
  kStorageRange,
};

// Elements whose order the spec leaves open: sort with is_stable = false
// may return the elements the comparator considers equivalent in any order,
// as long as it reorders every result of the op in the same way. The
// elements of one result are grouped into runs: run[i] >= 0 names the run of
// the row-major element i, -1 marks an element with a fixed place. A backend
// passes if, for every run, the elements it returns at the run's positions
// are a permutation of the reference's there (per result: CompareResult),
// and the same permutation for all results that share this object (the
// tuples of one element of every result are compared: CompareResults).
struct PermutableRuns {
  std::vector<int64_t> run;
  std::string reason;
};

inline constexpr uint8_t kFreeAnyValue = 1;
inline constexpr uint8_t kFreeWithConvention = 2;

// A distribution a result's elements are drawn from: uniform over [a, b)
// (real, or integers), or normal with mean a and standard deviation b. The
// test rejects a sample from it with probability at most `false_alarm`.
struct DistributionTest {
  enum class Kind : uint8_t { kUniformReal, kUniformInteger, kNormal };
  Kind kind = Kind::kUniformReal;
  double a = 0;
  double b = 1;
  double false_alarm = 1e-6;
  // kUniformInteger: a's bits and b - a, modulo 2^64, so that 64-bit
  // bounds and samples are compared exactly (a double holds neither).
  uint64_t integer_a = 0;
  uint64_t integer_span = 0;
  std::string Describe() const;
};

struct ResultExpectation {
  // The exact or correctly rounded result (kErrorBound: the center rounded
  // to the result type), for display and reproducers.
  Tensor reference;
  Check check = Check::kExact;

  // kUlp only: the distance from `reference` the op's YAML allows for this
  // result type. Oracle::Compute fills it once per case, so that comparing,
  // reporting and writing reproducers all read the same bound.
  int allowed_ulp = 0;

  // kErrorBound only: the high-precision value as an unevaluated sum
  // hi + lo, and the allowed distance from it.
  std::vector<double> center_hi;
  std::vector<double> center_lo;
  std::vector<double> bound;

  // kStorageRange only: the allowed storage integers of each element.
  std::vector<int64_t> storage_low;
  std::vector<int64_t> storage_high;

  // Elements whose value the spec leaves to the implementation, as
  // kFreeAnyValue (any value is accepted) or kFreeWithConvention (any value
  // is accepted, but the reference holds the value that the StableHLO
  // interpreter and XLA agree on, and a backend that differs is reported
  // as differing from that de facto convention). Empty when there are none.
  std::vector<uint8_t> free;
  std::string free_reason;

  // Runs of elements that may come back reordered (see PermutableRuns);
  // null when every element has a fixed place. All results of one op that
  // must be reordered together point to the same object.
  std::shared_ptr<const PermutableRuns> permutable;

  // Where the spec fixes a distribution but not the values (rng): every
  // element free, and the result as a whole must lie in the distribution's
  // support and pass a goodness-of-fit test (oracle/distribution_test.h).
  // Null elsewhere.
  std::shared_ptr<const DistributionTest> distribution;

  // Where the spec's text is read two ways and a public issue says so
  // (scatter's windows partly out of bounds: the text updates their in-bounds
  // elements, openxla/stablehlo#1931 and XLA drop the whole window): the
  // expectation under the other reading. An element marked in
  // `reading_differs` passes if it meets either; the reference above stays
  // the text's. Null, and `reading_differs` empty, elsewhere.
  std::shared_ptr<const ResultExpectation> other_reading;
  std::vector<uint8_t> reading_differs;
  std::string other_reading_reason;

  int64_t FreeCount() const;
};

}  // namespace hlocheck

#endif  // HLOCHECK_ORACLE_EXPECTATION_H_
