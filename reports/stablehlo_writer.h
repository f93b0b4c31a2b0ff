// Cases as StableHLO text: the op under test in the generic form, its
// inputs as constants and the oracle's answer as a `check` assertion, so a
// reproducer runs as-is in the StableHLO interpreter and in hlocheck.
#ifndef HLOCHECK_REPORTS_STABLEHLO_WRITER_H_
#define HLOCHECK_REPORTS_STABLEHLO_WRITER_H_

#include <string>
#include <vector>

#include "core/case.h"
#include "spec/op_spec.h"

namespace hlocheck {

// `"stablehlo.op"(%a, %b) {attributes} : (types) -> types`, with operands
// named after the spec's inputs.
std::string PrintOpGeneric(const spec::OpSpec& op, const Case& c);

// The attribute dictionary `{...}` (empty string when there are none).
std::string PrintAttributes(const spec::OpSpec& op, const Case& c);

struct ExpectedResult {
  Tensor value;
  bool exact = true;  // check.expect_eq_const, else check.expect_almost_eq_const
};

// A standalone module: func.func @main with the inputs as constants, the op,
// and one check per expected result. `comments` go at the top, one per line.
std::string PrintReproducer(const spec::OpSpec& op, const Case& c,
                            const std::vector<ExpectedResult>& expected,
                            const std::vector<std::string>& comments);

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_STABLEHLO_WRITER_H_
