#include "oracle/oracle.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/status/status.h"
#include "spec/verifier.h"

namespace hlocheck {
namespace {

const std::map<std::string, oracle::OpFunction, std::less<>>& OpTable() {
  static const auto* table = [] {
    auto* map = new std::map<std::string, oracle::OpFunction, std::less<>>();
    for (auto chapter : {oracle::ElementwiseArithmeticOps,
                         oracle::ElementwiseBitwiseOps,
                         oracle::ElementwiseCompareSelectOps,
                         oracle::ElementwiseComplexOps,
                         oracle::ElementwiseMapOps,
                         oracle::ElementwiseConversionOps,
                         oracle::ElementwiseRoundingOps,
                         oracle::ElementwiseTranscendentalOps,
                         oracle::BatchNormOps,
                         oracle::ContractionOps,
                         oracle::ControlFlowOps,
                         oracle::CallsOps,
                         oracle::CollectivesOps,
                         oracle::FftOps,
                         oracle::LinearAlgebraOps,
                         oracle::QuantizationOps,
                         oracle::ReductionOps,
                         oracle::SideEffectsOps,
                         oracle::DataMovementIndexingOps,
                         oracle::DataMovementScatterOps,
                         oracle::DataMovementShapeOps,
                         oracle::DataMovementSortOps,
                         oracle::DataMovementTuplesOps,
                         oracle::DataMovementValuesOps,
                         oracle::RandomNumbersOps}) {
      for (const oracle::OpEntry& entry : chapter()) (*map)[entry.name] = entry.function;
    }
    return map;
  }();
  return *table;
}

}  // namespace

oracle::OpFunction oracle::FindOpFunction(std::string_view op) {
  auto it = OpTable().find(op);
  return it == OpTable().end() ? nullptr : it->second;
}

// The oracle relies on the host's IEEE arithmetic for f64 results: refuse to
// run if something switched on flush-to-zero or denormals-are-zero.
absl::Status oracle::CheckFloatingPointEnvironment() {
  volatile double tiny = 4.9406564584124654e-324;
  volatile double doubled = tiny * 2.0;
  if (doubled != 0.0 && doubled / 2.0 == tiny) return absl::OkStatus();
  return absl::FailedPreconditionError(
      "the floating-point environment flushes subnormals; the oracle cannot be exact");
}

int64_t ResultExpectation::FreeCount() const {
  return static_cast<int64_t>(free.size()) - std::count(free.begin(), free.end(), uint8_t{0});
}

bool Oracle::Implements(std::string_view op) const { return OpTable().count(op) > 0; }

std::vector<std::string> Oracle::ImplementedOps() const {
  std::vector<std::string> names;
  for (const auto& [name, function] : OpTable()) names.push_back(name);
  return names;
}

absl::StatusOr<std::vector<ResultExpectation>> Oracle::Compute(const Case& c) const {
  oracle::OpFunction function = oracle::FindOpFunction(c.op);
  if (function == nullptr) {
    std::string message = "the oracle does not implement '" + c.op + "' yet";
    if (const oracle::NotYetImplemented* planned = oracle::FindNotYetImplemented(c.op)) {
      message += " (planned in issue " + std::to_string(planned->issue) + ": " +
                 std::string(planned->family) + ")";
    }
    return absl::UnimplementedError(message);
  }
  if (absl::Status environment = oracle::CheckFloatingPointEnvironment(); !environment.ok()) {
    return environment;
  }
  const spec::OpSpec* op = registry_ != nullptr ? registry_->Find(c.op) : nullptr;
  absl::StatusOr<std::vector<ResultExpectation>> results;
  if (HasQuantizedTensor(c)) {
    // What the op computes on quantized tensors is its spec's to say.
    const spec::SpecRegistry* registry = registry_;
    if (registry == nullptr) registry = spec::DefaultRegistry().value_or(nullptr);
    const spec::OpSpec* spec = registry != nullptr ? registry->Find(c.op) : nullptr;
    if (spec == nullptr) {
      return absl::FailedPreconditionError("a quantized case needs the op's spec (" + c.op + ")");
    }
    results = oracle::ComputeQuantized(c, *spec, function);
  } else {
    results = function(c);
  }
  if (!results.ok()) return results;
  // The op functions say what the spec computes; the bound a backend may
  // miss it by is the op's YAML numerics, attached here once per case.
  if (op != nullptr) {
    for (ResultExpectation& e : *results) {
      e.allowed_ulp = op->numerics.AllowedUlp(e.reference.element_type());
    }
  }
  return results;
}

absl::StatusOr<std::vector<ResultExpectation>> Oracle::Run(const Case& c) const {
  const spec::OpSpec* op = registry_->Find(c.op);
  if (op == nullptr) return absl::NotFoundError("no spec for op '" + c.op + "'");
  if (std::string why; !LeavesMatchStructure(OneProcess(c, 0), &why)) {
    return absl::InvalidArgumentError("the case's tensors do not fit its tuple and token types: " +
                                      why);
  }
  spec::VerifyResult verdict = spec::Verify(*op, c, registry_);
  if (!verdict.valid()) {
    return absl::InvalidArgumentError("the case violates the spec of " + c.op + ":\n" +
                                      verdict.Report());
  }
  return Compute(c);
}

}  // namespace hlocheck
