// An fft case's attributes and types checked against each other, the same
// way for every adapter that runs fft (the CPU's and the CUDA one's): what
// they share besides core/ is this reading of the spec's constraints, not
// any computation.
#ifndef HLOCHECK_ADAPTERS_SHAPES_FFT_SHAPES_H_
#define HLOCHECK_ADAPTERS_SHAPES_FFT_SHAPES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"

namespace hlocheck {

struct FftPlan {
  std::string type;              // FFT, IFFT, RFFT or IRFFT
  std::vector<int64_t> lengths;  // fft_length: the trailing dimensions transformed
};

// The case's fft_type and fft_length, where its one operand and result have
// the types and shapes they ask for (RFFT's result and IRFFT's operand hold
// the last length / 2 + 1 elements); InvalidArgument "fft: ..." otherwise.
absl::StatusOr<FftPlan> CheckFft(const Case& c);

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_SHAPES_FFT_SHAPES_H_
