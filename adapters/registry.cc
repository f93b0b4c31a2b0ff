// The table of backends the runner can name. Each entry builds its adapter;
// adding a backend is adding a line.
#include <array>
#include <memory>

#include "absl/strings/str_cat.h"
#include "adapters/adapter.h"
#include "adapters/cpu/cpu_adapter.h"
#include "adapters/faulty/faulty_adapters.h"

namespace hlocheck {
namespace {

struct AdapterEntry {
  const char* name;
  const char* description;
  bool self_test;
  std::unique_ptr<Adapter> (*create)(const AdapterOptions&);
};

const std::array<AdapterEntry, 1> kAdapters = {{
    {"cpu", "Eigen Tensor module on a thread pool (the way XLA:CPU runs ops)", false,
     [](const AdapterOptions& options) -> std::unique_ptr<Adapter> {
       return std::make_unique<CpuAdapter>(options);
     }},
}};

}  // namespace

std::vector<AdapterDescription> ListAdapters() {
  std::vector<AdapterDescription> list;
  for (const AdapterEntry& entry : kAdapters) {
    list.push_back({entry.name, entry.description, entry.self_test});
  }
  // The deliberately faulty backends, for proving that the gate can fail.
  for (const FaultDescription& fault : Faults())
    list.push_back({fault.name, fault.description, true});
  return list;
}

absl::StatusOr<std::unique_ptr<Adapter>> CreateAdapter(std::string_view name,
                                                       const AdapterOptions& options) {
  std::string known;
  for (const AdapterEntry& entry : kAdapters) {
    if (entry.name == name) return entry.create(options);
    absl::StrAppend(&known, known.empty() ? "" : ", ", entry.name);
  }
  if (std::unique_ptr<Adapter> faulty = CreateFaultyAdapter(std::string(name), options)) {
    return faulty;
  }
  absl::StrAppend(&known, " (and the self-test backends 'hlocheck run --list-backends' shows)");
  return absl::NotFoundError(
      absl::StrCat("no adapter named '", std::string(name), "'; known: ", known));
}

}  // namespace hlocheck
