// Shrinks that cut an elementwise case in halves: a failing element far
// from the origin of a large tensor keeps the usual shrinks (fewer rows,
// simpler values) from getting anywhere, since dropping a row moves it.
// Flattened to one dimension and halved, the case reaches the one failing
// element in log2(n) steps.
#ifndef HLOCHECK_GENERATORS_ELEMENT_HALVING_H_
#define HLOCHECK_GENERATORS_ELEMENT_HALVING_H_

#include <optional>

#include <rapidcheck.h>

#include "core/case.h"
#include "spec/op_spec.h"

namespace hlocheck {

// The first (`second` false) or second half of `c`'s elements, every
// operand and result flattened to one dimension; rank-0 operands (clamp's
// bounds, select's predicate) stay as they are. None where the op is not
// elementwise in that sense (a region, a dimensions attribute, an operand
// or result of another shape, a quantized tensor) or has fewer than two
// elements.
std::optional<Case> HalfOfElements(const spec::OpSpec& op, const Case& c, bool second);

// `shrinkable` with, at every step, the two halves of HalfOfElements among
// its shrinks: before its own (`halves_first`: a large case is cut down
// before its values are simplified one by one, which a shrinker with a
// budget of attempts may never get past) or after them (so that a shrink
// path recorded without halves still leads to the same case).
rc::Shrinkable<Case> WithElementHalving(const spec::OpSpec& op, rc::Shrinkable<Case> shrinkable,
                                        bool halves_first);

}  // namespace hlocheck

#endif  // HLOCHECK_GENERATORS_ELEMENT_HALVING_H_
