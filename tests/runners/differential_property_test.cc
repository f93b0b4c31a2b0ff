// The differential property itself, as RapidCheck properties: for every
// generated case of an op, the CPU backend agrees with the oracle. On a
// failure RapidCheck shrinks the case and prints its reproduce string.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "runners/session.h"

namespace hlocheck {
namespace {

Session& CpuSession() {
  static Session* session = [] {
    auto opened = OpenSession("cpu", 2);
    if (!opened.ok()) throw std::runtime_error(std::string(opened.status().message()));
    return opened->release();
  }();
  return *session;
}

void CheckOp(const std::string& name) {
  Session& session = CpuSession();
  const spec::OpSpec& op = *session.registry->Find(name);
  GenerationOptions options;
  options.max_elements = 1024;
  Case c = *CaseGenerator(op, options);
  RC_TAG(std::string(Name(c.operands[0].element_type())));
  CaseOutcome outcome = session.gate->CheckCase(op, c);
  RC_ASSERT(outcome.kind != CaseOutcome::Kind::kInvalid);
  if (outcome.failed()) RC_FAIL(outcome.message);
}

RC_GTEST_PROP(DifferentialProperty, AddAgrees, ()) { CheckOp("add"); }
RC_GTEST_PROP(DifferentialProperty, ExponentialAgrees, ()) { CheckOp("exponential"); }
RC_GTEST_PROP(DifferentialProperty, ConvertAgrees, ()) { CheckOp("convert"); }
RC_GTEST_PROP(DifferentialProperty, TransposeAgrees, ()) { CheckOp("transpose"); }
RC_GTEST_PROP(DifferentialProperty, SliceAgrees, ()) { CheckOp("slice"); }
RC_GTEST_PROP(DifferentialProperty, DotGeneralAgrees, ()) { CheckOp("dot_general"); }
RC_GTEST_PROP(DifferentialProperty, ScatterAgrees, ()) { CheckOp("scatter"); }
RC_GTEST_PROP(DifferentialProperty, SortAgrees, ()) { CheckOp("sort"); }

}  // namespace
}  // namespace hlocheck
