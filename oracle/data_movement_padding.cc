// pad: edge padding (possibly negative) and interior padding.
#include "absl/status/status.h"
#include "oracle/data_movement.h"

namespace hlocheck::oracle {
namespace {

// pad: result[result_index] = operand[operand_index] if
//   result_index = edge_padding_low + operand_index * (interior_padding + 1)
// for an operand_index in index_space(operand), and padding_value otherwise.
// Negative edge padding moves operand elements below index 0 or beyond the
// last result index, which drops them: they match no result_index.
Results Pad(const Case& c) {
  const Tensor& operand = c.operands[0];
  const Tensor& padding_value = c.operands[1];
  const auto& edge_padding_low = c.attribute<std::vector<int64_t>>("edge_padding_low");
  const auto& interior_padding = c.attribute<std::vector<int64_t>>("interior_padding");
  ElementView in(operand);
  const std::byte* padding = padding_value.bytes().data();
  std::vector<int64_t> operand_index(operand.rank());
  return Exactly(ResultFrom(c.result_types[0], [&](const std::vector<int64_t>& result_index) {
    // Solve result_index = edge_padding_low + operand_index * (interior_padding + 1)
    // for operand_index, dimension by dimension.
    for (size_t d = 0; d < result_index.size(); ++d) {
      const int64_t from_low = result_index[d] - edge_padding_low[d];
      const int64_t step = interior_padding[d] + 1;
      if (from_low < 0 || from_low % step != 0 || from_low / step >= operand.shape()[d]) {
        return padding;
      }
      operand_index[d] = from_low / step;
    }
    return in.at(operand_index);
  }));
}

}  // namespace

std::vector<OpEntry> PaddingOps() { return {{"pad", Pad}}; }

}  // namespace hlocheck::oracle
