// rng_bit_generator on the CPU: Threefry-2x32 (20 rounds) and Philox-4x32
// (10 rounds) as Random123 defines them, in XLA's layout of state and
// counters (the de facto convention the oracle names; the spec leaves the
// variant open). Written here again, not shared with the oracle, so that the
// two are independent implementations of the published algorithms. DEFAULT
// runs THREE_FRY with the state's first two words; output types of 8 and 16
// bits take the low bits of one 32-bit word each (any value is legal there).
#include <array>
#include <cmath>
#include <cstring>
#include <numbers>
#include <random>

#include "adapters/cpu/cpu_internal.h"

namespace hlocheck::cpu {
namespace {

uint32_t Rotl32(uint32_t v, int r) { return (v << r) | (v >> (32 - r)); }

std::array<uint32_t, 2> Threefry(uint64_t counter, uint64_t key) {
  static constexpr int kR[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t k[3] = {
      static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32),
      0x1BD11BDAu ^ static_cast<uint32_t>(key) ^ static_cast<uint32_t>(key >> 32)};
  uint32_t a = static_cast<uint32_t>(counter) + k[0];
  uint32_t b = static_cast<uint32_t>(counter >> 32) + k[1];
  for (uint32_t s = 1; s <= 5; ++s) {
    for (int r = 0; r < 4; ++r) {
      a += b;
      b = Rotl32(b, kR[(s % 2 == 1 ? 0 : 4) + r]) ^ a;
    }
    a += k[s % 3];
    b += k[(s + 1) % 3] + s;
  }
  return {a, b};
}

std::array<uint32_t, 4> Philox(uint64_t low, uint64_t high, uint64_t key) {
  uint32_t x[4] = {static_cast<uint32_t>(low), static_cast<uint32_t>(low >> 32),
                   static_cast<uint32_t>(high), static_cast<uint32_t>(high >> 32)};
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint64_t m0 = uint64_t{x[0]} * 0xD2511F53u;
    const uint64_t m1 = uint64_t{x[2]} * 0xCD9E8D57u;
    const uint32_t next[4] = {
        static_cast<uint32_t>(m1 >> 32) ^ x[1] ^ k0, static_cast<uint32_t>(m1),
        static_cast<uint32_t>(m0 >> 32) ^ x[3] ^ k1, static_cast<uint32_t>(m0)};
    std::memcpy(x, next, sizeof(x));
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return {x[0], x[1], x[2], x[3]};
}

// The linear index over XLA's half shape of the 32-bit Threefry layout for
// each element, and which of the two words it takes: the shape halved
// (rounded up) along its first even dimension, or else its largest.
struct HalfLayout {
  std::vector<int64_t> half_index;
  std::vector<uint8_t> word;
  int64_t half_count = 1;
};

HalfLayout ThreefryHalfLayout(const Shape& shape, const Device& device) {
  HalfLayout layout;
  const int64_t n = NumElements(shape);
  layout.half_index.resize(static_cast<size_t>(n));
  layout.word.resize(static_cast<size_t>(n));
  if (shape.empty()) return layout;
  const auto rank = static_cast<int64_t>(shape.size());
  int64_t axis = -1;
  for (int64_t d = 0; d < rank; ++d) {
    if (axis < 0 && shape[d] % 2 == 0) axis = d;
  }
  if (axis < 0) {
    axis = 0;
    for (int64_t d = 1; d < rank; ++d) axis = shape[d] > shape[axis] ? d : axis;
  }
  Shape half = shape;
  half[axis] = (shape[axis] + 1) / 2;
  layout.half_count = NumElements(half);
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  const std::vector<int64_t> half_strides = RowMajorStrides(half);
  ParallelFor(device, n, 9, 10.0 * rank, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      int64_t index = 0;
      for (int64_t d = 0; d < rank; ++d) {
        const int64_t coordinate = i / strides[d] % shape[d];
        index += (d == axis ? coordinate / 2 : coordinate) * half_strides[d];
        if (d == axis) layout.word[i] = static_cast<uint8_t>(coordinate % 2);
      }
      layout.half_index[i] = index;
    }
  });
  return layout;
}

