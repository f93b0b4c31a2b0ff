// ProgramAdapter's batches, seen by a backend that records every module it
// is handed: cases new to the adapter are compiled together, a case whose
// own module came before runs alone (where the backend's executable cache
// has it), and a batch that fails as a whole is narrowed down: in halves
// where one case fails, case by case where most do.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/program/cpu_program_backend.h"
#include "adapters/program/program_adapter.h"
#include "generators/case_generator.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::TestRegistry;

// Answers zeros of the result types; refuses any module holding `refuse`,
// and any module given `poison` among its inputs.
class RecordingBackend : public ProgramBackend {
 public:
  explicit RecordingBackend(std::vector<std::string>* modules, std::string refuse,
                            std::optional<Tensor> poison = std::nullopt)
      : modules_(modules), refuse_(std::move(refuse)), poison_(std::move(poison)) {}
  std::string Describe() const override { return "records its modules (test)"; }
  absl::StatusOr<std::vector<Tensor>> Run(std::string_view module_text,
                                          std::span<const Tensor> inputs,
                                          std::span<const TensorType> result_types) override {
    modules_->emplace_back(module_text);
    if (!refuse_.empty() && module_text.find(refuse_) != std::string_view::npos) {
      return absl::InvalidArgumentError("refused");
    }
    for (const Tensor& input : inputs) {
      if (poison_ && input == *poison_) return absl::InvalidArgumentError("poisoned");
    }
    std::vector<Tensor> zeros;
    for (const TensorType& type : result_types) zeros.emplace_back(type);
    return zeros;
  }

 private:
  std::vector<std::string>* modules_;
  std::string refuse_;
  std::optional<Tensor> poison_;
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

TEST(ProgramAdapterTest, ABatchWhereEveryCaseFailsIsRedoneCaseByCase) {
  std::vector<std::string> modules;
  ProgramAdapter adapter = Adapter(&modules, "@case_");  // refuses every batch
  std::vector<Case> cases = AddCases(100, 16);
  auto answers = adapter.RunBatch(Pointers(cases));
  ASSERT_EQ(answers.size(), 16u);
  for (const auto& answer : answers) EXPECT_TRUE(answer.ok()) << answer.status();
  std::set<std::string> distinct;
  for (const Case& c : cases) distinct.insert(*adapter.ModuleText(c));
  // The batch, its two halves (both refused: failures are dense), then each
  // case alone, however many distinct modules they hold.
  EXPECT_EQ(modules.size(), 3 + cases.size());
  EXPECT_EQ(adapter.batches_narrowed(), 1);
}

TEST(ProgramAdapterTest, OneFailingCaseInABatchIsFoundByHalving) {
  // 32 cases of distinct modules (a module met twice runs alone).
  std::vector<Case> cases;
  std::set<std::string> distinct;
  std::vector<std::string> scratch;
  for (Case& c : AddCases(200, 1000)) {
    if (distinct.insert(*Adapter(&scratch).ModuleText(c)).second) cases.push_back(std::move(c));
    if (cases.size() == 32) break;
  }
  ASSERT_EQ(cases.size(), 32u);
  const size_t bad = 21;
  std::vector<std::string> modules;
  ProgramAdapter adapter =
      ProgramAdapter("recording", TestRegistry(),
                     std::make_unique<RecordingBackend>(&modules, "", cases[bad].operands[0]),
                     /*inputs_as_constants=*/false, [](ElementType) { return true; });
  auto answers = adapter.RunBatch(Pointers(cases));
  ASSERT_EQ(answers.size(), 32u);
  for (size_t k = 0; k < cases.size(); ++k) {
    if (k == bad) {
      ASSERT_FALSE(answers[k].ok());
      EXPECT_EQ(answers[k].status().message(), "poisoned");
    } else {
      EXPECT_TRUE(answers[k].ok()) << k << ": " << answers[k].status();
    }
  }
  // 32 -> 16+16 -> 8+8 -> 4+4 -> 2+2, the failing pair case by case:
  // 1 + 2 * 4 + 2 modules, where case by case would take 33.
  EXPECT_EQ(modules.size(), 11u);
  EXPECT_EQ(adapter.batches_narrowed(), 5);  // 32, 16, 8, 4, 2
  // The failing case's error comes from its own module, not a batch's.
  EXPECT_EQ(std::count(modules.begin(), modules.end(), *adapter.ModuleText(cases[bad])), 1);
}

// Refuses a module with MLIR-style diagnostics ("<stdin>:LINE:COL: error:")
// at the lines that hold `marker`: the first such line only (where a case's
// function comes first), or the last (in @main), and where `batches_only`
// a module of one case is never refused.
class LocatingBackend : public ProgramBackend {
 public:
  enum class Where { kFirst, kLast };
  LocatingBackend(std::vector<std::string>* modules, std::vector<std::string> markers, Where where,
                  bool batches_only)
      : modules_(modules),
        markers_(std::move(markers)),
        where_(where),
        batches_only_(batches_only) {}
  std::string Describe() const override { return "locates its errors (test)"; }
  absl::StatusOr<std::vector<Tensor>> Run(std::string_view module_text, std::span<const Tensor>,
                                          std::span<const TensorType> result_types) override {
    modules_->emplace_back(module_text);
    const bool batch = module_text.find("@case_") != std::string_view::npos;
    std::string errors;
    if (batch || !batches_only_) {
      for (const std::string& marker : markers_) {
        int line = 0, found = 0;
        size_t start = 0;
        while (start <= module_text.size()) {
          size_t end = module_text.find('\n', start);
          if (end == std::string_view::npos) end = module_text.size();
          ++line;
          if (module_text.substr(start, end - start).find(marker) != std::string_view::npos) {
            found = line;
            if (where_ == Where::kFirst) break;
          }
          start = end + 1;
        }
        if (found > 0) {
          errors += "<stdin>:" + std::to_string(found) + ":15: error: refused " + marker + "\n";
          errors += "<stdin>:2:3: note: called from\n";
        }
      }
    }
    if (!errors.empty()) return absl::InvalidArgumentError("Diagnostics:\n" + errors);
    std::vector<Tensor> zeros;
    for (const TensorType& type : result_types) zeros.emplace_back(type);
    return zeros;
  }

