// Each stage of a case fails as itself: an exception in the generator, the
// oracle or the backend becomes that stage's finding and the run goes on,
// also while shrinking; and the gate asks the backend's Supports once per case.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>

#include "adapters/faulty/faulty_adapters.h"
#include "runners/gate.h"
#include "runners/shrink.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

int64_t Elements(const Case& c) {
  int64_t n = 0;
  for (const Tensor& t : c.operands) n += t.num_elements();
  return n;
}

using ::hlocheck::testing::TestRegistry;

// A backend in front of another one: counts what the gate asks it, and
// throws from Run where `throw_if` says so.
class ProbeAdapter : public Adapter {
 public:
  explicit ProbeAdapter(std::unique_ptr<Adapter> inner) : inner_(std::move(inner)) {}
  std::string_view name() const override { return inner_->name(); }
  std::vector<std::string> ImplementedOps() const override { return inner_->ImplementedOps(); }
  AdapterSupport Supports(const Case& c) const override {
    ++supports_calls;
    return inner_->Supports(c);
  }
  absl::StatusOr<std::vector<Tensor>> Run(const Case& c) override {
    ++run_calls;
    if (throw_if && throw_if(c)) throw std::runtime_error("probe backend threw");
    if (reject_if && reject_if(c)) return absl::UnimplementedError("probe backend rejects it");
    return inner_->Run(c);
  }

  int BatchSize() const override { return batch_size; }
  std::vector<absl::StatusOr<std::vector<Tensor>>> RunBatch(
      std::span<const Case* const> cases) override {
    ++batch_calls;
    if (throw_in_batch) throw std::runtime_error("probe batch threw");
    std::vector<absl::StatusOr<std::vector<Tensor>>> answers;
    for (const Case* c : cases) answers.push_back(inner_->Run(*c));
    if (alter_batch) alter_batch(answers);
    return answers;
  }

  mutable int64_t supports_calls = 0;
  int64_t run_calls = 0;
  int64_t batch_calls = 0;
  std::function<bool(const Case&)> throw_if;
  std::function<bool(const Case&)> reject_if;  // a backend error, as a compile error is
  int batch_size = 1;
  bool throw_in_batch = false;
  std::function<void(std::vector<absl::StatusOr<std::vector<Tensor>>>&)> alter_batch;

 private:
  std::unique_ptr<Adapter> inner_;
};

// The real oracle, throwing where `throw_if` says so.
class ThrowingOracle : public Oracle {
 public:
  using Oracle::Oracle;
  absl::StatusOr<std::vector<ResultExpectation>> Compute(const Case& c) const override {
    if (throw_if && throw_if(c)) throw std::runtime_error("test oracle threw");
    return Oracle::Compute(c);
  }
  std::function<bool(const Case&)> throw_if;
};

std::unique_ptr<ProbeAdapter> Cpu() {
  auto cpu = CreateAdapter("cpu", AdapterOptions{2});
  EXPECT_TRUE(cpu.ok()) << cpu.status();
  return std::make_unique<ProbeAdapter>(*std::move(cpu));
}

const GroupResult& Group(const GateRun& run, ElementType type) {
  for (const GroupResult& g : run.groups) {
    if (g.type == type) return g;
  }
  ADD_FAILURE() << "no group of type " << Name(type);
  return run.groups.front();
}

// Every case of add's f32 group: plain f32, or quantized over f32 (one in
// eight).
bool InTheF32Group(const Case& c) {
  const TensorType& t = c.operands[0].type();
  return (t.quantization ? t.quantization->expressed_type : t.element_type) == ElementType::kF32;
}

GateOptions AddOptions(int64_t cases) {
  GateOptions options;
  options.ops = {"add"};
  options.types = {ElementType::kF32, ElementType::kSI32};
  options.cases = cases;
  options.seed = 7;
  return options;
}

