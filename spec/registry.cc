#include "spec/registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "absl/status/status.h"
#include "core/status_macros.h"

#ifndef HLOCHECK_SPEC_DIR
#error "HLOCHECK_SPEC_DIR must name the spec/ops directory"
#endif

namespace hlocheck::spec {

absl::StatusOr<SpecRegistry> SpecRegistry::LoadDirectory(const std::string& directory) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(directory, error)) {
    return absl::NotFoundError(directory + ": spec directory not found");
  }
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  SpecRegistry registry;
  uint64_t digest = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  auto digest_file = [&digest](const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes = fs::path(file).filename().string() + '\0' +
                              std::string(std::istreambuf_iterator<char>(in), {});
    for (unsigned char byte : bytes) digest = (digest ^ byte) * 0x100000001b3ull;
  };
  for (const std::string& file : files) {
    digest_file(file);
    auto op = LoadOpSpec(file);
    HLOCHECK_RETURN_IF_ERROR(op.status());
    std::string stem = fs::path(file).stem().string();
    if (op->name != stem) {
      return absl::InvalidArgumentError(file + ":1:1: the op is named '" + op->name +
                                        "' but the file is " + stem + ".yaml");
    }
    registry.ops_.push_back(*std::move(op));
  }
  fs::path ops_directory = fs::path(directory);
  if (ops_directory.filename().empty()) ops_directory = ops_directory.parent_path();
  fs::path types = ops_directory.parent_path() / "types" / "quantized_type.yaml";
  if (fs::exists(types, error)) {
    auto quantized = LoadTypeConstraints(types.string());
    HLOCHECK_RETURN_IF_ERROR(quantized.status());
    registry.quantized_type_ = *std::move(quantized);
    digest_file(types);
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(digest));
  registry.digest_ = hex;
  return registry;
}

const OpSpec* SpecRegistry::Find(std::string_view op) const {
  auto it =
      std::lower_bound(ops_.begin(), ops_.end(), op,
                       [](const OpSpec& spec, std::string_view name) { return spec.name < name; });
  return it != ops_.end() && it->name == op ? &*it : nullptr;
}

size_t SpecRegistry::seed_constraint_count() const {
  size_t count = 0;
  for (const OpSpec& op : ops_) count += op.seed_constraint_count();
  return count;
}

size_t SpecRegistry::constraint_count() const {
  size_t count = 0;
  for (const OpSpec& op : ops_) count += op.constraints.size();
  return count;
}

std::string DefaultSpecDirectory() {
  if (const char* override_dir = std::getenv("HLOCHECK_SPEC_DIR")) return override_dir;
  return HLOCHECK_SPEC_DIR;
}

absl::StatusOr<const SpecRegistry*> DefaultRegistry() {
  static const absl::StatusOr<SpecRegistry>* registry =
      new absl::StatusOr<SpecRegistry>(SpecRegistry::LoadDirectory(DefaultSpecDirectory()));
  if (!registry->ok()) return registry->status();
  return &**registry;
}

}  // namespace hlocheck::spec
