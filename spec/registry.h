// All op specs of a spec directory (spec/ops/*.yaml), loaded and validated.
#ifndef HLOCHECK_SPEC_REGISTRY_H_
#define HLOCHECK_SPEC_REGISTRY_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "spec/op_spec.h"

namespace hlocheck::spec {

class SpecRegistry {
 public:
  // Loads every *.yaml file of `directory`. Any malformed file is an error
  // naming file:line:column; the file name must be the op's name.
  static absl::StatusOr<SpecRegistry> LoadDirectory(const std::string& directory);

  const OpSpec* Find(std::string_view op) const;
  const std::vector<OpSpec>& ops() const { return ops_; }
  // Numbered constraints of seed 002 (the 332 of the full spec).
  size_t seed_constraint_count() const;
  // All constraints, the public spec's additions included.
  size_t constraint_count() const;
  // 16 hex digits that change whenever any spec file loaded changes (FNV-1a
  // over each file's name and bytes): reports name the spec a run checked
  // against by it.
  const std::string& digest() const { return digest_; }
  // The quantized types' own constraints (from ../types/quantized_type.yaml
  // beside the ops directory), or null when absent.
  const TypeConstraints* quantized_type() const {
    return quantized_type_ ? &*quantized_type_ : nullptr;
  }

 private:
  std::vector<OpSpec> ops_;  // sorted by name
  std::optional<TypeConstraints> quantized_type_;
  std::string digest_;
};

// Where the op files are: $HLOCHECK_SPEC_DIR if set, else the source tree's spec/ops.
std::string DefaultSpecDirectory();

// The registry of the default directory, loaded once; an error if it is malformed.
absl::StatusOr<const SpecRegistry*> DefaultRegistry();

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_REGISTRY_H_
