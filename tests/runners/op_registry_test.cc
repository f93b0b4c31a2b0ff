// The op registries of both sides against spec/ops: the oracle's chapter
// tables, its list of ops not yet implemented, and every backend's table.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "adapters/adapter.h"
#include "core/quantized_case.h"
#include "oracle/oracle.h"
#include "runners/op_support.h"
#include "spec/registry.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::TestRegistry;

TEST(OpRegistryTest, OracleAndBackendOpsAreSpecOps) {
  auto table = BuildOpSupportTable(TestRegistry());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE(table->unknown.empty())
      << "registries name ops that spec/ops lacks: " << ::testing::PrintToString(table->unknown);
  ASSERT_FALSE(table->backends.empty());
  EXPECT_EQ(table->backends[0], "cpu");
}

// The adapters' two paths for quantized tensors (core/quantized_case.h)
// against each op's `quantized_semantics`: every dequantize_op_quantize op
// (and compare's, select's form) is on the expressed-type list, every
// storage op the adapters run on storage is one, and nothing else is on
// either list but bitcast_convert (storage bits) and iota (own, quantized
// indices).
TEST(OpRegistryTest, QuantizedPathsFollowTheSpecsSemantics) {
  using QS = spec::QuantizedSemantics;
  const std::set<std::string_view> storage(QuantizedStorageOps().begin(),
                                           QuantizedStorageOps().end());
  const std::set<std::string_view> expressed(QuantizedExpressedOps().begin(),
                                             QuantizedExpressedOps().end());
  for (std::string_view op : storage) {
    const spec::OpSpec* spec = TestRegistry().Find(std::string(op));
    ASSERT_NE(spec, nullptr) << op;
    EXPECT_TRUE(spec->quantized_semantics == QS::kStorage || op == "bitcast_convert") << op;
  }
  for (std::string_view op : expressed) {
    const spec::OpSpec* spec = TestRegistry().Find(std::string(op));
    ASSERT_NE(spec, nullptr) << op;
    const QS s = spec->quantized_semantics;
    EXPECT_TRUE(s == QS::kDequantizeOpQuantize || s == QS::kDequantizeCompare ||
                s == QS::kDequantizeSelectQuantize || op == "iota")
        << op;
  }
  for (const spec::OpSpec& op : TestRegistry().ops()) {
    const QS s = op.quantized_semantics;
    if (s == QS::kDequantizeOpQuantize || s == QS::kDequantizeCompare ||
        s == QS::kDequantizeSelectQuantize) {
      EXPECT_EQ(expressed.count(op.name), 1u) << op.name << " is computed in the expressed type";
    }
  }
}

TEST(OpRegistryTest, EverySpecOpIsImplementedOrPlannedNeverBoth) {
  Oracle oracle(&TestRegistry());
  std::set<std::string> implemented;
  for (const std::string& op : oracle.ImplementedOps()) implemented.insert(op);
  std::set<std::string> planned;
  for (const oracle::NotYetImplemented& entry : oracle::OpsNotYetImplemented()) {
    EXPECT_TRUE(planned.insert(std::string(entry.op)).second) << entry.op << " listed twice";
    EXPECT_TRUE(entry.issue == 19 || entry.issue == 20 || entry.issue == 21)
        << entry.op << ": issue " << entry.issue;
  }
  for (const spec::OpSpec& op : TestRegistry().ops()) {
    bool in_oracle = implemented.count(op.name) > 0;
    bool in_plan = planned.count(op.name) > 0;
    EXPECT_TRUE(in_oracle || in_plan) << op.name
                                      << " is neither implemented by the oracle nor listed in "
                                         "oracle/not_yet_implemented.cc";
    EXPECT_FALSE(in_oracle && in_plan)
        << op.name << " is implemented now: remove it from oracle/not_yet_implemented.cc";
  }
  // Today's split, so that a change to either list is a deliberate one.
  EXPECT_EQ(implemented.size(), 101u);
  EXPECT_EQ(planned.size(), 0u);
  EXPECT_EQ(TestRegistry().ops().size(), 101u);
}

TEST(OpRegistryTest, TheSupportTableAgreesWithEachRegistry) {
  auto table = BuildOpSupportTable(TestRegistry());
  ASSERT_TRUE(table.ok()) << table.status();
  AdapterOptions options;
  options.threads = 1;
  const std::vector<AdapterDescription> descriptions = ListAdapters();
  for (size_t b = 0; b < table->backends.size(); ++b) {
    std::set<std::string> ops;
    auto adapter = CreateAdapter(table->backends[b], options);
    if (adapter.ok()) {
      for (const std::string& op : (*adapter)->ImplementedOps()) ops.insert(op);
    } else {
      // A backend that cannot be created here (cuda without a GPU) lists
      // its ops without being created.
      auto description =
          std::find_if(descriptions.begin(), descriptions.end(),
                       [&](const AdapterDescription& d) { return d.name == table->backends[b]; });
      ASSERT_NE(description, descriptions.end()) << adapter.status();
      ASSERT_NE(description->implemented_ops, nullptr) << adapter.status();
      for (const std::string& op : description->implemented_ops()) ops.insert(op);
    }
    size_t yes = 0;
    for (const OpSupport& row : table->ops) {
      EXPECT_EQ(row.backends[b], ops.count(row.op) > 0) << table->backends[b] << " " << row.op;
      yes += row.backends[b];
    }
    EXPECT_EQ(yes, ops.size()) << table->backends[b];
  }
  for (const OpSupport& row : table->ops) {
    // A backend that runs an op the oracle cannot compute has nothing to be
    // compared with: the gate would skip every case.
    for (size_t b = 0; b < row.backends.size(); ++b) {
      if (row.backends[b]) {
        EXPECT_TRUE(row.oracle) << table->backends[b] << " runs " << row.op;
      }
    }
  }
}

}  // namespace
}  // namespace hlocheck
