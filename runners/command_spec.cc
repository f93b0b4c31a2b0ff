// `hlocheck spec [OP]`: the spec as loaded from spec/ops.
#include <algorithm>
#include <iomanip>
#include <iostream>

#include "runners/commands.h"
#include "runners/flags.h"
#include "runners/op_support.h"
#include "spec/indexing_map_template.h"
#include "spec/instance.h"
#include "spec/registry.h"

namespace hlocheck {

namespace {

std::string Cases(const std::vector<spec::TemplateCase>& cases) {
  std::string out;
  for (const spec::TemplateCase& c : cases) {
    if (!out.empty()) out += "; ";
    out += c.when ? "when " + c.when->text + ": " + c.expr.text : c.expr.text;
  }
  return out;
}

// The op's indexing-map templates and, instantiated, the maps of its example.
void PrintIndexingMaps(const spec::OpSpec& op) {
  const spec::IndexingMapsSpec& maps = *op.indexing_maps;
  std::cout << "  indexing maps (seed 004): " << maps.note << "\n";
  for (const spec::MapTemplate& map : maps.maps) {
    std::cout << "    " << map.input << (map.role == spec::MapRole::kIndex ? " (index)" : "")
              << ": " << (map.results.empty() ? "()" : Cases(map.results)) << "\n";
    for (const spec::BoundsCase& d : map.dims) {
      std::cout << "      output dim k in " << d.range.text
                << (d.when ? " when " + d.when->text : "") << "\n";
    }
    for (const spec::SymbolGroupTemplate& g : map.symbols) {
      std::cout << "      " << g.count.text << " symbols in " << g.range.text;
      if (!g.runtime.empty()) {
        std::cout << ", read from " << g.runtime << (g.element ? "[" + g.element->text + "]" : "");
        if (!g.access.empty()) std::cout << " at " << Cases(g.access);
      }
      std::cout << "\n";
    }
    for (const spec::ConstraintTemplate& c : map.constraints) {
      std::cout << "      constraint " << c.expr.text << " in " << c.range.text
                << (c.when ? " when " + c.when->text : "") << "\n";
    }
  }
  if (maps.value_of_index) std::cout << "    value of index: " << maps.value_of_index->text << "\n";
  if (op.example.instance == nullptr) return;
  auto instantiated = spec::InstantiateIndexingMaps(op, *op.example.instance);
  if (!instantiated.ok()) {
    std::cout << "  on the example: " << instantiated.status().message() << "\n";
    return;
  }
  std::cout << "  on the example:\n";
  for (const spec::InputIndexingMap& m : instantiated->maps) {
    std::cout << "    " << m.Name() << ": " << m.map.ToString() << "\n";
  }
  if (instantiated->value_of_index) {
    std::cout << "    value of index: " << instantiated->value_of_index->ToString() << "\n";
  }
}

// One line per op: its constraints, whether the oracle computes it (or the
// issue that will bring it) and whether each backend runs it; then totals.
void PrintSupportTable(const spec::SpecRegistry& registry, const OpSupportTable& support) {
  size_t width = 2;
  for (const spec::OpSpec& op : registry.ops()) width = std::max(width, op.name.size());
  std::cout << "\n  " << std::left << std::setw(static_cast<int>(width)) << "op"
            << "  " << std::setw(14) << "constraints" << std::setw(10) << "oracle";
  for (const std::string& backend : support.backends) std::cout << std::setw(8) << backend;
  std::cout << "\n";
  size_t oracle_count = 0;
  std::vector<size_t> backend_counts(support.backends.size(), 0);
  for (size_t i = 0; i < support.ops.size(); ++i) {
    const spec::OpSpec& op = registry.ops()[i];
    const OpSupport& row = support.ops[i];
    size_t ranks = 0;
    for (const spec::ConstraintSpec& c : op.constraints) ranks += c.source == "inputs";
    std::string constraints = std::to_string(op.seed_constraint_count());
    if (size_t extra = op.constraints.size() - op.seed_constraint_count() - ranks; extra > 0) {
      constraints += "+" + std::to_string(extra) + "p";
    }
    if (ranks > 0) constraints += "+" + std::to_string(ranks) + "r";
    // func.call is the func dialect's op, checked as the case `call`; the
    // others without a seed heading are the public spec's.
    if (op.seed_heading.empty()) constraints += op.name == "call" ? " (func)" : " (public)";
    std::string oracle = row.oracle               ? "yes"
                         : row.planned_issue != 0 ? "#" + std::to_string(row.planned_issue)
                                                  : "no";
    oracle_count += row.oracle;
    std::cout << "  " << std::setw(static_cast<int>(width)) << op.name << "  " << std::setw(14)
              << constraints << std::setw(10) << oracle;
    for (size_t b = 0; b < row.backends.size(); ++b) {
      backend_counts[b] += row.backends[b];
      std::cout << std::setw(8) << (row.backends[b] ? "yes" : "no");
    }
    std::cout << "\n";
  }
  std::cout << std::right << "\nchecked: the oracle computes " << oracle_count << " of "
            << support.ops.size() << " ops";
  for (size_t b = 0; b < support.backends.size(); ++b) {
    std::cout << "; " << support.backends[b] << " runs " << backend_counts[b];
  }
  std::cout << ".\nA case runs on a backend only where both say yes. #N: planned in issue N;\n"
               "p: constraints from the public spec beyond seed 002's; r: ranks of the seed's\n"
               "Inputs/Outputs tables.\n";
  for (const std::string& unknown : support.unknown) {
    std::cout << "warning: not an op of spec/ops: " << unknown << "\n";
  }
}

}  // namespace

int SpecCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.AddSwitch("help", "show this help");
  if (auto status = flags.Parse(args); !status.ok() || flags.positional().size() > 1) {
    std::cerr << "hlocheck spec: " << (status.ok() ? "takes at most one op name" : status.message())
              << "\n";
    return kExitUsage;
  }
  if (flags.Switch("help")) {
    std::cout
        << "usage: hlocheck spec [OP]\n\n"
           "Without OP: the number of ops and constraints in spec/ops (or $HLOCHECK_SPEC_DIR),\n"
           "how many constraints have an executable formula, and per op whether the oracle\n"
           "computes it (or the issue that will bring it) and whether each backend runs it.\n"
           "With OP: the same for that op, its operands, attributes, results and numbered\n"
           "constraints, and its indexing maps (seed 004) as templates and instantiated for\n"
           "its example.\n\nflags:\n"
        << flags.Help();
    return kExitOk;
  }
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) {
    std::cerr << "hlocheck spec: " << registry.status().message() << "\n";
    return kExitUsage;
  }
  if (flags.positional().empty()) {
    size_t seed_executable = 0;
    size_t public_count = 0;
    size_t rank_count = 0;
    size_t seed_ops = 0;
    for (const spec::OpSpec& op : (*registry)->ops()) {
      seed_ops += !op.seed_heading.empty();
      for (const spec::ConstraintSpec& c : op.constraints) {
        if (c.source == "public") {
          ++public_count;
        } else if (c.source == "inputs") {
          ++rank_count;
        } else {
          seed_executable += c.formula.expr != nullptr;
        }
      }
    }
    std::cout << (*registry)->ops().size() << " ops (" << seed_ops << " of seed 002's 97), "
              << (*registry)->seed_constraint_count() << " seed constraints (of 332), "
              << seed_executable << "/" << (*registry)->seed_constraint_count() << " executable; "
              << public_count << " constraints from the public spec; " << rank_count
              << " ranks from the seed's Inputs/Outputs tables\n";
    auto support = BuildOpSupportTable(**registry);
    if (!support.ok()) {
      std::cerr << "hlocheck spec: " << support.status().message() << "\n";
      return kExitFailure;
    }
    PrintSupportTable(**registry, *support);
    return kExitOk;
  }
  const spec::OpSpec* op = (*registry)->Find(flags.positional()[0]);
  if (op == nullptr) {
    std::cerr << "hlocheck spec: no op '" << flags.positional()[0] << "'\n";
    return kExitUsage;
  }
  std::cout << op->name << ": " << op->summary << "\n(" << op->file << ")\n";
  if (auto support = BuildOpSupportTable(**registry); support.ok()) {
    for (const OpSupport& row : support->ops) {
      if (row.op != op->name) continue;
      std::cout << "  oracle: "
                << (row.oracle ? "yes"
                    : row.planned_issue != 0
                        ? "not yet (issue " + std::to_string(row.planned_issue) + ")"
                        : "no");
      for (size_t b = 0; b < row.backends.size(); ++b) {
        std::cout << "; " << support->backends[b] << ": " << (row.backends[b] ? "yes" : "no");
      }
      std::cout << "\n";
    }
  }
  for (const spec::ValueSpec& v : op->operands) {
    std::cout << "  operand " << v.label << " " << v.name << (v.variadic ? " (variadic)" : "")
              << (v.rank ? ", rank " + std::to_string(*v.rank) : "") << "\n";
  }
  for (const spec::AttributeSpec& a : op->attributes) {
    std::cout << "  attribute " << a.label << " " << a.name << "\n";
  }
  for (const spec::ValueSpec& v : op->results) {
    std::cout << "  result " << v.name << (v.rank ? ", rank " + std::to_string(*v.rank) : "")
              << "\n";
  }
  for (const spec::RegionSpec& r : op->regions) {
    std::cout << "  region " << r.label << " " << r.name << (r.variadic ? " (variadic)" : "")
              << "\n";
  }
  for (const spec::ConstraintSpec& c : op->constraints) {
    std::cout << "  (" << c.DisplayId() << ") " << c.text << "\n        " << c.formula.text << "\n";
    if (c.condition) std::cout << "        when " << c.condition->text << "\n";
    if (!c.note.empty()) std::cout << "        note: " << c.note << "\n";
  }
  if (op->indexing_maps != nullptr) PrintIndexingMaps(*op);
  return kExitOk;
}

}  // namespace hlocheck
