// A compiler that hlocheck cannot link, driven as an external process
// through the protocol of docs/external-protocol.md (version 1): each case
// is a directory with module.mlir, the inputs as .npy files and
// request.json; the driver writes the results as .npy files. One-shot mode
// runs the driver's argv once per case; worker mode starts it once and
// sends it one request per line on stdin, reading one reply line from its
// stdout. A driver that dies is a crash finding, one that outlives the
// case timeout a hang finding (it is killed, and restarted for the next case).
#ifndef HLOCHECK_ADAPTERS_EXTERNAL_EXTERNAL_BACKEND_H_
#define HLOCHECK_ADAPTERS_EXTERNAL_EXTERNAL_BACKEND_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "adapters/program/program_backend.h"

namespace hlocheck::external {

inline constexpr int kProtocolVersion = 1;

struct DriverConfig {
  std::string file;  // where it was read from
  std::string description;
  enum class Mode { kOneShot, kWorker } mode = Mode::kWorker;
  std::vector<std::string> argv;  // {source} and {config_dir} expanded
  // The element types the driver takes; empty: every type.
  std::set<ElementType> element_types;
  // `sub_byte_tensors: {whole_bytes: true, reason: ...}`: the compiler takes
  // a tensor of 2- or 4-bit integers at @main's boundary only where its bits
  // fill whole bytes; `reason` (with its public source) is what the skipped
  // cases say. Empty: no such limit.
  std::string sub_byte_whole_bytes_reason;
  // Options passed to the driver as request.json's "options" (defaults from
  // the file, then --backend-option KEY=VALUE).
  std::map<std::string, std::string> options;
};

// The driver section of a backend file (backends/NAME.yaml), or of any
// YAML file with one: `external: {protocol: 1, mode: worker|oneshot, argv:
// [...], element_types: [...], sub_byte_tensors: {...}, options: {...}}`.
// Errors name the file and line.
absl::StatusOr<DriverConfig> LoadDriverConfig(const std::string& file);

// hlocheck's backends/ directory (backend files and profiles), in the
// source tree this build was configured from.
std::string BackendsDirectory();

// The file `external:NAME` means: NAME itself when it names a file, else
// backends/NAME.yaml in hlocheck's source tree.
std::string DriverConfigPath(const std::string& name);

absl::StatusOr<std::unique_ptr<ProgramBackend>> CreateExternalBackend(
    const std::string& name, const std::map<std::string, std::string>& options,
    double case_timeout_s);

}  // namespace hlocheck::external

#endif  // HLOCHECK_ADAPTERS_EXTERNAL_EXTERNAL_BACKEND_H_
