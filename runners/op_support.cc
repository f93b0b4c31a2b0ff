#include "runners/op_support.h"

#include <algorithm>
#include <set>

#include "adapters/adapter.h"
#include "core/status_macros.h"
#include "oracle/oracle.h"

namespace hlocheck {

absl::StatusOr<OpSupportTable> BuildOpSupportTable(const spec::SpecRegistry& registry) {
  OpSupportTable table;
  std::set<std::string, std::less<>> spec_ops;
  for (const spec::OpSpec& op : registry.ops()) spec_ops.insert(op.name);

  Oracle oracle(&registry);
  std::set<std::string, std::less<>> oracle_ops;
  for (const std::string& name : oracle.ImplementedOps()) {
    oracle_ops.insert(name);
    if (!spec_ops.count(name)) table.unknown.push_back("oracle: " + name);
  }
  for (const oracle::NotYetImplemented& planned : oracle::OpsNotYetImplemented()) {
    if (!spec_ops.count(planned.op))
      table.unknown.push_back("oracle's planned list: " + std::string(planned.op));
  }

  std::vector<std::set<std::string, std::less<>>> backend_ops;
  AdapterOptions options;
  options.threads = 1;
  for (const AdapterDescription& description : ListAdapters()) {
    if (description.self_test || description.compiler) continue;
    std::vector<std::string> implemented;
    if (description.implemented_ops != nullptr) {
      implemented = description.implemented_ops();
    } else {
      auto adapter = CreateAdapter(description.name, options);
      HLOCHECK_RETURN_IF_ERROR(adapter.status());
      implemented = (*adapter)->ImplementedOps();
    }
    table.backends.push_back(description.name);
    auto& ops = backend_ops.emplace_back();
    for (const std::string& name : implemented) {
      ops.insert(name);
      if (!spec_ops.count(name)) table.unknown.push_back(description.name + ": " + name);
    }
  }

  for (const spec::OpSpec& op : registry.ops()) {
    OpSupport& row = table.ops.emplace_back();
    row.op = op.name;
    row.oracle = oracle_ops.count(op.name) > 0;
    if (const oracle::NotYetImplemented* planned = oracle::FindNotYetImplemented(op.name)) {
      row.planned_issue = planned->issue;
    }
    for (const auto& ops : backend_ops) row.backends.push_back(ops.count(op.name) > 0);
  }
  return table;
}

}  // namespace hlocheck
