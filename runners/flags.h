// A small command-line flag parser: `--name value`, `--name=value` and
// boolean `--name`, with every flag declared (and documented) up front so
// that `--help` lists them and an unknown flag is an error.
#ifndef HLOCHECK_RUNNERS_FLAGS_H_
#define HLOCHECK_RUNNERS_FLAGS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace hlocheck {

class Flags {
 public:
  // A flag taking a value; `placeholder` names it in help ("N", "LIST").
  void Add(std::string name, std::string placeholder, std::string help,
           std::string default_value = "");
  // A boolean switch.
  void AddSwitch(std::string name, std::string help);

  // Parses `args` (without the program and command names). Positional
  // arguments are collected in positional().
  absl::Status Parse(const std::vector<std::string>& args);

  std::string Get(const std::string& name) const;
  bool IsSet(const std::string& name) const;  // given on the command line
  bool Switch(const std::string& name) const;
  absl::StatusOr<int64_t> GetInt(const std::string& name, int64_t min, int64_t max) const;
  absl::StatusOr<uint64_t> GetUint(const std::string& name) const;
  // Every value a repeatable flag was given, in order (Get has the last).
  std::vector<std::string> GetAll(const std::string& name) const;
  // A comma-separated list; empty when not given.
  std::vector<std::string> GetList(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }

  std::string Help() const;

 private:
  struct Spec {
    std::string placeholder;  // empty for switches
    std::string help;
    std::string default_value;
  };
  std::vector<std::string> order_;
  std::map<std::string, Spec> specs_;
  std::map<std::string, std::string> values_;
  std::map<std::string, std::vector<std::string>> all_values_;
  std::vector<std::string> positional_;
};

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_FLAGS_H_
