// A PJRT plugin loaded through its C API (pjrt_c_api.h, taken at configure
// time from the installed plugin wheel): dlopen, the API version check, one
// client on the plugin's first addressable device, compile a StableHLO
// module, move tensors in and out, execute. Everything hlocheck needs of a
// plugin and nothing more; the Adapter around it is in pjrt_runner.h.
#ifndef HLOCHECK_ADAPTERS_PJRT_PJRT_CLIENT_H_
#define HLOCHECK_ADAPTERS_PJRT_PJRT_CLIENT_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/tensor.h"

struct PJRT_Api;
struct PJRT_Client;
struct PJRT_Device;
struct PJRT_LoadedExecutable;

namespace hlocheck::pjrt {

// What a plugin says about itself.
struct PluginInfo {
  std::string path;
  int api_major = 0;
  int api_minor = 0;
  std::string platform_name;     // "cpu", "cuda", ...
  std::string platform_version;  // free text, e.g. a CUDA version
  // Plugin attributes (PJRT_Plugin_Attributes), as text: xla_version,
  // stablehlo_current_version ("1.13.3"), stablehlo_minimum_version, ...
  std::vector<std::pair<std::string, std::string>> attributes;

  std::string Attribute(std::string_view name) const;
  std::string Describe() const;  // one line, for reports
};

// The header's PJRT_API_MAJOR.PJRT_API_MINOR, which hlocheck was built against.
std::pair<int, int> BuiltApiVersion();

// Whether a plugin speaking API `major.minor` can serve a caller built
// against `built`: same major version (0.x changes break the ABI between
// majors), any minor (struct_size tells each side which fields the other knows).
bool ApiVersionCompatible(std::pair<int, int> plugin, std::pair<int, int> built);

// Whether PJRT has a buffer type for `type` (it has none for the f6 types).
bool HasPjrtType(ElementType type);

class Executable;

class Client {
 public:
  // Loads the plugin (never unloaded: XLA plugins do not support it) and
  // creates a client. `create_options` are PJRT_NamedValue strings, ints
  // or bools as text (see ParseOptionValue).
  static absl::StatusOr<std::unique_ptr<Client>> Load(
      const std::string& plugin_path,
      const std::vector<std::pair<std::string, std::string>>& create_options = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  const PluginInfo& info() const { return info_; }

  // Compiles MLIR text (program format "mlir") with serialized
  // xla.CompileOptionsProto bytes (compile_options.h).
  absl::StatusOr<std::unique_ptr<Executable>> Compile(std::string_view module_text,
                                                      const std::string& compile_options);

  // Runs `executable` on the device with `inputs` as its arguments and
  // returns its outputs as tensors of `result_types`; an output of another
  // element type or shape is an error that says so.
  absl::StatusOr<std::vector<Tensor>> Execute(Executable& executable,
                                              std::span<const Tensor> inputs,
                                              std::span<const TensorType> result_types);

 private:
  Client() = default;

  const PJRT_Api* api_ = nullptr;
  PJRT_Client* client_ = nullptr;
  PJRT_Device* device_ = nullptr;
  PluginInfo info_;
};

class Executable {
 public:
  Executable(const PJRT_Api* api, PJRT_LoadedExecutable* executable, size_t num_outputs)
      : api_(api), executable_(executable), num_outputs_(num_outputs) {}
  ~Executable();
  Executable(const Executable&) = delete;
  Executable& operator=(const Executable&) = delete;

  PJRT_LoadedExecutable* get() const { return executable_; }
  size_t num_outputs() const { return num_outputs_; }

 private:
  friend class Client;  // sets num_outputs_ once compiled

  const PJRT_Api* api_;
  PJRT_LoadedExecutable* executable_;
  size_t num_outputs_;
};

}  // namespace hlocheck::pjrt

#endif  // HLOCHECK_ADAPTERS_PJRT_PJRT_CLIENT_H_
