// ProgramAdapter's batches, seen by a backend that records every module it
// is handed: cases new to the adapter are compiled together, a case whose
// own module came before runs alone (where the backend's executable cache
// has it), and a batch that fails as a whole is redone case by case.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "adapters/program/program_adapter.h"
#include "generators/case_generator.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::TestRegistry;

// Answers zeros of the result types; refuses any module holding `refuse`.
class RecordingBackend : public ProgramBackend {
 public:
  explicit RecordingBackend(std::vector<std::string>* modules, std::string refuse)
      : modules_(modules), refuse_(std::move(refuse)) {}
  std::string Describe() const override { return "records its modules (test)"; }
  absl::StatusOr<std::vector<Tensor>> Run(std::string_view module_text,
                                          std::span<const Tensor> /*inputs*/,
                                          std::span<const TensorType> result_types) override {
    modules_->emplace_back(module_text);
    if (!refuse_.empty() && module_text.find(refuse_) != std::string_view::npos) {
      return absl::InvalidArgumentError("refused");
    }
    std::vector<Tensor> zeros;
    for (const TensorType& type : result_types) zeros.emplace_back(type);
    return zeros;
  }

 private:
  std::vector<std::string>* modules_;
  std::string refuse_;
};

std::vector<Case> AddCases(uint64_t first_seed, int count) {
  GenerationOptions options;
  options.primary_type = ElementType::kSI32;
  rc::Gen<Case> generator = CaseGenerator(*TestRegistry().Find("add"), options);
  std::vector<Case> cases;
  for (int i = 0; i < count; ++i) {
    cases.push_back(generator(rc::Random(first_seed + i), 30).value());
  }
  return cases;
}

std::vector<const Case*> Pointers(const std::vector<Case>& cases) {
  std::vector<const Case*> pointers;
  for (const Case& c : cases) pointers.push_back(&c);
  return pointers;
}

ProgramAdapter Adapter(std::vector<std::string>* modules, std::string refuse = "") {
  return ProgramAdapter("recording", TestRegistry(),
                        std::make_unique<RecordingBackend>(modules, std::move(refuse)),
                        /*inputs_as_constants=*/false, [](ElementType) { return true; });
}

TEST(ProgramAdapterTest, NewCasesAreCompiledTogetherAndSeenOnesAlone) {
  std::vector<std::string> modules;
  ProgramAdapter adapter = Adapter(&modules);
  std::vector<Case> cases = AddCases(1, 6);
  auto answers = adapter.RunBatch(Pointers(cases));
  ASSERT_EQ(answers.size(), 6u);
  for (const auto& answer : answers) EXPECT_TRUE(answer.ok()) << answer.status();
  // One batch of the distinct modules; a case whose module an earlier case
  // of the same call already brought runs alone.
  std::set<std::string> distinct;
  for (const Case& c : cases) distinct.insert(*adapter.ModuleText(c));
  ASSERT_GE(distinct.size(), 2u);
  ASSERT_EQ(modules.size(), 1 + cases.size() - distinct.size());
  EXPECT_NE(modules.back().find("@case_" + std::to_string(distinct.size() - 1)),
            std::string::npos);  // the batch comes last
  // The same cases again: each module was met before, so each runs alone.
  modules.clear();
  answers = adapter.RunBatch(Pointers(cases));
  ASSERT_EQ(modules.size(), 6u);
  for (size_t k = 0; k < cases.size(); ++k) {
    EXPECT_EQ(modules[k], *adapter.ModuleText(cases[k]));
    EXPECT_TRUE(answers[k].ok());
  }
}

TEST(ProgramAdapterTest, ABatchThatFailsIsRedoneCaseByCase) {
  std::vector<std::string> modules;
  ProgramAdapter adapter = Adapter(&modules, "@case_");  // refuses every batch
  std::vector<Case> cases = AddCases(100, 4);
  auto answers = adapter.RunBatch(Pointers(cases));
  ASSERT_EQ(answers.size(), 4u);
  for (const auto& answer : answers) EXPECT_TRUE(answer.ok()) << answer.status();
  EXPECT_EQ(modules.size(), 5u);  // the batch, then each case
}

}  // namespace
}  // namespace hlocheck
