// `hlocheck worker`: the process that hosts a compiler backend for
// `hlocheck run --backend pjrt:...` (adapters/worker). Not for people: the
// gate starts it with pipes on fds 3 and 4.
#include <iostream>

#include "adapters/worker/worker_backend.h"
#include "runners/commands.h"
#include "runners/flags.h"

namespace hlocheck {

int WorkerCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.Add("backend", "NAME", "the program backend to host (pjrt:PLUGIN, selftest-crash:OP, ...)");
  flags.Add("backend-option", "KEY=VALUE", "an option of the backend (repeatable)");
  flags.Add("request-fd", "FD", "the pipe requests arrive on", "3");
  flags.Add("reply-fd", "FD", "the pipe replies go to", "4");
  flags.AddSwitch("help", "show this help");
  if (absl::Status parsed = flags.Parse(args); !parsed.ok()) {
    std::cerr << "hlocheck worker: " << parsed.message() << "\n";
    return kExitUsage;
  }
  if (flags.Switch("help")) {
    std::cout << "usage: hlocheck worker --backend NAME [--backend-option KEY=VALUE]...\n\n"
                 "Hosts a compiler backend for the gate, which starts it: requests on the\n"
                 "request pipe, replies on the reply pipe (adapters/worker/worker_protocol.h).\n"
                 "A crash or hang here is the gate's finding, not its end.\n\nflags:\n"
              << flags.Help();
    return kExitOk;
  }
  ProgramBackendSpec spec;
  spec.name = flags.Get("backend");
  for (const std::string& option : flags.GetAll("backend-option")) {
    size_t eq = option.find('=');
    if (eq == std::string::npos) {
      std::cerr << "hlocheck worker: --backend-option " << option << ": expected KEY=VALUE\n";
      return kExitUsage;
    }
    spec.options[option.substr(0, eq)] = option.substr(eq + 1);
  }
  auto request_fd = flags.GetInt("request-fd", 0, 1 << 20);
  auto reply_fd = flags.GetInt("reply-fd", 0, 1 << 20);
  if (!request_fd.ok() || !reply_fd.ok()) {
    std::cerr << "hlocheck worker: bad --request-fd or --reply-fd\n";
    return kExitUsage;
  }
  return worker::ServeWorker(spec, static_cast<int>(*request_fd), static_cast<int>(*reply_fd));
}

}  // namespace hlocheck
