// RunInto builds results on the storage of the tensors it is handed, left
// as they were: every op that does so must write every element. For every
// op of the CPU backend, on 40 generated cases each, RunInto over buffers
// of the right size full of a junk pattern gives exactly what Run gives.
#include <gtest/gtest.h>

#include <cstring>

#include "adapters/cpu/cpu_adapter.h"
#include "generators/case_generator.h"
#include "tests/runners/cpu_session.h"

namespace hlocheck {
namespace {

TEST(RunIntoTest, EveryCpuOpOverwritesRecycledResults) {
  Session& session = CpuSession();
  GenerationOptions options;
  options.max_elements = 512;
  int checked = 0;
  for (const std::string& name : CpuAdapter::Ops()) {
    const spec::OpSpec* op = session.registry->Find(name);
    if (op == nullptr || op->recipe.empty()) continue;
    for (uint64_t seed = 0; seed < 40; ++seed) {
      GeneratedCase generated =
          GenerateInstance(*op, options, seed, /*size=*/seed * 5 % 100).value();
      if (!generated.runnable || !session.adapter->Supports(*generated.runnable).supported)
        continue;
      const Case& c = *generated.runnable;
      auto fresh = session.adapter->Run(c);
      ASSERT_TRUE(fresh.ok()) << name << ": " << fresh.status();
      std::vector<Tensor> recycled;
      for (const TensorType& type : c.result_types) {
        Tensor junk(type);
        // An empty tensor has no storage to spoil (and raw() is null).
        if (!junk.bytes().empty()) std::memset(junk.raw(), 0xA5, junk.bytes().size());
        recycled.push_back(std::move(junk));
      }
      ASSERT_TRUE(session.adapter->RunInto(c, recycled).ok()) << name;
      ASSERT_EQ(recycled.size(), fresh->size()) << name;
      for (size_t r = 0; r < recycled.size(); ++r) {
        ASSERT_TRUE(recycled[r] == (*fresh)[r]) << name << " seed " << seed << " result " << r;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace hlocheck
