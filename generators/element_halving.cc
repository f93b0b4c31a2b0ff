#include "generators/element_halving.h"

#include <cstring>

namespace hlocheck {

std::optional<Case> HalfOfElements(const spec::OpSpec& op, const Case& c, bool second) {
  if (op.category != "elementwise" || !c.regions.empty() || c.FindAttribute("dimensions") ||
      c.result_types.empty() || !c.operand_structure.empty() || !c.result_structure.empty()) {
    return std::nullopt;
  }
  const Shape& shape = c.result_types[0].shape;
  const int64_t n = NumElements(shape);
  if (n < 2) return std::nullopt;
  for (const TensorType& result : c.result_types) {
    if (result.shape != shape || result.quantization) return std::nullopt;
  }
  for (const Tensor& operand : c.operands) {
    if (operand.type().quantization) return std::nullopt;
    if (operand.shape() != shape && operand.rank() != 0) return std::nullopt;
  }
  const int64_t begin = second ? n / 2 : 0;
  const int64_t end = second ? n : n / 2;
  Case half = c;
  for (Tensor& operand : half.operands) {
    if (operand.rank() == 0 && !shape.empty()) continue;
    const size_t bytes = ContainerBytes(operand.element_type());
    Tensor cut(Shape{end - begin}, operand.element_type());
    std::memcpy(cut.raw(), operand.bytes().data() + begin * bytes, (end - begin) * bytes);
    operand = std::move(cut);
  }
  for (TensorType& result : half.result_types) result.shape = Shape{end - begin};
  return half;
}

rc::Shrinkable<Case> WithElementHalving(const spec::OpSpec& op, rc::Shrinkable<Case> shrinkable,
                                        bool halves_first) {
  const spec::OpSpec* spec = &op;
  return rc::shrinkable::lambda(
      [shrinkable] { return shrinkable.value(); },
      [spec, shrinkable, halves_first] {
        auto own = rc::seq::map(shrinkable.shrinks(), [spec, halves_first](rc::Shrinkable<Case> s) {
          return WithElementHalving(*spec, std::move(s), halves_first);
        });
        // Lazily: a half is cut only when the shrinker asks for it. A half
        // keeps the generator's shrinks of nothing (it is no longer a
        // generated case) but its own halves, down to one element.
        auto halves =
            rc::seq::mapMaybe(rc::seq::range(0, 2), [spec, shrinkable, halves_first](int half) {
              std::optional<Case> cut = HalfOfElements(*spec, shrinkable.value(), half == 1);
              if (!cut) return rc::Maybe<rc::Shrinkable<Case>>();
              return rc::Maybe<rc::Shrinkable<Case>>(
                  WithElementHalving(*spec, rc::shrinkable::just(*std::move(cut)), halves_first));
            });
        return halves_first ? rc::seq::concat(std::move(halves), std::move(own))
                            : rc::seq::concat(std::move(own), std::move(halves));
      });
}

}  // namespace hlocheck
