// The narrow interface every backend sits behind: can you run this case,
// and run it. The CPU (Eigen) adapter implements it, and so will the CUDA
// adapter and the external-compiler adapter.
//
// Independence rule: an adapter never calls the oracle's op code. It may use
// only core/ (element types, tensors, conversions, literals).
#ifndef HLOCHECK_ADAPTERS_ADAPTER_H_
#define HLOCHECK_ADAPTERS_ADAPTER_H_

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "core/status_macros.h"

namespace hlocheck {

struct AdapterSupport {
  bool supported = true;
  std::string reason;  // why not, when !supported

  static AdapterSupport Yes() { return {}; }
  static AdapterSupport No(std::string reason) { return {false, std::move(reason)}; }
};

namespace spec {
class SpecRegistry;
}

struct AdapterOptions {
  AdapterOptions() = default;
  explicit AdapterOptions(int threads) : threads(threads) {}

  int threads = 0;  // 0: one per hardware thread
  // For the backends that compile programs (pjrt:, external:, selftest-*):
  // the spec, to write each case as a StableHLO module; --backend-option
  // KEY=VALUE pairs; inputs as @main's arguments or as constants; the
  // worker process's binary ("" = this one) and per-case timeout.
  const spec::SpecRegistry* registry = nullptr;
  std::map<std::string, std::string> backend_options;
  bool inputs_as_constants = false;
  std::string worker_executable;
  double case_timeout_s = 60;
  // The runner's, not the adapter's: which backend profile (--profile) to
  // hold the backend to; "" for the default, "none" for none.
  std::string profile_path;
  // Cases per module for the compiler backends (RunBatch); 0: the
  // adapter's own choice.
  int batch_size = 0;
};

class Adapter {
 public:
  virtual ~Adapter() = default;

  virtual std::string_view name() const = 0;

  // The ops this backend implements at all (some element types or attribute
  // values may still be unsupported: Supports() decides per case). Every name
  // is an op of spec/ops; a test cross-checks it, and `hlocheck spec` prints
  // it next to the oracle's.
  virtual std::vector<std::string> ImplementedOps() const = 0;

  // Whether this backend can run the case at all: its op, element types and
  // attribute values. A case it cannot run is counted as skipped, never as a pass.
  virtual AdapterSupport Supports(const Case& c) const = 0;

  // Runs a case the backend supports. Returns one tensor per result, of
  // exactly the case's result types; an error status is a backend failure,
  // which the runner reports as a finding.
  // The caller has asked Supports and got yes: Run may rely on that and
  // need not ask again (the gate asks once per case). It must still return
  // an error, not crash, for an op it does not know.
  virtual absl::StatusOr<std::vector<Tensor>> Run(const Case& c) = 0;

  // Run() into `results`: on success they hold the case's results. A
  // backend may build them on the storage of the tensors `results` holds on
  // entry (those of an earlier call, say), so that a caller that runs many
  // cases of one shape does not pay for fresh buffers each time. On failure
  // `results` is left in a valid but unspecified state.
  // How many cases RunBatch takes at a time to best effect: 1 for a
  // backend that gains nothing by it (the default).
  virtual int BatchSize() const { return 1; }

  // Runs several cases the backend supports, one answer per case, in order,
  // each what Run would answer for it alone. A compiler compiles them as one
  // module and pays its fixed cost once; when such a batch fails as a whole
  // (a compile error, a crash, a timeout) it answers each case by Run alone,
  // so that every error is the case's own.
  virtual std::vector<absl::StatusOr<std::vector<Tensor>>> RunBatch(
      std::span<const Case* const> cases) {
    std::vector<absl::StatusOr<std::vector<Tensor>>> answers;
    for (const Case* c : cases) answers.push_back(Run(*c));
    return answers;
  }

  virtual absl::Status RunInto(const Case& c, std::vector<Tensor>& results) {
    absl::StatusOr<std::vector<Tensor>> fresh = Run(c);
    HLOCHECK_RETURN_IF_ERROR(fresh.status());
    results = std::move(*fresh);
    return absl::OkStatus();
  }
};

struct AdapterDescription {
  std::string name;
  std::string description;
  bool self_test = false;  // a deliberately faulty backend, for proving the gate can fail
  // A compiler named by a pattern (pjrt:PLUGIN): it is asked about every op
  // of the spec, so `hlocheck spec` has no column for it.
  bool compiler = false;
  // The ops it implements, known without creating it (a GPU backend where
  // there is no GPU); null: create it and ask.
  std::vector<std::string> (*implemented_ops)() = nullptr;
};

std::vector<AdapterDescription> ListAdapters();

// Whether the backend `name` runs on a GPU (cuda, faulty-cuda-*): one
// process then holds the device, never forked workers.
bool RunsOnGpu(std::string_view name);

// The backend called `name`, or an error naming the known ones.
absl::StatusOr<std::unique_ptr<Adapter>> CreateAdapter(std::string_view name,
                                                       const AdapterOptions& options);

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_ADAPTER_H_