// Two results (the state and the bits): the table's count says variadic.
AdapterSupport SupportsRngBitGenerator(const Case& c) {
  if (c.operands.size() != 1 || c.result_types.size() != 2) {
    return AdapterSupport::No("rng_bit_generator needs 1 operand and 2 results");
  }
  const ElementType type = c.result_types[1].element_type;
  if (!IsInteger(type) && !IsFloat(type)) {
    return AdapterSupport::No("rng_bit_generator into " + TypeName(type) + " is not implemented");
  }
  return SupportsUnquantized(c);
}

// The blocks are independent (counter-based generators), so every loop
// below is split over the pool.
absl::StatusOr<Results> RunRngBitGenerator(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1, 2));
  HLOCHECK_ASSIGN_OR_RETURN(const std::string algorithm, EnumAttribute(c, "rng_algorithm"));
  Tensor state = c.operands[0];
  auto words = state.values<ElementType::kUI64>();
  if (words.size() < 2 || (algorithm == "THREE_FRY" && words.size() != 2) ||
      (algorithm == "PHILOX" && words.size() > 3)) {
    return absl::InvalidArgumentError("rng_bit_generator: a state of " +
                                      std::to_string(words.size()) + " for " + algorithm);
  }
  Tensor output(c.result_types[1]);
  const int64_t n = output.num_elements();
  const int width = ContainerBytes(output.element_type());
  const bool wide = width == 8;
  std::vector<uint64_t> bits(static_cast<size_t>(n));
  if (algorithm == "PHILOX") {
    // XLA's layout: a 128-bit counter (the state reversed where it has 2
    // words, the key as its high word), blocks of four 32-bit or two
    // 64-bit outputs.
    uint64_t low = words[1];
    const uint64_t high = words.size() == 3 ? words[2] : words[0];
    const int64_t per_block = wide ? 2 : 4;
    const int64_t blocks = (n + per_block - 1) / per_block;
    ParallelFor(device, blocks, 32, 120, [&](int64_t first, int64_t last) {
      for (int64_t j = first; j < last; ++j) {
        const uint64_t counter = low + static_cast<uint64_t>(j);
        const std::array<uint32_t, 4> r = Philox(counter, high + (counter < low ? 1 : 0), words[0]);
        for (int64_t k = 0; k < per_block && j * per_block + k < n; ++k) {
          bits[j * per_block + k] =
              wide ? (r[2 * k] | (uint64_t{r[2 * k + 1]} << 32)) : uint64_t{r[k]};
        }
      }
    });
    const uint64_t next = low + static_cast<uint64_t>(blocks);
    if (words.size() == 3 && next < low) ++words[2];
    low = next;
    words[1] = low;
  } else {
    // THREE_FRY (and DEFAULT): counter words[1], key words[0].
    if (wide) {
      ParallelFor(device, n, 8, 100, [&](int64_t first, int64_t last) {
        for (int64_t i = first; i < last; ++i) {
          const std::array<uint32_t, 2> r = Threefry(words[1] + static_cast<uint64_t>(i), words[0]);
          bits[i] = r[0] | (uint64_t{r[1]} << 32);
        }
      });
      words[1] += static_cast<uint64_t>(n);
    } else {
      // One block per pair of elements (the half layout): each block once.
      const HalfLayout layout = ThreefryHalfLayout(output.shape(), device);
      std::vector<std::array<uint32_t, 2>> halves(static_cast<size_t>(layout.half_count));
      ParallelFor(device, layout.half_count, 8, 100, [&](int64_t first, int64_t last) {
        for (int64_t h = first; h < last; ++h) {
          halves[h] = Threefry(words[1] + static_cast<uint64_t>(h), words[0]);
        }
      });
      ParallelFor(device, n, 17, 2, [&](int64_t first, int64_t last) {
        for (int64_t i = first; i < last; ++i)
          bits[i] = halves[layout.half_index[i]][layout.word[i]];
      });
      words[1] += static_cast<uint64_t>(output.shape().empty() ? 1 : layout.half_count);
    }
  }
  // Each element's low `width` bytes (little-endian containers).
  std::byte* out = static_cast<std::byte*>(output.raw());
  const bool boolean = IsBool(output.element_type());
  ParallelFor(device, n, 8.0 + width, 2, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      if (boolean) {
        out[i] = static_cast<std::byte>(bits[i] & 1);
      } else {
        std::memcpy(out + i * width, &bits[i], width);
      }
    }
  });
  Results results;
  results.push_back(std::move(state));
  results.push_back(std::move(output));
  return results;
}

