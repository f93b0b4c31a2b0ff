// The `hlocheck` subcommands. Each returns the process exit status:
// 0 all agree / success, 1 a mismatch or failure was found, 2 bad usage or input.
#ifndef HLOCHECK_RUNNERS_COMMANDS_H_
#define HLOCHECK_RUNNERS_COMMANDS_H_

#include <string>
#include <vector>

namespace hlocheck {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);
};

const std::vector<Command>& Commands();

int RunCommand(const std::vector<std::string>& args);
int ReplayCommand(const std::vector<std::string>& args);
int TypesCommand(const std::vector<std::string>& args);
int SpecCommand(const std::vector<std::string>& args);
int VerifyCommand(const std::vector<std::string>& args);
int InterpretCommand(const std::vector<std::string>& args);
int ExhaustiveCommand(const std::vector<std::string>& args);
int GenerateCommand(const std::vector<std::string>& args);
int CoverageCommand(const std::vector<std::string>& args);
int ReportCommand(const std::vector<std::string>& args);
int MergeCommand(const std::vector<std::string>& args);
int FuzzCommand(const std::vector<std::string>& args);
int FindingsCommand(const std::vector<std::string>& args);
int ProgramsCommand(const std::vector<std::string>& args);
int WorkerCommand(const std::vector<std::string>& args);

// The top-level entry: `hlocheck COMMAND [flags]`.
int Main(const std::vector<std::string>& args);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_COMMANDS_H_