TEST(GateStagesTest, SupportsAndRunAreAskedOncePerCase) {
  auto adapter = Cpu();
  Oracle oracle(&TestRegistry());
  Gate gate(&TestRegistry(), &oracle, adapter.get());
  GateOptions options = AddOptions(40);
  options.types = {ElementType::kF32};
  auto run = gate.Run(options);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->groups.size(), 1u);
  EXPECT_EQ(run->groups[0].passed, 40);
  EXPECT_EQ(adapter->supports_calls, 40);
  EXPECT_EQ(adapter->run_calls, 40);
}

// `cases` adds of si32 through the gate, on `adapter`.
GateRun RunSi32Adds(Adapter& adapter, int64_t cases) {
  Oracle oracle(&TestRegistry());
  Gate gate(&TestRegistry(), &oracle, &adapter);
  GateOptions options = AddOptions(cases);
  options.types = {ElementType::kSI32};
  auto run = gate.Run(options);
  EXPECT_TRUE(run.ok()) << run.status();
  return run.ok() ? *std::move(run) : GateRun{};
}

TEST(GateStagesTest, BatchedCasesAreCountedOneByOne) {
  auto adapter = Cpu();
  adapter->batch_size = 8;
  GateRun run = RunSi32Adds(*adapter, 40);
  EXPECT_EQ(run.groups.at(0).cases, 40);
  EXPECT_EQ(run.groups.at(0).passed, 40);
  EXPECT_EQ(adapter->batch_calls, 5);
  EXPECT_EQ(adapter->run_calls, 0);
}

// A compiler that gets a case wrong only beside others in one module is
// wrong: a failure, counted apart, whose message says so.
TEST(GateStagesTest, AWrongAnswerOnlyInABatchIsAFailure) {
  auto adapter = Cpu();
  adapter->batch_size = 8;
  adapter->alter_batch = [](std::vector<absl::StatusOr<std::vector<Tensor>>>& answers) {
    Tensor& third = (*answers[2])[0];
    if (third.num_elements() > 0) third.values<ElementType::kSI32>()[0] ^= 1;
  };
  GateRun run = RunSi32Adds(*adapter, 40);
  const GroupResult& g = run.groups.at(0);
  EXPECT_GT(g.failed, 0);
  EXPECT_EQ(g.batch_only_failures, g.failed);
  EXPECT_EQ(g.passed + g.failed, 40);
  ASSERT_FALSE(g.findings.empty());
  EXPECT_NE(g.findings[0].message.find("wrong only when compiled with 7 other cases"),
            std::string::npos)
      << g.findings[0].message;
  // The first such case and its batch, to run them together again: the
  // third of eight, in order.
  ASSERT_EQ(g.batch_only_batch.size(), 8u);
  EXPECT_EQ(g.batch_only_batch[2], g.batch_only_replay);

  // Together again the third case is wrong again; alone it is right; a
  // batch that does not hold it is refused.
  Oracle oracle(&TestRegistry());
  Gate gate(&TestRegistry(), &oracle, adapter.get());
  auto together = gate.ReplayInBatch(g.batch_only_replay, g.batch_only_batch);
  ASSERT_TRUE(together.ok()) << together.status();
  EXPECT_EQ(together->target, 2u);
  EXPECT_EQ(together->cases[2].outcome.kind, CaseOutcome::Kind::kMismatch);
  auto alone = gate.Replay(g.batch_only_replay);
  ASSERT_TRUE(alone.ok()) << alone.status();
  EXPECT_EQ(alone->outcome.kind, CaseOutcome::Kind::kPass);
  std::vector<std::string> without(g.batch_only_batch.begin(), g.batch_only_batch.begin() + 2);
  EXPECT_FALSE(gate.ReplayInBatch(g.batch_only_replay, without).ok());
}

// A batch that throws is redone case by case: every case still counts.
TEST(GateStagesTest, ABatchThatThrowsIsRedoneCaseByCase) {
  auto adapter = Cpu();
  adapter->batch_size = 8;
  adapter->throw_in_batch = true;
  GateRun run = RunSi32Adds(*adapter, 40);
  EXPECT_EQ(run.groups.at(0).passed, 40);
  EXPECT_EQ(adapter->run_calls, 40);
}