// rng: a 64-bit Mersenne Twister seeded from the case's a, b and shape, so
// that a case gives the same numbers every run. UNIFORM: a (1 - u) + b u
// for u in [0, 1) with 53 random bits (no overflow where b - a would), kept
// below b after rounding to the type; integers a + r mod (b - a). NORMAL:
// Box-Muller in double, a + b z, rounded once to the type.
template <ElementType T>
void FillRng(const Tensor& a_tensor, const Tensor& b_tensor, bool normal, Tensor& result) {
  using C = ContainerT<T>;
  const C a_value = a_tensor.values<T>()[0];
  const C b_value = b_tensor.values<T>()[0];
  uint64_t seed = 0x5eed;
  auto mix = [&](uint64_t v) { seed = (seed ^ v) * 0x9E3779B97F4A7C15ull + (seed >> 29); };
  mix(static_cast<uint64_t>(a_tensor.bytes().size()));
  for (std::byte x : a_tensor.bytes()) mix(static_cast<uint64_t>(x));
  for (std::byte x : b_tensor.bytes()) mix(static_cast<uint64_t>(x) + 0x100);
  for (int64_t d : result.shape()) mix(static_cast<uint64_t>(d) + 0x10000);
  std::mt19937_64 engine(seed);
  auto unit = [&] { return static_cast<double>(engine() >> 11) * 0x1p-53; };  // [0, 1)
  auto out = result.values<T>();
  if constexpr (IsFloat(T)) {
    const double a = ToDouble<T>(a_value);
    const double b = ToDouble<T>(b_value);
    const FloatFormat& format = Format(T);
    for (C& cell : out) {
      double x;
      if (normal) {
        const double u1 = 1.0 - unit();  // (0, 1]
        const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * std::numbers::pi * unit());
        x = a + b * z;
      } else {
        const double u = unit();
        x = a * (1 - u) + b * u;
      }
      uint8_t flags = 0;
      C rounded = FromExact<T>(ExactValue::FromDouble(x), RoundingMode::kNearestEven, &flags);
      if (!normal && !(ToDouble<T>(rounded) < b)) {
        // Rounded up to b: the largest value of the type below it.
        rounded = FloatFromBits<T>(NextFloatBits(format, FloatBits<T>(b_value), true));
      }
      cell = rounded;
    }
  } else {
    // Uniform over [0, span) without modulo bias, which a span near 2^64
    // makes large (found by the oracle's fit test).
    const uint64_t a = IntegerBits<T>(a_value);
    const uint64_t span = IntegerBits<T>(b_value) - a;
    std::uniform_int_distribution<uint64_t> offset(0, span == 0 ? 0 : span - 1);
    for (C& cell : out) cell = WrapInteger<T>(a + offset(engine));
  }
}

AdapterSupport SupportsRng(const Case& c) {
  const ElementType type = c.operands[0].element_type();
  if (!IsFloat(type) && !IsInteger(type)) {
    return AdapterSupport::No("rng of " + TypeName(type) + " is not implemented");
  }
  return SupportsUnquantized(c);
}

absl::StatusOr<Results> RunRng(const Case& c, const Device&) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  HLOCHECK_ASSIGN_OR_RETURN(const std::string distribution, EnumAttribute(c, "rng_distribution"));
  Tensor result(c.result_types[0]);
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T) || IsInteger(T)) {
      FillRng<T>(c.operands[0], c.operands[1], distribution == "NORMAL", result);
    }
  });
  return OneResult(std::move(result));
}

}  // namespace

std::vector<OpEntry> RandomNumbersOps() {
  return {{"rng_bit_generator", kVariadic, &SupportsRngBitGenerator, &RunRngBitGenerator},
          {"rng", kVariadic, &SupportsRng, &RunRng}};
}

}  // namespace hlocheck::cpu
