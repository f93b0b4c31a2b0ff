// Region bodies of the ops that take one (scatter's update_computation,
// sort's comparator). The common bodies are recognised by their structure,
// so that the op runs a typed kernel for them; any other body is evaluated
// element by element by running its stablehlo ops through the adapter's own
// op table on 0-dimensional tensors. A body op the adapter lacks makes the
// case unsupported; nothing is guessed.
#ifndef HLOCHECK_ADAPTERS_CPU_REGION_H_
#define HLOCHECK_ADAPTERS_CPU_REGION_H_

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "adapters/cpu/cpu_internal.h"
#include "core/program.h"

namespace hlocheck::cpu {

// How a combiner body (arguments: n current values, then n updates) makes
// its output i from argument i (current) and argument n + i (update).
enum class Combiner {
  kGeneral,   // anything else: evaluate the body
  kKeep,      // returns the current value
  kReplace,   // returns the update
  kAdd,       // stablehlo.add of the two
  kMultiply,  // stablehlo.multiply of the two
  kMaximum,   // stablehlo.maximum of the two
  kMinimum,   // stablehlo.minimum of the two
  kAnd,       // stablehlo.and of the two (integers and booleans)
  kOr,        // stablehlo.or of the two
  kXor,       // stablehlo.xor of the two
};

// One kind per output; a body that is not one block of n outputs gives
// kGeneral for every one.
std::vector<Combiner> ClassifyCombiners(const Region& region, size_t n);

// A comparator body that is one stablehlo.compare, LT or GT, of the first
// pair of arguments (in either order) with the comparison type of the key's
// element type: FLOAT (IEEE, with NaN unordered) or TOTALORDER for floats,
// SIGNED for signed and UNSIGNED for unsigned integers and booleans (or no
// comparison type, which means that one).
struct KeyComparator {
  enum class Order { kGeneral, kAscending, kDescending };
  Order order = Order::kGeneral;
  bool total_order = false;
};
KeyComparator ClassifyComparator(const Region& region, ElementType key_type);

// The type of one element of a tensor of `type` as a region's argument: a
// 0-dimensional tensor, per-tensor quantized where `type` is.
TensorType ScalarOf(const TensorType& type);

// Runs a region body on one element per argument. Create() reads and checks
// the region; each evaluating thread works on its own copy.
class RegionEvaluator {
 public:
  // The region must be one block whose arguments are 0-dimensional tensors
  // of `arguments`, ending in a stablehlo.return of 0-dimensional tensors of
  // `results`, every value defined once before it is used; otherwise
  // InvalidArgument, naming `what` ("sort: comparator").
  static absl::StatusOr<RegionEvaluator> Create(const Region& region,
                                                std::span<const ElementType> arguments,
                                                std::span<const ElementType> results,
                                                std::string what);
  // The same with the scalars' whole types: a per-tensor quantized type
  // makes the body's ops on it run as this backend's quantized ops.
  static absl::StatusOr<RegionEvaluator> Create(const Region& region,
                                                std::span<const TensorType> arguments,
                                                std::span<const TensorType> results,
                                                std::string what);

  // No, with the reason, when some op of the body is not one this adapter
  // runs on its types.
  const AdapterSupport& support() const { return support_; }

  // arguments[i] points at one element (container) of type arguments[i] of
  // Create(); one element of each result type is written to results[j].
  // `device` must run inline (one thread): see InlineDevice().
  absl::Status Evaluate(std::span<const void* const> arguments, std::span<void* const> results,
                        const Device& device);

 private:
  // One op of the body: its case (operands refreshed from the slots before
  // each run) and where its operands come from and its results go.
  struct Step {
    const OpEntry* entry = nullptr;
    Case c;
    std::vector<size_t> operand_slots;
    std::vector<size_t> result_slots;
  };

  std::string what_;
  AdapterSupport support_;
  size_t arguments_ = 0;
  std::vector<Tensor> slots_;  // the arguments, then every value the body defines
  std::vector<Step> steps_;
  std::vector<size_t> return_slots_;
};

// A device on `device`'s pool that runs everything on the calling thread:
// the region evaluator runs its 0-dimensional ops on it, from inside the
// pool's own workers.
inline Eigen::ThreadPoolDevice InlineDevice(const Device& device) {
  return Eigen::ThreadPoolDevice(device.getPool(), 1);
}

}  // namespace hlocheck::cpu

#endif  // HLOCHECK_ADAPTERS_CPU_REGION_H_