TEST(GateStagesTest, ABackendExceptionIsABackendCrashAndTheRunGoesOn) {
  auto adapter = Cpu();
  adapter->throw_if = InTheF32Group;
  Oracle oracle(&TestRegistry());
  Gate gate(&TestRegistry(), &oracle, adapter.get());
  auto run = gate.Run(AddOptions(20));
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->groups.size(), 2u);
  const GroupResult& f32 = Group(*run, ElementType::kF32);
  EXPECT_EQ(f32.failed, 20);
  ASSERT_EQ(f32.findings.size(), 1u);
  EXPECT_EQ(f32.findings[0].kind, FindingKind::kBackendCrash);
  EXPECT_NE(f32.findings[0].message.find("probe backend threw"), std::string::npos)
      << f32.findings[0].message;
  // A crash is the backend's fault: shrunk like a mismatch.
  EXPECT_LE(f32.findings[0].minimal_elements, f32.findings[0].original_elements);
  EXPECT_FALSE(f32.findings[0].replay.empty());
  // The other group ran as if nothing had happened.
  EXPECT_EQ(Group(*run, ElementType::kSI32).passed, 20);
  EXPECT_TRUE(Group(*run, ElementType::kSI32).findings.empty());
}

// A group whose every case the backend rejects (an op or type it cannot
// compile) stops once the rejections reach the limit: the rest are counted
// as not run (skipped, never passed) and the first rejection is the finding.
TEST(GateStagesTest, AGroupTheBackendRejectsWhollyStopsEarly) {
  auto adapter = Cpu();
  adapter->reject_if = InTheF32Group;
  Oracle oracle(&TestRegistry());
  Gate gate(&TestRegistry(), &oracle, adapter.get());
  GateOptions options = AddOptions(300);
  options.stop_after_backend_failures = 100;
  options.max_shrink_attempts = 10;
  auto run = gate.Run(options);
  ASSERT_TRUE(run.ok()) << run.status();
  const GroupResult& f32 = Group(*run, ElementType::kF32);
  EXPECT_EQ(f32.cases, 300);
  EXPECT_EQ(f32.failed, 100);
  EXPECT_EQ(f32.passed, 0);
  EXPECT_EQ(f32.skipped, 200);
  EXPECT_EQ(f32.not_run_after_backend_failures, 200);
  EXPECT_NE(f32.skip_reason.find("failed each of the first 100 cases"), std::string::npos)
      << f32.skip_reason;
  ASSERT_EQ(f32.findings.size(), 1u);
  EXPECT_EQ(f32.findings[0].kind, FindingKind::kBackendError);
  // The other group ran every case.
  EXPECT_EQ(Group(*run, ElementType::kSI32).passed, 300);
  EXPECT_EQ(Group(*run, ElementType::kSI32).not_run_after_backend_failures, 0);
}

// A case with no element (every tensor empty) that passes does not keep a
// group the backend otherwise rejects running: a compiler that cannot
// lower an op for a type still compiles it when there is nothing to do.
TEST(GateStagesTest, EmptyCasesThatPassDoNotKeepARejectedGroupRunning) {
  auto adapter = Cpu();
  adapter->reject_if = [](const Case& c) { return c.operands[0].num_elements() > 0; };
  Oracle oracle(&TestRegistry());
  Gate gate(&TestRegistry(), &oracle, adapter.get());
  GateOptions options = AddOptions(400);
  options.types = {ElementType::kSI32};
  options.stop_after_backend_failures = 100;
  options.max_shrink_attempts = 0;
  auto run = gate.Run(options);
  ASSERT_TRUE(run.ok()) << run.status();
  const GroupResult& g = run->groups.at(0);
  EXPECT_GT(g.passed, 0) << "the generator draws empty tensors now and then";
  EXPECT_GT(g.not_run_after_backend_failures, 0);
  EXPECT_EQ(g.passed + g.failed + g.skipped, 400);
}

