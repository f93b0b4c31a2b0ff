// rng_bit_generator (seed 002). The spec fixes the algorithms' names and the
// state sizes (C2) and leaves the rest to the implementation: DEFAULT is
// implementation-defined, THREE_FRY and PHILOX are "implementation-defined
// variants" of Threefry and Philox. So no output bit and no output_state
// element is determined; the oracle marks every element free. For THREE_FRY
// and PHILOX it names the de facto convention, XLA's variant
// (xla/hlo/builder/lib/prng.cc; the spec's own THREE_FRY example is its
// output): Threefry-2x32 with 20 rounds and Philox-4x32 with 10, exactly as
// Random123 publishes them (tests/oracle/random_numbers_test.cc checks its
// known-answer vectors), with state [key, counter...] and XLA's layout of
// counters over the output. A backend that differs is reported as differing
// from the convention, never as failing. Output types XLA's variant does not
// generate (8- and 16-bit, i1, f16, bf16, f8) and DEFAULT have no convention:
// any value.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/element_value.h"
#include "core/status_macros.h"
#include "oracle/oracle.h"

namespace hlocheck::oracle {
namespace {

using Words2 = std::array<uint32_t, 2>;
using Words4 = std::array<uint32_t, 4>;

uint32_t RotateLeft(uint32_t v, int distance) { return (v << distance) | (v >> (32 - distance)); }

// Threefry-2x32, 20 rounds (Salmon et al., SC 2011; Random123's
// threefry2x32_20): key injection every 4 rounds with the parity word
// 0x1BD11BDA ^ k0 ^ k1 and the injection count added to the second word.
Words2 Threefry2x32(Words2 x, Words2 key) {
  static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const std::array<uint32_t, 3> ks = {key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1]};
  x[0] += ks[0];
  x[1] += ks[1];
  for (uint32_t injection = 1; injection <= 5; ++injection) {
    const int* rotations = kRotations + ((injection - 1) % 2) * 4;
    for (int r = 0; r < 4; ++r) {
      x[0] += x[1];
      x[1] = RotateLeft(x[1], rotations[r]) ^ x[0];
    }
    x[0] += ks[injection % 3];
    x[1] += ks[(injection + 1) % 3] + injection;
  }
  return x;
}

// Philox-4x32, 10 rounds (Random123's philox4x32_10): two 32x32 -> 64-bit
// products per round, the key bumped by the Weyl constants between rounds.
Words4 Philox4x32(Words4 x, Words2 key) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t{0xD2511F53u} * x[0];
    const uint64_t p1 = uint64_t{0xCD9E8D57u} * x[2];
    x = {static_cast<uint32_t>(p1 >> 32) ^ x[1] ^ key[0], static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ x[3] ^ key[1], static_cast<uint32_t>(p0)};
    key[0] += 0x9E3779B9u;
    key[1] += 0xBB67AE85u;
  }
  return x;
}

Words2 Split(uint64_t v) { return {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)}; }
uint64_t Join(uint32_t low, uint32_t high) { return low | (uint64_t{high} << 32); }

// XLA's Threefry layout for 64-bit outputs: element i (row-major) is
// Threefry(counter + i) under the key, its two words joined low first.
void ThreefryBits64(uint64_t key, uint64_t& counter, std::vector<uint64_t>& out) {
  for (size_t i = 0; i < out.size(); ++i) {
    const Words2 r = Threefry2x32(Split(counter + i), Split(key));
    out[i] = Join(r[0], r[1]);
  }
  counter += out.size();
}

// XLA's Threefry layout for 32-bit outputs: one Threefry call gives two
// words, so the shape is halved along its first even dimension (or its
// largest, rounded up), counters run row-major over that half shape, and
// the two words land at positions 2j and 2j + 1 of the halved dimension.
void ThreefryBits32(uint64_t key, uint64_t& counter, const Shape& shape,
                    std::vector<uint32_t>& out) {
  if (shape.empty()) {
    out[0] = Threefry2x32(Split(counter), Split(key))[0];
    counter += 1;
    return;
  }
  const auto rank = static_cast<int64_t>(shape.size());
  int64_t split = -1;
  for (int64_t d = 0; d < rank && split < 0; ++d) {
    if (shape[d] % 2 == 0) split = d;
  }
  if (split < 0) {
    for (int64_t d = 0; d < rank; ++d) {
      if (split < 0 || shape[d] > shape[split]) split = d;
    }
  }
  Shape half = shape;
  half[split] = (shape[split] + 1) / 2;
  const std::vector<int64_t> half_strides = RowMajorStrides(half);
  int64_t half_count = 1;
  for (int64_t d : half) half_count *= d;
  for (IndexIterator it(shape); !it.done(); it.Next()) {
    int64_t half_index = 0;
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t coordinate = d == split ? it.index()[d] / 2 : it.index()[d];
      half_index += coordinate * half_strides[d];
    }
    const Words2 r = Threefry2x32(Split(counter + half_index), Split(key));
    out[it.linear()] = r[it.index()[split] % 2];
  }
  counter += half_count;
}

