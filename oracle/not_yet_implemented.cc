// The one list of spec ops the oracle does not implement yet. Each names the
// issue that brings it, so `hlocheck spec` and the oracle's "unimplemented"
// errors can say when. The list only shrinks: an op leaves it in the commit
// that adds it to a chapter table, and OpRegistryTest fails on an op that is
// in both or in neither.
#include <array>

#include "oracle/oracle.h"

namespace hlocheck::oracle {
namespace {

// Empty: every op of the spec has its oracle function. The list stays, so
// that an op the spec gains is planned here (with its issue) before it is
// implemented.
constexpr std::array<NotYetImplemented, 0> kNotYetImplemented = {};

}  // namespace

std::span<const NotYetImplemented> OpsNotYetImplemented() { return kNotYetImplemented; }

const NotYetImplemented* FindNotYetImplemented(std::string_view op) {
  for (const NotYetImplemented& entry : kNotYetImplemented) {
    if (entry.op == op) return &entry;
  }
  return nullptr;
}

}  // namespace hlocheck::oracle
