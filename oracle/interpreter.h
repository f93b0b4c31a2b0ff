// Runs StableHLO programs (core/program.h) on the oracle: every stablehlo op
// becomes a Case that the oracle verifies against the spec and computes;
// func.call, returns, tuples, tokens and the control-flow ops (while, if,
// case) are evaluated here, their regions through this same interpreter.
// Ops outside the oracle are reported as unsupported, by name, never run.
#ifndef HLOCHECK_ORACLE_INTERPRETER_H_
#define HLOCHECK_ORACLE_INTERPRETER_H_

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/program.h"
#include "oracle/oracle.h"
#include "oracle/process_rendezvous.h"

namespace hlocheck {

// A value at run time: a tensor, a token or a tuple of values. `free`
// marks tensor elements the spec leaves to the implementation (from the
// op that produced them).
struct RuntimeValue {
  ValueType type;
  Tensor tensor;
  std::vector<uint8_t> free;
  // Elements that may come back reordered (an unstable sort's ties).
  std::shared_ptr<const PermutableRuns> permutable;
  std::vector<RuntimeValue> elements;  // tuples

  static RuntimeValue Of(Tensor tensor);
  static RuntimeValue Token();
};

class Interpreter {
 public:
  // Ops of other dialects (check.*, interpreter.*) go to the hook: it returns
  // false for ops it does not know, true with `results` filled otherwise.
  using Hook = std::function<absl::StatusOr<bool>(const Operation& op,
                                                  const std::vector<RuntimeValue>& operands,
                                                  std::vector<RuntimeValue>* results)>;

  Interpreter(const Oracle* oracle, const spec::SpecRegistry* registry, const Module* module)
      : oracle_(oracle), registry_(registry), module_(module) {}

  const spec::SpecRegistry* registry() const { return registry_; }
  void set_hook(Hook hook) { hook_ = std::move(hook); }
  // Runs as process `process` of the rendezvous' grid (run_parallel): its
  // replica_id and partition_id, and its collectives met with the other
  // processes'. Without one, the program runs on a 1 x 1 grid.
  void set_process(oracle::ProcessRendezvous* rendezvous, int64_t process) {
    rendezvous_ = rendezvous;
    process_ = process;
  }
  // The grid's rendezvous this interpreter's sends, recvs, infeeds and
  // outfeeds go through: run_parallel's, or a 1 x 1 one of its own that
  // each top-level Call starts afresh (the host's queues and channels of
  // a lone program: interpreter.incoming and interpreter.outgoing reach
  // them).
  oracle::ProcessRendezvous& rendezvous();
  // Called after every op the oracle ran, with the oracle's expectations for
  // its results (before the interpreter keeps only their reference values).
  // `interpret` uses it to judge a check's constant by what the spec allows.
  using Observer =
      std::function<void(const Operation& op, const std::vector<ResultExpectation>& expectations)>;
  void set_observer(Observer observer) { observer_ = std::move(observer); }
  // Called after every op of every region this interpreter runs (the
  // oracle's, and those it evaluates itself: while, if, case,
  // optimization_barrier, ...), with its operands and results as the
  // program goes on to use them. A program's checks (runners/program_check)
  // read a value's origin from it.
  using ValueObserver =
      std::function<void(const Operation& op, const std::vector<RuntimeValue>& operands,
                         const std::vector<RuntimeValue>& results)>;
  void set_value_observer(ValueObserver observer) { value_observer_ = std::move(observer); }