// XLA's Philox layout: counters are 128-bit (low word first), one Philox
// call per block of four 32-bit or two 64-bit outputs, taken in order.
struct Counter128 {
  uint64_t low, high;
  Counter128 Plus(uint64_t n) const { return {low + n, high + (low + n < low ? 1 : 0)}; }
  Words4 Words() const {
    return {static_cast<uint32_t>(low), static_cast<uint32_t>(low >> 32),
            static_cast<uint32_t>(high), static_cast<uint32_t>(high >> 32)};
  }
};

template <typename Out>
void PhiloxBits(uint64_t key, Counter128& counter, std::vector<Out>& out) {
  constexpr size_t kPerBlock = sizeof(Out) == 4 ? 4 : 2;
  const size_t blocks = (out.size() + kPerBlock - 1) / kPerBlock;
  for (size_t j = 0; j < blocks; ++j) {
    const Words4 r = Philox4x32(counter.Plus(j).Words(), Split(key));
    for (size_t k = 0; k < kPerBlock && j * kPerBlock + k < out.size(); ++k) {
      if constexpr (sizeof(Out) == 4) {
        out[j * kPerBlock + k] = r[k];
      } else {
        out[j * kPerBlock + k] = Join(r[2 * k], r[2 * k + 1]);
      }
    }
  }
  counter = counter.Plus(blocks);
}

ResultExpectation AllFree(Tensor reference, uint8_t kind, std::string reason) {
  ResultExpectation e;
  e.free.assign(static_cast<size_t>(reference.num_elements()), kind);
  if (e.free.empty()) e.free.clear();
  e.free_reason = std::move(reason);
  e.reference = std::move(reference);
  e.check = Check::kExact;
  return e;
}

// rng_bit_generator's two results, every element free as `kind` says.
std::vector<ResultExpectation> BothFree(Tensor output_state, Tensor output, uint8_t kind,
                                        const std::string& why) {
  std::vector<ResultExpectation> results;
  results.push_back(AllFree(std::move(output_state), kind, why));
  results.push_back(AllFree(std::move(output), kind, why));
  return results;
}

