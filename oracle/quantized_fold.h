// What a reduction's body gives over per-tensor quantized values when it is
// one recognised op of its two arguments (add, maximum, minimum), in every
// tree the spec allows (oracle/quantized_fold.cc; docs/numerics.md,
// "Reductions of quantized tensors").
#ifndef HLOCHECK_ORACLE_QUANTIZED_FOLD_H_
#define HLOCHECK_ORACLE_QUANTIZED_FOLD_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "core/types.h"
#include "oracle/accumulation.h"

namespace hlocheck::oracle {

struct QuantizedFold {
  enum class Outcome {
    kExact,  // every tree gives `reference`
    kRange,  // every tree gives a storage integer of [low, high]
    kOpen,   // some step may round in the expressed type: `reason`
  };
  Outcome outcome = Outcome::kExact;
  // An integer kernel's value: storage - zero_point summed (or the extreme
  // taken) exactly, saturated once at the end.
  int64_t reference = 0;
  int64_t low = 0;
  int64_t high = 0;
  std::string_view reason;
};

// Whether `kind` over values of `type` (per-tensor quantized) is recognised
// here: add, maximum and minimum.
bool FoldsQuantized(Combiner kind);

// The combiner's identity among `type`'s storage integers: the zero point
// for add (quantized 0), storage_min for maximum, storage_max for minimum.
bool IsQuantizedIdentity(Combiner kind, int64_t storage, const TensorType& type);

// `storages`: every value the tree holds (the slice, and the init value
// where there is one; an identity may appear any number of times).
QuantizedFold FoldQuantized(Combiner kind, std::span<const int64_t> storages,
                            const TensorType& type);

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_QUANTIZED_FOLD_H_
