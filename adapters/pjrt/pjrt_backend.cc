#include "adapters/pjrt/pjrt_backend.h"

#include <cstdlib>
#include <list>
#include <unordered_map>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adapters/pjrt/compile_options.h"
#include "adapters/pjrt/pjrt_client.h"
#include "core/status_macros.h"

namespace hlocheck::pjrt {
namespace {

class PjrtBackend : public ProgramBackend {
 public:
  PjrtBackend(std::unique_ptr<Client> client, std::string compile_options, size_t cache_size)
      : client_(std::move(client)),
        compile_options_(std::move(compile_options)),
        cache_size_(cache_size) {}

  std::string Describe() const override { return client_->info().Describe(); }

  absl::StatusOr<std::vector<Tensor>> Run(std::string_view module_text,
                                          std::span<const Tensor> inputs,
                                          std::span<const TensorType> result_types) override {
    auto executable = Compiled(module_text);
    HLOCHECK_RETURN_IF_ERROR(executable.status());
    return client_->Execute(**executable, inputs, result_types);
  }

 private:
  // The executable for `module_text`, compiled now or found in the cache
  // (least recently used entries go first once it is full).
  absl::StatusOr<Executable*> Compiled(std::string_view module_text) {
    std::string key(module_text);
    if (auto it = cache_.find(key); it != cache_.end()) {
      order_.splice(order_.begin(), order_, it->second.position);
      return it->second.executable.get();
    }
    auto executable = client_->Compile(module_text, compile_options_);
    HLOCHECK_RETURN_IF_ERROR(executable.status());
    if (cache_.size() >= cache_size_ && !order_.empty()) {
      cache_.erase(order_.back());
      order_.pop_back();
    }
    order_.push_front(key);
    Entry& entry = cache_[key];
    entry.executable = *std::move(executable);
    entry.position = order_.begin();
    return entry.executable.get();
  }

  struct Entry {
    std::unique_ptr<Executable> executable;
    std::list<std::string>::iterator position;
  };
  std::unique_ptr<Client> client_;
  std::string compile_options_;
  size_t cache_size_;
  std::list<std::string> order_;  // most recently used first
  std::unordered_map<std::string, Entry> cache_;
};

}  // namespace

std::string KnownPluginPath(const std::string& name) {
  if (name == "xla-cpu") {
    if (const char* path = std::getenv("HLOCHECK_PJRT_XLA_CPU"); path != nullptr && *path)
      return path;
#ifdef HLOCHECK_XLA_CPU_PLUGIN
    return HLOCHECK_XLA_CPU_PLUGIN;
#endif
  }
  return name;
}

bool PjrtAvailable() { return true; }

absl::StatusOr<std::unique_ptr<ProgramBackend>> CreatePjrtBackend(
    const std::string& plugin, const std::map<std::string, std::string>& options) {
  std::string path = KnownPluginPath(plugin);
  if (path == plugin && path.find('/') == std::string::npos && !absl::EndsWith(path, ".so")) {
    return absl::NotFoundError(absl::StrCat(
        "pjrt:", plugin, ": not a path to a plugin .so, nor a plugin the install step knows ",
        "(xla-cpu); for xla-cpu run scripts/install-deps, or set $HLOCHECK_PJRT_XLA_CPU"));
  }
  CompileOptions compile;
  std::vector<std::pair<std::string, std::string>> client_options;
  size_t cache_size = 512;
  for (const auto& [key, value] : options) {
    if (absl::StartsWith(key, "client.")) {
      client_options.emplace_back(key.substr(7), value);
    } else if (key == "cache_size") {
      if (!absl::SimpleAtoi(value, &cache_size) || cache_size == 0) {
        return absl::InvalidArgumentError("--backend-option cache_size=" + value +
                                          ": expected a positive integer");
      }
    } else {
      compile.env_option_overrides[key] = ParseOptionValue(value);
    }
  }
  auto client = Client::Load(path, client_options);
  HLOCHECK_RETURN_IF_ERROR(client.status());
  return std::make_unique<PjrtBackend>(*std::move(client), SerializeCompileOptions(compile),
                                       cache_size);
}

}  // namespace hlocheck::pjrt
