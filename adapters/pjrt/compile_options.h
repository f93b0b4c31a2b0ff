// xla.CompileOptionsProto, serialized by hand: PJRT_Client_Compile takes the
// bytes of that protobuf, and hlocheck needs only a few of its fields, so it
// writes them itself rather than depend on protoc and XLA's .proto files.
// Field numbers: xla/pjrt/proto/compile_options.proto (OpenXLA).
#ifndef HLOCHECK_ADAPTERS_PJRT_COMPILE_OPTIONS_H_
#define HLOCHECK_ADAPTERS_PJRT_COMPILE_OPTIONS_H_

#include <cstdint>
#include <map>
#include <string>
#include <variant>

#include "absl/status/statusor.h"

namespace hlocheck::pjrt {

// An entry of CompileOptionsProto.env_option_overrides: how XLA takes its
// debug flags (e.g. xla_cpu_enable_fast_min_max) through the C API.
using OptionValue = std::variant<std::string, bool, int64_t, double>;

struct CompileOptions {
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  std::map<std::string, OptionValue> env_option_overrides;
};

// The serialized CompileOptionsProto.
std::string SerializeCompileOptions(const CompileOptions& options);

// A --backend-option value as an OptionValue: true/false, an integer, a
// number, else the text itself.
OptionValue ParseOptionValue(const std::string& text);

}  // namespace hlocheck::pjrt

#endif  // HLOCHECK_ADAPTERS_PJRT_COMPILE_OPTIONS_H_
