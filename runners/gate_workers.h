// The gate in worker processes (`hlocheck run --workers N`): N forked
// processes, each with its own backend session, claiming the plan's groups
// one at a time from a shared counter; their reports merged back in plan
// order. Every case is
// the same as in one process (cases depend on the seed, op, type and case
// index alone), so the report is the same but for the wall times.
#ifndef HLOCHECK_RUNNERS_GATE_WORKERS_H_
#define HLOCHECK_RUNNERS_GATE_WORKERS_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "reports/gate_result.h"
#include "runners/flags.h"
#include "runners/gate.h"

namespace hlocheck {

struct WorkersRun {
  GateRun run;                      // the groups of every worker that finished, in plan order
  std::vector<std::string> errors;  // a worker that died, or could not open its backend
};

// Runs the groups of `options`' shard of `plan` in `workers` processes;
// each opens its backend with OpenSession(flags, threads) and calls
// `on_group` (in the worker) as each group finishes. Reports pass through
// `scratch` (a directory, removed after). Call it before this process
// starts threads: the workers are forked.
WorkersRun RunGateInWorkers(const Flags& flags, int threads, const GateOptions& options,
                            const GatePlan& plan, int workers, const std::string& scratch,
                            const std::function<void(const GroupResult&)>& on_group);

// Opens the backend of `flags` in a forked child and closes it again: OK
// when it opens, else the child's error. For a backend whose device must not
// be opened before the workers fork (a CUDA context does not survive fork),
// so that a missing device is said once, not once per worker. Call it before
// this process starts threads.
absl::Status OpenSessionInChild(const Flags& flags);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_GATE_WORKERS_H_
