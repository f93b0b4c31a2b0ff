#include "oracle/precise/ziv.h"

#include "oracle/precise/round_to_odd.h"

namespace hlocheck::precise {
namespace {

// Per-thread MPFR numbers, so that the fallback allocates nothing per call:
// inputs hold doubles exactly (53 bits), the result has kOddPrecision bits.
struct Scratch {
  MpfrNumber x{53};
  MpfrNumber y{53};
  MpfrNumber result{kOddPrecision};
};

Scratch& ThreadScratch() {
  thread_local Scratch scratch;
  return scratch;
}

}  // namespace

ExactValue MpfrToOdd(MpfrUnary f, double x) {
  Scratch& s = ThreadScratch();
  mpfr_set_d(s.x.get(), x, MPFR_RNDN);  // exact
  int ternary = f(s.result.get(), s.x.get(), MPFR_RNDZ);
  return FromRoundedToOdd(s.result.get(), ternary);
}

ExactValue MpfrToOdd(MpfrBinary f, double x, double y) {
  Scratch& s = ThreadScratch();
  mpfr_set_d(s.x.get(), x, MPFR_RNDN);  // exact
  mpfr_set_d(s.y.get(), y, MPFR_RNDN);
  int ternary = f(s.result.get(), s.x.get(), s.y.get(), MPFR_RNDZ);
  return FromRoundedToOdd(s.result.get(), ternary);
}

}  // namespace hlocheck::precise