absl::StatusOr<std::vector<ResultExpectation>> RngBitGenerator(const Case& c) {
  HLOCHECK_ASSIGN_OR_RETURN(const std::string algorithm, EnumAttribute(c, "rng_algorithm"));
  const Tensor& initial_state = c.operands[0];
  Tensor output_state = initial_state;
  Tensor output(c.result_types[1]);
  const ElementType type = output.element_type();
  const int bits = IsFloat(type) || IsInteger(type) ? BitWidth(type) : 0;
  const bool has_convention = (algorithm == "THREE_FRY" || algorithm == "PHILOX") &&
                              (bits == 32 || bits == 64) &&
                              (IsFloat(type) || (IsInteger(type) && !IsBool(type)));
  if (!has_convention) {
    const std::string why =
        algorithm == "DEFAULT"
            ? "rng_bit_generator DEFAULT: the algorithm is implementation-defined"
            : "rng_bit_generator " + algorithm + " into " + std::string(Name(type)) +
                  ": the variant is implementation-defined and XLA's generates only 32- and "
                  "64-bit values";
    return BothFree(std::move(output_state), std::move(output), kFreeAnyValue, why);
  }
  auto state = output_state.values<ElementType::kUI64>();
  const size_t count = static_cast<size_t>(output.num_elements());
  if (algorithm == "THREE_FRY") {
    if (state.size() != 2) {
      return absl::InvalidArgumentError("rng_bit_generator: THREE_FRY takes a state of 2 (C2)");
    }
    if (bits == 64) {
      std::vector<uint64_t> words(count);
      ThreefryBits64(state[0], state[1], words);
      if (count > 0) std::memcpy(output.raw(), words.data(), count * 8);
    } else {
      std::vector<uint32_t> words(count);
      ThreefryBits32(state[0], state[1], output.shape(), words);
      if (count > 0) std::memcpy(output.raw(), words.data(), count * 4);
    }
  } else {
    if (state.size() != 2 && state.size() != 3) {
      return absl::InvalidArgumentError("rng_bit_generator: PHILOX takes a state of 2 or 3 (C2)");
    }
    // A state of 2 holds one counter word: XLA reads the 128-bit counter
    // as the state reversed, the key as its high word
    // (xla/service/rng_bit_generator_expander.cc), and keeps the low word.
    Counter128 counter{state[1], state.size() == 3 ? state[2] : state[0]};
    if (bits == 64) {
      std::vector<uint64_t> words(count);
      PhiloxBits(state[0], counter, words);
      if (count > 0) std::memcpy(output.raw(), words.data(), count * 8);
    } else {
      std::vector<uint32_t> words(count);
      PhiloxBits(state[0], counter, words);
      if (count > 0) std::memcpy(output.raw(), words.data(), count * 4);
    }
    state[1] = counter.low;
    if (state.size() == 3) state[2] = counter.high;
  }
  const std::string why = "rng_bit_generator " + algorithm +
                          ": the spec leaves the variant to the implementation; the reference is "
                          "XLA's (Random123's algorithm in XLA's layout)";
  return BothFree(std::move(output_state), std::move(output), kFreeWithConvention, why);
}

// rng: the spec fixes the distribution ("uniform over [a, b)", "normal with
// mean a and standard deviation b") and leaves how the numbers are made to
// the implementation, including determinism. So every element is free, and
// the result as a whole must lie in the support and pass the fit test of
// oracle/distribution_test.h (false alarm 1e-6 per result). Where the spec
// makes the behaviour undefined (a >= b; b < 0; NaN parameters) nothing is
// checked.
absl::StatusOr<std::vector<ResultExpectation>> Rng(const Case& c) {
  HLOCHECK_ASSIGN_OR_RETURN(const std::string distribution, EnumAttribute(c, "rng_distribution"));
  const ElementType type = c.operands[0].element_type();
  double a = 0, b = 0;
  bool integer_ordered = false;  // a < b, compared exactly
  auto test = std::make_shared<DistributionTest>();
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (IsFloat(T) || IsInteger(T)) {
      a = ToDouble<T>(c.operands[0].values<T>()[0]);
      b = ToDouble<T>(c.operands[1].values<T>()[0]);
    }
    if constexpr (IsInteger(T)) {
      test->integer_a = IntegerBits<T>(c.operands[0].values<T>()[0]);
      test->integer_span = IntegerBits<T>(c.operands[1].values<T>()[0]) - test->integer_a;
      integer_ordered = c.operands[0].values<T>()[0] < c.operands[1].values<T>()[0];
    }
  });
  test->a = a;
  test->b = b;
  bool defined = !std::isnan(a) && !std::isnan(b) && std::isfinite(a) && std::isfinite(b);
  if (distribution == "NORMAL") {
    test->kind = DistributionTest::Kind::kNormal;
    defined = defined && b >= 0 && IsFloat(type);
  } else {
    test->kind = IsFloat(type) ? DistributionTest::Kind::kUniformReal
                               : DistributionTest::Kind::kUniformInteger;
    defined = defined && (IsFloat(type) ? a < b : integer_ordered);
  }
  ResultExpectation e =
      AllFree(Tensor(c.result_types[0]), kFreeAnyValue,
              defined ? "rng: the values are random; the result as a whole must follow the " +
                            test->Describe() + " (its support, and a Kolmogorov-Smirnov test)"
                      : "rng with " + distribution +
                            " parameters for which the spec leaves the behaviour undefined");
  if (defined) e.distribution = std::move(test);
  std::vector<ResultExpectation> results;
  results.push_back(std::move(e));
  return results;
}

}  // namespace

std::vector<OpEntry> RandomNumbersOps() {
  return {{"rng_bit_generator", RngBitGenerator}, {"rng", Rng}};
}

}  // namespace hlocheck::oracle