 private:
  std::vector<std::string>* modules_;
  std::vector<std::string> markers_;
  Where where_;
  bool batches_only_;
};

// Sixteen add cases of shapes [1] ... [16], one module each.
std::vector<Case> SizedAddCases() {
  std::vector<Case> cases;
  for (int64_t n = 1; n <= 16; ++n) {
    Case c;
    c.op = "add";
    c.operands = {Tensor({n}, ElementType::kSI32), Tensor({n}, ElementType::kSI32)};
    c.result_types = {TensorType{{n}, ElementType::kSI32}};
    cases.push_back(std::move(c));
  }
  return cases;
}

TEST(ProgramAdapterTest, ABatchsErrorLinesNameItsFailingCases) {
  std::vector<std::string> modules;
  ProgramAdapter adapter("locating", TestRegistry(),
                         std::make_unique<LocatingBackend>(
                             &modules, std::vector<std::string>{"tensor<5xi32>", "tensor<11xi32>"},
                             LocatingBackend::Where::kFirst, /*batches_only=*/false),
                         /*inputs_as_constants=*/false, [](ElementType) { return true; });
  std::vector<Case> cases = SizedAddCases();
  auto answers = adapter.RunBatch(Pointers(cases));
  ASSERT_EQ(answers.size(), 16u);
  for (size_t k = 0; k < cases.size(); ++k) {
    EXPECT_EQ(answers[k].ok(), k != 4 && k != 10) << k;
  }
  // Case [5] failed alone: its own module's error.
  EXPECT_EQ(std::string(answers[4].status().message()),
            "Diagnostics:\n<stdin>:2:15: error: refused tensor<5xi32>\n"
            "<stdin>:2:3: note: called from\n");
  // Case [11] takes the batch's error in its function, and says so.
  EXPECT_NE(answers[10].status().message().find(
                "compiled in one module with 15 other cases, the compiler's errors in this case's "
                "function"),
            std::string::npos)
      << answers[10].status();
  EXPECT_NE(answers[10].status().message().find("error: refused tensor<11xi32>"),
            std::string::npos);
  // The batch, case [5] alone, the fourteen others together: three modules,
  // where halving would have needed eleven.
  EXPECT_EQ(modules.size(), 3u);
  EXPECT_EQ(adapter.batches_attributed(), 1);
}

TEST(ProgramAdapterTest, ErrorLinesOutsideTheCasesOrNotConfirmedAloneAreHalved) {
  for (const bool outside : {true, false}) {
    std::vector<std::string> modules;
    ProgramAdapter adapter(
        "locating", TestRegistry(),
        std::make_unique<LocatingBackend>(
            &modules, std::vector<std::string>{"tensor<5xi32>"},
            outside ? LocatingBackend::Where::kLast : LocatingBackend::Where::kFirst,
            /*batches_only=*/!outside),
        /*inputs_as_constants=*/false, [](ElementType) { return true; });
    std::vector<Case> cases = SizedAddCases();
    auto answers = adapter.RunBatch(Pointers(cases));
    ASSERT_EQ(answers.size(), 16u);
    for (size_t k = 0; k < cases.size(); ++k) {
      // In @main (outside): case [5] fails alone too. Batches only: it passes alone.
      EXPECT_EQ(answers[k].ok(), k != 4 || !outside) << k << " outside " << outside;
    }
    EXPECT_EQ(adapter.batches_attributed(), 0) << outside;
    EXPECT_GT(adapter.batches_narrowed(), 1) << outside;  // halved
  }
}

TEST(ProgramAdapterTest, BatchErrorsByCaseReadsMlirDiagnostics) {
  const std::string module =
      "module @hlocheck_batch {\n"                                       // 1
      "  func.func private @case_0(%x: tensor<i32>) -> tensor<i32> {\n"  // 2
      "    func.return %x : tensor<i32>\n"                               // 3
      "  }\n"                                                            // 4
      "  func.func private @case_1(%x: tensor<i32>) -> tensor<i32> {\n"  // 5
      "    func.return %x : tensor<i32>\n"                               // 6
      "  }\n"                                                            // 7
      "  func.func public @main(%a: tensor<i32>) -> tensor<i32> {\n"     // 8
      "  }\n"                                                            // 9
      "}\n";
  auto errors = BatchErrorsByCase(module,
                                  "x.mlir:6:5: error: first\nx.mlir:6:5: note: see\n"
                                  "loc(\"<stdin>\":3:1)\nx.mlir:3:1: error: second\n");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors.at(1), std::vector<std::string>{"x.mlir:6:5: error: first"});
  EXPECT_EQ(errors.at(0), std::vector<std::string>{"x.mlir:3:1: error: second"});
  EXPECT_TRUE(BatchErrorsByCase(module, "x.mlir:8:3: error: in main\n").empty());
  EXPECT_TRUE(BatchErrorsByCase(module, "x.mlir:6:5: error: a\nx.mlir:1:1: error: b\n").empty());
  EXPECT_TRUE(BatchErrorsByCase(module, "x.mlir:60:5: error: past the end\n").empty());
  EXPECT_TRUE(BatchErrorsByCase(module, "Segmentation fault\n").empty());
}

