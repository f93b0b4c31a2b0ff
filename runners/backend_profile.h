// A backend's profile (backends/NAME.yaml): what it is, and its known
// deviations from the spec, each with a reason and a public link. A
// deviation excuses exactly the elements it describes, never a whole op:
//   flush_subnormals  an element that matches once subnormal inputs (or,
//                     for a float result narrower than its operands, inputs
//                     below the result type's smallest normal), or the
//                     exact result, are taken as zero (FTZ/DAZ);
//   nan_min_max       a maximum/minimum element where an operand is NaN and
//                     the result is the other operand (XLA's fast min/max);
//   max_ulp           a float element within `max_ulp` ULPs of the
//                     correctly rounded result (wider than the spec's bound).
// `unsupported` entries name element types or ops the backend does not
// take: their cases are skipped with the entry's reason, never passed; an
// entry with `quantized: true` names only the cases that hold a quantized
// tensor (of its ops, or of every op).
// The gate reports excused cases as "deviating as declared", apart from
// passes and from unexpected mismatches, which alone fail a run.
#ifndef HLOCHECK_RUNNERS_BACKEND_PROFILE_H_
#define HLOCHECK_RUNNERS_BACKEND_PROFILE_H_

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/element_type.h"
#include "spec/registry.h"

namespace hlocheck {

struct Deviation {
  enum class Kind { kFlushSubnormals, kNanMinMax, kMaxUlp };
  std::string id;
  Kind kind = Kind::kFlushSubnormals;
  std::set<std::string> ops;  // empty: every op
  // Element types it applies to, of an operand or of the result (a flushed
  // f32 input changes a comparison's i1 result); empty: every type.
  std::set<ElementType> types;
  int64_t max_ulp = 0;  // kMaxUlp
  std::string reason;
  std::string link;  // a public source (https://)

  bool AppliesTo(const std::string& op, ElementType type) const {
    return (ops.empty() || ops.count(op) > 0) && (types.empty() || types.count(type) > 0);
  }
};

struct Unsupported {
  std::set<std::string> ops;    // empty: every op (of `types`)
  std::set<ElementType> types;  // empty: every type (of `ops`)
  bool quantized = false;       // the cases with a quantized tensor (ops only, no types)
  std::string reason;
  std::string link;
};

struct BackendProfile {
  std::string file;
  std::string description;
  std::vector<Deviation> deviations;
  std::vector<Unsupported> unsupported;

  // The entry that declares `op` with first-operand type `type` unsupported, or null.
  const Unsupported* FindUnsupported(const std::string& op, ElementType type) const;
  // The entry that declares the cases of `op` that hold a quantized tensor
  // unsupported, or null.
  const Unsupported* FindUnsupportedQuantized(const std::string& op) const;
};

const char* DeviationKindName(Deviation::Kind kind);

// Loads and checks a profile: every deviation has an id, a known kind, a
// reason and an https:// link; ops are ops of `registry`. Errors name the
// file and line.
absl::StatusOr<BackendProfile> LoadBackendProfile(const std::string& file,
                                                  const spec::SpecRegistry& registry);

// The profile file of a backend name, "" for none: backends/NAME.yaml for
// pjrt:NAME and external:NAME (an external:FILE's own file), where it exists.
std::string DefaultProfilePath(const std::string& backend);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_BACKEND_PROFILE_H_
