// What an op's indexing maps claim about concrete data, checked element by
// element (the property tests and the spec examples' tests use these):
//   - every output element equals, bit for bit, the input element the first
//     value map whose domain holds its index points to (for an op without
//     inputs, the converted value of its value map);
//   - the input elements no map reaches: changing them cannot change the
//     output.
#ifndef HLOCHECK_SPEC_INDEXING_MAP_CHECK_H_
#define HLOCHECK_SPEC_INDEXING_MAP_CHECK_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "spec/indexing_map_template.h"

namespace hlocheck::spec {

// The input element that output element `d` equals: the first value map
// whose domain holds d, and the index it gives. Nothing when no value map
// covers d.
struct ValueSource {
  const InputIndexingMap* map = nullptr;
  std::vector<int64_t> index;
};
absl::StatusOr<std::optional<ValueSource>> FindValueSource(const OpIndexingMaps& maps,
                                                           const RuntimeValueReader& read,
                                                           std::span<const int64_t> d);

// Checks every element of `output` (the op's result for `c`) against the
// maps; the error names the first element that differs, its source and the
// bits. An output element no value map covers is an error too, unless the
// maps say why the spec leaves such elements without a value (`uncovered`):
// then it is counted as unspecified. An op with a value_of_index map is
// checked against the value converted to the element type, where the
// conversion is exact or rounds a float; integer values outside the type's
// range are unspecified.
struct ValueMapCheck {
  int64_t compared = 0;
  int64_t unspecified = 0;
};
absl::StatusOr<ValueMapCheck> CheckValueMaps(const OpIndexingMaps& maps, const Case& c,
                                             const Tensor& output);

// For each operand of `c` (flat order), which elements some map reaches:
// the element the winning value map points to, for every output index, and
// every element an index map covers. And which output elements have a value
// (all but those no value map covers, when the maps allow such).
struct Reach {
  std::vector<std::vector<bool>> inputs;
  std::vector<bool> output_specified;
};
absl::StatusOr<Reach> ReachedElements(const OpIndexingMaps& maps, const Case& c);

std::string IndexToString(std::span<const int64_t> index);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_INDEXING_MAP_CHECK_H_