// A backend that takes 2- and 4-bit integer tensors at @main's boundary only
// in whole bytes (IREE): the others are not runnable, with the reason given;
// an input folded in as a constant is not at the boundary.
TEST(ProgramAdapterTest, SubByteTensorsOfPartBytesAreNotRunnableWhereDeclared) {
  auto convert = [](ElementType from, int64_t n, ElementType to) {
    Case c;
    c.op = "convert";
    c.operands.push_back(Tensor({n}, from));
    c.result_types = {TensorType{{n}, to}};
    return c;
  };
  for (const bool constants : {false, true}) {
    std::vector<std::string> modules;
    ProgramAdapter adapter("recording", TestRegistry(),
                           std::make_unique<RecordingBackend>(&modules, ""), constants,
                           [](ElementType) { return true; });
    // Without the declaration every size runs.
    EXPECT_TRUE(adapter.Supports(convert(ElementType::kSI4, 3, ElementType::kF32)).supported);
    adapter.RequireWholeBytesForSubByteTensors("the reason");
    AdapterSupport odd_input = adapter.Supports(convert(ElementType::kSI4, 3, ElementType::kF32));
    EXPECT_EQ(odd_input.supported, constants);
    if (!constants) {
      EXPECT_EQ(odd_input.reason, "3 si4 elements are 12 bits, not whole bytes: the reason");
    }
    AdapterSupport odd_result = adapter.Supports(convert(ElementType::kF32, 5, ElementType::kUI2));
    EXPECT_FALSE(odd_result.supported);
    EXPECT_EQ(odd_result.reason, "5 ui2 elements are 10 bits, not whole bytes: the reason");
    for (const Case& whole : {convert(ElementType::kSI4, 4, ElementType::kUI2),
                              convert(ElementType::kUI4, 0, ElementType::kSI2),
                              convert(ElementType::kI1, 3, ElementType::kSI8),
                              convert(ElementType::kF4E2M1FN, 3, ElementType::kF32)}) {
      EXPECT_TRUE(adapter.Supports(whole).supported)
          << Name(whole.operands[0].element_type()) << ": " << adapter.Supports(whole).reason;
    }
  }
}

