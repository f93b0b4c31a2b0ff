// `hlocheck verify CASE.yaml`: every constraint an op instance violates.
#include <fstream>
#include <iostream>
#include <sstream>

#include "runners/commands.h"
#include "runners/flags.h"
#include "spec/registry.h"
#include "spec/verifier.h"
#include "yaml-cpp/yaml.h"

namespace hlocheck {

int VerifyCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.AddSwitch("all", "also list the constraints that hold or do not apply");
  flags.AddSwitch("help", "show this help");
  if (auto status = flags.Parse(args); !status.ok() || flags.positional().size() != 1) {
    std::cerr << "hlocheck verify: "
              << (status.ok() ? "expected one case file (see --help)" : status.message()) << "\n";
    return kExitUsage;
  }
  if (flags.Switch("help")) {
    std::cout << "usage: hlocheck verify [flags] CASE.yaml\n\n"
                 "Checks an op instance against its op's constraints in spec/ops and lists every\n"
                 "violated constraint with its ID, text, formula and the values that made it\n"
                 "false. The case file names the op and gives types (or dense literals) by\n"
                 "operand and result name, attribute values, region signatures and optionally\n"
                 "num_replicas / num_partitions:\n\n"
                 "  op: slice\n"
                 "  operands: {operand: \"tensor<3x4xf32>\"}\n"
                 "  attributes: {start_indices: [1, 2], limit_indices: [3, 5], strides: [1, 1]}\n"
                 "  results: {result: \"tensor<2x3xf32>\"}\n\nflags:\n"
              << flags.Help()
              << "\nExit status: 0 the instance is valid, 1 it violates constraints, "
                 "2 bad input.\n";
    return kExitOk;
  }
  const std::string path = flags.positional()[0];
  std::ifstream in(path);
  if (!in) {
    std::cerr << "hlocheck verify: " << path << ": cannot open\n";
    return kExitUsage;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string op_name;
  try {
    YAML::Node node = YAML::Load(text.str());
    if (!node.IsMap() || !node["op"]) {
      std::cerr << "hlocheck verify: " << path << ":1:1: expected a mapping with 'op: NAME'\n";
      return kExitUsage;
    }
    op_name = node["op"].Scalar();
  } catch (const YAML::ParserException& e) {
    std::cerr << "hlocheck verify: " << path << ":" << e.mark.line + 1 << ":" << e.mark.column + 1
              << ": malformed YAML: " << e.msg << "\n";
    return kExitUsage;
  }
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) {
    std::cerr << "hlocheck verify: " << registry.status().message() << "\n";
    return kExitUsage;
  }
  const spec::OpSpec* op = (*registry)->Find(op_name);
  if (op == nullptr) {
    std::cerr << "hlocheck verify: " << path << ": no op '" << op_name << "' in the spec\n";
    return kExitUsage;
  }
  auto instance = spec::InstanceFromYamlText(*op, text.str(), path);
  if (!instance.ok()) {
    std::cerr << "hlocheck verify: " << instance.status().message() << "\n";
    return kExitUsage;
  }
  spec::VerifyResult verdict = spec::Verify(*op, *instance, *registry);
  if (flags.Switch("all")) {
    for (const spec::ConstraintResult& r : verdict.results) std::cout << r.ToString() << "\n";
  } else {
    std::cout << verdict.Report();
  }
  size_t violations = verdict.Violations().size();
  std::cout << op->name << ": "
            << (violations == 0 ? "valid" : std::to_string(violations) + " violation(s)") << " ("
            << verdict.results.size() << " checks)\n";
  return violations == 0 ? kExitOk : kExitFailure;
}

}  // namespace hlocheck
