// The differential property itself, as RapidCheck properties: for every
// generated case of an op, the CPU backend agrees with the oracle. On a
// failure RapidCheck shrinks the case and prints its reproduce string.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "tests/runners/cpu_session.h"

namespace hlocheck {
namespace {

void CheckOp(const std::string& name) {
  Session& session = CpuSession();
  const spec::OpSpec& op = *session.registry->Find(name);
  GenerationOptions options;
  options.max_elements = 1024;
  Case c;
  try {
    c = *CaseGenerator(op, options);
  } catch (const NotRunnable&) {
    RC_DISCARD("not runnable as a Case (quantized tensors in an op that computes on them)");
  }
  // constant and iota have no operands: their type is the result's.
  RC_TAG(std::string(
      Name(c.operands.empty() ? c.result_types[0].element_type : c.operands[0].element_type())));
  CaseOutcome outcome = session.gate->CheckCase(op, c);
  // A skipped case compared nothing: discarded with the gate's reason, so
  // that a property whose cases are all skipped gives up (RapidCheck fails
  // past its discard ratio) instead of passing.
  if (outcome.kind == CaseOutcome::Kind::kSkipped) RC_DISCARD("skipped: " + outcome.message);
  // Without the oracle's answer nothing was checked: a failure, not a pass.
  if (outcome.kind == CaseOutcome::Kind::kOracleError) RC_FAIL("oracle error: " + outcome.message);
  if (outcome.kind == CaseOutcome::Kind::kInvalid) {
    RC_FAIL("the generator made an invalid case: " + outcome.message);
  }
  if (outcome.kind != CaseOutcome::Kind::kPass) RC_FAIL(outcome.message);
}

RC_GTEST_PROP(DifferentialProperty, AddAgrees, ()) { CheckOp("add"); }
RC_GTEST_PROP(DifferentialProperty, ExponentialAgrees, ()) { CheckOp("exponential"); }
RC_GTEST_PROP(DifferentialProperty, ConvertAgrees, ()) { CheckOp("convert"); }
RC_GTEST_PROP(DifferentialProperty, TransposeAgrees, ()) { CheckOp("transpose"); }
RC_GTEST_PROP(DifferentialProperty, SliceAgrees, ()) { CheckOp("slice"); }
RC_GTEST_PROP(DifferentialProperty, DotGeneralAgrees, ()) { CheckOp("dot_general"); }
RC_GTEST_PROP(DifferentialProperty, BroadcastInDimAgrees, ()) { CheckOp("broadcast_in_dim"); }
RC_GTEST_PROP(DifferentialProperty, ConcatenateAgrees, ()) { CheckOp("concatenate"); }
RC_GTEST_PROP(DifferentialProperty, ConstantAgrees, ()) { CheckOp("constant"); }
RC_GTEST_PROP(DifferentialProperty, DynamicSliceAgrees, ()) { CheckOp("dynamic_slice"); }
RC_GTEST_PROP(DifferentialProperty, DynamicUpdateSliceAgrees, ()) {
  CheckOp("dynamic_update_slice");
}
RC_GTEST_PROP(DifferentialProperty, GatherAgrees, ()) { CheckOp("gather"); }
RC_GTEST_PROP(DifferentialProperty, GetDimensionSizeAgrees, ()) { CheckOp("get_dimension_size"); }
RC_GTEST_PROP(DifferentialProperty, IotaAgrees, ()) { CheckOp("iota"); }
RC_GTEST_PROP(DifferentialProperty, PadAgrees, ()) { CheckOp("pad"); }
RC_GTEST_PROP(DifferentialProperty, ReshapeAgrees, ()) { CheckOp("reshape"); }
RC_GTEST_PROP(DifferentialProperty, ReverseAgrees, ()) { CheckOp("reverse"); }

RC_GTEST_PROP(DifferentialProperty, OptimizationBarrierAgrees, ()) {
  CheckOp("optimization_barrier");
}
RC_GTEST_PROP(DifferentialProperty, TupleAgrees, ()) { CheckOp("tuple"); }
RC_GTEST_PROP(DifferentialProperty, GetTupleElementAgrees, ()) { CheckOp("get_tuple_element"); }
RC_GTEST_PROP(DifferentialProperty, ScatterAgrees, ()) { CheckOp("scatter"); }
RC_GTEST_PROP(DifferentialProperty, SortAgrees, ()) { CheckOp("sort"); }

}  // namespace
}  // namespace hlocheck