// Quantized cases through a compiler's path: the module passes storage
// integers (mlir/writer.h), the adapter hands the backend storage tensors
// and gives the results their quantized types back. With the CPU adapter as
// the program backend, every result equals the CPU adapter's own, bit for
// bit, inputs as arguments and as constants, alone and batched.
TEST(ProgramAdapterTest, QuantizedCasesRunAsStorageAtTheBoundary) {
  auto cpu = CreateAdapter("cpu", {});
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  std::vector<Case> cases;
  for (const std::string op : {"add", "tanh", "transpose", "dot_general", "compare"}) {
    GenerationOptions options;
    int found = 0;
    for (uint64_t seed = 1; seed <= 400 && found < 3; ++seed) {
      options.primary_type = seed % 2 == 0 ? ElementType::kBF16 : ElementType::kF32;
      Case c;
      try {
        c = GenerateCase(*TestRegistry().Find(op), options, seed, 20).value();
      } catch (const std::exception&) {
        continue;
      }
      if (!HasQuantizedTensor(c) || !(*cpu)->Supports(c).supported) continue;
      cases.push_back(std::move(c));
      ++found;
    }
    ASSERT_EQ(found, 3) << op;
  }
  for (const bool constants : {false, true}) {
    ProgramAdapter adapter("cpu-program", TestRegistry(),
                           CreateCpuProgramBackend(TestRegistry(), /*threads=*/1), constants,
                           [](ElementType) { return true; });
    auto batch = adapter.RunBatch(Pointers(cases));
    ASSERT_EQ(batch.size(), cases.size());
    for (size_t k = 0; k < cases.size(); ++k) {
      ASSERT_TRUE(adapter.Supports(cases[k]).supported) << adapter.Supports(cases[k]).reason;
      auto alone = adapter.Run(cases[k]);
      auto direct = (*cpu)->Run(cases[k]);
      ASSERT_TRUE(alone.ok()) << cases[k].op << ": " << alone.status();
      ASSERT_TRUE(batch[k].ok()) << cases[k].op << ": " << batch[k].status();
      ASSERT_TRUE(direct.ok()) << direct.status();
      ASSERT_EQ(alone->size(), direct->size());
      for (size_t r = 0; r < direct->size(); ++r) {
        EXPECT_EQ((*alone)[r].type(), (*direct)[r].type()) << cases[k].op;
        EXPECT_TRUE((*alone)[r] == (*direct)[r]) << cases[k].op << " constants " << constants;
        EXPECT_TRUE((*batch[k])[r] == (*direct)[r]) << cases[k].op << " constants " << constants;
      }
    }
  }
}

}  // namespace
}  // namespace hlocheck
