// Choices that do not scale with RapidCheck's size. rc::gen::inRange (and so
// element, elementOf and weightedElement) narrow their range as the size
// falls: at size 0 they always give the first option. Attribute values,
// element types, permutations and mutations must be reachable at every size,
// so they are drawn at the nominal size; they still shrink as usual.
#ifndef HLOCHECK_GENERATORS_CHOICE_H_
#define HLOCHECK_GENERATORS_CHOICE_H_

#include "rapidcheck.h"

namespace hlocheck {

template <typename T>
T Choose(const rc::Gen<T>& gen) {
  return *rc::gen::resize(rc::kNominalSize, gen);
}

}  // namespace hlocheck

#endif  // HLOCHECK_GENERATORS_CHOICE_H_
