// A region run on whole tensors through a backend's own op table: the
// regions of control flow (if, case, while), of composite's decomposition
// and call's callee, and a program's @main. Each op of the region is a case
// of its own, built once and run as the backend runs any case; tokens pass
// through, and an op whose regions use values of the region around it gets
// them as constants at their start before each run. An op the backend
// lacks makes the region unsupported, by name. The CPU and CUDA backends
// both run their regions through it, each with its own RegionOps.
#ifndef HLOCHECK_ADAPTERS_REGION_TENSOR_REGION_H_
#define HLOCHECK_ADAPTERS_REGION_TENSOR_REGION_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "adapters/adapter.h"
#include "core/case.h"
#include "core/program.h"

namespace hlocheck {

// A backend's op table as a region's ops see it.
class RegionOps {
 public:
  virtual ~RegionOps() = default;
  // Whether the backend has the op `name` ("stablehlo.add") at all.
  virtual bool Has(std::string_view name) const = 0;
  // What the backend answers for a case of one of those ops.
  virtual AdapterSupport Supports(const Case& c) const = 0;
  virtual absl::StatusOr<std::vector<Tensor>> Run(const Case& c) const = 0;
};

// A value of a region: a tensor, a token (no tensor), or a tuple (its
// elements).
struct Value {
  ValueType type;
  Tensor tensor;
  std::vector<Value> elements;  // a tuple's
};

// A region run on whole tensors: one block, its arguments bound to values,
// each op run through the op table on a case built once (Create) whose
// operands are refreshed before every run, up to the stablehlo.return.
class TensorRegion {
 public:
  static absl::StatusOr<TensorRegion> Create(const Region& region,
                                             const std::vector<ValueType>& arguments,
                                             std::string what, const RegionOps& ops);

  const AdapterSupport& support() const { return support_; }

  absl::StatusOr<std::vector<Value>> Run(std::vector<Value> arguments, const RegionOps& ops);

 private:
  struct Step {
    bool token_only = false;   // after_all or create_token: a token, nothing to run
    bool make_tuple = false;   // tuple: its operands' values as elements
    int64_t tuple_index = -1;  // get_tuple_element: that element of its operand
    Case c;
    std::vector<size_t> operand_slots;
    std::vector<size_t> result_slots;
    // An op with regions that use values of this one: the regions as
    // written, and the slots of the values they capture, which become
    // constants at the start of each region before every run (the case's
    // regions must stand alone, like a generated case's).
    std::vector<Region> regions;
    std::vector<std::pair<ValueId, size_t>> captures;
  };

  void Detach(Step& step) const;

  std::string what_;
  AdapterSupport support_ = AdapterSupport::Yes();
  std::vector<Value> slots_;
  std::vector<Step> steps_;
  std::vector<size_t> return_slots_;
  size_t arguments_ = 0;
};

// An enum attribute of a region's op by its name ("LT" for
// comparison_direction), "" when absent or not an enum.
std::string EnumName(const Operation& op, const std::string& name);

// The case's operands as values (tensors and tokens).
absl::StatusOr<std::vector<Value>> OperandValues(const Case& c);

// The tensors of the values, in order (a token holds none), after checking
// they have the case's result types.
absl::StatusOr<std::vector<Tensor>> ResultTensors(const Case& c, std::vector<Value> values);

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_REGION_TENSOR_REGION_H_