// One case that runs is enough for a group to go on to its end; and 0
// turns the early stop off.
TEST(GateStagesTest, AGroupWithOneCaseThatRunsIsNotStopped) {
  for (int64_t limit : {int64_t{100}, int64_t{0}}) {
    auto adapter = Cpu();
    int calls = 0;
    adapter->reject_if = [&calls, limit](const Case&) { return ++calls != (limit ? 50 : -1); };
    Oracle oracle(&TestRegistry());
    Gate gate(&TestRegistry(), &oracle, adapter.get());
    GateOptions options = AddOptions(300);
    options.types = {ElementType::kSI32};
    options.stop_after_backend_failures = limit;
    options.max_shrink_attempts = 0;
    auto run = gate.Run(options);
    ASSERT_TRUE(run.ok()) << run.status();
    const GroupResult& g = run->groups.at(0);
    EXPECT_EQ(g.not_run_after_backend_failures, 0) << "limit " << limit;
    EXPECT_EQ(g.passed + g.failed, 300) << "limit " << limit;
    EXPECT_EQ(g.passed, limit ? 1 : 0) << "limit " << limit;
  }
}

TEST(GateStagesTest, AnOracleExceptionIsAnOracleErrorAndTheRunGoesOn) {
  auto adapter = Cpu();
  ThrowingOracle oracle(&TestRegistry());
  oracle.throw_if = InTheF32Group;
  Gate gate(&TestRegistry(), &oracle, adapter.get());
  auto run = gate.Run(AddOptions(20));
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->groups.size(), 2u);
  const GroupResult& f32 = Group(*run, ElementType::kF32);
  EXPECT_EQ(f32.failed, 20);
  ASSERT_EQ(f32.findings.size(), 1u);
  EXPECT_EQ(f32.findings[0].kind, FindingKind::kOracleError);
  EXPECT_NE(f32.findings[0].message.find("test oracle threw"), std::string::npos);
  // The backend is not run on a case the oracle could not answer.
  EXPECT_EQ(adapter->run_calls, 20);
  EXPECT_EQ(Group(*run, ElementType::kSI32).passed, 20);
}

TEST(GateStagesTest, AGeneratorExceptionIsAGeneratorError) {
  auto adapter = Cpu();
  Oracle oracle(&TestRegistry());
  Gate gate(&TestRegistry(), &oracle, adapter.get());
  gate.SetCaseGenerator([](const spec::OpSpec& op, const GenerationOptions& generation) {
    return rc::gen::map(CaseGenerator(op, generation), [](Case c) {
      if (c.operands[0].num_elements() % 2 == 1) throw std::runtime_error("odd generator");
      return c;
    });
  });
  GateOptions options = AddOptions(60);
  options.types = {ElementType::kSI32};
  auto run = gate.Run(options);
  ASSERT_TRUE(run.ok()) << run.status();
  const GroupResult& group = run->groups[0];
  EXPECT_GT(group.failed, 0);
  EXPECT_GT(group.passed, 0);
  EXPECT_EQ(group.passed + group.failed, 60);
  ASSERT_EQ(group.findings.size(), 1u);
  EXPECT_EQ(group.findings[0].kind, FindingKind::kGeneratorError);
  EXPECT_NE(group.findings[0].message.find("odd generator"), std::string::npos);
  EXPECT_FALSE(group.findings[0].replay.empty());
}

