// `hlocheck verify CASE.yaml`: every constraint an op instance violates.
#include <fstream>
#include <iostream>
#include <sstream>

#include "mlir/attribute_syntax.h"
#include "mlir/reader.h"
#include "runners/commands.h"
#include "runners/flags.h"
#include "spec/instance.h"
#include "spec/registry.h"
#include "spec/verifier.h"
#include "yaml-cpp/yaml.h"

namespace hlocheck {

namespace {

int PrintVerdict(const std::string& op, const spec::VerifyResult& verdict, bool all,
                 const std::string& where) {
  if (all) {
    for (const spec::ConstraintResult& r : verdict.results) std::cout << r.ToString() << "\n";
  } else {
    std::cout << verdict.Report();
  }
  size_t violations = verdict.Violations().size();
  std::cout << where << op << ": "
            << (violations == 0 ? "valid" : std::to_string(violations) + " violation(s)") << " ("
            << verdict.results.size() << " checks)\n";
  return violations == 0 ? kExitOk : kExitFailure;
}

bool LooksLikeMlir(const std::string& path, const std::string& text) {
  if (path.size() > 5 && path.substr(path.size() - 5) == ".mlir") return true;
  return text.find("stablehlo.") != std::string::npos && text.find("op:") == std::string::npos;
}

// Every stablehlo op of a module (or of a snippet: ops outside any
// function, as the spec's examples are written).
void CollectOps(const Region& region, std::vector<const Operation*>& ops) {
  for (const Block& block : region.blocks) {
    for (const Operation& op : block.operations) {
      if (op.name.rfind("stablehlo.", 0) == 0 && op.name != "stablehlo.return") ops.push_back(&op);
      for (const Region& inner : op.regions) CollectOps(inner, ops);
    }
  }
}

// The process grid each function runs on: `interpreter.run_parallel`'s
// programs = [[@f, ...], ...] runs programs[replica][partition].
void GridsOfRunParallel(const Region& region,
                        std::map<std::string, std::pair<int64_t, int64_t>>& grids) {
  for (const Block& block : region.blocks) {
    for (const Operation& op : block.operations) {
      auto programs = op.raw_attributes.find("programs");
      if (op.name != "interpreter.run_parallel" || programs == op.raw_attributes.end()) continue;
      mlir::Cursor cursor(programs->second, "programs");
      try {
        mlir::AttrSyntax rows = mlir::ParseAttribute(cursor);
        for (const mlir::AttrSyntax& row : rows.items) {
          for (const mlir::AttrSyntax& program : row.items) {
            grids[program.string] = {static_cast<int64_t>(rows.items.size()),
                                     static_cast<int64_t>(row.items.size())};
          }
        }
      } catch (const mlir::SyntaxError&) {
        // Not a grid this reader understands; the defaults stay.
      }
    }
  }
}

int VerifyMlir(const std::string& path, const std::string& text, const spec::SpecRegistry& registry,
               const Flags& flags) {
  std::vector<Region> regions;
  std::vector<std::pair<int64_t, int64_t>> region_grids;
  auto replicas_flag = flags.GetInt("num-replicas", 1, 1 << 20);
  auto partitions_flag = flags.GetInt("num-partitions", 1, 1 << 20);
  if (!replicas_flag.ok() || !partitions_flag.ok()) {
    std::cerr << "hlocheck verify: "
              << (replicas_flag.ok() ? partitions_flag.status() : replicas_flag.status()).message()
              << "\n";
    return kExitUsage;
  }
  int64_t replicas = *replicas_flag;
  int64_t partitions = *partitions_flag;
  bool snippet = text.find("func.func") == std::string::npos;
  if (snippet) {
    auto region = mlir::ReadSnippet(text, path, registry);
    if (!region.ok()) {
      std::cerr << "hlocheck verify: " << region.status().message() << "\n";
      return kExitUsage;
    }
    regions.push_back(*std::move(region));
    region_grids.emplace_back(replicas, partitions);
  } else {
    auto splits = mlir::ReadSplits(text, path, registry);
    if (!splits.ok()) {
      std::cerr << "hlocheck verify: " << splits.status().message() << "\n";
      return kExitUsage;
    }
    for (const mlir::Split& split : *splits) {
      std::map<std::string, std::pair<int64_t, int64_t>> grids;
      for (const Function& f : split.module.functions) GridsOfRunParallel(f.body, grids);
      for (const Function& f : split.module.functions) {
        regions.push_back(f.body);
        auto grid = grids.find(f.name);
        region_grids.push_back(grid == grids.end() ? std::make_pair(replicas, partitions)
                                                   : grid->second);
      }
    }
  }
  std::vector<const Operation*> ops;
  std::vector<std::pair<int64_t, int64_t>> op_grids;
  for (size_t r = 0; r < regions.size(); ++r) {
    CollectOps(regions[r], ops);
    op_grids.resize(ops.size(), region_grids[r]);
  }
  int exit = kExitOk;
  for (size_t k = 0; k < ops.size(); ++k) {
    const Operation* operation = ops[k];
    std::string where = path + ":" + std::to_string(operation->location.line) + ":" +
                        std::to_string(operation->location.column) + ": ";
    const spec::OpSpec* op = registry.Find(operation->name.substr(10));
    if (op == nullptr) {
      std::cout << where << operation->name << ": unsupported (not an op of the spec)\n";
      exit = std::max(exit, kExitFailure);
      continue;
    }
    bool unmodelled = false;
    for (const std::string& name : op->unmodelled_attributes) {
      if (operation->raw_attributes.count(name)) {
        std::cout << where << operation->name << ": unsupported (attribute " << name
                  << " of the public spec is not modelled)\n";
        unmodelled = true;
      }
    }
    if (unmodelled) {
      exit = std::max(exit, kExitFailure);
      continue;
    }
    auto instance = spec::InstanceFromOperation(*op, *operation);
    if (!instance.ok()) {
      std::cout << where << operation->name << ": " << instance.status().message() << "\n";
      exit = std::max(exit, kExitFailure);
      continue;
    }
    instance->num_replicas = op_grids[k].first;
    instance->num_partitions = op_grids[k].second;
    exit = std::max(exit, PrintVerdict(op->name, spec::Verify(*op, *instance, &registry),
                                       flags.Switch("all"), where));
  }
  if (ops.empty()) {
    std::cerr << "hlocheck verify: " << path << ": no stablehlo op to verify\n";
    return kExitUsage;
  }
  return exit;
}

}  // namespace

int VerifyCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.AddSwitch("all", "also list the constraints that hold or do not apply");
  flags.Add("num-replicas", "N",
            "the process grid of a .mlir file's functions (a function run by "
            "interpreter.run_parallel gets its programs grid)",
            "1");
  flags.Add("num-partitions", "N", "see --num-replicas", "1");
  flags.AddSwitch("help", "show this help");
  if (auto status = flags.Parse(args); !status.ok() || flags.positional().size() != 1) {
    std::cerr << "hlocheck verify: "
              << (status.ok() ? "expected one case file (see --help)" : status.message()) << "\n";
    return kExitUsage;
  }
  if (flags.Switch("help")) {
    std::cout << "usage: hlocheck verify [flags] CASE.yaml | PROGRAM.mlir\n\n"
                 "Checks an op instance against its op's constraints in spec/ops and lists every\n"
                 "violated constraint with its ID, text, formula and the values that made it\n"
                 "false. The case file names the op and gives types (or dense literals) by\n"
                 "operand and result name, attribute values, region signatures and optionally\n"
                 "num_replicas / num_partitions:\n\n"
                 "  op: slice\n"
                 "  operands: {operand: \"tensor<3x4xf32>\"}\n"
                 "  attributes: {start_indices: [1, 2], limit_indices: [3, 5], strides: [1, 1]}\n"
                 "  results: {result: \"tensor<2x3xf32>\"}\n\n"
                 "A .mlir file is a StableHLO module (every stablehlo op of every function is\n"
                 "verified) or a snippet of ops outside any function, as the spec writes its\n"
                 "examples (operands it does not define take their types from the op):\n\n"
                 "  %r = stablehlo.slice %x [1:3, 2:5] : (tensor<3x4xf32>) -> tensor<2x3xf32>\n\n"
                 "flags:\n"
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
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) {
    std::cerr << "hlocheck verify: " << registry.status().message() << "\n";
    return kExitUsage;
  }
  if (LooksLikeMlir(path, text.str())) return VerifyMlir(path, text.str(), **registry, flags);
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
  return PrintVerdict(op->name, spec::Verify(*op, *instance, *registry), flags.Switch("all"), "");
}

}  // namespace hlocheck