  // Calls a function of the module. An op the oracle does not implement
  // stops the call with an Unimplemented status naming it (and it is added
  // to unsupported_ops()); a case the spec forbids is InvalidArgument.
  absl::StatusOr<std::vector<RuntimeValue>> Call(const std::string& function,
                                                 std::vector<RuntimeValue> arguments);
  // Runs a region with its block arguments bound to `arguments`; values of
  // enclosing regions are visible through `outer`.
  // The values a region sees: its own, then those of the regions around it
  // (chained, so that entering a loop body does not copy every live tensor).
  struct Environment {
    std::map<ValueId, RuntimeValue> values;
    const Environment* outer = nullptr;
    const RuntimeValue* Find(ValueId id) const {
      for (const Environment* e = this; e != nullptr; e = e->outer) {
        auto it = e->values.find(id);
        if (it != e->values.end()) return &it->second;
      }
      return nullptr;
    }
  };
  absl::StatusOr<std::vector<RuntimeValue>> RunRegion(const Region& region,
                                                      std::vector<RuntimeValue> arguments,
                                                      const Environment* outer = nullptr);

  // The case a stablehlo op becomes on the oracle, its regions detached
  // from `environment`; Unimplemented (the op added to unsupported_ops())
  // for an op or a value the oracle does not take. Not verified yet.
  absl::StatusOr<Case> OracleCase(const Operation& op, const std::vector<RuntimeValue>& operands,
                                  const Environment& environment);

  // While one lives, the regions this interpreter runs are a loop's: an op
  // verified at an earlier iteration with the same types is not verified
  // again (spec::Verify reads only types and attributes). The cache ends
  // with the outermost scope (the Operation pointers live that long).
  class LoopScope {
   public:
    explicit LoopScope(Interpreter* interpreter) : interpreter_(interpreter) {
      ++interpreter_->loop_depth_;
    }
    ~LoopScope() {
      if (--interpreter_->loop_depth_ == 0) interpreter_->verified_in_loop_.clear();
    }
    LoopScope(const LoopScope&) = delete;
    LoopScope& operator=(const LoopScope&) = delete;

   private:
    Interpreter* interpreter_;
  };

  // The ops, by name, that stopped some call as unsupported.
  const std::set<std::string>& unsupported_ops() const { return unsupported_; }
  // The names of the ops a function uses, found by scanning it (regions and
  // called functions included) without running it.
  std::set<std::string> OpsUsedBy(const std::string& function) const;

 private:
  absl::StatusOr<std::vector<RuntimeValue>> RunOperation(const Operation& op,
                                                         const std::vector<RuntimeValue>& operands,
                                                         const Environment& environment);
  absl::StatusOr<std::vector<RuntimeValue>> RunOracleOp(const Operation& op,
                                                        const std::vector<RuntimeValue>& operands,
                                                        const Environment& environment);
  // infeed, outfeed, send, recv: the oracle's op with the message that
  // arrived, or giving one away, through rendezvous().
  absl::StatusOr<std::vector<RuntimeValue>> RunTransfer(const Operation& op,
                                                        const std::vector<RuntimeValue>& operands,
                                                        const Environment& environment);
  absl::Status Unsupported(const std::string& op, const std::string& why);

  const Oracle* oracle_;
  const spec::SpecRegistry* registry_;
  const Module* module_;
  Hook hook_;
  Observer observer_;
  ValueObserver value_observer_;
  std::set<std::string> unsupported_;
  int depth_ = 0;
  // Inside a while loop, the ops of its cond and body already verified,
  // with their operand and result types: spec::Verify reads only types and
  // attributes, so a later iteration with the same types skips it. Cleared
  // when the outermost loop ends (the Operation pointers live that long).
  int loop_depth_ = 0;
  std::map<const Operation*, std::vector<TensorType>> verified_in_loop_;
  oracle::ProcessRendezvous* rendezvous_ = nullptr;
  int64_t process_ = 0;
  std::unique_ptr<oracle::ProcessRendezvous> lone_;  // without run_parallel
};

namespace oracle {

// An interpreter on the oracle and spec registry that CallRegion uses, for
// the ops that run regions of values (control_flow.cc); null when the spec
// could not be loaded.
std::unique_ptr<Interpreter> NewDefaultInterpreter();

}  // namespace oracle
}  // namespace hlocheck

#endif  // HLOCHECK_ORACLE_INTERPRETER_H_