// The oracle starts throwing on small cases once the backend has been seen
// to fail, so every smaller candidate the shrinker tries throws: the run
// must finish and keep the smallest failing case it got to.
TEST(GateStagesTest, AnOracleExceptionWhileShrinkingKeepsTheSmallestFailingCase) {
  constexpr int64_t kSmallest = 8;
  auto faulty = CreateFaultyAdapter("faulty-slice-stride", AdapterOptions{2});
  ASSERT_NE(faulty, nullptr);
  auto reference = CreateAdapter("cpu", AdapterOptions{2});
  ASSERT_TRUE(reference.ok());
  bool diverged = false;
  ProbeAdapter adapter(std::move(faulty));
  ThrowingOracle oracle(&TestRegistry());
  oracle.throw_if = [&](const Case& c) { return diverged && Elements(c) < kSmallest; };
  // Notices the first wrong answer by running the correct CPU backend too.
  class Watch : public Adapter {
   public:
    Watch(Adapter* faulty, Adapter* cpu, bool* diverged)
        : faulty_(faulty), cpu_(cpu), diverged_(diverged) {}
    std::string_view name() const override { return faulty_->name(); }
    std::vector<std::string> ImplementedOps() const override { return faulty_->ImplementedOps(); }
    AdapterSupport Supports(const Case& c) const override { return faulty_->Supports(c); }
    absl::StatusOr<std::vector<Tensor>> Run(const Case& c) override {
      auto got = faulty_->Run(c);
      auto want = cpu_->Run(c);
      if (got.ok() && want.ok() && !(got->at(0) == want->at(0))) *diverged_ = true;
      return got;
    }

   private:
    Adapter* faulty_;
    Adapter* cpu_;
    bool* diverged_;
  } watch(&adapter, reference->get(), &diverged);
  Gate gate(&TestRegistry(), &oracle, &watch);
  GateOptions options;
  options.ops = {"slice"};
  options.types = {ElementType::kSI32};
  options.cases = 50;
  options.seed = 12345;
  auto run = gate.Run(options);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_TRUE(diverged) << "the faulty backend never failed: the test proves nothing";
  const GroupResult& group = run->groups[0];
  EXPECT_EQ(group.cases, 50);
  ASSERT_FALSE(group.findings.empty());
  const Finding& finding = group.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::kMismatch);
  EXPECT_LE(finding.minimal_elements, finding.original_elements);
  EXPECT_GE(finding.minimal_elements, std::min(kSmallest, finding.original_elements))
      << finding.reproducer;
  // The kept case is a real failure: its replay, on an oracle that does not
  // throw, still fails.
  Oracle plain(&TestRegistry());
  Gate replay_gate(&TestRegistry(), &plain, &adapter);
  auto replayed = replay_gate.Replay(finding.replay);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_TRUE(replayed->outcome.failed());
  EXPECT_EQ(Elements(replayed->c), finding.minimal_elements);
}

// Shrink on its own: a check that throws on a candidate counts as "does not
// fail", never as the end of the search.
TEST(ShrinkTest, ACheckThatThrowsKeepsTheSmallestFailingCaseSoFar) {
  const spec::OpSpec* op = TestRegistry().Find("add");
  ASSERT_NE(op, nullptr);
  GenerationOptions generation;
  generation.primary_type = ElementType::kSI32;
  // The first seed from 99 on whose case has more than 6 elements.
  uint64_t seed = 99;
  while (Elements(GenerateCase(*op, generation, seed, 100).value()) <= 6 && seed < 199) ++seed;
  rc::Shrinkable<Case> start = GenerateCase(*op, generation, seed, 100);
  const int64_t original = Elements(start.value());
  ASSERT_GT(original, 6) << "no seed in 99..199 draws a case of more than 6 elements";
  int throws = 0;
  auto check = [&](const Case& c) {
    if (Elements(c) < 6) {
      ++throws;
      throw std::runtime_error("too small to check");
    }
    CaseOutcome failing;
    failing.kind = CaseOutcome::Kind::kMismatch;  // every checkable case "fails"
    return failing;
  };
  CaseOutcome first;
  first.kind = CaseOutcome::Kind::kMismatch;
  Shrunk shrunk = Shrink(check, start, first, 5000);
  EXPECT_GT(throws, 0);
  EXPECT_GE(Elements(shrunk.c), 6);
  EXPECT_LT(Elements(shrunk.c), original);
  EXPECT_EQ(shrunk.outcome.kind, CaseOutcome::Kind::kMismatch);
  EXPECT_FALSE(shrunk.path.empty());
}

}  // namespace
}  // namespace hlocheck
